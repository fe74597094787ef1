#!/bin/bash
# harness/series.sh - `make series`: the series as mails in out/series/.
# Builds a throwaway git repo (build/series.git) from a one-commit copy of the base
# (build/base.git, made once), commits series/series.conf commit by commit (subject,
# changelog from series/*.txt, Signed-off-by of the author), then runs
# `git format-patch --cover-letter`, filling the cover letter from series/cover-letter.txt
# (first line: subject; then a blank line and the body).
set -eu
PROG=series
. "$(dirname "$0")/lib.sh"

deps series
base_ensure
mktmp
series_load
cover=$ROOT/series/cover-letter.txt
[ -f "$cover" ] || die "missing series/cover-letter.txt (line 1 subject, blank line, body)"
[ -n "$(series_commits)" ] || die "series/series.conf lists no commit"

# Commits get fixed dates (the repo's HEAD date) so regenerating gives the same mails.
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
GIT_AUTHOR_DATE=$(git -C "$ROOT" log -1 --format=%cI 2>/dev/null || echo 2026-01-01T00:00:00Z)
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
ident() {	# ident "Name <mail>": set the author and committer
	GIT_AUTHOR_NAME=${1% <*}; GIT_AUTHOR_EMAIL=${1##*<}; GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL%>}
	GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
}

# The base as one commit, made once per base version.
BASEGIT=$BUILD/base.git
if [ "$(cat "$BASEGIT/jtsc-base" 2>/dev/null)" != "$BASE_VERSION" ]; then
	info "committing the base into build/base.git (once)"
	rm -rf "$BASEGIT" "$BASEGIT.tmp"
	git init -q --bare "$BASEGIT.tmp"
	ident "$SERIES_AUTHOR"
	(export GIT_DIR=$BASEGIT.tmp GIT_WORK_TREE=$BASE GIT_INDEX_FILE=$TMP/base.index
	 git add -A -f . && git commit -q -m "Linux $BASE_PKG $BASE_VERSION (Debian)" &&
	 git branch -f base) || die "cannot commit the base"
	echo "$BASE_VERSION" > "$BASEGIT.tmp/jtsc-base"
	mv "$BASEGIT.tmp" "$BASEGIT"
fi

export GIT_DIR=$BUILD/series.git GIT_INDEX_FILE=$TMP/index
rm -rf "$GIT_DIR"
git clone -q --bare --shared "$BASEGIT" "$GIT_DIR" || die "cannot clone build/base.git"
git read-tree base
state_init "$TMP/state"
head=$(git rev-parse base)
for c in $(series_commits); do
	n=$(series_field "$c" 3 | wc -m)
	[ "$n" -le 76 ] || die "commit $c: the subject has $((n - 1)) characters, at most 75 please"
done
for c in $(series_commits); do
	state_commit "$TMP/state" "$c"
	for p in $(series_files "$c"); do
		t=$(target "$p")
		git update-index --add --cacheinfo "100644,$(git hash-object -w "$TMP/state/$t"),$t"
	done
	author=$(series_field "$c" 5)
	ident "$author"
	{
		series_field "$c" 3; echo
		sed -e '/^Signed-off-by:/d' -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$ROOT/series/$(series_field "$c" 4)"
		echo; echo "Signed-off-by: $author"
	} > "$TMP/msg"
	tree=$(git write-tree)
	head=$(git commit-tree "$tree" -p "$head" -F "$TMP/msg") || die "commit $c failed"
done
git update-ref refs/heads/series "$head"

ident "$SERIES_AUTHOR"		# the cover letter's From:
rm -rf "$OUT/series.tmp"; mkdir -p "$OUT"
git format-patch -q --cover-letter --subject-prefix="${SUBJECT_PREFIX:-PATCH}" \
	-o "$OUT/series.tmp" base..series || die "git format-patch failed"
cl=$(ls "$OUT"/series.tmp/0000-cover-letter.patch)
# A line "@BENCH_TABLE@" in the cover letter becomes the committed `make bench`
# table (harness/bench/latest.txt), without its closing lines about local files.
bench=$ROOT/harness/bench/latest.txt
[ -s "$bench" ] || ! grep -q '^@BENCH_TABLE@$' "$cover" || die "series/cover-letter.txt wants harness/bench/latest.txt, which is missing"
awk -v f="$cover" -v b="$bench" '
	BEGIN {
		getline subj < f; getline blank < f
		while ((getline l < f) > 0) {
			if (l == "@BENCH_TABLE@") {
				while ((getline t < b) > 0 && t !~ /^Pictures /)
					body = body t "\n"
				sub(/\n+$/, "\n", body)
				continue
			}
			body = body l "\n"
		}
	}
	(i = index($0, "*** SUBJECT HERE ***")) { $0 = substr($0, 1, i - 1) subj substr($0, i + 20) }
	$0 == "*** BLURB HERE ***" { printf "%s", body; next }
	{ print }' "$cl" > "$cl.new" && mv "$cl.new" "$cl"
! grep -q '^@BENCH_TABLE@$' "$cl" || die "the bench table was not filled into $cl"
! grep -q '\*\*\* .* HERE \*\*\*' "$cl" || die "cover letter placeholders left in $cl"
rm -rf "$OUT/series"; mv "$OUT/series.tmp" "$OUT/series"
info "out/series: $(ls "$OUT/series" | wc -l) files ($(series_commits | wc -l) patches + cover letter)"
