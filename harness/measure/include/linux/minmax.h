/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/minmax.h>: min(), max(), min_t(),
 * max_t() and clamp(), each argument evaluated once. Unlike the kernel's, min()
 * and max() do not reject mixed signedness: the kernel build checks that.
 */
#ifndef _JTSC_USER_LINUX_MINMAX_H
#define _JTSC_USER_LINUX_MINMAX_H

#define min(x, y)	({ __auto_type _x = (x); __auto_type _y = (y); _x < _y ? _x : _y; })
#define max(x, y)	({ __auto_type _x = (x); __auto_type _y = (y); _x > _y ? _x : _y; })
#define min_t(type, x, y)	({ type _x = (x); type _y = (y); _x < _y ? _x : _y; })
#define max_t(type, x, y)	({ type _x = (x); type _y = (y); _x > _y ? _x : _y; })
#define max3(x, y, z)	max(max(x, y), z)
#define clamp(val, lo, hi)	min(max(val, lo), hi)

#endif /* _JTSC_USER_LINUX_MINMAX_H */
