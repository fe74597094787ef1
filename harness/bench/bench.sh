#!/bin/bash
# bench.sh - `make bench`: the jitter_tsc benchmark, one command, one run.
# Measures, on this machine (guests run under QEMU TCG):
#   - time to the first blocking getrandom() at boot and the kernel-log times of
#     "crng init done" and "Run /init", stock path (random.trust_jitter_tsc=off
#     jitter_tsc.collectors=none) vs jitter_tsc, median/min/max of BENCH_BOOTS
#     (default 5) boots each, same kernel; with initcall_debug: jitter_tsc's
#     initcalls beside jent_mod_init, and how long before the last initcall its
#     async startup tests and the seeding were done;
#   - AF_ALG throughput of jitter_tsc, jitterentropy_rng and stdrng, each
#     guest reading all three, in BENCH_AFALG_GUESTS (default 3) guests; in
#     the same guests, jitter_tsc and jitterentropy_rng with 1 and with 2
#     readers at once (one per vCPU), and random.c's pull (debugfs pull_ns,
#     timed in the kernel) alone and with an AF_ALG reader on the other vCPU;
#   - raw rate and SP 800-90B min-entropy per raw sample (one byte, the low
#     byte of a counter delta) of each collector, on the host CPU quiet and
#     loaded (harness/measure/host.sh: the kernel's loop and the timer
#     analogue, one run each; its variants are taken from the results, where
#     host.sh last put them, unless BENCH_VARIANTS=1) and in the guest
#     (guest.sh raw), beside the kernel's own runtime estimate of the same
#     samples and the credit it picks, and the throughput ceiling that the
#     collector's rate and the guest's credit set;
#   - the machine code of the speculative loop, kernel and user space, in the
#     order the header describes (harness/measure/loop-check.sh), and the walk
#     run twice (cross-run.sh);
#   - natively, jitter_tsc's loop, core and block path beside Linux 6.12's
#     jitterentropy compiled unchanged (peer.c), quiet and loaded;
#   - memory held by jitter_tsc (its vmalloc areas in /proc/vmallocinfo, and
#     /proc/meminfo's VmallocUsed and Slab) right after boot, while two AF_ALG
#     readers read and 10 s after they closed their sockets (one guest,
#     jtsc.mode=mem; mem-table.sh prints its table);
#   - rngtest/dieharder counts on conditioned output (quality.sh);
#   - pictures: raw vs conditioned samples, histograms of the raw samples (PNG).
# Prints an aligned table; writes out/bench/results.txt, out/bench/table.md,
# harness/bench/latest.txt (the copy the README includes), and out/bench/*.png.
# Env: BENCH_BOOTS, BENCH_AFALG_GUESTS, BENCH_TIMER_MS (guest timer_raw budget, default 90000),
#      BENCH_QUALITY_BYTES (default 1048576; 0 skips quality), BENCH_VARIANTS, KERNEL.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
out=$top/out/bench; mkdir -p "$out"
kernel=${KERNEL:-$top/build/obj-guest/arch/x86/boot/bzImage}
boots=${BENCH_BOOTS:-5}
T0=$(date +%s)
step() { printf '[%4ds] %s\n' $(( $(date +%s) - T0 )) "$*"; }

for p in gnuplot:gnuplot-nox pnmtopng:netpbm python3:python3 cpio:cpio; do
	command -v "${p%%:*}" >/dev/null || apt-get install -y -q "${p#*:}" >/dev/null ||
		{ apt-get update -q >/dev/null && apt-get install -y -q "${p#*:}" >/dev/null; }
done
if [ ! -r "$kernel" ]; then
	step "no guest kernel yet: make kernel"
	make -C "$top" -s kernel || { echo "bench: cannot build the guest kernel" >&2; exit 1; }
fi
build_tools

# ---- 1. host CPU: the collector loops in user space
hv=none mins=5; [ "${BENCH_VARIANTS:-0}" = 1 ] && hv='' mins=13
step "host: collector loops on $(host_cpu), quiet and loaded (about $mins minutes)"
HOST_SPEC_RUNS=1 HOST_VARIANT_RUNS=1 HOST_VARIANTS=$hv "$top/harness/measure/host.sh" > "$out/host.log" 2>&1 ||
	{ cat "$out/host.log"; exit 1; }
"$top/harness/measure/loop-check.sh" > "$out/loops.txt" 2>&1
# "guest kernel ok, user space ok", or what is wrong
loops=$(sed -n 's/^loop-check: \(guest kernel\|user space\): \(ok\).*/\1 \2/p; s/^loop-check: \(guest kernel\|user space\): /\1 NOT: /p' \
	"$out/loops.txt" | paste -sd ';' - | sed 's/;/, /')
[ -n "$loops" ] || loops="loop-check failed: $(tail -1 "$out/loops.txt")"
"$top/harness/measure/cross-run.sh" > "$out/cross-run.txt" 2>&1 || :

# ---- 1b. natively, beside Linux 6.12's jitterentropy (harness/measure/peer.c:
# the base's jitterentropy.c compiled unchanged, our core and block path),
# alternating in one run on one CPU, quiet and loaded, under the build lock
step "host: jitter_tsc beside jitterentropy 6.12, natively, quiet and loaded"
build_tools peer
(
	exec 9> "$BUILD_LOCK"; flock 9
	trap load_stop EXIT
	idle_wait
	"$M/peer" -r "${BENCH_PEER_ROUNDS:-7}" -b 64 -c 0 > "$out/peer-quiet.txt"
	load_start
	"$M/peer" -r "${BENCH_PEER_ROUNDS:-7}" -b 64 -c 0 > "$out/peer-loaded.txt"
) || echo "bench: peer failed" >&2

