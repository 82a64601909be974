#!/usr/bin/env bash
# Install what is missing, build, and run every test (CTest). Then build with ASan/UBSan and
# run the whole suite again under the sanitizers (RIGVIEW_SKIP_SANITIZERS=1 skips it), and
# run every libFuzzer target for a bounded time: RIGVIEW_FUZZ_SECONDS (default 30) each, 0
# skips fuzzing.
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

FUZZ_SECONDS=${RIGVIEW_FUZZ_SECONDS:-30}
# fuzz TARGET CORPUS_DIR [libFuzzer args...]: run one target for FUZZ_SECONDS in build-fuzz/tests,
# its corpus kept between runs; a crash or a leak fails the run.
fuzz() {
  local target=$1 corpus=$2
  shift 2
  echo "== libFuzzer: ${target} for ${FUZZ_SECONDS} s"
  (cd build-fuzz/tests && mkdir -p "$corpus" &&
    ./"$target" -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 "$corpus" "$@" 2>&1 | tail -n 12)
}
if [[ "$FUZZ_SECONDS" != 0 ]]; then
  if [[ ! -f build-fuzz/CMakeCache.txt ]]; then
    cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DRIGVIEW_FUZZ=ON \
      -DRIGVIEW_BUILD_BENCH=OFF -DRIGVIEW_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  fi
  cmake --build build-fuzz --target asf_amc_fuzz iqm_fuzz iqm_write_seeds gltf_json_fuzz gltf_morph_fuzz gltf_nodes_fuzz machine_json_fuzz model_io_fuzz import_fuzz -j"$(nproc)"
  (cd build-fuzz/tests && mkdir -p iqm_seeds && ./iqm_write_seeds iqm_seeds &&
    cp /usr/share/assimp/models/IQM/mrfixit.iqm iqm_seeds/)
  fuzz asf_amc_fuzz asf_amc_corpus -dict=asf_amc_fuzz.dict asf_amc_seeds
  fuzz iqm_fuzz iqm_corpus -rss_limit_mb=4096 iqm_seeds
  fuzz gltf_json_fuzz gltf_json_corpus -rss_limit_mb=2048 -dict=gltf_json_fuzz.dict gltf_json_seeds
  fuzz gltf_morph_fuzz gltf_morph_corpus -dict=gltf_morph_fuzz.dict gltf_morph_seeds
  fuzz gltf_nodes_fuzz gltf_nodes_corpus -rss_limit_mb=2048 gltf_nodes_seeds
  fuzz machine_json_fuzz machine_json_corpus -dict=machine_json_fuzz.dict machine_json_seeds
  # model_io seeds: test files as the import worker serializes them (the first byte picks the
  # target's mode: 0 keeps the checksum, 1 reseals it so mutations reach the payload decoder).
  seeds=build-fuzz/tests/model_io_seeds
  mkdir -p "$seeds"
  for f in /usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf /usr/share/assimp/models/X/Testwuson.X \
           /usr/share/assimp/models/BVH/01_01.bvh assets/demo/rigview_demo.gltf; do
    for mode in 0 1; do
      { printf "\\$mode"; build/rigview __import-worker --result-fd=1 --model="$f"; } > "$seeds/$(basename "$f").$mode"
    done
  done
  fuzz model_io_fuzz model_io_corpus -max_len=4000000 model_io_seeds
  # import_fuzz: the whole import path, every format, through the import worker (the normal
  # build's rigview); seeds are small files of each format, the first byte naming the format
  # (the index into import_fuzz.cpp's kFormats).
  seeds=build-fuzz/tests/import_seeds
  mkdir -p "$seeds"
  python3 tools/import_fuzz_seeds.py "$seeds" build-fuzz/tests/iqm_seeds build-fuzz/tests/asf_amc_seeds/skeleton_motion
  RIGVIEW_WORKER="$PWD/build/rigview" fuzz import_fuzz import_corpus -timeout=30 -rss_limit_mb=4096 -max_len=65536 import_seeds
fi
