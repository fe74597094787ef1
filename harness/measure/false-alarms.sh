#!/bin/sh
# false-alarms.sh - do jitter_tsc's health tests trip on a healthy source?
# Runs SAMPLES (default 10^8) raw samples of the kernel's speculative loop on
# the host CPU through the kernel's own health tests compiled in user space
# (health-host.c: crypto/jitter_tsc_core.c and jitter_tsc_estimate.c as they
# are, at the credit step the estimate of the first samples picks, as the
# kernel's startup test does), quiet and loaded (as host.sh: the build lock
# held; loaded, two xz -9 beside it), about a minute each.
# Then the sample files of the last host.sh and guest.sh runs, if any, through
# the tests of their collector. Prints the failure counts (and the first few
# failures) and the largest count of each test beside its cutoff; writes the
# host.spec.false_alarms and host_loaded.spec.false_alarms lines of
# harness/measure/results, and *.false_alarms lines for the files (timer
# samples of the host, both collectors' of the guest).
# usage: harness/measure/false-alarms.sh [SAMPLES]   (0: the files only)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-100000000}
. "$top/harness/measure/lib.sh"
build_tools health-host
out=$top/out/measure/health; mkdir -p "$out"
cpu=$(host_cpu)

# summary FILE: one line from health-host's output
summary() {
	awk '$1=="intermittent"{i=$2} $1=="permanent"{p=$2} $1=="samples"{n=$2} $1=="credit_256ths"{cr=$2}
		$1=="largest"{c[$2]=$3 "/" $5; if ($7 != "") { k=$7; gsub(/[^0-9]/, "", k); c[$2]=c[$2] (k > 64 ? " (difference " k - 63 ")" : k ? " (lag " k ")" : " (stuck)") }}
		END{printf "%s intermittent, %s permanent in %s samples at credit %s/256; largest count/cutoff: RCT run %s, APT %s, predictor run %s, predictor hits %s\n",
			i, p, n, cr, c["rct_run"], c["apt_count"], c["predictor_run"], c["predictor_hits"]}' "$1"
}

trap 'load_stop' EXIT INT TERM
if [ "$n" != 0 ]; then
	echo "false-alarms: $n samples of the kernel's loop through its health tests, quiet and loaded ($cpu); waiting for the build lock"
	exec 9> "$BUILD_LOCK"
	flock 9
	idle_wait
	"$M/health-host" -n "$n" > "$out/quiet.txt"
	load_start
	"$M/health-host" -n "$n" > "$out/loaded.txt"
	load_stop
	flock -u 9
	exec 9>&-
	for c in quiet loaded; do
		printf '  %-30s %s\n' "host $c, live" "$(summary "$out/$c.txt")"
		grep '^failure' "$out/$c.txt" | sed 's/^/    /' || :
	done
	set_results host.spec.false_alarms "$(summary "$out/quiet.txt") ($(date -u +%Y-%m-%d); $cpu)"
	set_results host_loaded.spec.false_alarms "$(summary "$out/loaded.txt") ($(date -u +%Y-%m-%d); $cpu)"
fi

# the samples host.sh and guest.sh kept, through the tests of their
# collector; recorded as KEY.false_alarms where a key is given (the host's
# speculative samples are covered by the live runs above)
m=$top/out/measure
for f in host/quiet-spec:spec: host/loaded-spec:spec: host/quiet-timer:timer:host.timer \
	host/loaded-timer:timer:host_loaded.timer guest-raw/spec_raw:spec:guest.spec \
	guest-raw/timer_raw:timer:guest.timer; do
	IFS=: read -r path coll key <<-EOT
	$f
	EOT
	[ -s "$m/$path.bin" ] || continue
	"$M/health-host" -s "$coll" -f "$m/$path.bin" > "$out/file.txt"
	printf '  %-30s %s\n' "$path.bin" "$(summary "$out/file.txt")"
	grep '^failure' "$out/file.txt" | head -5 | sed 's/^/    /' || :
	[ -z "$key" ] || set_results "$key.false_alarms" \
		"$(summary "$out/file.txt") (out/measure/$path.bin of $(date -u -r "$m/$path.bin" +%Y-%m-%dT%H:%MZ))"
done
