# harness/lib.sh - common shell functions for the harness scripts (sourced, not run).
# Paths, one-line errors, apt installs, the series.conf parser, patch parts, laying
# a series state over a kernel tree, and kernel builds (flock, ccache).
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HARNESS=$ROOT/harness
BUILD=$ROOT/build
OUT=$ROOT/out
LOGS=$OUT/logs
BASE_VERSION=$(cat "$HARNESS/BASE_VERSION")
BASE_PKG=linux-source-6.12
BASE=$BUILD/base/$BASE_PKG		# pristine unpack, never edited
LINUX=$BUILD/linux			# work tree: base + series
SERIES_CONF=$ROOT/series/series.conf
SERIES_AUTHOR="Jitter TSC Developers <jitter-tsc@lists.example.org>"
BUILD_LOCK=/tmp/jtsc-build.lock
JOBS=${JOBS:-2}
PROG=${PROG:-$(basename "$0" .sh)}

die() { echo "$PROG: error: $*" >&2; exit 1; }
warn() { echo "$PROG: warning: $*" >&2; }
info() { echo "$PROG: $*"; }

# Temporary directory on the build filesystem, removed on exit.
mktmp() {
	mkdir -p "$BUILD"
	TMP=$(mktemp -d "$BUILD/tmp.$PROG.XXXXXX") || die "cannot create a temp dir in $BUILD"
	trap 'rm -rf "$TMP"' EXIT
}

# ensure_pkgs PKG...: apt-get install the packages that are not installed yet.
ensure_pkgs() {
	local p missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	echo "$PROG: installing:$missing" >&2
	if [ -z "${JTSC_APT_UPDATED:-}" ]; then
		$sudo apt-get -o DPkg::Lock::Timeout=600 update -q >&2 || die "apt-get update failed"
		export JTSC_APT_UPDATED=1
	fi
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -q \
		--no-install-recommends $missing >&2 ||
		die "apt-get install failed:$missing"
}

sum() { if [ -f "$1" ]; then sha1sum < "$1" | cut -c1-40; else echo -; fi; }

# ---- the pristine base ----------------------------------------------------
# base_ensure: linux-source at the recorded version, unpacked once into build/base.
base_ensure() {
	deps tree
	local v
	v=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null)
	[ "$v" = "$BASE_VERSION" ] ||
		die "$BASE_PKG is $v, the series needs $BASE_VERSION (harness/BASE_VERSION): apt-get install $BASE_PKG=$BASE_VERSION"
	[ "$(cat "$BUILD/base/.version" 2>/dev/null)" = "$BASE_VERSION" ] && return 0
	info "unpacking $BASE_PKG $BASE_VERSION into build/base"
	mkdir -p "$BUILD"
	(cd "$BUILD" && rm -rf base base.tmp linux laid.list base.git series.git am bisect)
	mkdir -p "$BUILD/base.tmp"
	tar -C "$BUILD/base.tmp" -xJf "/usr/src/$BASE_PKG.tar.xz" || die "cannot unpack /usr/src/$BASE_PKG.tar.xz"
	[ -f "$BUILD/base.tmp/$BASE_PKG/Makefile" ] || die "unexpected layout in /usr/src/$BASE_PKG.tar.xz"
	chmod -R a-w "$BUILD/base.tmp/$BASE_PKG"
	echo "$BASE_VERSION" > "$BUILD/base.tmp/.version"
	mv "$BUILD/base.tmp" "$BUILD/base"
}

# tree_copy DIR [link]: make DIR a copy of the base (once). With "link" the files are
# hard links to the base's (fast, for trees nobody edits: lay() replaces files, never
# writes into them).
tree_copy() {
	[ -f "$1/.jtsc-base" ] && return 0
	info "copying build/base to ${1#"$ROOT"/}${2:+ (hard links)}"
	rm -rf "$1" "$1.tmp"
	mkdir -p "$(dirname "$1")"
	if [ "${2:-}" = link ]; then
		cp -al "$BASE" "$1.tmp" && find "$1.tmp" -type d -exec chmod u+w {} + ||
			die "cannot copy the base to $1"
	else
		cp -a "$BASE" "$1.tmp" && chmod -R u+w "$1.tmp" || die "cannot copy the base to $1"
	fi
	echo "$BASE_VERSION" > "$1.tmp/.jtsc-base"
	mv "$1.tmp" "$1"
}