# ---- 2. boots (a boot where jitter_tsc did not register is counted apart): getrandom wait and "crng init done", stock vs jitter_tsc
"$top/harness/guest/mkinitramfs.sh" "$out/initramfs.cpio" || exit 1
: > "$out/boots.txt"
for i in $(seq 1 "$boots"); do
	for v in stock jtsc; do
		extra=; [ $v = stock ] && extra="random.trust_jitter_tsc=off jitter_tsc.collectors=none"
		log=$out/boot-$v-$i.log
		# shellcheck disable=SC2086
		"$top/harness/guest/boot.sh" "$kernel" "$out/initramfs.cpio" "$log" \
			jtsc.mode=bench jtsc.algs=stdrng jtsc.bench_ms=10 initcall_debug log_buf_len=1M \
			$extra 2>/dev/null ||
			{ echo "bench: boot $v $i failed (log $log)" >&2; continue; }
		us=$(sed -n 's/.*JTSC getrandom.wait_us=\([0-9]*\).*/\1/p' "$log" | head -1)
		crng=$(sed -n 's/^\[ *\([0-9.]*\)\] random: crng init done.*/\1/p' "$log" | head -1)
		# jv-like lookups of the guest's JTSC key=value lines
		g() { sed -n "s/.*JTSC $1=\([0-9.]*\).*/\1/p" "$log" | head -1; }
		more="$(g getrandom.ready_at_start) $(g klog.run_init_s) $(g klog.initcall.jtsc_mod_init_us)"
		more="$more $(g klog.initcall.random_jitter_tsc_init_us) $(g klog.initcall.jent_mod_init_us)"
		# the async work's end (the later of jitter_tsc's setup and crng init done), ms before the last initcall
		more="$more $(awk -v a="$(g klog.jitter_tsc_setup_s)" -v c="$crng" -v l="$(g klog.initcalls_done_s)" \
			'BEGIN{ if (a == "" || l == "") { print "NA"; exit } e = (c != "" && c + 0 > a + 0) ? c : a
				print (l - e) * 1000 }')"
		if [ $v = jtsc ] && ! grep -q 'jitter_tsc: ready' "$log"; then
			step "boot $i/$boots $v: jitter_tsc did not register: $(sed -n 's/^\[[^]]*\] jitter_tsc: //p' "$log" | head -1)"
			echo "jtsc-unregistered $i ${us:-NA} ${crng:-NA}" >> "$out/boots.txt"
			continue
		fi
		# shellcheck disable=SC2086 # $more: fields, NA where missing
		echo "$v $i ${us:-NA} ${crng:-NA} $(for f in $more; do printf '%s ' "${f:-NA}"; done)" >> "$out/boots.txt"
		step "boot $i/$boots $v: getrandom waited $(awk -v u="${us:-0}" 'BEGIN{printf "%.1f", u/1000}') ms, crng init done at ${crng:-?} s"
	done
done
# stats V COLUMN SCALE: "median min max" of column COLUMN for variant V
stats() {
	awk -v v="$1" -v c="$2" '$1==v && $c!="NA"{print $c}' "$out/boots.txt" | sort -g |
	awk -v s="$3" '{a[n++]=$1*s} END{if(!n){print "NA NA NA"; exit}
		m=(n%2)?a[int(n/2)]:(a[n/2-1]+a[n/2])/2; printf "%.2f %.2f %.2f %d\n", m, a[0], a[n-1], n}'
}
read -r gs_med gs_min gs_max gs_n <<< "$(stats stock 3 0.001)"
read -r gj_med gj_min gj_max gj_n <<< "$(stats jtsc 3 0.001)"
read -r cs_med cs_min cs_max _ <<< "$(stats stock 4 1000)"
read -r cj_med cj_min cj_max _ <<< "$(stats jtsc 4 1000)"
read -r rs_med rs_min rs_max _ <<< "$(stats stock 6 1000)"
read -r rj_med rj_min rj_max _ <<< "$(stats jtsc 6 1000)"
read -r ij_med ij_min ij_max _ <<< "$(stats jtsc 7 1)"
read -r sj_med sj_min sj_max _ <<< "$(stats jtsc 8 1)"
read -r es_med _ _ _ <<< "$(stats stock 9 0.001)"
read -r ej_med _ _ _ <<< "$(stats jtsc 9 0.001)"
read -r aj_med aj_min aj_max _ <<< "$(stats jtsc 10 1)"
ready_s=$(awk '$1=="stock" && $5==1' "$out/boots.txt" | wc -l)
ready_j=$(awk '$1=="jtsc" && $5==1' "$out/boots.txt" | wc -l)

# uses of the crng before it was ready: an instrumented copy of the kernel
step "boots of an instrumented kernel: uses of the crng before it was ready"
unseeded=$("$top/harness/guest/unseeded.sh" 2>&1 | sed -n 's/^uses of the crng before it was ready: //p')
step "  ${unseeded:-failed (out/unseeded/)}"

