# lib.sh - shared helpers of the measurement scripts (sourced, not run):
# build the measurement tools into build/measure and edit harness/measure/results.
# shellcheck shell=sh disable=SC2034 # sourced: its variables are for the scripts
top=${top:-$(cd "$(dirname "$0")/../.." && pwd)}
M=$top/build/measure
RESULTS=${RESULTS:-$top/harness/measure/results}	# tests may point it elsewhere
CFLAGS_TOOLS="-O2 -Wall -Wextra -Werror"
# the kernel's rdtsc_ordered() is rdtscp where the CPU has it (tsc-jitter-user.h)
LOOP_CFLAGS="-mno-popcnt$(grep -qw rdtscp /proc/cpuinfo 2>/dev/null && echo ' -DTSC_JITTER_RDTSCP' || :)"
# asm/tsc_jitter.h's kernel includes, empty: tsc-jitter-user.h gives what it uses
LOOP_CFLAGS="$LOOP_CFLAGS -idirafter $top/harness/measure/loop-include"

HDR=$top/arch/x86/include/asm/tsc_jitter.h
USER_H=$top/harness/measure/tsc-jitter-user.h	# its stand-ins in user space
BASE_SRC=$top/build/base/linux-source-6.12	# the pristine base (make tree)
# Buffer orders of the speculative loop's variants beside the kernel's own
# (TSC_JITTER_MEM_ORDER of the header): 4 KiB, 64 KiB, 2 MiB and 32 MiB.
SPEC_VARIANT_ORDERS=${SPEC_VARIANT_ORDERS:-12 16 21 25}

# spec_variant_name ORDER|popcount / spec_variant_label ...: a variant's key
# in the results (popcount, buf16k, buf2m, ...) and its name in tables
spec_variant_name() {
	case $1 in
	popcount) echo popcount ;;
	*) awk -v o="$1" 'BEGIN{ if (o >= 20) printf "buf%dm\n", 2^(o-20); else printf "buf%dk\n", 2^(o-10) }' ;;
	esac
}
spec_variant_label() {
	case $1 in
	popcount) echo "popcount only" ;;
	*) awk -v o="$1" 'BEGIN{ if (o >= 20) printf "%d MiB buffer\n", 2^(o-20); else printf "%d KiB buffer\n", 2^(o-10) }' ;;
	esac
}

# fresh OUT DEP...: OUT exists and is newer than every DEP
fresh() {
	_fo=$1; shift
	[ -e "$_fo" ] || return 1
	for _fd in "$@"; do [ "$_fo" -nt "$_fd" ] || return 1; done
}

# build_hweight: $M/hweight.o, the kernel's own __sw_hweight64, assembled
# from the base tree's arch/x86/lib/hweight.S with stub headers for the
# three kernel headers it includes (the kernel's RET may be a return
# thunk; here it is a plain ret)
build_hweight() {
	_hs=$BASE_SRC/arch/x86/lib/hweight.S
	[ -r "$_hs" ] || { echo "measure: no $_hs (make tree unpacks the base)" >&2; return 1; }
	fresh "$M/hweight.o" "$_hs" "$top/harness/measure/lib.sh" && return 0
	mkdir -p "$M/stub/linux" "$M/stub/asm"
	printf '%s\n' '#define EXPORT_SYMBOL(sym)' > "$M/stub/linux/export.h"
	printf '%s\n' '#define SYM_FUNC_START(name) .text; .globl name; .type name, @function; .p2align 4; name:' \
		'#define SYM_FUNC_END(name) .size name, .-name' '#define RET ret' > "$M/stub/linux/linkage.h"
	printf '%s\n' '#define __ASM_SIZE(inst, ...) inst##q##__VA_ARGS__' \
		'#define __ASM_REG(reg) r##reg' > "$M/stub/asm/asm.h"
	gcc -c -nostdinc -I "$M/stub" -D__ASSEMBLY__ -DCONFIG_X86_64 -Wa,--noexecstack \
		-o "$M/hweight.o" "$_hs"
}

# spec_order: TSC_JITTER_MEM_ORDER of the kernel's header
spec_order() { sed -n 's/^#[[:space:]]*define[[:space:]]\{1,\}TSC_JITTER_MEM_ORDER[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' "$HDR"; }

