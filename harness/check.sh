#!/bin/bash
# harness/check.sh - `make check`: every test step of the series, in order. Each step
# runs even when an earlier one failed; its output goes to out/logs/<step>.log (path and
# tail printed on failure). Ends with an aligned summary (result, minutes:seconds) and
# the line "N passed, N failed"; exits non-zero when any step failed.
# A step whose inputs do not exist yet fails, saying what is missing.
# STEPS="tree series" make check runs only those steps.
set -u
PROG=check
. "$(dirname "$0")/lib.sh"

ALL_STEPS="newcomer tree series checkpatch bisect guest loop w1-sparse kunit kunit-debug boot fault clone rounds memcg unseeded module fips matrix arm64 docs cutoffs guard"
# Steps that build kernels take the shared build lock once, for the whole step.
LOCKED_STEPS="newcomer bisect guest w1-sparse kunit kunit-debug unseeded matrix arm64"
fail() { echo "FAIL: $*"; exit 1; }

# Series files of a kind, as paths in the kernel tree (after `make tree`).
series_load_quiet() { series_load 2>&1 || exit 1; }
targets_matching() { series_load_quiet; series_targets | grep -E "$1" || true; }
added_files() { series_load_quiet; series_files | grep -v '\.patch$' || true; }

# ccache settings for kunit.py's builds (kmake sets them for the others).
ccache_env() {
	command -v ccache > /dev/null || return 0
	export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	KUNIT_MAKE=(--make_options "CC=ccache gcc")
}

step_tree() {
	"$HARNESS/tree.sh" || fail "the series does not lay over the base"
}

# The series regenerates and `git am` applies it to a checkout of the pristine base,
# giving the same tree as the series commits.
step_series() {
	rm -rf "$OUT/series"	# so no later step checks the mails of an earlier run
	"$HARNESS/series.sh" || fail "make series failed"
	local am=$BUILD/am patches
	patches=$(ls "$OUT"/series/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-cover-letter.patch)
	# A checkout of the base, kept: resetting it rewrites only what the last run changed.
	if ! git -C "$am" rev-parse -q --verify base > /dev/null 2>&1; then
		rm -rf "$am"
		git clone -q --shared -b base "$BUILD/base.git" "$am" || fail "cannot check out build/base.git"
	fi
	git -C "$am" am --abort > /dev/null 2>&1
	git -C "$am" checkout -q -f -B am-test base && git -C "$am" clean -qfdx ||
		fail "cannot reset build/am to the base"
	# shellcheck disable=SC2086
	GIT_COMMITTER_NAME=check GIT_COMMITTER_EMAIL=check@localhost \
		git -C "$am" am -q --whitespace=error-all $patches || fail "git am of out/series failed"
	[ "$(git -C "$am" rev-parse 'HEAD^{tree}')" = \
	  "$(git --git-dir="$BUILD/series.git" rev-parse 'series^{tree}')" ] ||
		fail "git am gave a different tree than the series commits"
	echo "git am: $(echo "$patches" | wc -l) patches applied to the pristine base"
}

step_checkpatch() {
	local p f n=0 bad=0 out
	ls "$OUT"/series/0001-*.patch > /dev/null 2>&1 || fail "no out/series (step series failed?)"
	cd "$LINUX" || fail "no build/linux"
	for p in "$OUT"/series/[0-9][0-9][0-9][0-9]-*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		n=$((n + 1))
		out=$(perl scripts/checkpatch.pl --strict "$p" 2>&1) &&
			echo "$out" | grep -q 'total: 0 errors, 0 warnings, 0 checks' ||
			{ bad=$((bad + 1)); echo "== $(basename "$p")"; echo "$out"; }
	done
	for f in $(added_files); do
		n=$((n + 1))
		out=$(perl scripts/checkpatch.pl --strict -f "$f" 2>&1) &&
			echo "$out" | grep -q 'total: 0 errors, 0 warnings, 0 checks' ||
			{ bad=$((bad + 1)); echo "== $f"; echo "$out"; }
	done
	[ "$bad" = 0 ] || fail "checkpatch --strict complained about $bad of $n patches/files"
	echo "checkpatch --strict: $n patches/files clean"
}

