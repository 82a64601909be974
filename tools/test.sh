#!/usr/bin/env bash
# Install what is missing, build, and run every test (CTest). Then build with ASan/UBSan and
# run the whole suite again under the sanitizers (RIGVIEW_SKIP_SANITIZERS=1 skips it), and
# fuzz the ASF/AMC parser with libFuzzer for a bounded time (RIGVIEW_FUZZ_SECONDS, default
# 60; 0 skips it) and rigview's glTF JSON reading for half that.
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

FUZZ_SECONDS=${RIGVIEW_FUZZ_SECONDS:-60}
if [[ "$FUZZ_SECONDS" != 0 ]]; then
  echo "== libFuzzer: the ASF/AMC parser for ${FUZZ_SECONDS} s"
  if [[ ! -f build-fuzz/CMakeCache.txt ]]; then
    cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DRIGVIEW_FUZZ=ON \
      -DRIGVIEW_BUILD_BENCH=OFF -DRIGVIEW_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  fi
  cmake --build build-fuzz --target asf_amc_fuzz -j"$(nproc)"
  (cd build-fuzz/tests && mkdir -p asf_amc_corpus &&
    ./asf_amc_fuzz -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 \
      -dict=asf_amc_fuzz.dict asf_amc_corpus asf_amc_seeds 2>&1 | tail -n 12)
  echo "== libFuzzer: rigview's glTF JSON reading for $((FUZZ_SECONDS / 2)) s"
  cmake --build build-fuzz --target gltf_nodes_fuzz -j"$(nproc)"
  (cd build-fuzz/tests && mkdir -p gltf_nodes_corpus &&
    ./gltf_nodes_fuzz -max_total_time="$((FUZZ_SECONDS / 2))" -timeout=10 -print_final_stats=1 \
      gltf_nodes_corpus gltf_nodes_seeds 2>&1 | tail -n 12)
fi
