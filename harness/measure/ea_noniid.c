// SPDX-License-Identifier: GPL-2.0
/*
 * ea_noniid - SP 800-90B (2018) section 6.3 non-IID min-entropy estimators.
 *
 * Reads a file of raw samples and prints the min-entropy per sample, in bits,
 * given by each estimator and their minimum:
 *   6.3.1 most common value   6.3.2 collision*   6.3.3 Markov*
 *   6.3.4 compression*        6.3.5 t-tuple      6.3.6 LRS
 *   6.3.7 MultiMCW            6.3.8 lag          6.3.9 MultiMMC
 *   6.3.10 LZ78Y              (* binary only, as in 90B)
 * The semantics follow NIST's reference implementation
 * (usnistgov/SP800-90B_EntropyAssessment, cpp/non_iid/): the same constants,
 * tie rules and confidence bounds (Z = 2.576). This is an independent
 * implementation; t-tuple and LRS use a suffix array and its LCP intervals.
 * test-nist.sh compares every estimate with the output of NIST's ea_non_iid
 * 1.1.7 on reference files (to 1e-5; they agree to about 1e-12).
 *
 * Input (-t):
 *   bits  packed bits, 8 samples per byte, sample 8k+j = bit j of byte k
 *         (the u64 little-endian layout of debugfs spec_raw)
 *   u8    one 8-bit sample per byte
 *   u64   u64 little-endian values (timer deltas), reduced to their low 8
 *         bits (90B 6.4 allows using a subset of the bits of wide samples;
 *         the low bits of a cycle-counter delta are where the jitter is)
 * For 8-bit samples the estimators run on the symbols, the k distinct sample
 * values mapped down to 0..k-1 in order (as NIST's tool does: "Symbols have
 * been translated"), and, as 90B 3.1.3 requires, on the bitstring of the
 * samples themselves (MSB first); the result is min(H_original,
 * 8 x H_bitstring), H_original at most 8 and H_bitstring at most 1. As in
 * NIST's tool, samples of only two distinct values get the binary
 * estimators (on 0 and 1) and no bitstring pass.
 *
 * usage: ea_noniid [-t bits|u8|u64] [-n MAXSAMPLES] [-q] [-m] [-B] FILE
 *   -q  print only "H_min <value>";  -B  skip the bitstring pass
 *   -m  machine-readable: instead of the table, one line per estimate,
 *       "literal|bitstring ID VALUE" (ID one of MCV collision Markov
 *       compression t-tuple LRS MultiMCW lag MultiMMC LZ78Y; VALUE at full
 *       precision, per sample for literal and per bit for bitstring, or
 *       n/a), then "H_original V", "H_bitstring V",
 *       "H_bitstring_per_symbol V" (the last two only after a bitstring
 *       pass) and "assessed V"; the "minimum" and "H_min" lines follow
 *       as without -m.
 * EA_DEBUG=1 in the environment prints per-estimator times and counts.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ZALPHA 2.5758293035489008

struct result {
	const char *name;	/* in the table */
	const char *id;		/* in -m output: one word */
	double h;	/* bits per sample; < 0: not applicable */
};

static int quiet, machine;

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p) {
		fprintf(stderr, "ea_noniid: out of memory\n");
		exit(1);
	}
	return p;
}

static double upper_bound(double p, long n)
{
	double pu = p + ZALPHA * sqrt(p * (1.0 - p) / (double)(n - 1));

	return pu > 1.0 ? 1.0 : pu;
}

/* ---------------------------------------------------------------- 6.3.1 */
static double mcv(const uint8_t *s, long L)
{
	long cnt[256] = { 0 }, max = 0, i;

	for (i = 0; i < L; i++)
		cnt[s[i]]++;
	for (i = 0; i < 256; i++)
		if (cnt[i] > max)
			max = cnt[i];
	return -log2(upper_bound((double)max / L, L));
}

/* ------------------------------------------------------- 6.3.2 (binary) */
static double collision(const uint8_t *s, long L)
{
	long i = 0, v = 0;
	double sum2 = 0, X, sd, p;

	while (i < L - 1) {
		int t;

		if (s[i] == s[i + 1])
			t = 2;
		else if (i < L - 2)
			t = 3;
		else
			break;
		v++;
		sum2 += t * t;
		i += t;
	}
	X = (double)i / v;
	sd = sqrt((sum2 - i * X) / (v - 1));
	X -= ZALPHA * sd / sqrt(v);
	if (X < 2.0)
		X = 2.0;
	/* 90B step 7 reduces to X = -2p^2 + 2p + 2 for binary data */
	if (X < 2.5) {
		p = 0.5 + sqrt(1.25 - 0.5 * X);
		return -log2(p);
	}
	return 1.0;
}

