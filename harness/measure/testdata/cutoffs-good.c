/* Fixture for check-cutoffs.py (not kernel code): a ladder that matches SP 800-90B. */
enum {
	JTSC_ENTROPY_SHIFT = 8,
	JTSC_APT_WINDOW = 512,
	JTSC_PRED_WINDOW = 4096,
	JTSC_ALPHA_LOG2 = 30,
	JTSC_PERM_ALPHA_LOG2 = 60,
	JTSC_MAX_WORD_CREDIT = 32 << JTSC_ENTROPY_SHIFT,
	JTSC_MAX_SAMPLES_PER_WORD = 512,
};

const struct jtsc_health_params jtsc_ladder[] = {
	{
		.credit = 2, .samples_per_word = 512,
		.rct_cutoff = 3841, .rct_perm_cutoff = 7681,
		.apt_cutoff = 513, .apt_perm_cutoff = 513,
		.run_cutoff = 4737, .run_perm_cutoff = 8577,
		.hits_cutoff = 4097, .hits_perm_cutoff = 4097,
	},
	{
		.credit = 256, .samples_per_word = 32,
		.rct_cutoff = 31, .rct_perm_cutoff = 61,
		.apt_cutoff = 325, .apt_perm_cutoff = 355,
		.run_cutoff = 38, .run_perm_cutoff = 68,
		.hits_cutoff = 2265, .hits_perm_cutoff = 2346,
	},
};