# ---- 3. AF_ALG throughput: BENCH_AFALG_GUESTS guests (default 3), each
# reading jitter_tsc, jitterentropy_rng and stdrng in turn. The ratio to
# jitterentropy_rng is taken inside each guest (both pay the same emulated
# TSC); it differs between guests, so every guest's ratio is printed and the
# guest with the median ratio gives the figures of the table.
guests=${BENCH_AFALG_GUESTS:-3}
: > "$out/afalg.txt"
bps() { sed -n "s/.*JTSC bench\.$2\.bytes_per_s=\([0-9]*\).*/\1/p" "$1" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a=="" || b=="" || b+0==0) print "n/a"; else printf "%.1fx", a/b }'; }
for g in $(seq 1 "$guests"); do
	log=$out/bench-afalg-$g.log
	step "guest $g/$guests: AF_ALG throughput of jitter_tsc, jitterentropy_rng, stdrng (3 s each)"
	# a second try if jitter_tsc did not register (its counter check can fail under host load)
	for try in 1 2; do
		"$top/harness/guest/boot.sh" "$kernel" "$out/initramfs.cpio" "$log" \
			jtsc.mode=bench jtsc.bench_ms=3000 2>/dev/null || echo "bench: throughput boot $g failed ($log)" >&2
		grep -q 'jitter_tsc: ready' "$log" && break
		[ $try = 2 ] || step "  jitter_tsc did not register in that guest; once more"
	done
	a=$(bps "$log" jitter_tsc) b=$(bps "$log" jitterentropy_rng) x=$(ratio "$a" "$b")
	[ "$x" != n/a ] || continue
	echo "$g ${x%x} $a $b" >> "$out/afalg.txt"
	step "  jitter_tsc $a B/s, jitterentropy_rng $b B/s: $x"
	step "  two readers vs one: jitter_tsc $(ratio "$(bps "$log" jitter_tsc.readers2)" "$(bps "$log" jitter_tsc.readers1)"), jitterentropy_rng $(ratio "$(bps "$log" jitterentropy_rng.readers2)" "$(bps "$log" jitterentropy_rng.readers1)")"
done
# the guest with the median ratio (the lower middle one of an even count)
mg=$(sort -k2,2g "$out/afalg.txt" | awk '{g[n++]=$1} END{if (n) print g[int((n-1)/2)]}')
ratios=$(sort -k2,2g "$out/afalg.txt" | awk '{printf "%s%sx", (NR>1?" ":""), $2}')
[ -n "$mg" ] && cp "$out/bench-afalg-$mg.log" "$out/bench-afalg.log" ||
	cp "$out/bench-afalg-1.log" "$out/bench-afalg.log" 2>/dev/null
t_j=$(bps "$out/bench-afalg.log" jitter_tsc); t_e=$(bps "$out/bench-afalg.log" jitterentropy_rng)
t_s=$(bps "$out/bench-afalg.log" stdrng)
active=$(sed -n 's/.*jitter_tsc: ready, drawing on the \([a-z]*\) collector.*/\1/p' "$out/bench-afalg.log" | head -1)
why=$(sed -n 's/^\[[^]]*\] jitter_tsc: \(all collectors disabled: .*\)/\1/p' "$out/bench-afalg.log" | head -1)
[ -n "$active" ] || [ -z "$why" ] || { active=none; step "  jitter_tsc did not register in this guest: $why"; }

# ---- 3b. memory held by jitter_tsc: after boot, with two readers, 10 s after
step "guest: memory held by jitter_tsc after boot, with 2 AF_ALG readers, 10 s after them"
for try in 1 2; do
	"$top/harness/guest/boot.sh" "$kernel" "$out/initramfs.cpio" "$out/bench-mem.log" jtsc.mode=mem 2>/dev/null ||
		echo "bench: memory boot failed ($out/bench-mem.log)" >&2
	grep -q 'jitter_tsc: ready' "$out/bench-mem.log" && break
	[ $try = 2 ] || step "  jitter_tsc did not register in that guest; once more"
done
mkb() { sed -n "s/.*JTSC mem\.$1\.jtsc_vmalloc_bytes=\([0-9]*\).*/\1/p" "$out/bench-mem.log" | head -1; }
step "  jitter_tsc vmalloc bytes: after boot $(mkb boot), readers $(mkb readers), after them $(mkb closed)"

# ---- 4. raw samples from the guest kernel (debugfs), estimated
step "guest: raw samples of both collectors via debugfs (timer budget ${BENCH_TIMER_MS:-90000} ms)"
for try in 1 2; do
	JTSC_TIMER_MS=${BENCH_TIMER_MS:-90000} "$top/harness/measure/guest.sh" raw > "$out/guest-raw.log" 2>&1 && break
	tail -3 "$out/guest-raw.log"; echo "bench: raw dump failed (try $try)" >&2
done
grep -E 'progress|estimating' "$out/guest-raw.log" | tail -3 | sed 's/^/        /'
gr=$top/out/measure/guest-raw
[ -n "$active" ] || active=$(awk '$1=="active"{print $2}' "$gr/stats.bin" 2>/dev/null)

