#!/bin/bash
# mem-table.sh LOG - the "jitter_tsc memory" table of `make bench`, from the
# console LOG of a guest booted with jtsc.mode=mem (init.c's run_mem()):
# vmalloc areas of jitter_tsc (their callers name its functions in
# /proc/vmallocinfo) and /proc/meminfo's VmallocUsed and Slab, right after
# boot, while two AF_ALG readers read and 10 s after they closed their
# sockets, beside the targets: no jitter_tsc buffer once the crng is ready,
# none once the readers are gone. A value the log lacks shows as n/a.
# A script of its own so that a saved log can be shown again: bench.sh calls it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
log=${1:?usage: mem-table.sh LOG}
. "$top/harness/guest/parse.sh"
jtsc_load "$log" 2>/dev/null

# kib TAG KEY SCALE: mem.TAG.KEY in KiB (SCALE: 1024 for bytes, 1 for kB)
kib() { awk -v x="$(jv "mem.$1.$2")" -v s="$3" 'BEGIN{ if (x == "" || x < 0) print "n/a"; else printf "%.0f", x / s }'; }
# areas TAG: "KiB (areas)" of jitter_tsc's vmalloc areas
areas() {
	local k
	k=$(kib "$1" jtsc_vmalloc_bytes 1024)
	[ "$k" = n/a ] && echo n/a || echo "$k ($(jv "mem.$1.jtsc_vmalloc_lines"))"
}
# met TAG: whether jitter_tsc holds no vmalloc area at TAG
met() {
	case $(jv "mem.$1.jtsc_vmalloc_bytes") in
	'') echo "not measured" ;;
	0) echo met ;;
	*) echo "NOT met" ;;
	esac
}
after=$(jv mem.closed.after_s)
printf '%-44s %12s %12s %12s\n' "jitter_tsc memory, TCG guest, KiB" "after boot" \
	"${J[mem.readers.count]:-2} readers" "${after:-10} s after"
printf '%-44s %12s %12s %12s\n' "  jitter_tsc's vmalloc areas (count)" "$(areas boot)" "$(areas readers)" "$(areas closed)"
printf '%-44s %12s %12s %12s\n' "    target" 0 - 0
for k in VmallocUsed:vmalloc_used_kb Slab:slab_kb; do
	printf '%-44s %12s %12s %12s\n' "  ${k%%:*} (whole guest)" "$(kib boot "${k#*:}" 1)" \
		"$(kib readers "${k#*:}" 1)" "$(kib closed "${k#*:}" 1)"
done
if [ -z "$(jv mem.boot.jtsc_vmalloc_bytes)" ]; then
	echo "  (no figures in $log: the guest's jtsc.mode=mem did not report)"
	exit 0
fi
echo "  Targets: no buffer after boot once the crng is ready ($(met boot)), none once the"
echo "  readers are gone ($(met closed)). Areas: /proc/vmallocinfo lines whose caller is a"
echo "  jitter_tsc function; a vmalloc'd buffer over 2 MiB is two (its pages, and its array"
echo "  of page pointers). After boot: init runs, the crng ready; readers: $(jv mem.readers.count) AF_ALG readers"
echo "  of jitter_tsc, one per vCPU, $(jv mem.readers.sample_ms) ms in ($(jv mem.readers.bytes) bytes read, $(jv mem.readers.errors) errors);"
echo "  then ${after:-?} s after both closed their sockets."
