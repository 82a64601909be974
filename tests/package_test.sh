#!/usr/bin/env bash
# rigview as a user installs it, checked end to end (tools/test.sh runs it; docs/testing.md):
#
#   tests/package_test.sh deb      tools/package.sh builds dist/rigview_<version>_amd64.deb from
#                                  build/; lintian finds no error; unpacked with dpkg -x, its
#                                  binary, data, manual page, completions (bash, zsh, fish),
#                                  desktop entry, metainfo, MIME types, thumbnailer and icons work
#   tests/package_test.sh install  cmake --install build/ into a prefix: the installed binary
#                                  finds its demo and studio lighting; a binary copied without
#                                  its data folder says so in one line
#   tests/package_test.sh pip VENV a venv (--system-site-packages) where `pip install
#                                  --no-build-isolation .` ran: import rigview from another
#                                  folder, its version, a pose equal to the CLI's, a render equal
#                                  to the CLI's; then `pip wheel` and what the wheel holds
#
# What runs the installed files runs with the checkout and the build tree out of reach: in a
# mount namespace (unshare) where an empty tmpfs covers the checkout, from another folder, so
# nothing can be read from the source or build tree. BUILD_DIR (default build) is the build
# the package and the reference renders come from.
set -euo pipefail
export LC_ALL=C  # the completions' lists and tools' messages compared as written here
cd "$(dirname "$0")/.."
CHECKOUT=$PWD
BUILD_DIR=${BUILD_DIR:-build}
BUILD=$(cd "$BUILD_DIR" && pwd)
PYTHON=/usr/bin/python3
MODELS=/usr/share/assimp/models
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rigview-package-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FAILED=0

ok() { echo "ok   $*"; }
fail() {
  echo "FAIL $*"
  FAILED=1
}
# check DESCRIPTION COMMAND...: run COMMAND; ok when it succeeds.
check() {
  local what=$1
  shift
  if "$@" >"$TMP/out" 2>&1; then ok "$what"; else fail "$what"; sed 's/^/     /' "$TMP/out" | tail -n 20; fi
}

# away COMMAND...: COMMAND with the checkout (and the build tree in it) covered by an empty
# folder, from $TMP/elsewhere. Without the rights to make a mount namespace, COMMAND runs with
# the checkout in place (said once): the binaries hold no path into it (checked separately).
mkdir -p "$TMP/elsewhere"
AWAY=1
if ! unshare --mount --propagation private true 2>/dev/null &&
   ! unshare --mount --map-root-user --propagation private true 2>/dev/null; then
  AWAY=0
  echo "note: no mount namespace here (unshare refused): the checkout stays visible to the installed files"
fi
away() {
  if ((AWAY)); then
    local flags=(--mount --propagation private)
    unshare "${flags[@]}" true 2>/dev/null || flags+=(--map-root-user)
    unshare "${flags[@]}" -- /bin/sh -c 'mount -t tmpfs none "$0" && cd "$1" && shift && exec "$@"' \
      "$CHECKOUT" "$TMP/elsewhere" "$@"
  else
    (cd "$TMP/elsewhere" && "$@")
  fi
}
# one_line_error STDERR_FILE: exactly one line, naming rigview.
one_line_error() { [[ $(wc -l <"$1") -eq 1 ]] && grep -q '^rigview: ' "$1"; }
# png_check FILE W H: a W x H PNG with both see-through and drawn pixels (a thumbnail).
png_check() {
  "$PYTHON" - "$1" "$2" "$3" <<'EOF'
import sys
sys.path.insert(0, "tools")
from image_compare import read_png
img = read_png(sys.argv[1], alpha=True)
assert img.shape == (int(sys.argv[3]), int(sys.argv[2]), 4), img.shape
alpha = img[:, :, 3]
assert (alpha == 0).any() and (alpha == 255).any(), "no transparent background or no model drawn"
EOF
}
# same_image A B: the two renders match (SSIM >= 0.999) and differ from a flat image.
same_image() {
  "$PYTHON" tools/image_compare.py "$1" "$2" --min-ssim 0.999 --max-mad 0.002 >/dev/null &&
    "$PYTHON" -c 'import sys; sys.path.insert(0, "tools"); from image_compare import read_png; img = read_png(sys.argv[1]); assert img[:, :, :3].std() > 10, "a flat image"' "$1"
}
version_of() { "$1" --version | sed -n '1s/^rigview //p'; }

