// SPDX-License-Identifier: GPL-2.0
/*
 * host-timer - a user-space ANALOGUE of the jitter_tsc stack-timer collector.
 *
 * Not the kernel code: jtsc_timer_collect() (crypto/jitter_tsc_kcapi.c) keeps a
 * timer on its stack armed on another CPU to expire at the next tick and
 * calls schedule() in a loop, recording the cycle-counter advance over each
 * pass. Here a thread pinned to another CPU plays the timer: it wakes every
 * 4 ms (one tick at HZ=250) and increments a counter in the cache line of
 * the collecting thread's stack; the collecting thread calls sched_yield()
 * and records the rdtsc advance over each pass. It shows what the loop's
 * samples look like on this CPU; the kernel figures come from a guest.
 *
 * One raw sample is what the kernel collector keeps: the low byte of the
 * counter's advance over one pass. Writes N samples, one byte each, to FILE
 * and prints "key value" lines: samples, ns_per_sample, ticks_per_sample
 * (mean advance per pass), expiries (of the "timer"). With -t MS, stops
 * after MS milliseconds with what it has (with both CPUs busy a pass can
 * take a whole time slice of the competing task).
 * usage: host-timer [-n SAMPLES] [-p TICK_US] [-t MS] FILE
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

struct stack_state {
	_Alignas(64) atomic_uint fired;
	atomic_int stop;
};

static long tick_ns = 4000000;

static void pin(int cpu)
{
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu % n, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *timer_thread(void *arg)
{
	struct stack_state *st = arg;
	struct timespec t;

	pin(1);
	clock_gettime(CLOCK_MONOTONIC, &t);
	while (!atomic_load(&st->stop)) {
		t.tv_nsec += tick_ns;
		while (t.tv_nsec >= 1000000000) {
			t.tv_nsec -= 1000000000;
			t.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		atomic_fetch_add(&st->fired, 1);	/* the "callback" */
	}
	return NULL;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = 1000000, i, budget_ms = 0;
	struct stack_state st = { 0 };
	uint64_t first, last, now;
	uint8_t *d;
	pthread_t th;
	double t0, t1;
	FILE *f;
	int c;

	while ((c = getopt(argc, argv, "n:p:t:")) != -1) {
		if (c == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (c == 'p')
			tick_ns = strtol(optarg, NULL, 0) * 1000;
		else if (c == 't')
			budget_ms = strtoul(optarg, NULL, 0);
		else
			goto usage;
	}
	if (optind != argc - 1 || !n)
		goto usage;
	d = malloc(n);
	if (!d)
		return 1;
	pin(0);
	if (pthread_create(&th, NULL, timer_thread, &st))
		return 1;
	t0 = now_ns();
	first = last = __rdtsc();
	for (i = 0; i < n; i++) {
		sched_yield();
		now = __rdtsc();
		d[i] = (uint8_t)(now - last);
		last = now;
		if (budget_ms && !(i & 1023) && now_ns() - t0 > budget_ms * 1e6) {
			i++;
			break;
		}
	}
	n = i;
	t1 = now_ns();
	atomic_store(&st.stop, 1);
	pthread_join(th, NULL);
	f = fopen(argv[optind], "wb");
	if (!f || fwrite(d, 1, n, f) != n || fclose(f)) {
		perror(argv[optind]);
		return 1;
	}
	printf("loop timer analogue (sched_yield, a thread as the timer)\n");
	printf("samples %lu\n", n);
	printf("ns_per_sample %.1f\n", (t1 - t0) / n);
	printf("ticks_per_sample %.1f\n", (double)(last - first) / n);
	printf("expiries %u\n", atomic_load(&st.fired));
	free(d);
	return 0;
usage:
	fprintf(stderr, "usage: host-timer [-n SAMPLES] [-p TICK_US] [-t MS] FILE\n");
	return 2;
}