# ---- 4b. the arm64 guest, where `make check` built it (build/obj-arm64): raw
# timer samples (guest.sh raw) and one AF_ALG boot, jitter_tsc against its
# jitterentropy_rng; its KUnit suite runs at boot first (about 90 s)
a64=$top/build/obj-arm64/arch/arm64/boot/Image
a64_j='' a64_e='' a64_cred=''
if [ -r "$a64" ]; then
	step "arm64 guest: raw timer samples via debugfs, then AF_ALG throughput"
	JTSC_ARCH=arm64 "$top/harness/measure/guest.sh" raw > "$out/guest-raw-arm64.log" 2>&1 ||
		{ tail -3 "$out/guest-raw-arm64.log"; echo "bench: arm64 raw dump failed" >&2; }
	JTSC_ARCH=arm64 "$top/harness/guest/mkinitramfs.sh" "$out/initramfs-arm64.cpio" > /dev/null &&
		JTSC_ARCH=arm64 JTSC_BOOT_TIMEOUT=900 "$top/harness/guest/boot.sh" "$a64" "$out/initramfs-arm64.cpio" \
			"$out/bench-afalg-arm64.log" jtsc.mode=bench jtsc.bench_ms=3000 \
			jtsc.algs=jitter_tsc,jitterentropy_rng 2>/dev/null ||
		echo "bench: arm64 throughput boot failed ($out/bench-afalg-arm64.log)" >&2
	a64_j=$(bps "$out/bench-afalg-arm64.log" jitter_tsc) a64_e=$(bps "$out/bench-afalg-arm64.log" jitterentropy_rng)
	a64_cred=$(sed -n "s/.*JTSC stat\.timer\.credit_per_sample_256ths=\([0-9]*\).*/\1/p" "$out/bench-afalg-arm64.log" | head -1)
	step "  arm64: jitter_tsc ${a64_j:-?} B/s, jitterentropy_rng ${a64_e:-?} B/s, timer credit ${a64_cred:-?}/256"
fi

# ---- 5. conditioned output: rngtest + dieharder
# 1 MiB: at the 2 to 13 kB/s of the TCG guests since the fixed walk,
# 8 MiB no longer fits guest.sh's 15-minute boot budget
qb=${BENCH_QUALITY_BYTES:-1048576}
if [ "$qb" != 0 ]; then
	step "guest: $qb bytes of jitter_tsc output via AF_ALG, then rngtest and dieharder"
	for try in 1 2; do
		JTSC_DUMP_BYTES=$qb "$top/harness/measure/guest.sh" afalg > "$out/guest-afalg.log" 2>&1 && break
		tail -2 "$out/guest-afalg.log"; echo "bench: AF_ALG dump failed (try $try)" >&2
	done
	cond=$top/out/measure/guest-afalg/afalg_jitter_tsc.bin
	[ -s "$cond" ] && "$top/harness/measure/quality.sh" "$cond" "jitter_tsc via AF_ALG, TCG guest" > "$out/quality.txt" 2>&1
fi
cond=$top/out/measure/guest-afalg/afalg_jitter_tsc.bin

# ---- 6. pictures
step "pictures"
"$top/harness/bench/pictures.sh" "$out" "$gr" "$cond" "$top/out/measure" > "$out/pictures.log" 2>&1 ||
	{ tail -5 "$out/pictures.log"; echo "bench: pictures failed" >&2; }

# ---- 7. code size: crypto/jitter_tsc_*.o of the bench kernel (debugfs option on),
# and the same object rebuilt from that .config with the option off (about 10 s)
step "code size of crypto/jitter_tsc_*.o, with and without the debugfs option"
kobj=${kernel%/arch/x86/boot/bzImage} nodbg=$top/build/obj-size
if [ -f "$kobj/.config" ] && [ -d "$top/build/linux" ]; then
	rm -rf "$nodbg"; mkdir -p "$nodbg"; cp "$kobj/.config" "$nodbg/.config"
	# a kernel build: under the shared build lock, as every build here
	(cd "$top/build/linux" && ./scripts/config --file "$nodbg/.config" -d CRYPTO_JITTER_TSC_DEBUGFS &&
		flock "$BUILD_LOCK" sh -c "make -s O='$nodbg' olddefconfig && make -s -j2 O='$nodbg' crypto/jitter_tsc_core.o crypto/jitter_tsc_estimate.o crypto/jitter_tsc_kcapi.o") \
		> "$out/size.log" 2>&1 ||
		echo "bench: the size build failed ($out/size.log)" >&2
fi
# the module's three objects added up (built in, Kbuild links no jitter_tsc.o)
objsize() { size "$1"/crypto/jitter_tsc_core.o "$1"/crypto/jitter_tsc_estimate.o "$1"/crypto/jitter_tsc_kcapi.o \
	2>/dev/null | awk 'NR>1{t+=$1; d+=$2; b+=$3; n++} END{if (n == 3) printf "text %d, data %d, bss %d bytes", t, d, b}'; }
size_on=$(objsize "$kobj"); size_off=$(objsize "$nodbg")
cc_ver=$(gcc -dumpfullversion 2>/dev/null)

# ---- 8. the table
# The commit measured; "-dirty" when the kernel code (what the figures are
# of) differs from it: readme-table.sh check then fails in make check.
rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$top" diff --quiet HEAD -- arch crypto drivers include lib 2>/dev/null || rev=$rev-dirty
r() { awk -v k="$1" '$1==k{$1=""; sub(/^ /,""); print; exit}' "$RESULTS"; }
params=$(python3 "$top/harness/measure/check-cutoffs.py" --params 2>/dev/null)
oversample=$(echo "$params" | awk '$1=="oversample"{print $2}')
fmt() { awk -v x="$1" 'BEGIN{ if (x=="" || x=="NA") print "n/a"; else if (x+0>=1e6) printf "%.2f M", x/1e6; else if (x+0>=1e3) printf "%.1f k", x/1e3; else printf "%.0f", x }'; }
# ceiling, bytes/s: 1e9 / (ns per raw sample * raw samples per output bit * 8)
ceiling() { awk -v ns="$1" -v c="$2" -v o="$oversample" 'BEGIN{ if (ns=="" || c=="" || c+0==0) print ""; else printf "%.0f", 1e9 / (ns * (o / c) * 8) }'; }
# credits: those the guest's startup tests chose (debugfs stats of the throughput guest)
gcred() { sed -n "s/.*JTSC stat\.$1\.credit_per_sample_256ths=\([0-9]*\).*/\1/p" "$out/bench-afalg.log" | head -1 |
	awk '{ if ($1 + 0 > 0) printf "%.6f", $1 / 256 }'; }
