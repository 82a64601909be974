#!/usr/bin/env bash
# Regenerate docs/screenshot.png: the viewer itself, in a virtual X display, on the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs
xvfb-run -a -s "-screen 0 1280x800x24 -noreset" build/rigview --clip walk --frames 40 --screenshot docs/screenshot.png --no-watch
