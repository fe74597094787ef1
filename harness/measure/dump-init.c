// SPDX-License-Identifier: GPL-2.0
/*
 * dump-init - PID 1 of a measurement boot: copies jitter_tsc raw samples (or
 * conditioned AF_ALG output) from the guest to a raw virtio disk.
 *
 * Mounts proc, sysfs, devtmpfs and debugfs, then, by the kernel command line:
 *   jtsc.dump=raw    (default) from /sys/kernel/debug/jitter_tsc/, one
 *                    byte per raw sample (the low byte of a cycle-counter
 *                    delta): spec_raw (jtsc.spec_samples, default 10^6),
 *                    timer_raw (jtsc.timer_samples, default 10^6, cut short
 *                    after jtsc.timer_ms, default 240000 ms), boot_spec_raw,
 *                    boot_timer_raw (the startup-test samples), stats; each
 *                    raw read is timed (ns per raw sample, syscall cost
 *                    included)
 *   jtsc.dump=afalg  jtsc.dump_bytes (default 4 MiB) of jitter_tsc output
 *                    through AF_ALG (algif_rng), timed
 * and always the kernel log. Sections are streamed to jtsc.dump_dev
 * (default /dev/vda, a raw virtio disk; a serial port such as /dev/ttyS1 is
 * put in raw mode and works too, for kernels without virtio-blk):
 *   JTSCDUMP 2\n
 *   section NAME BYTES NS SAMPLES\n <BYTES bytes>   (NS: read time, 0 if untimed)
 *   ...
 *   end\n
 * harness/measure/undump.py splits the stream. Prints progress and finally
 * "JTSC done=1", then reboot(RB_AUTOBOOT) ends QEMU (-no-reboot).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "afalg.h"

#define DBG	"/sys/kernel/debug/jitter_tsc/"

static char cmdline[4096];
static int dev = -1;

static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(1, line, n) < 0)
		return;
}

static const char *param(const char *key, const char *def)
{
	static char val[256];
	size_t kl = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " \n");

			if (n >= sizeof(val))
				n = sizeof(val) - 1;
			memcpy(val, p + kl + 1, n);
			val[n] = 0;
			return val;
		}
		p += kl;
	}
	return def;
}

static unsigned long param_ul(const char *key, unsigned long def)
{
	const char *v = param(key, NULL);

	return v ? strtoul(v, NULL, 0) : def;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void put(const void *buf, size_t len)
{
	size_t done = 0;

	while (dev >= 0 && done < len) {
		ssize_t n = write(dev, (const char *)buf + done, len - done);

		if (n <= 0) {
			say("JTSC dump.error=write: %s", strerror(errno));
			close(dev);
			dev = -1;
			return;
		}
		done += n;
	}
}

static void section(const char *name, const void *buf, size_t len,
		    long long ns, unsigned long samples)
{
	char head[256];
	int n;

	if (dev < 0)
		return;	/* no disk: the timings on the console are still useful */
	n = snprintf(head, sizeof(head), "section %s %zu %lld %lu\n", name, len, ns, samples);
	put(head, n);
	put(buf, len);
	say("JTSC dump.%s.bytes=%zu", name, len);
}

