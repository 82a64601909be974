// three.js references for rigview's tests (tests/reference_test.cpp).
//
//   cd tools/three_refs && npm install && node make_refs.mjs OUTDIR
//
// 1. Writes OUTDIR/dup_names.gltf: a small skinned character whose node names are used twice,
//    written here (not by rigview):
//      - "Character" is both a rigid mesh node (a hat, first in node order) and the skin's root
//        bone; both are animated by both clips;
//      - "arm" and "tip" are each two joints of the skin (left and right arm).
//    Clips "wave" and "bob" target the same-named nodes by index, as glTF does; one channel
//    is STEP-interpolated. In "twins", same-named targets have the same key counts and times
//    and differ only in their values.
// 2. Loads it with three.js's GLTFLoader (which gives every node a unique name, so its
//    AnimationMixer binds each channel to the node the file means), plays every clip with an
//    AnimationMixer and writes OUTDIR/dup_names_three.json: the world-space position of every
//    vertex (skinned on the CPU by SkinnedMesh.getVertexPosition, then matrixWorld) at several
//    times of each clip, plus each mesh's raw (mesh-space) positions to match vertices by.
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const outdir = process.argv[2];
if (!outdir) {
  console.error('usage: node make_refs.mjs OUTDIR');
  process.exit(2);
}
fs.mkdirSync(outdir, { recursive: true });

// ---- the glTF --------------------------------------------------------------------------

const chunks = [];
let byteLength = 0;
const accessors = [];
const bufferViews = [];

function addAccessor(array, componentType, type, count, extra = {}) {
  const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  const pad = (4 - (byteLength % 4)) % 4;
  if (pad) {
    chunks.push(Buffer.alloc(pad));
    byteLength += pad;
  }
  bufferViews.push({ buffer: 0, byteOffset: byteLength, byteLength: bytes.length });
  chunks.push(bytes);
  byteLength += bytes.length;
  accessors.push({ bufferView: bufferViews.length - 1, componentType, type, count, ...extra });
  return accessors.length - 1;
}
const FLOAT = 5126, USHORT = 5123;

function quatAxisAngle(axis, degrees) {
  const q = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(...axis).normalize(), (degrees * Math.PI) / 180);
  return [q.x, q.y, q.z, q.w];
}

const nodes = [
  { name: 'Character', mesh: 1, translation: [0.55, 1.05, 0.1] },                      // 0 rigid hat
  { name: 'body', mesh: 0, skin: 0 },                                                     // 1
  { name: 'Character', translation: [0, 0.1, 0], children: [3] },                         // 2 root bone
  { name: 'spine', translation: [0, 0.5, 0], children: [4, 5, 7] },                       // 3
  { name: 'head', translation: [0, 0.5, 0] },                                             // 4
  { name: 'arm', translation: [0.15, 0.35, 0], rotation: quatAxisAngle([0, 0, 1], -10), children: [6] },  // 5
  { name: 'tip', translation: [0.4, 0, 0] },                                              // 6
  { name: 'arm', translation: [-0.15, 0.35, 0], rotation: quatAxisAngle([0, 0, 1], 10), children: [8] },  // 7
  { name: 'tip', translation: [-0.4, 0, 0] },                                             // 8
];
const joints = [2, 3, 4, 5, 6, 7, 8];

// World matrices of the node pose (the bind pose of the skin).
function localMatrix(n) {
  const t = new THREE.Vector3(...(n.translation || [0, 0, 0]));
  const r = new THREE.Quaternion(...(n.rotation || [0, 0, 0, 1]));
  const s = new THREE.Vector3(...(n.scale || [1, 1, 1]));
  return new THREE.Matrix4().compose(t, r, s);
}
const world = nodes.map(() => null);
function walk(i, parent) {
  world[i] = parent.clone().multiply(localMatrix(nodes[i]));
  for (const c of nodes[i].children || []) walk(c, world[i]);
}
for (const root of [0, 1, 2]) walk(root, new THREE.Matrix4());

