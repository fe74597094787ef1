#!/bin/sh
# loop-check.sh - check in the machine code that the speculative collector's
# loop does what arch/x86/include/asm/tsc_jitter.h says: inside the loop, one
# rdtsc, ordered (lfence before it, or the kernel's rdtsc_ordered()
# alternative), then the clflush of the next line, the call of
# __sw_hweight64, the load of one byte of the buffer, and back to that rdtsc. Checks both
# builds of the loop that run: jtsc_spec_fill() in the guest kernel's
# crypto/jitter_tsc_kcapi.o and spec_fill() in the user-space tool host-spec.
# Prints each loop (objdump -d, relocations folded in) and one verdict line
# per build to standard output and to out/measure/loop-check.txt; also shows
# the kernel's __sw_hweight64 return (ret, or a return thunk). Fails where
# the function calls sanitizer instrumentation (crypto/Makefile exempts
# jitter_tsc_kcapi.o). Exits 1 if a check fails.
# usage: harness/measure/loop-check.sh [KCAPI_O [HOST_SPEC]]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
obj=${1:-$top/build/obj-guest/crypto/jitter_tsc_kcapi.o}
tool=${2:-$M/host-spec}
out=$top/out/measure; mkdir -p "$out"
[ $# -ge 2 ] || build_tools host-spec || exit 1
fails=0

# body FILE FUNC: FUNC's disassembly, one instruction a line, "ADDR: INSN",
# a relocation folded into the instruction it patches ("call __sw_hweight64")
body() {
	objdump -dr --no-show-raw-insn "$1" | awk -v f="<$2" '
		/>:$/ && (index($0, f">:") || index($0, f".constprop")) { on = 1; next }
		on && /^$/ { exit }
		on && /R_X86_64_/ { sub(/-0x4$/, "", $NF); sub(/<[^>]*>$/, $NF, last); next }
		on { if (last != "") print last; last = $0 }
		END { if (last != "") print last }' | sed 's/^ *//; s/\t/ /g; s/  */ /g'
}

# check NAME FILE FUNC: the loop of FUNC in FILE, and its verdict
check() {
	b=$(body "$2" "$3")
	if [ -z "$b" ]; then
		echo "loop-check: $1: no function $3 in $2"; fails=$((fails + 1)); return
	fi
	if echo "$b" | grep -Eq 'call.*(__asan|__kasan|__ubsan|__sanitizer_cov|__tsan|__kcsan)'; then
		echo "loop-check: $1: $3 calls KASAN, UBSAN, KCOV or KCSAN instrumentation"
		fails=$((fails + 1))
	fi
	echo "$1: $3 in ${2#"$top"/}, the loop:"
	echo "$b" | awk '
	function hex(s,   v, i) {	# mawk has no strtonum
		s = tolower(s); sub(/:$/, "", s); v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	{ addr[NR] = hex($1); line[NR] = $0; isr[NR] = $2 ~ /^rdtscp?$/ }
	# backward jumps: jXX TARGET <...>, TARGET below the jump
	$2 ~ /^j/ && $3 ~ /^[0-9a-f]+$/ && hex($3) < hex($1) { bj[++nb] = NR; bt[nb] = hex($3) }
	END {
		# the loop: the smallest range closed by a backward jump with an rdtsc in it
		for (b = 1; b <= nb; b++) {
			has = 0
			for (i = 1; i <= bj[b]; i++) if (addr[i] >= bt[b] && isr[i]) has = 1
			if (has && (!jfrom || addr[bj[b]] - bt[b] < addr[jfrom] - jto)) { jfrom = bj[b]; jto = bt[b] }
		}
		if (!jfrom) { print "  no loop (no backward jump around an rdtsc)"; print "VERDICT no loop"; exit }
		n = 0
		for (i = 1; i <= jfrom; i++) {
			if (addr[i] < jto) continue
			print "  " line[i]
			insn[++n] = line[i]
		}
		# the events of one pass, in program order
		r = 0; c = 0; f = 0; for (i = 1; i <= n; i++) {
			split(insn[i], w, " "); op = w[2]; args = w[3]
			if (op ~ /^rdtscp?$/) { r++; ri = i }
			if (op ~ /^call/) { c++; if (insn[i] ~ /__sw_hweight64/) ci = i }
			if (op == "clflush") { f++; fi = i }
			# the buffer load: one byte, not from the stack
			ld[i] = op ~ /^movzb/ && args ~ /\(/ && args !~ /%rsp/
		}
		if (r != 1 || c != 1 || f != 1 || !ci) {
			printf "VERDICT %d rdtsc(p), %d calls, %d clflush in the loop (want 1, 1 (__sw_hweight64), 1)\n", r, c, f
			exit
		}
		# the closing read is ordered: rdtscp, or lfence right before it
		# (user space), or an alternative whose padding the kernel
		# patches (lfence; rdtsc or rdtscp, checked in .altinstr_replacement)
		split(insn[ri], v, " "); split(insn[ri - 1], w, " "); split(insn[ri + 1], x, " ")
		ord = v[2] == "rdtscp" ? "rdtscp" : w[2] == "lfence" ? "lfence" : x[2] == "nop" ? "alternative" : ""
		if (ord == "") { print "VERDICT the rdtsc is not ordered after the load"; exit }
		# walk one pass from the rdtsc: clflush, call, load, back to it
		state = 0
		for (k = 1; k < n; k++) {
			i = (ri - 1 + k) % n + 1
			if (i == fi && state == 0) state = 1
			else if (i == ci && state == 1) state = 2
			else if (ld[i] && state == 2) { state = 3; lm = insn[i]; sub(/^[^ ]* [^ ]* /, "", lm) }
		}
		if (state == 3)
			print "VERDICT ok: " v[2] " (" ord "), clflush, call __sw_hweight64, load " lm ", back to it"
		else
			print "VERDICT wrong order (reached step " state " of: clflush, call, byte load, rdtsc)"
	}' > "$out/loop.tmp"
	grep -v '^VERDICT' "$out/loop.tmp"
	v=$(sed -n 's/^VERDICT //p' "$out/loop.tmp")
	echo "loop-check: $1: $v"
	case $v in ok*) ;; *) fails=$((fails + 1)) ;; esac
	rm -f "$out/loop.tmp"
}

{
if [ ! -r "$obj" ]; then
	echo "loop-check: no $obj (make kernel)"; fails=$((fails + 1))
else
	[ "$obj" -nt "$HDR" ] || echo "loop-check: warning: $obj is older than ${HDR#"$top"/} (make kernel)"
	check "guest kernel" "$obj" jtsc_spec_fill
	alt=$(objdump -d -j .altinstr_replacement "$obj" 2>/dev/null | awk '$NF == "lfence" || $NF == "rdtsc" || $NF == "rdtscp" { printf "%s ", $NF }')
	case $alt in
	*"lfence rdtsc"*) echo "guest kernel: the rdtsc's alternatives: $alt" ;;
	*) echo "loop-check: guest kernel: no lfence; rdtsc in .altinstr_replacement"; fails=$((fails + 1)) ;;
	esac
	hw=$(dirname "$obj")/../arch/x86/lib/hweight.o
	[ -r "$hw" ] && echo "guest kernel: __sw_hweight64 returns by: $(body "$hw" __sw_hweight64 | tail -1 | cut -d' ' -f2-)"
fi
echo
check "user space" "$tool" spec_fill
echo "user space: __sw_hweight64 (arch/x86/lib/hweight.S of the base tree) returns by: $(body "$tool" __sw_hweight64 | tail -1 | cut -d' ' -f2-)"
[ "$fails" = 0 ] && echo "loop-check: both loops in the order the header describes"
} | tee "$out/loop-check.txt"
grep -q '^loop-check: both loops' "$out/loop-check.txt"
