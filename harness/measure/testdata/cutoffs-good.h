/* Fixture for check-cutoffs.py (not kernel code): a ladder that matches SP 800-90B. */
#define JTSC_RUN_CUTOFF(log2_alpha, credit) \
	(1 + DIV_ROUND_UP((log2_alpha) << JTSC_ENTROPY_SHIFT, (credit)))
enum {
	JTSC_ENTROPY_SHIFT = 8,
	JTSC_APT_WINDOW = 512,
	JTSC_PRED_WINDOW = 4096,
	JTSC_ALPHA_LOG2 = 30,
	JTSC_PERM_ALPHA_LOG2 = 60,
	JTSC_MAX_WORD_CREDIT = 32 << JTSC_ENTROPY_SHIFT,
	JTSC_MAX_SAMPLES_PER_WORD = 512,
};
#define JTSC_LADDER(X)				\
	X(2,   512, 513, 513, 4097, 4097)	\
	X(32,  256, 502, 512, 3870, 3909)	\
	X(256,  32, 325, 355, 2265, 2346)