// The body: a column over root/spine/head and two arms over arm/tip, rings of 4 vertices,
// each vertex weighted smoothly between the two joints around it.
const positions = [], jointIdx = [], weights = [], indices = [];
function ring(center, axisA, axisB, radius, w) {
  const start = positions.length / 3;
  for (let k = 0; k < 4; ++k) {
    const a = (k * Math.PI) / 2 + 0.3;
    const p = center.clone().addScaledVector(axisA, radius * Math.cos(a)).addScaledVector(axisB, radius * Math.sin(a));
    positions.push(p.x, p.y, p.z);
    jointIdx.push(w[0][0], w[1][0], 0, 0);
    weights.push(w[0][1], w[1][1], 0, 0);
  }
  return start;
}
function strip(rings) {
  for (let r = 0; r + 1 < rings.length; ++r) {
    for (let k = 0; k < 4; ++k) {
      const a = rings[r] + k, b = rings[r] + ((k + 1) % 4), c = rings[r + 1] + k, d = rings[r + 1] + ((k + 1) % 4);
      indices.push(a, b, d, a, d, c);
    }
  }
}
const X = new THREE.Vector3(1, 0, 0), Y = new THREE.Vector3(0, 1, 0), Z = new THREE.Vector3(0, 0, 1);
{
  const rings = [];
  for (let i = 0; i <= 7; ++i) {
    const y = 0.12 + (1.0 * i) / 7;  // 0.12 .. 1.12
    // slot 0 root (y 0.1), 1 spine (0.6), 2 head (1.1)
    let w;
    if (y < 0.6) { const f = (y - 0.1) / 0.5; w = [[0, 1 - f], [1, f]]; }
    else { const f = Math.min((y - 0.6) / 0.5, 1); w = [[1, 1 - f], [2, f]]; }
    rings.push(ring(new THREE.Vector3(0, y, 0), X, Z, 0.12 + 0.02 * Math.sin(i), w));
  }
  strip(rings);
}
for (const [arm, tip] of [[3, 4], [5, 6]]) {  // skin slots of (arm, tip) left, right
  const a = new THREE.Vector3().setFromMatrixPosition(world[joints[arm]]);
  const b = new THREE.Vector3().setFromMatrixPosition(world[joints[tip]]);
  const rings = [];
  for (let i = 0; i <= 5; ++i) {
    const f = i / 5;
    const c = a.clone().lerp(b, 0.1 + 0.95 * f);
    rings.push(ring(c, Y, Z, 0.05, [[arm, 1 - f], [tip, f]]));
  }
  strip(rings);
}
function minMax(arr, n) {
  const min = Array(n).fill(Infinity), max = Array(n).fill(-Infinity);
  for (let i = 0; i < arr.length; ++i) { min[i % n] = Math.min(min[i % n], arr[i]); max[i % n] = Math.max(max[i % n], arr[i]); }
  return { min: min.map(Math.fround), max: max.map(Math.fround) };
}
const bodyPos = addAccessor(new Float32Array(positions), FLOAT, 'VEC3', positions.length / 3, minMax(new Float32Array(positions), 3));
const bodyJoints = addAccessor(new Uint16Array(jointIdx), USHORT, 'VEC4', jointIdx.length / 4);
const bodyWeights = addAccessor(new Float32Array(weights), FLOAT, 'VEC4', weights.length / 4);
const bodyIdx = addAccessor(new Uint16Array(indices), USHORT, 'SCALAR', indices.length);

// The hat: a box, rigid.
const hp = [], hi = [];
for (let k = 0; k < 8; ++k) hp.push(k & 1 ? 0.08 : -0.08, k & 2 ? 0.05 : -0.05, k & 4 ? 0.06 : -0.06);
for (const [a, b, c, d] of [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]]) hi.push(a, b, c, a, c, d);
const hatPos = addAccessor(new Float32Array(hp), FLOAT, 'VEC3', 8, minMax(new Float32Array(hp), 3));
const hatIdx = addAccessor(new Uint16Array(hi), USHORT, 'SCALAR', hi.length);

const ibm = [];
for (const j of joints) ibm.push(...world[j].clone().invert().elements);
const ibmAcc = addAccessor(new Float32Array(ibm), FLOAT, 'MAT4', joints.length);

// Animations: same-named nodes are targeted by index.
function channel(anim, node, pathName, times, values, interpolation = 'LINEAR') {
  const t = new Float32Array(times);
  const input = addAccessor(t, FLOAT, 'SCALAR', times.length, { min: [Math.fround(times[0])], max: [Math.fround(times[times.length - 1])] });
  const output = addAccessor(new Float32Array(values.flat()), FLOAT, pathName === 'rotation' ? 'VEC4' : 'VEC3', times.length);
  anim.samplers.push({ input, output, interpolation });
  anim.channels.push({ sampler: anim.samplers.length - 1, target: { node, path: pathName } });
}
function base(i) { return nodes[i].rotation || [0, 0, 0, 1]; }
function turn(i, axis, degrees) {
  const q = new THREE.Quaternion(...base(i)).multiply(new THREE.Quaternion(...quatAxisAngle(axis, degrees)));
  return [q.x, q.y, q.z, q.w];
}
const wave = { name: 'wave', samplers: [], channels: [] };
channel(wave, 2, 'rotation', [0, 0.5, 1.0], [turn(2, [0, 1, 0], 0), turn(2, [0, 1, 0], 35), turn(2, [0, 1, 0], 10)]);
channel(wave, 0, 'translation', [0, 1.0], [[0.55, 1.05, 0.1], [0.45, 1.25, -0.1]]);
channel(wave, 5, 'rotation', [0, 0.25, 0.5, 0.75, 1.0], [0, 50, 10, 60, 0].map((d) => turn(5, [0, 0, 1], d)));
channel(wave, 7, 'rotation', [0, 0.5, 1.0], [0, -30, -5].map((d) => turn(7, [0, 0, 1], d)), 'STEP');
channel(wave, 6, 'rotation', [0, 1.0], [0, 40].map((d) => turn(6, [0, 1, 0], d)));
channel(wave, 8, 'rotation', [0, 0.4, 1.0], [0, -25, 15].map((d) => turn(8, [1, 0, 0], d)));
const bob = { name: 'bob', samplers: [], channels: [] };
channel(bob, 2, 'translation', [0, 0.6, 1.2], [[0, 0.1, 0], [0.05, 0.25, 0], [0, 0.1, 0.05]]);
channel(bob, 0, 'rotation', [0, 0.3, 0.6, 0.9, 1.2], [0, 30, 60, 90, 120].map((d) => turn(0, [0, 1, 0], d)));
channel(bob, 3, 'rotation', [0, 1.2], [0, 25].map((d) => turn(3, [1, 0, 0], d)));
channel(bob, 4, 'scale', [0, 0.6, 1.2], [[1, 1, 1], [1.2, 0.9, 1.2], [1, 1, 1]]);

