#!/usr/bin/python3
"""Make rigview's bundled neutral studio environment: assets/env/studio.hdr.

What it is: a small equirectangular (latitude-longitude) high-dynamic-range environment,
written as a Radiance RGBE file (.hdr, run-length encoded scanlines), made entirely by this
script (no downloaded or photographed images). It is a grey photo studio: a soft gradient
"sky" (brighter overhead, darker towards the horizon), a darker ground that fades up to a
soft horizon, and three soft-edged "softbox" lights. Seen from a camera on +Z looking down -Z
(three.js's and rigview's default view): a large rectangular key light in front of the subject
on the left (behind the camera's left shoulder), a tall narrow rectangular fill light on the
right, and a round top light above and behind the subject.
All colours are neutral grey (R = G = B), linear (scene-referred) radiance; the key light
peaks at about 8.5, the sky at about 0.8, the ground at about 0.18.

Mapping (the one three.js, rigview and most tools use for equirectangular maps): column x
of W holds azimuth u = (x + 0.5) / W, direction d with atan2(d.z, d.x) = (u - 0.5) * 2 pi;
row y of H (row 0 first in the file, "-Y H +X W") holds elevation asin(d.y) =
(0.5 - (y + 0.5) / H) * pi, so the top row is straight up (+Y). Azimuth -90 degrees
(u = 0.25) is -Z, what a camera looking down -Z sees behind the subject; +90 (u = 0.75) is +Z,
behind that camera.

The bytes are deterministic (NumPy float64, fixed parameters, no time stamp).

  /usr/bin/python3 tools/make_studio_env.py            # write assets/env/studio.hdr
  /usr/bin/python3 tools/make_studio_env.py --check    # regenerate in memory, compare bytes
  /usr/bin/python3 tools/make_studio_env.py -o F.hdr --size 1024x512

--check exits 0 when the committed file equals what the script makes, 1 otherwise.
Needs only Python 3 and NumPy (Debian's python3-numpy).
"""
import argparse
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(REPO, "assets", "env", "studio.hdr")


def smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def directions(width, height):
    u = (np.arange(width, dtype=np.float64) + 0.5) / width
    v = (np.arange(height, dtype=np.float64) + 0.5) / height
    azim = (u - 0.5) * 2.0 * np.pi                      # atan2(z, x)
    elev = (0.5 - v) * np.pi                            # asin(y); row 0 is up
    az, el = np.meshgrid(azim, elev)
    d = np.stack([np.cos(el) * np.cos(az), np.sin(el), np.cos(el) * np.sin(az)], axis=-1)
    return d, el


def unit(azim_deg, elev_deg):
    a, e = np.radians(azim_deg), np.radians(elev_deg)
    return np.array([np.cos(e) * np.cos(a), np.sin(e), np.cos(e) * np.sin(a)])


