#!/usr/bin/env bash
# Install what rigview needs from Debian 12's packages (only what is missing), then
# configure and build into build/ (Release). Safe to run again: a second run installs
# nothing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake pkg-config python3
  libassimp-dev assimp-testmodels       # import; real test files made by others
  libglm-dev                            # math
  libglfw3-dev                          # window
  libimgui-dev                          # UI (backends ship as sources)
  python3-glad                          # GL / EGL loader generator
  libstb-dev                            # PNG read/write
  libcli11-dev                          # command line
  nlohmann-json3-dev                    # JSON output
  zlib1g-dev                            # the reference tests unpack their gzip'd Blender FBX files
  libgtest-dev libbenchmark-dev         # tests, benchmarks
  clang libclang-rt-14-dev              # libFuzzer for the ASF/AMC parser's fuzz target
  libegl-dev libgl1-mesa-dri libegl-mesa0 libgles-dev   # headless GL (Mesa llvmpipe)
  xvfb xauth                            # windowed smoke tests
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

BUILD_DIR=${BUILD_DIR:-build}
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} >/dev/null
fi
cmake --build "$BUILD_DIR" -j"$(nproc)"
