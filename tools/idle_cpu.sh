#!/bin/bash
# CPU seconds (user + system) a viewer uses over 10 s, measured from /proc/PID/stat 5 s after
# it starts (the model loaded, the first frames drawn). Run under a display, e.g.
#   xvfb-run -a -s "-screen 0 1280x800x24" tools/idle_cpu.sh build/rigview MODEL
# The settings go to a temporary folder (the person's own are neither read nor changed).
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 RIGVIEW MODEL" >&2
    exit 2
fi
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
"$1" "$2" >/dev/null 2>&1 &
pid=$!
sleep 5
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
a=$(ticks)
sleep 10
b=$(ticks)
kill "$pid"
wait "$pid" 2>/dev/null || true
awk -v a="$a" -v b="$b" -v hz="$(getconf CLK_TCK)" -v m="$2" 'BEGIN { printf "%s: %.2f s of CPU in 10 s\n", m, (b - a) / hz }'
