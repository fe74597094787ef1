#!/bin/bash
# unseeded.sh - count the kernel's uses of the crng before it is ready,
# stock path against jitter_tsc. CONFIG_WARN_ALL_UNSEEDED_RANDOM, which
# logged one line per such use, is gone by 6.12, so this builds an
# instrumented copy of the guest kernel: build/linux hard-linked into
# build/unseeded/linux, with a fresh drivers/char/random.c whose
# _get_random_bytes() (behind get_random_bytes() and get_random_u8..u64
# while the crng is not ready) logs what the old option logged. That kernel
# is a measuring tool, never the one tested; build/unseeded/obj sits where
# ccache reuses the guest build's objects, so only random.o is compiled.
# Boots it twice (no AF_ALG reads): stock path (random.trust_jitter_tsc=off
# jitter_tsc.collectors=none) and default; prints the counts, writes
# out/unseeded/counts.txt, and exits non-zero unless the default boot shows
# no use after "crng init done" and fewer uses than the stock path.
set -uo pipefail
PROG=unseeded
. "$(dirname "$0")/../lib.sh"
. "$HARNESS/guest/parse.sh"

src=$BUILD/unseeded/linux obj=$BUILD/unseeded/obj out=$OUT/unseeded
[ -f "$LINUX/.jtsc-base" ] || die "no build/linux: run 'make tree' first"
mkdir -p "$out"

rm -rf "$src"
mkdir -p "$(dirname "$src")"
cp -al "$LINUX" "$src" || die "cannot link build/linux into ${src#"$ROOT"/}"
rnd=$src/drivers/char/random.c
# sed -i writes a new file: the hard link to build/linux is broken, not followed
sed -i '/^static void _get_random_bytes(void \*buf, size_t len)$/,/^{$/{
/^{$/a\
	if (!crng_ready())\
		printk_deferred(KERN_NOTICE "random: %s called from %pS with crng_init=%d\\n",\
				__func__, (void *)_RET_IP_, crng_init);
}' "$rnd" || die "cannot instrument $rnd"
grep -q 'with crng_init=%d' "$rnd" || die "_get_random_bytes() not found in $rnd"

build() {
	msg=$(guest_config "$src" "$obj" 1) || die "config: $msg"
	kmake "$src" "$obj" bzImage > "$out/build.log" 2>&1 || { tail -20 "$out/build.log"; die "build failed"; }
}
locked build
img=$obj/arch/x86/boot/bzImage

"$HARNESS/guest/mkinitramfs.sh" "$out/initramfs.cpio" > /dev/null || die "initramfs"
: > "$out/counts.txt"
# loglevel=4: the notices go to the log buffer, not the slow serial console
for v in stock jtsc; do
	extra=; [ $v = stock ] && extra="random.trust_jitter_tsc=off jitter_tsc.collectors=none"
	# shellcheck disable=SC2086
	"$HARNESS/guest/boot.sh" "$img" "$out/initramfs.cpio" "$out/$v.log" \
		jtsc.mode=bench jtsc.algs=stdrng jtsc.bench_ms=10 loglevel=4 log_buf_len=1M $extra ||
		die "boot $v failed ($out/$v.log)"
	jtsc_load "$out/$v.log"
	echo "$v $(jv klog.unseeded) $(jv klog.unseeded_after_ready) $(jv klog.crng_init_done_s) $(jv klog.run_init_s)" >> "$out/counts.txt"
done
read -r _ sn _ sc sr < <(grep '^stock ' "$out/counts.txt")
read -r _ jn jl jc jr < <(grep '^jtsc ' "$out/counts.txt")
echo "uses of the crng before it was ready: stock path $sn (crng init done at $sc s, init at $sr s), jitter_tsc $jn (at $jc s, init at $jr s), after that $jl"
[ -n "$jn" ] && [ -n "$sn" ] && [ "$jl" = 0 ] && [ "$jn" -lt "$sn" ] ||
	die "expected no use after jitter_tsc seeded and fewer than the stock path"