# Each prefix of the series builds the guest kernel, incrementally, in build/bisect
# (same layout relative to build/ as build/linux + build/obj-guest, so ccache hits).
step_bisect() {
	local src=$BUILD/bisect/linux obj=$BUILD/bisect/obj c k=0 tags=() msg
	series_load_quiet
	tree_copy "$src" link
	state_init "$TMP/bisect"
	for c in $(series_commits); do
		k=$((k + 1)); tags+=("$c")
		state_commit "$TMP/bisect" "$c"
		# shellcheck disable=SC2046
		lay "$src" "$TMP/bisect" "$BUILD/bisect/laid.list" 0 $(series_targets "${tags[@]}")
		echo "== commit $k ($c): $(series_field "$c" 3)"
		msg=$(guest_config "$src" "$obj" 0) || fail "commit $k ($c): config: $msg"
		kmake "$src" "$obj" bzImage || fail "commit $k ($c) does not build the guest kernel"
	done
	[ "$k" -gt 0 ] || fail "series/series.conf lists no commit"
	echo "bisect: all $k prefixes build"
}

step_guest() {
	"$HARNESS/kernel.sh" || fail "guest kernel build failed"
}

# The speculative loop's machine code, in the guest kernel and in the
# user-space build, is in the order its header describes; the same walk run
# twice does not predict itself, and no 8 KiB gets over 1000 DRAM loads per
# 64 ms at the rate measured (harness/measure/cross-run.sh).
step_loop() {
	"$HARNESS/measure/loop-check.sh" "$BUILD/obj-guest/crypto/jitter_tsc_kcapi.o" ||
		fail "the loop's machine code is not in the order its header describes"
	"$HARNESS/measure/cross-run.sh" || fail "the walk run twice predicts itself, or the DRAM bound fails"
}

# New warnings from W=1 and sparse (C=2) on the series' objects, against the same
# objects built from the pristine base (upstream's own warnings do not count).
# Built with the guest config plus the KUnit suite's kunitconfig, so the tests build too.
warnings() {	# warnings LOG: "file: warning: message", paths relative, line numbers dropped
	grep -E '(warning|error):' "$1" |
		sed -E -e "s#$BUILD/(linux|base/$BASE_PKG)/##g" -e 's#^(\.\./)+(linux|base/[^/]*)/##' \
			-e 's#^([^: ]+):[0-9]+(:[0-9]+)?:#\1:#' | sort -u
}
step_w1_sparse() {
	local objs bobjs kc=$HARNESS/config/jitter_tsc.kunitconfig o
	objs=$(targets_matching '\.c$' | sed 's/\.c$/.o/')
	[ -n "$objs" ] || fail "the series has no C file yet"
	bobjs=$(for o in $objs; do [ -f "$BASE/${o%.o}.c" ] && echo "$o"; done)
	echo "objects: " $objs
	msg=$(guest_config "$LINUX" "$BUILD/obj-w1" 0 "$kc") || fail "config: $msg"
	# shellcheck disable=SC2086
	kmake "$LINUX" "$BUILD/obj-w1" W=1 C=2 $objs > "$TMP/w1.log" 2>&1 ||
		{ cat "$TMP/w1.log"; fail "W=1 C=2 build of the series' objects failed"; }
	cat "$TMP/w1.log"
	: > "$TMP/w1-base.log"
	if [ -n "$bobjs" ]; then
		echo "== the same objects from the pristine base:" $bobjs
		msg=$(guest_config "$BASE" "$BUILD/obj-w1-base" 0 "$kc") || fail "base config: $msg"
		# shellcheck disable=SC2086
		kmake "$BASE" "$BUILD/obj-w1-base" W=1 C=2 $bobjs > "$TMP/w1-base.log" 2>&1 ||
			{ cat "$TMP/w1-base.log"; fail "W=1 C=2 build of the base objects failed"; }
	fi
	warnings "$TMP/w1.log" > "$TMP/w.new"
	warnings "$TMP/w1-base.log" > "$TMP/w.base"
	echo "== warnings: $(wc -l < "$TMP/w.new") (series), $(wc -l < "$TMP/w.base") (base)"
	comm -23 "$TMP/w.new" "$TMP/w.base" > "$TMP/w.added"
	[ -s "$TMP/w.added" ] || { echo "no new W=1 or sparse warning"; return 0; }
	echo "== new warnings:"; cat "$TMP/w.added"
	fail "$(wc -l < "$TMP/w.added") new W=1/sparse warnings"
}

