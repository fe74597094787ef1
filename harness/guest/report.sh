#!/bin/bash
# report.sh LOG [SERIES_VERSION] [KERNEL_IMAGE] - turn the "JTSC key=value"
# lines of one guest boot log (written by boot.sh, printed by init.c) into a
# short labelled report: kernel and series version, jitter_tsc registration,
# time to the first blocking getrandom(), which source made the crng ready,
# health-test stats, AF_ALG results, a sample, and where the files are.
# SERIES_VERSION defaults to $JTSC_SERIES_VERSION, else `git describe` of the
# repo; KERNEL_IMAGE to $JTSC_KERNEL.
set -uo pipefail

log=${1:?usage: report.sh LOG [SERIES_VERSION] [KERNEL_IMAGE]}
series=${2:-${JTSC_SERIES_VERSION:-}}
kimage=${3:-${JTSC_KERNEL:-}}
[ -r "$log" ] || { echo "report: cannot read $log" >&2; exit 2; }
if [ -z "$series" ]; then
	series=$(git -C "$(dirname "$0")" describe --always --dirty 2>/dev/null ||
		echo unknown)
fi

. "$(dirname "$0")/parse.sh"
jtsc_load "$log"
v() { jv "$1"; }
row() { printf '  %-24s %s\n' "$1" "$2"; }
ms() { awk -v u="$1" 'BEGIN{printf "%.2f ms", u/1000}'; }
secs() { awk -v u="$1" 'BEGIN{printf "%.3f s", u/1000000}'; }

if [ -z "$(v mode)" ]; then
	echo "report: no JTSC lines in $log (guest init never ran?)" >&2
	exit 1
fi

accel=$(v kernel.cmdline | sed -n 's/.*jtsc\.accel=\([a-z]*\).*/\1/p')
case $accel in
tcg) accel="QEMU TCG: guest times include the emulator" ;;
kvm) accel="QEMU KVM" ;;
*) accel="accelerator unknown" ;;
esac
echo "jitter_tsc guest report ($(v mode) mode; $accel)"
row "kernel" "$(v kernel.release) $(v kernel.version)"
row "series" "$series"
extra=$(v kernel.cmdline | tr ' ' '\n' | grep -v -e '^console=' -e '^random\.trust_' \
	-e '^panic=' -e '^jtsc\.accel=' -e '^$' | paste -sd ' ' -)
[ -z "$extra" ] || row "cmdline extras" "$extra"
row "CPU" "$(v cpu.model), $(v cpus.online) online; rdrand $(v cpu.flag.rdrand), rdseed $(v cpu.flag.rdseed); clocksource $(v clocksource)"

if [ "$(v crypto.jitter_tsc.count)" -gt 0 ] 2>/dev/null; then
	row "jitter_tsc" "registered: driver $(v crypto.jitter_tsc.driver), priority $(v crypto.jitter_tsc.priority), selftest $(v crypto.jitter_tsc.selftest)"
elif [ -n "$(v crypto.jitter_tsc.count)" ]; then
	row "jitter_tsc" "NOT registered: $(why_unregistered)"
fi

if [ "$(v klog.warnings)" != 0 ] && [ -n "$(v klog.warnings)" ]; then
	row "kernel warnings" "$(v klog.warnings) (taint $(v kernel.tainted)); first: $(v klog.first_warning)"
fi
if [ "$(v getrandom.ret)" = 32 ]; then
	row "getrandom() wait" "$(ms "$(v getrandom.wait_us)") (first blocking call from init; returned $(secs "$(v getrandom.boottime_end_us)") after boot)"
else
	row "getrandom() wait" "FAILED: ret $(v getrandom.ret) $(v getrandom.error)"
fi
[ "$(v getrandom.ready_at_start)" = 1 ] &&
	row "" "(crng was already ready when init started)"

if [ "$(v klog.crng_init_done)" = 1 ]; then
	when="after"
	awk -v a="$(v klog.crng_init_done_s)" -v b="$(v klog.run_init_s)" 'BEGIN{exit !(b != "" && a + 0 < b + 0)}' &&
		when="before"
	row "crng init done" "at $(v klog.crng_init_done_s) s (kernel log), $when init started at $(v klog.run_init_s) s"
else
	row "crng init done" "NOT in the kernel log"
fi
if [ -n "$(v klog.jitter_tsc_seeding)" ]; then
	waited=$(awk -v a="$(v klog.jitter_tsc_seeding_s)" -v b="$(v klog.initcalls_done_s)" \
		'BEGIN{if (a != "" && b != "") printf "%.1f ms", (a > b ? a - b : 0) * 1000}')
	row "init waited" "${waited:-?} past the last initcall ($(v klog.jitter_tsc_seeding))"
