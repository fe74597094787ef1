#!/bin/sh
# readme-table.sh update|check: the block of README.md between
# "<!-- bench:begin -->" and "<!-- bench:end -->" is harness/bench/latest.txt
# in a code fence. `update` rewrites it (make bench), `check` exits 1 when
# it differs (make check).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
readme=$top/README.md latest=$top/harness/bench/latest.txt
[ -s "$latest" ] || { echo "readme-table: no harness/bench/latest.txt (run make bench)" >&2; exit 1; }
grep -q '^<!-- bench:begin -->$' "$readme" && grep -q '^<!-- bench:end -->$' "$readme" ||
	{ echo "readme-table: README.md has no bench:begin/bench:end markers" >&2; exit 1; }
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
awk -v f="$latest" '
	/^<!-- bench:end -->$/ { skip = 0 }
	skip { next }
	{ print }
	/^<!-- bench:begin -->$/ {
		print "```"; while ((getline l < f) > 0) print l; print "```"; skip = 1
	}' "$readme" > "$tmp"
case ${1:-check} in
update)	cmp -s "$tmp" "$readme" || cat "$tmp" > "$readme" ;;
check)	diff -u "$readme" "$tmp" >&2 ||
		{ echo "readme-table: README.md does not show harness/bench/latest.txt" >&2; exit 1; }
	echo "readme-table: README.md shows harness/bench/latest.txt" ;;
*)	echo "usage: $0 update|check" >&2; exit 2 ;;
esac
