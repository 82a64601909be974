// three.js r187's prefiltered environment (PMREMGenerator.fromEquirectangular of an .hdr loaded by
// HDRLoader), read back texel by texel, so rigview's own PMREM (src/render/environment.cpp) can be
// compared with it (tests/environment_test.cpp). Same browser set-up as render.mjs (Chromium,
// WebGL2 on SwiftShader).
//
//   node tools/three_render/pmrem_dump.mjs ENV.hdr OUT.bin [--chromium PATH]
//
// OUT.bin: for each level 0..maxLod (face size 256 >> level for a 512-wide .hdr), for each face
// +X -X +Y -Y +Z -Z, for each row t and column s (GL's cube map convention, texel centres),
// R G B as little-endian float32: the PMREM sampled with textureLod at that exact level and
// texel centre (which returns the stored texel). A first line of JSON on stdout gives the
// face size, maxLod and three's revision. Exit 0, 1 on a failure, 2 on bad usage.
import fs from 'node:fs';
import path from 'node:path';
import { runInBrowser } from './browser.mjs';

const args = process.argv.slice(2);
let chromium = '/usr/bin/chromium';
const positional = [];
for (let i = 0; i < args.length; i++) {
    if (args[i] === '--chromium' && i + 1 < args.length) chromium = args[++i];
    else positional.push(args[i]);
}
if (positional.length !== 2 || !fs.existsSync(positional[0])) {
    console.error('usage: node pmrem_dump.mjs ENV.hdr OUT.bin [--chromium PATH]');
    process.exit(2);
}
const envPath = path.resolve(positional[0]);
const outPath = path.resolve(positional[1]);

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
</head><body><canvas id="c"></canvas>
<script type="module">
import * as THREE from 'three';
import { HDRLoader } from 'three/addons/loaders/HDRLoader.js';
window.dumpPmrem = async (envUrl) => {
  const renderer = new THREE.WebGLRenderer({ canvas: document.getElementById('c'), antialias: false });
  const hdr = await new HDRLoader().loadAsync(envUrl);
  hdr.mapping = THREE.EquirectangularReflectionMapping;
  const pmrem = new THREE.PMREMGenerator(renderer);
  const envRT = pmrem.fromEquirectangular(hdr);
  const size = envRT.width;
  const maxLod = envRT.texture.mipmaps.length - 1;
  // One strip per level: 6 faces side by side; each fragment looks up its texel's direction.
  const material = new THREE.ShaderMaterial({
    uniforms: { envMap: { value: envRT.texture }, level: { value: 0 }, faceSize: { value: size } },
    vertexShader: 'void main() { gl_Position = vec4(position.xy, 0.0, 1.0); }',
    fragmentShader: \`
      uniform samplerCube envMap;
      uniform float level;
      uniform float faceSize;
      void main() {
        float face = floor(gl_FragCoord.x / faceSize);
        vec2 st = (vec2(gl_FragCoord.x - face * faceSize, gl_FragCoord.y) / faceSize) * 2.0 - 1.0;
        vec3 d;
        if (face < 0.5) d = vec3(1.0, -st.y, -st.x);
        else if (face < 1.5) d = vec3(-1.0, -st.y, st.x);
        else if (face < 2.5) d = vec3(st.x, 1.0, st.y);
        else if (face < 3.5) d = vec3(st.x, -1.0, -st.y);
        else if (face < 4.5) d = vec3(st.x, -st.y, 1.0);
        else d = vec3(-st.x, -st.y, -1.0);
        gl_FragColor = vec4(textureLod(envMap, d, level).rgb, 1.0);
      }\`,
    depthTest: false, depthWrite: false,
  });
  const quad = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), material);
  const scene = new THREE.Scene();
  scene.add(quad);
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);
  const parts = [];
  for (let lod = 0; lod <= maxLod; lod++) {
    const s = size >> lod;
    const target = new THREE.WebGLRenderTarget(6 * s, s, { type: THREE.FloatType, depthBuffer: false });
    material.uniforms.level.value = lod;
    material.uniforms.faceSize.value = s;
    renderer.setRenderTarget(target);
    renderer.render(scene, camera);
    const px = new Float32Array(6 * s * s * 4);
    renderer.readRenderTargetPixels(target, 0, 0, 6 * s, s, px);
    // Rows bottom first = t from -1 up; reorder to face, row, column, RGB.
    const out = new Float32Array(6 * s * s * 3);
    for (let f = 0; f < 6; f++) for (let y = 0; y < s; y++) for (let x = 0; x < s; x++) {
      const src = (y * 6 * s + f * s + x) * 4, dst = ((f * s + y) * s + x) * 3;
      out[dst] = px[src]; out[dst + 1] = px[src + 1]; out[dst + 2] = px[src + 2];
    }
    parts.push(out);
    target.dispose();
  }
  renderer.setRenderTarget(null);
  const total = parts.reduce((n, p) => n + p.length, 0);
  const all = new Float32Array(total);
  let o = 0;
  for (const p of parts) { all.set(p, o); o += p.length; }
  const bytes = new Uint8Array(all.buffer);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return { data: btoa(bin), size, maxLod, three: THREE.REVISION };
};
window.pageReady = true;
</script></body></html>`;

const ok = await runInBrowser({ name: 'pmrem_dump.mjs', html: PAGE, roots: { '/env/': path.dirname(envPath) }, chromium },
    async (page, base) => {
        const r = await page.evaluate((u) => window.dumpPmrem(u), `${base}/env/${encodeURIComponent(path.basename(envPath))}`);
        fs.writeFileSync(outPath, Buffer.from(r.data, 'base64'));
        console.log(JSON.stringify({ env: envPath, out: outPath, faceSize: r.size, maxLod: r.maxLod, three: r.three }));
    });
process.exit(ok ? 0 : 1);
