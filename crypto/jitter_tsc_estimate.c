// SPDX-License-Identifier: GPL-2.0
/*
 * SP 800-90B non-IID min-entropy estimators in integer arithmetic
 *
 * The raw 8-bit samples are credited only as far as this estimate on the
 * machine itself supports: MCV (6.3.1), t-tuple (6.3.5), LRS (6.3.6),
 * MultiMCW (6.3.7) and lag (6.3.8), NIST's ea_non_iid 1.1.7 "Literal"
 * estimates, its ties and constants included; and MultiMMC's orders
 * (6.3.9), each its own predictor, over the samples and over their bits,
 * which see what the bitstring estimates (3.1.3) and LZ78Y see. FX is
 * unsigned Q2.62 for probabilities, LG signed Q8.56 for base-2 logarithms,
 * results are Q32.32. Time: O(n log n) for the suffix array, O(n) for lag,
 * O(n k) at worst for MultiMCW (k <= 256), O(n) for MultiMMC's orders.
 */

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/sched.h>

#include "jitter_tsc_internal.h"

enum {
	FX_FRAC = 62,			/* FX: Q2.62 */
	LG_FRAC = 56,			/* LG: Q8.56 */
	FX_LG_SHIFT = FX_FRAC - LG_FRAC,
	LG_COARSE = 8,			/* fraction bits of lg2()'s cheap bounds */
	EX2_TERMS = 19,			/* Taylor terms in ex2() */
	LOG1P_TERMS = 8,		/* series terms in log2_1p() */
};

#define FX_ONE		BIT_ULL(FX_FRAC)
#define LG_ONE		((s64)BIT_ULL(LG_FRAC))

/* ln 2 = 0.6931471805599453094..., rounded to Q2.62 */
#define FX_LN2		0x2c5c85fdf473de6bULL

/* NIST's Z = 2.5758293035489008 (0x1.49b4c64d69161p+1), exact in Q2.62 */
#define FX_ZALPHA	0xa4da6326b48b0800ULL

/*
 * log2(x / 2^frac) in LG to @bits fraction bits, x > 0, by squaring the
 * mantissa: within (log2 x - 2^-bits - 2^-60, log2 x], never above.
 */
static s64 lg2(u64 x, unsigned int frac, unsigned int bits)
{
	int k = fls64(x) - 1;
	u64 z = k <= FX_FRAC ? x << (FX_FRAC - k) : x >> (k - FX_FRAC);
	s64 r = (s64)(k - (int)frac) * LG_ONE;
	s64 bit = LG_ONE;

	while (bits--) {
		bit >>= 1;
		z = mul_u64_u64_shr(z, z, FX_FRAC);
		if (z >= 2 * FX_ONE) {
			z >>= 1;
			r += bit;
		}
	}
	return r;
}

/* 2^l in FX for l <= 1 in LG, by e^x's Taylor series: within 2^-57 relative */
static u64 ex2(s64 l)
{
	s64 ip = l >> LG_FRAC;
	u64 u = mul_u64_u64_shr((u64)(l & (LG_ONE - 1)) << FX_LG_SHIFT, FX_LN2, FX_FRAC);
	u64 acc = FX_ONE;
	unsigned int j;

	for (j = EX2_TERMS; j; j--)
		acc = FX_ONE + div_u64(mul_u64_u64_shr(acc, u, FX_FRAC), j);
	if (ip >= 0)
		return acc << ip;
	return ip > -64 ? acc >> -ip : 0;
}

/* a / b in FX, rounded down, for a <= b < 2^32: a long division in two steps */
static u64 fx_frac(u32 a, u32 b)
{
	u32 rem;
	u64 hi = div_u64_rem((u64)a << (FX_FRAC - 32), b, &rem);

	return (hi << 32) + div_u64((u64)rem << 32, b);
}

