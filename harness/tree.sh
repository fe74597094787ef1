#!/bin/bash
# harness/tree.sh - `make tree`: build/linux = the pristine base (build/base) + the series.
# Unpacks linux-source-6.12 once, checks its version against harness/BASE_VERSION, applies
# every file of series/series.conf to the base in a temp dir (nothing is touched when one
# fails), then copies into build/linux only the files whose content differs, and restores
# from the base the files laid before that are no longer in the series.
set -eu
PROG=tree
. "$(dirname "$0")/lib.sh"

base_ensure
tree_copy "$LINUX"
mktmp
series_load
state_init "$TMP/state"
for c in $(series_commits); do state_commit "$TMP/state" "$c"; done

# Repo files outside the harness that the series does not list are probably a mistake.
unlisted=$(cd "$ROOT" && git ls-files 2>/dev/null | grep -v -e '^harness/' -e '^series/' -e '^\.' \
	-e '^Makefile$' -e '^README' | grep -vxF -f <(series_files) || true)
[ -z "$unlisted" ] || warn "repo files not in series/series.conf (not laid):" $unlisted

guard=1
[ "${FORCE:-0}" = 1 ] && guard=0
# shellcheck disable=SC2046
lay "$LINUX" "$TMP/state" "$BUILD/laid.list" "$guard" $(series_targets)
info "build/linux = base $BASE_VERSION + $(series_commits | wc -l) commits," \
	"$(series_targets | wc -l) files ($LAY_CHANGED written, $LAY_RESTORED restored from base)"
