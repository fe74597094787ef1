// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - PID 1 of the jitter_tsc test guest.
 *
 * The very first thing it does is time a blocking getrandom(buf, 32, 0), so
 * the wait reflects how long the kernel took to make the crng ready. It then
 * mounts proc, sysfs, devtmpfs and debugfs and prints machine-readable lines
 * "JTSC key=value" on the console, which harness/guest/report.sh and
 * boottest.sh parse. The mode comes from the kernel command line:
 *
 *   jtsc.mode=report  (default) getrandom timing, /proc/crypto entries,
 *                     kernel-log lines, debugfs stats, AF_ALG reads; reboot
 *   jtsc.mode=bench   getrandom timing plus AF_ALG throughput; reboot
 *   jtsc.mode=shell   the report, then a busybox sh; reboot when it exits
 *   jtsc.mode=fault   misuse of jitter_tsc through AF_ALG (odd and huge
 *                     reads, a reader killed mid-read, sockets opened and
 *                     closed under a reader, many readers at once), then
 *                     fault injection: the speculative collector, then
 *                     both, given a constant counter delta; reboot
 *   jtsc.mode=clone   a few blocks from jitter_tsc and jitterentropy_rng,
 *                     "clone.ready=1", then wait for a line on the console
 *                     (the host saves the VM meanwhile and restores it
 *                     twice), then 16 blocks of each; reboot
 *   jtsc.mode=mem     vmalloc and slab memory held by jitter_tsc after
 *                     boot, while two AF_ALG readers read and 12 s after
 *                     they closed their sockets; reboot
 *   jtsc.mode=rounds  jtsc.rounds (default 1000) rounds of an unprivileged
 *                     reader (uid 65534) opening a jitter_tsc socket,
 *                     reading 32 bytes and closing it, with the debugfs
 *                     stats before and after; reboot
 *   jtsc.mode=memcg   a reader (uid 65534) in a cgroup with memory.max
 *                     jtsc.memcg_max (default 4 MiB) reads on each CPU,
 *                     then one outside it; stats before, between and
 *                     after; reboot
 *
 * Other words:
 *   jtsc.algs=a,b,c     rngs to test (default jitter_tsc,jitterentropy_rng,
 *                       stdrng); argv words also name rngs
 *   jtsc.slow_ms=N      report: skip an AF_ALG read the rate so far says
 *                       takes longer than N ms (default 5000; 0: never)
 *   jtsc.bench_ms=N, jtsc.bench_bytes=N   bench budget per rng
 *   jtsc.stress_s=N     fault: how long the many readers read (default 60)
 *   jtsc.stress_readers=N   fault: how many (default 8)
 *   jtsc.dump=PATH|afalg:NAME, jtsc.dump_bytes=N, jtsc.dump_dev=/dev/vda
 *                       copy raw data to a disk for the host to analyse
 *   jtsc.insmod=PATH    report: load this module before looking at
 *                       /proc/crypto (finit_module)
 *   jtsc.rmmod=NAME     report: unload this module at the end, then say
 *                       whether /proc/crypto and debugfs still show it
 * The last line is always "JTSC done=1"; QEMU runs with -no-reboot, so
 * reboot(RB_AUTOBOOT) ends it.
 *
 * Run as a normal user process (not PID 1) it mounts and reboots nothing,
 * so the AF_ALG part can be tried on the host: ./init jitterentropy_rng
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <sched.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "afalg.h"

#define DEFAULT_ALGS	"jitter_tsc,jitterentropy_rng,stdrng"
#define MAX_ALGS	8
#define SAMPLE_LEN	32
#define BENCH_REQ	4096
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KLOG_MAX_LINES	40

static const size_t read_sizes[] = { 0, 1, 31, 32, 33, 4096, 65536 };

static char cmdline[4096];
static int is_pid1;

/* ---- output ------------------------------------------------------------ */

/* One write() per line keeps JTSC lines whole on the serial console. */
static void __attribute__((format(printf, 1, 2))) out(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	memcpy(line, "JTSC ", 5);
	va_start(ap, fmt);
	n = vsnprintf(line + 5, sizeof(line) - 6, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	n += 5;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, n) < 0)
		return;
}

static void hex(char *dst, const unsigned char *src, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		dst[2 * i] = digits[src[i] >> 4];
		dst[2 * i + 1] = digits[src[i] & 15];
	}
	dst[2 * len] = '\0';
}

static int64_t now_us(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Read a small file into buf (NUL-terminated, trailing newline stripped). */
static int read_file(const char *path, char *buf, size_t size)
{
	ssize_t n, r = 0;
	int fd, err;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (n = 0; (size_t)n < size - 1; n += r) {	/* seq_files may return less */
		r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR) {
			r = 0;
			continue;
		}
		if (r <= 0)
			break;
	}
	err = r < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* Value of kernel command-line word "key=value" (copied into val), or NULL. */
static const char *param(const char *key, char *val, size_t size)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	while (*p) {
		const char *end;

		while (*p == ' ')
			p++;
		end = p + strcspn(p, " ");
		if ((size_t)(end - p) > klen && !strncmp(p, key, klen) &&
		    p[klen] == '=') {
			size_t n = end - p - klen - 1;

			if (n >= size)
				n = size - 1;
			memcpy(val, p + klen + 1, n);
			val[n] = '\0';
			return val;
		}
		p = end;
	}
	return NULL;
}

static unsigned long param_ul(const char *key, unsigned long def)
{
	char v[32];

	return param(key, v, sizeof(v)) ? strtoul(v, NULL, 0) : def;
}

/* ---- system setup ------------------------------------------------------ */

static void do_mount(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) < 0 && errno != EBUSY)
		out("mount.%s=%s", type, afalg_errname(errno));
}

static void setup_pid1(void)
{
	int fd;

	do_mount("proc", "/proc", "proc");
	do_mount("sysfs", "/sys", "sysfs");
	do_mount("devtmpfs", "/dev", "devtmpfs");
	do_mount("debugfs", "/sys/kernel/debug", "debugfs");

	/* No /dev/console in the initramfs: the kernel gave us no stdio. */
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
}

static void __attribute__((noreturn)) finish(void)
{
	out("done=1");
	if (is_pid1) {
		sync();
		reboot(RB_AUTOBOOT);
		for (;;)
			pause();
	}
	exit(0);
}

/* ---- report sections --------------------------------------------------- */

static void report_system(void)
{
	struct utsname u;
	char buf[512];

	if (uname(&u) == 0) {
		out("kernel.release=%s", u.release);
		out("kernel.version=%s", u.version);
		out("kernel.machine=%s", u.machine);
	}
	out("kernel.cmdline=%s", cmdline);
	if (!read_file("/proc/sys/kernel/tainted", buf, sizeof(buf)))
		out("kernel.tainted=%s", buf);
	if (!read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		       buf, sizeof(buf)))
		out("clocksource=%s", buf);
	out("cpus.online=%ld", sysconf(_SC_NPROCESSORS_ONLN));
}

static void report_cpuflags(void)
{
	static const char *const flags[] = { "rdrand", "rdseed", "tsc",
		"constant_tsc", "nonstop_tsc", "tsc_known_freq" };
	char *buf = malloc(65536), *line, *save;
	unsigned int i;

	if (!buf || read_file("/proc/cpuinfo", buf, 65536)) {
		free(buf);
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "model name", 10) && strchr(line, ':'))
			out("cpu.model=%s", strchr(line, ':') + 2);
		if (strncmp(line, "flags", 5))
			continue;
		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
			size_t len = strlen(flags[i]);
			const char *f = line;

			/* whole words only: "tsc" must not match "constant_tsc" */
			while ((f = strstr(f + 1, flags[i])) &&
			       !(f[-1] == ' ' && (f[len] == ' ' || !f[len])))
				;
			out("cpu.flag.%s=%d", flags[i], f != NULL);
		}
		break;	/* first CPU is enough */
	}
	free(buf);
}

