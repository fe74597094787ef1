#!/bin/bash
# soak.sh [N] - `make soak`: boot the guest kernel N times (default 20) under
# QEMU TCG and check that jitter_tsc's health tests never trip on it. In
# every boot: the guest finishes; jitter_tsc is registered with its crypto
# selftest passed; the debugfs stats show no intermittent or permanent
# failure and no failed flag; the console has no health-test failure line
# (the startup test's included); a 64 KiB AF_ALG read of jitter_tsc works
# (init's report mode). The stats are read before the AF_ALG reads; a
# failure during those shows as a console line, which is checked. Prints one
# line per boot (samples tested: those counted at the stats read plus those
# behind the AF_ALG output, 8 x oversample x 256 / credit a byte) and a summary,
# which goes to harness/measure/results as guest.soak; exits 1 if any boot
# fails a check.
# Logs in out/soak/. Env: KERNEL (default the guest bzImage), JTSC_BOOT_TIMEOUT.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
g=$top/harness/guest
n=${1:-20}
kernel=${KERNEL:-$top/build/obj-guest/arch/x86/boot/bzImage}
out=$top/out/soak; mkdir -p "$out"
[ -r "$kernel" ] || { echo "soak: no kernel at $kernel (make kernel)" >&2; exit 2; }
# every boot the same kernel, even if it is rebuilt meanwhile
kdate=$(date -u -r "$kernel" +%Y-%m-%dT%H:%MZ)
cp "$kernel" "$out/bzImage" && kernel=$out/bzImage
. "$g/parse.sh"
. "$top/harness/measure/lib.sh"
"$g/mkinitramfs.sh" "$out/initramfs.cpio" || exit 1
ov=$(python3 "$top/harness/measure/check-cutoffs.py" --params | awk '$1=="oversample"{print $2}')

bad=0 samples=0 whys=
printf '%-5s %-6s %-9s %-28s %-10s %s\n' boot result selftest "stats failures (int/perm)" "samples" "AF_ALG 64 KiB read"
for i in $(seq 1 "$n"); do
	log=$out/boot-$i.log
	why=
	if ! "$g/boot.sh" "$kernel" "$out/initramfs.cpio" "$log" jtsc.algs=jitter_tsc jtsc.slow_ms=0 2>/dev/null; then
		why="boot failed"
	fi
	jtsc_load "$log"
	st=$(jv crypto.jitter_tsc.selftest)
	fails='' s=0
	for c in speculative timer; do
		fails="$fails${fails:+, }$c $(jv "stat.$c.intermittent_failures")/$(jv "stat.$c.permanent_failures")"
		[ "$(jv "stat.$c.intermittent_failures")" = 0 ] && [ "$(jv "stat.$c.permanent_failures")" = 0 ] ||
			why="${why:+$why; }$c failures in stats"
		s=$((s + $(jv "stat.$c.samples" | tr -cd 0-9) + 0))
	done
	[ "$st" = passed ] || why="${why:+$why; }selftest ${st:-missing}"
	[ "$(jv stats.present)" = 1 ] || why="${why:+$why; }no debugfs stats"
	[ "$(jv stat.failed)" = 0 ] || why="${why:+$why; }failed flag $(jv stat.failed)"
	hl=$(grep -aE 'jitter_tsc: .*(health-test failure|health test failed)' "$log" | head -1 | sed 's/^\[[^]]*\] //')
	[ -z "$hl" ] || why="${why:+$why; }$hl"
	rd=$(jv afalg.jitter_tsc.read.65536)
	[ "${rd%% *}" = ok ] || why="${why:+$why; }AF_ALG read: ${rd:-missing}"
	# the samples behind the AF_ALG output of the active collector
	cr=$(jv "stat.$(jv stat.active).credit_per_sample_256ths")
	got=$(for k in "${!J[@]}"; do case $k in afalg.jitter_tsc.read.*)
		echo "${J[$k]}" | sed -n 's/.*got=\([0-9]*\).*/\1/p' ;; esac; done | awk '{t += $1} END{print t + 0}')
	[ -z "$cr" ] || [ "$cr" = 0 ] || s=$((s + got * 8 * ${ov:-2} * 256 / cr))
	samples=$((samples + s))
	printf '%-5s %-6s %-9s %-28s %-10s %s\n' "$i" "$([ -z "$why" ] && echo ok || echo FAIL)" "${st:-?}" \
		"$fails" "$s" "${rd%% *}"
	[ -z "$why" ] || { bad=$((bad + 1)); whys="$whys$why"$'\n'; echo "      $why (log: $log)"; }
done
sum="$n boots, $((n - bad)) clean, $bad with a failure; $samples raw samples health tested"
echo "soak: $sum"
# the failures, most frequent first: "6 x why"
top_whys=$(printf '%s' "$whys" | sed 's/^\[[^]]*\] //' | sort | uniq -c | sort -rn |
	awk '{c=$1; $1=""; printf "%s%d x%s", (NR>1 ? "; " : ""), c, $0}')
set_results guest.soak "$sum${top_whys:+ ($top_whys)} ($(date -u +%Y-%m-%d), the guest kernel of $kdate; TCG on $(host_cpu))"
[ "$bad" = 0 ]
