// animation-explodes, and the posed shapes and key gaps the loop-seam and rotation-jump checks
// (clip_checks.cpp) ask about.
#include "check/posed_shape.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "anim/runtime/skinning.h"

namespace rig::checks {

namespace {

constexpr size_t kShapeVertices = 200000;

// A uniform grid over points, cells `cell` wide.
class PointGrid {
public:
    PointGrid(const std::vector<glm::vec3>& points, float cell, const glm::vec3& shift)
        : points_(points), cell_(cell), shift_(shift) {
        for (uint32_t i = 0; i < points.size(); ++i) cells_[key(points[i] + shift)].push_back(i);
    }

    // Whether a point lies within `tol` of p.
    bool near(const glm::vec3& p, float tol) const {
        const glm::ivec3 c = coords(p);
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    const auto it = cells_.find(pack(c + glm::ivec3(dx, dy, dz)));
                    if (it == cells_.end()) continue;
                    for (uint32_t i : it->second)
                        if (glm::length(points_[i] + shift_ - p) <= tol) return true;
                }
        return false;
    }

private:
    // The cell of p; cells are clamped to +-1e6 per axis and a non-finite coordinate falls in
    // cell 0, so every point has a cell that packs into 21 bits an axis.
    glm::ivec3 coords(const glm::vec3& p) const {
        glm::ivec3 c(0);
        for (int a = 0; a < 3; ++a) {
            const float q = std::floor(p[a] / cell_);
            if (std::isfinite(q)) c[a] = static_cast<int>(std::clamp(q, -1e6f, 1e6f));
        }
        return c;
    }
    static uint64_t pack(const glm::ivec3& c) {
        auto bits = [](int v) { return static_cast<uint64_t>(static_cast<int64_t>(v) + (int64_t(1) << 20)) & ((uint64_t(1) << 21) - 1); };
        return (bits(c.x) << 42) | (bits(c.y) << 21) | bits(c.z);
    }
    uint64_t key(const glm::vec3& p) const { return pack(coords(p)); }

    const std::vector<glm::vec3>& points_;
    float cell_;
    glm::vec3 shift_;
    std::unordered_map<uint64_t, std::vector<uint32_t>> cells_;
};

// Every point of `a` (every `stride`-th, `shiftA` added) within `tol` of a point of `grid`.
bool covered(const std::vector<glm::vec3>& a, const glm::vec3& shiftA, const std::vector<glm::vec3>& b, const glm::vec3& shiftB,
             const PointGrid& grid, float tol, size_t stride) {
    for (size_t i = 0; i < a.size(); i += stride) {
        const glm::vec3 p = a[i] + shiftA;
        if (glm::length(p - (b[i] + shiftB)) <= tol) continue;  // the same vertex, unmoved
        if (!grid.near(p, tol)) return false;
    }
    return true;
}

}  // namespace

size_t shapeStride(const Model& model) {
    size_t total = 0;
    for (const Mesh& m : model.meshes) total += m.vertexCount();
    return std::max<size_t>(1, (total + kShapeVertices - 1) / kShapeVertices);
}

void posedVertices(const Model& model, const Animator& anim, size_t stride, std::vector<glm::vec3>& out) {
    out.clear();
    std::vector<glm::vec3> skinned;
    for (size_t i = 0; i < model.meshes.size(); ++i) {
        const Mesh& mesh = model.meshes[i];
        skinned.resize(mesh.vertexCount());
        if (skinned.empty()) continue;
        skinMesh(mesh, anim.palette().data() + anim.paletteOffset(i), anim.meshMorphWeights(i), skinned.data(), nullptr);
        const glm::mat4 toModel = anim.skinToModel(i);
        for (size_t v = 0; v < skinned.size(); v += std::max<size_t>(stride, 1)) out.push_back(glm::vec3(toModel * glm::vec4(skinned[v], 1.0f)));
    }
}

bool sameShape(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b, float tol, const glm::vec3& shift) {
    if (a.size() != b.size() || !(tol > 0.0f)) return false;
    const PointGrid gridA(a, tol, glm::vec3(0.0f)), gridB(b, tol, shift);
    return covered(a, glm::vec3(0.0f), b, shift, gridB, tol, 1) && covered(b, shift, a, glm::vec3(0.0f), gridA, tol, 1);
}

