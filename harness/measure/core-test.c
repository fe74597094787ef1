// SPDX-License-Identifier: GPL-2.0
/*
 * core-test.c - the core's state machine of a collector's life, in user
 * space: crypto/jitter_tsc_core.c and jitter_tsc_estimate.c compiled as
 * they are (lib.sh build_core_test), driven with scripted sample streams.
 * The KUnit suite drives the same code in the kernel; this shows that the
 * file is host-independent and behaves the same outside it.
 *
 * Prints one line per check and exits 1 if any fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <linux/errno.h>

#include "jitter_tsc_internal.h"

static int fails;

#define CHECK(cond, ...) do {						\
	int _ok = !!(cond);						\
	printf("%s - ", _ok ? "ok" : "not ok");				\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	fails += !_ok;							\
} while (0)

static u64 rnd = 0x9e3779b97f4a7c15ULL;

/* n bytes of xorshift64*: i.i.d. uniform, 8 bits per sample */
static void fill_random(u8 *p, unsigned int n)
{
	while (n--) {
		rnd ^= rnd >> 12;
		rnd ^= rnd << 25;
		rnd ^= rnd >> 27;
		*p++ = (rnd * 0x2545f4914f6cdd1dULL) >> 56;
	}
}

static const char *const phase_name[] = { "idle", "running", "restart", "refused", "dead" };

int main(void)
{
	static u8 start[JTSC_STARTUP_SAMPLES], raw[JTSC_BATCH];
	static struct jtsc_core c;
	enum jtsc_phase ph;
	unsigned int i, words, credit, want = 1;
	int top = jtsc_ladder_steps - 1;

	/* 1. a constant counter delta: refused at startup, with a doubling backoff */
	for (i = 0; i < sizeof(start); i++)
		start[i] = 40;
	for (i = 0; i < 8; i++) {
		ph = jtsc_core_startup(&c, JTSC_SRC_SPEC, 0, start, 1000, 1);
		CHECK(ph == JTSC_REFUSED && c.life[0].backoff == want && c.life[0].retry_at == 1000 + want,
		      "constant stream refused, backoff %u (want %u)", c.life[0].backoff, want);
		want = want * 2 > JTSC_BACKOFF_MAX ? JTSC_BACKOFF_MAX : want * 2;
	}
	CHECK(jtsc_core_pick(&c, BIT(JTSC_SRC_SPEC), 1000) == -EAGAIN,
	      "a refused collector is not picked during its backoff");
	CHECK(jtsc_core_pick(&c, JTSC_COLLECT_ALL, 1000) == JTSC_SRC_TIMER,
	      "the next collector is picked meanwhile");
	CHECK(jtsc_core_pick(&c, BIT(JTSC_SRC_SPEC), 1000 + JTSC_BACKOFF_MAX) == JTSC_SRC_SPEC,
	      "it is picked again once its backoff is over");
	jtsc_core_park(&c, true);
	CHECK(c.life[0].phase == JTSC_IDLE && !c.life[0].backoff, "a new machine forgets the refusal");

	/* 2. a random stream passes at the top step and its words carry their credit */
	fill_random(start, sizeof(start));
	ph = jtsc_core_startup(&c, JTSC_SRC_SPEC, top, start, 0, 1);
	CHECK(ph == JTSC_RUNNING, "random stream passes its startup test at %u/256 (%s)",
	      jtsc_ladder[top].credit, phase_name[ph]);
	words = jtsc_core_words(&c, 512 << JTSC_ENTROPY_SHIFT);
	for (i = 0; c.tested < words && i < 64; i++) {
		fill_random(raw, sizeof(raw));
		ph = jtsc_core_feed(&c, raw);
	}
	CHECK(ph == JTSC_RUNNING && c.tested >= words, "%u words released after %u batches",
	      c.tested, i);
	credit = jtsc_core_take(&c, words);
	CHECK(credit == words * jtsc_ladder[top].credit * jtsc_ladder[top].samples_per_word,
	      "%u words carry %u/256 bit, their samples at the step's credit", words, credit);

	/* 3. the counter gets stuck while running: the output stops, the collector dies */
	for (i = 0; i < sizeof(raw); i++)
		raw[i] = 7;
	ph = jtsc_core_feed(&c, raw);
	CHECK(ph == JTSC_DEAD && !c.tested && !c.pending,
	      "a stuck counter in operation: %s, pool emptied", phase_name[ph]);
	CHECK(jtsc_core_pick(&c, JTSC_COLLECT_ALL, 0) == JTSC_SRC_TIMER,
	      "the dead collector is passed over");
	CHECK(jtsc_core_pick(&c, BIT(JTSC_SRC_SPEC), 0) == -ENODEV, "none left without the timer");
	jtsc_core_park(&c, false);
	CHECK(c.life[0].phase == JTSC_DEAD, "death outlives a park");
	jtsc_core_park(&c, true);
	CHECK(c.life[0].phase == JTSC_IDLE, "not a new machine, which makes new estimates");

	/* 4. an intermittent failure needs a new startup test, a step lower; three retire */
	fill_random(start, sizeof(start));
	ph = jtsc_core_startup(&c, JTSC_SRC_TIMER, JTSC_MAX_INTERMITTENT, start, 0, 1);
	for (i = 0; i < JTSC_MAX_INTERMITTENT && ph == JTSC_RUNNING; i++) {
		unsigned int k;

		/* a run of identical samples to the floor's intermittent RCT cutoff */
		for (k = 0; k < sizeof(raw); k++)
			raw[k] = 9;
		do
			ph = jtsc_core_feed(&c, raw);
		while (ph == JTSC_RUNNING);
		printf("# failure %u: %s\n", i + 1, phase_name[ph]);
		if (ph == JTSC_RESTART) {
			fill_random(start, sizeof(start));
			ph = jtsc_core_startup(&c, JTSC_SRC_TIMER, JTSC_MAX_INTERMITTENT, start, 0, 1);
			CHECK(c.life[JTSC_SRC_TIMER].health.params ==
			      &jtsc_ladder[JTSC_MAX_INTERMITTENT - 1 - i],
			      "failure %u restarts it a step lower", i + 1);
		}
	}
	CHECK(ph == JTSC_DEAD && i == JTSC_MAX_INTERMITTENT,
	      "%u intermittent failures without a released window retire it (%s)", i,
	      phase_name[ph]);

	printf("core-test: %s\n", fails ? "FAILED" : "all passed");
	return !!fails;
}