/*
 * /proc/crypto has one block per registered algorithm. For @name report how
 * many implementations exist and the fields of the one with the highest
 * priority (the one AF_ALG binds to).
 */
struct crypto_ent {
	char driver[64], module[64], type[32], selftest[32], priority[16];
	char seedsize[16];
	int prio;
};

static void crypto_field(struct crypto_ent *e, const char *k, const char *v)
{
#define SET(f) snprintf(e->f, sizeof(e->f), "%s", v)
	if (!strcmp(k, "driver"))
		SET(driver);
	else if (!strcmp(k, "module"))
		SET(module);
	else if (!strcmp(k, "type"))
		SET(type);
	else if (!strcmp(k, "selftest"))
		SET(selftest);
	else if (!strcmp(k, "seedsize"))
		SET(seedsize);
	else if (!strcmp(k, "priority")) {
		SET(priority);
		e->prio = atoi(v);
	}
#undef SET
}

static void report_crypto_as(const char *name, const char *crypto,
			     const char *prefix)
{
	struct crypto_ent best, cur;
	const char *p = crypto;
	int count = 0, match = 0;

	memset(&best, 0, sizeof(best));
	memset(&cur, 0, sizeof(cur));
	best.prio = -1;
	for (;;) {
		const char *nl = strchr(p, '\n');
		char line[256], *colon, *k, *v;
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';

		if (n == 0 || !nl) {	/* end of a block */
			if (match && cur.prio > best.prio)
				best = cur;
			count += match;
			match = 0;
			memset(&cur, 0, sizeof(cur));
			if (!nl)
				break;
		} else if ((colon = strchr(line, ':'))) {
			*colon = '\0';
			k = line;
			v = colon + 1;
			while (*v == ' ')
				v++;
			for (char *e = colon - 1; e >= k && *e == ' '; e--)
				*e = '\0';
			if (!strcmp(k, "name"))
				match = !strcmp(v, name);
			crypto_field(&cur, k, v);
		}
		p = nl + 1;
	}

	out("%s.%s.count=%d", prefix, name, count);
	if (!count)
		return;
	out("%s.%s.driver=%s", prefix, name, best.driver);
	out("%s.%s.module=%s", prefix, name, best.module);
	out("%s.%s.type=%s", prefix, name, best.type);
	out("%s.%s.priority=%s", prefix, name, best.priority);
	out("%s.%s.selftest=%s", prefix, name, best.selftest);
	if (best.seedsize[0])
		out("%s.%s.seedsize=%s", prefix, name, best.seedsize);
}

static void report_crypto(const char *name, const char *crypto)
{
	report_crypto_as(name, crypto, "crypto");
}

/*
 * initcall_debug, for the initcalls the boot cost is about: "calling
 * jtsc_mod_init+0x0/0x1a0 @ 1" and "initcall jtsc_mod_init+0x0/0x1a0
 * returned 0 after 2210 usecs". The kernel takes that figure from
 * ktime_get(), which before fs_initcall() runs on jiffies (4 ms steps at
 * HZ=250); the time between the two lines' printk timestamps
 * (local_clock(), the TSC) is the one reported as _us.
 */
static const char *const watched_initcalls[] = {
	"jtsc_mod_init", "jent_mod_init", "random_jitter_tsc_init",
};

static char last_initcall_s[32];

static void report_initcall(const char *body, const char *ts)
{
	static double start[ARRAY_SIZE(watched_initcalls)];
	int calling = !strncmp(body, "calling  ", 9);
	const char *fn = body + 9, *after = strstr(body, " after ");
	size_t len = strcspn(fn, "+ ");
	unsigned int i;

	/* The last one to return before init: async work is waited for after it. */
	if (!calling && ts)
		snprintf(last_initcall_s, sizeof(last_initcall_s), "%.*s",
			 (int)strcspn(ts, "]"), ts);
	for (i = 0; i < ARRAY_SIZE(watched_initcalls); i++) {
		const char *w = watched_initcalls[i];

		if (len != strlen(w) || strncmp(fn, w, len))
			continue;
		if (calling) {
			start[i] = ts ? atof(ts) : -1;
		} else if (after) {
			out("klog.initcall.%s_kernel_us=%ld", w, strtol(after + 7, NULL, 10));
			if (ts && start[i] >= 0)
				out("klog.initcall.%s_us=%.0f", w, (atof(ts) - start[i]) * 1e6);
		}
	}
}

/* KEY=the timestamp TS points into, up to its "]"; nothing without one. */
static void out_ts(const char *key, const char *ts)
{
	if (ts)
		out("%s=%.*s", key, (int)strcspn(ts, "]"), ts);
}

/*
 * Kernel-log lines about the crng and jitter_tsc, with their timestamps.
 * klog records look like "<5>[    0.912345] random: crng init done".
 */
static void report_klog(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *line, *save;
	int n, shown = 0, done_seen = 0, credit_seen = 0, warnings = 0;
	int run_init_seen = 0, unseeded = 0, unseeded_late = 0;

	if (size <= 0)
		size = 1 << 20;
	buf = malloc(size + 1);
	if (!buf)
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		out("klog.error=%s", afalg_errname(errno));
		free(buf);
		return;
	}
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *msg = line, *ts = NULL, *body;

		if (msg[0] == '<' && strchr(msg, '>'))
			msg = strchr(msg, '>') + 1;
		body = msg[0] == '[' && strstr(msg, "] ") ? strstr(msg, "] ") + 2 : msg;
		/* "[    0.912345] ...": the timestamp, from its first digit */
		if (body != msg)
			ts = msg + 1 + strspn(msg + 1, " ");
		/* INFO: hung tasks, lockdep and RCU stall reports */
		if (!strncmp(body, "WARNING:", 8) || !strncmp(body, "BUG:", 4) ||
		    !strncmp(body, "Oops", 4) || !strncmp(body, "INFO:", 5)) {
			if (!warnings++)
				out("klog.first_warning=%s", msg);
			continue;
		}
		if (strstr(body, "Run /init as init process") && !run_init_seen) {
			run_init_seen = 1;
			out_ts("klog.run_init_s", ts);
			continue;
		}
		if ((!strncmp(body, "initcall ", 9) && strstr(body, " usecs")) ||
		    !strncmp(body, "calling  ", 9)) {
			if (!run_init_seen)
				report_initcall(body, ts);
			continue;
		}
		/*
		 * One line per unseeded use, from kernels that have
		 * CONFIG_WARN_ALL_UNSEEDED_RANDOM (gone by 6.12) or the
		 * equivalent instrumentation.
		 */
		if (strstr(body, "with crng_init=")) {
			unseeded++;
			if (done_seen)
				unseeded_late++;
			continue;
		}
		if ((!strstr(msg, "crng init done") && !strstr(msg, "jitter_tsc") &&
		     !strstr(msg, "random:")) || strstr(msg, "ommand line:"))
			continue;
		for (char *c = msg; *c; c++)
			if (!isprint((unsigned char)*c))
				*c = '?';
		if (shown++ < KLOG_MAX_LINES)
			out("klog=%s", msg);
		if (ts && !done_seen && strstr(msg, "crng init done")) {
			done_seen = 1;
			out_ts("klog.crng_init_done_s", ts);
		}
		/* random.c: how long init waited for the seeding at boot */
		if (strstr(msg, "jitter_tsc seeding ")) {
			out("klog.jitter_tsc_seeding=%s", strstr(msg, "jitter_tsc seeding "));
			out_ts("klog.jitter_tsc_seeding_s", ts);
		}
		if (strstr(msg, "jitter_tsc: ready") ||
		    strstr(msg, "jitter_tsc: not registering"))
			out_ts("klog.jitter_tsc_setup_s", ts);
		if (!credit_seen && strstr(msg, "jitter_tsc") &&
		    strstr(msg, "credited")) {
			credit_seen = 1;
			out("klog.jitter_tsc_credited=%s", msg);
			out_ts("klog.jitter_tsc_credited_s", ts);
		}
	}
	if (last_initcall_s[0])
		out("klog.initcalls_done_s=%s", last_initcall_s);
	out("klog.unseeded=%d", unseeded);
	out("klog.unseeded_after_ready=%d", unseeded_late);
	out("klog.matched_lines=%d", shown);
	out("klog.warnings=%d", warnings);
	out("klog.crng_init_done=%d", done_seen);
	free(buf);
}

