/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/limits.h>: the U*_MAX and
 * S*_MAX/MIN constants, and INT_MAX and friends from <limits.h>.
 */
#ifndef _JTSC_USER_LINUX_LIMITS_H
#define _JTSC_USER_LINUX_LIMITS_H

#include <limits.h>
#include <stdint.h>

#define U8_MAX		UINT8_MAX
#define S8_MAX		INT8_MAX
#define S8_MIN		INT8_MIN
#define U16_MAX		UINT16_MAX
#define S16_MAX		INT16_MAX
#define S16_MIN		INT16_MIN
#define U32_MAX		UINT32_MAX
#define S32_MAX		INT32_MAX
#define S32_MIN		INT32_MIN
#define U64_MAX		UINT64_MAX
#define S64_MAX		INT64_MAX
#define S64_MIN		INT64_MIN

#endif /* _JTSC_USER_LINUX_LIMITS_H */