std::vector<std::pair<float, float>> keyGaps(const Clip& c) {
    std::vector<float> times;
    auto collect = [&](const Channel& ch) {
        if (ch.times + ch.count > c.times.size()) return;
        times.insert(times.end(), c.times.begin() + ch.times, c.times.begin() + ch.times + ch.count);
    };
    for (const Track& t : c.tracks) {
        collect(t.translation);
        collect(t.rotation);
        collect(t.scale);
    }
    for (const MorphTrack& m : c.morphTracks) {
        if (m.times + m.count <= c.times.size()) times.insert(times.end(), c.times.begin() + m.times, c.times.begin() + m.times + m.count);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    if (times.size() < 6) return {};
    std::vector<float> steps;
    for (size_t k = 1; k < times.size(); ++k) steps.push_back(times[k] - times[k - 1]);
    std::vector<float> sorted = steps;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const float usual = sorted[sorted.size() / 2];
    if (!(usual > 0.0f)) return {};
    // Split points (index of the first key after the gap); a range of fewer than 3 keys joins
    // its neighbour.
    std::vector<size_t> splits;
    for (size_t k = 0; k < steps.size(); ++k)
        if (steps[k] > 2.5f * usual) splits.push_back(k + 1);
    bool changed = true;
    while (changed && !splits.empty()) {
        changed = false;
        for (size_t s = 0; s <= splits.size(); ++s) {
            const size_t begin = s == 0 ? 0 : splits[s - 1], end = s == splits.size() ? times.size() : splits[s];
            if (end - begin >= 3) continue;
            splits.erase(splits.begin() + static_cast<std::ptrdiff_t>(s == splits.size() ? s - 1 : s));
            changed = true;
            break;
        }
    }
    std::vector<std::pair<float, float>> gaps;
    for (size_t k : splits) gaps.emplace_back(times[k - 1], times[k]);
    return gaps;
}

void checkExplodes(Context& cx, Animator& anim, const std::vector<int32_t>& joints, const Clip& c, size_t ci) {
    const Model& model = cx.model;
    const Skeleton& sk = model.skeleton;
    const float t0 = std::min(c.startTime, c.duration), t1 = c.duration;
    if (c.tracks.empty() || joints.size() < 4) return;
    std::vector<uint8_t> isJoint(sk.size(), 0);
    for (int32_t j : joints)
        if (j >= 0 && static_cast<size_t>(j) < sk.size()) isJoint[static_cast<size_t>(j)] = 1;
    // Each joint's nearest joint above it.
    std::vector<int32_t> parentJoint(sk.size(), -1);
    for (int32_t j : joints) {
        int32_t p = sk.parent[static_cast<size_t>(j)];
        while (p >= 0 && !isJoint[static_cast<size_t>(p)]) p = sk.parent[static_cast<size_t>(p)];
        parentJoint[static_cast<size_t>(j)] = p;
    }
    anim.evaluate(kBindPose, 0.0f);
    // Each node's world position and scale (its axes' lengths) in the bind pose.
    auto axes = [](const glm::mat4& m) { return glm::vec3(glm::length(glm::vec3(m[0])), glm::length(glm::vec3(m[1])), glm::length(glm::vec3(m[2]))); };
    std::vector<glm::vec3> bindPos(sk.size());
    std::vector<glm::vec3> bindScale(sk.size());
    for (size_t n = 0; n < sk.size(); ++n) {
        bindPos[n] = glm::vec3(anim.world()[n][3]);
        bindScale[n] = axes(anim.world()[n]);
    }
    const int32_t clip = static_cast<int32_t>(ci);
    const float rate = c.sampleRate > 0.0f && std::isfinite(c.sampleRate) ? c.sampleRate : 30.0f;
    const int samples = static_cast<int>(std::clamp((t1 - t0) * rate + 1.0f, 2.0f, 48.0f));
    const float minStretch = 0.05f * cx.rigSize;
    struct Worst {
        float ratio = 0.0f, time = 0.0f;
    };
    std::vector<Worst> worst(sk.size());
    size_t eligible = 0;
    for (int32_t j : joints) eligible += parentJoint[static_cast<size_t>(j)] >= 0;
    for (int s = 0; s < samples; ++s) {
        const float t = samples == 1 ? t0 : t0 + (t1 - t0) * static_cast<float>(s) / static_cast<float>(samples - 1);
        anim.evaluate(clip, t);
        for (int32_t j : joints) {
            const int32_t p = parentJoint[static_cast<size_t>(j)];
            if (p < 0) continue;
            // A scale animated above the joint (squash and stretch: its parent's axes grown or
            // shrunk) moves it away on purpose.
            const int32_t up = sk.parent[static_cast<size_t>(j)];
            if (up >= 0) {
                const glm::vec3 was = bindScale[static_cast<size_t>(up)], now = axes(anim.world()[static_cast<size_t>(up)]);
                if (glm::any(glm::greaterThan(glm::abs(now - was), 0.05f * glm::max(was, glm::vec3(1e-6f))))) continue;
            }
            const float bind = glm::length(bindPos[static_cast<size_t>(j)] - bindPos[static_cast<size_t>(p)]);
            const float now = glm::length(glm::vec3(anim.world()[static_cast<size_t>(j)][3]) - glm::vec3(anim.world()[static_cast<size_t>(p)][3]));
            if (!std::isfinite(now) || now - bind <= std::max(0.5f * bind, minStretch)) continue;
            const float ratio = bind > 0.0f ? now / bind : now / std::max(minStretch, 1e-6f);
            if (ratio > worst[static_cast<size_t>(j)].ratio) worst[static_cast<size_t>(j)] = {ratio, t};
        }
    }
    Examples ex{cx.s.maxExamples};
    size_t count = 0;
    int32_t w = -1;
    for (int32_t j : joints) {
        if (!(worst[static_cast<size_t>(j)].ratio > 0.0f)) continue;
        ++count;
        ex.add(j);
        ex.addName(nodeName(model, j));
        if (w < 0 || worst[static_cast<size_t>(j)].ratio > worst[static_cast<size_t>(w)].ratio) w = j;
    }
    if (count < 3 || 4 * count < eligible) return;
    const std::string label = clipLabel(c, ci);
    const Worst& ww = worst[static_cast<size_t>(w)];
    Finding f = makeFinding(CheckCode::AnimationExplodes,
                            label + ": the skeleton comes apart: " + std::to_string(count) + " of " + std::to_string(eligible) +
                                " joints move away from their parent joints, up to " + fmt(ww.ratio) + " times their bind-pose distance ('" +
                                nodeName(model, w) + "' at " + fmt(ww.time) +
                                " s); bones keep their length in a rig, and an importer applying a joint's transform twice pulls them apart so",
                            count, label + " joints (skeleton nodes)", ex.indices, ex.names);
    f.clip = clip;
    f.joint = w;
    f.value = ww.ratio;
    add(cx, std::move(f));
}

}  // namespace rig::checks