# The reference: what the build tree draws.
REF_ARGS=(--size 200x160 --clip walk --time 0.4)
"$BUILD/rigview" render "$BUILD/share/rigview/demo/rigview_demo.gltf" -o "$TMP/build.png" "${REF_ARGS[@]}"
VERSION=$(version_of "$BUILD/rigview")
# A broken model: a glTF whose JSON stops half way.
head -c 200 "$MODELS/glTF2/simple_skin/simple_skin.gltf" >"$TMP/broken.gltf"

test_deb() {
  echo "== the Debian package"
  local deb
  deb=$(BUILD_DIR=$BUILD tools/package.sh | tail -n 1)
  VERSION=$(version_of "$BUILD/rigview")  # package.sh configured and built again
  check "tools/package.sh wrote dist/rigview_${VERSION}_amd64.deb" test "$deb" = "dist/rigview_${VERSION}_amd64.deb" -a -f "$deb"
  check "the package's version is the binary's" test "$(dpkg-deb -f "$deb" Version)" = "$VERSION"
  check "its dependencies come from the binary's libraries (libassimp5, libglfw3)" \
    sh -c "dpkg-deb -f '$deb' Depends | grep -q libassimp5 && dpkg-deb -f '$deb' Depends | grep -q libglfw3"
  local rc=0
  lintian --fail-on error --tag-display-limit 0 "$deb" >"$TMP/lintian" 2>&1 || rc=$?
  if ((rc == 0)); then ok "lintian: no error ($(grep -c '^W:' "$TMP/lintian" || true) warnings)"; else fail "lintian"; fi
  grep -v 'running with root privileges' "$TMP/lintian" | sed 's/^/     /' || true
  local root=$TMP/root
  dpkg -x "$deb" "$root"
  check "the binary holds no path into the checkout" sh -c "! grep -qF '$CHECKOUT' '$root/usr/bin/rigview'"
  local bin=$root/usr/bin
  check "rigview --version" away env PATH="$bin:$PATH" sh -c "rigview --version | grep -qx 'rigview $VERSION' && rigview --version | grep -q '^Assimp '"
  check "rigview --version --verbose names the package's data folder" \
    away env PATH="$bin:$PATH" sh -c "rigview --version --verbose | grep -qx 'data folder: $root/usr/share/rigview'"
  check "rigview info on the demo" away env PATH="$bin:$PATH" \
    sh -c "rigview info $root/usr/share/rigview/demo/rigview_demo.gltf --json | grep -q '\"rigview_version\": \"$VERSION\"'"
  check "rigview info on a public glTF" away env PATH="$bin:$PATH" rigview info "$MODELS/glTF2/simple_skin/simple_skin.gltf"
  check "rigview render" away env PATH="$bin:$PATH" \
    rigview render "$root/usr/share/rigview/demo/rigview_demo.gltf" -o "$TMP/deb.png" "${REF_ARGS[@]}"
  check "its render is the build tree's (the studio lighting, not a grey sky)" same_image "$TMP/deb.png" "$TMP/build.png"
  check "rigview thumbnail on a glTF" away env PATH="$bin:$PATH" \
    rigview thumbnail "$MODELS/glTF2/simple_skin/simple_skin.gltf" "$TMP/gltf-thumb" --size 128
  check "  a 128 x 128 PNG, transparent around the model" png_check "$TMP/gltf-thumb" 128 128
  check "rigview thumbnail on an FBX" away env PATH="$bin:$PATH" \
    rigview thumbnail "$MODELS/FBX/huesitos.fbx" "$TMP/fbx-thumb.png" --size 256
  check "  a 256 x 256 PNG, transparent around the model" png_check "$TMP/fbx-thumb.png" 256 256
  if away env PATH="$bin:$PATH" rigview thumbnail "$TMP/broken.gltf" "$TMP/broken.png" --size 128 2>"$TMP/err"; then
    fail "rigview thumbnail on a broken file succeeded"
  else
    check "rigview thumbnail on a broken file: one line, no output" sh -c "! test -e '$TMP/broken.png'"
    check "  the line names the file" sh -c "grep -q 'broken.gltf' '$TMP/err' && test \$(wc -l <'$TMP/err') -eq 1"
  fi
  check "rigview thumbnail runs the import in the isolated worker" \
    sh -c "grep -q 'thumbnail' '$root/usr/share/thumbnailers/rigview.thumbnailer' && grep -qx 'Exec=rigview thumbnail %i %o --size %s' '$root/usr/share/thumbnailers/rigview.thumbnailer'"

  # The manual page, as man shows it.
  check "man -l rigview.1.gz" sh -c "MANPAGER=cat MANWIDTH=100 man -l '$root/usr/share/man/man1/rigview.1.gz' > '$TMP/man.txt' 2>'$TMP/man.err' && grep -q '^SYNOPSIS' '$TMP/man.txt' && grep -q 'rigview thumbnail' '$TMP/man.txt' && grep -q -- '--completion' '$TMP/man.txt' && ! test -s '$TMP/man.err'"
  check "  groff finds nothing to warn about" sh -c "MANPAGER=cat man --warnings -l '$root/usr/share/man/man1/rigview.1.gz' 2>&1 >/dev/null | (! grep .)"

  # Each completion loaded by its shell, and what it offers.
  local bashc=$root/usr/share/bash-completion/completions/rigview
  check "bash: complete -p rigview" bash -c "source '$bashc' && complete -p rigview | grep -q _rigview"
  mkdir -p "$TMP/files/sub"
  touch "$TMP/files/a.fbx" "$TMP/files/b.GLTF" "$TMP/files/notes.txt" "$TMP/files/c.png" "$TMP/files/d.hdr"
  bash_complete() {  # bash_complete WORDS...: what _rigview offers for the last word
    bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _rigview; printf "%s\n" "${COMPREPLY[@]}"' "$bashc" "$@" | sort
  }
  check "bash: rigview ren<TAB> -> render" sh -c "test \"\$(printf '%s\n' \"\$@\")\" = render" _ $(bash_complete rigview ren)
  check "bash: rigview render --up <TAB> -> y z auto" test "$(bash_complete rigview render --up '' | tr '\n' ' ')" = "auto y z "
  check "bash: rigview info <TAB> in a folder -> folders and model files only" \
    test "$(bash_complete rigview info "$TMP/files/" | tr '\n' ' ')" = "$TMP/files/a.fbx $TMP/files/b.GLTF $TMP/files/sub "
  check "bash: rigview render m.fbx -o <TAB> -> .png files" \
    test "$(bash_complete rigview render m.fbx -o "$TMP/files/" | tr '\n' ' ')" = "$TMP/files/c.png $TMP/files/sub "
  check "bash: rigview render m.fbx --env=<TAB> -> .hdr files" \
    test "$(bash_complete rigview render m.fbx --env = "$TMP/files/" | tr '\n' ' ')" = "$TMP/files/d.hdr $TMP/files/sub "
  local zdir=$root/usr/share/zsh/vendor-completions
  check "zsh: the completion parses and autoloads" zsh -fc "zsh -n '$zdir/_rigview' && fpath=('$zdir' \$fpath) && autoload -Uz compinit && compinit -u -d '$TMP/zcompdump' && autoload -Uz +X _rigview && (( \$+functions[_rigview] )) && [[ \${_comps[rigview]} == _rigview ]]"
  local fishc=$root/usr/share/fish/vendor_completions.d/rigview.fish
  fish_complete() { fish --no-config -c "source '$fishc'; complete -C '$1'" | cut -f1 | sort; }
  check "fish: rigview ren<TAB> -> render" test "$(fish_complete 'rigview ren')" = render
  check "fish: rigview render --up <TAB> -> y z auto" test "$(fish_complete 'rigview render --up ' | tr '\n' ' ')" = "auto y z "
  check "fish: rigview info <TAB> in a folder -> folders and model files only" \
    test "$(fish_complete "rigview info $TMP/files/" | tr '\n' ' ')" = "$TMP/files/a.fbx $TMP/files/b.GLTF $TMP/files/sub/ "

  # The desktop entry, the metainfo, the file types, the icons.
  local desktop=$root/usr/share/applications/io.github.rigview.rigview.desktop
  check "desktop-file-validate" desktop-file-validate "$desktop"
  check "appstreamcli validate" appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/io.github.rigview.rigview.metainfo.xml"
  check "the desktop entry, the thumbnailer and the metainfo name the same file types" sh -c "
    d=\$(sed -n 's/^MimeType=//p' '$desktop'); t=\$(sed -n 's/^MimeType=//p' '$root/usr/share/thumbnailers/rigview.thumbnailer')
    m=\$(sed -n 's|.*<mediatype>\(.*\)</mediatype>.*|\1;|p' '$root/usr/share/metainfo/io.github.rigview.rigview.metainfo.xml' | tr -d '\n')
    test -n \"\$d\" -a \"\$d\" = \"\$t\" -a \"\$d\" = \"\$m\""
  mkdir -p "$TMP/mime/mime/packages" "$TMP/typed"
  cp /usr/share/mime/packages/freedesktop.org.xml "$TMP/mime/mime/packages/"
  cp "$root/usr/share/mime/packages/rigview.xml" "$TMP/mime/mime/packages/"
  check "update-mime-database takes rigview.xml" update-mime-database "$TMP/mime/mime"
  cp "$MODELS/BVH/01_01.bvh" "$MODELS/X/Testwuson.X" "$MODELS/SMD/triangle.smd" "$MODELS/FBX/huesitos.fbx" \
    "$MODELS/IQM/mrfixit.iqm" "$MODELS/glTF2/simple_skin/simple_skin.gltf" "$TMP/typed/"
  printf '# AST/ASF file generated using VICON BodyLanguage\n:version 1.10\n:name VICON\n' >"$TMP/typed/skeleton.asf"
  local types="" f
  for f in 01_01.bvh Testwuson.X huesitos.fbx mrfixit.iqm simple_skin.gltf skeleton.asf triangle.smd; do
    types+=$(XDG_DATA_DIRS=$TMP/mime XDG_DATA_HOME=$TMP/none gio info -a standard::content-type -- "$TMP/typed/$f" |
             sed -n 's/^  standard::content-type: //p')" "
  done
  check "gio types each file as rigview's MIME types say (.asf and .smd by their magic)" test "$types" = \
    "model/x.bvh model/x.directx model/x.fbx model/x.iqm model/gltf+json model/x.acclaim-asf model/x.smd "
  check "every type the desktop entry names is freedesktop.org's or rigview's" sh -c "
    for t in \$(sed -n 's/^MimeType=//p' '$desktop' | tr ';' ' '); do
      grep -q \"type=\\\"\$t\\\"\" /usr/share/mime/packages/freedesktop.org.xml '$root/usr/share/mime/packages/rigview.xml' || { echo \"\$t\"; exit 1; }
    done"
  check "the icon: scalable SVG and the PNG sizes" sh -c "
    test -f '$root/usr/share/icons/hicolor/scalable/apps/rigview.svg' &&
    for s in 16 22 24 32 48 64 128 256; do
      file '$root/usr/share/icons/hicolor/'\$s'x'\$s'/apps/rigview.png' | grep -q \"\$s x \$s\" || exit 1
    done"
  check "copyright, changelog and third-party licenses in /usr/share/doc/rigview" test -f "$root/usr/share/doc/rigview/copyright" \
    -a -f "$root/usr/share/doc/rigview/changelog.gz" -a -f "$root/usr/share/doc/rigview/THIRD_PARTY.md"
}

