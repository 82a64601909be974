#!/usr/bin/env bash
# Quick start: install what is missing, build the viewer (the rigview target alone: no tests,
# no benchmarks, no Python module), and open it on the bundled demo (or on the model given as
# the first argument; any viewer option may follow).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh rigview
exec "${BUILD_DIR:-build}/rigview" "$@"