/* debugfs statistics: every "name: value" line becomes stat.name=value. */
static void report_stats(void)
{
	static const char path[] = "/sys/kernel/debug/jitter_tsc/stats";
	char *buf = malloc(16384), *line, *save;
	int err;

	if (!buf)
		return;
	err = read_file(path, buf, 16384);
	out("stats.present=%d", err == 0);
	if (err) {
		free(buf);
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t klen = strcspn(line, ":=");
		char *v;

		if (!line[klen])	/* "name value" */
			klen = strcspn(line, " \t");
		v = line + klen;
		if (*v)
			v++;
		while (*v == ' ' || *v == '\t' || *v == '=')
			v++;
		while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
			klen--;
		line[klen] = '\0';
		for (char *c = line; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_' && *c != '.' &&
			    *c != '-')
				*c = '_';
		if (klen)
			out("stat.%s=%s", line, v);
	}
	free(buf);
}

static int open_seeded(struct afalg_rng *r, const char *alg, int verbose)
{
	unsigned char seed[32];
	int err;

	err = afalg_rng_bind(r, alg);
	if (verbose)
		out("afalg.%s.bind=%s", alg, err ? afalg_errname(err) : "ok");
	if (err)
		return err;
	/* drbg (stdrng) will not generate before it is seeded */
	if (getrandom(seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		memset(seed, 0x5a, sizeof(seed));
	err = afalg_rng_seed(r, seed, sizeof(seed));
	if (verbose)
		out("afalg.%s.seed=%s", alg, err ? afalg_errname(err) : "ok");
	err = afalg_rng_accept(r);
	if (err && verbose)
		out("afalg.%s.accept=%s", alg, afalg_errname(err));
	return err;
}

static void report_afalg(const char *alg, unsigned long long slow_ms)
{
	unsigned long long done_bytes = 0, done_us = 0;
	static unsigned char buf[65536];
	unsigned char s[2][SAMPLE_LEN];
	char hexbuf[2 * SAMPLE_LEN + 1];
	struct afalg_rng r;
	unsigned int i, calls;
	int64_t t0;
	ssize_t n;

	if (open_seeded(&r, alg, 1))
		return;
	for (i = 0; i < sizeof(read_sizes) / sizeof(read_sizes[0]); i++) {
		size_t want = read_sizes[i];

		/* Under TCG jitterentropy_rng makes ~1.4 KiB/s: skip reads that
		 * the rate seen so far says would take longer than slow_ms. */
		if (slow_ms && done_us > 0 && done_bytes >= 32 &&
		    want * done_us / done_bytes > slow_ms * 1000) {
			out("afalg.%s.read.%zu=skipped est_ms=%llu", alg, want,
			    (unsigned long long)(want * done_us / done_bytes / 1000));
			continue;
		}
		t0 = now_us(CLOCK_MONOTONIC);
		n = afalg_rng_read(&r, buf, want, &calls);
		t0 = now_us(CLOCK_MONOTONIC) - t0;
		if (n > 0) {
			done_bytes += n;
			done_us += t0;
		}
		if (n == (ssize_t)want)
			out("afalg.%s.read.%zu=ok got=%zd calls=%u us=%lld", alg,
			    want, n, calls, (long long)t0);
		else if (n >= 0)
			out("afalg.%s.read.%zu=short got=%zd calls=%u us=%lld",
			    alg, want, n, calls, (long long)t0);
		else
			out("afalg.%s.read.%zu=%s got=0 calls=%u us=%lld", alg,
			    want, afalg_errname((int)n), calls, (long long)t0);
	}
	for (i = 0; i < 2; i++) {
		n = afalg_rng_read(&r, s[i], SAMPLE_LEN, NULL);
		if (n != SAMPLE_LEN)
			continue;
		hex(hexbuf, s[i], SAMPLE_LEN);
		out("afalg.%s.sample%s=%s", alg, i ? "2" : "", hexbuf);
	}
	afalg_rng_close(&r);
}

/* ---- modules ----------------------------------------------------------- */

/* Load the module at @path; insmod.ret=0 or the error. */
static void insmod(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd >= 0) {
		ret = syscall(SYS_finit_module, fd, "", 0);
		close(fd);
	}
	out("insmod.path=%s", path);
	out("insmod.ret=%s", ret ? afalg_errname(errno) : "0");
}

/*
 * Try to unload @name while an AF_ALG socket on it is open, then with
 * nothing left using it, and report whether /proc/crypto still lists @name
 * and whether its debugfs directory is still there.
 */
static void rmmod(const char *name)
{
	static char crypto[1 << 20];
	char dir[320];
	unsigned char buf[32];
	struct afalg_rng r;
	struct stat st;
	int ret;

	/* First with a socket open: refused, and the socket still reads. */
	if (!open_seeded(&r, name, 0)) {
		ret = syscall(SYS_delete_module, name, O_NONBLOCK);
		out("rmmod.open.ret=%s", ret ? afalg_errname(errno) : "0");
		out("rmmod.open.read=%zd", afalg_rng_read(&r, buf, sizeof(buf), NULL));
		afalg_rng_close(&r);
	}
	ret = syscall(SYS_delete_module, name, O_NONBLOCK);
	out("rmmod.ret=%s", ret ? afalg_errname(errno) : "0");
	if (!read_file("/proc/crypto", crypto, sizeof(crypto)))
		report_crypto_as(name, crypto, "rmmod.crypto");
	snprintf(dir, sizeof(dir), "/sys/kernel/debug/%s", name);
	out("rmmod.debugfs_left=%d", stat(dir, &st) == 0);
}

/* ---- helpers for several readers --------------------------------------- */

/* Pin the calling process to @cpu; 0 or -errno. */
static void pin_cpu_all(void)
{
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_ONLN), i;

	CPU_ZERO(&set);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

static int write_str(const char *path, const char *str)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, str, strlen(str));
	if (n != (ssize_t)strlen(str))
		err = n < 0 ? -errno : -EIO;
	close(fd);
	return err;
}

/* What one reader process reports back to its parent through a pipe. */
struct reader_result {
	unsigned long long bytes;
	long long us;
	int err;		/* first error, -errno; 0 if none */
	unsigned int errors;	/* failed reads */
};

/*
 * A child that reads @alg through its own AF_ALG socket, @req bytes a call,
 * for @ms (or until killed if @ms is 0), after a byte arrives on @go; it
 * says it is ready on @ready and writes its result to @res. Pinned to @cpu
 * unless that is -1.
 */
