#!/bin/bash
# harness/sync.sh - `make sync`: bring edits made in build/linux back into the repo.
# For each file of series/series.conf edited in build/linux since `make tree` laid it:
# an added file is copied back; PATH.patch is regenerated with `diff -u` (labels a/PATH
# b/PATH, no timestamps) against build/base, or for a multi-part patch only its last part
# against base + the earlier parts. Every new patch is checked to re-create the edited
# file before the repo is written; nothing is written when any file fails.
set -eu
PROG=sync
. "$(dirname "$0")/lib.sh"

base_ensure
[ -f "$BUILD/laid.list" ] && [ -d "$LINUX" ] || die "no build/linux yet: run 'make tree' first"
mktmp
series_load
# What the repo lays now, to tell edits in build/linux from changes in the repo.
state_init "$TMP/state"
for c in $(series_commits); do state_commit "$TMP/state" "$c"; done
mkdir -p "$TMP/new"

# regen P T: write the regenerated P (for kernel file T) to $TMP/new/P
regen() {
	local p=$1 t=$2 pre=$TMP/pre lab=a/$2 tags last tag rc=0
	rm -rf "$pre"; mkdir -p "$pre/$(dirname "$t")"
	[ -f "$BASE/$t" ] && cp "$BASE/$t" "$pre/$t"
	mkdir -p "$TMP/new/$(dirname "$p")"
	: > "$TMP/new/$p"
	tags=$(patch_tags "$ROOT/$p")
	if [ -n "$tags" ]; then
		last=$(echo "$tags" | tail -n 1)
		for tag in $tags; do
			[ "$tag" = "$last" ] && break
			msg=$(apply_file "$pre" "$tag" "$p") || die "$msg"
		done
		awk '/^#series-part:/ { n++ } n < parts' parts="$(echo "$tags" | wc -l)" \
			"$ROOT/$p" > "$TMP/new/$p"
		echo "#series-part: $last" >> "$TMP/new/$p"
	fi
	[ -f "$pre/$t" ] || lab=/dev/null
	diff -u -N --label "$lab" --label "b/$t" "$pre/$t" "$LINUX/$t" > "$TMP/diff" || rc=$?
	[ "$rc" -le 1 ] || die "diff failed on $t"
	[ "$rc" = 1 ] || die "$t does not differ from base${tags:+ + earlier parts}: drop $p from series/series.conf instead"
	# The new diff must re-create the edited file.
	patch -p1 -F0 -N -s --no-backup-if-mismatch -r - -d "$pre" -i "$TMP/diff" > /dev/null 2>&1 &&
		cmp -s "$pre/$t" "$LINUX/$t" || die "regenerated $p does not re-create build/linux/$t"
	cat "$TMP/diff" >> "$TMP/new/$p"
}

n=0
for p in $(series_files); do
	t=$(target "$p")
	cur=$(sum "$LINUX/$t"); new=$(sum "$TMP/state/$t")
	last=$(awk -v t="$t" '$2 == t { print $1 }' "$BUILD/laid.list")
	[ -n "$last" ] || { warn "$t was never laid: run 'make tree' first"; continue; }
	[ "$cur" = "$last" ] && continue		# not edited in build/linux
	[ "$cur" = "$new" ] && continue			# already what the repo says
	[ "$new" = "$last" ] ||
		die "$t changed both in the repo and in build/linux: merge by hand"
	[ -f "$LINUX/$t" ] || die "build/linux/$t was deleted"
	if [ "$p" = "$t" ]; then
		mkdir -p "$TMP/new/$(dirname "$p")" && cp "$LINUX/$t" "$TMP/new/$p"
	else
		regen "$p" "$t"
	fi
	n=$((n + 1))
done

# All regenerated: now write the repo and record build/linux as laid.
for p in $(series_files); do
	[ -f "$TMP/new/$p" ] || continue
	cmp -s "$TMP/new/$p" "$ROOT/$p" && continue
	cp "$TMP/new/$p" "$ROOT/$p"
	info "updated $p"
done
# A synced file is now what the repo lays: record it so `make tree` keeps it.
while read -r s t; do
	[ -f "$TMP/new/$t" ] || [ -f "$TMP/new/$t.patch" ] && s=$(sum "$LINUX/$t")
	echo "$s $t"
done < "$BUILD/laid.list" > "$TMP/laid"
mv "$TMP/laid" "$BUILD/laid.list"
info "$n file(s) brought back from build/linux"
