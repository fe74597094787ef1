#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through check()
# boottest.sh [BZIMAGE] - the boot tests `make check` runs. Builds the
# initramfs, boots the guest kernel under QEMU/TCG and prints
# "ok - ..." / "not ok - ..." per assertion; exits non-zero on any failure.
#   1. default cmdline (with initcall_debug): jitter_tsc registered with its
#      selftest passed, AF_ALG reads of every size give the right length, two
#      samples differ; random.c was seeded from jitter_tsc before PID 1 ran
#      ("crng init done" before "Run /init", the crng ready when init starts,
#      "crng readied by jitter_tsc" logged); jitter_tsc's initcalls took at
#      most 5 ms and its async startup tests and the seeding were done before
#      the last initcall returned, so init did not wait for them.
#   2. four more boots like 1 (getrandom only): the first blocking getrandom()
#      in PID 1 returned in < 0.1 ms, median of the five.
#   3. random.trust_jitter_tsc=off, 4. jitter_tsc.collectors=none and
#      5. jitter_tsc.stuck=3 (both collectors see a constant counter delta and
#      fail their startup tests, or their runtime estimate is below the
#      floor): random.c exactly as stock (not ready when init starts, no
#      jitter_tsc line from random.c, crng ready later). In 3, jitter_tsc's
#      initcalls take under 1 ms and init waits for nothing of it.
#   3b. jitter_tsc.delay_ms=100 (every batch 100 ms slower: the setup takes
#      seconds) and 3c. jitter_tsc.fail_startup=3 (startup tests that fail
#      each time, after estimates that pass), as 1 also: init waits for
#      random.c's seeding at most its budget past the last initcall.
#   6. jitter_tsc.stuck=1: the speculative collector fails its startup test,
#      the timer collector seeds random.c before PID 1, and its async setup
#      and the seeding end before the last initcall returns, as in 1; the
#      same with jitter_tsc.collectors=timer (the timer collector alone).
#   7. two boots under QEMU -icount (a counter that counts instructions, one
#      vCPU): neither collector is credited anything, and the log says why.
# boottest.sh --rounds [BZIMAGE] - unprivileged readers instead (init's
# rounds mode), on the default boot and on jitter_tsc.collectors=timer:
# JTSC_ROUNDS (default 1000) rounds of socket, bind, accept, read 32 bytes,
# close as uid 65534, most of them starting a shard anew (at least half
# the rounds run a startup test, counted); every round reads its 32 bytes, every collector enabled
# before is enabled after, its credit is the one the boot set and no
# startup test made a new estimate.
# boottest.sh --memcg [BZIMAGE] - a memory cgroup instead (init's memcg
# mode): a reader as uid 65534 in a cgroup whose memory.max (4 MiB) is under
# the 8 MiB buffer reads 32 bytes on each CPU, starting the speculative
# collector on every shard, and the cgroup's peak stays under 8 MiB with no
# OOM event; then a reader outside it reads on each CPU, and the speculative
# collector is still in use, never refused, at the credit the boot set.
# boottest.sh --fips BZIMAGE - the FIPS test instead: a kernel with
# CONFIG_CRYPTO_FIPS booted with fips=1 runs in FIPS mode, jitter_tsc (not
# fips_allowed) says so and stays unregistered, and random.c is stock.
# boottest.sh --module BZIMAGE KO - the module test instead: a kernel with
# CONFIG_CRYPTO_JITTER_TSC=m boots with the stock crng path (random.c's pull
# needs jitter_tsc built in), init loads KO, then jitter_tsc must be in
# /proc/crypto with its selftest passed, serve AF_ALG reads of every size,
# refuse to unload while an AF_ALG socket on it is open (which still reads),
# and unload cleanly once it is closed (gone from /proc/crypto and debugfs).
# boottest.sh --fault [BZIMAGE] - misuse and fault injection instead (init's
# fault mode): AF_ALG reads of odd and huge sizes get what AF_ALG allows, a
# reader killed mid-read dies at once and others read on, many readers at
# once for JTSC_STRESS_S seconds (default 120) while sockets are opened and
# closed all get data and no error; then jitter_tsc.stuck=1 (root-only, with
# the debugfs option only) makes the speculative collector fail for good:
# reads go on from the timer collector, with no error (the kernel completes
# the failover inside the read), and one log
# line; jitter_tsc.stuck=3 fails the timer collector too: -EFAULT from then
# on, also after the knob is cleared and on new sockets. No WARNING, BUG,
# Oops or INFO (hung task, lockdep) report anywhere.
# boottest.sh --clone [BZIMAGE] - VM clones instead (harness/guest/clone.sh,
# init's clone mode): a guest that has read from jitter_tsc and
# jitterentropy_rng is stopped, saved with QEMU's migration to a file and
# restored from it twice; none of the 16 blocks that each clone reads from
# jitter_tsc after the restore may equal the other clone's block of the same
# index, and the same for jitterentropy_rng beside it.
# boottest.sh --arm64 IMAGE - an arm64 guest (QEMU virt, cortex-a57: no RNDR,
# no random dtb nodes) with the series and its KUnit suite built in: the suite
# passes there, jitter_tsc registers on the timer collector alone (no
# speculative collector outside x86-64) with its selftest passed, serves
# AF_ALG reads of up to 33 bytes (the timer collector alone is slow under
# TCG), and seeds random.c before PID 1, its async work done at most
# JTSC_INIT_MAX_US_ARM64 after the last initcall returns.
# BZIMAGE defaults to build/obj-guest/arch/x86/boot/bzImage. Logs: out/check/.
# Env: JTSC_GETRANDOM_MAX_US (default 100), JTSC_INIT_MAX_US (5000: the
#      initcalls' own time and how late the async work may end),
#      JTSC_INIT_MAX_US_ARM64 (50000: the same in the arm64 guest, where TCG
#      emulating another ISA moves both ends by tens of ms from boot to boot),
#      JTSC_BOOT_TIMEOUT (see boot.sh).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
module='' fips='' arm64='' fault='' clone='' rounds='' memcg=''
if [ "${1:-}" = --rounds ]; then
	rounds=1
	shift