static pid_t reader_start(const char *alg, size_t req, unsigned long ms, int cpu,
			  int ready, int go, int res)
{
	static unsigned char buf[BENCH_REQ];
	struct reader_result rr = { 0 };
	struct afalg_rng r;
	int64_t t0;
	ssize_t n;
	char c = 1;
	pid_t pid = fork();

	if (pid)
		return pid;
	if (cpu >= 0)
		pin_cpu(cpu);
	rr.err = open_seeded(&r, alg, 0);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(1);
	t0 = now_us(CLOCK_MONOTONIC);
	while (!rr.err) {
		n = afalg_rng_read(&r, buf, req, NULL);
		if (n > 0)
			rr.bytes += n;
		if (n < 0) {
			rr.errors++;
			if (!rr.err)
				rr.err = (int)n;
		}
		rr.us = now_us(CLOCK_MONOTONIC) - t0;
		if ((ms && rr.us >= (int64_t)ms * 1000) || n < 0)
			break;
	}
	if (write(res, &rr, sizeof(rr)) != sizeof(rr))
		_exit(1);
	_exit(0);
}

/*
 * @n readers of @alg at once, started together; their results in @rr.
 * Returns how many reported. Reader i runs on CPU @cpu0 + i, or anywhere
 * if @cpu0 is -1.
 */
static int readers_run(const char *alg, int n, size_t req, unsigned long ms, int cpu0,
		       struct reader_result *rr)
{
	int ready[2], go[2], res[2], i, got = 0;
	pid_t pid[64];
	char c = 1;

	if (n > (int)ARRAY_SIZE(pid) || pipe(ready) || pipe(go) || pipe(res))
		return 0;
	for (i = 0; i < n; i++)
		pid[i] = reader_start(alg, req, ms, cpu0 < 0 ? -1 : cpu0 + i,
				      ready[1], go[0], res[1]);
	for (i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1)
			break;
	for (i = 0; i < n; i++)
		if (write(go[1], &c, 1) != 1)
			break;
	for (i = 0; i < n; i++)
		if (pid[i] > 0 && read(res[0], &rr[got], sizeof(*rr)) == sizeof(*rr))
			got++;
	for (i = 0; i < n; i++)
		if (pid[i] > 0)
			waitpid(pid[i], NULL, 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
	return got;
}

/* ---- misuse and faults (jtsc.mode=fault) ------------------------------- */

#define STUCK_PARAM	"/sys/module/jitter_tsc/parameters/stuck"

/* Single read() calls of odd and huge sizes: data of a length AF_ALG allows. */
static void misuse_sizes(void)
{
	static const size_t sizes[] = { 0, 1, 7, 31, 33, 127, 129, 4097, 1 << 20 };
	static unsigned char buf[1 << 20];
	struct afalg_rng r;
	unsigned int i;
	ssize_t n;

	if (open_seeded(&r, "jitter_tsc", 1))
		return;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		n = read(r.op, buf, sizes[i]);
		if (n < 0)
			out("misuse.read1.%zu=%s", sizes[i], afalg_errname(errno));
		else
			out("misuse.read1.%zu=%zd", sizes[i], n);
	}
	/* The same through the looping reader: every byte of 256 KiB. */
	n = afalg_rng_read(&r, buf, 256 << 10, NULL);
	out("misuse.read_full.262144=%zd", n);
	afalg_rng_close(&r);
}

/* A reader that never stops, killed 300 ms in: it dies, others still read. */
static void misuse_killed(void)
{
	struct reader_result rr;
	int ready[2], go[2], res[2], status = 0;
	int64_t t0;
	char c = 1;
	pid_t pid;

	if (pipe(ready) || pipe(go) || pipe(res))
		return;
	pid = reader_start("jitter_tsc", BENCH_REQ, 0, -1, ready[1], go[0], res[1]);
	if (read(ready[0], &c, 1) != 1 || write(go[1], &c, 1) != 1)
		return;
	usleep(300000);
	t0 = now_us(CLOCK_MONOTONIC);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	out("misuse.killed.signal=%d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	out("misuse.killed.reap_us=%lld", (long long)(now_us(CLOCK_MONOTONIC) - t0));
	if (readers_run("jitter_tsc", 1, 64, 200, -1, &rr) == 1)
		out("misuse.killed.after=%s bytes=%llu", rr.err ? afalg_errname(rr.err) : "ok",
		    rr.bytes);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
}

/*
 * Many readers at once for jtsc.stress_s seconds while this process opens a
 * socket, reads 32 bytes and closes it, over and over: every reader gets
 * data and no error, every short-lived socket its 32 bytes.
 */
static void misuse_stress(void)
{
	unsigned long secs = param_ul("jtsc.stress_s", 60);
	int n = (int)param_ul("jtsc.stress_readers", 8), got, i;
	struct reader_result rr[64];
	unsigned long long bytes = 0, cycles = 0, cycle_errs = 0;
	unsigned int errors = 0, idle = 0;
	unsigned char buf[32];
	struct afalg_rng r;
	int64_t t0 = now_us(CLOCK_MONOTONIC);
	pid_t pid;
	int res[2];

	if (n > 64)
		n = 64;
	if (pipe(res))
		return;
	/* The readers, in a child of their own, so that this one can cycle. */
	pid = fork();
	if (!pid) {
		got = readers_run("jitter_tsc", n, BENCH_REQ, secs * 1000, -1, rr);
		if (write(res[1], &got, sizeof(got)) != sizeof(got) ||
		    write(res[1], rr, got * sizeof(rr[0])) != (ssize_t)(got * sizeof(rr[0])))
			_exit(1);
		_exit(0);
	}
	while (now_us(CLOCK_MONOTONIC) - t0 < (int64_t)secs * 1000 * 1000) {
		cycles++;
		if (open_seeded(&r, "jitter_tsc", 0)) {
			cycle_errs++;
			continue;
		}
		if (afalg_rng_read(&r, buf, sizeof(buf), NULL) != sizeof(buf))
			cycle_errs++;
		afalg_rng_close(&r);
	}
	if (read(res[0], &got, sizeof(got)) != sizeof(got) || got < 0 || got > 64 ||
	    read(res[0], rr, got * sizeof(rr[0])) != (ssize_t)(got * sizeof(rr[0])))
		got = 0;
	waitpid(pid, NULL, 0);
	for (i = 0; i < got; i++) {
		bytes += rr[i].bytes;
		errors += rr[i].errors;
		idle += !rr[i].bytes;
	}
	out("misuse.stress.seconds=%lu", secs);
	out("misuse.stress.readers=%d", n);
	out("misuse.stress.reported=%d", got);
	out("misuse.stress.bytes=%llu", bytes);
	out("misuse.stress.errors=%u", errors);
	out("misuse.stress.readers_without_data=%u", idle);
	out("misuse.stress.socket_cycles=%llu", cycles);
	out("misuse.stress.socket_cycle_errors=%llu", cycle_errs);
	close(res[0]);
	close(res[1]);
}

/* @n reads of 64 bytes from @r, their results in order as words. */
static void fault_reads(const char *tag, struct afalg_rng *r, int n)
{
	unsigned char buf[64];
	char list[1024] = "";
	int i, ok = 0, again = 0, fault = 0, other = 0;
	ssize_t got;

	for (i = 0; i < n; i++) {
		const char *w;

		got = afalg_rng_read(r, buf, sizeof(buf), NULL);
		if (got == (ssize_t)sizeof(buf)) {
			w = "ok";
			ok++;
		} else if (got < 0) {
			w = afalg_errname((int)got);
			again += got == -EAGAIN;
			fault += got == -EFAULT;
			other += got != -EAGAIN && got != -EFAULT;
		} else {
			w = "short";
			other++;
		}
		if (strlen(list) + strlen(w) + 2 < sizeof(list))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? "," : "", w);
	}
	out("fault.%s.reads=%s", tag, list);
	out("fault.%s.ok=%d", tag, ok);
	out("fault.%s.eagain=%d", tag, again);
	out("fault.%s.efault=%d", tag, fault);
	out("fault.%s.other=%d", tag, other);
}

