// SPDX-License-Identifier: GPL-2.0
/*
 * guard-power - do jitter_tsc's health tests guard twice the credit?
 *
 * Feeds synthetic streams of known min-entropy H per sample through the
 * kernel's own health tests (crypto/jitter_tsc_core.c, compiled as it is)
 * at each step of the credit ladder, and counts the samples until the first
 * failure. Three kinds of source, each H = -log2 q exactly:
 *   iid     a fixed value with probability q, else one of the other 255
 *   sticky  Markov: the previous value again with probability q, else another
 *   step    Markov: the previous value + 37 with probability q, else another
 * and three levels, each with its own budget of samples:
 *   H = credit        must fail within 10^6
 *   H = 1.5 x credit  must fail within 10^7
 *   H = 2 x credit    must not fail in 10^8 (a false alarm)
 * Steps from 16/256 up are held to these (exit 1 naming each miss); below
 * 16/256 the lines say what the guard catches, on a tenth of the budgets,
 * and are not held.
 * The generator is splitmix64 with a fixed seed per line: a rerun is the
 * same run.
 *
 * Prints one line per step, kind and level: "credit C kind K level L
 * samples N failed_at F verdict V" (F = - when none).
 *
 * usage: guard-power [-s SCALE]   (budgets divided by SCALE, for a quick look)
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jitter_tsc_internal.h"

/* The lowest step held to the goals, in 1/256 bit */
#define HELD_FROM	16

static uint64_t rng_state;

static uint64_t splitmix(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A value other than @v, uniform over the other 255 */
static uint8_t other(uint8_t v, uint64_t r)
{
	return v + 1 + (uint8_t)((r & 0xffffffff) * 255 >> 32);
}

static const char *const kinds[] = { "iid", "sticky", "step" };

static uint8_t next_sample(unsigned int kind, uint8_t prev, uint64_t thr)
{
	uint64_t r = splitmix();
	uint8_t want = kind == 0 ? 0x5a : kind == 1 ? prev : (uint8_t)(prev + 37);

	return (r >> 11) < thr ? want : other(want, splitmix());
}

/* Samples until the first failure, or 0 after @n without one */
static uint64_t run(const struct jtsc_health_params *p, unsigned int kind, double h,
		    uint64_t n, uint64_t seed)
{
	uint64_t thr = (uint64_t)ldexp(exp2(-h), 53), i;
	struct jtsc_health st;
	uint8_t s = 0;

	rng_state = seed;
	jtsc_health_init(&st, p);
	for (i = 1; i <= n; i++) {
		s = next_sample(kind, s, thr);
		if (jtsc_health_sample(&st, s) != JTSC_HEALTH_OK)
			return i;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { double mult; uint64_t n; int must_fail; const char *name; } lv[] = {
		{ 1.0, 1000000, 1, "1.0x" },
		{ 1.5, 10000000, 1, "1.5x" },
		{ 2.0, 100000000, 0, "2.0x" },
	};
	unsigned int step, kind, l, misses = 0, scale = 1;
	int c;

	while ((c = getopt(argc, argv, "s:")) != -1) {
		if (c != 's' || !(scale = strtoul(optarg, NULL, 0))) {
			fprintf(stderr, "usage: guard-power [-s SCALE]\n");
			return 2;
		}
	}
	printf("# the kernel's health tests (JTSC_GUARD %d) on sources of known H per sample\n",
	       JTSC_GUARD);
	for (step = 0; step < jtsc_ladder_steps; step++) {
		const struct jtsc_health_params *p = &jtsc_ladder[step];
		bool held = p->credit >= HELD_FROM && scale == 1;

		for (kind = 0; kind < 3; kind++) {
			for (l = 0; l < 3; l++) {
				double h = lv[l].mult * p->credit / 256.0;
				uint64_t n = lv[l].n / scale / (p->credit < HELD_FROM ? 10 : 1);
				uint64_t at = run(p, kind, h, n, 0x6a09e667f3bcc908ULL + 1000 * step +
						  10 * kind + l);
				int ok = lv[l].must_fail ? at != 0 : at == 0;
				const char *v = ok ? "ok" : held ? "MISS" : "not held";

				misses += !ok && held;
				printf("credit %3u/256 kind %-6s level %s H %.4f samples %9llu failed_at ",
				       p->credit, kinds[kind], lv[l].name, h, (unsigned long long)n);
				if (at)
					printf("%9llu", (unsigned long long)at);
				else
					printf("%9s", "-");
				printf(" verdict %s\n", v);
				fflush(stdout);
			}
		}
	}
	printf("guard-power: %u miss(es) from %u/256 up\n", misses, HELD_FROM);
	return misses ? 1 : 0;
}
