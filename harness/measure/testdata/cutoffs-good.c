/* Fixture for check-cutoffs.py (not kernel code): cutoffs that match SP 800-90B. */
#define FIX_RCT(a, credit) (1 + DIV_ROUND_UP((a) << FIX_SHIFT, (credit)))
enum {
	FIX_SHIFT = 6,
	FIX_CREDIT = 8,		/* 1/8 bit */
	FIX_RCT_I = FIX_RCT(30, FIX_CREDIT),
};
const struct jtsc_health_params jtsc_params[2] = {
	[0] = {
		.name = "fixture-bits",
		.credit = FIX_CREDIT,
		.window = 1024,
		.rct_cutoff = FIX_RCT_I,
		.rct_perm_cutoff = 481,
		.apt_cutoff = 988,
		.apt_perm_cutoff = 1005,
	},
	[1] = {
		.name = "fixture-deltas",
		.credit = 64,		/* 1 bit */
		.window = 512,
		.rct_cutoff = 31,
		.rct_perm_cutoff = 61,
		.apt_cutoff = 325,
		.apt_perm_cutoff = 355,
	},
};
