#!/bin/sh
# readme-table.sh update|check: the block of README.md between
# "<!-- bench:begin -->" and "<!-- bench:end -->" is the summary of
# harness/bench/latest.txt (its heading, the boot rows, the native rows
# beside jitterentropy and the AF_ALG rows) in a code fence. `update`
# rewrites it (make bench); `check` (make check) exits 1 when it differs, or
# when the kernel code (arch/ crypto/ drivers/ include/ lib/) differs
# between the commit the table names and HEAD, or the table names a tree
# whose kernel code was not committed ("-dirty").
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
readme=$top/README.md latest=$top/harness/bench/latest.txt
KERNEL_PATHS="arch crypto drivers include lib"
[ -s "$latest" ] || { echo "readme-table: no harness/bench/latest.txt (run make bench)" >&2; exit 1; }
grep -q '^<!-- bench:begin -->$' "$readme" && grep -q '^<!-- bench:end -->$' "$readme" ||
	{ echo "readme-table: README.md has no bench:begin/bench:end markers" >&2; exit 1; }
tmp=$(mktemp) sum=$(mktemp); trap 'rm -f "$tmp" "$sum"' EXIT
# the summary: the first four lines, then the first rows of three sections
awk 'NR <= 4 { print; next }
	/^$/ || /^  harness\// { keep = 0; next }
	/^Boot \(/ { keep = 8 } /^Natively/ { keep = 9 } /^AF_ALG throughput/ { keep = 4 }
	/^(Boot \(|Natively|AF_ALG throughput)/ { print "" }
	keep > 0 { sub(/ +$/, ""); print; keep-- }' "$latest" > "$sum"
awk -v f="$sum" '
	/^<!-- bench:end -->$/ { skip = 0 }
	skip { next }
	{ print }
	/^<!-- bench:begin -->$/ {
		print "```"; while ((getline l < f) > 0) print l; print "```"; skip = 1
	}' "$readme" > "$tmp"
case ${1:-check} in
update)	cmp -s "$tmp" "$readme" || cat "$tmp" > "$readme" ;;
check)	diff -u "$readme" "$tmp" >&2 ||
		{ echo "readme-table: README.md does not show the summary of harness/bench/latest.txt" >&2; exit 1; }
	rev=$(sed -n '1s/.*, series \([^ ]*\)$/\1/p' "$latest")
	case $rev in
	""|unknown) echo "readme-table: harness/bench/latest.txt names no commit" >&2; exit 1 ;;
	*-dirty) echo "readme-table: make bench ran on uncommitted kernel code ($rev)" >&2; exit 1 ;;
	esac
	git -C "$top" cat-file -e "$rev^{commit}" 2>/dev/null ||
		{ echo "readme-table: the bench's commit $rev is not in this repository" >&2; exit 1; }
	# shellcheck disable=SC2086 # a list of paths
	git -C "$top" diff --quiet "$rev" HEAD -- $KERNEL_PATHS ||
		{ echo "readme-table: the kernel code changed since make bench ran on $rev:" >&2
		  git -C "$top" diff --stat "$rev" HEAD -- $KERNEL_PATHS >&2; exit 1; }
	echo "readme-table: README.md shows the summary of harness/bench/latest.txt, made on $rev, whose kernel code is HEAD's" ;;
*)	echo "usage: $0 update|check" >&2; exit 2 ;;
esac