sc=$(gcred speculative); tc=$(gcred timer)
ceil_spec=$(ceiling "$(r guest.spec.ns_per_sample)" "$sc")
ceil_timer=$(ceiling "$(r guest.timer.ns_per_sample)" "$tc")
# The ceiling that counts is the active collector's own rate in the
# throughput guest itself: the nanoseconds jitter_tsc spent in the collector
# per raw sample while it served the reads (debugfs stats, before and after).
inrun() { sed -n "s/.*JTSC bench\.jitter_tsc\.$1\.$2=\([0-9]*\).*/\1/p" "$out/bench-afalg.log" | head -1; }
ns_run=$(awk -v n="$(inrun "$active" collect_ns)" -v s="$(inrun "$active" samples)" \
	'BEGIN{ if (n != "" && s+0 > 0) printf "%.2f", n / s }')
c_act=$sc; [ "$active" = timer ] && c_act=$tc
ceil=$(ceiling "$ns_run" "$c_act")
ceil_from="the collector alone: $ns_run ns/sample in this guest"
if [ -z "$ceil" ]; then
	ceil=$ceil_spec; [ "$active" = timer ] && ceil=$ceil_timer
	ceil_from="no in-run rate; from the debugfs read rate below"
fi
hcpu=$(r host.cpu)
kver=$(file -b "$kernel" 2>/dev/null | sed -n 's/.*version \([^,]*\),.*/\1/p')
low() { r "$1.h_min_lowest" | awk '{print $1}'; }
{
echo "jitter_tsc bench, $(date -u '+%Y-%m-%d %H:%M UTC'), series $rev"
echo "Guests: QEMU TCG, -cpu qemu64,-rdrand,-rdseed -smp 2, HZ=250, same kernel both ways:"
echo "  ${kernel#"$top"/}, $kver."
echo "Host: $hcpu."
echo
printf '%-44s %22s %22s\n' "Boot (${gs_n:-0} + ${gj_n:-0} boots)" "stock path" "jitter_tsc"
printf '%-44s %22s %22s\n' "blocking getrandom() wait, ms: median" "$gs_med" "$gj_med"
printf '%-44s %22s %22s\n' "                              min / max" "$gs_min / $gs_max" "$gj_min / $gj_max"
printf '%-44s %22s %22s\n' "\"crng init done\" in kernel log, ms: median" "$cs_med" "$cj_med"
printf '%-44s %22s %22s\n' "                              min / max" "$cs_min / $cs_max" "$cj_min / $cj_max"
printf '%-44s %22s %22s\n' "crng ready when init starts, boots" "$ready_s of ${gs_n:-0}" "$ready_j of ${gj_n:-0}"
printf '%-44s %22s %22s\n' "\"Run /init\" in kernel log, ms: median" "$rs_med" "$rj_med"
printf '%-44s %22s %22s\n' "                              min / max" "$rs_min / $rs_max" "$rj_min / $rj_max"
printf '%-44s %22s %22s\n' "initcall_debug, us: jtsc_mod_init, median" "-" "$ij_med"
printf '%-44s %22s %22s\n' "                random_jitter_tsc_init" "-" "$sj_med"
printf '%-44s %22s %22s\n' "  jent_mod_init, same boots, ms: median" "$es_med" "$ej_med"
printf '%-44s %22s %22s\n' "async startup tests + seeding done, ms" "-" "$aj_med"
printf '%-44s %22s %22s\n' "  before the last initcall: median (min)" "" "(min $aj_min)"
echo "  stock path: random.trust_jitter_tsc=off jitter_tsc.collectors=none, same kernel. The"
echo "  initcalls' times are from their initcall_debug lines' printk timestamps; before"
echo "  fs_initcall() the kernel's own figure has jiffy (4 ms) steps. The start of init waits"
echo "  for async work only past the last initcall, so a positive margin means no wait."
hs=$(r host.spec.ns_per_sample)
# the runtime estimate of one startup test, on this CPU: ea-core is the kernel's code
est_ms=$([ -s "$top/out/measure/host/quiet-spec.bin" ] && "$M/ea-core" -n 12288 "$top/out/measure/host/quiet-spec.bin" |
	awk '$1=="ms"{print $2}')
[ -z "$hs" ] || [ -z "$est_ms" ] ||
	echo "  On the host CPU: $(awk -v s="$hs" -v e="$est_ms" 'BEGIN{printf "%.1f ms at boot: (12288 + 4096) x %.0f ns of startup and seeding samples and %.1f ms of runtime estimate", ((12288 + 4096) * s) / 1e6 + e, s, e}'), async."
[ -z "$unseeded" ] || echo "  Instrumented copy of the kernel (harness/guest/unseeded.sh), one boot each: $unseeded."
un=$(grep -c '^jtsc-unregistered' "$out/boots.txt")
[ "$un" = 0 ] || echo "  ($un jitter_tsc boot(s) left out: the collector check disabled jitter_tsc, see out/bench/boot-jtsc-*.log)"
echo
# peer COND LABEL: "median (min - max)" of a line of peer's summary
peer() { awk -v l="$2" 'index($0, l) == 3 { v = $0; sub(/.*  +/, "", v); sub(l, "", $0)
	n = split($0, f, " "); print f[n - 3], f[n - 2], f[n - 1], f[n] }' "$out/peer-$1.txt"; }
# three significant digits: "median (min-max)"
pfmt() { awk '{ gsub(/[()]/, ""); if (NF == 4) printf "%.3g (%.3g-%.3g)", $1, $2, $4 }'; }
prow() { printf '  %-34s %20s %20s\n' "$1" "$(peer quiet "$2" | pfmt)" "$(peer loaded "$2" | pfmt)"; }
printf '%-36s %20s %20s\n' "Natively, host CPU, CPU time of one" "quiet" "loaded"
printf '%-36s %20s %20s\n' "  thread: median (min-max) of ${BENCH_PEER_ROUNDS:-7} rounds" "" ""
prow "credited bits/us, jitterentropy" "jitterentropy credited bits/us"
prow "                  jitter_tsc" "jitter_tsc credited bits/us"
prow "output kB/s, jitterentropy" "jitterentropy output kB/s"
prow "             jitter_tsc" "jitter_tsc output kB/s"
prow "cold instance to 32 B, ms, jent" "jitterentropy cold to 32 B, ms"
prow "                     jitter_tsc" "jitter_tsc cold to 32 B, ms"
prow "jitter_tsc / jitterentropy bits/us" "jitter_tsc / jitterentropy bits/us"
echo "  harness/measure/peer.c (make measure runs it too): Linux 6.12's crypto/jitterentropy.c"
echo "  compiled unchanged (-O0, 64 x 32-byte memory, oversampling 1, SHA3-256 from OpenSSL),"
echo "  a cold instance as the kernel makes one (jent_entropy_init(), collector alloc, 32 bytes),"
echo "  then 64 blocks; beside it this series' loop and core as built into the kernel and its"
echo "  block path (buffer, startup test and estimate, health tests, fold, SHA-256 over 2 x 256"
echo "  credited bits), the two alternating on CPU 0. jitterentropy's credit is its claim,"
echo "  256 bits per 32-byte block; jitter_tsc's, the credit of the words each block hashes."
echo "  Cross-run (the walk run twice, cross-run.sh): $(awk '/^same_pass/ { printf "same pass %s vs chance %s (x%s); ", $2, $4, $6 }
	/^slow_pass/ { printf "slow pass x%s; ", $6 } /^guess/ { printf "a guess given the other run: %s bit less", $7 }' "$out/cross-run.txt")."
echo "  DRAM loads per 64 ms on one 8 KiB at the rate measured: $(awk '$1 == "dram_8k_per_64ms" { print $2 }' "$out/cross-run.txt") (bound 1000)."
echo
printf '%-44s %14s %14s\n' "AF_ALG throughput, TCG guest ${mg:-?} of $guests" "bytes/s" "vs jent"
printf '%-44s %14s %14s\n' "  jitter_tsc (active collector: ${active:-?})" "$(fmt "$t_j")" "$(ratio "$t_j" "$t_e")"
printf '%-44s %14s %14s\n' "  jitterentropy_rng" "$(fmt "$t_e")" "1.0x"
printf '%-44s %14s %14s\n' "  stdrng (drbg)" "$(fmt "$t_s")" "$(ratio "$t_s" "$t_e")"
printf '%-44s %14s\n' "  ceiling set by the collector (see below)" "$(fmt "$ceil")"
echo "    ($ceil_from)"
[ -z "$a64_j$a64_e" ] ||
	printf '%-44s %14s %14s\n' "  arm64 TCG guest (cortex-a57; timer ${a64_cred:-?}/256)" \
		"$(fmt "$a64_j") / $(fmt "$a64_e")" "$(ratio "$a64_j" "$a64_e")"
printf '%-44s %14s\n' "  jitter_tsc / ceiling" "$(awk -v a="$t_j" -v b="$ceil" 'BEGIN{ if (a=="" || b=="" || b+0==0) print "n/a"; else printf "%.0f%%", 100*a/b }')"
echo "  vs jent, each of the $guests guests (sorted): ${ratios:-n/a}; the table shows the"
echo "  guest with the median ratio. Both rngs read in the same guest, 3 s each."
echo
al=$out/bench-afalg.log
pv() { sed -n "s/.*JTSC bench\.pull\.$1=\([0-9-]*\).*/\1/p" "$al" | head -1; }
us() { awk -v n="$1" 'BEGIN{ if (n == "" || n + 0 < 0) print "n/a"; else printf "%.1f", n / 1000 }'; }
printf '%-44s %14s %14s %8s\n' "Readers at once, same guest (2 vCPUs)" "1 reader" "2 readers" "2 vs 1"
for a in jitter_tsc jitterentropy_rng; do
	printf '%-44s %14s %14s %8s\n' "  $a, AF_ALG bytes/s" "$(fmt "$(bps "$al" $a.readers1)")" \
		"$(fmt "$(bps "$al" $a.readers2)")" "$(ratio "$(bps "$al" $a.readers2)" "$(bps "$al" $a.readers1)")"
done
all2=$(for f in "$out"/bench-afalg-[0-9]*.log; do
	ratio "$(bps "$f" jitter_tsc.readers2)" "$(bps "$f" jitter_tsc.readers1)"; done | paste -sd ' ')
printf '%-44s %14s %14s\n' "random.c's pull of 256 bytes, us: mean" "alone" "AF_ALG reader"
printf '%-44s %14s %14s\n' "  (its own instance; the reader on vCPU 1)" "$(us "$(pv alone_ns)")" "$(us "$(pv with_reader_ns)")"
echo "  Each reader has its own socket and transform, pinned to vCPU 0 and 1; jitter_tsc's"
echo "  transforms draw on the instance of their CPU. 2 vs 1 for jitter_tsc in each guest: ${all2:-n/a}."
echo "  The pull is timed in the kernel around jitter_tsc_pull(), 64 times each way, on vCPU 0."
cv() { sed -n "s/.*JTSC bench\.ceiling\.$1\.procs$2\.ns_per_pass=\([0-9.]*\).*/\1/p" "$al" | head -1; }
# throughput of two processes against one: 2 x (ns per pass alone) / (ns per pass with two)
cr() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a == "" || b == "" || b + 0 == 0) print "n/a"; else printf "%.2fx", 2 * a / b }'; }
printf '%-44s %14s %14s %8s\n' "What the guest allows: ns per pass" "1 process" "2 at once" "2 vs 1"
printf '%-44s %14s %14s %8s\n' "  a multiply (CPU-bound, no TSC)" "$(cv alu 1)" "$(cv alu 2)" "$(cr "$(cv alu 1)" "$(cv alu 2)")"
printf '%-44s %14s %14s %8s\n' "  one RDTSC (every collector's pass has one)" "$(cv tsc 1)" "$(cv tsc 2)" "$(cr "$(cv tsc 1)" "$(cv tsc 2)")"
echo "  User-space loops in the same guest, one per vCPU. Under TCG an RDTSC is a call into"
echo "  QEMU that takes one spinlock for all vCPUs (cpu_get_ticks()), so two vCPUs reading"
echo "  the counter at once wait for each other; a timing-jitter source reads it every pass."
echo
# the runtime-credit table: one row per loop and where it ran, from the
# last margin-results line of each (this run's, for what this run measured):
# the 10^6-sample minimum, the kernel's runtime estimate over the file's
# startup-sized windows (median, highest), the ladder step each picks, the
# worst pick against half the minimum, and credited bits per microsecond
num() { awk -v x="$1" -v f="$2" 'BEGIN{ if (x == "") print "-"; else printf f, x }'; }
ladder=$(echo "$params" | awk '$1=="step"{printf "%s ", $4}')
margin=$(echo "$params" | awk '$1=="margin"{print $2}')
margin_timer=$(echo "$params" | awk '$1=="margin_timer"{print $2}')
# pick H [MARGIN]: the credit (1/256 bit) jtsc_ladder_pick() gives estimate H, 0 if refused
pick() { awk -v h="$1" -v m="${2:-$margin}" -v l="$ladder" 'BEGIN{ n = split(l, c, " "); p = 0
	for (i = 1; i <= n; i++) if (c[i] * m <= h * 256 + 1e-9) p = c[i]; print p }'; }
