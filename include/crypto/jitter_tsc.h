/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitter_tsc: health-tested CPU timing jitter for early boot
 *
 * The in-kernel interface that drivers/char/random.c uses to draw entropy
 * from the jitter_tsc collectors before the crng is ready. Everything else
 * goes through the crypto API as the "jitter_tsc" rng.
 */
#ifndef _CRYPTO_JITTER_TSC_H
#define _CRYPTO_JITTER_TSC_H

#include <linux/errno.h>
#include <linux/types.h>

/* Largest request of jitter_tsc_pull(), in bytes. */
#define JITTER_TSC_PULL_MAX	256

#if IS_ENABLED(CONFIG_CRYPTO_JITTER_TSC_SEED)
int jitter_tsc_pull(void *buf, size_t len);
#else
static inline int jitter_tsc_pull(void *buf, size_t len)
{
	return -ENODEV;
}
#endif

#endif /* _CRYPTO_JITTER_TSC_H */
