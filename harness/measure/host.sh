#!/bin/sh
# host.sh - measure the collector loops on the host CPU, quiet and loaded, and
# estimate the min-entropy of their raw samples (one byte each: the low byte
# of the counter's advance per pass) with ea_noniid -t u8. Writes the host.*,
# host_loaded.* and explore.* lines of harness/measure/results.
#   speculative  the kernel's own loop (arch/x86/include/asm/tsc_jitter.h,
#                built into host-spec), HOST_SPEC_RUNS runs per condition
#                (default 3); and its variants, HOST_VARIANT_RUNS runs
#                (default 1): popcount only (no buffer), and buffers of
#                2^ORDER bytes for each ORDER of SPEC_VARIANT_ORDERS (lib.sh)
#   timer        the user-space analogue (host-timer.c), HOST_TIMER_RUNS
#                (default 1)
# Conditions: quiet, holding the shared build lock so that no build runs,
# after waiting for the CPUs to be idle (other work takes no lock), and
# taken again if other work came in meanwhile (the busy share of the CPUs
# while sampling is recorded); and loaded, the lock held too and two xz -9
# processes competing for both CPUs. All samples are taken first, under the lock
# (about two minutes, most of it the timer loop under load), then
# estimated without it (about a minute per run of 10^6 samples).
# A condition's h_min is the lowest of its runs; h_min_lowest keeps the
# lowest of all runs recorded.
# usage: harness/measure/host.sh [SAMPLES]   (default 1000000)
# Env: HOST_SPEC_RUNS, HOST_VARIANT_RUNS, HOST_TIMER_RUNS, HOST_CONDITIONS
#      (default "quiet loaded"), HOST_VARIANTS (default "popcount" and the
#      orders of SPEC_VARIANT_ORDERS; "none" for the kernel's loop only).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-1000000}
. "$top/harness/measure/lib.sh"
build_tools ea_noniid ea-core host-spec host-spec-variants host-timer
out=$top/out/measure; d=$out/host; mkdir -p "$d"
cpu=$(host_cpu)
spec_runs=${HOST_SPEC_RUNS:-3} var_runs=${HOST_VARIANT_RUNS:-1} timer_runs=${HOST_TIMER_RUNS:-1}
conds=${HOST_CONDITIONS:-quiet loaded}
variants=${HOST_VARIANTS:-popcount $SPEC_VARIANT_ORDERS}
[ "$variants" != none ] || variants=

# take FILE TOOL ARGS...: one run, its output lines in FILE.txt
take() { f=$1; shift; "$@" -n "$n" "$f.bin" > "$f.txt"; }
val() { awk -v k="$2" '$1==k{print $2}' "$1.txt"; }