mline() { [ -f "$MARGIN" ] && awk -v k="$1" '$2==k{l=$0} END{print l}' "$MARGIN"; }
mrow() {
	local l h mx md cm cx ns
	l=$(mline "$2"); [ -n "$l" ] || { printf '%-36s %s\n' "$1" "(not measured)"; return; }
	h=$(echo "$l" | awk '{print $3}') mx=$(echo "$l" | awk '{print $4}') md=$(echo "$l" | awk '{print $5}')
	mg=$margin; case $2 in *.timer) mg=$margin_timer ;; esac
	cm=$(pick "$md" "$mg") cx=$(pick "$mx" "$mg") ns=$(r "$3.ns_per_sample")
	printf '%-36s %8s %8s %8s %5s %5s %6s %7s %7s\n' "$1" "$(num "$h" %.4f)" "$(num "$md" %.4f)" \
		"$(num "$mx" %.4f)" "$cm" "$cx" \
		"$(awk -v c="$cx" -v h="$h" 'BEGIN{ if (h + 0 == 0) print "-"; else printf "%.2f", (c / 256) / (h / 2) }')" \
		"$(num "$ns" %.1f)" \
		"$(awk -v c="$cm" -v ns="$ns" 'BEGIN{ if (ns + 0 == 0) print "-"; else printf "%.3f", 1000 * c / 256 / ns }')"
}
printf '%-36s %8s %17s %11s %6s %7s %7s\n' "Runtime credit (sample: low byte of" "10^6" "runtime estimate" "credit/256" "vs" "ns per" "bits"
printf '%-36s %8s %8s %8s %5s %5s %6s %7s %7s\n' "  a counter delta per pass)" "H_min" "median" "highest" "med" "high" "H/2" "sample" "per us"
mrow "  speculative, host CPU quiet" host.spec host.spec
mrow "  speculative, host CPU loaded" host_loaded.spec host_loaded.spec
mrow "  speculative, TCG guest kernel" guest.spec guest.spec
mrow "  timer, host CPU quiet (analogue)" host.timer host.timer
mrow "  timer, host CPU loaded (analogue)" host_loaded.timer host_loaded.timer
mrow "  timer, TCG guest kernel" guest.timer guest.timer
mrow "  timer, arm64 TCG guest kernel" guest_arm64.timer guest_arm64.timer
echo "  loop variants, $(r explore.cpu) at $(r explore.date), not necessarily this host (explore.*; quiet, then loaded):"
for v in popcount $SPEC_VARIANT_ORDERS; do
	k=$(spec_variant_name "$v")
	mrow "    $(spec_variant_label "$v"), quiet" "explore.$k.quiet" "explore.$k.quiet"
	mrow "    $(spec_variant_label "$v"), loaded" "explore.$k.loaded" "explore.$k.loaded"
