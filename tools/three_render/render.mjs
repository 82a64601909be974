// Independent reference renders for rigview's `rigview render` (issue 27, "Look right"):
// three.js (npm `three`, the version in package.json) draws one frame of a glTF file in a
// real headless browser - Debian's Chromium, WebGL2 on SwiftShader (software, so the same
// bytes on every machine) - lit only by an equirectangular .hdr environment through
// PMREMGenerator, tone mapped, sRGB encoded, and the pixels are written as an 8-bit RGB PNG.
//
//   node tools/three_render/render.mjs MODEL.gltf|MODEL.glb OUT.png
//        [--camera EX,EY,EZ,TX,TY,TZ,FOV]   eye, target, vertical field of view in degrees
//                                           (default: framed on the model's bounds, 45)
//        [--env FILE.hdr]                   default assets/env/studio.hdr
//        [--tonemap neutral|aces|none]      default neutral (Khronos PBR Neutral); none: exposure only
//        [--exposure E]                     toneMappingExposure, a linear factor (default 1)
//        [--background R,G,B]               display (sRGB-encoded) 0..1 values written as they
//                                           are where no surface is (default 0,0,0)
//        [--size WxH]                       default 512x512
//        [--anim CLIP --time T]             pose from animation CLIP (its name, or its index
//                                           in the file) at T seconds (AnimationMixer.setTime)
//        [--chromium PATH]                  default /usr/bin/chromium
//        [--json]                           print one JSON line (settings, timings) on stdout:
//                                           load_ms (files), render_ms (PMREM, shaders, the
//                                           frame and readPixels: the GPU work is asynchronous,
//                                           so it is not split), total_ms (with Chromium)
//
// Settings (docs/reference-renders.md says why and what rigview must match):
// WebGLRenderer {antialias: false, alpha: false, preserveDrawingBuffer: true}, pixel ratio 1,
// outputColorSpace SRGBColorSpace, toneMapping NeutralToneMapping / ACESFilmicToneMapping /
// LinearToneMapping (for 'none': exposure times colour, clamped), toneMappingExposure E;
// scene.environment = PMREMGenerator.fromEquirectangular (HDRLoader's texture,
// EquirectangularReflectionMapping), environmentIntensity 1, no lights, no scene.background
// (the clear colour is the background, not tone mapped); PerspectiveCamera(FOV, W/H, near,
// far), up +Y, lookAt(target), near and far from the bounding sphere of the posed scene.
// The pixels are read back with gl.readPixels (bottom row first) and flipped.
//
// Files: the model's folder is served at /model/ (so its relative URIs resolve), the .hdr's
// folder at /env/ and three at /three/, by a small HTTP server on 127.0.0.1 in this process
// (browser.mjs, shared with pmrem_dump.mjs).
// Exit 0 on success, 1 on a failure (the page's errors on stderr), 2 on bad usage.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { THREE_DIR, runInBrowser } from './browser.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');

function usage(msg) {
    if (msg) console.error(`render.mjs: ${msg}`);
    console.error('usage: node render.mjs MODEL.gltf OUT.png [--camera EX,EY,EZ,TX,TY,TZ,FOV] [--env FILE.hdr] ' +
                  '[--tonemap neutral|aces|none] [--exposure E] [--background R,G,B] [--size WxH] ' +
                  '[--anim CLIP --time T] [--chromium PATH] [--json]');
    process.exit(2);
}

function numbers(s, n, name) {
    const v = String(s).split(',').map(Number);
    if (v.length !== n || v.some((x) => !Number.isFinite(x))) usage(`${name} wants ${n} comma-separated numbers`);
    return v;
}

