#!/bin/bash
# clone.sh KERNEL INITRD OUTDIR [cmdline words...] - two clones of one VM:
# boot the guest with jtsc.mode=clone, and once it says "clone.ready=1" (it
# has read from its rngs and waits for a line on its console) stop it, save
# it with QEMU's migration to a file and quit; then start a QEMU from that
# file (-incoming), continue it and type a line on its console, twice, one
# after the other. Both clones go on from the same state: what init reads
# after the line is each clone's own. Consoles: OUTDIR/clone-save.log,
# clone-1.log, clone-2.log. Each QEMU is boot.sh's (same machine, kernel and
# command line: a restore needs the saved machine), with a monitor and the
# console's input on FIFOs (QEMU's pipe chardev, no socat needed).
# Exit 0 when both clones printed "JTSC done=1"; otherwise a line on stderr
# says which stage failed, and the exit status is non-zero.
# Env: JTSC_BOOT_TIMEOUT (s, default 120: each QEMU), JTSC_QEMU_ARGS (more
# qemu arguments, for every QEMU).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel=${1:?usage: clone.sh KERNEL INITRD OUTDIR [cmdline words...]}
initrd=${2:?usage: clone.sh KERNEL INITRD OUTDIR [cmdline words...]}
outdir=${3:?usage: clone.sh KERNEL INITRD OUTDIR [cmdline words...]}
shift 3
words=("$@")
tmo=${JTSC_BOOT_TIMEOUT:-120}
mkdir -p "$outdir"
# FIFOs and the saved state (tens of MB: most of the guest's RAM is zero)
work=$(mktemp -d "${TMPDIR:-/tmp}/jtsc-clone.XXXXXX") || exit 2
state=$work/state

# What runs now: the boot.sh in the background, the reader of its monitor,
# and the fds of its console and monitor input.
bpid='' cpid='' con='' mon='' name=''
stop_qemu() {	# quit a QEMU still running, then wait for it
	[ -z "$mon" ] || echo quit >&"$mon"
	[ -z "$bpid" ] || wait "$bpid" 2>/dev/null
	[ -z "$cpid" ] || { kill "$cpid" 2>/dev/null; wait "$cpid" 2>/dev/null; }
	[ -z "$con" ] || exec {con}>&-
	[ -z "$mon" ] || exec {mon}>&-
	bpid='' cpid='' con='' mon=''
}
trap 'stop_qemu; rm -rf "$work"' EXIT
fail() { echo "clone: FAILED: $*" >&2; exit 1; }
# why: boot.sh's verdict on the QEMU of the last start()
why() { grep -m1 '^boot: ' "$work/$name.boot" 2>/dev/null | sed 's/^boot: //'; }

# start NAME [qemu args...]: boot.sh in the background, console to
# OUTDIR/clone-NAME.log, console input and HMP monitor on FIFOs held open
# here (read-write: opening never blocks, and QEMU never sees an EOF).
start() {
	local f=$work/$1
	name=$1
	shift
	mkfifo "$f.con" "$f.mon.in" "$f.mon.out" || fail "mkfifo in $work"
	exec {con}<>"$f.con" {mon}<>"$f.mon.in"
	: > "$f.mon.log"
	cat "$f.mon.out" > "$f.mon.log" 2>/dev/null &
	cpid=$!
	rm -f "$outdir/clone-$name.log"
	JTSC_STDIN=$f.con JTSC_QEMU_ARGS="${JTSC_QEMU_ARGS:-} -chardev pipe,id=mon,path=$f.mon -mon chardev=mon $*" \
		"$here/boot.sh" "$kernel" "$initrd" "$outdir/clone-$name.log" \
		jtsc.mode=clone "${words[@]}" 2> "$f.boot" &
	bpid=$!
}
# wait_for FILE PATTERN WHAT: until FILE has a line matching PATTERN (grep
# -E), while QEMU runs, at most $tmo s
wait_for() {
	local i
	for ((i = 0; i < tmo * 4; i++)); do
		grep -aqE "$2" "$1" 2>/dev/null && return 0
		kill -0 "$bpid" 2>/dev/null || fail "$3: QEMU ended first ($(why))"
		sleep 0.25
	done
	fail "$3: not within $tmo s"
}
# migrated NAME WHAT: ask the monitor "info migrate" until it says completed
migrated() {
	local i log=$work/$1.mon.log
	for ((i = 0; i < tmo * 2; i++)); do
		echo "info migrate" >&"$mon"
		sleep 0.5
		grep -aq 'Migration status: completed' "$log" && return 0
		grep -aqE 'Migration status: (failed|cancelled)' "$log" &&
			fail "$2: $(grep -aE 'Migration status|rror' "$log" | tr -d '\r' | tail -n 2 | paste -sd ' ')"
		kill -0 "$bpid" 2>/dev/null || fail "$2: QEMU ended first"
	done
	fail "$2: not completed within $tmo s"
}
t0=$(date +%s)

# 1. the guest to clone, saved once init has read from its rngs
start save
wait_for "$outdir/clone-save.log.raw" 'JTSC clone\.ready=1' "boot to clone.ready=1"
echo stop >&"$mon"
# "exec:" runs a shell command: no space in it, the qemu arguments are word-split
echo "migrate exec:cat>$state" >&"$mon"
migrated save "saving the stopped guest to $state"
stop_qemu
[ -s "$state" ] || fail "no saved state in $state"
echo "clone: saved at clone.ready=1, $(($(stat -c %s "$state") / 1048576)) MiB, $(($(date +%s) - t0)) s" >&2

# 2. two clones from it, one after the other. The saved guest was stopped,
# so a restored one stays paused until "cont"; the line goes to its console
# after that, when the UART runs.
for i in 1 2; do
	start "$i" -incoming "exec:cat<$state"
	migrated "$i" "clone $i: restoring $state"
	echo cont >&"$mon"
	echo >&"$con"
	wait "$bpid"
	rc=$?
	bpid=''
	stop_qemu
	[ "$rc" = 0 ] || fail "clone $i: $(why)"
	echo "clone: clone $i finished ($outdir/clone-$i.log)" >&2
done
echo "clone: ok in $(($(date +%s) - t0)) s" >&2
