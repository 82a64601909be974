#!/usr/bin/env bash
# Build the Debian package: dist/rigview_<version>_amd64.deb (binary, data folder, desktop entry,
# MIME types, thumbnailer, icons, manual page, shell completions, AppStream metainfo, copyright),
# with CPack's DEB generator over the build tree's install rules (cmake/packaging.cmake).
#
# Installs what is missing and builds only what ships (the rigview binary and the files it
# generates), in build/ (BUILD_DIR=... for another), Release: the tests need not be built to
# package. Prints the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
export BUILD_DIR
# A configured tree is configured again: the version and its date are read at configure time
# (the binary's at build time, by the same rule), so they are the checkout's as it is now.
if [[ -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  cmake -S . -B "$BUILD_DIR" >/dev/null
fi
tools/setup.sh rigview rigview_desktop_files
out=$(mktemp -d "${TMPDIR:-/tmp}/rigview-package.XXXXXX")
trap 'rm -rf "$out"' EXIT
(cd "$BUILD_DIR" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; echo "package: cpack failed" >&2; exit 1; }
debs=("$out"/rigview_*_amd64.deb)
if [[ ! -f "${debs[0]}" ]]; then
  cat "$out/cpack.log"
  echo "package: cpack wrote no rigview_*_amd64.deb" >&2
  exit 1
fi
mkdir -p dist
mv -f "${debs[0]}" dist/
echo "dist/$(basename "${debs[0]}")"
