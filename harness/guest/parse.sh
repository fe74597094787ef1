# shellcheck shell=bash
# parse.sh - sourced by report.sh and boottest.sh (bash): jtsc_load LOG reads
# the guest's "JTSC key=value" lines into the associative array J (first
# value of each key wins) and the "JTSC klog=" lines into the array KLOG.
# jv KEY prints J[KEY] or nothing; why_unregistered prints the kernel's
# "jitter_tsc: ..." lines (its reason) when jitter_tsc did not register.
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

why_unregistered() {
	[ "$(jv crypto.jitter_tsc.count)" = 0 ] || { echo registered; return; }
	local why
	why=$(printf '%s\n' "${KLOG[@]}" | grep 'jitter_tsc: ' |
		sed 's/^\[[^]]*\] jitter_tsc: //' | paste -sd ';' - | sed 's/;/; /g')
	echo "${why:-no jitter_tsc lines in the kernel log (not built in?)}"
}