/* Min-entropy -log2(p) of a probability 0 < p <= 1 in FX, in Q32.32, rounded */
static u64 fx_entropy(u64 p)
{
	u64 h = -lg2(p, FX_FRAC, LG_FRAC);

	return (h + (1ULL << (LG_FRAC - JTSC_EST_SHIFT - 1))) >> (LG_FRAC - JTSC_EST_SHIFT);
}

/* 6.3.1 step 3: min(1, p + Z sqrt(p (1 - p) / (n - 1))), within 2^-55 */
static u64 upper_bound(u64 p, u32 n)
{
	s64 l;

	if (!p || p >= FX_ONE)
		return min(p, FX_ONE);
	l = lg2(p, FX_FRAC, LG_FRAC) + lg2(FX_ONE - p, FX_FRAC, LG_FRAC) - lg2(n - 1, 0, LG_FRAC);
	p += mul_u64_u64_shr(ex2(l >> 1), FX_ZALPHA, FX_FRAC);
	return min(p, FX_ONE);
}

/* Where jtsc_estimate_samples() puts what, in its work buffer (see work_layout()) */
struct est_work {
	s64 *pairs;	/* LRS pairs by length; then MultiMCW's, then lag's tables */
	u32 *sa;	/* suffix array; LCP stack lengths */
	u32 *rank;	/* suffix ranks; LCP stack left ends */
	u32 *tmp;	/* second-key order; LCP array */
	u32 *cnt;	/* symbol counts and map; radix counts; Q[W] */
	u8 *sym;	/* the samples as symbols 0..k-1 */
};

/*
 * Suffix array by prefix doubling, two counting sorts a round: O(n log n)
 * on any input, where counting tuples directly costs O(n^2) on a constant one.
 */
static void suffix_array(const u8 *s, u32 n, u32 *sa, u32 *rk, u32 *tmp, u32 *cnt)
{
	u32 m = 256, i, k, p, *t;

	memset(cnt, 0, (m + 1) * sizeof(*cnt));
	for (i = 0; i < n; i++) {
		rk[i] = s[i];
		cnt[s[i]]++;
	}
	for (i = 1; i < m; i++)
		cnt[i] += cnt[i - 1];
	for (i = n; i--; )
		sa[--cnt[rk[i]]] = i;
	for (k = 1; ; k <<= 1) {
		p = 0;
		for (i = k < n ? n - k : 0; i < n; i++)
			tmp[p++] = i;
		for (i = 0; i < n; i++)
			if (sa[i] >= k)
				tmp[p++] = sa[i] - k;
		memset(cnt, 0, (m + 1) * sizeof(*cnt));
		for (i = 0; i < n; i++)
			cnt[rk[i]]++;
		for (i = 1; i < m; i++)
			cnt[i] += cnt[i - 1];
		for (i = n; i--; )
			sa[--cnt[rk[tmp[i]]]] = tmp[i];
		tmp[sa[0]] = 0;
		p = 0;
		for (i = 1; i < n; i++) {
			u32 a = sa[i - 1], b = sa[i];
			bool ha = a + k < n, hb = b + k < n;

			if (rk[a] != rk[b] || ha != hb || (ha && rk[a + k] != rk[b + k]))
				p++;
			tmp[b] = p;
		}
		t = rk;
		rk = tmp;
		tmp = t;
		m = p + 1;
		cond_resched();
		if (m == n || k >= n - k)
			break;
	}
}

/* Kasai's LCP array: lcp[i] is the common prefix of suffixes sa[i - 1], sa[i] */
static void lcp_array(const u8 *s, u32 n, const u32 *sa, u32 *rk, u32 *lcp)
{
	u32 i, h = 0;

	for (i = 0; i < n; i++)
		rk[sa[i]] = i;
	lcp[0] = 0;
	for (i = 0; i < n; i++) {
		if (rk[i] > 0) {
			u32 j = sa[rk[i] - 1];

			while (i + h < n && j + h < n && s[i + h] == s[j + h])
				h++;
			lcp[rk[i]] = h;
			if (h > 0)
				h--;
		} else {
			h = 0;
		}
	}
}