/* ------------------------------------------------------- 6.3.3 (binary) */
static double markov(const uint8_t *s, long L)
{
	long c0 = 0, c00 = 0, c10 = 0, c1, i;
	double p0, p1, p00, p01, p10, p11, h = 128.0, t;

	for (i = 0; i < L - 1; i++) {
		if (s[i] == 0) {
			c0++;
			if (s[i + 1] == 0)
				c00++;
		} else if (s[i + 1] == 0) {
			c10++;
		}
	}
	c1 = L - 1 - c0;
	p00 = c0 ? (double)c00 / c0 : 0;
	p01 = c0 ? 1.0 - p00 : 0;
	p10 = c1 ? (double)c10 / c1 : 0;
	p11 = c1 ? 1.0 - p10 : 0;
	if (s[L - 1] == 0)
		c0++;
	p0 = (double)c0 / L;
	p1 = 1.0 - p0;
#define MK(cond, expr) do { if (cond) { t = (expr); if (t < h) h = t; } } while (0)
	MK(p00 > 0, -log2(p0) - 127 * log2(p00));
	MK(p01 > 0 && p10 > 0, -log2(p0) - 64 * log2(p01) - 63 * log2(p10));
	MK(p01 > 0 && p11 > 0, -log2(p0) - log2(p01) - 126 * log2(p11));
	MK(p10 > 0 && p00 > 0, -log2(p1) - log2(p10) - 126 * log2(p00));
	MK(p10 > 0 && p01 > 0, -log2(p1) - 64 * log2(p10) - 63 * log2(p01));
	MK(p11 > 0, -log2(p1) - 127 * log2(p11));
#undef MK
	h /= 128.0;
	return h < 1.0 ? h : 1.0;
}

/* ------------------------------------------------------- 6.3.4 (binary) */
#define CMP_B 6
#define CMP_D 1000

/*
 * G(z) = 1/v sum_{t=d+1}^{n} sum_{u=1}^{t} log2(u) F(z,t,u) with
 * F = z^2 (1-z)^(u-1) for u < t and z (1-z)^(t-1) for u = t.
 */
static double *cmp_log2;	/* log2(t) for t = 0 .. number of blocks */

static double cmp_G(double z, long d, long n)
{
	double A = 0, pw = 1, sum = 0, q = 1.0 - z;
	long t;

	/* A = sum_{u=1}^{t-1} log2(u) q^(u-1), pw = q^(t-1) */
	for (t = 1; t <= d; t++) {
		A += cmp_log2[t] * pw;
		pw *= q;
	}
	for (t = d + 1; t <= n; t++) {
		if (pw < 1e-24) {
			/* what is left of pw no longer moves A or the sum */
			sum += z * z * A * (double)(n - t + 1);
			break;
		}
		sum += z * z * A + z * cmp_log2[t] * pw;
		A += cmp_log2[t] * pw;
		pw *= q;
	}
	return sum / (double)(n - d);
}

static double cmp_exp(double p, long d, long n)
{
	double k = 1 << CMP_B, q = (1.0 - p) / (k - 1.0);

	return cmp_G(p, d, n) + (k - 1.0) * cmp_G(q, d, n);
}

static double compression(const uint8_t *s, long L)
{
	long nb = L / CMP_B, dict[1 << CMP_B] = { 0 }, i, v;
	double X = 0, sig = 0, lo, hi, p, k = 1 << CMP_B;
	int j;

	if (nb <= CMP_D)
		return -1;
	cmp_log2 = xcalloc(nb + 1, sizeof(double));
	for (i = 1; i <= nb; i++)
		cmp_log2[i] = log2((double)i);
	for (i = 0; i < nb; i++) {
		unsigned int b = 0;

		for (j = 0; j < CMP_B; j++)
			b |= (s[i * CMP_B + j] & 1) << (CMP_B - j - 1);
		if (i >= CMP_D) {
			double x = log2((double)(i + 1 - dict[b]));

			X += x;
			sig += x * x;
		}
		dict[b] = i + 1;
	}
	v = nb - CMP_D;
	X /= v;
	sig = 0.5907 * sqrt(sig / (v - 1.0) - X * X);
	X -= ZALPHA * sig / sqrt(v);
	if (!(cmp_exp(1.0 / k, CMP_D, nb) > X)) {
		free(cmp_log2);
		return 1.0;
	}
	/* cmp_exp decreases in p: bisect for cmp_exp(p) = X on [1/k, 1] */
	lo = 1.0 / k;
	hi = 1.0;
	for (j = 0; j < 60; j++) {
		p = (lo + hi) / 2;
		if (cmp_exp(p, CMP_D, nb) > X)
			lo = p;
		else
			hi = p;
	}
	p = (lo + hi) / 2;
	free(cmp_log2);
	return p > 1.0 / k ? -log2(p) / CMP_B : 1.0;
}