# kunit_run BUILD_DIR [more kunit.py args]: the suite under kunit.py, from build/linux.
kunit_run() {
	local dir=$1 kc=$HARNESS/config/jitter_tsc.kunitconfig smp=() KUNIT_MAKE=()
	shift
	grep -qx 'CONFIG_SMP=y' "$kc" && smp=("--qemu_args=-smp 2")
	ccache_env
	cd "$LINUX" || fail "no build/linux"
	locked python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
		--build_dir="$dir" --jobs="$JOBS" --kunitconfig="$kc" "${smp[@]}" "${KUNIT_MAKE[@]}" "$@" ||
		fail "kunit.py run failed"
}
# One kunit.py build serves both KUnit steps: the suite's .kunitconfig with
# harness/config/kunit-debug.config over it (KASAN, lockdep, debug objects).
# kunit runs it; kunit-debug reads the kernel log of that run for reports
# (and runs it itself when kunit did not run first). A second, plain build
# would take as long again, cold, for a config the debug one contains.
step_kunit() {
	rm -f "$BUILD/obj-kunit-debug/test.log"
	kunit_run "$BUILD/obj-kunit-debug" --kunitconfig="$HARNESS/config/kunit-debug.config"
}
step_kunit_debug() {
	local log=$BUILD/obj-kunit-debug/test.log
	[ -f "$log" ] && [ "$log" -nt "$BUILD/linux/crypto/jitter_tsc_kcapi.c" ] || step_kunit
	[ -f "$log" ] || fail "kunit.py left no $log"
	! grep -E 'BUG: |WARNING: possible|ODEBUG:|INFO: possible' "$log" ||
		fail "KASAN, lockdep or debug-objects report in $log"
	echo "no KASAN, lockdep or debug-objects report in the kernel log ($log)"
	# the timed loop in that KASAN build: not instrumented, in its order
	"$HARNESS/measure/loop-check.sh" "$BUILD/obj-kunit-debug/crypto/jitter_tsc_kcapi.o" ||
		fail "the loop is instrumented or out of order in the KASAN build"
}

step_boot() {
	[ -x "$HARNESS/guest/boottest.sh" ] || fail "harness/guest/boottest.sh is missing"
	local img=$BUILD/obj-guest/arch/x86/boot/bzImage
	[ -f "$img" ] || fail "no guest kernel (step guest failed?)"
	"$HARNESS/guest/boottest.sh" "$img" || fail "boot test failed"
}

# Misuse and fault injection on the guest kernel (boottest.sh --fault): odd
# and huge AF_ALG reads, a reader killed mid-read, many readers for two
# minutes, then failover from the speculative to the timer collector and
# -EFAULT once both are failed.
step_fault() {
	local img=$BUILD/obj-guest/arch/x86/boot/bzImage
	[ -f "$img" ] || fail "no guest kernel (step guest failed?)"
	"$HARNESS/guest/boottest.sh" --fault "$img" || fail "fault-injection boot test failed"
}

# Two clones of one saved guest (boottest.sh --clone: QEMU's migration to
# a file, then -incoming twice): the blocks each clone reads from jitter_tsc
# after the restore are its own, as jitterentropy_rng's are. One boot and two
# restores, about 10 s under TCG.
step_clone() {
	local img=$BUILD/obj-guest/arch/x86/boot/bzImage
	[ -f "$img" ] || fail "no guest kernel (step guest failed?)"
	"$HARNESS/guest/boottest.sh" --clone "$img" || fail "VM-clone boot test failed"
}

# An unprivileged reader opening, reading and closing jitter_tsc sockets
# 1000 times (boottest.sh --rounds), on the default boot and a timer-only
# one: no collector retired, no credit moved, no new estimate.
step_rounds() {
	local img=$BUILD/obj-guest/arch/x86/boot/bzImage
	[ -f "$img" ] || fail "no guest kernel (step guest failed?)"
	"$HARNESS/guest/boottest.sh" --rounds "$img" || fail "unprivileged-rounds boot test failed"
}

# A reader in a memory cgroup too small for the speculative buffer
# (boottest.sh --memcg) starts every shard's collector; then another reader
# still gets the speculative collector at the boot's credit.
step_memcg() {
	local img=$BUILD/obj-guest/arch/x86/boot/bzImage
	[ -f "$img" ] || fail "no guest kernel (step guest failed?)"
	"$HARNESS/guest/boottest.sh" --memcg "$img" || fail "memory-cgroup boot test failed"
}