/*
 * max(best, log2(a / b) / w) in LG, a <= b. Over thousands of w, most
 * candidates fall to cheap upper bounds before a full logarithm is needed.
 */
static s64 max_root(u64 a, u64 b, u32 w, s64 best)
{
	s64 l = min_t(s64, fls64(a) - fls64(b) + 1, 0) * LG_ONE;

	if (div64_s64(l, w) <= best)
		return best;
	l = lg2(a, 0, LG_COARSE) - lg2(b, 0, LG_COARSE) + (LG_ONE >> LG_COARSE) + 1024;
	if (div64_s64(min_t(s64, l, 0), w) <= best)
		return best;
	l = div64_s64(lg2(a, 0, LG_FRAC) - lg2(b, 0, LG_FRAC), w);
	return max(l, best);
}

/*
 * 6.3.5 t-tuple and 6.3.6 LRS. An lcp-interval of c suffixes sharing l
 * symbols, its parent lp, holds c copies of each W-tuple, lp < W <= l:
 * Q[W] is the largest such c, and the pairs of equal W-tuples add C(c, 2).
 */
static void est_tuple_lrs(const u8 *s, u32 n, const struct est_work *w, u64 *h_tuple,
			  u64 *h_lrs)
{
	u32 *stl = w->sa, *stb = w->rank, *lcp = w->tmp, *maxc = w->cnt;
	s64 *pairs = w->pairs, best;
	u32 top = 0, i, t, v = 0;

	suffix_array(s, n, w->sa, w->rank, w->tmp, w->cnt);
	lcp_array(s, n, w->sa, w->rank, lcp);

	/* the intervals, as they close, from a stack of (l, left end) */
	memset(maxc, 0, (n + 2) * sizeof(*maxc));
	memset(pairs, 0, (n + 2) * sizeof(*pairs));
	stl[0] = 0;
	stb[0] = 0;
	for (i = 1; i <= n; i++) {
		u32 cur = i < n ? lcp[i] : 0, lb = i - 1;

		while (cur < stl[top]) {
			u32 l = stl[top], b = stb[top], c = i - b, lp;
			s64 c2 = ((u64)c * (c - 1)) >> 1;

			top--;
			lp = max(cur, stl[top]);
			maxc[l] = max(maxc[l], c);
			pairs[lp + 1] += c2;
			pairs[l + 1] -= c2;
			v = max(v, l);
			lb = b;
		}
		if (cur > stl[top]) {
			top++;
			stl[top] = cur;
			stb[top] = lb;
		}
	}

	/* Q[W] = the largest count at lengths W and longer */
	for (i = n - 1; i >= 1; i--)
		maxc[i] = max(maxc[i], maxc[i + 1]);

	/* t-tuple: t is the longest W with Q[W] >= 35; p = max (Q[W] / (n - W + 1))^(1/W) */
	for (t = 0; t + 1 <= n - 1 && maxc[t + 1] >= 35; t++)
		;
	*h_tuple = JTSC_EST_NONE;
	if (t) {
		best = S64_MIN;
		for (i = t; i >= 1; i--)
			best = max_root(maxc[i], n - i + 1, i, best);
		*h_tuple = fx_entropy(upper_bound(ex2(best), n));
	}

	/* LRS: p = max (pairs[W] / C(n - W + 1, 2))^(1/W) over W from t + 1 to v */
	*h_lrs = JTSC_EST_NONE;
	if (t + 1 > v)
		return;
	for (i = 2; i <= v; i++)
		pairs[i] += pairs[i - 1];
	best = S64_MIN;
	for (i = v; i >= t + 1; i--) {
		u64 m = n - i + 1;

		if (pairs[i])
			best = max_root(pairs[i], (m * (m - 1)) >> 1, i, best);
	}
	*h_lrs = fx_entropy(upper_bound(ex2(best), n));
}