/* ------------------------------------------------ 6.3.5, 6.3.6 (SA/LCP) */
/* Suffix array by prefix doubling with radix sort. */
static int32_t *suffix_array(const uint8_t *s, long n)
{
	int32_t *sa = xcalloc(n, 4), *rk = xcalloc(n, 4), *tmp = xcalloc(n, 4);
	long m = 256, *cnt = xcalloc(n > 256 ? n + 1 : 257, sizeof(long));
	long i, k, p;

	for (i = 0; i < n; i++) {
		rk[i] = s[i];
		cnt[s[i]]++;
	}
	for (i = 1; i < m; i++)
		cnt[i] += cnt[i - 1];
	for (i = n - 1; i >= 0; i--)
		sa[--cnt[rk[i]]] = i;
	for (k = 1;; k <<= 1) {
		/* order by second key: suffixes without one come first */
		p = 0;
		for (i = n - k; i < n; i++)
			if (i >= 0)
				tmp[p++] = i;
		for (i = 0; i < n; i++)
			if (sa[i] >= k)
				tmp[p++] = sa[i] - k;
		/* stable counting sort by first key */
		memset(cnt, 0, sizeof(long) * (m + 1));
		for (i = 0; i < n; i++)
			cnt[rk[i]]++;
		for (i = 1; i < m; i++)
			cnt[i] += cnt[i - 1];
		for (i = n - 1; i >= 0; i--)
			sa[--cnt[rk[tmp[i]]]] = tmp[i];
		/* new ranks into tmp */
		tmp[sa[0]] = 0;
		p = 0;
		for (i = 1; i < n; i++) {
			long a = sa[i - 1], b = sa[i];
			int32_t ra2 = a + k < n ? rk[a + k] : -1;
			int32_t rb2 = b + k < n ? rk[b + k] : -1;

			if (rk[a] != rk[b] || ra2 != rb2)
				p++;
			tmp[b] = p;
		}
		memcpy(rk, tmp, n * 4);
		m = p + 1;
		if (m == n || k >= n)
			break;
	}
	free(rk);
	free(tmp);
	free(cnt);
	return sa;
}

/* Kasai: lcp[i] = LCP(suffix sa[i-1], suffix sa[i]), lcp[0] = 0. */
static int32_t *lcp_array(const uint8_t *s, const int32_t *sa, long n)
{
	int32_t *lcp = xcalloc(n + 1, 4), *rk = xcalloc(n, 4);
	long i, h = 0;

	for (i = 0; i < n; i++)
		rk[sa[i]] = i;
	for (i = 0; i < n; i++) {
		if (rk[i] > 0) {
			long j = sa[rk[i] - 1];

			while (i + h < n && j + h < n && s[i + h] == s[j + h])
				h++;
			lcp[rk[i]] = h;
			if (h > 0)
				h--;
		} else {
			h = 0;
		}
	}
	free(rk);
	return lcp;
}

/*
 * Every lcp-interval (a maximal SA range of c >= 2 suffixes sharing a prefix
 * of length l, with parent interval length lp) stands for c occurrences of
 * each W-tuple for lp < W <= l. So Q[W], the count of the most common
 * W-tuple, is the largest c over intervals with l >= W, and the LRS sum
 * over distinct W-tuples of C(c,2) is a range add over (lp, l].
 */
