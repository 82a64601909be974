// Synthetic rigs for tests and benchmarks, built directly as anim/ data (no file, no Assimp).
#pragma once

#include "anim/runtime/model.h"

namespace rig::testing {

// A chain of `joints` nodes, each 1 unit above its parent along +Y, one skinned mesh with a
// vertex at every joint (weight 1 on that joint). If keysPerTrack > 0, one clip "anim" in
// which every joint has T, R and S channels with `keysPerTrack` keys at 30 keys per second
// (rotation about Z by up to +-30 degrees, small translation and scale wobble).
Model makeChain(int joints, int keysPerTrack);

// A wide tree: a root with `joints - 1` children in a fan of 3 levels (breadth first, so
// parents still come first). Same channels as makeChain.
Model makeWideTree(int joints, int keysPerTrack);

// The hand-computed two-bone rig: joint 0 "root" at the origin, joint 1 "tip" at (0,1,0),
// one clip "bend" with two rotation keys on "tip": identity at t=0, 90 degrees about +Z at
// t=1. Mesh vertices: (0,0,0) w0=1; (0,2,0) w1=1; (1,1.5,0) w0=w1=0.5 with normal (1,0,0);
// (2,0.5,0) w0=0.25,w1=0.75.
Model makeTwoBone();

// Give mesh 0 of `m` two morph targets ("up": +0.1 Y on every vertex, with normal offsets;
// "side": +0.05 X on even vertices), default weights (0.2, 0), and give every clip a morph
// track for it with `keys` keys spread over the clip (cubic-spline in clip 0, linear in the
// others). For tests of the per-tick path.
void addMorphs(Model& m, int keys);

// `m`'s skins merged into one skin of all their joints, each mesh's slots renumbered (the
// skins must not share a joint): what `assimp export` to glTF makes of BCN_Epileptic.X's three
// meshes (one skin, three mesh nodes). The meshes skin exactly as before.
Model mergeSkins(Model m);

}  // namespace rig::testing