/* The P_local search's r + 1 and, in LG, log2 of r, N + 1, ln 2 and 0.99 */
struct pe_ctx {
	u64 r;
	s64 lr;
	s64 ln1;
	s64 lg_ln2;
	s64 target;
};

/* log2(1 + y) in LG for y = 2^ly < 1, its log2 in *lly, by series below 2^-8 */
static s64 log2_1p(s64 ly, s64 lg_ln2, s64 *lly)
{
	u64 y = ex2(ly), f;
	s64 l1;
	unsigned int j;

	if (ly >= -8 * LG_ONE) {
		l1 = lg2(FX_ONE + y, FX_FRAC, LG_FRAC);
		*lly = lg2(l1, LG_FRAC, LG_FRAC);
		return l1;
	}
	f = div_u64(FX_ONE, LOG1P_TERMS + 1);
	for (j = LOG1P_TERMS; j; j--)
		f = div_u64(FX_ONE, j) - mul_u64_u64_shr(y, f, FX_FRAC);
	*lly = ly + lg2(f, FX_FRAC, LG_FRAC) - lg_ln2;
	return ex2(*lly) >> FX_LG_SHIFT;
}

/*
 * Whether a run of r hits in N + 1 trials at p is less likely than 1%:
 * NIST's ln(1 - p x) - ln((r + 1 - r x) q) - (N + 1) ln x > ln 0.99, x the
 * fixed point of 1 + q p^r x^(r + 1) after at most 66 steps from 1. Worked
 * in y = x - 1 as a base-2 logarithm, as y is about 0.01 / N. False where
 * NIST's left side is NaN or -inf, as its comparison is then.
 */
static bool pe_above(const struct pe_ctx *c, u64 p)
{
	u64 q = FX_ONE - p, z;
	s64 lp = lg2(p, FX_FRAC, LG_FRAC), lq = lg2(q, FX_FRAC, LG_FRAC);
	s64 ls, ly, nly, lly, a, b, lc;
	unsigned int i;

	/* p^r < 2^-64 and N < 2^32 leave every term far above log2(0.99) */
	if (mul_u64_u64_shr(c->r, -lp, LG_FRAC) >= 64)
		return true;
	ls = lq + (s64)c->r * lp;		/* log2 of s = q p^r */

	ly = ls;
	for (i = 1; ; i++) {
		if (ly + c->lr >= 0)
			return false;
		if (i == 66)
			break;
		nly = ls + (s64)(c->r + 1) * log2_1p(ly, c->lg_ln2, &lly);
		if (nly == ly)
			break;
		ly = nly;
	}

	if (ly + lp - lq >= 0)
		return false;
	z = FX_ONE - ex2(ly + lp - lq);
	if (!z)
		return false;
	a = lg2(z, FX_FRAC, LG_FRAC);
	z = FX_ONE - ex2(ly + c->lr);
	if (!z)
		return false;
	b = lg2(z, FX_FRAC, LG_FRAC);
	log2_1p(ly, c->lg_ln2, &lly);
	lc = lly + c->ln1;
	if (lc >= 6 * LG_ONE)
		return false;
	/* 2^lc in LG is 2^(lc - 6) in FX */
	return a - b - (s64)ex2(lc - 6 * LG_ONE) > c->target;
}

/*
 * A predictor's estimate: -log2 max(P_global', P_local, 1/k) for c hits out
 * of n, longest run maxrun (6.3.7, 6.3.8)
 */
