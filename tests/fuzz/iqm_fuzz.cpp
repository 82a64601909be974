// libFuzzer target for the IQM reader (src/import/iqm.cpp). Beyond "no crash, hang or leak"
// it checks what the rest of rigview relies on: one-line errors naming the file, parent-before-
// child skeletons, triangle indices inside their mesh, skin slots and weights inside the skin,
// channels inside the clip's arrays with ascending times, and finite poses and skinned
// vertices when every clip is sampled. A broken invariant aborts (a finding).
// An input whose header says animation-only (poses, no joints) is also read onto the joints of
// the small model of tests/support/iqm_writer.h, with the same checks on the result.
// Seeds: mrfixit.iqm and the small files of tests/support/iqm_writer.h (tests/fuzz/iqm_seeds.cpp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "import/iqm/iqm.h"
#include "support/iqm_writer.h"

namespace {

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "iqm_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

void checkModel(const rig::Model& m);

// A parse's result: a one-line error naming the file, or a model that keeps the invariants.
void check(const rig::Result<rig::Model>& r, const std::string& path) {
    if (!r) {
        const std::string& e = r.error().message;
        require(!e.empty() && e.find('\n') == std::string::npos, "error message not one line");
        require(e.rfind(path + ": ", 0) == 0, "error message does not start with the path");
        return;
    }
    checkModel(*r);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = "fuzz/in.iqm";
    check(rig::parseIqm(data, size, path), path);
    if (rig::isIqmAnimationOnly(data, size)) {
        static const rig::testing::SmallIqm model;
        check(rig::parseIqmAnimations(data, size, path, model.bytes.data(), model.bytes.size(), "fuzz/model.iqm"), path);
    }
    return 0;
}

namespace {

void checkModel(const rig::Model& m) {
    const rig::Skeleton& sk = m.skeleton;
    require(sk.size() >= 1 && sk.names.size() == sk.size() && sk.bindLocal.size() == sk.size() &&
                sk.bindLocalSqt.size() == sk.size() && sk.bindModel.size() == sk.size(),
            "skeleton arrays differ in size");
    for (size_t i = 0; i < sk.size(); ++i) require(sk.parent[i] < static_cast<int32_t>(i), "parent order");
    require(!m.materials.empty(), "no material");
    for (const rig::Mesh& me : m.meshes) {
        require(me.material < m.materials.size(), "material index");
        require(me.node >= 0 && static_cast<size_t>(me.node) < sk.size(), "mesh node");
        require(me.indices.size() % 3 == 0, "indices not triangles");
        for (uint32_t i : me.indices) require(i < me.vertexCount(), "triangle index out of range");
        require(me.normals.empty() || me.normals.size() == me.vertexCount(), "normals size");
        require(me.uvs.empty() || me.uvs.size() == me.vertexCount(), "uvs size");
        if (!me.skinned) continue;
        require(me.skin.inverseBind.size() == me.skin.joints.size(), "inverse bind size");
        for (int32_t j : me.skin.joints) require(j > 0 && static_cast<size_t>(j) < sk.size(), "skin joint node");
        require(me.joints.size() == me.vertexCount() && me.weights.size() == me.vertexCount(), "skin arrays size");
        for (size_t v = 0; v < me.vertexCount(); ++v) {
            float sum = 0.0f;
            for (int k = 0; k < rig::kMaxInfluences; ++k) {
                require(me.joints[v][k] < me.skin.paletteSize(), "skin slot out of range");
                require(std::isfinite(me.weights[v][k]) && me.weights[v][k] >= 0.0f, "bad weight");
                sum += me.weights[v][k];
            }
            require(std::fabs(sum - 1.0f) < 1e-4f, "weights do not sum to 1");
        }
    }
    for (const rig::Clip& c : m.clips) {
        require(c.trackOfNode.size() == sk.size(), "trackOfNode size");
        require(std::isfinite(c.duration) && c.duration >= 0.0f, "clip duration");
        for (const rig::Track& t : c.tracks) {
            require(t.node > 0 && static_cast<size_t>(t.node) < sk.size(), "track node");
            for (const rig::Channel* ch : {&t.translation, &t.rotation, &t.scale}) {
                require(size_t(ch->times) + ch->count <= c.times.size(), "times run out of range");
                for (uint32_t k = 1; k < ch->count; ++k) require(c.times[ch->times + k - 1] <= c.times[ch->times + k], "times descend");
            }
            require(size_t(t.translation.values) + t.translation.count <= c.vec3Keys.size(), "vec3 run");
            require(size_t(t.scale.values) + t.scale.count <= c.vec3Keys.size(), "vec3 run");
            require(size_t(t.rotation.values) + t.rotation.count <= c.quatKeys.size(), "quat run");
        }
    }
    // Pose the bind pose and the first clips and skin every mesh (memory safety of the
    // palette and skin slots; huge but finite scales may still overflow to Inf).
    rig::Animator anim(m);
    std::vector<glm::vec3> out;
    for (int32_t c = -1; c < static_cast<int32_t>(m.clips.size()) && c < 4; ++c) {
        const float t = c < 0 ? 0.0f : m.clips[c].duration * 0.37f;
        anim.evaluate(c, t);
        for (size_t i = 0; i < m.meshes.size(); ++i) {
            out.resize(m.meshes[i].vertexCount());
            rig::skinMesh(m.meshes[i], anim.palette().data() + anim.paletteOffset(i), out.data(), nullptr);
        }
    }
}

}  // namespace
