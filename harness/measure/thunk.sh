#!/bin/bash
# thunk.sh - what a return thunk does to the speculative loop. The loop
# calls __sw_hweight64() once a pass; in a kernel built with
# CONFIG_MITIGATION_RETHUNK (distributions' kernels) that function returns
# through a thunk, not a plain ret, which the guest kernel (no CPU
# mitigations) and the user-space build (host-spec) do not have. Here
# host-spec is built three times, its hweight.S assembled with RET as
#   ret     the user-space build and the guest kernel,
#   thunk   jmp to "ret; int3" (the kernel's __x86_return_thunk),
#   srso    jmp to "call; lea 8(%rsp), %rsp; ret" (the kernel's
#           srso_alias_return_thunk, AMD Zen 3 and 4's safe RET),
# and each is run for 10^6 samples after a warm-up: ns per pass, the
# kernel's estimator (ea-core) and ea_noniid. Run it on quiet CPUs.
# Rows go to harness/measure/results as thunk.<host>.<date>.<run>.<kind>,
# every run kept.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
build_tools host-spec ea-core ea_noniid
host=$(host_cpu | tr -c 'A-Za-z0-9\n' '_' | sed 's/__*/_/g; s/_$//')
hs=$BASE_SRC/arch/x86/lib/hweight.S
d=$top/out/measure/thunk; mkdir -p "$d/stub/linux" "$d/stub/asm"
cp "$M/stub/asm/asm.h" "$d/stub/asm/asm.h"
cp "$M/stub/linux/export.h" "$d/stub/linux/export.h"
for kind in ret thunk srso; do
	ret='jmp jtsc_thunk'
	case $kind in
	ret)	ret='ret'; thunk='' ;;
	thunk)	thunk='jtsc_thunk: ret; int3' ;;
	srso)	thunk='jtsc_safe_ret: lea 8(%rsp), %rsp; ret; int3; jtsc_thunk: call jtsc_safe_ret; ud2' ;;
	esac
	sed '/^#define RET /d' "$M/stub/linux/linkage.h" > "$d/stub/linux/linkage.h"
	echo "#define RET $ret" >> "$d/stub/linux/linkage.h"
	gcc -c -nostdinc -I "$d/stub" -D__ASSEMBLY__ -DCONFIG_X86_64 -Wa,--noexecstack \
		-o "$d/hweight-$kind.o" "$hs"
	printf '.text\n.p2align 6\n.globl jtsc_thunk\n%s\n' "${thunk//; /$'\n'}" > "$d/thunk-$kind.s"
	as --noexecstack -o "$d/thunk-$kind.o" "$d/thunk-$kind.s"
	# shellcheck disable=SC2086 # flags: words
	gcc $CFLAGS_TOOLS $LOOP_CFLAGS -idirafter "$top/arch/x86/include" \
		-o "$d/host-spec-$kind" "$top/harness/measure/host-spec.c" "$d/hweight-$kind.o" "$d/thunk-$kind.o"
	objdump -d --no-show-raw-insn "$d/host-spec-$kind" |
		awk '/<__sw_hweight64>:/,/^$/' | grep -v -e nop -e xchg -e '^$' | tail -1 | sed "s/^/  $kind: /"
done
idle_wait
stamp=$(date -u +%Y-%m-%dT%H:%MZ) i=0
for kind in ret thunk srso ret; do
	i=$((i + 1))
	"$d/host-spec-$kind" -n 1000000 "$d/$kind.bin" > "$d/$kind.txt"
	ns=$(awk '$1 == "ns_per_sample" { print $2 }' "$d/$kind.txt")
	k=$("$M/ea-core" "$d/$kind.bin" | awk '/^H_min/ { print $2 }')
	e=$("$M/ea_noniid" -q -t u8 "$d/$kind.bin" | awk '/^H_min/ { print $2 }')
	printf 'thunk: %-5s %7.1f ns per pass, kernel estimate %.3f, ea_noniid %.3f\n' "$kind" "$ns" "$k" "$e"
	set_results "thunk.$host.$stamp.$i.$kind" "$ns ns per pass, ea-core $k, ea_noniid $e (10^6 samples)"
done