// Same-named targets alike in key count and times: only their values tell them apart.
const twins = { name: 'twins', samplers: [], channels: [] };
channel(twins, 6, 'rotation', [0, 0.5, 1.0], [0, 30, 0].map((d) => turn(6, [0, 0, 1], d)));
channel(twins, 8, 'rotation', [0, 0.5, 1.0], [0, -45, 10].map((d) => turn(8, [0, 1, 0], d)));
channel(twins, 5, 'scale', [0, 1.0], [[1, 1, 1], [1.1, 1.1, 1.1]]);
channel(twins, 7, 'scale', [0, 1.0], [[1, 1, 1], [0.9, 0.9, 0.9]]);
channel(twins, 0, 'translation', [0, 1.0], [[0.55, 1.05, 0.1], [0.7, 1.1, 0.1]]);
channel(twins, 2, 'translation', [0, 1.0], [[0, 0.1, 0], [0, 0.2, 0.1]]);

const buffer = Buffer.concat(chunks);
const gltf = {
  asset: { version: '2.0', generator: 'rigview tools/three_refs/make_refs.mjs' },
  scene: 0,
  scenes: [{ nodes: [0, 1, 2] }],
  nodes,
  meshes: [
    { name: 'body', primitives: [{ attributes: { POSITION: bodyPos, JOINTS_0: bodyJoints, WEIGHTS_0: bodyWeights }, indices: bodyIdx }] },
    { name: 'hat', primitives: [{ attributes: { POSITION: hatPos }, indices: hatIdx }] },
  ],
  skins: [{ joints, inverseBindMatrices: ibmAcc, skeleton: 2 }],
  animations: [wave, bob, twins],
  accessors,
  bufferViews,
  buffers: [{ byteLength: buffer.length, uri: 'data:application/octet-stream;base64,' + buffer.toString('base64') }],
};
const gltfPath = path.join(outdir, 'dup_names.gltf');
fs.writeFileSync(gltfPath, JSON.stringify(gltf));

// ---- three.js's evaluation ---------------------------------------------------------------

// three's FileLoader (which reads the data: URI buffer through fetch) reports progress with the
// browser's ProgressEvent, which Node lacks.
if (typeof globalThis.ProgressEvent === 'undefined') {
  globalThis.ProgressEvent = class extends Event {
    constructor(type, init = {}) {
      super(type);
      Object.assign(this, init);
    }
  };
}

const loaded = await new Promise((resolve, reject) => new GLTFLoader().parse(fs.readFileSync(gltfPath, 'utf8'), '', resolve, reject));
const scene = loaded.scene;
const meshes = [];
scene.traverse((o) => { if (o.isMesh) meshes.push(o); });
meshes.sort((a, b) => a.geometry.name.localeCompare(b.geometry.name));
const meshName = (o) => loaded.parser.json.meshes[loaded.parser.associations.get(o).meshes].name;

function pose() {
  scene.updateMatrixWorld(true);
  const out = {};
  const v = new THREE.Vector3();
  for (const o of meshes) {
    if (o.isSkinnedMesh) o.skeleton.update();
    const n = o.geometry.attributes.position.count;
    const p = [];
    for (let i = 0; i < n; ++i) {
      o.getVertexPosition(i, v);  // morphs and skinning, mesh space
      v.applyMatrix4(o.matrixWorld);
      p.push(+v.x.toPrecision(9), +v.y.toPrecision(9), +v.z.toPrecision(9));
    }
    out[meshName(o)] = p;
  }
  return out;
}

const result = { file: 'dup_names.gltf', generator: 'three.js r' + THREE.REVISION, rest: {}, clips: [] };
for (const o of meshes) result.rest[meshName(o)] = Array.from(o.geometry.attributes.position.array, (x) => +x.toPrecision(9));
const mixer = new THREE.AnimationMixer(scene);
for (const clip of loaded.animations) {
  mixer.stopAllAction();
  const action = mixer.clipAction(clip);
  action.reset().play();
  const times = [0, 0.13, 0.37, 0.55, 0.81].map((f) => f * clip.duration);
  const poses = [];
  for (const t of times) {
    mixer.setTime(t);
    poses.push({ time: t, meshes: pose() });
  }
  action.stop();
  result.clips.push({ name: clip.name, duration: clip.duration, poses });
}
fs.writeFileSync(path.join(outdir, 'dup_names_three.json'), JSON.stringify(result));
console.log('wrote', gltfPath, 'and dup_names_three.json');