static u64 est_predict(u32 c, u32 n, u32 maxrun, unsigned int k)
{
	struct pe_ctx ctx = { .r = (u64)maxrun + 1 };
	u64 cur = div_u64(FX_ONE, k), pg, lo, hi;

	if (c)
		pg = upper_bound(fx_frac(c, n), n);
	else
		pg = FX_ONE - ex2(div64_s64(-lg2(100, 0, LG_FRAC), n));
	cur = max(cur, pg);
	if (cur >= FX_ONE)
		return 0;

	ctx.lr = lg2(ctx.r, 0, LG_FRAC);
	ctx.ln1 = lg2((u64)n + 1, 0, LG_FRAC);
	ctx.lg_ln2 = lg2(FX_LN2, FX_FRAC, LG_FRAC);
	ctx.target = lg2(99, 0, LG_FRAC) - lg2(100, 0, LG_FRAC);
	if (pe_above(&ctx, cur)) {
		/* it falls with p: bisect [cur, 1) */
		lo = cur;
		hi = FX_ONE;
		while (hi - lo > 1) {
			u64 mid = lo + ((hi - lo) >> 1);

			if (pe_above(&ctx, mid))
				lo = mid;
			else
				hi = mid;
			cond_resched();
		}
		cur = hi;
	}
	return fx_entropy(cur);
}

enum { MCW_N = 4 };

static const u32 mcw_window[MCW_N] = { 63, 255, 1023, 4095 };

/* A MultiMCW window: symbol counts, where each was seen last, the prediction */
struct mcw_window {
	u32 cnt[256], pos[256];
	u32 maxc, freq;
};

/*
 * Slide window @w, of size @wn, over sample i. The prediction is the most
 * common symbol, the latest seen on a tie. NIST rescans the alphabet when
 * it leaves; one coming in at the old count is that scan's answer too.
 */
static void mcw_slide(struct mcw_window *w, const u8 *s, u32 i, u32 wn, unsigned int k)
{
	u32 out = s[i - wn], in = s[i], m, mp;

	w->cnt[out]--;
	w->cnt[in]++;
	w->pos[in] = i;
	if (w->cnt[in] >= w->maxc) {
		w->maxc = w->cnt[in];
		w->freq = in;
		return;
	}
	if (out != w->freq)
		return;
	w->maxc--;
	mp = i - wn;
	for (m = 0; m < k; m++) {
		if (w->maxc < w->cnt[m] || (w->maxc == w->cnt[m] && mp <= w->pos[m])) {
			w->maxc = w->cnt[m];
			w->freq = m;
			mp = w->pos[m];
		}
	}
}

/* 6.3.7 MultiMCW: the most common symbol in the last 63, 255, 1023, 4095 */
static u64 est_multi_mcw(const u8 *s, u32 n, unsigned int k, const struct est_work *w)
{
	struct mcw_window *win = (struct mcw_window *)w->pairs;
	u32 sb[MCW_N] = { 0 };
	u32 c = 0, run = 0, maxrun = 0, i;
	unsigned int j, winner = 0;

	if (n < mcw_window[MCW_N - 1] + 1)
		return JTSC_EST_NONE;
	memset(win, 0, MCW_N * sizeof(*win));
	/* NIST fills all four windows first; a window predicts from i = its size */
	for (i = 0; i < mcw_window[MCW_N - 1]; i++) {
		for (j = 0; j < MCW_N; j++) {
			if (i >= mcw_window[j])
				continue;
			if (win[j].maxc <= ++win[j].cnt[s[i]]) {
				win[j].maxc = win[j].cnt[s[i]];
				win[j].freq = s[i];
			}
			win[j].pos[s[i]] = i;
		}
	}
	for (i = mcw_window[0]; i < n; i++) {
		if (win[winner].freq == s[i]) {
			c++;
			maxrun = max(maxrun, ++run);
		} else {
			run = 0;
		}
		for (j = 0; j < MCW_N; j++)
			if (i >= mcw_window[j] && win[j].freq == s[i] && ++sb[j] >= sb[winner])
				winner = j;
		for (j = 0; j < MCW_N; j++)
			if (i >= mcw_window[j])
				mcw_slide(&win[j], s, i, mcw_window[j], k);
		/* up to 4 x 256 steps a sample when the mode keeps leaving */
		if (!(i % 128))
			cond_resched();
	}
	return est_predict(c, n - mcw_window[0], maxrun, k);
}

