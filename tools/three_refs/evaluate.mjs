// Evaluates glTF files with three.js (GLTFLoader, AnimationMixer, Mesh/SkinnedMesh
// getVertexPosition: morph targets, then skinning) and writes what rigview's tests compare
// against: per clip and time, every mesh's morph weights and world-space vertex positions.
//
//   cd tools/three_refs && npm ci && node evaluate.mjs FILE.gltf OUT.json CLIP=T1,T2,... [CLIP=...]
//
// CLIP is a clip name, or "-" (no times) for the file's default pose (no clip). External buffers are
// inlined as data: URIs first, so the loader needs no file system or network.
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

// three's FileLoader (fetch of the data: URIs) reports progress with the DOM's ProgressEvent.
globalThis.ProgressEvent ??= class ProgressEvent {
    constructor(type, init = {}) { Object.assign(this, init); this.type = type; }
};

const [file, out, ...requests] = process.argv.slice(2);
if (!file || !out || requests.length === 0) {
    console.error('usage: node evaluate.mjs FILE.gltf OUT.json CLIP=T1,T2,... [CLIP=...]');
    process.exit(2);
}

const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
for (const b of doc.buffers || []) {
    if (b.uri && !b.uri.startsWith('data:')) {
        const bytes = fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(b.uri)));
        b.uri = 'data:application/octet-stream;base64,' + bytes.toString('base64');
    }
}

// Node has no DOM to decode images with: textures are left out (they move no vertex).
for (const m of doc.materials || []) {
    for (const key of ['normalTexture', 'occlusionTexture', 'emissiveTexture']) delete m[key];
    if (m.pbrMetallicRoughness) {
        delete m.pbrMetallicRoughness.baseColorTexture;
        delete m.pbrMetallicRoughness.metallicRoughnessTexture;
    }
}
delete doc.textures;
delete doc.images;

const gltf = await new Promise((resolve, reject) =>
    new GLTFLoader().parse(JSON.stringify(doc), '', resolve, reject));
const scene = gltf.scene;
const meshes = [];
scene.traverse((o) => { if (o.isMesh) meshes.push(o); });

function sample() {
    scene.updateMatrixWorld(true);
    const v = new THREE.Vector3();
    return meshes.map((m) => {
        const count = m.geometry.attributes.position.count;
        const positions = new Array(count * 3);
        for (let i = 0; i < count; ++i) {
            m.getVertexPosition(i, v);  // morphs, then the skin: the mesh's own space
            v.applyMatrix4(m.matrixWorld);
            positions[3 * i] = v.x;
            positions[3 * i + 1] = v.y;
            positions[3 * i + 2] = v.z;
        }
        return {
            name: m.name,
            weights: m.morphTargetInfluences ? Array.from(m.morphTargetInfluences) : [],
            positions,
        };
    });
}

const result = { file: path.basename(file), three: THREE.REVISION, samples: [] };
for (const request of requests) {
    const eq = request.lastIndexOf('=');
    const clipName = eq < 0 ? request : request.slice(0, eq);
    const times = eq < 0 ? [0] : request.slice(eq + 1).split(',').map(Number);
    for (const t of times) {
        const mixer = new THREE.AnimationMixer(scene);
        if (clipName !== '-') {
            const clip = gltf.animations.find((c) => c.name === clipName);
            if (!clip) throw new Error(`no clip ${clipName}`);
            const action = mixer.clipAction(clip);
            action.setLoop(THREE.LoopOnce, 1);
            action.clampWhenFinished = true;
            action.play();
        }
        mixer.setTime(t);
        result.samples.push({ clip: clipName === '-' ? null : clipName, time: t, meshes: sample() });
        mixer.stopAllAction();
        mixer.uncacheRoot(scene);
    }
}
fs.writeFileSync(out, JSON.stringify(result));
console.log(`${out}: ${result.samples.length} samples, ${meshes.length} meshes, three r${THREE.REVISION}`);