fi
if [ "${1:-}" = --memcg ]; then
	memcg=1
	shift
fi
if [ "${1:-}" = --fault ]; then
	fault=1
	shift
fi
if [ "${1:-}" = --clone ]; then
	clone=1
	shift
fi
if [ "${1:-}" = --arm64 ]; then
	arm64=1
	export JTSC_ARCH=arm64
	shift
fi
if [ "${1:-}" = --fips ]; then
	fips=1
	shift
fi
if [ "${1:-}" = --module ]; then
	module=${3:?usage: boottest.sh --module BZIMAGE KO}
	shift
fi
kernel=${1:-$top/build/obj-guest/arch/x86/boot/bzImage}
out=$top/out/check
max_us=${JTSC_GETRANDOM_MAX_US:-100}
init_max_us=${JTSC_INIT_MAX_US:-5000}
init_max_us_arm64=${JTSC_INIT_MAX_US_ARM64:-50000}
# initcall_debug's lines stay in the log buffer (KERN_DEBUG), which they need room in
timing="initcall_debug log_buf_len=1M"
sizes="0 1 31 32 33 4096 65536"
. "$here/parse.sh"

pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
notok() { echo "not ok - $*"; fail=$((fail + 1)); }
check() {	# check "description" test-args...
	local d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
lt() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a != "" && a + 0 < b + 0)}'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a != "" && b != "" && a + 0 <= b + 0)}'; }
add() { awk -v a="$1" -v b="$2" 'BEGIN{if (a != "" && b != "") print a + b}'; }
# late A B: how far A (s) is past B (s), in us, 0 if it is not
late() { awk -v a="$1" -v b="$2" 'BEGIN{if (a != "" && b != "") { d = (a - b) * 1e6; print (d > 0 ? int(d) : 0) }}'; }
median() { sort -g | awk '{a[n++]=$1} END{if (n) print (n%2) ? a[int(n/2)] : (a[n/2-1]+a[n/2])/2}'; }
near() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN{exit !(a != "" && b != "" && a - b <= d && b - a <= d)}'; }
read_ok() { [ "${1%% *}" = ok ] && [ "$(echo "$1" | sed -n 's/.*got=\([0-9]*\).*/\1/p')" = "$2" ]; }
differ() { [ ${#1} = 64 ] && [ ${#2} = 64 ] && [ "$1" != "$2" ]; }
bind_failed() { [ -n "$1" ] && [ "$1" != ok ]; }
busy() { [ "$1" = EAGAIN ] || [ "$1" = EBUSY ]; }
klog_has() { printf '%s\n' "${KLOG[@]}" | grep -q "$1"; }
no_report() { ! grep -aqE '(WARNING|BUG|INFO):|Oops' "$1"; }
ms() { awk -v u="$1" 'BEGIN{printf "%.1f", u/1000}'; }

finish() {
	echo "1..$((pass + fail))"
	echo "# boottest: $pass passed, $fail failed; logs in $out/"
	[ "$fail" = 0 ]
	exit
}

if [ ! -r "$kernel" ]; then
	notok "guest kernel exists ($kernel)"
	finish
fi
mkdir -p "$out"
initramfs=$out/initramfs.cpio
[ -z "$module" ] || initramfs=$out/initramfs-module.cpio
[ -z "$arm64" ] || initramfs=$out/initramfs-arm64.cpio
# shellcheck disable=SC2086 # $module: one path without spaces, or nothing
if ! "$here/mkinitramfs.sh" "$initramfs" $module; then
	notok "initramfs builds"
	finish
fi

# boot NAME words...: boot once, load its JTSC lines; 1 if it did not finish
boot() {
	local name=$1
	shift
	J=()
	if "$here/boot.sh" "$kernel" "$initramfs" "$out/$name.log" "$@"; then
		ok "$name: guest boots and init finishes"
		jtsc_load "$out/$name.log"
		return 0
	fi
	notok "$name: guest boots and init finishes (log: $out/$name.log)"
	return 1
}

# serves NAME: jitter_tsc passed its selftest, AF_ALG binds to it, reads of
# every size give the right length, and two samples differ
serves() {
	local name=$1 n r
	check "$name: jitter_tsc selftest passed (${J[crypto.jitter_tsc.selftest]:-no entry})" \
		[ "$(jv crypto.jitter_tsc.selftest)" = passed ]
	check "$name: AF_ALG bind to jitter_tsc ($(jv afalg.jitter_tsc.bind))" \
		[ "$(jv afalg.jitter_tsc.bind)" = ok ]
	for n in $sizes; do
		r=$(jv "afalg.jitter_tsc.read.$n")
		check "$name: AF_ALG read of $n bytes from jitter_tsc (${r:-missing})" \
			read_ok "$r" "$n"
	done
	check "$name: two 32-byte jitter_tsc samples differ" \
		differ "$(jv afalg.jitter_tsc.sample)" "$(jv afalg.jitter_tsc.sample2)"
}

# random.c exactly as stock: the crng not ready when init starts, and
# nothing from random.c about jitter_tsc
stock_random() {
	local name=$1
	check "$name: crng not ready when init starts, as stock (ready_at_start=$(jv getrandom.ready_at_start))" \
		[ "$(jv getrandom.ready_at_start)" = 0 ]
	check "$name: no jitter_tsc line from random.c (${J[klog.jitter_tsc_credited]:-none})" \
		[ -z "$(jv klog.jitter_tsc_credited)" ]
	check "$name: 'crng init done' after init started, by the stock path ($(jv klog.crng_init_done_s) s vs $(jv klog.run_init_s) s)" \
		lt "$(jv klog.run_init_s)" "$(jv klog.crng_init_done_s)"
}

# seeded before PID 1, by jitter_tsc's credit
seeded_early() {
	local name=$1
	check "$name: 'crng init done' before 'Run /init' ($(jv klog.crng_init_done_s) s vs $(jv klog.run_init_s) s)" \
		lt "$(jv klog.crng_init_done_s)" "$(jv klog.run_init_s)"
	check "$name: the crng was ready when init started (ready_at_start=$(jv getrandom.ready_at_start))" \
		[ "$(jv getrandom.ready_at_start)" = 1 ]
	check "$name: kernel log shows jitter_tsc readied the crng (${J[klog.jitter_tsc_credited]:-no line})" \
		[ -n "$(jv klog.jitter_tsc_credited)" ]
}

# init_on_time NAME [MAX_US]: jitter_tsc's async setup and random.c's async
# seeding ended at most MAX_US (JTSC_INIT_MAX_US) after the last initcall
# returned. init starts once async work is done: it waited no longer.
init_on_time() {
	local name=$1 max=${2:-$init_max_us} e d
	for e in jitter_tsc_setup crng_init_done; do
		d=$(late "$(jv klog.${e}_s)" "$(jv klog.initcalls_done_s)")
		check "$name: async $e at $(jv klog.${e}_s) s, before the last initcall returned at $(jv klog.initcalls_done_s) s (${d:-?} us past it, <= $max)" \
			le "$d" "$max"
	done
}

# bounded NAME: init waited for random.c's seeding at most its budget (the
# one its line names) past the last initcall; Run /init is shown beside
bounded() {
	local name=$1 w r b
	b=$(jv klog.jitter_tsc_seeding | sed -n 's/.* of a \([0-9]*\) ms budget.*/\1/p')
	w=$(late "$(jv klog.jitter_tsc_seeding_s)" "$(jv klog.initcalls_done_s)")
	r=$(late "$(jv klog.run_init_s)" "$(jv klog.initcalls_done_s)")
	check "$name: init waited $(ms "${w:-0}") ms for the seeding past the last initcall, budget ${b:-?} ms ('$(jv klog.jitter_tsc_seeding)'; Run /init $(ms "${r:-0}") ms past it)" \
		le "$w" "$((${b:-0} * 1000))"
}

# common to all boots: getrandom() returned, crng init done logged
crng_ready() {
	local name=$1
	check "$name: getrandom(32, 0) returned 32 bytes ($(ms "$(jv getrandom.wait_us)") ms)" \
		[ "$(jv getrandom.ret)" = 32 ]
	check "$name: 'crng init done' in the kernel log (at $(jv klog.crng_init_done_s) s)" \
		[ "$(jv klog.crng_init_done)" = 1 ]
	check "$name: no WARNING/BUG/Oops in the kernel log (${J[klog.first_warning]:-none})" \
		[ "$(jv klog.warnings)" = 0 ]
}

# the FIPS test: nothing else. jitter_tsc is not fips_allowed, so with fips=1
# it is not set up: not registered, random.c stock, and no panic.
if [ -n "$fips" ]; then
	if boot fips fips=1 jtsc.algs=jitter_tsc; then
		crng_ready fips
		stock_random fips
		check "fips: the kernel runs in FIPS mode ('fips mode: enabled' on the console)" \
			grep -q 'fips mode: enabled' "$out/fips.log"
		check "fips: jitter_tsc says it is not FIPS-allowed" \
			klog_has 'jitter_tsc: not registering: not FIPS-allowed'
		check "fips: jitter_tsc not in /proc/crypto ($(why_unregistered))" \
			[ "$(jv crypto.jitter_tsc.count)" = 0 ]
		check "fips: AF_ALG bind to jitter_tsc fails ($(jv afalg.jitter_tsc.bind))" \
			bind_failed "$(jv afalg.jitter_tsc.bind)"
	fi
	finish
fi

# last WORD-LIST: the last word of a comma-separated list
last() { echo "${1##*,}"; }
# klog_count TEXT: how many kernel-log lines init reported contain TEXT
klog_count() { printf '%s\n' "${KLOG[@]}" | grep -c "$1"; }

# the misuse and fault-injection test: nothing else. Under TCG, two
# minutes of eight readers can make the clocksource watchdog mark the TSC
# unstable; that must not retire the speculative collector, which only
# jitter_tsc.stuck=1 does here.
if [ -n "$fault" ]; then
	stress_s=${JTSC_STRESS_S:-120}
	if JTSC_BOOT_TIMEOUT=${JTSC_BOOT_TIMEOUT:-$((stress_s + 600))} \
		boot fault jtsc.mode=fault jtsc.stress_s="$stress_s" \
		jtsc.stress_readers=8; then
		check "fault: the stuck knob is there, root-only ($(jv fault.knob.mode))" \
			[ "$(jv fault.knob.present)" = 1 -a "$(jv fault.knob.mode)" = 600 ]
		for n in 0 1 7 31 33 127 129 4097 1048576; do
			want=$((n < 128 ? n : 128))
			check "fault: one read() of $n bytes gives $want, AF_ALG's most per call ($(jv "misuse.read1.$n"))" \
				[ "$(jv "misuse.read1.$n")" = "$want" ]
		done
		check "fault: 256 KiB read in full ($(jv misuse.read_full.262144))" \
			[ "$(jv misuse.read_full.262144)" = 262144 ]
		check "fault: a reader killed mid-read dies by SIGKILL ($(jv misuse.killed.signal))" \
			[ "$(jv misuse.killed.signal)" = 9 ]
		check "fault: and is reaped within 5 s ($(ms "$(jv misuse.killed.reap_us)") ms)" \
			lt "$(jv misuse.killed.reap_us)" 5000000
		check "fault: a reader after it gets data ($(jv misuse.killed.after))" \
			[ "$(jv misuse.killed.after | cut -d' ' -f1)" = ok ]
		check "fault: $(jv misuse.stress.readers) readers for $(jv misuse.stress.seconds) s all reported ($(jv misuse.stress.reported))" \
			[ "$(jv misuse.stress.reported)" = "$(jv misuse.stress.readers)" ]
		check "fault: none of them had an error ($(jv misuse.stress.errors)) or no data ($(jv misuse.stress.readers_without_data)); $(jv misuse.stress.bytes) bytes" \
			[ "$(jv misuse.stress.errors)" = 0 -a "$(jv misuse.stress.readers_without_data)" = 0 ]
		check "fault: $(jv misuse.stress.socket_cycles) sockets opened, read and closed meanwhile, no error ($(jv misuse.stress.socket_cycle_errors))" \
			[ "$(jv misuse.stress.socket_cycle_errors)" = 0 -a "$(jv misuse.stress.socket_cycles)" -gt 0 ]
		check "fault: healthy reads ($(jv fault.healthy.reads))" [ "$(jv fault.healthy.ok)" = 4 ]
		check "fault: jitter_tsc.stuck=1 written ($(jv fault.stuck1))" [ "$(jv fault.stuck1)" = ok ]
		check "fault: speculative collector failing: every read served, no -EAGAIN, -EFAULT or other error ($(jv fault.spec.reads))" \
			[ "$(jv fault.spec.ok)" = 12 -a "$(jv fault.spec.eagain)" = 0 -a "$(jv fault.spec.efault)" = 0 -a "$(jv fault.spec.other)" = 0 ]
		check "fault: reads continue after it ($(last "$(jv fault.spec.reads)"))" \
			[ "$(last "$(jv fault.spec.reads)")" = ok ]
		# counted over instances: a shard the reads did not reach may still run the speculative one
		r=0; [[ $(jv fault.spec.stat.active) == *timer* ]] && [ "$(jv fault.spec.stat.speculative.dead)" -ge 1 ] 2>/dev/null &&
			[ "$(jv fault.spec.stat.timer.verified)" = 1 ] && r=1
		check "fault: from the timer collector (active $(jv fault.spec.stat.active), speculative dead on $(jv fault.spec.stat.speculative.dead) instance(s), timer.verified $(jv fault.spec.stat.timer.verified))" \
			[ $r = 1 ]
		check "fault: a log line for the failover ($(klog_count 'failing over to the timer collector'))" \
			[ "$(klog_count 'speculative collector: permanent health-test failure, failing over to the timer collector')" -ge 1 ]
		check "fault: jitter_tsc.stuck=3 written ($(jv fault.stuck3))" [ "$(jv fault.stuck3)" = ok ]
		check "fault: both failing: -EFAULT in the end, never -EAGAIN or another error ($(jv fault.both.reads))" \
			[ "$(last "$(jv fault.both.reads)")" = EFAULT -a "$(jv fault.both.eagain)" = 0 -a "$(jv fault.both.other)" = 0 ]
		check "fault: -EFAULT stays once the knob is cleared ($(jv fault.cleared.reads))" \
			[ "$(jv fault.stuck0)" = ok -a "$(jv fault.cleared.efault)" = 3 ]
		check "fault: and on a new socket ($(jv fault.new_socket.reads))" \
			[ "$(jv fault.new_socket.efault)" = 2 ]
		check "fault: a log line: no collector left ($(klog_count 'no collector left'))" \
			[ "$(klog_count 'timer collector: permanent health-test failure, no collector left')" -ge 1 ]
		check "fault: stats say an instance has no collector left ($(jv fault.end.stat.failed); active: $(jv fault.end.stat.active))" \
			[ "$(jv fault.end.stat.failed)" -ge 1 ] 2>/dev/null
		check "fault: getrandom still works ($(jv fault.getrandom))" [ "$(jv fault.getrandom)" = 16 ]
		check "fault: no WARNING/BUG/Oops/INFO in the kernel log (${J[klog.first_warning]:-none})" \
			[ "$(jv klog.warnings)" = 0 ]
		check "fault: none on the console either" no_report "$out/fault.log"
	fi
	finish
fi

# the unprivileged-rounds test: nothing else
if [ -n "$rounds" ]; then
	n=${JTSC_ROUNDS:-1000}
	for c in default timer; do
		extra=''; [ "$c" = timer ] && extra=jitter_tsc.collectors=timer
		# shellcheck disable=SC2086 # $extra: one word or none
		boot "rounds-$c" jtsc.mode=rounds jtsc.rounds="$n" $extra || continue
		check "rounds-$c: $n rounds as uid $(jv rounds.uid), each read 32 bytes ($(jv rounds.good) did, in $(jv rounds.ms) ms)" \
			[ "$(jv rounds.uid)" = 65534 -a "$(jv rounds.good)" = "$n" ]
		for col in speculative timer; do
			b=rounds.before.stat.$col a=rounds.after.stat.$col
			[ "$(jv "$b.enabled")" = 1 ] || continue
			check "rounds-$c: $col still enabled, not dead ($(jv "$a.enabled"), $(jv "$a.dead"))" \
				[ "$(jv "$a.enabled")" = 1 -a "$(jv "$a.dead")" = 0 ]
			# a collector never started (the timer one behind the speculative) has no credit yet
			[ "$(jv "$b.verified")" = 1 ] || continue
			check "rounds-$c: $col credit where the boot set it ($(jv "$b.credit_per_sample_256ths")/256, now $(jv "$a.credit_per_sample_256ths")/256)" \
				[ "$(jv "$a.credit_per_sample_256ths")" = "$(jv "$b.credit_per_sample_256ths")" -a "$(jv "$b.credit_per_sample_256ths")" -gt 0 ]
			check "rounds-$c: $col made no new estimate ($(jv "$b.estimates"), now $(jv "$a.estimates"))" \
				[ "$(jv "$a.estimates")" = "$(jv "$b.estimates")" ]
		done
		act=$(jv rounds.after.stat.active)
		check "rounds-$c: the collector in use ($act) had its credit set before the rounds" \
			[ -n "$act" -a "$(jv "rounds.before.stat.$act.verified")" = 1 ]
		st0=$(jv "rounds.before.stat.$act.startup_tests") st1=$(jv "rounds.after.stat.$act.startup_tests")
		d=$(( ${st1:-0} - ${st0:-0} ))
		# a shard is parked only when idle for seconds: closing a transform
		# does not make the next round run a startup test
		check "rounds-$c: the rounds ran at most $((n / 20)) startup tests ($act: $st0 before, $st1 after)" \
			[ -n "$st0" -a "$d" -le $((n / 20)) ]
		check "rounds-$c: no WARNING/BUG/Oops in the kernel log (${J[klog.first_warning]:-none})" \
			[ "$(jv klog.warnings)" = 0 ]
	done
	finish
fi

# the memory-cgroup test: nothing else
if [ -n "$memcg" ]; then
	if boot memcg jtsc.mode=memcg; then
		b=memcg.before.stat.speculative c=memcg.child.stat.speculative a=memcg.after.stat.speculative
		r=0; [ "$(jv memcg.controller)" = ok ] && lt "$(jv memcg.max)" 8388608 && r=1
		check "memcg: a cgroup with the memory controller and memory.max $(jv memcg.max) (< 8 MiB; controller $(jv memcg.controller))" \
			[ $r = 1 ]
		check "memcg: the reader runs as uid $(jv memcg.child.uid) in $(jv memcg.child.cgroup)" \
			[ "$(jv memcg.child.uid)" = 65534 -a "$(jv memcg.child.cgroup)" = 0::/small ]
		check "memcg: it read 32 bytes on each of $(jv memcg.cpus) CPUs ($(jv memcg.child.good))" \
			[ "$(jv memcg.child.good)" = "$(jv memcg.cpus)" ]
		check "memcg: it started the speculative collector on the shards ($(jv "$b.startup_tests") startup tests before, $(jv "$c.startup_tests") after)" \
			[ "$(jv "$c.startup_tests")" -gt "$(jv "$b.startup_tests")" ] 2>/dev/null
		ev=",$(jv memcg.events),"
		r=0; lt "$(jv memcg.peak)" 8388608 && [[ $ev == *",max 0,"* && $ev == *",oom 0,"* ]] && r=1
		check "memcg: its cgroup peaked at $(jv memcg.peak) bytes, under the 8 MiB buffer, with no max or OOM event ($(jv memcg.events))" \
			[ $r = 1 ]
		check "memcg: a reader outside it then read on each CPU ($(jv memcg.other.good))" \
			[ "$(jv memcg.other.good)" = "$(jv memcg.cpus)" ]
		check "memcg: the speculative collector in use, enabled, not dead ($(jv memcg.after.stat.active), $(jv "$a.enabled"), $(jv "$a.dead"))" \
			[ "$(jv memcg.after.stat.active)" = speculative -a "$(jv "$a.enabled")" = 1 -a "$(jv "$a.dead")" = 0 ]
		check "memcg: never refused ($(jv "$b.estimates_refused") before, $(jv "$a.estimates_refused") after)" \
			[ "$(jv "$a.estimates_refused")" = "$(jv "$b.estimates_refused")" ]
		r=0; [ "$(jv "$a.credit_per_sample_256ths")" = "$(jv "$b.credit_per_sample_256ths")" ] &&
			[ "$(jv "$b.credit_per_sample_256ths")" -gt 0 ] 2>/dev/null && r=1
		check "memcg: at the credit the boot set ($(jv "$b.credit_per_sample_256ths")/256, now $(jv "$a.credit_per_sample_256ths")/256; $(jv "$a.estimates") estimate(s))" \
			[ $r = 1 ]
		check "memcg: no WARNING/BUG/Oops in the kernel log (${J[klog.first_warning]:-none})" \
			[ "$(jv klog.warnings)" = 0 ]
	fi
	finish
fi

# clone_blocks LOG ALG: the 16 blocks ALG gave in a clone, one a line
# (hex, or an error name; "missing" where the clone printed none)
clone_blocks() {
	local i
	jtsc_load "$1"
	for i in $(seq 0 15); do echo "${J[clone.$2.block.$i]:-missing}"; done
}
# same_blocks ALG: in $same the indices where the clones' blocks of ALG are
# equal hex, in $unread the count of blocks one of them did not read
same_blocks() {
	local a b i=0
	same='' unread=0
	while IFS=' ' read -r a b; do
		if [[ ${#a} != 64 || ${#b} != 64 || $a$b =~ [^0-9a-f] ]]; then
			unread=$((unread + 1))
		elif [ "$a" = "$b" ]; then
			same="$same $i"
		fi
		i=$((i + 1))
	done < <(paste -d ' ' <(clone_blocks "$out/clone-1.log" "$1") <(clone_blocks "$out/clone-2.log" "$1"))
	same=${same# }
}

# the VM-clone test: nothing else. The guest reads before the save, so that
# jitter_tsc's pool holds words tested before it; a block made after the
# restore from those is the same in both clones.
if [ -n "$clone" ]; then
	"$here/clone.sh" "$kernel" "$initramfs" "$out" 2>&1 | sed 's/^/# /'
	if [ "${PIPESTATUS[0]}" = 0 ]; then
		ok "clone: the guest was saved after clone.ready=1 and restored twice, both clones finished"
	else
		notok "clone: the guest was saved after clone.ready=1 and restored twice, both clones finished (logs: $out/clone-*.log)"
	fi
	jtsc_load "$out/clone-save.log"
	check "clone: before the save, 4 blocks read from jitter_tsc ($(jv clone.jitter_tsc.before)) and jitterentropy_rng ($(jv clone.jitterentropy_rng.before))" \
		[ "$(jv clone.jitter_tsc.before)" = 4 -a "$(jv clone.jitterentropy_rng.before)" = 4 ]
	for i in 1 2; do
		jtsc_load "$out/clone-$i.log"
		check "clone-$i: the line typed after the restore reached init ($(jv clone.line))" \
			[ "$(jv clone.line)" = ok ]
		check "clone-$i: no WARNING/BUG/Oops in the kernel log after the restore (${J[klog.first_warning]:-none})" \
			[ "$(jv klog.warnings)" = 0 ]
	done
	for a in jitter_tsc jitterentropy_rng; do
		same_blocks "$a"
		n=0; [ -z "$same" ] || n=$(echo "$same" | wc -w)
		r=0; [ -z "$same" ] && [ "$unread" = 0 ] && r=1
		check "clone: $a: none of the 16 blocks read after the restore equals the other clone's block of the same index ($n equal${same:+: block(s) $same}; $unread not read in both)" \
			[ $r = 1 ]
	done
	finish
fi

# the arm64 test: nothing else
if [ -n "$arm64" ]; then
	# the timer collector alone gives ~250 B/s there: reads up to 33 bytes
	sizes="0 1 31 32 33"
	# the KUnit suite runs before init, under TCG emulating another ISA
	# shellcheck disable=SC2086 # $timing: words
	if JTSC_BOOT_TIMEOUT=${JTSC_BOOT_TIMEOUT:-600} boot arm64 jtsc.algs=jitter_tsc $timing; then
		tot=$(grep -aoE '# Totals: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+ total:[0-9]+' "$out/arm64.log" | tail -n 1)
		check "arm64: KUnit suite jitter_tsc ran and passed (${tot:-no Totals line})" \
			grep -aqE '^(\[[^]]*\] )?ok [0-9]+ jitter_tsc$' "$out/arm64.log"
		r=0; [ -n "$tot" ] && [ "$(echo "$tot" | sed 's/.* fail:\([0-9]*\).*/\1/')" = 0 ] && r=1
		check "arm64: no KUnit case failed" [ $r = 1 ]
		check "arm64: kernel is $(jv kernel.machine)" [ "$(jv kernel.machine)" = aarch64 ]
		crng_ready arm64
		check "arm64: jitter_tsc draws on the timer collector" \
			klog_has 'ready, drawing on the timer collector'
		check "arm64: no speculative collector outside x86-64" \
			klog_has 'speculative collector disabled: not available'
		serves arm64
		seeded_early arm64
		init_on_time arm64 "$init_max_us_arm64"
	fi
	finish
fi

# the module test: nothing else
if [ -n "$module" ]; then
	ko=/lib/modules/$(basename "$module")
	if boot module jtsc.algs=jitter_tsc jtsc.slow_ms=0 jtsc.insmod="$ko" jtsc.rmmod=jitter_tsc; then
		crng_ready module
		# random.c draws on jitter_tsc only when it is built in
		stock_random module
		check "module: finit_module($ko) ($(jv insmod.ret))" [ "$(jv insmod.ret)" = 0 ]
		check "module: jitter_tsc in /proc/crypto from module $(jv crypto.jitter_tsc.module)" \
			[ "$(jv crypto.jitter_tsc.module)" = jitter_tsc ]
		serves module
		check "module: delete_module(jitter_tsc) refused while an AF_ALG socket is open ($(jv rmmod.open.ret))" \
			busy "$(jv rmmod.open.ret)"
		check "module: that socket still reads 32 bytes ($(jv rmmod.open.read))" \
			[ "$(jv rmmod.open.read)" = 32 ]
		check "module: delete_module(jitter_tsc) ($(jv rmmod.ret))" [ "$(jv rmmod.ret)" = 0 ]
		check "module: gone from /proc/crypto after unloading ($(jv rmmod.crypto.jitter_tsc.count) left)" \
			[ "$(jv rmmod.crypto.jitter_tsc.count)" = 0 ]
		check "module: debugfs directory removed on unload" \
			[ "$(jv rmmod.debugfs_left)" = 0 ]
		# the unload comes after init read the kernel log: look at the console
		check "module: no WARNING/BUG/Oops on the console, unload included" \
			no_report "$out/module.log"
	fi
	finish
fi

# 1. default cmdline
# jitterentropy_rng is left out: ~1.4 KiB/s under TCG (make run reports it)
waits=()
# shellcheck disable=SC2086 # $timing: words
if boot default jtsc.algs=jitter_tsc,stdrng jtsc.slow_ms=0 $timing; then
	crng_ready default
	reg="not registered: $(why_unregistered)"
	[ -z "$(jv crypto.jitter_tsc.driver)" ] ||
		reg="driver $(jv crypto.jitter_tsc.driver), priority $(jv crypto.jitter_tsc.priority)"
	check "default: jitter_tsc in /proc/crypto ($reg)" \
		[ "$(jv crypto.jitter_tsc.count)" -ge 1 ] 2>/dev/null
	serves default
	seeded_early default
	waits+=("$(jv getrandom.wait_us)")
	own=$(add "$(jv klog.initcall.jtsc_mod_init_us)" "$(jv klog.initcall.random_jitter_tsc_init_us)")
	check "default: jitter_tsc's initcalls took <= $init_max_us us (jtsc_mod_init $(jv klog.initcall.jtsc_mod_init_us), random_jitter_tsc_init $(jv klog.initcall.random_jitter_tsc_init_us); jent_mod_init $(jv klog.initcall.jent_mod_init_us))" \
		le "$own" "$init_max_us"
	init_on_time default
	bounded default
	# the guest's own setup, not the series: say so, do not fail
	[ "$(jv cpus.online)" = 2 ] ||
		echo "# warning: the guest sees $(jv cpus.online) CPU(s) of the 2 QEMU gives it (no ACPI/MP table in guest.config?)"
	case $(jv clocksource) in *jiffies*)
		echo "# warning: guest clocksource $(jv clocksource): TSC not calibrated, guest times have tick (4 ms) resolution (CONFIG_ACPI=y gives an HPET/PM-timer reference)" ;;
	esac
	echo "# default: AF_ALG stdrng (not asserted): bind $(jv afalg.stdrng.bind), 65536 B read $(jv afalg.stdrng.read.65536)"
fi

# 2. the first blocking getrandom() in PID 1, over five boots
for i in 2 3 4 5; do
	# shellcheck disable=SC2086
	if boot "getrandom-$i" jtsc.mode=bench jtsc.algs=stdrng jtsc.bench_ms=10 $timing; then
		seeded_early "getrandom-$i"
		waits+=("$(jv getrandom.wait_us)")
	fi
done
med=$(printf '%s\n' "${waits[@]}" | median)
r=0; [ "${#waits[@]}" = 5 ] && lt "$med" "$max_us" && r=1
check "getrandom: median first blocking getrandom() of ${#waits[@]} boots < $max_us us (${med:-?} us; ${waits[*]})" \
	[ $r = 1 ]

# 3. random.c does not trust jitter_tsc: stock, while jitter_tsc still serves
# shellcheck disable=SC2086 # $timing: words
if boot trust-off random.trust_jitter_tsc=off jtsc.algs=jitter_tsc $timing; then
	crng_ready trust-off
	stock_random trust-off
	check "trust-off: jitter_tsc still registered with crypto ($(why_unregistered))" \
		[ "$(jv crypto.jitter_tsc.count)" -ge 1 ] 2>/dev/null
	check "trust-off: no collector started at boot (jitter_tsc's setup only registered)" \
		grep -aq 'jitter_tsc: ready, [0-9]* shards: each starts a collector on first use' \
		"$out/trust-off.log"
	own=$(add "$(jv klog.initcall.jtsc_mod_init_us)" "$(jv klog.initcall.random_jitter_tsc_init_us)")
	r=0; [ -z "$(jv klog.jitter_tsc_seeding)" ] && lt "$own" 1000 && r=1
	check "trust-off: jitter_tsc's initcalls took < 1000 us (${own:-?}) and init waited for no seeding (${J[klog.jitter_tsc_seeding]:-none})" \
		[ $r = 1 ]
fi

# 3b. a slow collector (every batch 100 ms longer: the setup alone takes
# seconds) and 3c. startup tests that fail each time, after an estimate
# that passes, for both collectors: init waits at most the budget
# shellcheck disable=SC2086 # $timing: words
if boot slow-collector jitter_tsc.delay_ms=100 jtsc.algs=jitter_tsc $timing; then
	crng_ready slow-collector
	bounded slow-collector
	check "slow-collector: the seeding went on past init ($(jv klog.jitter_tsc_seeding))" \
		klog_has 'jitter_tsc seeding goes on past init'
fi
# shellcheck disable=SC2086 # $timing: words
if boot startup-fails jitter_tsc.fail_startup=3 jtsc.algs=jitter_tsc $timing; then
	crng_ready startup-fails
	stock_random startup-fails
	bounded startup-fails
	n=$(klog_count 'collector refused: startup health test failed')
	check "startup-fails: both collectors' startup tests failed ($n lines)" [ "$n" = 2 ]
fi

# 4. no collectors: jitter_tsc must stay unregistered, random.c stock
if boot no-collectors jitter_tsc.collectors=none jtsc.algs=jitter_tsc; then
	crng_ready no-collectors
	stock_random no-collectors
	check "no-collectors: jitter_tsc not in /proc/crypto" \
		[ "$(jv crypto.jitter_tsc.count)" = 0 ]
	check "no-collectors: AF_ALG bind to jitter_tsc fails ($(jv afalg.jitter_tsc.bind))" \
		bind_failed "$(jv afalg.jitter_tsc.bind)"
fi

# 5. both collectors fail their startup tests (a constant counter delta)
if boot startup-fail jitter_tsc.stuck=3 jtsc.algs=jitter_tsc; then
	crng_ready startup-fail
	stock_random startup-fail
	n=$(printf '%s\n' "${KLOG[@]}" | grep -c -e 'collector refused: startup health test failed' \
		-e 'collector refused: runtime estimate below the floor')
	check "startup-fail: both collectors refused at startup ($n 'startup health test failed' or 'runtime estimate below the floor' lines)" \
		[ "$n" = 2 ]
	check "startup-fail: jitter_tsc not in /proc/crypto ($(why_unregistered))" \
		[ "$(jv crypto.jitter_tsc.count)" = 0 ]
fi

# 6. the speculative collector fails its startup test: the timer one seeds
if boot timer-seeds jitter_tsc.stuck=1 jtsc.algs=jitter_tsc $timing; then
	crng_ready timer-seeds
	seeded_early timer-seeds
	check "timer-seeds: the speculative collector refused at startup" \
		klog_has 'speculative collector refused: \(startup health test failed\|runtime estimate below the floor\)'
	check "timer-seeds: jitter_tsc draws on the timer collector" \
		klog_has 'ready, drawing on the timer collector'
	check "timer-seeds: AF_ALG read of 32 bytes from jitter_tsc ($(jv afalg.jitter_tsc.read.32))" \
		read_ok "$(jv afalg.jitter_tsc.read.32)" 32
	init_on_time timer-seeds
	bounded timer-seeds
fi

# 6b. the timer collector alone, as on a machine without the speculative
# one (arm64 has its own boot): it seeds random.c before PID 1, and init
# does not wait for it
if boot timer-only jitter_tsc.collectors=timer jtsc.algs=jitter_tsc $timing; then
	crng_ready timer-only
	seeded_early timer-only
	check "timer-only: jitter_tsc draws on the timer collector" \
		klog_has 'ready, drawing on the timer collector'
	init_on_time timer-only
	bounded timer-only
fi

# 7. a cycle counter that counts instructions (QEMU -icount, as an honest
# emulator may give): neither collector is credited, two boots in a row, and
# the log says why (the counter check for both, or each collector's line).
# One vCPU: -icount runs vCPUs in turn on one thread, and with two, the
# stop_machine() of the switch to the TSC clocksource stalled RCU for 20 s
# in one boot of two, after jitter_tsc had refused both collectors.
for i in 1 2; do
	if JTSC_QEMU_ARGS="-icount shift=0,sleep=off -smp 1" boot "icount-$i" jtsc.algs=jitter_tsc; then
		check "icount-$i: no jitter_tsc credit in random.c (${J[klog.jitter_tsc_credited]:-none})" \
			[ -z "$(jv klog.jitter_tsc_credited)" ]
		check "icount-$i: jitter_tsc not in /proc/crypto ($(why_unregistered))" \
			[ "$(jv crypto.jitter_tsc.count)" = 0 ]
		n=$(printf '%s\n' "${KLOG[@]}" | grep -c 'jitter_tsc: [a-z]* collector refused: ')
		printf '%s\n' "${KLOG[@]}" | grep -q 'jitter_tsc: all collectors disabled: ' && n=2
		check "icount-$i: the log says why each collector is not used ($n of 2)" [ "$n" = 2 ]
	fi
done
finish
