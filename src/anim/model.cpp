#include "anim/model.h"

#include <charconv>

namespace rig {

std::vector<int32_t> Model::jointNodes() const {
    std::vector<uint8_t> isJoint(skeleton.size(), 0);
    bool anySkin = false;
    for (const Mesh& m : meshes) {
        if (!m.skinned) continue;
        anySkin = true;
        for (int32_t j : m.skin.joints) isJoint[j] = 1;
    }
    std::vector<int32_t> out;
    for (size_t i = 0; i < skeleton.size(); ++i) {
        if (!anySkin || isJoint[i]) out.push_back(static_cast<int32_t>(i));
    }
    return out;
}

int32_t Model::findClip(const std::string& key) const {
    for (size_t i = 0; i < clips.size(); ++i) {
        if (clips[i].name == key) return static_cast<int32_t>(i);
    }
    int32_t idx = -1;
    const char* end = key.data() + key.size();
    auto [p, ec] = std::from_chars(key.data(), end, idx);
    if (ec == std::errc() && p == end && idx >= 0 && static_cast<size_t>(idx) < clips.size()) {
        return idx;
    }
    return -1;
}

size_t Model::paletteSize() const {
    size_t n = 0;
    for (const Mesh& m : meshes) {
        if (m.skinned) n += m.skin.paletteSize();
    }
    return n;
}

}  // namespace rig
