#!/bin/sh
# check-margin.sh - build ea-core (the kernel's runtime estimate in user
# space) and ea_noniid, and run check-margin.py: the credit the runtime estimate picks is at
# most half of every measured and known min-entropy. Exits as it does.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/harness/measure/lib.sh"
build_tools ea-core ea_noniid || { echo "check-margin: cannot build ea-core or ea_noniid"; exit 1; }
exec python3 "$top/harness/measure/check-margin.py" --ea-core "$M/ea-core" --ea-noniid "$M/ea_noniid" "$@"