# build_spec_variant ORDER: $M/host-spec-ORDER, host-spec built on a header
# made from the kernel's at build time, the TSC_JITTER_MEM_ORDER line set to
# ORDER and nothing else changed (checked); for ORDER the kernel's own, a
# link to $M/host-spec
build_spec_variant() {
	if [ "$1" = "$(spec_order)" ]; then ln -sf host-spec "$M/host-spec-$1"; return 0; fi
	_vd=$M/variant-$1
	fresh "$M/host-spec-$1" "$top/harness/measure/host-spec.c" "$HDR" "$USER_H" "$M/hweight.o" && return 0
	mkdir -p "$_vd/asm"
	sed 's/^\(#[[:space:]]*define[[:space:]]\{1,\}TSC_JITTER_MEM_ORDER[[:space:]]\{1,\}\)[0-9]\{1,\}/\1'"$1"'/' \
		"$HDR" > "$_vd/asm/tsc_jitter.h"
	[ "$(diff "$HDR" "$_vd/asm/tsc_jitter.h" | grep -c '^[<>]')" = 2 ] ||
		{ echo "measure: cannot set TSC_JITTER_MEM_ORDER in a copy of $HDR" >&2; return 1; }
	gcc $CFLAGS_TOOLS $LOOP_CFLAGS -idirafter "$_vd" -o "$M/host-spec-$1" \
		"$top/harness/measure/host-spec.c" "$M/hweight.o"
}

# CORE: the host-independent core of jitter_tsc, compiled as it is with
# harness/measure/include standing in for the kernel headers it uses
CORE="$top/crypto/jitter_tsc_core.c $top/crypto/jitter_tsc_estimate.c"
CORE_HDRS="$top/crypto/jitter_tsc_internal.h"
CORE_CFLAGS="-I $top/harness/measure/include -I $top/crypto -Wno-unused-parameter"

# build_health: $M/health-host, the kernel's health tests, credit ladder and
# runtime estimate (the core) around the kernel's speculative loop
build_health() {
	build_hweight || return 1
	# shellcheck disable=SC2086
	fresh "$M/health-host" "$top/harness/measure/health-host.c" $CORE $CORE_HDRS "$HDR" "$USER_H" \
		"$M/hweight.o" "$top/harness/measure/lib.sh" && return 0
	# shellcheck disable=SC2086
	gcc $CFLAGS_TOOLS $LOOP_CFLAGS $CORE_CFLAGS -idirafter "$top/arch/x86/include" \
		-o "$M/health-host" "$top/harness/measure/health-host.c" $CORE "$M/hweight.o" -lm
}

# build_ea_core: $M/ea-core, the core's runtime estimate on a file
build_ea_core() {
	# shellcheck disable=SC2086
	fresh "$M/ea-core" "$top/harness/measure/ea-core.c" $CORE $CORE_HDRS && return 0
	# shellcheck disable=SC2086
	gcc $CFLAGS_TOOLS $CORE_CFLAGS -o "$M/ea-core" "$top/harness/measure/ea-core.c" $CORE
}

# build_core_test: $M/core-test, the core's state machine driven in user space
build_core_test() {
	# shellcheck disable=SC2086
	fresh "$M/core-test" "$top/harness/measure/core-test.c" $CORE $CORE_HDRS && return 0
	# shellcheck disable=SC2086
	gcc $CFLAGS_TOOLS $CORE_CFLAGS -o "$M/core-test" "$top/harness/measure/core-test.c" $CORE
}

# build_peer: $M/peer, jitter_tsc's core and block path beside the base
# tree's crypto/jitterentropy.c compiled unchanged (-O0, as its Makefile
# does; Kconfig defaults: 64 blocks of 32 bytes, oversampling 1), with
# peer-jent.c for what jitterentropy-kcapi.c gives it (SHA3-256 from
# OpenSSL's libcrypto)
build_peer() {
	_js=$BASE_SRC/crypto/jitterentropy.c
	[ -r "$_js" ] || { echo "measure: no $_js (make tree unpacks the base)" >&2; return 1; }
	build_hweight || return 1
	[ -r /usr/include/openssl/evp.h ] || { apt-get update -qq && apt-get install -y -qq libssl-dev >/dev/null; }
	_pd=$top/harness/measure
	# shellcheck disable=SC2086
	fresh "$M/peer" "$_pd/peer.c" "$_pd/peer-jent.c" "$_js" $CORE $CORE_HDRS "$HDR" "$USER_H" \
		"$M/hweight.o" "$top/harness/measure/lib.sh" && return 0
	mkdir -p "$M/peer.d"
	# shellcheck disable=SC2086
	gcc -O0 -w -I "$_pd/peer-include" -DCONFIG_CRYPTO_JITTERENTROPY_MEMORY_BLOCKS=64 \
		-DCONFIG_CRYPTO_JITTERENTROPY_MEMORY_BLOCKSIZE=32 -DCONFIG_CRYPTO_JITTERENTROPY_OSR=1 \
		-c -o "$M/peer.d/jitterentropy.o" "$_js" &&
	gcc $CFLAGS_TOOLS -c -o "$M/peer.d/peer-jent.o" "$_pd/peer-jent.c" &&
	gcc $CFLAGS_TOOLS $LOOP_CFLAGS $CORE_CFLAGS -idirafter "$top/arch/x86/include" -o "$M/peer" \
		"$_pd/peer.c" $CORE "$M/peer.d/jitterentropy.o" "$M/peer.d/peer-jent.o" "$M/hweight.o" \
		-lcrypto -lm
}

