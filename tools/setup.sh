#!/usr/bin/env bash
# Install what rigview needs from Debian 12's packages (only what is missing), then
# configure and build into build/ (Release). Safe to run again: a second run installs
# nothing and rebuilds only what changed.
#
#   tools/setup.sh              build everything (the tests and benchmarks included)
#   tools/setup.sh TARGET...    build only these CMake targets (tools/run.sh: rigview)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake pkg-config python3
  libassimp-dev assimp-testmodels       # import; real test files made by others
  libglm-dev                            # math
  libglfw3-dev                          # window
  libimgui-dev                          # UI (backends ship as sources)
  python3-glad                          # GL / EGL loader generator
  libstb-dev                            # PNG writing; TGA and BMP textures
  libpng-dev libjpeg62-turbo-dev        # PNG and JPEG textures, decoded in the import worker
  libcli11-dev                          # command line
  nlohmann-json3-dev                    # JSON output
  zlib1g-dev                            # the reference tests unpack their gzip'd Blender FBX files
  strace                                # a test counts the files an import opens (each once)
  libgtest-dev libbenchmark-dev         # tests, benchmarks
  clang libclang-rt-14-dev              # libFuzzer for the ASF/AMC parser's fuzz target
  libegl-dev libgl1-mesa-dri libegl-mesa0 libgles-dev   # headless GL (Mesa llvmpipe)
  xvfb xauth                            # windowed smoke tests
  python3-numpy python3-pybind11 pybind11-dev   # the Python module (import rigview): NumPy arrays, bindings
  python3-distributed                   # library checks on a Dask cluster (python3 -m rigview.batch)
  python3-jsonschema python3-yaml      # tests: JSON outputs against docs/schemas/, the CI examples of docs/ci.md
  mypy                                  # tests: the Python API and its stubs type-check (mypy --strict, stubtest)
  chromium                              # three.js reference renders in headless Chromium (tools/three_render)
  librsvg2-bin                          # rsvg-convert: the icon's PNG sizes, from its SVG
  dpkg-dev                              # dpkg-shlibdeps: the .deb's dependencies (tools/package.sh, CPack)
  lintian                               # the package test: lintian on the .deb
  desktop-file-utils appstream          # the package test: desktop-file-validate, appstreamcli validate
  man-db zsh fish                       # the package test: man -l, and each shell loading its completion
  libglib2.0-bin                        # the package test: gio, file types resolved as file managers do
  python3-setuptools python3-wheel python3-venv python3-pip   # pip install . (pyproject.toml, setup.py) into a venv
  ccache                                # compiler cache: a second tree of the same sources (the pip package's) reuses objects
  ffmpeg                                # render's playblasts: rigview pipes frames to ffmpeg for MP4 (H.264) and GIF; ffprobe in their tests
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

# Node.js packages the export tests run (tests/export_test.cpp): the Khronos glTF validator
# (tools/gltf_validator) and three.js (tools/three_refs), and the render-parity references
# (tools/three_render: three.js and puppeteer-core, which drives Debian's chromium above and
# downloads no browser), each into a git-ignored node_modules/ beside its package.json and lock
# file. Node.js itself from Debian when there is no npm. Only for a whole build: building
# chosen targets (tools/run.sh, tools/package.sh) builds no test.
if (($# == 0)) && ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing nodejs npm"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
for dir in tools/gltf_validator tools/three_refs tools/three_render; do
  if (($# == 0)) && ! (cd "$dir" && npm ls --depth=0 >/dev/null 2>&1); then
    echo "setup: npm ci in $dir"
    (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
done

BUILD_DIR=${BUILD_DIR:-build}
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  # Compiled through ccache unless CMAKE_ARGS names a launcher: the same sources built again
  # with the same flags in another tree (pip install ., build-pip/) then cost no compile.
  LAUNCHER=()
  if command -v ccache >/dev/null && [[ "${CMAKE_ARGS:-}" != *COMPILER_LAUNCHER* ]]; then
    LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" ${CMAKE_ARGS:-} >/dev/null
fi
if (($#)); then
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target "$@"
else
  cmake --build "$BUILD_DIR" -j"$(nproc)"
fi

# `import rigview` for Debian's /usr/bin/python3 (the interpreter the module is built for): a
# .pth file in its site-packages (/usr/local/lib/python3.X/dist-packages) naming the build's
# python/ folder, where the package rigview/ (the _rigview extension and the Python files) is.
# Written only when the build has the module (and built it: all targets) and the file would change.
PYTHON=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")
if (($# == 0)) && grep -q '^RIGVIEW_PYTHON:BOOL=ON' "$BUILD_DIR/CMakeCache.txt" && [[ -x "${PYTHON:-}" ]]; then
  SITE=$("$PYTHON" -c 'import site; print(site.getsitepackages()[0])')
  PTH="$SITE/rigview.pth"
  WANT="$(cd "$BUILD_DIR" && pwd)/python"
  if [[ ! -f "$PTH" || "$(cat "$PTH")" != "$WANT" ]]; then
    SUDO=""
    WRITABLE="$SITE"
    [[ -d "$SITE" ]] || WRITABLE=$(dirname "$SITE")
    if [[ $(id -u) -ne 0 && ! -w "$WRITABLE" ]]; then SUDO="sudo"; fi
    $SUDO mkdir -p "$SITE"
    echo "$WANT" | $SUDO tee "$PTH" >/dev/null
    echo "setup: $PTH -> $WANT (import rigview for $PYTHON)"
  fi
  "$PYTHON" -c 'import rigview' || { echo "setup: $PYTHON cannot import rigview" >&2; exit 1; }
fi