enum { LAG_D = 128, LAG_PLANES = 32 };

/* lag's tables; a set of lags is two u64, bit d - 1 for lag d */
struct lag_tables {
	u64 seen[256][2];	/* the lags of each symbol's occurrences from last[] */
	u32 last[256];		/* where each symbol was seen last, + 1; 0: not yet */
	u64 score[LAG_PLANES][2];	/* bit b of each lag's score, in plane b */
};

/* The highest lag in a non-empty set */
static u32 lag_highest(u64 lo, u64 hi)
{
	return hi ? 64 + fls64(hi) : fls64(lo);
}

/*
 * 6.3.8 lag: the symbol d back, d = 1..128, the lag with the most hits
 * predicting. NIST's winner after a sample is the highest hit lag that had
 * the top score M, else M - 1, else the old one. Scores are bit-sliced, so
 * a sample costs log2(n) operations, not one per hit lag.
 */
static u64 est_lag(const u8 *s, u32 n, unsigned int k, const struct est_work *w)
{
	struct lag_tables *t = (struct lag_tables *)w->pairs;
	u32 c = 0, run = 0, maxrun = 0, i, b, top = 0, winner = 1;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		u32 x = s[i], gap = i + 1 - t->last[x];
		u64 lo = 0, hi = 0, m0, m1, e0, e1, f0, f1, c0, c1;

		if (!(i % 2048))
			cond_resched();
		if (i >= winner && s[i - winner] == x) {
			c++;
			maxrun = max(maxrun, ++run);
		} else {
			run = 0;
		}

		/* the hits: x's lags as seen from i, older by gap, and its last one */
		if (t->last[x] && gap <= LAG_D) {
			lo = t->seen[x][0];
			hi = t->seen[x][1];
			if (gap < 64) {
				hi = hi << gap | lo >> (64 - gap);
				lo <<= gap;
			} else {
				hi = gap < 128 ? lo << (gap - 64) : 0;
				lo = 0;
			}
			if (gap <= 64)
				lo |= 1ULL << (gap - 1);
			else
				hi |= 1ULL << (gap - 65);
		}
		t->seen[x][0] = lo;
		t->seen[x][1] = hi;
		t->last[x] = i + 1;
		if (!(lo | hi))
			continue;

		/* e: the hits scoring top, f: top - 1 (none when top is 0) */
		e0 = lo;
		e1 = hi;
		f0 = top ? lo : 0;
		f1 = top ? hi : 0;
		for (b = 0; b < (u32)fls64(top); b++) {
			m0 = ((top >> b) & 1) - 1ULL;
			m1 = (((top - 1) >> b) & 1) - 1ULL;
			e0 &= t->score[b][0] ^ m0;
			e1 &= t->score[b][1] ^ m0;
			f0 &= t->score[b][0] ^ m1;
			f1 &= t->score[b][1] ^ m1;
		}
		if (e0 | e1) {
			winner = lag_highest(e0, e1);
			top++;
		} else if (f0 | f1) {
			winner = lag_highest(f0, f1);
		}

		/* add one to the hits' scores, a carry rippling up the planes */
		c0 = lo;
		c1 = hi;
		for (b = 0; c0 | c1; b++) {
			lo = t->score[b][0] & c0;
			hi = t->score[b][1] & c1;
			t->score[b][0] ^= c0;
			t->score[b][1] ^= c1;
			c0 = lo;
			c1 = hi;
		}
	}
	/* NIST starts at the second sample: the first has no prediction */
	return est_predict(c, n - 1, maxrun, k);
}

enum { MMC_D = 16, MMC_BITS_D = 10, MMC_COUNTS = 1 << 16 };

