/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/math64.h>: 64-bit divisions and
 * the wide multiply-and-shift, with the kernel's semantics. Without 128-bit
 * integers (a 32-bit build) mul_u64_u64_shr() is the kernel's generic one.
 */
#ifndef _JTSC_USER_LINUX_MATH64_H
#define _JTSC_USER_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 mul_u32_u32(u32 a, u32 b)
{
	return (u64)a * b;
}

#ifdef __SIZEOF_INT128__
/* (a * b) >> shift, the high part above 64 bits dropped */
static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * b) >> shift);
}
#else
static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	u64 rl = mul_u32_u32(a, b), rm = mul_u32_u32(a, b >> 32);
	u64 rn = mul_u32_u32(a >> 32, b), rh = mul_u32_u32(a >> 32, b >> 32);
	u64 c = (rl >> 32) + (u32)rm + (u32)rn;

	rl = (u32)rl | c << 32;
	c = (c >> 32) + (rm >> 32) + (rn >> 32) + (u32)rh;
	rh = (u32)c | ((c >> 32) + (rh >> 32)) << 32;
	if (shift == 0)
		return rl;
	if (shift < 64)
		return (rl >> shift) | (rh << (64 - shift));
	return rh >> (shift & 63);
}
#endif

#endif /* _JTSC_USER_LINUX_MATH64_H */