/* Read @len bytes of @file (all of it if @len is 0); *@ns gets the time. */
static char *slurp(const char *file, size_t *len, long long *ns,
		   const char *what, long long budget_ns)
{
	size_t want = *len, cap = want ? want : 65536, got = 0, step;
	long long t0, t;
	char *buf = malloc(cap);
	int fd = open(file, O_RDONLY);

	*len = 0;
	*ns = 0;
	if (fd < 0 || !buf) {
		say("JTSC dump.error=open %s: %s", file, strerror(errno));
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	step = want / 10 ? want / 10 : 1;
	t0 = now_ns();
	for (;;) {
		ssize_t n;

		if (!want && got == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		if (want && got >= want)
			break;
		n = read(fd, buf + got, (want ? want : cap) - got);
		if (n < 0) {
			say("JTSC dump.error=read %s: %s", file, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		if (what && (got + n) / step != got / step)
			say("JTSC progress %s %zu%% (%lld s)", what, (got + n) * 100 / want,
			    (now_ns() - t0) / 1000000000LL);
		got += n;
		t = now_ns();
		if (budget_ns && t - t0 > budget_ns) {
			say("JTSC progress %s stopped after %lld s: %zu of %zu bytes",
			    what, (t - t0) / 1000000000LL, got, want);
			break;
		}
	}
	*ns = now_ns() - t0;
	close(fd);
	*len = got;
	return buf;
}

/* Read @samples raw samples of debugfs FILE, one byte each, into a section. */
static void dump_samples(const char *file, unsigned long samples, long long budget)
{
	size_t len = samples;
	long long ns;
	char path[128], *b;

	snprintf(path, sizeof(path), DBG "%s", file);
	b = slurp(path, &len, &ns, samples ? file : NULL, budget);
	if (b && len) {
		section(file, b, len, samples ? ns : 0, len);
		if (samples)
			say("JTSC dump.%s.ns_per_sample=%.2f", file, (double)ns / len);
	}
	free(b);
}

static void dump_raw(void)
{
	long long budget = (long long)param_ul("jtsc.timer_ms", 240000) * 1000000;
	size_t len = 0;
	long long ns;
	char *b;

	dump_samples("spec_raw", param_ul("jtsc.spec_samples", 1000000), 0);
	dump_samples("timer_raw", param_ul("jtsc.timer_samples", 1000000), budget);
	/* the startup samples: the whole file (0: untimed, to its end) */
	dump_samples("boot_spec_raw", 0, 0);
	dump_samples("boot_timer_raw", 0, 0);
	b = slurp(DBG "stats", &len, &ns, NULL, 0);
	if (b && len)
		section("stats", b, len, 0, 0);
	free(b);
}

static void dump_afalg(void)
{
	const char *alg = param("jtsc.dump_alg", "jitter_tsc");
	size_t want = param_ul("jtsc.dump_bytes", 4UL << 20), got = 0, chunk = 1 << 16;
	struct afalg_rng r;
	char name[64];
	long long t0, ns;
	char *buf = malloc(want);
	int err;

	if (!buf)
		return;
	err = afalg_rng_bind(&r, alg);
	if (!err)
		err = afalg_rng_accept(&r);
	if (err) {
		say("JTSC dump.error=afalg %s: %s", alg, afalg_errname(-err));
		free(buf);
		return;
	}
	t0 = now_ns();
	while (got < want) {
		size_t n = want - got < chunk ? want - got : chunk;
		ssize_t m = afalg_rng_read(&r, buf + got, n, NULL);

		if (m <= 0) {
			say("JTSC dump.error=afalg read: %s", afalg_errname((int)-m));
			break;
		}
		if ((got + m) / (want / 10 ? want / 10 : 1) != got / (want / 10 ? want / 10 : 1))
			say("JTSC progress afalg %zu%% (%lld s)", (got + m) * 100 / want,
			    (now_ns() - t0) / 1000000000LL);
		got += m;
	}
	ns = now_ns() - t0;
	afalg_rng_close(&r);
	snprintf(name, sizeof(name), "afalg_%s", alg);
	if (got) {
		section(name, buf, got, ns, got);
		say("JTSC dump.%s.bytes_per_s=%.0f", name, got / (ns / 1e9));
	}
	free(buf);
}

int main(void)
{
	char mode[32], path[64];
	char *klog;
	int fd, n;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		n = read(fd, cmdline, sizeof(cmdline) - 1);
		cmdline[n > 0 ? n : 0] = 0;
		close(fd);
	}
	snprintf(mode, sizeof(mode), "%s", param("jtsc.dump", "raw"));
	snprintf(path, sizeof(path), "%s", param("jtsc.dump_dev", "/dev/vda"));
	say("JTSC dump.mode=%s", mode);
	dev = open(path, O_RDWR | O_NOCTTY);
	if (dev < 0) {
		say("JTSC dump.error=open %s: %s", path, strerror(errno));
	} else if (isatty(dev)) {
		struct termios tio;

		if (!tcgetattr(dev, &tio)) {
			cfmakeraw(&tio);
			cfsetspeed(&tio, B115200);
			tcsetattr(dev, TCSANOW, &tio);
		}
	}
	put("JTSCDUMP 2\n", 11);
	if (!strcmp(mode, "afalg"))
		dump_afalg();
	else
		dump_raw();
	klog = malloc(1 << 20);
	n = klog ? klogctl(3, klog, 1 << 20) : -1;
	if (n > 0)
		section("dmesg", klog, n, 0, 0);
	free(klog);
	put("end\n", 4);
	if (dev >= 0) {
		if (isatty(dev))
			tcdrain(dev);
		fsync(dev);
		close(dev);
	}
	say("JTSC done=1");
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