rm -f "$d"/*.bin "$d"/*.txt "$d"/*.ea
trap 'load_stop' EXIT INT TERM
echo "host: $cpu; $n samples a run; waiting for the build lock"
exec 9> "$BUILD_LOCK"
flock 9
# collect COND: every run of COND, and the CPUs' busy share meanwhile
collect() {
	if [ "$1" = loaded ]; then load_start; else idle_wait; fi
	t0=$(cpu_ticks)
	for i in $(seq 1 "$spec_runs"); do take "$d/$1-spec-$i" "$M/host-spec"; done
	for v in $variants; do
		for i in $(seq 1 "$var_runs"); do
			if [ "$v" = popcount ]; then take "$d/$1-popcount-$i" "$M/host-spec" -w popcount
			else take "$d/$1-$(spec_variant_name "$v")-$i" "$M/host-spec-$v"; fi
		done
	done
	for i in $(seq 1 "$timer_runs"); do take "$d/$1-timer-$i" "$M/host-timer" -t 600000; done
	busy_pct "$t0" "$(cpu_ticks)" > "$d/$1.busy"
	load_stop
}
for c in $conds; do
	# quiet: ours is one CPU-bound thread, half of the 2 CPUs; more means
	# other work came in meanwhile: take the runs again (three tries)
	for _ in 1 2 3; do
		collect "$c"
		[ "$c" = loaded ] || [ "$(cat "$d/$c.busy")" -le 60 ] 2>/dev/null && break
		echo "host: $c: the CPUs were $(cat "$d/$c.busy")% busy while sampling; once more"
	done
	echo "host: $c: samples taken, the 2 CPUs $(cat "$d/$c.busy")% busy meanwhile"
done
flock -u 9
exec 9>&-

echo "host: estimating (ea_noniid -t u8, about a minute a run)"
for f in "$d"/*.bin; do
	f=${f%.bin}
	"$M/ea_noniid" -t u8 "$f.bin" > "$f.ea"
	printf '  %-22s %8s ns/sample %8s ticks  H_min %s (%s)\n' "$(basename "$f")" \
		"$(val "$f" ns_per_sample)" "$(val "$f" ticks_per_sample)" "$(ea_min "$f.ea")" "$(ea_which "$f.ea")"
done

# record PREFIX COND WHAT: the runs COND-WHAT-* as PREFIX.*
record() {
	rp=$1 best='' runs='' k=0
	for f in "$d/$2-$3"-*.ea; do
		[ -e "$f" ] || continue	# no such runs
		f=${f%.ea}; k=$((k + 1))
		set_margin "$rp" "$f.bin" "$f.ea"
		runs="${runs:+$runs; }$(ea_min "$f.ea") ($(ea_which "$f.ea")) $(val "$f" ns_per_sample) ns"
		if [ -z "$best" ] || awk -v a="$(ea_min "$f.ea")" -v b="$(ea_min "$best.ea")" 'BEGIN{exit !(a < b)}'; then
			best=$f
		fi
	done
	[ -n "$best" ] || return 0
	set_results "$rp.samples" "$n x $k run(s), lowest kept"
	# time: the median of the runs
	set_results "$rp.ns_per_sample" "$(for f in "$d/$2-$3"-*.txt; do val "${f%.txt}" ns_per_sample; done | median)"
	set_results "$rp.ticks_per_sample" "$(for f in "$d/$2-$3"-*.txt; do val "${f%.txt}" ticks_per_sample; done | median)"
	set_hmin "$rp" "$best.ea"
	set_results "$rp.runs" "$runs"
	b=$(val "$best" buffer_bytes)
	[ -z "$b" ] || [ "$b" = 0 ] || set_results "$rp.buffer" "$b bytes, $(val "$best" huge_kib) KiB of it in huge pages"
	cp "$best.bin" "$d/$2-$3.bin"
}
for c in $conds; do
	p=host; if [ "$c" = loaded ]; then p=host_loaded; fi
	set_results "$p.cpu" "$cpu"
	set_results "$p.date" "$(date -u +%Y-%m-%dT%H:%MZ)"
	set_results "$p.busy" "$(cat "$d/$c.busy")% of the 2 CPUs busy while sampling (one of them the measurement)"
	if [ "$c" = loaded ]; then set_results "$p.load" "$LOAD_DESC, with the build lock held"
	else set_results "$p.load" "none of ours; the build lock held (no builds)"; fi
	record "$p.spec" "$c" spec
	set_results "$p.spec.loop" "tsc_jitter_fill() of arch/x86/include/asm/tsc_jitter.h, in host-spec"
	record "$p.timer" "$c" timer
	set_results "$p.timer.loop" "user-space analogue (host-timer.c): sched_yield() per pass, a thread on the other CPU as the timer"
	for v in $variants; do
		v=$(spec_variant_name "$v")
		record "explore.$v.$c" "$c" "$v"
	done
done
if [ -n "$variants" ]; then
	set_results explore.date "$(date -u +%Y-%m-%dT%H:%MZ)"
	set_results explore.cpu "$cpu"
fi
# the quiet kernel loop and timer analogue stand for the host in the pictures
[ ! -f "$d/quiet-spec.bin" ] || cp "$d/quiet-spec.bin" "$out/host-spec.bin"
[ ! -f "$d/quiet-timer.bin" ] || cp "$d/quiet-timer.bin" "$out/host-timer.bin"
grep -E '^(host|host_loaded|explore)\.' "$RESULTS"
