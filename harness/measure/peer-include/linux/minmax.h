/* SPDX-License-Identifier: GPL-2.0 */
/* peer: stands in for the kernel's <linux/minmax.h> */
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