/* jitter_tsc's debugfs stats as <mode>.<tag>.stat.<key>=<value> lines. */
static void mode_stats(const char *mode, const char *tag)
{
	static char buf[8192];
	char *line, *save, *sp;

	if (read_file("/sys/kernel/debug/jitter_tsc/stats", buf, sizeof(buf)))
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		out("%s.%s.stat.%s=%s", mode, tag, line, sp + 1);
	}
}

static void fault_stats(const char *tag)
{
	mode_stats("fault", tag);
}

static void run_fault(void)
{
	struct afalg_rng r;
	struct stat st;
	unsigned char rnd[16];
	int err;

	out("fault.knob.present=%d", stat(STUCK_PARAM, &st) == 0);
	out("fault.knob.mode=%o", stat(STUCK_PARAM, &st) ? 0 : st.st_mode & 07777);
	misuse_sizes();
	misuse_killed();
	misuse_stress();

	/*
	 * One shard sees the failures and the failover: a reader that moved
	 * to the other CPU would see that shard fail over as well.
	 */
	pin_cpu(0);
	if (open_seeded(&r, "jitter_tsc", 0)) {
		out("fault.open=failed");
		return;
	}
	fault_reads("healthy", &r, 4);
	fault_stats("healthy");
	err = write_str(STUCK_PARAM, "1");
	out("fault.stuck1=%s", err ? afalg_errname(err) : "ok");
	fault_reads("spec", &r, 12);
	fault_stats("spec");
	err = write_str(STUCK_PARAM, "3");
	out("fault.stuck3=%s", err ? afalg_errname(err) : "ok");
	fault_reads("both", &r, 24);
	err = write_str(STUCK_PARAM, "0");
	out("fault.stuck0=%s", err ? afalg_errname(err) : "ok");
	fault_reads("cleared", &r, 3);
	afalg_rng_close(&r);
	/* A socket opened now binds, and fails too. */
	if (!open_seeded(&r, "jitter_tsc", 0)) {
		fault_reads("new_socket", &r, 2);
		afalg_rng_close(&r);
	}
	fault_stats("end");
	/* random.c, seeded long ago, does not depend on it any more. */
	out("fault.getrandom=%zd", getrandom(rnd, sizeof(rnd), GRND_NONBLOCK));
}

/* ---- unprivileged readers in rounds (jtsc.mode=rounds) ----------------- */

/* A new jitter_tsc socket and transform, one 32-byte read, closed: 1 if it read them. */
static int read_one_round(void)
{
	unsigned char blk[32];
	struct afalg_rng r;
	int good;

	if (afalg_rng_bind(&r, "jitter_tsc"))
		return 0;
	good = !afalg_rng_accept(&r) && afalg_rng_read(&r, blk, sizeof(blk), NULL) == sizeof(blk);
	afalg_rng_close(&r);
	return good;
}

/*
 * A child that drops to uid and gid 65534 makes each round on a new
 * socket and transform, opened and closed: what issue reports showed
 * winding credits down when each close parked the shards.
 */
static void run_rounds(void)
{
	unsigned long n = param_ul("jtsc.rounds", 1000), i, good = 0;
	int64_t t0;
	pid_t pid;
	int st;

	mode_stats("rounds", "before");
	t0 = now_us(CLOCK_MONOTONIC);
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		for (i = 0; i < n; i++)
			good += read_one_round();
		out("rounds.uid=%d", (int)getuid());
		out("rounds.good=%lu", good);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		out("rounds.child=failed");
	out("rounds.n=%lu", n);
	out("rounds.ms=%lld", (long long)(now_us(CLOCK_MONOTONIC) - t0) / 1000);
	mode_stats("rounds", "after");
}

/* ---- a reader in a small memory cgroup (jtsc.mode=memcg) -------------- */

/* One 32-byte read of jitter_tsc on each online CPU: how many gave it. */
static long read_each_cpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), cpu, good = 0;

	for (cpu = 0; cpu < n; cpu++)
		good += !pin_cpu(cpu) && read_one_round();
	pin_cpu_all();
	return good;
}

/*
 * A child in a cgroup whose memory.max (jtsc.memcg_max, default 4 MiB) is
 * under the speculative buffer's 8 MiB drops to uid 65534 and reads on
 * each CPU, so that it starts every shard's collector; then this process,
 * outside the cgroup, reads on each CPU. The cgroup's peak and events say
 * what it was charged.
 */
static void run_memcg(void)
{
	static const char cg[] = "/sys/fs/cgroup/small";
	char path[128], buf[256];
	pid_t pid;
	int st, err;

	do_mount("cgroup2", "/sys/fs/cgroup", "cgroup2");
	err = write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	out("memcg.controller=%s", err ? afalg_errname(-err) : "ok");
	mkdir(cg, 0755);
	snprintf(buf, sizeof(buf), "%lu", param_ul("jtsc.memcg_max", 4 << 20));
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	err = write_str(path, buf);
	read_file(path, buf, sizeof(buf));
	out("memcg.max=%s", err ? afalg_errname(-err) : buf);
	mode_stats("memcg", "before");
	pid = fork();
	if (pid == 0) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
		snprintf(buf, sizeof(buf), "%d", (int)getpid());
		if (write_str(path, buf) || setgid(65534) || setuid(65534))
			_exit(2);
		out("memcg.child.uid=%d", (int)getuid());
		read_file("/proc/self/cgroup", buf, sizeof(buf));
		out("memcg.child.cgroup=%s", buf);
		out("memcg.child.good=%ld", read_each_cpu());
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		out("memcg.child=failed");
	snprintf(path, sizeof(path), "%s/memory.peak", cg);
	if (!read_file(path, buf, sizeof(buf)))
		out("memcg.peak=%s", buf);
	snprintf(path, sizeof(path), "%s/memory.events", cg);
	if (!read_file(path, buf, sizeof(buf))) {
		for (char *c = buf; *c; c++)
			if (*c == '\n')
				*c = ',';
		out("memcg.events=%s", buf);
	}
	mode_stats("memcg", "child");
	out("memcg.other.good=%ld", read_each_cpu());
	out("memcg.cpus=%ld", sysconf(_SC_NPROCESSORS_ONLN));
	mode_stats("memcg", "after");
}

/* ---- VM clones (jtsc.mode=clone) --------------------------------------- */

#define CLONE_BLOCKS	16
#define CLONE_WARMUP	4

static const char *const clone_algs[] = { "jitter_tsc", "jitterentropy_rng" };

/*
 * One block with one read() call, as a program would ask for it: 0, or
 * -errno (-EIO for a short read). Not afalg_rng_read(): its loop would
 * hide a short read by filling the block from the next one.
 */
static int clone_read(struct afalg_rng *r, unsigned char *blk)
{
	ssize_t n = read(r->op, blk, SAMPLE_LEN);

	if (n == SAMPLE_LEN)
		return 0;
	return n < 0 ? -errno : -EIO;
}

/*
 * The host saves this VM while it waits for a line on the console and
 * starts two clones from the saved state. What each clone reads after the
 * line came must be its own: none of its blocks may equal the other's.
 * Before the save each rng has served a few blocks, so that jitter_tsc's
 * pool holds tested words at the moment of the snapshot. Everything runs
 * on CPU 0, so the reads after the restore come from the instance whose
 * pool the reads before it filled.
 */
