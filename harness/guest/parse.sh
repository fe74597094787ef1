# shellcheck shell=bash
# parse.sh - sourced by report.sh and boottest.sh (bash): jtsc_load LOG reads
# the guest's "JTSC key=value" lines into the associative array J (first
# value of each key wins) and the "JTSC klog=" lines into the array KLOG.
# jv KEY prints J[KEY] or nothing.
declare -A J
KLOG=()

jtsc_load() {
	local line kv key val
	J=()
	KLOG=()
	[ -r "$1" ] || return 1
	while IFS= read -r line; do
		kv=${line#*JTSC }
		key=${kv%%=*}
		val=${kv#*=}
		case $key in
		klog) KLOG+=("$val") ;;
		*) [ -n "${J[$key]+x}" ] || J[$key]=$val ;;
		esac
	done < <(grep -ao 'JTSC [A-Za-z0-9_.-]*=.*' "$1" | tr -d '\r')
}

jv() { echo "${J[$1]:-}"; }
