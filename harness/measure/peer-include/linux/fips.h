/* SPDX-License-Identifier: GPL-2.0 */
/* peer: stands in for the kernel's <linux/fips.h> (a kernel not in FIPS mode) */
#define fips_enabled 0