def softbox_rect(d, azim_deg, elev_deg, half_w_deg, half_h_deg, soft_deg, radiance):
    """A rectangle facing the centre, measured by angles in the light's own tangent frame."""
    c = unit(azim_deg, elev_deg)
    right = np.cross(c, [0.0, 1.0, 0.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, c)
    facing = d @ c
    x = np.degrees(np.arctan2(d @ right, np.maximum(facing, 1e-9)))
    y = np.degrees(np.arctan2(d @ up, np.maximum(facing, 1e-9)))
    mx = 1.0 - smoothstep(half_w_deg - soft_deg, half_w_deg + soft_deg, np.abs(x))
    my = 1.0 - smoothstep(half_h_deg - soft_deg, half_h_deg + soft_deg, np.abs(y))
    return radiance * mx * my * (facing > 0.0)


def softbox_disc(d, azim_deg, elev_deg, radius_deg, soft_deg, radiance):
    c = unit(azim_deg, elev_deg)
    ang = np.degrees(np.arccos(np.clip(d @ c, -1.0, 1.0)))
    return radiance * (1.0 - smoothstep(radius_deg - soft_deg, radius_deg + soft_deg, ang))


def studio(width, height):
    d, el = directions(width, height)
    s = np.sin(el)                                      # -1 down .. 1 up
    sky = 0.45 + 0.35 * np.clip(s, 0.0, 1.0) ** 0.6     # 0.45 at the horizon, 0.8 overhead
    ground = 0.18 - 0.08 * np.clip(-s, 0.0, 1.0)        # 0.18 near the horizon, 0.10 below
    t = smoothstep(-0.06, 0.06, s)                      # soft horizon
    L = ground * (1.0 - t) + sky * t
    # Lights (azimuth +90 is +Z, the side of a camera looking down -Z; 180 is -X, its left).
    L = L + softbox_rect(d, 135.0, 30.0, 24.0, 16.0, 5.0, 8.0)     # key: front left, large
    L = L + softbox_rect(d, 15.0, 10.0, 10.0, 22.0, 4.0, 3.0)      # fill: right, tall strip
    L = L + softbox_disc(d, -90.0, 60.0, 14.0, 5.0, 5.0)           # top: above and behind
    return np.repeat(L[..., None], 3, axis=-1)


def to_rgbe(rgb):
    """float (H, W, 3) -> uint8 (H, W, 4), the Radiance shared-exponent encoding."""
    v = rgb.max(axis=-1)
    m, e = np.frexp(v)                                  # v = m * 2**e, 0.5 <= m < 1
    scale = np.where(v > 1e-32, m * 256.0 / np.where(v > 1e-32, v, 1.0), 0.0)
    out = np.zeros(rgb.shape[:2] + (4,), dtype=np.uint8)
    out[..., :3] = np.clip(np.floor(rgb * scale[..., None]), 0, 255).astype(np.uint8)
    out[..., 3] = np.where(v > 1e-32, e + 128, 0).astype(np.uint8)
    return out


def rle_channel(row):
    """Encode one channel of one scanline as Radiance 'new' RLE (runs of >= 3 equal bytes)."""
    out = bytearray()
    n = len(row)
    i = 0
    while i < n:
        # Length of the run starting at i.
        j = i + 1
        while j < n and j - i < 127 and row[j] == row[i]:
            j += 1
        if j - i >= 3:
            out += bytes((128 + j - i, row[i]))
            i = j
            continue
        # Literal bytes until the next run of >= 3 (or 128 bytes).
        k = i
        while k < n and k - i < 128:
            if k + 2 < n and row[k] == row[k + 1] == row[k + 2]:
                break
            k += 1
        out += bytes((k - i,)) + bytes(row[i:k])
        i = k
    return bytes(out)


def hdr_bytes(rgb):
    h, w = rgb.shape[:2]
    rgbe = to_rgbe(rgb)
    head = (b"#?RADIANCE\n# rigview neutral studio environment, made by tools/make_studio_env.py\n"
            b"FORMAT=32-bit_rle_rgbe\n\n" + f"-Y {h} +X {w}\n".encode())
    body = bytearray()
    assert 8 <= w < 32768
    for y in range(h):
        body += bytes((2, 2, w >> 8, w & 255))
        for c in range(4):
            body += rle_channel(rgbe[y, :, c].tobytes())
    return head + bytes(body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--out", default=DEFAULT_OUT)
    ap.add_argument("--size", default="512x256", help="WxH, W = 2H (default 512x256)")
    ap.add_argument("--check", action="store_true",
                    help="compare the bytes of --out with what the script makes; write nothing")
    a = ap.parse_args()
    w, h = (int(x) for x in a.size.lower().split("x"))
    data = hdr_bytes(studio(w, h))
    if a.check:
        try:
            with open(a.out, "rb") as f:
                old = f.read()
        except OSError as e:
            print(f"make_studio_env: cannot read {a.out}: {e}", file=sys.stderr)
            return 1
        if old != data:
            print(f"make_studio_env: {a.out} differs from what the script makes "
                  f"({len(old)} vs {len(data)} bytes); run it without --check", file=sys.stderr)
            return 1
        print(f"make_studio_env: {a.out} is up to date ({len(data)} bytes)")
        return 0
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "wb") as f:
        f.write(data)
    print(f"make_studio_env: wrote {a.out} ({w}x{h}, {len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
