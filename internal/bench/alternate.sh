#!/bin/sh
# alternate.sh RUNS 'COMMAND A' 'COMMAND B'
#
# Runs A and B in turn, RUNS times each after one warm-up of each, their
# output thrown away, timing every run with GNU time (/usr/bin/time, the
# Debian package time). Prints each run, then the median wall time and
# peak resident set of each command and the median of the ratios A/B
# of the pairs: measured side by side, so that the machine's drift
# between runs falls on both.
set -eu
runs=$1 a=$2 b=$3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
measure() { # label command
	/usr/bin/time -f "$1 %e %M" -a -o "$log" sh -c "exec $2 >/dev/null"
}
sh -c "exec $a >/dev/null"
sh -c "exec $b >/dev/null"
i=0
while [ "$i" -lt "$runs" ]; do
	measure A "$a"
	measure B "$b"
	i=$((i + 1))
done
cat "$log"
awk '
	function median(v, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
		return n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2
	}
	$1 == "A" { na++; aw[na] = $2; am[na] = $3 }
	$1 == "B" { nb++; bw[nb] = $2; bm[nb] = $3; rw[nb] = aw[nb] / $2; rm[nb] = am[nb] / $3 }
	END {
		printf "A: median %.3f s, %.1f MB peak RSS\n", median(aw, na), median(am, na) / 1024
		printf "B: median %.3f s, %.1f MB peak RSS\n", median(bw, nb), median(bm, nb) / 1024
		printf "A/B: median of pair ratios %.3f (time), %.3f (peak RSS)\n", median(rw, nb), median(rm, nb)
	}' "$log"