# Uses of the crng before it is ready, counted by an instrumented copy of
# the guest kernel (CONFIG_WARN_ALL_UNSEEDED_RANDOM is gone by 6.12): none
# after jitter_tsc seeded, fewer than on the stock path.
step_unseeded() {
	[ -f "$BUILD/obj-guest/arch/x86/boot/bzImage" ] || fail "no guest kernel (step guest failed?)"
	"$HARNESS/guest/unseeded.sh" || fail "unseeded-use count failed"
}

# jitter_tsc as a module (harness/config/module.config): it loads, passes its
# selftest, serves AF_ALG and unloads cleanly, while random.c keeps its stock path.
# Only the few objects that depend on the option differ from the guest build, so
# ccache serves the rest.
step_module() {
	local obj=$BUILD/obj-module msg ko
	msg=$(guest_config "$LINUX" "$obj" 1 "$HARNESS/config/module.config") ||
		fail "build/obj-module/.config: $msg"
	kmake "$LINUX" "$obj" bzImage modules || fail "the modular guest kernel does not build"
	ko=$obj/crypto/jitter_tsc.ko
	[ -f "$ko" ] || fail "no crypto/jitter_tsc.ko in build/obj-module"
	"$HARNESS/guest/boottest.sh" --module "$obj/arch/x86/boot/bzImage" "$ko" ||
		fail "module test failed"
}

# FIPS: the guest kernel (CONFIG_CRYPTO_FIPS, no modules) booted with fips=1:
# jitter_tsc, which is not fips_allowed, is not set up at all, so that neither
# the crypto API nor random.c uses it and it cannot panic the kernel. The same
# kernel as every other x86 boot: no build of its own.
step_fips() {
	local img=$BUILD/obj-guest/arch/x86/boot/bzImage
	[ -f "$img" ] || fail "no guest kernel (step guest failed?)"
	grep -qx 'CONFIG_CRYPTO_FIPS=y' "$BUILD/obj-guest/.config" ||
		fail "the guest kernel has no CONFIG_CRYPTO_FIPS (harness/config/guest.config)"
	"$HARNESS/guest/boottest.sh" --fips "$img" || fail "FIPS boot test failed"
}

# matrix_build NAME ARCH TARGET BASE FRAGMENT...: build/obj-NAME from build/linux,
# allnoconfig with the fragments over guest.config (BASE guest) or alone (BASE
# none), for JTSC_ARCH=ARCH; fails naming the config.
matrix_build() {
	local name=$1 arch=$2 target=$3 base=$4 obj=$BUILD/obj-$1 msg
	shift 4
	local over=" +"
	[ "$base" = none ] || over=" + guest.config +"
	echo "== $name: ARCH=$arch, allnoconfig$over" "${@##*/}"
	msg=$(JTSC_ARCH=$arch JTSC_BASE_CONFIG=$base guest_config "$LINUX" "$obj" 1 "$@") ||
		fail "$name: .config: $msg"
	JTSC_ARCH=$arch kmake "$LINUX" "$obj" "$target" || fail "$name: $target does not build"
}
# has_obj NAME FILE.o: the object was built (the option reached Kbuild)
has_obj() { [ -f "$BUILD/obj-$1/$2" ] || fail "$1: no $2 built"; }
# no_sym NAME SYMBOL: vmlinux of build/obj-NAME does not define SYMBOL
no_sym() {
	! nm "$BUILD/obj-$1/vmlinux" | grep -qw "$2" || fail "$1: vmlinux defines $2"
	echo "$1: no $2 in vmlinux"
}

# The configs a distribution builds besides the guest's, at the end of the series
# (the bisect step builds the guest config at every commit): x86_64 with the option
# off, i386 686 with the options and the KUnit suite on, and i386 486 (no TSC).
# The speculative collector exists only on x86_64 with the option on.
step_matrix() {
	local c=$HARNESS/config
	matrix_build x86_64-off x86_64 bzImage guest "$c/x86_64-off.config"
	for o in jitter_tsc.o jitter_tsc_core.o jitter_tsc_estimate.o jitter_tsc_kcapi.o jitter_tsc_testing.o; do
		[ ! -f "$BUILD/obj-x86_64-off/crypto/$o" ] || fail "x86_64-off: crypto/$o built with the option off"
	done
	no_sym x86_64-off jitter_tsc_pull
	matrix_build i386-686 i386 vmlinux none "$c/i386.config"
	for o in core estimate kcapi; do has_obj i386-686 crypto/jitter_tsc_$o.o; done
	has_obj i386-686 crypto/jitter_tsc_kunit.o
	no_sym i386-686 jtsc_spec_fill
	matrix_build i386-notsc i386 vmlinux none "$c/i386.config" "$c/i386-notsc.config"
	for o in core estimate kcapi; do has_obj i386-notsc crypto/jitter_tsc_$o.o; done
	has_obj i386-notsc crypto/jitter_tsc_kunit.o
	no_sym i386-notsc jtsc_spec_fill
	echo "matrix: x86_64 (option off), i386 686 and i386 486 (no TSC) build"
}