test_install() {
  echo "== cmake --install"
  local prefix=$TMP/prefix
  check "cmake --install $BUILD_DIR --prefix PREFIX" cmake --install "$BUILD" --prefix "$prefix"
  check "bin/rigview and share/rigview" test -x "$prefix/bin/rigview" -a -f "$prefix/share/rigview/demo/rigview_demo.gltf" \
    -a -f "$prefix/share/rigview/env/studio.hdr" -a -f "$prefix/share/doc/rigview/LICENSE"
  check "the installed binary's data folder is the prefix's" \
    away sh -c "'$prefix/bin/rigview' --version --verbose | grep -qx 'data folder: $prefix/share/rigview'"
  check "the installed binary renders lit by the studio" \
    away "$prefix/bin/rigview" render "$prefix/share/rigview/demo/rigview_demo.gltf" -o "$TMP/installed.png" "${REF_ARGS[@]}"
  check "  as the build tree does" same_image "$TMP/installed.png" "$TMP/build.png"
  mkdir -p "$TMP/cache"
  check "  from the studio prefiltered at build time: no environment written to an empty cache folder" sh -c "
    ls '$prefix/share/rigview/env/prefiltered/'*.bin >/dev/null &&
    XDG_CACHE_HOME='$TMP/cache' '$prefix/bin/rigview' render '$prefix/share/rigview/demo/rigview_demo.gltf' -o '$TMP/cached.png' --size 64x48 &&
    test -z \"\$(find '$TMP/cache' -path '*/rigview/env/*' -type f)\""
  if command -v xvfb-run >/dev/null; then
    check "the installed viewer opens the demo with no model given" \
      away xvfb-run -a -s "-screen 0 1280x800x24" "$prefix/bin/rigview" --screenshot "$TMP/demo-window.png" --frames 3 --no-watch
    check "  and saves its window" test -s "$TMP/demo-window.png"
  fi
  # Copied without its data folder: one line each, saying so.
  mkdir -p "$TMP/lonely/bin"
  cp "$prefix/bin/rigview" "$TMP/lonely/bin/"
  local rc=0
  away "$TMP/lonely/bin/rigview" render "$prefix/share/rigview/demo/rigview_demo.gltf" -o "$TMP/lonely.png" 2>"$TMP/err" || rc=$?
  check "without its data folder render fails with exit 3" test "$rc" -eq 3
  check "  in one line naming the data folder" sh -c "grep -q \"data folder was not found (no $TMP/lonely/share/rigview\" '$TMP/err' && test \$(wc -l <'$TMP/err') -eq 1 && ! test -e '$TMP/lonely.png'"
  rc=0
  away "$TMP/lonely/bin/rigview" 2>"$TMP/err" || rc=$?
  check "without its data folder the viewer with no model fails with exit 3" test "$rc" -eq 3
  check "  in one line naming the data folder" sh -c "grep -q 'no demo: rigview.s data folder was not found' '$TMP/err' && test \$(wc -l <'$TMP/err') -eq 1"
}

