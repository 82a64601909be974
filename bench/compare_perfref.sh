#!/bin/sh
# rigview's per-tick time against the plain reference loop (../shared/perfref), measured in
# interleaved pairs pinned to one core, because absolute times on a shared machine drift.
# Prints, per model, the median of the per-pair ratios rigview/plain (lower is better).
#
# usage: bench/compare_perfref.sh [-n PAIRS] [-c CPU] [-r RIGVIEW] [-p BENCH_PLAIN] MODEL...
#   defaults: 7 pairs, CPU 1, build/rigview, /tmp/perfref/bench_plain
set -eu
pairs=7 cpu=1 rigview=build/rigview plain=/tmp/perfref/bench_plain ticks=20000
while getopts n:c:r:p:t: opt; do
    case $opt in
        n) pairs=$OPTARG ;;
        c) cpu=$OPTARG ;;
        r) rigview=$OPTARG ;;
        p) plain=$OPTARG ;;
        t) ticks=$OPTARG ;;
        *) echo "usage: $0 [-n PAIRS] [-c CPU] [-r RIGVIEW] [-p BENCH_PLAIN] [-t TICKS] MODEL..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-n PAIRS] [-c CPU] [-r RIGVIEW] [-p BENCH_PLAIN] [-t TICKS] MODEL..." >&2; exit 2; }
for exe in "$rigview" "$plain"; do
    [ -x "$exe" ] || { echo "$0: $exe: not built" >&2; exit 1; }
done
printf '%-28s %6s %10s %10s %8s\n' model joints plain_ns rigview_ns ratio
for model in "$@"; do
    ratios= pl= rv= joints=
    i=0
    while [ $i -lt "$pairs" ]; do
        p=$(taskset -c "$cpu" "$plain" "$model" --ticks="$ticks" | sed -n 's/.*median_ns=\([0-9.]*\).*/\1/p')
        j=$(taskset -c "$cpu" "$rigview" bench "$model" --ticks "$ticks" --json)
        r=$(printf '%s' "$j" | sed -n 's/.*"ns_per_tick": *\([0-9.eE+-]*\).*/\1/p')
        joints=$(printf '%s' "$j" | sed -n 's/.*"joints": *\([0-9]*\).*/\1/p')
        [ -n "$p" ] && [ -n "$r" ] || { echo "$0: $model: no timing (plain '$p', rigview '$r')" >&2; exit 1; }
        ratios="$ratios $(awk -v a="$r" -v b="$p" 'BEGIN{printf "%.4f", a/b}')"
        pl="$pl $p" rv="$rv $r"
        i=$((i + 1))
    done
    med() { printf '%s\n' $1 | sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
    printf '%-28s %6s %10s %10s %8s\n' "$(basename "$model")" "$joints" "$(med "$pl")" "$(med "$rv")" "$(med "$ratios")"
done