const opts = {
    camera: null, env: path.join(REPO, 'assets', 'env', 'studio.hdr'), tonemap: 'neutral', exposure: 1,
    background: [0, 0, 0], size: [512, 512], anim: null, time: 0, chromium: '/usr/bin/chromium', json: false,
};
const positional = [];
{
    const a = process.argv.slice(2);
    for (let i = 0; i < a.length; i++) {
        const k = a[i];
        const val = () => { if (i + 1 >= a.length) usage(`${k} wants a value`); return a[++i]; };
        if (k === '--camera') opts.camera = numbers(val(), 7, k);
        else if (k === '--env') opts.env = path.resolve(val());
        else if (k === '--tonemap') { opts.tonemap = val(); if (!['neutral', 'aces', 'none'].includes(opts.tonemap)) usage('--tonemap is neutral, aces or none'); }
        else if (k === '--exposure') opts.exposure = numbers(val(), 1, k)[0];
        else if (k === '--background') opts.background = numbers(val(), 3, k);
        else if (k === '--size') { const m = /^(\d+)x(\d+)$/.exec(val()); if (!m) usage('--size is WxH'); opts.size = [+m[1], +m[2]]; }
        else if (k === '--anim') opts.anim = val();
        else if (k === '--time') opts.time = numbers(val(), 1, k)[0];
        else if (k === '--chromium') opts.chromium = val();
        else if (k === '--json') opts.json = true;
        else if (k.startsWith('--')) usage(`unknown option ${k}`);
        else positional.push(k);
    }
}
if (positional.length !== 2) usage();
const modelPath = path.resolve(positional[0]);
const outPath = path.resolve(positional[1]);
for (const f of [modelPath, opts.env]) if (!fs.existsSync(f)) usage(`no such file: ${f}`);
if (!fs.existsSync(path.join(THREE_DIR, 'package.json'))) usage(`three is not installed: run npm ci in ${HERE} (tools/setup.sh does)`);