/* Counts of each (context, next symbol); each context's most counted one */
struct mmc_tables {
	u16 cnt[MMC_COUNTS];
	u16 top[MMC_COUNTS / 2];
	u8 pick[MMC_COUNTS / 2];
};

/* A context's prediction against @x, then @x counted in it (ties: the larger symbol) */
static void mmc_step(struct mmc_tables *t, u32 ctx, u32 x, unsigned int k, u32 *c, u32 *run,
		     u32 *maxrun)
{
	u16 *cn = t->cnt + ctx * k;
	bool hit = t->top[ctx] && t->pick[ctx] == x;
	unsigned int j;

	*c += hit;
	*run = hit ? *run + 1 : 0;
	*maxrun = max(*maxrun, *run);
	if (cn[x] == U16_MAX) {
		for (j = 0; j < k; j++)
			cn[j] >>= 1;
		t->top[ctx] >>= 1;
	}
	if (++cn[x] > t->top[ctx] || (cn[x] == t->top[ctx] && x > t->pick[ctx])) {
		t->top[ctx] = cn[x];
		t->pick[ctx] = x;
	}
}

/*
 * 6.3.9 MultiMMC's orders d = 1..16 as separate predictors, each the symbol
 * that most often followed the last d (ties to the larger, as NIST), for
 * the orders whose contexts and symbols fit MMC_COUNTS counts: fewer as k
 * grows. Taken together, the most hits and the longest run of any order:
 * an estimate at most any order's, where NIST's ensemble picks one order at
 * a time.
 */
static u64 est_mmc(const u8 *s, u32 n, unsigned int k, struct mmc_tables *t)
{
	u32 ctxs = 1, pw, d, i, c, run, maxc = 0, maxrun = 0;

	for (d = 1; d <= MMC_D && ctxs * k * k <= MMC_COUNTS; d++) {
		u32 ctx = 0;

		pw = ctxs;		/* k^(d - 1), the oldest symbol's weight */
		ctxs *= k;
		memset(t->cnt, 0, ctxs * k * sizeof(t->cnt[0]));
		memset(t->top, 0, ctxs * sizeof(t->top[0]));
		for (i = 0, c = 0, run = 0; i < n; i++) {
			if (i >= d) {
				mmc_step(t, ctx, s[i], k, &c, &run, &maxrun);
				ctx -= s[i - d] * pw;
			}
			ctx = ctx * k + s[i];
			if (!(i % 1024))
				cond_resched();
		}
		maxc = max(maxc, c);
	}
	return est_predict(maxc, n - 2, maxrun, k);
}

/*
 * The same over the 8n bits of the samples, most significant first (3.1.3),
 * in bits per bit, by order MMC_BITS_D alone: it predicts the bit that
 * followed its last 10 bits more often, 1 on a tie, once they were seen,
 * and with 96 bits a context on 12288 samples it learns what the orders
 * below it would (on the sources of the rst, within 0.03 bit of orders
 * 1 to 12 together, at a tenth of their time).
 */
static u64 est_mmc_bits(const u8 *s, u32 n, struct mmc_tables *t)
{
	u32 *cnt = (u32 *)t->cnt, mask = (1U << MMC_BITS_D) - 1, hist = 0;
	u32 c = 0, run = 0, maxrun = 0, seen = 0, i, j;

	memset(cnt, 0, (2U << MMC_BITS_D) * sizeof(*cnt));
	for (i = 0; i < n; i++) {
		for (j = 8; j--; seen++) {
			u32 x = (s[i] >> j) & 1, *w = cnt + 2 * (hist & mask);
			u32 hit = (w[0] + w[1] != 0) & ((w[1] >= w[0]) == x);

			c += hit;
			run = (run + 1) & -hit;
			maxrun = max(maxrun, run);
			w[x] += seen >= MMC_BITS_D;
			hist = hist << 1 | x;
		}
		if (!(i % 1024))
			cond_resched();
	}
	return est_predict(c, 8 * n - 2, maxrun, 2);
}

