// three.js's own evaluation of a rigged FBX or COLLADA file (FBXLoader / ColladaLoader of the
// three in package.json, in headless Chromium: ColladaLoader needs the browser's DOMParser), as a
// JSON reference for rigview's import tests: at the given times of the given clips
// (AnimationMixer.setTime, the clip played once and held at its end), every skinned or plain
// mesh's world-space vertices (Mesh.getVertexPosition: morphs, then the skin) and every bone's
// world position. No bind pose: a SkinnedMesh's skeleton.pose() puts its vertices at the mesh
// node's transform of the raw geometry, which is not the pose the skin was bound in (FBXLoader's
// bind matrix is the mesh's own).
//
//   node tools/three_render/pose_dump.mjs MODEL.fbx|MODEL.dae OUT.json [--scale S] CLIP=T1,T2,... [CLIP=...]
//
// CLIP is a clip name (three's: FBXLoader names a clip after its stack, ColladaLoader "default").
// --scale multiplies every position written (FBXLoader keeps the file's units: 0.01 turns a
// centimetre file into metres; ColladaLoader applies <unit> itself). Positions are otherwise as
// three's scene has them: FBXLoader keeps the file's axes, ColladaLoader turns a Z_UP file Y-up.
// Vertices: three's geometries hold one vertex per face corner, so only the first vertex at each
// distinct position in the first pose (with the same skin weights) is written, with its index.
// Bone names are three's (PropertyBinding.sanitizeNodeName: no "[]./:" or spaces).
// Exit 0 on success, 1 on a failure (the page's errors on stderr), 2 on bad usage.
import fs from 'node:fs';
import path from 'node:path';
import { THREE_DIR, runInBrowser } from './browser.mjs';

function usage(msg) {
    if (msg) console.error(`pose_dump.mjs: ${msg}`);
    console.error('usage: node pose_dump.mjs MODEL.fbx|MODEL.dae OUT.json [--scale S] [--chromium PATH] CLIP=T1,T2,... [CLIP=...]');
    process.exit(2);
}

const args = process.argv.slice(2);
let scale = 1, chromium = '/usr/bin/chromium';
const positional = [];
for (let i = 0; i < args.length; i++) {
    if (args[i] === '--scale') scale = Number(args[++i]);
    else if (args[i] === '--chromium') chromium = args[++i];
    else positional.push(args[i]);
}
if (positional.length < 3 || !Number.isFinite(scale)) usage();
const [modelArg, outArg, ...requestArgs] = positional;
const modelPath = path.resolve(modelArg);
const ext = path.extname(modelPath).toLowerCase();
if (ext !== '.fbx' && ext !== '.dae') usage('MODEL must be .fbx or .dae');
if (!fs.existsSync(modelPath)) usage(`no such file: ${modelPath}`);
if (!fs.existsSync(path.join(THREE_DIR, 'package.json'))) usage('three is not installed: run npm ci here (tools/setup.sh does)');
const requests = requestArgs.filter((r) => r !== '-').map((r) => {
    const eq = r.lastIndexOf('=');
    if (eq < 0) usage(`${r}: want CLIP=T1,T2,...`);
    return { clip: r.slice(0, eq), times: r.slice(eq + 1).split(',').map(Number) };
});

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
</head><body>
<script type="module">
import * as THREE from 'three';
import { FBXLoader } from 'three/addons/loaders/FBXLoader.js';
import { ColladaLoader } from 'three/addons/loaders/ColladaLoader.js';
window.poseDump = async (o) => {
  let root, clips;
  if (o.kind === '.fbx') {
    root = await new FBXLoader().loadAsync(o.url);
    clips = root.animations;
  } else {
    const dae = await new ColladaLoader().loadAsync(o.url);
    root = dae.scene;
    clips = dae.animations ?? [];
  }
  const scene = new THREE.Scene();
  scene.add(root);
  const meshes = [], bones = [];
  root.traverse((x) => { if (x.isMesh) meshes.push(x); if (x.isBone) bones.push(x); });
  const v = new THREE.Vector3(), p = new THREE.Vector3();
  // One vertex per distinct bind position and skin (three splits vertices per face corner).
  let keep = null;
  function sample() {
    scene.updateMatrixWorld(true);
    const first = keep === null;
    if (first) keep = [];
    const out = meshes.map((m, mi) => {
      const pos = m.geometry.attributes.position;
      if (first) {
        const seen = new Set(), list = [];
        const sw = m.geometry.attributes.skinWeight, si = m.geometry.attributes.skinIndex;
        for (let i = 0; i < pos.count; ++i) {
          m.getVertexPosition(i, v);
          v.applyMatrix4(m.matrixWorld);
          let key = [v.x, v.y, v.z].map((c) => c.toFixed(6)).join(',');
          if (m.isSkinnedMesh && sw) key += '|' + [0, 1, 2, 3].map((k) => si.getComponent(i, k) + ':' + sw.getComponent(i, k).toFixed(6)).join(',');
          if (!seen.has(key)) { seen.add(key); list.push(i); }
        }
        keep.push(list);
      }
      const positions = [];
      for (const i of keep[mi]) {
        m.getVertexPosition(i, v);
        v.applyMatrix4(m.matrixWorld);
        positions.push(v.x * o.scale, v.y * o.scale, v.z * o.scale);
      }
      return { name: m.name, skinned: !!m.isSkinnedMesh, indices: keep[mi], positions };
    });
    const bs = bones.map((b) => { b.getWorldPosition(p); return { name: b.name, head: [p.x * o.scale, p.y * o.scale, p.z * o.scale] }; });
    return { meshes: out, bones: bs };
  }
  const poses = [];
  // The file's own local transforms, restored before each sample.
  const rest = [];
  root.traverse((x) => rest.push([x, x.position.clone(), x.quaternion.clone(), x.scale.clone()]));
  for (const r of o.requests) {
    const clip = clips.find((c) => c.name === r.clip);
    if (!clip) throw new Error('no clip ' + r.clip + ' (the file has: ' + clips.map((c) => c.name).join(', ') + ')');
    for (const t of r.times) {
      for (const [x, pp, q, sc] of rest) { x.position.copy(pp); x.quaternion.copy(q); x.scale.copy(sc); }
      const mixer = new THREE.AnimationMixer(root);
      const action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      mixer.setTime(t);
      poses.push({ clip: r.clip, time: t, ...sample() });
      mixer.stopAllAction();
      mixer.uncacheRoot(root);
    }
  }
  return { three: THREE.REVISION, loader: o.kind === '.fbx' ? 'FBXLoader' : 'ColladaLoader',
           clips: clips.map((c) => ({ name: c.name, duration: c.duration })), poses };
};
window.pageReady = true;
</script></body></html>`;

const ok = await runInBrowser({ name: 'pose_dump.mjs', html: PAGE, roots: { '/model/': path.dirname(modelPath) }, chromium },
    async (page, base) => {
        const result = await page.evaluate((o) => window.poseDump(o),
            { kind: ext, url: `${base}/model/${encodeURIComponent(path.basename(modelPath))}`, scale, requests });
        const round = (x) => Number(x.toPrecision(7));
        for (const pose of result.poses) {
            for (const m of pose.meshes) m.positions = m.positions.map(round);
            for (const b of pose.bones) b.head = b.head.map(round);
        }
        fs.writeFileSync(path.resolve(outArg), JSON.stringify({ file: path.basename(modelPath), scale, ...result }));
        console.log(`wrote ${outArg}: ${result.poses.length} poses`);
    });
process.exit(ok ? 0 : 1);
