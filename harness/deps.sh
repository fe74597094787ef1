#!/bin/bash
# harness/deps.sh TARGET... - apt-get install the Debian packages the make targets need
# (tree, sync, series, kernel, run, check), only those missing; apt-get update runs once,
# before the first install. The list is deps() in harness/lib.sh.
set -eu
PROG=deps
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || die "usage: deps.sh TARGET... (tree sync series kernel run check)"
deps "$@"