static void run_clone(void)
{
	static unsigned char blk[ARRAY_SIZE(clone_algs)][CLONE_BLOCKS][SAMPLE_LEN];
	int err[ARRAY_SIZE(clone_algs)][CLONE_BLOCKS], open_err[ARRAY_SIZE(clone_algs)];
	struct afalg_rng r[ARRAY_SIZE(clone_algs)];
	char hexbuf[2 * SAMPLE_LEN + 1], line[64];
	unsigned int a, i;
	ssize_t n;

	pin_cpu(0);
	for (a = 0; a < ARRAY_SIZE(clone_algs); a++) {
		open_err[a] = open_seeded(&r[a], clone_algs[a], 0);
		out("clone.%s.open=%s", clone_algs[a],
		    open_err[a] ? afalg_errname(open_err[a]) : "ok");
		if (open_err[a])
			continue;
		for (i = 0; i < CLONE_WARMUP; i++)
			if (clone_read(&r[a], blk[a][0]))
				break;
		out("clone.%s.before=%u", clone_algs[a], i);
	}
	out("clone.ready=1");
	/* The console is in canonical mode: read() returns with the line. */
	n = read(STDIN_FILENO, line, sizeof(line));
	out("clone.line=%s", n > 0 ? "ok" : n ? afalg_errname(errno) : "EOF");

	/* All reads first, then the output: the serial console is slow. */
	for (a = 0; a < ARRAY_SIZE(clone_algs); a++) {
		for (i = 0; i < CLONE_BLOCKS; i++)
			err[a][i] = open_err[a] ? open_err[a] : clone_read(&r[a], blk[a][i]);
		if (!open_err[a])
			afalg_rng_close(&r[a]);
	}
	for (a = 0; a < ARRAY_SIZE(clone_algs); a++) {
		for (i = 0; i < CLONE_BLOCKS; i++) {
			if (err[a][i]) {
				out("clone.%s.block.%u=%s", clone_algs[a], i,
				    afalg_errname(err[a][i]));
				continue;
			}
			hex(hexbuf, blk[a][i], SAMPLE_LEN);
			out("clone.%s.block.%u=%s", clone_algs[a], i, hexbuf);
		}
	}
	pin_cpu_all();
}

/* ---- memory (jtsc.mode=mem) -------------------------------------------- */

#define MEM_READERS	2
#define MEM_READ_MS	4000
#define MEM_SAMPLE_MS	2000
#define MEM_AFTER_S	12
#define MEM_AREAS_SHOWN	16

/* The value of the "Key:   N kB" line of /proc/meminfo, in kB; -1 if none. */
static long long meminfo_kb(const char *meminfo, const char *key)
{
	size_t len = strlen(key);
	const char *p;

	for (p = meminfo; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, key, len) && p[len] == ':')
			return strtoll(p + len + 1, NULL, 10);
	}
	return -1;
}

/*
 * What jitter_tsc holds at one moment, as mem.TAG.KEY lines: the bytes
 * and the count of /proc/vmallocinfo areas whose caller is one of its
 * functions (jtsc_* or jitter_tsc_*; kvmalloc()'s areas name the caller
 * of kvmalloc(), and a buffer over 2 MiB is two areas: its pages and its
 * array of page pointers), and /proc/meminfo's VmallocUsed and Slab, which
 * also show what no caller's name gives away. /proc/vmallocinfo gives
 * the addresses and callers to root only: init is root.
 */
static void mem_sample(const char *tag)
{
	static char buf[4 << 20];
	unsigned long long bytes = 0;
	unsigned int lines = 0;
	char *line, *save, *sp, *size, *caller;
	int err;

	err = read_file("/proc/vmallocinfo", buf, sizeof(buf));
	if (err) {
		out("mem.%s.vmallocinfo=%s", tag, afalg_errname(err));
	} else {
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			/* "0xffffc900...-0xffffc900... 8392704 jtsc_start+0x5b/0x1c0 ..." */
			sp = strchr(line, ' ');
			if (!sp || (!strstr(sp, "jtsc") && !strstr(sp, "jitter_tsc")))
				continue;
			size = sp + strspn(sp, " ");	/* "%7ld": padded */
			caller = size + strcspn(size, " ");
			caller += strspn(caller, " ");
			bytes += strtoull(size, NULL, 10);
			/* which ones: "8392704 jtsc_start+0x5b/0x1c0" */
			if (lines++ < MEM_AREAS_SHOWN)
				out("mem.%s.area.%u=%.*s %.*s", tag, lines - 1,
				    (int)strcspn(size, " "), size,
				    (int)strcspn(caller, " "), caller);
		}
		out("mem.%s.jtsc_vmalloc_bytes=%llu", tag, bytes);
		out("mem.%s.jtsc_vmalloc_lines=%u", tag, lines);
	}
	if (read_file("/proc/meminfo", buf, sizeof(buf)))
		return;
	out("mem.%s.vmalloc_used_kb=%lld", tag, meminfo_kb(buf, "VmallocUsed"));
	out("mem.%s.slab_kb=%lld", tag, meminfo_kb(buf, "Slab"));
}

/*
 * Memory held by jitter_tsc right after boot (init runs once the crng is
 * ready), while two AF_ALG readers read, one per CPU, so that two of its
 * instances serve them, and MEM_AFTER_S seconds after both closed their
 * sockets: what an instance allocates for a reader should be gone by then.
 */
static void run_mem(void)
{
	struct reader_result rr;
	unsigned long long bytes = 0;
	unsigned int errors = 0;
	int ready[2], go[2], res[2], i, got = 0;
	pid_t pid[MEM_READERS];
	char c = 1;

	mem_sample("boot");
	if (pipe(ready) || pipe(go) || pipe(res))
		return;
	for (i = 0; i < MEM_READERS; i++)
		pid[i] = reader_start("jitter_tsc", BENCH_REQ, MEM_READ_MS, i,
				      ready[1], go[0], res[1]);
	for (i = 0; i < MEM_READERS; i++)
		if (read(ready[0], &c, 1) != 1)
			break;
	for (i = 0; i < MEM_READERS; i++)
		if (write(go[1], &c, 1) != 1)
			break;
	usleep(MEM_SAMPLE_MS * 1000);
	mem_sample("readers");
	for (i = 0; i < MEM_READERS; i++) {
		if (pid[i] > 0 && read(res[0], &rr, sizeof(rr)) == sizeof(rr)) {
			got++;
			bytes += rr.bytes;
			errors += rr.errors;
		}
	}
	for (i = 0; i < MEM_READERS; i++)
		if (pid[i] > 0)
			waitpid(pid[i], NULL, 0);
	out("mem.readers.count=%d", MEM_READERS);
	out("mem.readers.reported=%d", got);
	out("mem.readers.bytes=%llu", bytes);
	out("mem.readers.errors=%u", errors);
	out("mem.readers.sample_ms=%d", MEM_SAMPLE_MS);
	out("mem.readers.read_ms=%d", MEM_READ_MS);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
	/* Their sockets closed when they exited. */
	sleep(MEM_AFTER_S);
	out("mem.closed.after_s=%d", MEM_AFTER_S);
	mem_sample("closed");
}

/* ---- bench ------------------------------------------------------------- */

static const char *const collectors[] = { "speculative", "timer" };
static const char *const rate_keys[] = { "samples", "collect_ns" };

/*
 * Samples taken and time spent collecting them, per collector, from one read
 * of jitter_tsc's debugfs stats ("speculative.samples N" lines); -1 where a
 * value is missing.
 */
static void read_collect_counts(long long v[][ARRAY_SIZE(rate_keys)])
{
	static char buf[4096];
	char name[64];
	size_t c, k;
	int err = read_file("/sys/kernel/debug/jitter_tsc/stats", buf, sizeof(buf));

	for (c = 0; c < ARRAY_SIZE(collectors); c++) {
		for (k = 0; k < ARRAY_SIZE(rate_keys); k++) {
			size_t len = snprintf(name, sizeof(name), "%s.%s ",
					      collectors[c], rate_keys[k]);
			char *p = err ? NULL : buf;

			v[c][k] = -1;
			for (; p; p = strchr(p, '\n')) {
				if (*p == '\n')
					p++;
				if (!strncmp(p, name, len)) {
					v[c][k] = strtoll(p + len, NULL, 10);
					break;
				}
			}
		}
	}
}

