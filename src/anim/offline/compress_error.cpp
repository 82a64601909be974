#include "anim/offline/compress_error.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "anim/offline/compress_codec.h"
#include "anim/runtime/compressed_sampling_cache.h"
#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"

namespace rig {

namespace {

constexpr size_t kMaxCachedVertexFloats = size_t(24) << 20;  // 96 MB

bool measuredMesh(const Mesh& m, size_t nodes) {
    return m.node >= 0 && static_cast<size_t>(m.node) < nodes && !m.positions.empty();
}

// Mesh positions of the animator's current pose in model space, appended to `out`.
void skinnedInModelSpace(const Model& model, const Animator& a, std::vector<glm::vec3>& scratch,
                         std::vector<glm::vec3>& out) {
    for (size_t mi = 0; mi < model.meshes.size(); ++mi) {
        const Mesh& m = model.meshes[mi];
        if (!measuredMesh(m, model.skeleton.size())) continue;
        scratch.resize(m.positions.size());
        skinMesh(m, m.skinned ? a.palette().data() + a.paletteOffset(mi) : nullptr, scratch.data(), nullptr);
        const glm::mat4& w = a.skinToModel(mi);
        for (const glm::vec3& p : scratch) out.push_back(glm::vec3(w * glm::vec4(p, 1.0f)));
    }
}

}  // namespace

ErrorReference makeErrorReference(const Model& model, const Clip& original, const CompressSettings& settings) {
    ErrorReference r;
    const Skeleton& sk = model.skeleton;
    const size_t n = sk.size();
    const std::vector<float> table = keyTimeTable(original);
    for (size_t i = 0; i < table.size(); ++i) {
        r.times.push_back(table[i]);
        if (i + 1 < table.size()) r.times.push_back(0.5f * (table[i] + table[i + 1]));
    }
    if (r.times.empty()) r.times.push_back(original.startTime);
    r.animated.assign(n, 0);
    for (const Track& t : original.tracks) {
        if (t.node >= 0 && static_cast<size_t>(t.node) < n) r.animated[t.node] = 1;
    }
    for (const Mesh& m : model.meshes) {
        if (measuredMesh(m, n)) r.vertexCount += m.positions.size();
    }
    r.doVertices = settings.measureVertices && r.vertexCount > 0;
    if (r.doVertices && r.vertexCount * r.times.size() > settings.maxVertexSamples) {
        r.stride = (r.vertexCount * r.times.size() + settings.maxVertexSamples - 1) / settings.maxVertexSamples;
    }
    const size_t measuredTimes = (r.times.size() + r.stride - 1) / r.stride;
    r.cachedVertices = r.doVertices && 3 * r.vertexCount * measuredTimes <= kMaxCachedVertexFloats;
    Animator a(model, AnimatorUse::PosesOnly);  // one per clip: nothing per clip of the model
    std::vector<Transform> local(sk.bindLocalSqt);
    std::vector<uint32_t> cursors(3 * original.tracks.size(), 0);
    std::vector<glm::vec3> scratch;
    r.joints.reserve(r.times.size() * n);
    for (size_t s = 0; s < r.times.size(); ++s) {
        sampleClip(original, r.times[s], sk.bindLocalSqt.data(), local.data(), cursors.data(), RotationBlend::Slerp);
        a.evaluatePose(local, &r.animated);
        for (size_t j = 0; j < n; ++j) r.joints.push_back(glm::vec3(a.world()[j][3]));
        if (r.cachedVertices && s % r.stride == 0) skinnedInModelSpace(model, a, scratch, r.vertices);
    }
    return r;
}

CompressionError measureAgainst(const Model& model, const Clip& original, const ErrorReference& ref,
                                const CompressedClip& compressed, double stopAbove) {
    CompressionError e;
    const Skeleton& sk = model.skeleton;
    const size_t n = sk.size();
    Animator a(model, AnimatorUse::PosesOnly), b(model, AnimatorUse::PosesOnly);
    std::vector<Transform> la(sk.bindLocalSqt), lb(sk.bindLocalSqt);
    std::vector<uint32_t> ca(3 * original.tracks.size(), 0);
    // The cached sampler (the same values as the cursor one): delta-coded keys are read on
    // from the last ones as the sample times ascend.
    CompressedSamplingCache cb;
    cb.reserve(compressed.tracks.size());
    cb.bind(compressed);
    std::vector<glm::vec3> scratch, va, vb;
    va.reserve(ref.vertexCount);
    vb.reserve(ref.vertexCount);
    double sumJoint = 0.0, sumVertex = 0.0;
    size_t nJoint = 0, nVertex = 0, measured = 0;
    // Every node, not only skin joints: a leaf (an end site, an attachment) moves as the
    // joints above it do and is one of the points the metric carries.
    for (size_t s = 0; s < ref.times.size(); ++s) {
        const float t = ref.times[s];
        sampleCompressedClip(compressed, t, sk.bindLocalSqt.data(), lb.data(), cb, RotationBlend::Slerp);
        b.evaluatePose(lb, &ref.animated);
        const glm::vec3* joints = ref.joints.data() + s * n;
        for (size_t j = 0; j < n; ++j) {
            const double d = glm::length(joints[j] - glm::vec3(b.world()[j][3]));
            e.maxJoint = std::max(e.maxJoint, d);
            sumJoint += d;
            ++nJoint;
        }
        ++e.samples;
        if (ref.doVertices && s % ref.stride == 0) {
            ++e.vertexSamples;
            vb.clear();
            skinnedInModelSpace(model, b, scratch, vb);
            const glm::vec3* orig = nullptr;  // the original's vertices at this time
            if (ref.cachedVertices) {
                orig = ref.vertices.data() + measured * ref.vertexCount;
            } else {
                sampleClip(original, t, sk.bindLocalSqt.data(), la.data(), ca.data(), RotationBlend::Slerp);
                a.evaluatePose(la, &ref.animated);
                va.clear();
                skinnedInModelSpace(model, a, scratch, va);
                orig = va.data();
            }
            ++measured;
            for (size_t v = 0; v < vb.size(); ++v) {
                const double d = glm::length(orig[v] - vb[v]);
                e.maxVertex = std::max(e.maxVertex, d);
                sumVertex += d;
                ++nVertex;
            }
        }
        if (e.max() > stopAbove) break;
    }
    e.meanJoint = nJoint ? sumJoint / double(nJoint) : 0.0;
    e.meanVertex = nVertex ? sumVertex / double(nVertex) : 0.0;
    return e;
}

CompressionError measureCompressionError(const Model& model, const Clip& original, const CompressedClip& compressed,
                                         const CompressSettings& settings) {
    return measureAgainst(model, original, makeErrorReference(model, original, settings), compressed,
                          std::numeric_limits<double>::infinity());
}

}  // namespace rig