fi
credit=$(v klog.jitter_tsc_credited)
if [ -n "$credit" ]; then
	row "crng made ready by" "jitter_tsc: $credit"
elif [ "$(v klog.crng_init_done)" = 1 ]; then
	row "crng made ready by" "stock path (no jitter_tsc credit line in the log)"
fi

# debugfs stats: failures first, then one row per collector ("<name>.enabled")
if [ "$(v stats.present)" = 1 ]; then
	bad=$(for k in "${!J[@]}"; do
		case $k in stat.*fail*|stat.*err*)
			[ "${J[$k]}" = 0 ] || echo "${k#stat.}=${J[$k]}" ;;
		esac; done | sort | tr '\n' ' ')
	if [ -n "$bad" ]; then
		row "health tests" "FAILURES: $bad"
	else
		row "health tests" "no failures (active collector: $(v stat.active))"
	fi
	for c in $(for k in "${!J[@]}"; do case $k in stat.*.enabled)
			k=${k#stat.}; echo "${k%.enabled}" ;; esac; done | sort); do
		if [ "$(v "stat.$c.enabled")" != 1 ]; then
			row "  $c" "disabled"
			continue
		fi
		est=$(v "stat.$c.estimate_millibits")
		row "  $c" "$(v "stat.$c.samples") samples, $(v "stat.$c.bits_credited") bits credited"
		if [ "$(v "stat.$c.estimates")" = 0 ]; then
			row "" "not started (no startup test, no estimate)"
		else
			row "" "estimate $(awk -v m="$est" 'BEGIN{printf "%.3f", m / 1000}') bit per sample ($(v "stat.$c.estimator"), the median of three windows; $(v "stat.$c.estimates") estimate(s) this boot), credit $(v "stat.$c.credit_per_sample_256ths")/256 bit"
		fi
	done
else
	row "health tests" "no /sys/kernel/debug/jitter_tsc/stats (debugfs option off?)"
fi

# AF_ALG: one row per rng, sizes that worked and those that did not
for alg in $(for k in "${!J[@]}"; do case $k in afalg.*.bind)
		k=${k#afalg.}; echo "${k%.bind}" ;; esac; done | sort); do
	if [ "$(v "afalg.$alg.bind")" != ok ]; then
		row "AF_ALG $alg" "bind failed: $(v "afalg.$alg.bind")"
		continue
	fi
	good='' bad='' skip=''
	for n in 0 1 31 32 33 4096 65536; do
		r=$(v "afalg.$alg.read.$n")
		case $r in
		ok*) good="$good $n" ;;
		skipped*) skip="$skip $n" ;;
		"") ;;
		*) bad="$bad $n(${r%% *})" ;;
		esac
	done
	s="reads ok:${good:- none} B"
	[ -z "$bad" ] || s="$s; FAILED:$bad"
	[ -z "$skip" ] || s="$s; skipped (slow):$skip"
	big=$(v "afalg.$alg.read.65536")
	us=${big##*us=}
	[ -z "$big" ] || [ "${big%% *}" != ok ] ||
		s="$s; 64 KiB in $(ms "$us")"
	row "AF_ALG $alg" "$s"
done
for alg in $(for k in "${!J[@]}"; do case $k in afalg.*.sample)
		k=${k#afalg.}; echo "${k%.sample}" ;; esac; done | sort); do
	row "sample $alg" "$(v "afalg.$alg.sample") (32 B)"
done

# bench mode
for alg in $(for k in "${!J[@]}"; do case $k in bench.*.bytes_per_s)
		k=${k#bench.}; echo "${k%.bytes_per_s}" ;; esac; done | sort); do
	bps=$(v "bench.$alg.bytes_per_s")
	case $bps in
	[0-9]*) row "bench $alg" "$(awk -v b="$bps" 'BEGIN{printf "%10.1f KiB/s", b/1024}') ($(v "bench.$alg.bytes") B in $(ms "$(v "bench.$alg.us")"), $(v "bench.$alg.read_size") B reads)" ;;
	*) row "bench $alg" "$bps ($(v "bench.$alg.error"))" ;;
	esac
done
if [ -n "$(v dump.bytes)" ]; then
	row "raw dump" "$(v dump.bytes) B from $(v dump.src) in $(ms "$(v dump.us)") $(v dump.error)"
elif [ -n "$(v dump.error)" ]; then
	row "raw dump" "FAILED: $(v dump.error)"
fi

if [ ${#KLOG[@]} -gt 0 ]; then
	echo "  kernel log (crng/jitter_tsc lines):"
	printf '    %s\n' "${KLOG[@]}"
fi
[ -z "$kimage" ] || row "kernel image" "$kimage"
row "guest log" "$log"
[ "$(v "done")" = 1 ] || { row "WARNING" "guest did not finish (no JTSC done=1)"; exit 1; }
exit 0