static void tuple_lrs(const uint8_t *s, long L, double *h_tuple, double *h_lrs)
{
	int32_t *sa = suffix_array(s, L), *lcp = lcp_array(s, sa, L);
	long *maxc = xcalloc(L + 2, sizeof(long));
	long long *diff = xcalloc(L + 2, sizeof(long long));
	long *stl = xcalloc(L + 1, sizeof(long)), *stb = xcalloc(L + 1, sizeof(long));
	long top = 0, i, W, t, u, v = 0;
	double pmax = 0, S = 0;

	free(sa);
	stl[0] = 0;
	stb[0] = 0;
	for (i = 1; i <= L; i++) {
		long cur = i < L ? lcp[i] : 0, lb = i - 1;

		while (cur < stl[top]) {
			long l = stl[top], b = stb[top], c = i - b, lp;

			top--;
			lp = cur > stl[top] ? cur : stl[top];
			if (c > maxc[l])
				maxc[l] = c;
			diff[lp + 1] += (long long)c * (c - 1) / 2;
			diff[l + 1] -= (long long)c * (c - 1) / 2;
			if (l > v)
				v = l;
			lb = b;
		}
		if (cur > stl[top]) {
			top++;
			stl[top] = cur;
			stb[top] = lb;
		}
	}
	free(lcp);
	free(stl);
	free(stb);
	for (W = L - 1; W >= 1; W--)	/* suffix max: Q[W] */
		if (maxc[W + 1] > maxc[W])
			maxc[W] = maxc[W + 1];
	if (getenv("EA_DEBUG")) {
		long long acc = 0;

		fprintf(stderr, "v %ld\n", v);
		for (W = 1; W <= v && W <= 40; W++) {
			acc += diff[W];
			fprintf(stderr, "%ld %ld %lld\n", W, maxc[W], acc);
		}
	}
	/* t-tuple: t = largest W with Q[W] >= 35 */
	for (t = 0; t + 1 <= L - 1 && maxc[t + 1] >= 35; t++)
		;
	if (t == 0) {
		*h_tuple = -1;
	} else {
		for (W = 1; W <= t; W++) {
			double p = pow((double)maxc[W] / (double)(L - W + 1), 1.0 / W);

			if (p > pmax)
				pmax = p;
		}
		*h_tuple = -log2(upper_bound(pmax, L));
	}
	/* LRS: W from u = t+1 to v, the longest repeated substring */
	u = t + 1;
	if (u > v) {
		*h_lrs = -1;
	} else {
		pmax = 0;
		for (W = 1; W <= v; W++) {
			S += (double)diff[W];
			if (W >= u) {
				double n = (double)(L - W + 1), p;

				p = pow(S / (n * (n - 1) / 2), 1.0 / W);
				if (p > pmax)
					pmax = p;
			}
		}
		*h_lrs = -log2(upper_bound(pmax, L));
	}
	free(maxc);
	free(diff);
}

/* ------------------------------------------------ 6.3.7 - 6.3.10 common */
static double pe_func(long double p, long r, long N)
{
	long double q = 1.0L - p, x = 1.0L, xl = 0.0L;
	int i;

	for (i = 0; i <= 65 && (x - xl) > (LDBL_EPSILON * x); i++) {
		xl = x;
		x = 1.0L + q * powl(p, r) * powl(x, r + 1.0L);
	}
	return (double)(logl(1.0L - p * x) - logl((r + 1.0L - r * x) * q) -
			(N + 1.0L) * logl(x));
}

/* 90B 6.3.7 step 7ff: -log2(max(P_global', P_local, 1/k)) */
static double prediction_estimate(long C, long N, long maxrun, long k)
{
	double pg = (double)C / N, cur = 1.0 / k, lo, hi, p;
	int j;

	if (getenv("EA_DEBUG"))
		fprintf(stderr, "predict C %ld N %ld maxrun %ld k %ld\n", C, N, maxrun, k);
	pg = pg > 0 ? upper_bound(pg, N) : 1.0 - pow(0.01, 1.0 / N);
	if (pg > cur)
		cur = pg;
	if (cur < 1.0 && pe_func(cur, maxrun + 1, N) > log(0.99)) {
		/* pe_func falls in p: bisect pe_func(p) = log(0.99) on [cur, 1) */
		lo = cur;
		hi = 1.0;
		for (j = 0; j < 80; j++) {
			p = (lo + hi) / 2;
			if (p >= 1.0)
				break;
			if (pe_func(p, maxrun + 1, N) > log(0.99))
				lo = p;
			else
				hi = p;
		}
		if (hi > cur)
			cur = hi;
	}
	return -log2(cur);
}

