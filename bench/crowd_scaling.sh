#!/bin/sh
# A crowd's two-thread scaling: `rigview bench --instances N` on 1 thread pinned to one core
# against 2 threads on two cores, in interleaved rounds (the order alternating), because
# absolute times on a shared machine drift. Prints each round, the median frame of each side
# and the median of the per-round ratios 1-thread / 2-thread (higher is better; 2 is perfect).
# Meant for a quiet host: it prints the load average before and after, and says when it was
# over 0.5 (another process on a core takes that core's share from the 2-thread side).
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
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

before=$(load)
busy "$before" && echo "warning: load average $before before the runs: the host is not quiet" >&2
echo "$model: $instances instances, $ticks ticks a run, $rounds rounds, load average $before"
printf '%5s %10s %10s %7s\n' round 1t_ms 2t_ms ratio
ones= twos= ratios=
i=1
while [ "$i" -le "$rounds" ]; do
    if [ $((i % 2)) -eq 1 ]; then
        a=$(frame 1 1) b=$(frame 2 0,1)
    else
        b=$(frame 2 0,1) a=$(frame 1 1)
    fi
    r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
    printf '%5d %10.4f %10.4f %7s\n' "$i" "$a" "$b" "$r"
    ones="$ones $a" twos="$twos $b" ratios="$ratios $r"
    i=$((i + 1))
done
after=$(load)
busy "$after" && echo "warning: load average $after after the runs: the host is not quiet" >&2
m1=$(echo "$ones" | tr ' ' '\n' | sed '/^$/d' | median)
m2=$(echo "$twos" | tr ' ' '\n' | sed '/^$/d' | median)
mr=$(echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | median)
echo "median: 1 thread $m1 ms, 2 threads $m2 ms, ratio 1t/2t $mr (load average $before -> $after)"