// ---- the page ---------------------------------------------------------------------------
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>html,body{margin:0;background:#000}canvas{display:block}</style>
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
</head><body><canvas id="c"></canvas>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { HDRLoader } from 'three/addons/loaders/HDRLoader.js';
window.renderReference = async (o) => {
  const t0 = performance.now();
  const [W, H] = o.size;
  const canvas = document.getElementById('c');
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, alpha: false, preserveDrawingBuffer: true,
                                             powerPreference: 'high-performance' });
  renderer.setPixelRatio(1);
  renderer.setSize(W, H, false);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.toneMapping = { neutral: THREE.NeutralToneMapping, aces: THREE.ACESFilmicToneMapping, none: THREE.LinearToneMapping }[o.tonemap];   // 'none': exposure only (NoToneMapping would ignore it)
  renderer.toneMappingExposure = o.exposure;
  renderer.setClearColor(new THREE.Color().setRGB(o.background[0], o.background[1], o.background[2], THREE.SRGBColorSpace), 1);

  const [gltf, hdr] = await Promise.all([new GLTFLoader().loadAsync(o.modelUrl), new HDRLoader().loadAsync(o.envUrl)]);
  const t1 = performance.now();
  hdr.mapping = THREE.EquirectangularReflectionMapping;
  const pmrem = new THREE.PMREMGenerator(renderer);
  const envRT = pmrem.fromEquirectangular(hdr);
  const scene = new THREE.Scene();
  scene.environment = envRT.texture;
  scene.environmentIntensity = 1;
  scene.background = null;
  scene.add(gltf.scene);

  let clipName = null;
  if (o.anim !== null) {
    let clip = gltf.animations.find((c) => c.name === o.anim);
    if (!clip && /^\\d+$/.test(o.anim)) clip = gltf.animations[+o.anim];
    if (!clip) throw new Error('no animation ' + o.anim + ' (the file has: ' + gltf.animations.map((c, i) => i + ':' + c.name).join(', ') + ')');
    clipName = clip.name;
    const mixer = new THREE.AnimationMixer(gltf.scene);
    mixer.clipAction(clip).play();
    mixer.setTime(o.time);
  }
  scene.updateMatrixWorld(true);

  // Bounds of the posed scene (skinned meshes with their current pose: precise).
  const box = new THREE.Box3().setFromObject(gltf.scene, true);
  const sphere = box.isEmpty() ? new THREE.Sphere(new THREE.Vector3(), 1) : box.getBoundingSphere(new THREE.Sphere());
  const r = Math.max(sphere.radius, 1e-6);
  let eye, target, fov;
  if (o.camera) {
    eye = new THREE.Vector3(o.camera[0], o.camera[1], o.camera[2]);
    target = new THREE.Vector3(o.camera[3], o.camera[4], o.camera[5]);
    fov = o.camera[6];
  } else {
    fov = 45;
    target = sphere.center.clone();
    const dist = r / Math.sin(THREE.MathUtils.degToRad(fov) / 2) * 1.05;
    eye = target.clone().add(new THREE.Vector3(0, 0, dist));
  }
  const d = eye.distanceTo(sphere.center);
  const near = Math.max(d - r, 0) > 0 ? Math.max((d - r) * 0.9, r * 1e-3) : r * 1e-3;
  const far = (d + r) * 1.1;
  const camera = new THREE.PerspectiveCamera(fov, W / H, near, far);
  camera.up.set(0, 1, 0);
  camera.position.copy(eye);
  camera.lookAt(target);
  camera.updateMatrixWorld(true);

  renderer.compile(scene, camera);
  renderer.render(scene, camera);
  const gl = renderer.getContext();
  const px = new Uint8Array(W * H * 4);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const t2 = performance.now();
  let bin = '';
  for (let i = 0; i < px.length; i += 0x8000) bin += String.fromCharCode.apply(null, px.subarray(i, i + 0x8000));
  const info = {
    three: THREE.REVISION, webgl2: renderer.capabilities.isWebGL2 !== false,
    glRenderer: (() => { const e = gl.getExtension('WEBGL_debug_renderer_info'); return e ? gl.getParameter(e.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER); })(), near, far, fov,
    eye: eye.toArray(), target: target.toArray(), bounds: { min: box.min.toArray(), max: box.max.toArray() },
    clip: clipName, load_ms: t1 - t0, render_ms: t2 - t1,
  };
  pmrem.dispose(); envRT.dispose(); renderer.dispose();
  return { pixels: btoa(bin), info };
};
window.pageReady = true;
</script></body></html>`;

// ---- PNG ---------------------------------------------------------------------------------------
const CRC = new Int32Array(256).map((_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c; });
function crc32(buf) { let c = -1; for (const b of buf) c = CRC[(c ^ b) & 255] ^ (c >>> 8); return (c ^ -1) >>> 0; }
function chunk(type, data) {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
}
function png(rgbaBottomUp, w, h) {
    const raw = Buffer.alloc(h * (1 + 3 * w));
    for (let y = 0; y < h; y++) {
        const src = (h - 1 - y) * w * 4;               // readPixels gives the bottom row first
        const dst = y * (1 + 3 * w);
        raw[dst] = 0;                                   // filter: none
        for (let x = 0; x < w; x++) {
            raw[dst + 1 + 3 * x] = rgbaBottomUp[src + 4 * x];
            raw[dst + 2 + 3 * x] = rgbaBottomUp[src + 4 * x + 1];
            raw[dst + 3 + 3 * x] = rgbaBottomUp[src + 4 * x + 2];
        }
    }
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4);
    ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;   // 8-bit RGB
    return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr),
                          chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

// ---- run ---------------------------------------------------------------------------------------
const started = Date.now();
const roots = { '/model/': path.dirname(modelPath), '/env/': path.dirname(opts.env) };
const args = ['--force-color-profile=srgb', `--window-size=${opts.size[0]},${opts.size[1]}`];
const ok = await runInBrowser({ name: 'render.mjs', html: PAGE, roots, chromium: opts.chromium, args }, async (page, base) => {
    const modelUrl = `${base}/model/${encodeURIComponent(path.basename(modelPath))}`;
    const envUrl = `${base}/env/${encodeURIComponent(path.basename(opts.env))}`;
    const { pixels, info } = await page.evaluate((o) => window.renderReference(o),
        { modelUrl, envUrl, size: opts.size, tonemap: opts.tonemap, exposure: opts.exposure,
          background: opts.background, camera: opts.camera, anim: opts.anim, time: opts.time });
    const px = Buffer.from(pixels, 'base64');
    fs.mkdirSync(path.dirname(outPath), { recursive: true });
    fs.writeFileSync(outPath, png(px, opts.size[0], opts.size[1]));
    info.total_ms = Date.now() - started;
    if (opts.json) {
        console.log(JSON.stringify({ model: modelPath, out: outPath, env: opts.env, tonemap: opts.tonemap, exposure: opts.exposure,
                                     background: opts.background, size: opts.size, anim: opts.anim, time: opts.time, ...info }));
    } else {
        console.log(`render.mjs: wrote ${outPath} (${opts.size[0]}x${opts.size[1]}, three r${info.three}, ${info.glRenderer}, ` +
                    `${Math.round(info.total_ms)} ms)`);
    }
});
process.exit(ok ? 0 : 1);