const char *const jtsc_estimator_name[JTSC_NR_ESTIMATORS] = {
	/* enum jtsc_estimator's order */
	"MCV", "t-tuple", "LRS", "MultiMCW", "lag", "MultiMMC", "bitstring MultiMMC",
};

/* The work buffer's size, and its parts in *w if w is not NULL */
static size_t work_layout(unsigned int n, void *base, struct est_work *w)
{
	size_t pairs = max_t(size_t, ((size_t)n + 2) * sizeof(s64),
			     max3(sizeof(struct mmc_tables), MCW_N * sizeof(struct mcw_window),
				  sizeof(struct lag_tables)));
	size_t words = ((size_t)n + 2) * sizeof(u32);
	size_t cnt = (max_t(size_t, n, 256) + 2) * sizeof(u32);
	u8 *b = base;

	if (w) {
		w->pairs = (s64 *)b;
		w->sa = (u32 *)(b + pairs);
		w->rank = (u32 *)(b + pairs + words);
		w->tmp = (u32 *)(b + pairs + 2 * words);
		w->cnt = (u32 *)(b + pairs + 3 * words);
		w->sym = b + pairs + 3 * words + cnt;
	}
	return pairs + 3 * words + cnt + n;
}

size_t jtsc_estimate_work_size(unsigned int n)
{
	return work_layout(n, NULL, NULL);
}

void jtsc_estimate_samples(const u8 *samples, unsigned int n, void *work, struct jtsc_estimate *e)
{
	struct est_work w;
	u32 i, maxcount = 0;
	unsigned int k = 0, j;

	memset(e, 0, sizeof(*e));
	for (j = 0; j < JTSC_NR_ESTIMATORS; j++)
		e->h[j] = JTSC_EST_NONE;
	e->samples = n;
	if (n < 2)
		return;
	work_layout(n, work, &w);

	/* count the values, then map each present one to the next symbol */
	memset(w.cnt, 0, 256 * sizeof(*w.cnt));
	for (i = 0; i < n; i++)
		w.cnt[samples[i]]++;
	for (j = 0; j < 256; j++) {
		maxcount = max(maxcount, w.cnt[j]);
		if (w.cnt[j])
			w.cnt[j] = k++;
	}
	for (i = 0; i < n; i++)
		w.sym[i] = w.cnt[samples[i]];

	/* 6.3.1 MCV: p = the most common symbol's count / n */
	e->h[JTSC_EST_MCV] = fx_entropy(upper_bound(fx_frac(maxcount, n), n));
	est_tuple_lrs(w.sym, n, &w, &e->h[JTSC_EST_TUPLE], &e->h[JTSC_EST_LRS]);
	cond_resched();
	e->h[JTSC_EST_MULTI_MCW] = est_multi_mcw(w.sym, n, k, &w);
	cond_resched();
	if (n >= 3)
		e->h[JTSC_EST_LAG] = est_lag(w.sym, n, k, &w);
	/* 3.1.3: samples of two values are binary already; else 8 x each bit's */
	if (n >= 4 && k > 1) {
		cond_resched();
		e->h[JTSC_EST_MULTI_MMC] = est_mmc(w.sym, n, k, (struct mmc_tables *)w.pairs);
		cond_resched();
		if (k > 2)
			e->h[JTSC_EST_BITS_MMC] = 8 * est_mmc_bits(samples, n,
								   (struct mmc_tables *)w.pairs);
	}

	/* JTSC_EST_NONE is above any estimate; as NIST's, at most 8 bits */
	e->which = JTSC_EST_MCV;
	for (j = 1; j < JTSC_NR_ESTIMATORS; j++)
		if (e->h[j] < e->h[e->which])
			e->which = j;
	e->h_min = min(e->h[e->which], 8 * JTSC_EST_ONE);
}
