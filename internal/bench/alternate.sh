#!/bin/sh
# alternate.sh RUNS 'COMMAND A' 'COMMAND B' ['COMMAND C' ...]
#
# Runs the commands in turn, RUNS times each after one warm-up of each,
# their output thrown away, timing every run with GNU time (/usr/bin/time,
# the Debian package time). Prints each run, then the median wall time
# and peak resident set of each command and, for each command but the
# last, the median of the ratios of its runs to the last command's run of
# the same round (A/B with two commands): measured side by side, so that
# the machine's drift between rounds falls on all of them. Three commands
# compare a new build and the one before it with the same baseline.
set -eu
runs=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
labels="A B C D E F"
measure() { # label command
	/usr/bin/time -f "$1 %e %M" -a -o "$log" sh -c "exec $2 >/dev/null"
}
for c in "$@"; do
	sh -c "exec $c >/dev/null"
done
i=0
while [ "$i" -lt "$runs" ]; do
	n=0
	for c in "$@"; do
		n=$((n + 1))
		measure "$(echo "$labels" | cut -d' ' -f"$n")" "$c"
	done
	i=$((i + 1))
done
cat "$log"
awk -v n="$#" -v labels="$labels" '
	function median(v, m,   i, j, t) {
		for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
		return m % 2 ? v[(m+1)/2] : (v[m/2] + v[m/2+1]) / 2
	}
	BEGIN { split(labels, name, " "); for (k = 1; k <= n; k++) idx[name[k]] = k }
	{ k = idx[$1]; c[k]++; w[k, c[k]] = $2; m[k, c[k]] = $3 }
	END {
		for (k = 1; k <= n; k++) {
			for (r = 1; r <= c[k]; r++) { tw[r] = w[k, r]; tm[r] = m[k, r] }
			printf "%s: median %.3f s, %.1f MB peak RSS\n", name[k], median(tw, c[k]), median(tm, c[k]) / 1024
		}
		for (k = 1; k < n; k++) {
			for (r = 1; r <= c[n]; r++) { rw[r] = w[k, r] / w[n, r]; rm[r] = m[k, r] / m[n, r] }
			printf "%s/%s: median of pair ratios %.3f (time), %.3f (peak RSS)\n", name[k], name[n], median(rw, c[n]), median(rm, c[n])
		}
	}' "$log"