# build_tools [TOOL...]: build the tools named (default: ea_noniid,
# host-spec and its variants, host-timer) if stale
build_tools() {
	mkdir -p "$M"
	command -v gcc >/dev/null || { apt-get update -qq && apt-get install -y -qq gcc libc6-dev >/dev/null; }
	[ $# -gt 0 ] || set -- ea_noniid host-spec host-spec-variants host-timer
	for t in "$@"; do
		src=$top/harness/measure/$t.c
		case $t in
		ea_noniid)
			fresh "$M/$t" "$src" || gcc $CFLAGS_TOOLS -o "$M/$t" "$src" -lm ;;
		# the kernel's own loop: -mno-popcnt keeps the software popcount
		host-spec)
			build_hweight || return 1
			fresh "$M/$t" "$src" "$HDR" "$USER_H" "$M/hweight.o" ||
				gcc $CFLAGS_TOOLS $LOOP_CFLAGS -idirafter "$top/arch/x86/include" \
					-o "$M/$t" "$src" "$M/hweight.o" ;;
		host-spec-variants)
			build_hweight || return 1
			for o in $SPEC_VARIANT_ORDERS; do build_spec_variant "$o" || return 1; done ;;
		host-timer)
			fresh "$M/$t" "$src" || gcc $CFLAGS_TOOLS -pthread -o "$M/$t" "$src" ;;
		health-host) build_health ;;
		guard-power)
			# shellcheck disable=SC2086
			fresh "$M/$t" "$src" $CORE $CORE_HDRS ||
				gcc $CFLAGS_TOOLS $CORE_CFLAGS -o "$M/$t" "$src" $CORE -lm ;;
		ea-core) build_ea_core ;;
		peer) build_peer ;;
		*) echo "measure: no tool $t" >&2; return 1 ;;
		esac || return 1
	done
}

