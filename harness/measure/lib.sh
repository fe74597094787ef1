# lib.sh - shared helpers of the measurement scripts (sourced, not run):
# build the measurement tools into build/measure and edit harness/measure/results.
top=${top:-$(cd "$(dirname "$0")/../.." && pwd)}
M=$top/build/measure
RESULTS=$top/harness/measure/results
CFLAGS_TOOLS="-O2 -Wall -Wextra -Werror"

# build_tools [TOOL...]: build the tools named (default: all three) if stale
build_tools() {
	mkdir -p "$M"
	command -v gcc >/dev/null || { apt-get update -qq && apt-get install -y -qq gcc libc6-dev >/dev/null; }
	[ $# -gt 0 ] || set -- ea_noniid host-spec host-timer
	for t in "$@"; do
		src=$top/harness/measure/$t.c
		[ "$M/$t" -nt "$src" ] && [ "$M/$t" -nt "$top/arch/x86/include/asm/tsc_jitter.h" ] && continue
		case $t in
		ea_noniid) gcc $CFLAGS_TOOLS -o "$M/$t" "$src" -lm ;;
		# the kernel's own loop: -mno-popcnt keeps the software popcount
		host-spec) gcc $CFLAGS_TOOLS -mno-popcnt -idirafter "$top/arch/x86/include" -o "$M/$t" "$src" ;;
		host-timer) gcc $CFLAGS_TOOLS -pthread -o "$M/$t" "$src" ;;
		esac
	done
}

host_cpu() {
	m=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	grep -q '^flags.* hypervisor' /proc/cpuinfo && m="$m (in a VM)"
	echo "$m"
}

# median: the median of the numbers on standard input, one a line
median() { sort -g | awk '{a[n++]=$1} END{if (n) print (n%2) ? a[int(n/2)] : (a[n/2-1]+a[n/2])/2}'; }

# ea_min FILE / ea_which FILE: minimum and its estimator from ea_noniid output
ea_min() { awk '/^H_min/{print $2}' "$1"; }
ea_which() { sed -n 's/.*bits\/sample (\(.*\))$/\1/p' "$1" | tail -1; }

# set_hmin PREFIX EAFILE: PREFIX.h_min, PREFIX.h_min_estimator from this run,
# and PREFIX.h_min_lowest, the lowest of all runs so far (delete that line
# by hand when the collector's code changes)
set_hmin() {
	h=$(ea_min "$2")
	[ -n "$h" ] || return 0
	set_results "$1.h_min" "$h"
	set_results "$1.h_min_estimator" "$(ea_which "$2")"
	old=$(awk -v k="$1.h_min_lowest" '$1==k{print $2}' "$RESULTS" 2>/dev/null)
	if [ -z "$old" ] || awk -v a="$h" -v b="$old" 'BEGIN{exit !(a < b)}'; then
		set_results "$1.h_min_lowest" "$h ($(date -u +%Y-%m-%d), $(ea_which "$2"))"
	fi
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
