/* Fixture for check-cutoffs.py (not kernel code): cutoffs that match SP 800-90B. */
#define FIX_RCT(a, credit) (1 + DIV_ROUND_UP((a) << FIX_SHIFT, (credit)))
enum {
	FIX_SHIFT = 8,
	JTSC_APT_WINDOW = 512,
	JTSC_PRED_WINDOW = 4096,
	FIX_CREDIT = 32,	/* 1/8 bit */
	FIX_RCT_I = FIX_RCT(30, FIX_CREDIT),
};
const struct jtsc_health_params jtsc_params[2] = {
	[0] = {
		.name = "fixture-low",
		.credit = FIX_CREDIT,
		.rct_cutoff = FIX_RCT_I,
		.rct_perm_cutoff = 481,
		.apt_cutoff = 502,
		.apt_perm_cutoff = 512,
		.run_cutoff = 297,
		.run_perm_cutoff = 537,
		.hits_cutoff = 3870,
		.hits_perm_cutoff = 3909,
		.collect = fixture_collect,
	},
	[1] = {
		.name = "fixture-high",
		.credit = 256,		/* 1 bit */
		.rct_cutoff = 31,
		.rct_perm_cutoff = 61,
		.apt_cutoff = 325,
		.apt_perm_cutoff = 355,
		.run_cutoff = 38,
		.run_perm_cutoff = 68,
		.hits_cutoff = 2265,
		.hits_perm_cutoff = 2346,
		.collect = fixture_collect,
	},
};