host_cpu() {	# the model name, and family and model: two "AMD EPYC" VMs differed
	m=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	fm=$(awk -F': ' '/^cpu family/ { f = $2 } /^model[[:space:]]*:/ { m = $2 }
		END { if (f != "") printf "family %s model %s", f, m }' /proc/cpuinfo)
	grep -q '^flags.* hypervisor' /proc/cpuinfo && m="$m (in a VM${fm:+, $fm})" ||
		m="$m${fm:+ ($fm)}"
	echo "$m"
}

# median: the median of the numbers on standard input, one a line
median() { sort -g | awk '{a[n++]=$1} END{if (n) print (n%2) ? a[int(n/2)] : (a[n/2-1]+a[n/2])/2}'; }

# ea_min FILE / ea_which FILE: minimum and its estimator from ea_noniid
# output; ", bitstring" when the minimum is 8 x the bitstring estimate
ea_min() { awk '/^H_min/{print $2}' "$1"; }
ea_which() {
	awk '/^ *H_original .*H_bitstring/{ho = $2; hb = $7}
		/^ *minimum .*bits\/sample \(/{e = $0; sub(/^[^(]*\(/, "", e); sub(/\)$/, "", e)}
		END{ if (hb != "" && hb + 0 < ho + 0) e = e ", bitstring"; print e }' "$1"
}

# set_hmin PREFIX EAFILE [WHERE]: PREFIX.h_min, PREFIX.h_min_estimator from
# this run, and PREFIX.h_min_lowest, the lowest of all runs so far, with the
# date, the estimator and WHERE (default the host CPU) beside it. Delete the
# lowest line by hand (or make it a history.* line) when the collector's
# code or its sample changes.
set_hmin() {
	h=$(ea_min "$2")
	[ -n "$h" ] || return 0
	set_results "$1.h_min" "$h"
	set_results "$1.h_min_estimator" "$(ea_which "$2")"
	old=$(awk -v k="$1.h_min_lowest" '$1==k{print $2}' "$RESULTS" 2>/dev/null)
	if [ -z "$old" ] || awk -v a="$h" -v b="$old" 'BEGIN{exit !(a < b)}'; then
		set_results "$1.h_min_lowest" "$h ($(date -u +%Y-%m-%d), $(ea_which "$2"); ${3:-$(host_cpu)})"
	fi
}

# MARGIN: one line per sample file measured, kept across runs and hosts:
# "DATE PREFIX H_MIN RT_MAX RT_MEDIAN WINDOWS CPU...", H_MIN the file's
# ea_noniid minimum over all its samples, RT_* the kernel's runtime estimate
# (ea-core) over each disjoint startup-sized window of it; check-margin.py
# checks the ladder step picked from RT_MAX against H_MIN / 2 on every line
MARGIN=$top/harness/measure/margin-results
RT_WINDOW=12288

# rt_windows BINFILE: "MAX MEDIAN WINDOWS" of ea-core over the file's windows
rt_windows() {
	build_tools ea-core || return 1
	_sz=$(stat -c %s "$1")
	_o=0
	while [ $((_o + RT_WINDOW)) -le "$_sz" ]; do
		"$M/ea-core" -o "$_o" -n "$RT_WINDOW" "$1" | awk '$1=="H_min"{print $2}'
		_o=$((_o + RT_WINDOW))
	done | sort -g | awk '{a[n++]=$1} END{if (n) printf "%s %s %d\n", a[n-1], a[int(n/2)], n}'
}

# set_margin PREFIX BINFILE EAFILE [WHERE]: a MARGIN line for the file
set_margin() {
	_h=$(ea_min "$3")
	_rt=$(rt_windows "$2")
	[ -n "$_h" ] && [ -n "$_rt" ] || return 0
	[ -f "$MARGIN" ] || printf '%s\n' "# Written by host.sh and guest.sh (lib.sh set_margin); read by check-margin.py." \
		"# DATE PREFIX H_MIN(10^6-sample ea_noniid) RT_MAX RT_MEDIAN WINDOWS(ea-core, $RT_WINDOW samples each) CPU" > "$MARGIN"
	echo "$(date -u +%Y-%m-%dT%H:%MZ) $1 $_h $_rt ${4:-$(host_cpu)}" >> "$MARGIN"
}

# The shared build lock: held around measurements that must run quiet.
BUILD_LOCK=/tmp/jtsc-build.lock

# load_start: two CPU-bound processes, one per CPU of this 2-CPU machine
# (xz -9 on /dev/urandom: compression with a 64 MiB dictionary, which
# also keeps the caches and memory busy); load_stop ends exactly those
LOAD_DESC="2 x xz -9 -T1 < /dev/urandom > /dev/null"
load_start() {
	LOAD_PIDS=
	for _l in 1 2; do
		xz -9 -T1 < /dev/urandom > /dev/null 9>&- &
		LOAD_PIDS="$LOAD_PIDS $!"
	done
	sleep 2	# past its start-up, into steady compression
}
load_stop() {
	# shellcheck disable=SC2086 # a list of pids
	[ -z "${LOAD_PIDS:-}" ] || { kill $LOAD_PIDS 2>/dev/null; wait $LOAD_PIDS 2>/dev/null || :; }
	LOAD_PIDS=
}

# cpu_ticks: "busy total" jiffies of all CPUs so far (/proc/stat);
# busy_pct BEFORE AFTER: the busy share between two cpu_ticks
cpu_ticks() { awk '$1=="cpu"{t=0; for (i=2; i<=NF; i++) t+=$i; print t-$5-$6, t; exit}' /proc/stat; }
busy_pct() {
	echo "$1 $2" | awk '{ if ($4 > $2) printf "%.0f", 100 * ($3 - $1) / ($4 - $2); else print "?" }'
}

# idle_wait: (the build lock held) wait until the CPUs are idle for a
# second, at most IDLE_WAIT_MAX seconds (default 300): work other than
# builds, such as another guest, takes no lock
idle_wait() {
	w=0
	while :; do
		t0=$(cpu_ticks); sleep 1; b=$(busy_pct "$t0" "$(cpu_ticks)")
		[ "$b" != "?" ] && [ "$b" -le 10 ] && return 0
		w=$((w + 1))
		[ "$w" -lt "${IDLE_WAIT_MAX:-300}" ] || { echo "measure: the CPUs stay $b% busy; measuring anyway"; return 0; }
		[ "$w" != 1 ] || echo "measure: other work keeps the CPUs $b% busy; waiting for it to end"
	done
}

# set_results KEY VALUE: replace or append "KEY VALUE" in the results file
set_results() {
	[ -f "$RESULTS" ] || printf '%s\n' \
		"# Measured figures behind the jitter_tsc entropy credits (one \"key value\" a line)." \
		"# Written by harness/measure/host.sh and guest.sh; read by check-cutoffs.py and docs." \
		"# h_min: SP 800-90B non-IID minimum over all estimators (ea_noniid), bits per raw sample." > "$RESULTS"
	tmp=$RESULTS.tmp
	awk -v k="$1" -v v="$2" 'BEGIN{d=0} $1==k{print k" "v; d=1; next} {print} END{if(!d) print k" "v}' \
		"$RESULTS" > "$tmp" && mv "$tmp" "$RESULTS"
}