# Another architecture runs it: an arm64 guest (Debian's cross compiler, QEMU
# virt under TCG) with the series and its KUnit suite built in.
step_arm64() {
	local img=$BUILD/obj-arm64/arch/arm64/boot/Image
	matrix_build arm64 arm64 Image guest "$HARNESS/config/arm64.config"
	for o in core estimate kcapi; do has_obj arm64 crypto/jitter_tsc_$o.o; done
	has_obj arm64 crypto/jitter_tsc_kunit.o
	no_sym arm64 jtsc_spec_fill
	"$HARNESS/guest/boottest.sh" --arm64 "$img" || fail "arm64 boot test failed"
}

# The README's first command on a fresh clone: `make run` in a clone of the
# repo's HEAD with no build/ (what is committed, not the work tree), which
# unpacks the base, lays the tree, builds the guest kernel (ccache makes that
# short: the same paths relative to build/) and boots it. The clone goes on
# success.
step_newcomer() {
	local d=$BUILD/newcomer repo=$BUILD/newcomer/repo
	# A fresh clone (CI's) is the newcomer's own checkout: make run there, once;
	# its kernel then serves the later steps. Else a fresh clone of HEAD.
	if [ -n "$FRESH_CLONE" ]; then
		repo=$ROOT
	else
		rm -rf "$d"
		mkdir -p "$d"
		git clone -q "$ROOT" "$repo" || fail "cannot clone the repo"
	fi
	echo "== make run in a fresh clone of $(git -C "$repo" log -1 --format='%h %s')"
	(cd "$repo" && make run) || fail "make run fails in a fresh clone (log above)"
	[ -s "$repo/out/run/report.txt" ] || fail "make run in a fresh clone printed no report"
	[ -n "$FRESH_CLONE" ] || rm -rf "$d"
}

# kernel-doc on the series' C files and headers says nothing; the crypto docs build
# without warnings about the series' pages.
step_docs() {
	local f out pat
	[ -f "$LINUX/Documentation/crypto/jitter_tsc.rst" ] ||
		fail "no Documentation/crypto/jitter_tsc.rst in the series yet"
	f=$(targets_matching '\.[ch]$')
	[ -n "$f" ] || fail "the series has no C file or header yet"
	# What kernel-doc says about the base's versions of these files does not count.
	kdoc() { (cd "$1" && for x in $f; do [ ! -f "$x" ] || perl scripts/kernel-doc -none -Wall "$x"; done) 2>&1 |
		sed -E 's/^([^:]+):[0-9]+:/\1:/' | sort -u; }
	kdoc "$LINUX" > "$TMP/kdoc.new"; kdoc "$BASE" > "$TMP/kdoc.base"
	out=$(comm -23 "$TMP/kdoc.new" "$TMP/kdoc.base")
	[ -z "$out" ] || { echo "$out"; fail "kernel-doc -none -Wall reports problems the base did not have"; }
	echo "kernel-doc -Wall: nothing new on" $f
	cd "$LINUX" || fail "no build/linux"
	# About 20 s here, mostly one core: it does not take the build lock.
	nice make O="$BUILD/obj-docs" htmldocs SPHINXDIRS=crypto > "$TMP/docs.log" 2>&1 ||
		{ cat "$TMP/docs.log"; fail "make htmldocs SPHINXDIRS=crypto failed"; }
	cat "$TMP/docs.log"
	pat=$(targets_matching '^(Documentation|include|crypto|arch|drivers|lib)/' | sed 's/[.]/[.]/g' | paste -sd'|')
	! grep -iE 'warning|error' "$TMP/docs.log" | grep -E "jitter_tsc|$pat" ||
		fail "htmldocs warnings about the series' files"
	[ -f "$BUILD/obj-docs/Documentation/output/crypto/jitter_tsc.html" ] ||
		fail "htmldocs made no crypto/jitter_tsc.html"
	echo "htmldocs: crypto/jitter_tsc.html built without warnings"
	"$HARNESS/bench/readme-table.sh" check || fail "README.md does not show the latest make bench table"
	python3 "$HARNESS/measure/check-docs.py" "$ROOT" ||
		fail "figures in the docs, changelogs or comments disagree with the code"
}