static void bench_afalg(const char *alg, unsigned long ms, unsigned long max)
{
	static unsigned char buf[BENCH_REQ];
	int jtsc = !strcmp(alg, "jitter_tsc");
	long long before[ARRAY_SIZE(collectors)][ARRAY_SIZE(rate_keys)];
	long long after[ARRAY_SIZE(collectors)][ARRAY_SIZE(rate_keys)];
	size_t c;
	struct afalg_rng r;
	unsigned long long total = 0;
	int64_t t0, dt;
	ssize_t n = 0;

	n = open_seeded(&r, alg, 0);
	if (n) {
		out("bench.%s.error=%s", alg, afalg_errname((int)n));
		out("bench.%s.bytes_per_s=unavailable", alg);
		return;
	}
	if (jtsc)
		read_collect_counts(before);
	t0 = now_us(CLOCK_MONOTONIC);
	do {
		n = afalg_rng_read(&r, buf, sizeof(buf), NULL);
		if (n > 0)
			total += n;
		dt = now_us(CLOCK_MONOTONIC) - t0;
	} while (n == (ssize_t)sizeof(buf) && dt < (int64_t)ms * 1000 &&
		 total < max);
	afalg_rng_close(&r);
	/*
	 * The collector's own rate while it served these reads, from which
	 * `make bench` computes the throughput ceiling.
	 */
	if (jtsc) {
		read_collect_counts(after);
		for (c = 0; c < ARRAY_SIZE(collectors); c++) {
			if (before[c][0] < 0 || before[c][1] < 0 || after[c][1] < 0 ||
			    after[c][0] <= before[c][0])
				continue;
			out("bench.jitter_tsc.%s.samples=%lld", collectors[c],
			    after[c][0] - before[c][0]);
			out("bench.jitter_tsc.%s.collect_ns=%lld", collectors[c],
			    after[c][1] - before[c][1]);
		}
	}

	if (n < 0)
		out("bench.%s.error=%s", alg, afalg_errname((int)n));
	out("bench.%s.read_size=%d", alg, BENCH_REQ);
	out("bench.%s.bytes=%llu", alg, total);
	out("bench.%s.us=%lld", alg, (long long)dt);
	out("bench.%s.bytes_per_s=%llu", alg,
	    dt > 0 ? total * 1000000ULL / (unsigned long long)dt : 0ULL);
}

/*
 * 1 and 2 readers of @alg at once, each with its own socket, on CPUs 0 and
 * 1: bytes per second of all of them together over the longest one's time.
 */
static void bench_readers(const char *alg, unsigned long ms)
{
	long long before[ARRAY_SIZE(collectors)][ARRAY_SIZE(rate_keys)];
	long long after[ARRAY_SIZE(collectors)][ARRAY_SIZE(rate_keys)];
	int jtsc = !strcmp(alg, "jitter_tsc");
	struct reader_result rr[2];
	int n, i, got;
	size_t c;

	/*
	 * Each CPU's instance starts on its first request (its own startup
	 * test, its buffer): a short read on each first, so that both runs
	 * measure instances already started.
	 */
	if (jtsc)
		readers_run(alg, 2, 32, 1, 0, rr);
	for (n = 1; n <= 2; n++) {
		unsigned long long bytes = 0;
		long long us = 0;
		int err = 0;

		if (jtsc)
			read_collect_counts(before);
		got = readers_run(alg, n, BENCH_REQ, ms, 0, rr);
		/* The collectors' own rate meanwhile: does it hold with two? */
		if (jtsc) {
			read_collect_counts(after);
			for (c = 0; c < ARRAY_SIZE(collectors); c++)
				if (before[c][0] >= 0 && after[c][0] > before[c][0])
					out("bench.%s.readers%d.%s.ns_per_sample=%.1f", alg, n,
					    collectors[c], (double)(after[c][1] - before[c][1]) /
					    (double)(after[c][0] - before[c][0]));
		}
		for (i = 0; i < got; i++) {
			bytes += rr[i].bytes;
			if (rr[i].us > us)
				us = rr[i].us;
			if (rr[i].err && !err)
				err = rr[i].err;
		}
		if (got != n || err) {
			out("bench.%s.readers%d.error=%s", alg, n,
			    err ? afalg_errname(err) : "reader lost");
			continue;
		}
		out("bench.%s.readers%d.bytes_per_s=%llu", alg, n,
		    us > 0 ? bytes * 1000000ULL / (unsigned long long)us : 0ULL);
	}
}

/*
 * Mean of @n pulls through debugfs pull_ns, in ns; -1 if they failed. The
 * mean, not the median: most pulls take words already tested, every fourth
 * or so collects a predictor window, and the mean counts both.
 */
static long long pull_mean(int n)
{
	long long sum = 0;
	char line[64];
	int i, got = 0;

	for (i = 0; i < n; i++)
		if (!read_file("/sys/kernel/debug/jitter_tsc/pull_ns", line, sizeof(line))) {
			sum += strtoll(line, NULL, 10);
			got++;
		}
	return got ? sum / got : -1;
}

/*
 * What the guest itself allows: @n processes at once, one per vCPU, each
 * doing @iters passes of @kind: "tsc" reads the TSC (the only thing every
 * collector's pass must do), "alu" multiplies. Prints the mean ns per pass
 * over the processes. Under TCG each RDTSC is a call into QEMU that takes
 * one lock for all vCPUs (cpu_get_ticks()); this shows what that costs
 * when two vCPUs read the counter at once, beside the AF_ALG figures.
 */
static void bench_ceiling(const char *kind, int n, long iters)
{
	int res[2], i, got = 0;
	double sum = 0, ns;

	if (pipe(res))
		return;
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			volatile uint64_t sink = 1;
			int64_t t0;
			long k;

			pin_cpu(i);
			t0 = now_us(CLOCK_MONOTONIC);
			for (k = 0; k < iters; k++) {
#if defined(__x86_64__) || defined(__i386__)
				if (kind[0] == 't') {
					uint32_t lo, hi;

					__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
					sink += ((uint64_t)hi << 32) | lo;
					continue;
				}
#endif
				sink = sink * 6364136223846793005ULL + 1442695040888963407ULL;
			}
			ns = (double)(now_us(CLOCK_MONOTONIC) - t0) * 1000.0 / (double)iters;
			if (write(res[1], &ns, sizeof(ns)) != sizeof(ns))
				_exit(1);
			_exit(0);
		}
	}
	close(res[1]);
	while (read(res[0], &ns, sizeof(ns)) == sizeof(ns)) {
		sum += ns;
		got++;
	}
	close(res[0]);
	while (wait(NULL) > 0)
		;
	if (got == n)
		out("bench.ceiling.%s.procs%d.ns_per_pass=%.2f", kind, n, sum / got);
}

/*
 * random.c's pull (JITTER_TSC_PULL_MAX bytes from its own instance), timed
 * in the kernel on CPU 0: alone, then while an AF_ALG reader runs on CPU 1.
 */