test_pip() {
  local venv=$1
  echo "== pip install . (in $venv)"
  local py=$venv/bin/python
  check "the venv holds the package" test -x "$venv/bin/rigview"
  cat >"$TMP/pip_check.py" <<'EOF'
import importlib.metadata, json, os, subprocess, sys
import numpy as np
import rigview
import rigview._rigview as core

prefix = os.path.realpath(sys.prefix)
where = os.path.realpath(rigview.__file__)
assert where.startswith(prefix + os.sep), "imported from " + where + ", not from the venv " + prefix
for path in (core.worker, core.data_folder):
    assert os.path.realpath(path).startswith(os.path.dirname(where)), path + " is not inside the package"
assert os.path.isfile(os.path.join(core.data_folder, "env", "studio.hdr"))
expected = sys.argv[1]
assert rigview.__version__ == expected, rigview.__version__ + " != " + expected
assert importlib.metadata.version("rigview") == expected, importlib.metadata.version("rigview")
exe = os.path.join(sys.prefix, "bin", "rigview")  # the package's binary, on the venv's PATH
out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True).stdout
assert out.splitlines()[0] == "rigview " + expected, out

model_path = "/usr/share/assimp/models/X/BCN_Epileptic.X"
model = rigview.load(model_path)
points = model.pose(0, 0.7)
subprocess.run([exe, "pose", model_path, "-o", "pose.json", "--clip", "0", "--time", "0.7"], check=True)
with open("pose.json") as f:
    cli = json.load(f)
