/* Fixture for check-cutoffs.py (not kernel code): a ladder that matches SP 800-90B, its tests guarding twice the credit. */
enum {
	JTSC_ENTROPY_SHIFT = 8,
	JTSC_APT_WINDOW = 512,
	JTSC_PRED_WINDOW = 4096,
	JTSC_ALPHA_LOG2 = 30,
	JTSC_PERM_ALPHA_LOG2 = 60,
	JTSC_GUARD = 2,
	JTSC_MAX_WORD_CREDIT = 32 << JTSC_ENTROPY_SHIFT,
	JTSC_MAX_SAMPLES_PER_WORD = 512,
};

const struct jtsc_health_params jtsc_ladder[] = {
	{
		.credit = 2, .samples_per_word = 512,
		.rct_cutoff = 2369, .rct_perm_cutoff = 4289,
		.apt_cutoff = 513, .apt_perm_cutoff = 513,
		.run_cutoff = 2369, .run_perm_cutoff = 4289,
		.hits_cutoff = 4089, .hits_perm_cutoff = 4097,
	},
	{
		.credit = 128, .samples_per_word = 64,
		.rct_cutoff = 38, .rct_perm_cutoff = 68,
		.apt_cutoff = 325, .apt_perm_cutoff = 355,
		.run_cutoff = 38, .run_perm_cutoff = 68,
		.hits_cutoff = 2265, .hits_perm_cutoff = 2346,
	},
};
