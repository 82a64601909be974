#!/usr/bin/env bash
# Install what is missing, build, and run every test (CTest). Then build with ASan/UBSan and
# run the sweep of every assimp-testmodels file again under the sanitizers
# (RIGVIEW_SKIP_SANITIZERS=1 skips that part).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600

if [[ "${RIGVIEW_SKIP_SANITIZERS:-0}" != 1 ]]; then
  echo "== sanitizer build (ASan + UBSan): the file sweep and the unit tests again"
  BUILD_DIR=build-asan CMAKE_ARGS="-DRIGVIEW_SANITIZE=ON -DRIGVIEW_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo" tools/setup.sh
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp":print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 900
fi