/* ---------------------------------------------------------------- 6.3.7 */
static double multi_mcw(const uint8_t *s, long L, int k)
{
	static const long Wn[4] = { 63, 255, 1023, 4095 };
	long sb[4] = { 0 }, maxc[4] = { 0 }, cnt[4][256], pos[4][256];
	long i, j, m, C = 0, run = 0, maxrun = 0;
	int freq[4] = { 0 }, winner = 0;

	if (L < Wn[3] + 1)
		return -1;
	memset(cnt, 0, sizeof(cnt));
	memset(pos, 0, sizeof(pos));
	for (i = 0; i < Wn[3]; i++)
		for (j = 0; j < 4; j++)
			if (i < Wn[j]) {
				if (maxc[j] <= ++cnt[j][s[i]]) {
					maxc[j] = cnt[j][s[i]];
					freq[j] = s[i];
				}
				pos[j][s[i]] = i;
			}
	for (i = Wn[0]; i < L; i++) {
		if (freq[winner] == s[i]) {
			C++;
			if (++run > maxrun)
				maxrun = run;
		} else {
			run = 0;
		}
		for (j = 0; j < 4; j++)
			if (i >= Wn[j] && freq[j] == s[i])
				if (++sb[j] >= sb[winner])
					winner = j;
		for (j = 0; j < 4; j++) {
			long out, mp;

			if (i < Wn[j])
				continue;
			out = s[i - Wn[j]];
			cnt[j][out]--;
			cnt[j][s[i]]++;
			pos[j][s[i]] = i;
			if (out != freq[j] && maxc[j] <= cnt[j][s[i]]) {
				maxc[j] = cnt[j][s[i]];
				freq[j] = s[i];
			} else if (out == freq[j]) {
				maxc[j]--;
				mp = i - Wn[j];
				for (m = 0; m < k; m++)
					if (maxc[j] < cnt[j][m] ||
					    (maxc[j] == cnt[j][m] && mp <= pos[j][m])) {
						maxc[j] = cnt[j][m];
						freq[j] = m;
						mp = pos[j][m];
					}
			}
		}
	}
	return prediction_estimate(C, L - Wn[0], maxrun, k);
}

/* ---------------------------------------------------------------- 6.3.8 */
#define LAG_D 128
static double lag(const uint8_t *s, long L, int k)
{
	long sb[LAG_D + 1] = { 0 }, i, d, C = 0, run = 0, maxrun = 0;
	int winner = 1;

	for (i = 1; i < L; i++) {
		if (i >= winner && s[i - winner] == s[i]) {
			C++;
			if (++run > maxrun)
				maxrun = run;
		} else {
			run = 0;
		}
		for (d = 1; d <= LAG_D && d <= i; d++)
			if (s[i - d] == s[i] && ++sb[d] >= sb[winner])
				winner = d;
	}
	return prediction_estimate(C, L - 1, maxrun, k);
}

/*
 * Dictionaries for MultiMMC and LZ78Y: contexts (model, order, up to 16
 * symbols) and (context, symbol) counts in two open-addressing hash tables.
 * Each context keeps its current prediction: the most counted symbol, ties
 * going to the larger symbol (NIST's PostfixDictionary rule).
 */
struct ctx {
	uint64_t h;
	uint8_t used, len, sym[16];
	int pred;
	long best;
};
struct pair {
	uint64_t key;	/* (ctx index + 1) << 8 | symbol; 0 = empty */
	long cnt;
};
static struct ctx *ctab;
static struct pair *ptab;
static unsigned long csize, psize, pfill;

