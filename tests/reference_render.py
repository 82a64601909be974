#!/usr/bin/python3
"""Render parity against three.js (issue 27, docs/reference-renders.md): `rigview render` and
three.js r187 (tools/three_render/render.mjs, headless Chromium) draw the same model with the
same camera, environment (assets/env/studio.hdr), tone mapping (neutral), exposure (1),
background and size; tools/image_compare.py compares them: SSIM >= 0.95 and MAD <= 0.03 on the
whole image and, for the material matrix, on every cell. Every number is printed.

  /usr/bin/python3 tests/reference_render.py CASE --rigview build/rigview --out build/tests/reference

CASE:
  three-character   only the three.js renders of the Blender character at its three clip
                    times (the references the two character cases compare with)
  material-matrix   tools/make_material_matrix.py's model, whole image and every cell
  clearcoat         ClearCoatTest.gltf (assimp test models)
  box-textured      BoxTextured.gltf (assimp test models)
  character         tests/data/character/textured_character.gltf at three times of "Wave"
  character-export  the character after `rigview export` (Khronos validator: no error),
                    rendered by rigview, against three's render of the source

Images go to OUT/CASE/ (rigview.png, three.png, diff.png per view); the three.js renders are
made fresh by every run (CI regenerates them; none is committed) except the character's,
which `three-character` makes once for both character cases (a CTest fixture).
Exit 0 when every bar is met, 1 when one is missed or a step fails, 77 (CTest's skip) when
Node.js, Chromium or tools/three_render's npm packages are absent (tools/setup.sh installs them).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = os.path.join(REPO, "assets", "env", "studio.hdr")
CHROMIUM = "/usr/bin/chromium"
THREE_RENDER = os.path.join(REPO, "tools", "three_render")
ASSIMP_MODELS = "/usr/share/assimp/models"
MIN_SSIM, MAX_MAD = 0.95, 0.03

# A background no material is close to; 0.4 is 102 of 255 exactly on both sides.
BACKGROUND = (0.4, 0.4, 0.4)

CHARACTER = os.path.join(REPO, "tests", "data", "character", "textured_character.gltf")
CHARACTER_CLIP = "Wave"
CHARACTER_TIMES = (0.2, 0.5, 0.8)
CHARACTER_VIEW = dict(camera=(0.6, 1.15, 3.3, 0.0, 0.98, 0.0, 40.0), size=(448, 512))

# (eye, target, vertical FOV) and sizes. The matrix: its reference camera (the file's
# asset.extras). ClearCoatTest: on the centre of its bounds (x -2.13, y 0.3), closer than
# three's own framing (which leaves half the image empty). BoxTextured: the view docs/reference-renders.md used.
VIEWS = {
    "material-matrix": dict(camera=(0, 0, 14, 0, 0, 0, 32), size=(1024, 512)),
    "clearcoat": dict(camera=(-2.13, 0.3, 17.5, -2.13, 0.3, 0.5, 45.0), size=(768, 768)),
    "box-textured": dict(camera=(1.6, 1.3, 2.2, 0, 0, 0, 40), size=(512, 512)),
}


def skip_reason():
    if shutil.which("node") is None:
        return "no node (Node.js)"
    if not os.path.exists(CHROMIUM):
        return f"no {CHROMIUM}"
    for pkg in ("three", "puppeteer-core"):
        if not os.path.exists(os.path.join(THREE_RENDER, "node_modules", pkg, "package.json")):
            return f"tools/three_render has no npm package {pkg} (npm ci there; tools/setup.sh does)"
    return None


def run(cmd, what, timeout=300):
    print("$ " + " ".join(cmd), flush=True)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    took = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {p.returncode}, {took:.1f} s):\n{p.stdout[-3000:]}{p.stderr[-3000:]}")
    return p.stdout, took


def csv(values):
    return ",".join(f"{v:g}" for v in values)


def three_render(model, out_png, view, anim=None, t=None):
    cmd = ["node", os.path.join(THREE_RENDER, "render.mjs"), model, out_png, "--camera", csv(view["camera"]),
           "--env", ENV, "--tonemap", "neutral", "--exposure", "1", "--background", csv(BACKGROUND),
           "--size", "%dx%d" % view["size"], "--json"]
    if anim is not None:
        cmd += ["--anim", anim, "--time", f"{t:g}"]
    out, took = run(cmd, "three.js render of " + model)
    info = json.loads(out.strip().splitlines()[-1])
    print(f"  three.js r{info['three']} on {info['glRenderer']}: near {info['near']:.4g} far {info['far']:.4g}, "
          f"{took:.1f} s", flush=True)


def rigview_render(rigview, model, out_png, view, clip=None, t=None):
    cmd = [rigview, "render", model, "-o", out_png, "--camera", csv(view["camera"]), "--env", ENV,
           "--tonemap", "neutral", "--exposure", "1", "--background", csv(round(c * 255) for c in BACKGROUND),
           "--size", "%dx%d" % view["size"], "--msaa", "0"]
    if clip is not None:
        cmd += ["--clip", clip, "--time", f"{t:g}"]
    _, took = run(cmd, "rigview render of " + model)
    print(f"  rigview render: {took:.1f} s", flush=True)


def compare(a, b, label, crop=None, diff=None):
    """-> (ssim, mad, ok), printed as one line."""
    cmd = [sys.executable, os.path.join(REPO, "tools", "image_compare.py"), a, b]
    if crop is not None:
        cmd += ["--crop", csv(crop)]
    if diff is not None:
        cmd += ["--diff", diff]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"image_compare failed on {a} and {b}: {p.stderr.strip()}")
    r = json.loads(p.stdout)
    ok = r["ssim"] >= MIN_SSIM and r["mad"] <= MAX_MAD
    print(f"  {label:<28} SSIM {r['ssim']:.4f} (>= {MIN_SSIM})  MAD {r['mad']:.4f} (<= {MAX_MAD})  "
          f"{'ok' if ok else 'MISSED'}", flush=True)
    return r["ssim"], r["mad"], ok


def one_view(rigview, model, folder, name, view, clip=None, t=None, three_png=None):
    """rigview (and three unless `three_png` is given) render `model`; the whole image compared."""
    os.makedirs(folder, exist_ok=True)
    mine = os.path.join(folder, f"{name}.rigview.png")
    if three_png is None:
        three_png = os.path.join(folder, f"{name}.three.png")
        three_render(model, three_png, view, clip, t)
    elif not os.path.exists(three_png):
        raise RuntimeError(f"no three.js reference {three_png} (CTest's reference.three_character makes it)")
    rigview_render(rigview, model, mine, view, clip, t)
    return compare(mine, three_png, name, diff=os.path.join(folder, f"{name}.diff.png"))[2]


def character_three_png(out, t):
    return os.path.join(out, "three-character", f"wave_{t:g}.three.png")


def case_three_character(args):
    for t in CHARACTER_TIMES:
        three_render(CHARACTER, character_three_png(args.out, t), CHARACTER_VIEW, CHARACTER_CLIP, t)
    return True


def case_material_matrix(args):
    folder = os.path.join(args.out, "material-matrix")
    run([sys.executable, os.path.join(REPO, "tools", "make_material_matrix.py"), os.path.join(folder, "model")],
        "make_material_matrix.py")
    view = VIEWS["material-matrix"]
    model = os.path.join(folder, "model", "material_matrix.gltf")
    ok = one_view(args.rigview, model, folder, "matrix", view)
    cells, _ = run([sys.executable, os.path.join(REPO, "tools", "make_material_matrix.py"), "--cells",
                    "%dx%d" % view["size"]], "make_material_matrix.py --cells")
    for cell, rect in json.loads(cells).items():
        ok &= compare(os.path.join(folder, "matrix.rigview.png"), os.path.join(folder, "matrix.three.png"),
                      "cell " + cell, crop=rect)[2]
    return ok


def assimp_model(*parts):
    path = os.path.join(ASSIMP_MODELS, *parts)
    if not os.path.exists(path):
        raise RuntimeError(f"no {path} (Debian's assimp-testmodels; tools/setup.sh installs it)")
    return path


def case_clearcoat(args):
    model = assimp_model("glTF2", "ClearCoat-glTF", "ClearCoatTest.gltf")
    return one_view(args.rigview, model, os.path.join(args.out, "clearcoat"), "clearcoat", VIEWS["clearcoat"])


def case_box_textured(args):
    model = assimp_model("glTF2", "BoxTextured-glTF", "BoxTextured.gltf")
    return one_view(args.rigview, model, os.path.join(args.out, "box-textured"), "box", VIEWS["box-textured"])


def case_character(args):
    ok = True
    for t in CHARACTER_TIMES:
        ok &= one_view(args.rigview, CHARACTER, os.path.join(args.out, "character"), f"wave_{t:g}", CHARACTER_VIEW,
                       CHARACTER_CLIP, t, three_png=character_three_png(args.out, t))
    return ok


def case_character_export(args):
    folder = os.path.join(args.out, "character-export")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "model"))
    exported = os.path.join(folder, "model", "textured_character.gltf")
    run([args.rigview, "export", CHARACTER, "-o", exported], "rigview export")
    report, _ = run(["node", os.path.join(REPO, "tools", "gltf_validator", "validate.mjs"), exported],
                    "the Khronos glTF validator on the export")
    print("  " + report.strip().replace("\n", "\n  "), flush=True)
    ok = True
    for t in CHARACTER_TIMES:
        ok &= one_view(args.rigview, exported, folder, f"wave_{t:g}", CHARACTER_VIEW, CHARACTER_CLIP, t,
                       three_png=character_three_png(args.out, t))
    return ok


CASES = {
    "three-character": case_three_character,
    "material-matrix": case_material_matrix,
    "clearcoat": case_clearcoat,
    "box-textured": case_box_textured,
    "character": case_character,
    "character-export": case_character_export,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--rigview", required=True, help="the rigview binary")
    ap.add_argument("--out", required=True, help="folder for the images (in the build folder)")
    args = ap.parse_args()
    reason = skip_reason()
    if reason is not None:
        print(f"reference_render: skipped: {reason}")
        return 77
    args.out = os.path.abspath(args.out)
    t0 = time.monotonic()
    try:
        ok = CASES[args.case](args)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        print(f"reference_render {args.case}: {e}", flush=True)
        return 1
    print(f"reference_render {args.case}: {'every bar met' if ok else 'a bar is MISSED'} "
          f"({time.monotonic() - t0:.1f} s; images in {args.out})", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