step_guard() {
	# The health tests guard twice the credit: sources of known min-entropy
	# (i.i.d., repeating and stepping Markov chains) through the core's own
	# tests at every ladder step; from 16/256 up, at H = credit each fails
	# within 10^6 samples, at 1.5 x credit within 10^7, and none at twice
	# the credit in 10^8 (harness/measure/guard-power.c; about 4 minutes).
	( top=$ROOT; . "$HARNESS/measure/lib.sh"; build_tools guard-power ) ||
		fail "guard-power does not build"
	"$ROOT/build/measure/guard-power" || fail "the guard misses (above)"
}

step_cutoffs() {
	# The measuring tools test themselves (estimators against sources of
	# known entropy and NIST's output, the kernel's own estimator against
	# NIST's output, check-cutoffs.py against right and wrong fixtures),
	# then every step of the credit ladder is recomputed from SP 800-90B,
	# the margin of the runtime estimate is checked against every
	# measurement in harness/measure/margin-results, and the KUnit tables
	# are compared with the models that generated them.
	local m=$HARNESS/measure/check.sh k=$HARNESS/kunit/check-lfsr-vectors.sh
	[ -f "$m" ] && [ -f "$k" ] || fail "harness/measure/check.sh or harness/kunit/check-lfsr-vectors.sh is missing"
	sh "$m" || fail "harness/measure/check.sh failed"
	sh "$k" "$ROOT" || fail "KUnit tables differ from harness/kunit models"
}

# ---- run the steps --------------------------------------------------------
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
# No build/ yet and nothing changed since the commit: a fresh clone.
FRESH_CLONE=
[ -e "$BUILD" ] || [ -n "$(git -C "$ROOT" status --porcelain 2>/dev/null)" ] || FRESH_CLONE=1
deps tree kernel check cross
mkdir -p "$BUILD"
exec 8> "$BUILD/.check.lock"
flock -n 8 || die "another make check is running in this checkout (build/.check.lock)"
mktmp
mkdir -p "$LOGS"
passed=0 failed=0 summary=
t0=$(date +%s)
for s in ${STEPS:-$ALL_STEPS}; do
	fn=step_${s//-/_}
	declare -F "$fn" > /dev/null || die "unknown step $s (steps: $ALL_STEPS)"
	log=$LOGS/$s.log
	printf '%-12s ... ' "$s"
	start=$(date +%s)
	export JTSC_LOCKWAIT=$TMP/lockwait.$s
	: > "$JTSC_LOCKWAIT"
	lock=
	case " $LOCKED_STEPS " in *" $s "*) lock=locked ;; esac
	(set -o pipefail; $lock "$fn") > "$log" 2>&1
	rc=$?
	d=$(($(date +%s) - start))
	w=$(awk '{ s += $1 } END { print s + 0 }' "$JTSC_LOCKWAIT")
	dur=$(mmss "$d")
	wait=$(mmss "$w")
	if [ "$rc" = 0 ]; then
		passed=$((passed + 1)); res=pass
		echo "pass  $dur"
	else
		failed=$((failed + 1)); res=FAIL
		echo "FAIL  $dur  ($(sed '/^[[:space:]]*$/d' "$log" | tail -n 1 | sed 's/^FAIL: //'))"
		echo "    log: ${log#"$ROOT"/}"
		tail -n 15 "$log" | sed 's/^/    | /'
	fi
	summary="$summary$(printf '%-12s %-4s %6s %6s' "$s" "$res" "$dur" "$wait")"$'\n'
done
d=$(($(date +%s) - t0))
echo
printf '%-12s %-4s %6s %6s  %s\n' step res time lock "(m:ss; lock: waiting for others' builds)"
printf '%s' "$summary"
printf '%-12s %-4s %6s\n' total "" "$(mmss "$d")"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