# ---- series.conf ----------------------------------------------------------
# series_load: parse series.conf into $SERIES_DB, lines (tab separated):
#   C <tag> <subject> <changelog> <author>      one per commit, in order
#   F <tag> <path>                               one per file of a commit
series_load() {
	[ -f "$SERIES_CONF" ] || die "missing series/series.conf"
	SERIES_DB=$TMP/series.db
	awk -v conf="series/series.conf" -v dauth="$SERIES_AUTHOR" '
	function fail(m) { printf "%s:%d: %s\n", conf, NR, m > "/dev/stderr"; bad = 1; exit 1 }
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	function flush() { if (tag != "") print "C\t" tag "\t" subj "\t" clog "\t" (cauth != "" ? cauth : dauth) }
	/^[ \t]*(#|$)/ { next }
	{ line = $0; sub(/[ \t]+$/, "", line) }
	line ~ /^author[ \t]/ {
		if (tag != "") fail("a global author line must come before the first commit")
		dauth = trim(substr(line, 7)); next }
	line ~ /^commit[ \t]/ {
		flush()
		n = split(substr(line, 7), f, "|")
		if (n != 3) fail("expected: commit TAG | subject | changelog-file")
		tag = trim(f[1]); subj = trim(f[2]); clog = trim(f[3]); cauth = ""
		if (tag !~ /^[A-Za-z0-9_.-]+$/) fail("bad commit tag \"" tag "\"")
		if (tag in seen) fail("duplicate commit tag " tag)
		if (subj == "" || clog == "") fail("empty subject or changelog file")
		seen[tag] = 1; next }
	line ~ /^[ \t]+author[ \t]/ {
		if (tag == "") fail("author line outside a commit")
		cauth = trim(substr(trim(line), 7)); next }
	line ~ /^[ \t]+file[ \t]/ {
		if (tag == "") fail("file line outside a commit")
		p = trim(substr(trim(line), 5))
		if (p ~ /^\// || p ~ /(^|\/)\.\.(\/|$)/) fail("file path must be relative to the repo: " p)
		if ((p in owner) && p !~ /\.patch$/) fail(p " is listed under two commits")
		owner[p] = tag
		print "F\t" tag "\t" p; next }
	{ fail("cannot parse: " line) }
	END { if (!bad) flush() }
	' "$SERIES_CONF" > "$SERIES_DB.f" || die "series/series.conf does not parse"
	{ grep '^C' "$SERIES_DB.f"; grep '^F' "$SERIES_DB.f"; } > "$SERIES_DB" || true
	local t p
	for p in $(series_files); do
		[ -f "$ROOT/$p" ] || die "series/series.conf lists $p, which is not in the repo"
	done
	for t in $(series_commits); do
		p=$(series_field "$t" 4)
		[ -f "$ROOT/series/$p" ] || die "commit $t: changelog series/$p is missing"
	done
	# A multi-part patch has one part per commit listing it, in commit order, so that
	# applying the whole file gives the final version.
	for p in $(series_files | grep '\.patch$'); do
		t=$(awk -F'\t' -v p="$p" '$1 == "F" && $3 == p { print $2 }' "$SERIES_DB" | paste -sd' ')
		case $t in *' '*) ;; *) grep -q '^#series-part:' "$ROOT/$p" || continue ;; esac
		[ "$(patch_tags "$ROOT/$p" | paste -sd' ')" = "$t" ] ||
			die "$p: its '#series-part:' tags ($(patch_tags "$ROOT/$p" | paste -sd' ')) must be the commits listing it, in order ($t)"
	done
}
series_commits() { awk -F'\t' '$1 == "C" { print $2 }' "$SERIES_DB"; }
# series_field TAG N: field N of the commit record (3 subject, 4 changelog, 5 author)
series_field() { awk -F'\t' -v t="$1" -v n="$2" '$1 == "C" && $2 == t { print $n }' "$SERIES_DB"; }
# series_files [TAG]: repo files of one commit, or of the whole series (each once)
series_files() { awk -F'\t' -v t="${1:-}" '$1 == "F" && (t == "" || $2 == t) && !s[$3]++ { print $3 }' "$SERIES_DB"; }
# target PATH: the kernel file a repo file makes (x.c.patch -> x.c)
target() { echo "${1%.patch}"; }
# series_targets [TAG...]: kernel files touched by these commits (default: all)
series_targets() {
	local t
	if [ $# = 0 ]; then series_files; else for t in "$@"; do series_files "$t"; done; fi |
		sed 's/\.patch$//' | awk '!s[$0]++'
}

# ---- patch files and parts ------------------------------------------------
# patch_tags FILE: the tags of a multi-part patch file, in order (nothing if single part)
patch_tags() { sed -n 's/^#series-part:[ \t]*\([^ \t]*\).*/\1/p' "$1"; }
# patch_part FILE TAG: the diff of part TAG (the whole file when it is single part)
patch_part() {
	if grep -q '^#series-part:' "$1"; then
		awk -v t="$2" '/^#series-part:/ { p = ($2 == t); next } p' "$1"
	else
		cat "$1"
	fi
}

# apply_file STATE TAG PATH: apply the repo file PATH, as commit TAG uses it, to the
# kernel files in directory STATE. Prints one line and fails when it does not apply.
apply_file() {
	local state=$1 tag=$2 p=$3 t part out
	t=$(target "$p")
	if [ "$p" = "$t" ]; then
		mkdir -p "$state/$(dirname "$t")" && cp "$ROOT/$p" "$state/$t" && return 0
		echo "$p: cannot copy"; return 1
	fi
	if grep -q '^#series-part:' "$ROOT/$p" && ! patch_tags "$ROOT/$p" | grep -qx "$tag"; then
		echo "$p: no '#series-part: $tag' part for commit $tag"; return 1
	fi
	part=$state.part
	patch_part "$ROOT/$p" "$tag" > "$part"
	# An empty part is a start: `make sync` fills it from the edit in build/linux.
	if ! grep -q '^+++ ' "$part"; then
		! grep -q '[^[:space:]]' "$part" && return 0
		echo "$p: part $tag holds no diff"; return 1
	fi
	if grep '^+++ ' "$part" | grep -qv "^+++ b/$t\([ \t].*\)\{0,1\}$"; then
		echo "$p: a diff in it is not for b/$t"; return 1
	fi
	out=$(patch -p1 -F0 -N -s --no-backup-if-mismatch -r - -d "$state" -i "$part" 2>&1) || {
		echo "$p (commit $tag) does not apply: $(echo "$out" | grep -v '^patching file' | head -n 1)"
		return 1
	}
}

# state_init STATE: base versions of every kernel file the series patches.
state_init() {
	local t
	rm -rf "$1"; mkdir -p "$1"
	for t in $(series_targets); do
		[ -f "$BASE/$t" ] || continue
		mkdir -p "$1/$(dirname "$t")" && cp "$BASE/$t" "$1/$t"
	done
}
# state_commit STATE TAG: apply one commit's files to STATE; dies naming the file.
state_commit() {
	local p msg
	for p in $(series_files "$2"); do
		msg=$(apply_file "$1" "$2" "$p") || die "$msg"
	done
}

# lay TREE STATE RECORD GUARD TARGET...: make TREE hold STATE's version of each
# TARGET and the base version of files RECORD says were laid before but are not
# targets now. Only files whose content differs are written (mtimes of the others
# are kept). RECORD lists "sum path" of what was laid. With GUARD=1, a file whose
# content in TREE is not what was laid last (an edit not yet synced) stops
# everything before anything is written.
lay() {
	local tree=$1 state=$2 rec=$3 guard=$4 t cur last new n=0 r=0
	shift 4
	printf '%s\n' "$@" | sed '/^$/d' | sort > "$state.new"
	[ -f "$rec" ] || : > "$rec"
	awk '{ print $2 }' "$rec" | sort > "$state.old"
	comm -23 "$state.old" "$state.new" > "$state.gone"
	if [ "$guard" = 1 ]; then
		while read -r t; do
			cur=$(sum "$tree/$t")
			last=$(awk -v t="$t" '$2 == t { print $1 }' "$rec")
			[ -n "$last" ] || last=$(sum "$BASE/$t")
			if grep -qx "$t" "$state.new"; then new=$(sum "$state/$t"); else new=$(sum "$BASE/$t"); fi
			[ "$cur" = "$last" ] || [ "$cur" = "$new" ] ||
				die "${tree#"$ROOT"/}/$t was edited and not synced: run 'make sync' first (or FORCE=1 to drop the edit)"
		done < <(cat "$state.new" "$state.gone")
	fi
	: > "$rec.tmp"
	while read -r t; do
		if ! cmp -s "$state/$t" "$tree/$t"; then
			mkdir -p "$tree/$(dirname "$t")" && rm -f "$tree/$t" && cp "$state/$t" "$tree/$t" ||
				die "cannot write $tree/$t"
			n=$((n + 1))
		fi
		echo "$(sum "$tree/$t") $t" >> "$rec.tmp"
	done < "$state.new"
	while read -r t; do
		if [ -f "$BASE/$t" ]; then
			cmp -s "$BASE/$t" "$tree/$t" || { rm -f "$tree/$t" && cp "$BASE/$t" "$tree/$t" && r=$((r + 1)); }
		elif [ -e "$tree/$t" ]; then
			rm -f "$tree/$t" && r=$((r + 1))
		fi
	done < "$state.gone"
	mv "$rec.tmp" "$rec"
	LAY_CHANGED=$n LAY_RESTORED=$r
}

# deps TARGET...: install the Debian packages these make targets need (when missing).
deps() {
	local t pkgs=
	for t in "$@"; do
		case $t in
		tree|sync|series) pkgs="$pkgs $BASE_PKG xz-utils patch diffutils git" ;;
		kernel)	pkgs="$pkgs build-essential bc bison flex libelf-dev libssl-dev cpio kmod ccache" ;;
		cross)	pkgs="$pkgs gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm" ;;
		run)	pkgs="$pkgs qemu-system-x86 cpio busybox-static kcapi-tools" ;;
		check)	pkgs="$pkgs perl sparse python3 qemu-system-x86 qemu-system-data python3-sphinx
			      python3-yaml cpio busybox-static kcapi-tools" ;;
		*)	die "deps: unknown target $t" ;;
		esac
	done
	# shellcheck disable=SC2086
	ensure_pkgs $pkgs
}

