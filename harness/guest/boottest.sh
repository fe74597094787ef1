#!/bin/bash
# shellcheck disable=SC2317 # helpers are called through check()
# boottest.sh [BZIMAGE] - the boot tests `make check` runs. Builds the
# initramfs, boots the guest kernel three times under QEMU/TCG and prints
# "ok - ..." / "not ok - ..." per assertion; exits non-zero on any failure.
#   1. default cmdline: jitter_tsc registered with its selftest passed, AF_ALG
#      reads of every size give the right length, two samples differ, the
#      first blocking getrandom() returns in < 100 ms and the kernel log shows
#      jitter_tsc credited the crng (logged next to "crng init done").
#   2. random.jitter_tsc=off: the crng still gets ready (stock fallback).
#   3. jitter_tsc.collectors=none: jitter_tsc is not registered and the crng
#      still gets ready by the stock path.
# boottest.sh --module BZIMAGE KO - the module test instead: a kernel with
# CONFIG_CRYPTO_JITTER_TSC=m boots with the stock crng path (random.c's pull
# needs jitter_tsc built in), init loads KO, then jitter_tsc must be in
# /proc/crypto with its selftest passed, serve AF_ALG reads of every size,
# and unload cleanly (gone from /proc/crypto and debugfs).
# BZIMAGE defaults to build/obj-guest/arch/x86/boot/bzImage. Logs: out/check/.
# Env: JTSC_GETRANDOM_MAX_MS (default 100), JTSC_BOOT_TIMEOUT (see boot.sh).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
module=
if [ "${1:-}" = --module ]; then
	module=${3:?usage: boottest.sh --module BZIMAGE KO}
	shift
fi
kernel=${1:-$top/build/obj-guest/arch/x86/boot/bzImage}
out=$top/out/check
max_ms=${JTSC_GETRANDOM_MAX_MS:-100}
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
near() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN{exit !(a != "" && b != "" && a - b <= d && b - a <= d)}'; }
read_ok() { [ "${1%% *}" = ok ] && [ "$(echo "$1" | sed -n 's/.*got=\([0-9]*\).*/\1/p')" = "$2" ]; }
differ() { [ ${#1} = 64 ] && [ ${#2} = 64 ] && [ "$1" != "$2" ]; }
bind_failed() { [ -n "$1" ] && [ "$1" != ok ]; }
no_report() { ! grep -aqE '(WARNING|BUG):|Oops' "$1"; }
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

# the module test: nothing else
if [ -n "$module" ]; then
	ko=/lib/modules/$(basename "$module")
	if boot module jtsc.algs=jitter_tsc jtsc.insmod="$ko" jtsc.rmmod=jitter_tsc; then
		crng_ready module
		check "module: no jitter_tsc credit line (random.c draws on it only when built in)" \
			[ -z "$(jv klog.jitter_tsc_credited)" ]
		check "module: finit_module($ko) ($(jv insmod.ret))" [ "$(jv insmod.ret)" = 0 ]
		check "module: jitter_tsc in /proc/crypto from module $(jv crypto.jitter_tsc.module)" \
			[ "$(jv crypto.jitter_tsc.module)" = jitter_tsc ]
		serves module
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
if boot default jtsc.algs=jitter_tsc,stdrng jtsc.slow_ms=0; then
	crng_ready default
	reg="not registered: $(why_unregistered)"
	[ -z "$(jv crypto.jitter_tsc.driver)" ] ||
		reg="driver $(jv crypto.jitter_tsc.driver), priority $(jv crypto.jitter_tsc.priority)"
	check "default: jitter_tsc in /proc/crypto ($reg)" \
		[ "$(jv crypto.jitter_tsc.count)" -ge 1 ] 2>/dev/null
	serves default
	credit=$(jv klog.jitter_tsc_credited)
	check "default: kernel log shows jitter_tsc credited the crng (${credit:-no line})" \
		[ -n "$credit" ]
	check "default: jitter_tsc credit and 'crng init done' logged within 100 ms (${J[klog.jitter_tsc_credited_s]:-none} vs ${J[klog.crng_init_done_s]:-none} s)" \
		near "$(jv klog.jitter_tsc_credited_s)" "$(jv klog.crng_init_done_s)" 0.1
	check "default: first blocking getrandom() took < $max_ms ms ($(ms "$(jv getrandom.wait_us)") ms)" \
		lt "$(jv getrandom.wait_us)" $((max_ms * 1000))
	# the guest's own setup, not the series: say so, do not fail
	[ "$(jv cpus.online)" = 2 ] ||
		echo "# warning: the guest sees $(jv cpus.online) CPU(s) of the 2 QEMU gives it (no ACPI/MP table in guest.config?)"
	case $(jv clocksource) in *jiffies*)
		echo "# warning: guest clocksource $(jv clocksource): TSC not calibrated, guest times have tick (4 ms) resolution (CONFIG_ACPI=y gives an HPET/PM-timer reference)" ;;
	esac
	echo "# default: AF_ALG stdrng (not asserted): bind $(jv afalg.stdrng.bind), 65536 B read $(jv afalg.stdrng.read.65536)"
fi

# 2. random.c's pull from jitter_tsc off: the stock fallback must still work
if boot pull-off random.jitter_tsc=off jtsc.algs=jitter_tsc; then
	crng_ready pull-off
	check "pull-off: no jitter_tsc credit line (random.jitter_tsc=off honoured)" \
		[ -z "$(jv klog.jitter_tsc_credited)" ]
	check "pull-off: jitter_tsc still registered with crypto ($(why_unregistered))" \
		[ "$(jv crypto.jitter_tsc.count)" -ge 1 ] 2>/dev/null
fi

# 3. no collectors: jitter_tsc must stay unregistered, the stock path works
if boot no-collectors jitter_tsc.collectors=none jtsc.algs=jitter_tsc; then
	crng_ready no-collectors
	check "no-collectors: jitter_tsc not in /proc/crypto" \
		[ "$(jv crypto.jitter_tsc.count)" = 0 ]
	check "no-collectors: AF_ALG bind to jitter_tsc fails ($(jv afalg.jitter_tsc.bind))" \
		bind_failed "$(jv afalg.jitter_tsc.bind)"
	check "no-collectors: no jitter_tsc credit line" \
		[ -z "$(jv klog.jitter_tsc_credited)" ]
fi
finish
