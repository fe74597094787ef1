/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/gcd.h>, for the jitter_tsc core
 * (crypto/jitter_tsc_core.c) in harness/measure: gcd(), by Euclid.
 */
#ifndef _JTSC_USER_LINUX_GCD_H
#define _JTSC_USER_LINUX_GCD_H

static inline unsigned long gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

#endif /* _JTSC_USER_LINUX_GCD_H */