# ---- kernel builds ----------------------------------------------------------

# locked CMD...: run CMD holding the shared build lock (2 cores, several engineers).
# Seconds spent waiting are added to the file $JTSC_LOCKWAIT when it is set. Nested
# calls (JTSC_LOCKED set) just run CMD: take the lock once around a whole job.
locked() {
	local t0
	[ -z "${JTSC_LOCKED:-}" ] || { "$@"; return; }
	t0=$(date +%s)
	(
		flock 9
		export JTSC_LOCKED=1
		w=$(($(date +%s) - t0))
		[ "$w" -lt 2 ] || echo "$PROG: waited ${w}s for $BUILD_LOCK" >&2
		[ -z "${JTSC_LOCKWAIT:-}" ] || echo "$w" >> "$JTSC_LOCKWAIT"
		"$@"
	) 9> "$BUILD_LOCK"
}

# kmake SRC OBJ ARGS...: make in kernel tree SRC with O=OBJ, under the shared build
# lock, with ccache when present. JTSC_ARCH picks the target: x86_64 (default), i386
# (the host gcc with -m32) or arm64 (Debian's aarch64-linux-gnu cross compiler).
kmake() {
	local src=$1 obj=$2 cc=gcc arch=()
	shift 2
	case ${JTSC_ARCH:-x86_64} in
	x86_64)	;;
	i386)	arch=(ARCH=i386) ;;
	arm64)	arch=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-); cc=aarch64-linux-gnu-gcc ;;
	*)	die "kmake: unknown JTSC_ARCH ${JTSC_ARCH}" ;;
	esac
	mkdir -p "$obj"
	if command -v ccache >/dev/null; then
		CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G} \
			locked make -C "$src" O="$obj" -j"$JOBS" "${arch[@]}" CC="ccache $cc" "$@"
	else
		locked make -C "$src" O="$obj" -j"$JOBS" "${arch[@]}" CC="$cc" "$@"
	fi
}

