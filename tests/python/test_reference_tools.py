#!/usr/bin/python3
"""Checks of the render-parity tools (docs/reference-renders.md), Python and NumPy only:
tools/image_compare.py (its PNG reader on every filter type and colour type, SSIM against the
closed form for flat images, MAD), tools/make_studio_env.py (the RLE .hdr decodes back to the
radiance it was made from; the mapping puts the sky up and the key light front-left) and
tools/make_material_matrix.py (the same bytes twice; the cell rectangles lie inside the image).

  /usr/bin/python3 tests/python/test_reference_tools.py -v
"""
import os
import struct
import sys
import tempfile
import unittest
import zlib

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools"))

import image_compare  # noqa: E402
import make_material_matrix  # noqa: E402
import make_studio_env  # noqa: E402


def encode_png(img, filters, palette=None):
    """A PNG of img (H, W, C uint8) with filter type filters[y % len(filters)] on row y."""
    h, w, c = img.shape
    rows, prev = [], np.zeros(w * c, np.int64)
    for y in range(h):
        cur = img[y].reshape(-1).astype(np.int64)
        f = filters[y % len(filters)]
        left = np.concatenate([np.zeros(c, np.int64), cur[:-c]])
        upleft = np.concatenate([np.zeros(c, np.int64), prev[:-c]])
        if f == 0:
            o = cur
        elif f == 1:
            o = cur - left
        elif f == 2:
            o = cur - prev
        elif f == 3:
            o = cur - ((left + prev) >> 1)
        else:
            p = left + prev - upleft
            pa, pb, pc = np.abs(p - left), np.abs(p - prev), np.abs(p - upleft)
            o = cur - np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, prev, upleft))
        rows.append(bytes([f]) + bytes((o & 255).astype(np.uint8)))
        prev = cur

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)

    ctype = 3 if palette is not None else {1: 0, 2: 4, 3: 2, 4: 6}[c]
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, ctype, 0, 0, 0))
    if palette is not None:
        out += chunk(b"PLTE", palette.tobytes())
    return out + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")


def decode_hdr(data):
    """Radiance RGBE (new-style RLE scanlines) -> float (H, W, 3)."""
    i = data.index(b"\n\n") + 2
    j = data.index(b"\n", i)
    _, h, _, w = data[i:j].split()
    h, w = int(h), int(w)
    p = j + 1
    img = np.zeros((h, w, 4), np.uint8)
    for y in range(h):
        assert data[p:p + 4] == bytes((2, 2, w >> 8, w & 255))
        p += 4
        for c in range(4):
            x = 0
            while x < w:
                n = data[p]
                p += 1
                if n > 128:
                    img[y, x:x + n - 128, c] = data[p]
                    p += 1
                    x += n - 128
                else:
                    assert n > 0
                    img[y, x:x + n, c] = np.frombuffer(data[p:p + n], np.uint8)
                    p += n
                    x += n
    assert p == len(data)
    return img[..., :3].astype(np.float64) * np.ldexp(1.0, img[..., 3].astype(np.int64) - 136)[..., None]


class ImageCompareTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def test_png_reader_every_filter_and_colour_type(self):
        rng = np.random.default_rng(7)
        for channels in (1, 2, 3, 4):
            img = rng.integers(0, 256, (23, 17, channels), dtype=np.uint8)
            with open(self.path("a.png"), "wb") as f:
                f.write(encode_png(img, [0, 1, 2, 3, 4]))
            want = np.repeat(img[..., :1], 3, axis=2) if channels <= 2 else img[..., :3]
            np.testing.assert_array_equal(image_compare.read_png(self.path("a.png")), want)
        palette = rng.integers(0, 256, (16, 3), dtype=np.uint8)
        idx = rng.integers(0, 16, (9, 11, 1), dtype=np.uint8)
        with open(self.path("p.png"), "wb") as f:
            f.write(encode_png(idx, [4, 1], palette=palette))
        np.testing.assert_array_equal(image_compare.read_png(self.path("p.png")), palette[idx[..., 0]])

    def test_write_then_read(self):
        img = np.random.default_rng(1).integers(0, 256, (12, 20, 3), dtype=np.uint8)
        image_compare.write_png(self.path("w.png"), img)
        np.testing.assert_array_equal(image_compare.read_png(self.path("w.png")), img)

    def test_ssim_and_mad_of_flat_images(self):
        a = np.full((20, 30, 3), 100, np.uint8)
        b = np.full((20, 30, 3), 140, np.uint8)
        r = image_compare.compare(a, b)
        C1 = (0.01 * 255) ** 2
        self.assertAlmostEqual(r["ssim"], (2 * 100 * 140 + C1) / (100 ** 2 + 140 ** 2 + C1), places=9)
        self.assertAlmostEqual(r["mad"], 40 / 255, places=12)
        same = image_compare.compare(a, a)
        self.assertEqual((same["ssim"], same["mad"]), (1.0, 0.0))

    def test_ssim_falls_with_noise(self):
        rng = np.random.default_rng(3)
        ramp = np.linspace(40, 200, 64)
        a = np.repeat(np.round(ramp[None, :, None] + 0 * ramp[:, None, None]), 3, axis=2).astype(np.uint8)
        noisy = np.clip(a.astype(int) + rng.normal(0, 20, a.shape), 0, 255).astype(np.uint8)
        self.assertLess(image_compare.compare(a, noisy)["ssim"], 0.95)


class StudioEnvTest(unittest.TestCase):
    def test_rle_file_decodes_to_the_radiance(self):
        w, h = 128, 64
        ref = make_studio_env.studio(w, h)
        got = decode_hdr(make_studio_env.hdr_bytes(ref))
        # RGBE keeps 8 bits of mantissa for the largest channel (here all three are equal).
        np.testing.assert_array_less(np.abs(got - ref), ref / 128 + 1e-9)

    def test_sky_is_up_and_the_key_light_is_in_front_on_the_left(self):
        w, h = 256, 128
        L = make_studio_env.studio(w, h)[..., 0]
        self.assertGreater(L[:h // 4].mean(), L[3 * h // 4:].mean())
        y, x = np.unravel_index(np.argmax(L), L.shape)
        u = (x + 0.5) / w
        azim = (u - 0.5) * 360.0          # atan2(z, x) in degrees
        elev = (0.5 - (y + 0.5) / h) * 180.0
        self.assertLess(abs(azim - 135.0), 25.0)   # -X (left) and +Z (the camera's side)
        self.assertLess(abs(elev - 30.0), 17.0)

    def test_committed_file_is_up_to_date(self):
        with open(make_studio_env.DEFAULT_OUT, "rb") as f:
            self.assertEqual(f.read(), make_studio_env.hdr_bytes(make_studio_env.studio(512, 256)))


class MaterialMatrixTest(unittest.TestCase):
    def test_deterministic(self):
        self.assertEqual(make_material_matrix.build(), make_material_matrix.build())

    def test_cells_inside_the_image_and_apart(self):
        rects = make_material_matrix.cell_rects(1024, 512)
        self.assertEqual(len(rects), 18)
        for x, y, w, h in rects.values():
            self.assertTrue(0 <= x and 0 <= y and x + w <= 1024 and y + h <= 512 and w > 100 and h > 100)
        boxes = list(rects.values())
        for i, (x0, y0, w0, h0) in enumerate(boxes):
            for x1, y1, w1, h1 in boxes[i + 1:]:
                self.assertTrue(x0 + w0 <= x1 or x1 + w1 <= x0 or y0 + h0 <= y1 or y1 + h1 <= y0)


if __name__ == "__main__":
    unittest.main()