assert cli["rigview_version"] == expected
cli_points = np.concatenate([np.array(m["positions"], dtype=np.float64).reshape(-1, 3) for m in cli["meshes"]])
size = float(np.linalg.norm(cli_points.max(axis=0) - cli_points.min(axis=0)))
err = float(np.abs(points - cli_points).max())
assert points.shape == cli_points.shape and err <= 1e-6 * size, (points.shape, cli_points.shape, err, size)

demo = os.path.join(core.data_folder, "demo", "rigview_demo.gltf")
image = rigview.render(demo, clip="walk", time=0.4, size=(200, 160))
subprocess.run([exe, "render", demo, "-o", "render.png", "--size", "200x160", "--clip", "walk", "--time", "0.4"],
               check=True)
print(json.dumps({"pose_error": err, "size": size}))
np.save("render.npy", image)
EOF
  check "from another folder: import rigview from the venv, its version, a pose equal to the CLI's" \
    away env -u PYTHONPATH "$py" "$TMP/pip_check.py" "$VERSION"
  check "  a render equal to the CLI's" "$PYTHON" -c '
import sys
import numpy as np
sys.path.insert(0, "tools")
from image_compare import read_png
a = np.load(sys.argv[1]); b = read_png(sys.argv[2], alpha=True)
assert a.shape == b.shape == (160, 200, 4), (a.shape, b.shape)
assert np.array_equal(a, b), "the renders differ"
assert a[:, :, :3].std() > 10, "a flat image"' "$TMP/elsewhere/render.npy" "$TMP/elsewhere/render.png"
  check "python3 -m rigview --version" away "$py" -m rigview --version
  check "pip wheel --no-build-isolation ." "$venv/bin/pip" wheel --no-build-isolation --no-deps -q -w "$TMP/wheels" .
  check "  rigview-$VERSION-cp3*-linux_x86_64.whl with the module, the binary and the data" "$PYTHON" -c '
import glob, sys, zipfile
wheels = glob.glob(sys.argv[1] + "/rigview-" + sys.argv[2] + "-cp3*-linux_x86_64.whl")
assert len(wheels) == 1, wheels
with zipfile.ZipFile(wheels[0]) as z:
    names = z.namelist()
    info = z.getinfo("rigview/bin/rigview")
for want in ("rigview/__init__.py", "rigview/bin/rigview", "rigview/share/rigview/env/studio.hdr",
             "rigview/share/rigview/demo/rigview_demo.gltf"):
    assert want in names, want
assert any(n.startswith("rigview/_rigview.") and n.endswith(".so") for n in names)
assert (info.external_attr >> 16) & 0o111, "rigview/bin/rigview is not executable in the wheel"' "$TMP/wheels" "$VERSION"
}

case ${1:-} in
  deb) test_deb ;;
  install) test_install ;;
  pip) test_pip "${2:?usage: tests/package_test.sh pip VENV}" ;;
  *)
    echo "usage: tests/package_test.sh deb | install | pip VENV" >&2
    exit 2
    ;;
esac
if ((FAILED)); then
  echo "== package test: failures above"
  exit 1
fi
echo "== package test ($1): all passed"