static void bench_pull(void)
{
	int ready[2], go[2], res[2];
	long long alone, loaded;
	char c = 1;
	pid_t pid;

	pin_cpu(0);
	alone = pull_mean(64);
	out("bench.pull.alone_ns=%lld", alone);
	if (alone < 0 || pipe(ready) || pipe(go) || pipe(res))
		return;
	pid = reader_start("jitter_tsc", BENCH_REQ, 0, 1, ready[1], go[0], res[1]);
	if (read(ready[0], &c, 1) == 1 && write(go[1], &c, 1) == 1) {
		usleep(100000);
		loaded = pull_mean(64);
		out("bench.pull.with_reader_ns=%lld", loaded);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
	pin_cpu_all();
}

/*
 * Copy raw data to a disk the host attached (-drive ...,if=virtio), for
 * off-line analysis: jtsc.dump=/sys/kernel/debug/jitter_tsc/spec_raw or
 * jtsc.dump=afalg:jitter_tsc. A file that hits EOF is reopened.
 */
static void dump_raw(const char *src)
{
	static unsigned char buf[BENCH_REQ];
	char dev[64];
	unsigned long long want, total = 0;
	uint64_t devsize = 0;
	struct afalg_rng r;
	int in = -1, fd, eofs = 0;
	int64_t t0;
	ssize_t n;

	if (!param("jtsc.dump_dev", dev, sizeof(dev)))
		strcpy(dev, "/dev/vda");
	fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		out("dump.error=%s %s", dev, afalg_errname(errno));
		return;
	}
	ioctl(fd, BLKGETSIZE64, &devsize);
	want = param_ul("jtsc.dump_bytes", devsize);
	if (devsize && want > devsize)
		want = devsize;

	if (!strncmp(src, "afalg:", 6)) {
		if (open_seeded(&r, src + 6, 0)) {
			out("dump.error=bind %s", src + 6);
			close(fd);
			return;
		}
	}
	t0 = now_us(CLOCK_MONOTONIC);
	while (total < want) {
		size_t chunk = want - total < sizeof(buf) ? want - total : sizeof(buf);

		if (!strncmp(src, "afalg:", 6)) {
			n = afalg_rng_read(&r, buf, chunk, NULL);
			if (n < 0) {
				errno = (int)-n;
				n = -1;
			}
		} else {
			if (in < 0 && (in = open(src, O_RDONLY | O_CLOEXEC)) < 0) {
				out("dump.error=%s %s", src, afalg_errname(errno));
				break;
			}
			n = read(in, buf, chunk);
			if (n == 0) {
				close(in);
				in = -1;
				if (++eofs > 2 && !total)
					break;
				continue;
			}
		}
		if (n <= 0) {
			out("dump.error=read %s", n ? afalg_errname(errno) : "EOF");
			break;
		}
		if (write(fd, buf, n) != n) {
			out("dump.error=write %s", afalg_errname(errno));
			break;
		}
		total += n;
	}
	fsync(fd);
	close(fd);
	if (in >= 0)
		close(in);
	if (!strncmp(src, "afalg:", 6))
		afalg_rng_close(&r);
	out("dump.src=%s", src);
	out("dump.bytes=%llu", total);
	out("dump.us=%lld", (long long)(now_us(CLOCK_MONOTONIC) - t0));
}

/*
 * jtsc.mode=shell: a busybox sh on the console for a person; when it exits
 * the guest reboots (QEMU exits), as after a report.
 */
static void run_shell(void)
{
	pid_t pid, w;

	out("shell=1 (exit the shell to end the guest)");
	pid = fork();
	if (pid == 0) {
		setsid();
		ioctl(STDIN_FILENO, TIOCSCTTY, 1);
		setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
		setenv("HOME", "/root", 1);
		setenv("PS1", "jtsc# ", 1);
		execl("/bin/sh", "sh", "-i", (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		out("shell.error=%s", afalg_errname(errno));
		return;
	}
	/* PID 1 reaps every orphan; stop once the shell itself is gone */
	do {
		w = wait(NULL);
	} while (w != pid && !(w < 0 && errno == ECHILD));
}

/* ---- main -------------------------------------------------------------- */

int main(int argc, char **argv)
{
	unsigned char rnd[32];
	int64_t boot0, mono0, mono1, boot1;
	int ready_at_start, gr_err = 0;
	ssize_t gr;
	char mode[16], algbuf[256], dump[256], *algs[MAX_ALGS];
	int nalgs = 0, i;

	/* First: was the crng ready already, and how long does getrandom wait? */
	boot0 = now_us(CLOCK_BOOTTIME);
	ready_at_start = getrandom(rnd, 1, GRND_NONBLOCK) == 1;
	mono0 = now_us(CLOCK_MONOTONIC);
	gr = getrandom(rnd, sizeof(rnd), 0);
	if (gr < 0)
		gr_err = errno;
	mono1 = now_us(CLOCK_MONOTONIC);
	boot1 = now_us(CLOCK_BOOTTIME);

	is_pid1 = getpid() == 1;
	if (is_pid1)
		setup_pid1();
	if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)))
		cmdline[0] = '\0';
	if (!param("jtsc.mode", mode, sizeof(mode)))
		strcpy(mode, "report");

	out("mode=%s", mode);
	out("pid1=%d", is_pid1);
	out("getrandom.ready_at_start=%d", ready_at_start);
	out("getrandom.ret=%zd", gr);
	if (gr < 0)
		out("getrandom.error=%s", afalg_errname(gr_err));
	out("getrandom.wait_us=%lld", (long long)(mono1 - mono0));
	out("getrandom.boottime_start_us=%lld", (long long)boot0);
	out("getrandom.boottime_end_us=%lld", (long long)boot1);
	report_system();

	/* rngs to test: argv words, else jtsc.algs=a,b,c, else the default */
	for (i = 1; i < argc && nalgs < MAX_ALGS; i++)
		algs[nalgs++] = argv[i];
	if (!nalgs) {
		char *save, *a;

		if (!param("jtsc.algs", algbuf, sizeof(algbuf)))
			strcpy(algbuf, DEFAULT_ALGS);
		for (a = strtok_r(algbuf, ",", &save); a && nalgs < MAX_ALGS;
		     a = strtok_r(NULL, ",", &save))
			algs[nalgs++] = a;
	}

	if (!strcmp(mode, "bench")) {
		unsigned long ms = param_ul("jtsc.bench_ms", 2000);
		unsigned long max = param_ul("jtsc.bench_bytes", 64UL << 20);

		report_cpuflags();
		report_klog();
		out("bench.budget_ms=%lu", ms);
		out("bench.budget_bytes=%lu", max);
		for (i = 0; i < nalgs; i++)
			bench_afalg(algs[i], ms, max);
		for (i = 0; i < nalgs; i++)
			if (!strcmp(algs[i], "jitter_tsc") ||
			    !strcmp(algs[i], "jitterentropy_rng"))
				bench_readers(algs[i], ms);
		bench_pull();
		bench_ceiling("tsc", 1, 5000000);
		bench_ceiling("tsc", 2, 5000000);
		bench_ceiling("alu", 1, 20000000);
		bench_ceiling("alu", 2, 20000000);
		/* The estimates and the credits the startup tests chose. */
		report_stats();
		if (param("jtsc.dump", dump, sizeof(dump)))
			dump_raw(dump);
		finish();
	}

	/* Modes that run one test, then report the kernel's log. */
	static const struct {
		const char *mode;
		void (*run)(void);
	} runs[] = {
		{ "fault", run_fault }, { "clone", run_clone },
		{ "mem", run_mem }, { "rounds", run_rounds }, { "memcg", run_memcg },
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		if (!strcmp(mode, runs[i].mode)) {
			runs[i].run();
			report_klog();
			finish();
		}
	}

	report_cpuflags();
	if (param("jtsc.insmod", dump, sizeof(dump)))
		insmod(dump);
	{
		char *crypto = malloc(1 << 20);

		if (crypto && !read_file("/proc/crypto", crypto, 1 << 20))
			for (i = 0; i < nalgs; i++)
				report_crypto(algs[i], crypto);
		free(crypto);
	}
	report_klog();
	report_stats();
	for (i = 0; i < nalgs; i++)
		report_afalg(algs[i], param_ul("jtsc.slow_ms", 5000));
	if (param("jtsc.dump", dump, sizeof(dump)))
		dump_raw(dump);
	if (param("jtsc.rmmod", dump, sizeof(dump)))
		rmmod(dump);

	if (!strcmp(mode, "shell") && is_pid1)
		run_shell();
	finish();
}
