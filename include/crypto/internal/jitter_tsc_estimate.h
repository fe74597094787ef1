/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SP 800-90B section 6.3 non-IID min-entropy estimators on 8-bit samples, in
 * integer arithmetic, so that jitter_tsc can measure its own raw samples at boot.
 * The same file builds in user space (harness/measure/ea-core.c), where it is
 * checked against NIST's reference implementation.
 */
#ifndef _CRYPTO_INTERNAL_JITTER_TSC_ESTIMATE_H
#define _CRYPTO_INTERNAL_JITTER_TSC_ESTIMATE_H

#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/types.h>

/* Min-entropy in bits per sample as fixed point: JTSC_EST_ONE = 1 bit. */
#define JTSC_EST_SHIFT	32
#define JTSC_EST_ONE	BIT_ULL(JTSC_EST_SHIFT)
/* An estimator that does not apply to the samples given, see enum jtsc_estimator. */
#define JTSC_EST_NONE	U64_MAX

/**
 * enum jtsc_estimator - The SP 800-90B estimators jtsc_estimate_samples() runs.
 * @JTSC_EST_MCV: 6.3.1 most common value; applies from 2 samples on.
 * @JTSC_EST_TUPLE: 6.3.5 t-tuple; applies when some symbol occurs at least 35 times.
 * @JTSC_EST_LRS: 6.3.6 longest repeated substring, on the tuple lengths from the
 *	t-tuple's t + 1 to the longest repeat; applies when that range is not empty.
 * @JTSC_EST_MULTI_MCW: 6.3.7 MultiMCW prediction (windows 63, 255, 1023 and 4095);
 *	applies from 4096 samples on.
 * @JTSC_EST_LAG: 6.3.8 lag prediction (lags 1 to 128); applies from 3 samples on.
 * @JTSC_NR_ESTIMATORS: The number of estimators.
 */
enum jtsc_estimator {
	JTSC_EST_MCV,
	JTSC_EST_TUPLE,
	JTSC_EST_LRS,
	JTSC_EST_MULTI_MCW,
	JTSC_EST_LAG,
	JTSC_NR_ESTIMATORS
};

/**
 * struct jtsc_estimate - The min-entropy of a run of samples.
 * @h: Each estimator's min-entropy in bits per sample, in units of 1 /
 *	JTSC_EST_ONE, or JTSC_EST_NONE where it does not apply.
 * @h_min: The lowest of @h, at most 8 bits (8 * JTSC_EST_ONE): the assessed
 *	min-entropy per sample. 0 when no estimator applies (fewer than 2 samples).
 * @which: The estimator with the lowest estimate (whose value is @h_min unless
 *	the 8-bit cap applied); JTSC_EST_MCV when none applies.
 * @samples: The number of samples.
 * @symbols: The number of distinct sample values.
 */
struct jtsc_estimate {
	u64 h[JTSC_NR_ESTIMATORS];
	u64 h_min;
	enum jtsc_estimator which;
	unsigned int samples;
	unsigned int symbols;
};

/*
 * The estimators' names as NIST's tool prints them, by enum jtsc_estimator:
 * "MCV", "t-tuple", "LRS", "MultiMCW", "lag".
 */
extern const char *const jtsc_estimator_name[JTSC_NR_ESTIMATORS];

/**
 * jtsc_estimate_work_size() - Scratch memory jtsc_estimate_samples() needs.
 * @n: The number of samples.
 *
 * 25 bytes per sample and 48 more, at least about 31 KiB. @n must be below 2^31,
 * and on a 32-bit host small enough that the size fits a size_t.
 *
 * Context: Any context.
 * Return: The size in bytes of the @work buffer jtsc_estimate_samples() takes for @n samples.
 */
size_t jtsc_estimate_work_size(unsigned int n);

/**
 * jtsc_estimate_samples() - Estimate the min-entropy per sample of raw 8-bit samples.
 * @samples: The samples, one per byte.
 * @n: The number of samples, below 2^31.
 * @work: Scratch memory of jtsc_estimate_work_size(@n) bytes, 8-byte aligned; its
 *	contents on entry do not matter and on return are of no use.
 * @e: Where the estimates go.
 *
 * Runs the SP 800-90B section 6.3 estimators that apply to 8-bit samples and are
 * cheap enough for a boot-time self-assessment (see enum jtsc_estimator) on the
 * samples' symbols, the distinct sample values mapped in order to 0..k-1, as NIST's
 * ea_non_iid 1.1.7 does for its "Literal" estimates, and to the same result within
 * 1e-9 bit. MultiMMC and LZ78Y, the two other estimators NIST runs on such samples,
 * are left out, so that the minimum can be above NIST's, never below. Integer
 * arithmetic only; the time is O(@n log @n) on any input.
 *
 * Context: Any context; takes no lock and allocates nothing. Slow (milliseconds for
 * 2^14 samples): not for atomic context in practice.
 */
void jtsc_estimate_samples(const u8 *samples, unsigned int n, void *work, struct jtsc_estimate *e);

#endif /* _CRYPTO_INTERNAL_JITTER_TSC_ESTIMATE_H */
