#!/usr/bin/env bash
# Install what is missing, build, and run every test (CTest). Then check rigview as a user
# installs it (tests/package_test.sh: the Debian package, cmake --install, pip install .),
# build with ASan/UBSan and run the whole suite again under the sanitizers
# (RIGVIEW_SKIP_SANITIZERS=1 skips it), and run every libFuzzer target for a bounded time:
# RIGVIEW_FUZZ_SECONDS (default 15) each, 0 skips fuzzing.
#
# The sanitizer build, the pip package's build and the fuzz build run in the background at the
# lowest CPU priority while the test run before them goes on: they take the CPU time the tests
# leave idle (tests wait on the processes, workers and X servers they start), and each test
# run waits for its build. Their output goes to build-asan/build.log, build-pip/build.log and
# build-fuzz/build.log (printed when they fail).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache rewrites paths under the checkout as relative ones, so that the pip package's tree
# (build-pip/) finds the objects of build/ (unless ccache's own configuration names a base);
# depend mode takes the headers from the compiler's own dependency output instead of running
# the preprocessor again on each miss (a clean build costs about 3% more CPU through ccache).
if [[ -z "$(ccache -k base_dir 2>/dev/null || true)" ]]; then
  export CCACHE_BASEDIR=$PWD
fi
export CCACHE_DEPEND=1
tools/setup.sh

FUZZ_SECONDS=${RIGVIEW_FUZZ_SECONDS:-15}
SANITIZE=1
[[ "${RIGVIEW_SKIP_SANITIZERS:-0}" == 1 ]] && SANITIZE=0

# background DIR COMMAND...: run COMMAND at nice 19 with its output in DIR/build.log; the pid
# in $BG_PID.
background() {
  local dir=$1
  shift
  mkdir -p "$dir"
  (renice -n 19 -p "$BASHPID" >/dev/null && "$@") > "$dir/build.log" 2>&1 &
  BG_PID=$!
}
# await PID NAME: wait for a background build; on failure print its log and stop.
await() {
  if ! wait "$1"; then
    cat "$2/build.log"
    echo "== $2 failed (log above)"
    exit 1
  fi
  echo "== $2 done"
}

asan_build() {
  # No compiler cache: nothing else builds these objects.
  BUILD_DIR=build-asan CMAKE_ARGS="-DRIGVIEW_SANITIZE=ON -DRIGVIEW_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER_LAUNCHER= -DCMAKE_CXX_COMPILER_LAUNCHER=" tools/setup.sh
}
FUZZ_TARGETS=(asf_amc_fuzz iqm_fuzz iqm_write_seeds gltf_json_fuzz gltf_read_fuzz gltf_morph_fuzz gltf_nodes_fuzz machine_json_fuzz model_io_fuzz import_fuzz image_fuzz)
fuzz_build() {
  if [[ ! -f build-fuzz/CMakeCache.txt ]]; then
    # -O1 with line tables, as the sanitizer build: what libFuzzer's reports need, in about half
    # the compile time of -O2 -g.
    cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DRIGVIEW_FUZZ=ON \
      -DRIGVIEW_BUILD_BENCH=OFF -DRIGVIEW_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" >/dev/null
  fi
  cmake --build build-fuzz --target "${FUZZ_TARGETS[@]}" -j"$(nproc)"
}

ASAN_PID="" FUZZ_PID=""
if ((SANITIZE)); then
  background build-asan asan_build
  ASAN_PID=$BG_PID
elif [[ "$FUZZ_SECONDS" != 0 ]]; then
  background build-fuzz fuzz_build
  FUZZ_PID=$BG_PID
fi

# The Python package as `pip install .` builds it, into a fresh venv: a fresh CMake tree in
# build-pip/, compiled through ccache (tools/setup.sh configured build/ the same way), so its
# compiles are the Release build's objects.
VENV="${TMPDIR:-/tmp}/rigview-test-venv"
pip_build() {
  rm -rf "$VENV"
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
  CMAKE_ARGS="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache" \
    CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$VENV/bin/pip" install --no-build-isolation .
}
rm -rf build-pip
background build-pip pip_build
PIP_PID=$BG_PID

ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600

# rigview as a user installs it: the .deb (built from build/), cmake --install, pip install .
tests/package_test.sh deb
tests/package_test.sh install
await "$PIP_PID" build-pip
tests/package_test.sh pip "$VENV"
rm -rf "$VENV"

