// Two materials compared field by field in round-trip tests, each failure naming the field.
#pragma once

#include <functional>
#include <string>

#include "anim/runtime/model.h"

namespace rig::testing {

// What a round trip keeps of a material.
enum class MaterialTrip {
    ModelFile,  // rigview's own model file: every field to the bit, `origin` and texture paths included
    Export,     // another format (glTF export): floats within 4 ULPs; `origin` (how import read it)
                // and texture paths (the images may be renamed or embedded) not compared
};

// A texture's sampling: texCoord, offset, rotation, scale, wraps and filters (the path too for
// MaterialTrip::ModelFile).
void expectSameSampling(const TextureRef& x, const TextureRef& y, const std::string& what, MaterialTrip trip);

// Compares texture slot `x` with `y`; `what` names the material and the slot.
using TextureCheck = std::function<void(const TextureRef& x, const TextureRef& y, const std::string& what)>;

// Every field of `x` and `y` equal as `trip` keeps them. The eight texture slots are listed by
// hand (not by Material::forEachTexture, so that a slot it forgets still counts), each checked
// by `texture`, by default expectSameSampling.
void expectSameMaterial(const Material& x, const Material& y, const std::string& what, MaterialTrip trip,
                        const TextureCheck& texture = {});

}  // namespace rig::testing
