#!/bin/sh
# A crowd's two-thread scaling: `rigview bench --instances N` on 1 thread pinned to core 0,
# on 1 thread pinned to core 1, and on 2 threads on both cores, in interleaved rounds (the
# order alternating), because absolute times on a shared machine drift. Each round prints:
#   ratio       the mean of the two 1-thread frames / the 2-thread frame (2 is perfect);
#   of_cores    the 2-thread frame's share of what the two cores can do together, as each
#               measured alone in the round: 1 / (1/t0 + 1/t1) / t2 (1 is perfect);
#   uneven      where one core ran more than 15 % slower than the other alone. A virtual
#               machine's core slowed by its host (another guest on the same physical core)
#               caps the ratio below 2 whatever the crowd does: of_cores still shows what it did.
# The summary gives the median ratio over the even rounds (the scaling), over all rounds, and
# the median of_cores. Meant for a quiet host: it prints the load average before and after,
# and says when it was over 0.5 (another process on a core takes that core's share).
#
# usage: bench/crowd_scaling.sh [-n ROUNDS] [-i INSTANCES] [-t TICKS] [-r RIGVIEW] [MODEL]
#   defaults: 9 rounds, 1000 instances, 3000 ticks, build/rigview,
#   /usr/share/assimp/models/X/BCN_Epileptic.X (58 nodes, 54 joints)
set -eu
rounds=9 instances=1000 ticks=3000 rigview=build/rigview
usage="usage: $0 [-n ROUNDS] [-i INSTANCES] [-t TICKS] [-r RIGVIEW] [MODEL]"
while getopts n:i:t:r: opt; do
    case $opt in
        n) rounds=$OPTARG ;;
        i) instances=$OPTARG ;;
        t) ticks=$OPTARG ;;
        r) rigview=$OPTARG ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
model=${1:-/usr/share/assimp/models/X/BCN_Epileptic.X}
[ -x "$rigview" ] || { echo "$0: $rigview: not built" >&2; exit 1; }
[ -r "$model" ] || { echo "$0: $model: not readable" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "$0: needs two cores, this host has $(nproc)" >&2; exit 1; }

load() { cut -d' ' -f1 /proc/loadavg; }
busy() { awk -v l="$1" 'BEGIN { exit !(l > 0.5) }'; }
# The median frame (ms) of one run: THREADS CPUS
frame() {
    taskset -c "$2" "$rigview" bench "$model" --instances "$instances" --threads "$1" --ticks "$ticks" --json |
        sed -n 's/.*"ms_per_frame":\([0-9.e+-]*\).*/\1/p'
}
median() { sort -g | awk 'NF { v[++n] = $1 } END { if (!n) print "-"; else print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'; }

before=$(load)
busy "$before" && echo "warning: load average $before before the runs: the host is not quiet" >&2
echo "$model: $instances instances, $ticks ticks a run, $rounds rounds, load average $before"
printf '%5s %10s %10s %10s %7s %8s\n' round 1t_core0 1t_core1 2t_ms ratio of_cores
rows=
i=1
while [ "$i" -le "$rounds" ]; do
    if [ $((i % 2)) -eq 1 ]; then
        a0=$(frame 1 0) a1=$(frame 1 1) b=$(frame 2 0,1)
    else
        b=$(frame 2 0,1) a1=$(frame 1 1) a0=$(frame 1 0)
    fi
    row=$(awk -v a0="$a0" -v a1="$a1" -v b="$b" 'BEGIN {
        r = (a0 + a1) / 2 / b; c = 1 / (1 / a0 + 1 / a1) / b
        hi = a0 > a1 ? a0 : a1; lo = a0 > a1 ? a1 : a0
        printf "%.3f %.3f %s", r, c, (hi > 1.15 * lo) ? "uneven" : "even" }')
    set -- $row
    printf '%5d %10.4f %10.4f %10.4f %7s %8s %s\n' "$i" "$a0" "$a1" "$b" "$1" "$2" "$([ "$3" = uneven ] && echo uneven || true)"
    rows="$rows$a0 $a1 $b $row
"
    i=$((i + 1))
done
after=$(load)
busy "$after" && echo "warning: load average $after after the runs: the host is not quiet" >&2
even=$(printf '%s' "$rows" | awk '$6 == "even"' | wc -l)
m1=$(printf '%s' "$rows" | awk '{ print ($1 + $2) / 2 }' | median)
m2=$(printf '%s' "$rows" | awk '{ print $3 }' | median)
me=$(printf '%s' "$rows" | awk '$6 == "even" { print $4 }' | median)
ma=$(printf '%s' "$rows" | awk '{ print $4 }' | median)
mc=$(printf '%s' "$rows" | awk '{ print $5 }' | median)
echo "median: 1 thread $m1 ms, 2 threads $m2 ms; ratio 1t/2t $me over the $even even rounds, $ma over all $rounds; of_cores $mc (load average $before -> $after)"