static uint64_t hash_ctx(int model, const uint8_t *x, int len)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)(model * 64 + len);
	int i;

	for (i = 0; i < len; i++)
		h = (h ^ x[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

/*
 * Contexts of order or length d = 1..16 number at most min(k^d, L), and
 * both estimators cap their dictionaries (MMC_MAX a model, LZ_MAX): a table
 * four times that is at most a quarter full. 2^22 slots hold the caps.
 */
static void dict_init(long L, int k)
{
	unsigned long most = 0, kd = 1;
	int d;

	for (d = 1; d <= 16; d++) {
		if (kd < (unsigned long)L)
			kd *= k;
		most += kd < (unsigned long)L ? kd : (unsigned long)L;
	}
	csize = 1ul << 12;
	while (csize < 4 * most && csize < 1ul << 22)
		csize <<= 1;
	psize = csize;
	pfill = 0;
	ctab = xcalloc(csize, sizeof(*ctab));
	ptab = xcalloc(psize, sizeof(*ptab));
}

static void dict_free(void)
{
	free(ctab);
	free(ptab);
}

/* find a context; create it when create != 0; returns index or -1 */
static long ctx_find(int model, const uint8_t *x, int len, int create)
{
	uint64_t h = hash_ctx(model, x, len);
	unsigned long i = h & (csize - 1);

	for (;; i = (i + 1) & (csize - 1)) {
		struct ctx *c = &ctab[i];

		if (!c->used) {
			if (!create)
				return -1;
			c->used = 1;
			c->h = h;
			c->len = len;
			memcpy(c->sym, x, len);
			c->best = 0;
			c->pred = 0;
			return i;
		}
		if (c->h == h && c->len == len && !memcmp(c->sym, x, len))
			return i;
	}
}

static struct pair *pair_slot(uint64_t key)
{
	unsigned long i = (key * 0x9e3779b97f4a7c15ull >> 20) & (psize - 1);

	while (ptab[i].key && ptab[i].key != key)
		i = (i + 1) & (psize - 1);
	return &ptab[i];
}

static void pair_grow(void)
{
	struct pair *old = ptab;
	unsigned long n = psize, i;

	psize *= 2;
	ptab = xcalloc(psize, sizeof(*ptab));
	for (i = 0; i < n; i++)
		if (old[i].key)
			*pair_slot(old[i].key) = old[i];
	free(old);
}

/* count symbol y after context ci; new pairs only if allow; 1 if new */
static int ctx_inc(long ci, int y, int allow)
{
	struct pair *p;
	struct ctx *c = &ctab[ci];
	int isnew = 0;

	if (pfill * 10 > psize * 7)
		pair_grow();
	p = pair_slot(((uint64_t)(ci + 1) << 8) | y);
	if (!p->key) {
		if (!allow)
			return 0;
		p->key = ((uint64_t)(ci + 1) << 8) | y;
		p->cnt = 0;
		pfill++;
		isnew = 1;
	}
	p->cnt++;
	if (p->cnt > c->best || (p->cnt == c->best && y > c->pred)) {
		c->best = p->cnt;
		c->pred = y;
	}
	return isnew;
}

/* ---------------------------------------------------------------- 6.3.9 */
#define MMC_D 16
#define MMC_MAX 100000
static double multi_mmc(const uint8_t *s, long L, int k)
{
	long sb[MMC_D] = { 0 }, entries[MMC_D] = { 0 }, i, d, N = L - 2;
	long C = 0, run = 0, maxrun = 0;
	int winner = 0, cur;

	if (L < 3)
		return -1;
	dict_init(L, k);
	for (d = 0; d < MMC_D && d < N; d++) {
		ctx_inc(ctx_find(0, s, d + 1, 1), s[d + 1], 1);
		entries[d] = 1;
	}
	for (i = 2; i < L; i++) {
		long ci = -1;
		int found = 0;

		cur = winner;
		for (d = 0; d < MMC_D && i - 2 >= d; d++) {
			if (d == 0 || found) {
				ci = ctx_find(0, s + i - d - 1, d + 1, 0);
				found = ci >= 0;
			}
			if (found) {
				if (ctab[ci].pred == s[i]) {
					if (++sb[d] >= sb[winner])
						winner = d;
					if (d == cur) {
						C++;
						if (++run > maxrun)
							maxrun = run;
					}
				} else if (d == cur) {
					run = 0;
				}
				if (ctx_inc(ci, s[i], entries[d] < MMC_MAX))
					entries[d]++;
			} else if (entries[d] < MMC_MAX) {
				ctx_inc(ctx_find(0, s + i - d - 1, d + 1, 1), s[i], 1);
				entries[d]++;
			}
		}
	}
	dict_free();
	return prediction_estimate(C, N, maxrun, k);
}

/* --------------------------------------------------------------- 6.3.10 */
#define LZ_B 16
#define LZ_MAX 65536
static double lz78y(const uint8_t *s, long L, int k)
{
	long i, j, N = L - LZ_B - 1, C = 0, run = 0, maxrun = 0, maxcnt, dsize = 0;
	int pred = 0, have;

	if (L < LZ_B + 2)
		return -1;
	dict_init(L, k);
	for (j = 0; j < LZ_B; j++) {
		ctx_inc(ctx_find(1, s + LZ_B - j - 1, j + 1, 1), s[LZ_B], 1);
		dsize++;
	}
	/*
	 * As NIST: every prefix length, longest first, each looked up on its
	 * own. The order matters once the dictionary fills: in that round the
	 * longer new prefixes get the last places, and a prefix can then be
	 * there while a shorter one ending at the same place is not.
	 */
	for (i = LZ_B + 1; i < L; i++) {
		maxcnt = 0;
		have = 0;
		for (j = LZ_B; j >= 1; j--) {
			long ci = ctx_find(1, s + i - j, j, 0);

			if (ci >= 0) {
				if (ctab[ci].best > maxcnt) {
					maxcnt = ctab[ci].best;
					pred = ctab[ci].pred;
					have = 1;
				}
				ctx_inc(ci, s[i], 1);
			} else if (dsize < LZ_MAX) {
				ctx_inc(ctx_find(1, s + i - j, j, 1), s[i], 1);
				dsize++;
			}
		}
		if (have && pred == s[i]) {
			C++;
			if (++run > maxrun)
				maxrun = run;
		} else {
			run = 0;
		}
	}
	dict_free();
	return prediction_estimate(C, N, maxrun, k);
}

/* ------------------------------------------------------------------ main */
static double tnow(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define EST(nm, id, expr) do {						\
	double t0_ = tnow();						\
	r[n++] = (struct result){ nm, id, (expr) };			\
	if (getenv("EA_DEBUG"))						\
		fprintf(stderr, "%-18s %.2f s\n", nm, tnow() - t0_);	\
} while (0)

/*
 * Run the estimators on L symbols in 0..k-1 (binary: bits, adding the
 * binary-only ones). Like NIST, the literal pass gets the samples mapped
 * down to 0..k-1 (see translate()): MultiMCW scans the alphabet 0..k-1.
 */
static int run_all(const uint8_t *s, long L, int binary, int k, struct result *r)
{
	int n = 0;
	double ht = -1, hl = -1;

	if (k < 1)
		k = 1;
	EST("most common value", "MCV", mcv(s, L));
	if (binary) {
		EST("collision", "collision", collision(s, L));
		EST("Markov", "Markov", markov(s, L));
		EST("compression", "compression", compression(s, L));
	}
	EST("t-tuple", "t-tuple", (tuple_lrs(s, L, &ht, &hl), ht));
	EST("LRS", "LRS", hl);
	EST("MultiMCW", "MultiMCW", multi_mcw(s, L, k));
	EST("lag", "lag", lag(s, L, k));
	EST("MultiMMC", "MultiMMC", multi_mmc(s, L, k));
	EST("LZ78Y", "LZ78Y", lz78y(s, L, k));
	return n;
}

/*
 * NIST's read_file_subset(): map the sample values present down to
 * 0..k-1, keeping their order; returns k, the number of distinct values.
 */
static int translate(const uint8_t *in, uint8_t *out, long L)
{
	int map[256] = { 0 }, k = 0, i;
	long j;

	for (j = 0; j < L; j++)
		map[in[j]] = 1;
	for (i = 0; i < 256; i++)
		map[i] = map[i] ? k++ : -1;
	for (j = 0; j < L; j++)
		out[j] = map[in[j]];
	return k;
}

/*
 * Print one pass's estimates (a table, or with -m "LABEL ID VALUE" lines at
 * full precision) and return their minimum times scale.
 */
static double show(const char *title, const char *label, struct result *r,
		   int n, double scale, const char **which)
{
	double m = 1e9;
	int i;

	if (!quiet && !machine)
		printf("  %s\n", title);
	for (i = 0; i < n; i++) {
		if (machine && !quiet) {
			if (r[i].h < 0)
				printf("%s %s n/a\n", label, r[i].id);
			else
				printf("%s %s %.17g\n", label, r[i].id, r[i].h);
		}
		if (r[i].h < 0) {
			if (!quiet && !machine)
				printf("    %-20s %8s\n", r[i].name, "n/a");
			continue;
		}
		if (!quiet && !machine)
			printf("    %-20s %8.5f bits\n", r[i].name, r[i].h);
		if (r[i].h * scale < m) {
			m = r[i].h * scale;
			*which = r[i].name;
		}
	}
	return m;
}

/* NIST starts H_original at the bits per sample and H_bitstring at 1 */
static double capped(double h, double max, const char **which)
{
	if (h <= max)
		return h;
	*which = "no estimate lower than the sample width";
	return max;
}

/* -m: one "NAME VALUE" line */
static void mline(const char *name, double v)
{
	if (machine && !quiet)
		printf("%s %.17g\n", name, v);
}

int main(int argc, char **argv)
{
	const char *type = "bits", *which = "?", *wb = "?";
	long maxn = 0, L, i, n;
	int c, nobits = 0, nr;
	struct result r[16];
	uint8_t *raw, *s;
	size_t cap = 1 << 20, len = 0;
	double h, hb;
	FILE *f;

	while ((c = getopt(argc, argv, "t:n:qBmh")) != -1) {
		switch (c) {
		case 'm': machine = 1; break;
		case 't': type = optarg; break;
		case 'n': maxn = strtol(optarg, NULL, 0); break;
		case 'q': quiet = 1; break;
		case 'B': nobits = 1; break;
		default: goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	f = fopen(argv[optind], "rb");
	if (!f) {
		perror(argv[optind]);
		return 1;
	}
	raw = xcalloc(cap, 1);
	while ((n = fread(raw + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			raw = realloc(raw, cap);
			if (!raw)
				return 1;
		}
	}
	fclose(f);
	if (!strcmp(type, "bits")) {
		L = len * 8;
		if (maxn && L > maxn)
			L = maxn;
		s = xcalloc(L, 1);
		for (i = 0; i < L; i++)
			s[i] = (raw[i / 8] >> (i % 8)) & 1;
	} else if (!strcmp(type, "u8")) {
		L = len;
		if (maxn && L > maxn)
			L = maxn;
		s = xcalloc(L, 1);
		memcpy(s, raw, L);
	} else if (!strcmp(type, "u64")) {
		L = len / 8;
		if (maxn && L > maxn)
			L = maxn;
		s = xcalloc(L, 1);
		for (i = 0; i < L; i++)
			s[i] = raw[i * 8];	/* low byte of a little-endian u64 */
	} else {
		goto usage;
	}
	free(raw);
	if (L < 1000) {
		fprintf(stderr, "ea_noniid: %ld samples is too few\n", L);
		return 1;
	}
	if (!strcmp(type, "bits")) {
		if (!quiet && !machine)
			printf("%s: %ld samples, 1 bit each (packed, LSB first)\n",
			       argv[optind], L);
		nr = run_all(s, L, 1, 2, r);
		h = show("estimator            H per sample", "literal", r, nr, 1.0, &which);
		h = capped(h, 1.0, &which);
		mline("H_original", h);
		mline("assessed", h);
		if (!quiet)
			printf("  minimum                %8.5f bits/sample (%s)\n", h, which);
	} else {
		if (!quiet && !machine)
			printf("%s: %ld samples, 8 bits each (%s)\n", argv[optind], L,
			       !strcmp(type, "u64") ? "low 8 bits of u64 LE" : "bytes");
		uint8_t *sym = xcalloc(L, 1);
		int k = translate(s, sym, L);

		/* two values: bits already, so the binary estimators and no bitstring */
		nr = run_all(sym, L, k == 2, k, r);
		free(sym);
		h = show("symbols: estimator    H per 8-bit sample", "literal", r, nr, 1.0, &which);
		h = capped(h, 8.0, &which);
		mline("H_original", h);
		if (k <= 2 && !quiet && !machine)
			printf("  bitstring: not run (%d distinct value%s%s)\n", k,
			       k == 1 ? "; NIST's tool refuses such data" : "s",
			       k == 1 ? "" : ": the binary estimators ran on the symbols");
		if (!nobits && k > 2) {
			uint8_t *b = xcalloc(L * 8, 1);

			for (i = 0; i < L * 8; i++)
				b[i] = (s[i / 8] >> (7 - i % 8)) & 1;
			/* the bitstring is of the samples, not of 0..k-1 */
			nr = run_all(b, L * 8, 1, 2, r);
			hb = show("bitstring: estimator H per bit", "bitstring", r, nr, 8.0, &wb);
			hb = capped(hb, 8.0, &wb);
			free(b);
			mline("H_bitstring", hb / 8);
			mline("H_bitstring_per_symbol", hb);
			if (!quiet && !machine)
				printf("  H_original %.5f (%s), 8 x H_bitstring %.5f (%s)\n",
				       h, which, hb, wb);
			if (hb < h) {
				h = hb;
				which = wb;
			}
		}
		mline("assessed", h);
		if (!quiet)
			printf("  minimum                %8.5f bits/sample (%s)\n", h, which);
	}
	printf("H_min %.5f\n", h);
	free(s);
	return 0;
usage:
	fprintf(c == 'h' ? stdout : stderr,
		"usage: ea_noniid [-t bits|u8|u64] [-n MAX] [-q] [-m] [-B] FILE\n"
		"  -t  input: packed bits (default), one byte per sample, or u64 LE\n"
		"      (low 8 bits used)\n"
		"  -n  use at most MAX samples\n"
		"  -q  print only \"H_min <value>\"\n"
		"  -m  one machine-readable \"literal|bitstring ID VALUE\" line per\n"
		"      estimate, then H_original, H_bitstring, H_bitstring_per_symbol,\n"
		"      assessed (full precision)\n"
		"  -B  skip the bitstring pass of 8-bit samples\n"
		"  EA_DEBUG=1 in the environment: per-estimator times and counts\n");
	return c == 'h' ? 0 : 2;
}
