/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/types.h>, so that kernel files
 * such as crypto/jitter_tsc_estimate.c build in harness/measure: the kernel's
 * fixed-width types from <stdint.h>. Put this include directory first (-I)
 * so that it shadows /usr/include/linux/types.h.
 */
#ifndef _JTSC_USER_LINUX_TYPES_H
#define _JTSC_USER_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif /* _JTSC_USER_LINUX_TYPES_H */