# guest_config SRC OBJ VERIFY [FRAGMENT...]: harness/config/guest.config (or, with
# JTSC_BASE_CONFIG=none, nothing) and the fragments merged by merge_config.sh -m,
# then allnoconfig with the result as KCONFIG_ALLCONFIG (what merge_config.sh -n does,
# without its temp file in SRC): options the fragment makes visible stay n, so the
# kernel stays small. Then olddefconfig. With VERIFY=1 fail naming every fragment
# option that was dropped.
guest_config() {
	local src=$1 obj=$2 verify=$3 dropped
	shift 3
	mkdir -p "$obj"
	rm -f "$obj/.config"
	local base=("$HARNESS/config/guest.config")
	[ "${JTSC_BASE_CONFIG:-}" != none ] || base=()
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"${base[@]}" "$@") > "$obj/merge_config.log" 2>&1 &&
		mv "$obj/.config" "$obj/fragment.config" ||
		{ echo "merge_config.sh failed, see $obj/merge_config.log"; return 1; }
	kmake "$src" "$obj" -s KCONFIG_ALLCONFIG="$obj/fragment.config" allnoconfig || return 1
	kmake "$src" "$obj" -s olddefconfig || return 1
	[ "$verify" = 1 ] || return 0
	# What the fragments ask for, a later fragment overriding an earlier one.
	dropped=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=[ym]\)$/\1/p' "$obj/fragment.config" |
		while read -r l; do grep -qx "$l" "$obj/.config" || echo "${l%=*}"; done
		sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$obj/fragment.config" |
		while read -r o; do ! grep -q "^$o=" "$obj/.config" || echo "$o(set)"; done)
	[ -z "$dropped" ] || { echo "config options dropped by Kconfig:" $dropped; return 1; }
}