if ((SANITIZE)); then
  await "$ASAN_PID" build-asan
  if [[ "$FUZZ_SECONDS" != 0 ]]; then
    background build-fuzz fuzz_build
    FUZZ_PID=$BG_PID
  fi
  echo "== sanitizer build (ASan + UBSan): the file sweep and the unit tests again"
  # Left out under the sanitizers: the repeats of a whole compression (30-45 s each there),
  # the comparisons with three.js in Chromium (label reference: the time is the browser's;
  # rigview's render runs under ASan in the GL tests and the sweep), the folder check's second
  # pass (the same files as the mutant sweep; it compares two summaries) and two of the viewer
  # smoke test's four shards (every second test). The Release run has them all; here one CLI
  # compression of the demo and BCN_Epileptic compressed, played and crowded stay, so the
  # encoder and the compressed runtime still run under ASan on real files.
  SANITIZER_SKIP='^(compress\.(Files/CompressRealFile\..*(BVH|rigview_demo)|Files/CompressedPlay\..*(BVH|rigview_demo)|CompressCli\.(BadCommandLines|NoDelta|AClipAtTheBindPose)|CompressedPlayCli\.|CompressedPlayBlends\.)|check\.Mutants\.CheckOverTheFolder(ReportsEveryFileWithTheSameSummaryTwice|GivesTheSameBytesThreeTimes)$|viewer_smoke_[13]$|python\.check_ci$)'
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp":print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 900 -E "$SANITIZER_SKIP" -LE '^reference$'
fi

# fuzz TARGET CORPUS_DIR [libFuzzer args...]: run one target for FUZZ_SECONDS in build-fuzz/tests,
# its corpus kept between runs; a crash or a leak fails the run. Two run at once (one per
# core: libFuzzer runs one process); the pair is awaited before the next starts.
FUZZ_PIDS=()
fuzz() {
  local target=$1 corpus=$2
  shift 2
  (set +e; cd build-fuzz/tests && mkdir -p "$corpus" &&
    ./"$target" -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 "$corpus" "$@" > "$target.log" 2>&1
   rc=$?; echo "== libFuzzer: ${target} for ${FUZZ_SECONDS} s"; tail -n 12 "$target.log"; exit $rc) &
  FUZZ_PIDS+=($!)
  if ((${#FUZZ_PIDS[@]} >= 2)); then fuzz_wait; fi
}
fuzz_wait() {
  local rc=0 p
  for p in "${FUZZ_PIDS[@]}"; do wait "$p" || rc=1; done
  FUZZ_PIDS=()
  if ((rc != 0)); then
    echo "== a fuzz target failed (its output above)"
    exit 1
  fi
}
if [[ "$FUZZ_SECONDS" != 0 ]]; then
  if [[ -z "$FUZZ_PID" ]]; then
    background build-fuzz fuzz_build
    FUZZ_PID=$BG_PID
  fi
  await "$FUZZ_PID" build-fuzz
  (cd build-fuzz/tests && mkdir -p iqm_seeds && ./iqm_write_seeds iqm_seeds &&
    cp /usr/share/assimp/models/IQM/mrfixit.iqm iqm_seeds/)
  fuzz asf_amc_fuzz asf_amc_corpus -dict=asf_amc_fuzz.dict asf_amc_seeds
  fuzz iqm_fuzz iqm_corpus -rss_limit_mb=4096 iqm_seeds
  fuzz gltf_json_fuzz gltf_json_corpus -rss_limit_mb=2048 -dict=gltf_json_fuzz.dict gltf_json_seeds
  fuzz gltf_read_fuzz gltf_read_corpus -rss_limit_mb=2048 -dict=gltf_json_fuzz.dict gltf_json_seeds
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
  # image_fuzz seeds: small images of each kind, the first byte naming the path (0: a glTF
  # texture, 1: another format's texture, 2: an environment map).
  seeds=build-fuzz/tests/image_seeds
  mkdir -p "$seeds"
  { printf '\0'; cat assets/demo/rigview_demo_albedo.png; } > "$seeds/albedo.png"
  { printf '\0'; cat /usr/share/assimp/models/3DS/IMAGE1.jpg; } > "$seeds/image1.jpg"
  { printf '\1'; cat /usr/share/assimp/models/LWO/LWO2/white.bmp; } > "$seeds/white.bmp"
  python3 -c 'import sys
d = sys.argv[1]
# a 2x2 true-colour TGA, and a 16x2 run-length encoded Radiance HDR (runs and dumps)
open(d + "/tiny.tga", "wb").write(bytes([1, 0, 0, 2] + [0] * 9 + [2, 0, 2, 0, 32, 8]) + bytes(range(16)))
row = bytes([2, 2, 0, 16]) + b"".join(bytes([128 + 8, c, 8]) + bytes(range(8)) for c in (10, 20, 30, 129))
open(d + "/tiny.hdr", "wb").write(b"\2#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 16\n" + row * 2)' "$seeds"
  fuzz image_fuzz image_corpus -rss_limit_mb=2048 -max_len=262144 image_seeds
  # import_fuzz: the whole import path, every format, through the import worker (the normal
  # build's rigview); seeds are small files of each format, the first byte naming the format
  # (the index into import_fuzz.cpp's kFormats).
  seeds=build-fuzz/tests/import_seeds
  mkdir -p "$seeds"
  python3 tools/import_fuzz_seeds.py "$seeds" build-fuzz/tests/iqm_seeds build-fuzz/tests/asf_amc_seeds/skeleton_motion
  RIGVIEW_WORKER="$PWD/build/rigview" fuzz import_fuzz import_corpus -timeout=30 -rss_limit_mb=4096 -max_len=65536 import_seeds
  fuzz_wait
fi
