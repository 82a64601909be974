// A lighter version of a model for what is drawn small (a crowd's far instances): each mesh's
// vertices merged by clustering on a grid over its bind-pose bounds, within a cluster only those
// that follow the same strongest joint (so two legs side by side stay apart), each cluster
// kept as its vertex nearest the cluster's mean (every attribute, the skin weights included),
// the triangles that collapse dropped. Meshes, materials, skins and the skeleton stay as they
// are, so the same palettes pose it. Morph targets are left out.
#pragma once

#include "anim/runtime/model.h"

namespace rig {

// `cellsAcross`: the grid's cells along each mesh's longest side (more: more detail). A mesh
// with no more vertices than the grid would give is kept whole.
Model simplifiedModel(const Model& model, int cellsAcross);

}  // namespace rig