done
gst() { sed -n "s/.*JTSC stat\.$1=\([^ ]*\).*/\1/p" "$out/bench-afalg.log" | head -1; }
echo "  H_min: SP 800-90B non-IID minimum over all estimators (ea_noniid -t u8), literal and"
echo "  bitstring, of 10^6 samples. Runtime estimate: the kernel's own (crypto/jitter_tsc_estimate.c"
echo "  in user space, ea-core) over each disjoint window of 12288 samples of the same file, as"
echo "  one startup test makes it; credit: the ladder step it picks (estimate / margin, ${margin:-?} for"
echo "  the speculative collector and its variants, ${margin_timer:-?} for the timer);"
echo "  vs H/2: the credit from the highest window over half the 10^6 minimum (at most 1)."
echo "  bits per us: the credit from the median window / ns per sample."
echo "  In the throughput guest's kernel (debugfs): speculative $(awk -v m="$(gst speculative.estimate_millibits)" 'BEGIN{printf "%.3f", m/1000}') bit"
echo "  ($(gst speculative.estimator), lowest of $(gst speculative.estimates) startup tests), credit $(gst speculative.credit_per_sample_256ths)/256;"
echo "  timer $(gst timer.estimates) startup tests, credit $(gst timer.credit_per_sample_256ths)/256."
echo "  Quiet: the build lock held, the CPUs idle; loaded: the same, with $LOAD_DESC."
echo "  The host timer rows are a user-space analogue of the kernel's loop (host-timer.c);"
echo "  its in-kernel figures are the guest rows, estimated by the kernel as it runs."
runs() { r "$1.samples" | sed 's/ run(s), lowest kept/ runs/'; }
echo "  Host: $(r host.cpu); samples: spec $(runs host.spec) quiet, $(runs host_loaded.spec) loaded,"
echo "  $(r guest.spec.samples) guest; timer $(runs host.timer) quiet, $(runs host_loaded.timer) loaded, $(r guest.timer.samples) guest."
echo "  Every machine and run so far: harness/measure/margin-results (check-margin.py in make check)."
echo "  Machine code of the speculative loop (loop-check.sh: rdtsc ordered, clflush, call"
echo "  __sw_hweight64, load of one byte, rdtsc): $loops."
# the health tests over recorded samples (false-alarms.sh) and boots (soak.sh)
fa() { r "$1.false_alarms" | awk '{ n = $6; if (n ~ /^10*$/) n = "10^" length(n) - 1
	if ($1 != "") printf "%s/%s of %s", $1, $3, n; else printf "n/a" }'; }
