#!/usr/bin/env bash
# Install what is missing, build, and run every test (CTest). Then build with ASan/UBSan and
# run the whole suite again under the sanitizers (RIGVIEW_SKIP_SANITIZERS=1 skips it), and
# fuzz the ASF/AMC parser and the IQM reader with libFuzzer for a bounded time each
# (RIGVIEW_FUZZ_SECONDS, default 60; 0 skips it), then the glTF morph-weight reader for half
# that time.
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
  cmake --build build-fuzz --target asf_amc_fuzz iqm_fuzz iqm_write_seeds -j"$(nproc)"
  (cd build-fuzz/tests && mkdir -p asf_amc_corpus &&
    ./asf_amc_fuzz -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 \
      -dict=asf_amc_fuzz.dict asf_amc_corpus asf_amc_seeds 2>&1 | tail -n 12)
  # rigview's glTF morph-weight reader, for half that time.
  GLTF_FUZZ_SECONDS=$(( FUZZ_SECONDS / 2 > 0 ? FUZZ_SECONDS / 2 : 1 ))
  echo "== libFuzzer: the glTF morph reader for ${GLTF_FUZZ_SECONDS} s"
  cmake --build build-fuzz --target gltf_morph_fuzz -j"$(nproc)"
  (cd build-fuzz/tests && mkdir -p gltf_morph_corpus &&
    ./gltf_morph_fuzz -max_total_time="$GLTF_FUZZ_SECONDS" -timeout=10 -print_final_stats=1 \
      -dict=gltf_morph_fuzz.dict gltf_morph_corpus gltf_morph_seeds 2>&1 | tail -n 12)
  echo "== libFuzzer: the IQM reader for ${FUZZ_SECONDS} s"
  (cd build-fuzz/tests && mkdir -p iqm_corpus iqm_seeds && ./iqm_write_seeds iqm_seeds &&
    cp /usr/share/assimp/models/IQM/mrfixit.iqm iqm_seeds/ &&
    ./iqm_fuzz -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      iqm_corpus iqm_seeds 2>&1 | tail -n 12)
fi
