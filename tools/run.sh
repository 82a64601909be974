#!/usr/bin/env bash
# Quick start: install what is missing, build, and open the viewer on the bundled demo
# (or on the model given as the first argument).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
exec build/rigview "$@"
