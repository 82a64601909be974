#!/usr/bin/python3
"""Compare two renders (issue 27's render-parity bars): SSIM on luminance and the mean absolute
difference, printed as one JSON line {"ssim": .., "mad": .., "width": .., "height": ..}.

  /usr/bin/python3 tools/image_compare.py A.png B.png [--crop X,Y,W,H] [--diff D.png]
                                           [--min-ssim 0.95 --max-mad 0.03]

--crop compares only that rectangle (pixels, y down) of both images, e.g. one cell of the
material matrix (tools/make_material_matrix.py --cells WxH gives them).

SSIM: Wang, Bovik, Sheikh, Simoncelli 2004 (the reference ssim.m): luminance
Y = 0.2126 R + 0.7152 G + 0.0722 B of the 8-bit (sRGB-encoded) values, dynamic range L = 255,
an 11x11 Gaussian window with sigma 1.5 (normalised), K1 = 0.01, K2 = 0.03, statistics over the
"valid" windows only (no padding), the mean of the SSIM map.
MAD: the mean over every pixel and the R, G, B channels of |A - B|, divided by 255 (a fraction
of full scale; 0.03 is the 3% bar). Alpha is ignored; grey images count as R = G = B.

Exit 0 after printing (whatever the numbers); with --min-ssim or --max-mad, 1 when a bar is
missed; 2 on bad usage or an unreadable image or sizes that differ.
Reads 8-bit non-interlaced PNGs (grey, grey+alpha, RGB, RGBA, palette; every filter type) with zlib,
so it needs only Python 3 and NumPy (Debian's python3-numpy), no PIL.
"""
import argparse
import json
import struct
import sys
import zlib

import numpy as np


def read_png(path, alpha=False):
    """-> uint8 array (H, W, 3); (H, W, 4) with alpha=True for an RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, head, palette = 8, [], None, None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = np.frombuffer(body, dtype=np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if head is None:
        raise ValueError(f"{path}: no IHDR")
    w, h, depth, ctype, _, _, interlace = head
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(ctype)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"{path}: only 8-bit non-interlaced grey/RGB(A)/palette PNGs are read "
                         f"(bit depth {depth}, colour type {ctype}, interlace {interlace})")
    raw = zlib.decompress(b"".join(idat))
    stride = w * channels
    if len(raw) < h * (stride + 1):
        raise ValueError(f"{path}: truncated image data")
    out = np.zeros((h, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    bpp = channels
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        if ftype == 0:
            cur = line
        elif ftype == 2:                                   # up
            cur = (line + prev) & 255
        elif ftype == 1:                                   # sub: a running sum per channel
            cur = np.cumsum(line.reshape(w, bpp), axis=0).reshape(stride) & 255
        elif ftype == 3:                                   # average: sequential
            cur = line.copy()
            p = prev
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((left + p[i]) >> 1)) & 255
        elif ftype == 4:                                   # Paeth: sequential
            c = line.tolist()
            p = prev.tolist()
            for i in range(stride):
                a = c[i - bpp] if i >= bpp else 0
                b = p[i]
                cc = p[i - bpp] if i >= bpp else 0
                pa, pb, pc = abs(b - cc), abs(a - cc), abs(a + b - 2 * cc)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
                c[i] = (c[i] + pred) & 255
            cur = np.array(c, dtype=np.int32)
        else:
            raise ValueError(f"{path}: bad filter type {ftype} on row {y}")
        out[y] = cur
        prev = cur
    img = out.reshape(h, w, channels)
    if ctype == 3:
        if palette is None:
            raise ValueError(f"{path}: palette image without PLTE")
        return palette[np.minimum(img[..., 0], len(palette) - 1)].copy()
    if channels <= 2:
        return np.repeat(img[..., :1], 3, axis=2)
    if alpha and channels == 4:
        return img.copy()
    return img[..., :3].copy()


def write_png(path, rgb):
    h, w = rgb.shape[:2]
    raw = b"".join(b"\0" + rgb[y].tobytes() for y in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def gaussian_window(size=11, sigma=1.5):
    x = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    g = np.exp(-(x * x) / (2.0 * sigma * sigma))
    return g / g.sum()


def filter_valid(img, g):
    """Separable 'valid' correlation of a 2-D float image with the 1-D kernel g (both axes)."""
    n = len(g)
    h, w = img.shape
    rows = sum(g[k] * img[:, k:w - n + 1 + k] for k in range(n))
    return sum(g[k] * rows[k:h - n + 1 + k, :] for k in range(n))


def ssim(a, b, L=255.0, K1=0.01, K2=0.03):
    g = gaussian_window()
    if a.shape[0] < len(g) or a.shape[1] < len(g):
        raise ValueError("images smaller than the 11x11 SSIM window")
    C1, C2 = (K1 * L) ** 2, (K2 * L) ** 2
    mu1, mu2 = filter_valid(a, g), filter_valid(b, g)
    s11 = filter_valid(a * a, g) - mu1 * mu1
    s22 = filter_valid(b * b, g) - mu2 * mu2
    s12 = filter_valid(a * b, g) - mu1 * mu2
    m = ((2 * mu1 * mu2 + C1) * (2 * s12 + C2)) / ((mu1 * mu1 + mu2 * mu2 + C1) * (s11 + s22 + C2))
    return float(m.mean())


def luminance(rgb):
    f = rgb.astype(np.float64)
    return 0.2126 * f[..., 0] + 0.7152 * f[..., 1] + 0.0722 * f[..., 2]


def compare(a, b):
    return {"ssim": ssim(luminance(a), luminance(b)),
            "mad": float(np.abs(a.astype(np.float64) - b.astype(np.float64)).mean() / 255.0),
            "width": int(a.shape[1]), "height": int(a.shape[0])}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--crop", help="X,Y,W,H: compare only this rectangle of both images")
    ap.add_argument("--diff", help="write |A - B| (RGB, scaled x4, clamped) as a PNG")
    ap.add_argument("--min-ssim", type=float)
    ap.add_argument("--max-mad", type=float)
    args = ap.parse_args()
    try:
        a, b = read_png(args.a), read_png(args.b)
    except (OSError, ValueError, zlib.error) as e:
        print(f"image_compare: {e}", file=sys.stderr)
        return 2
    if a.shape != b.shape:
        print(f"image_compare: sizes differ: {a.shape[1]}x{a.shape[0]} vs {b.shape[1]}x{b.shape[0]}", file=sys.stderr)
        return 2
    if args.crop:
        try:
            x, y, w, h = (int(v) for v in args.crop.split(","))
        except ValueError:
            print("image_compare: --crop wants X,Y,W,H (integers)", file=sys.stderr)
            return 2
        if x < 0 or y < 0 or w <= 0 or h <= 0 or x + w > a.shape[1] or y + h > a.shape[0]:
            print(f"image_compare: --crop {args.crop} is not inside the {a.shape[1]}x{a.shape[0]} images", file=sys.stderr)
            return 2
        a, b = a[y:y + h, x:x + w], b[y:y + h, x:x + w]
    try:
        r = compare(a, b)
    except ValueError as e:
        print(f"image_compare: {e}", file=sys.stderr)
        return 2
    if args.diff:
        d = np.clip(np.abs(a.astype(np.int32) - b.astype(np.int32)) * 4, 0, 255).astype(np.uint8)
        write_png(args.diff, d)
    print(json.dumps(r))
    failed = (args.min_ssim is not None and r["ssim"] < args.min_ssim) or \
             (args.max_mad is not None and r["mad"] > args.max_mad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