fcr() { r "$1.false_alarms" | sed -n 's/.* at credit \([0-9]*\/256\).*/\1/p'; }
if [ -n "$(fa host.spec)$(fa guest.timer)" ]; then
	printf '  %-40s %12s %12s %12s %8s\n' "Health-test failures, intermittent/permanent" "host quiet" "host loaded" "TCG guest" "credit"
	printf '  %-40s %12s %12s %12s %8s\n' "  (false-alarms.sh), speculative" "$(fa host.spec)" "$(fa host_loaded.spec)" \
		"$(fa guest.spec)" "$(fcr host.spec)"
	printf '  %-40s %12s %12s %12s %8s\n' "  timer" "$(fa host.timer)" "$(fa host_loaded.timer)" \
		"$(fa guest.timer)" "$(fcr guest.timer)"
fi
soak=$(r guest.soak | sed 's/; [0-9]* raw samples health tested//; s/ ([0-9-]*, the guest.*//; s/ ([0-9-]*, bzImage.*//; s/jitter_tsc: //g')
if [ -n "$soak" ]; then
	echo "  Soak (soak.sh, TCG guest boots): ${soak%% (*}."
	[ "${soak#* (}" = "$soak" ] || echo "    (${soak#* (}"
fi
echo "  Ceiling = 1e9 / (ns per raw sample x raw samples per output bit x 8) bytes/s, with"
echo "  raw samples per output bit = ${oversample:-?} (credited bits per output bit) / credit;"
echo "  at the debugfs read rates above: spec $(fmt "$ceil_spec") B/s, timer $(fmt "$ceil_timer") B/s."
[ -z "$why" ] || echo "  Note: in the throughput guest jitter_tsc did not register: $why"
if [ -s "$out/quality.txt" ]; then echo; cat "$out/quality.txt"; fi
echo
"$top/harness/bench/mem-table.sh" "$out/bench-mem.log"
echo "Memory: the speculative collector's buffer, 8 MiB (TSC_JITTER_MEM_ORDER 23) per instance that"
echo "  uses it, at most 9 (8 shards and random.c's): 72 MiB; a startup test's samples and estimate"
echo "  scratch, $(( (12288 + 25 * 12288 + 48) / 1024 )) KiB, freed when it ends."
echo
echo "Code size, crypto/jitter_tsc_{core,estimate,kcapi}.o (x86_64, gcc ${cc_ver:-?}, the guest .config)"
printf '  %-34s %s\n' "CRYPTO_JITTER_TSC_DEBUGFS=n" "${size_off:-n/a}" "CRYPTO_JITTER_TSC_DEBUGFS=y" "${size_on:-n/a}"
echo
echo "Pictures (out/bench/): bitmaps.png (raw speculative samples | conditioned output, TCG guest),"
echo "  timer-hist.png, spec-hist.png (raw samples of each collector: TCG guest kernel, host)."
echo "  The loops' machine code: out/bench/loops.txt."
echo "Time taken: $(( $(date +%s) - T0 )) s."
} > "$out/results.txt"
{ echo '```'; cat "$out/results.txt"; echo '```'; } > "$out/table.md"
cp "$out/results.txt" "$top/harness/bench/latest.txt"
"$top/harness/bench/readme-table.sh" update || echo "bench: README.md not updated" >&2
echo
cat "$out/results.txt"
