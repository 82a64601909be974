#include "anim/offline/ik_bake.h"

#include <cmath>
#include <vector>

#include "anim/runtime/blend.h"
#include "anim/offline/clip_tools.h"
#include "anim/runtime/pose.h"

namespace rig {

namespace {

// A copy of `src`'s keys of channel `ch` into `dst` (times shared where they repeat).
Channel copyChannel(const Clip& src, const Channel& ch, bool quat, Clip& dst) {
    Channel out = ch;
    if (!ch.count) return out;
    out.times = dst.addTimes(src.times.data() + ch.times, ch.count);
    if (quat) {
        out.values = static_cast<uint32_t>(dst.quatKeys.size());
        dst.quatKeys.insert(dst.quatKeys.end(), src.quatKeys.begin() + ch.values, src.quatKeys.begin() + ch.values + ch.count);
    } else {
        out.values = static_cast<uint32_t>(dst.vec3Keys.size());
        dst.vec3Keys.insert(dst.vec3Keys.end(), src.vec3Keys.begin() + ch.values, src.vec3Keys.begin() + ch.values + ch.count);
    }
    return out;
}

}  // namespace

Clip bakeIk(const Model& model, const Clip& clip, IkStage& stage, float fps) {
    const Skeleton& sk = model.skeleton;
    const size_t n = sk.size();
    if (!(fps > 0.0f) || !std::isfinite(fps)) fps = clip.sampleRate > 0.0f ? clip.sampleRate : 30.0f;
    // The grid: resampling puts every animated channel on it (one-key channels stay).
    const Clip base = resampleClip(clip, fps);
    std::vector<float> grid;
    {
        const double t0 = base.startTime, t1 = std::max(static_cast<double>(base.duration), t0);
        const long frames = static_cast<long>(std::floor((t1 - t0) * base.sampleRate + 1e-4));
        for (long k = 0; k <= frames; ++k) grid.push_back(static_cast<float>(t0 + static_cast<double>(k) / base.sampleRate));
        if (grid.back() < static_cast<float>(t1) - 1e-6f * std::max(1.0f, static_cast<float>(t1))) {
            grid.push_back(static_cast<float>(t1));
        }
    }
    // Nodes the clip animates use the sampled pose; the others keep their exact file
    // matrices, as Animator::evaluate does.
    std::vector<uint8_t> animated(n, 0);
    for (const Track& tr : base.tracks) animated[static_cast<size_t>(tr.node)] = 1;

    Animator plain(model), solved(model);
    solved.setPostProcess(&stage);
    std::vector<Transform> local(n);
    std::vector<uint32_t> cursors(3 * base.tracks.size(), 0);
    std::vector<glm::quat> rotations(grid.size() * n);
    std::vector<uint8_t> changed(n, 0);
    const float dt = 1.0f / base.sampleRate;
    for (size_t f = 0; f < grid.size(); ++f) {
        samplePose(base, grid[f], sk, cursors.data(), local);
        plain.evaluatePose(local, &animated);
        stage.advance(f == 0 ? 0.0f : dt);
        solved.evaluatePose(local, &animated);
        const std::vector<glm::mat4>& wp = plain.world();
        const std::vector<glm::mat4>& ws = solved.world();
        for (size_t j = 0; j < n; ++j) {
            const int32_t p = sk.parent[j];
            // The joint's local matrix in the solved pose, against the plain one: IK rotates
            // joints in model space, so a joint whose own local matrix moved was solved.
            const glm::mat4 ls = p < 0 ? ws[j] : safeAffineInverse(ws[static_cast<size_t>(p)]) * ws[j];
            const glm::mat4 lp = p < 0 ? wp[j] : safeAffineInverse(wp[static_cast<size_t>(p)]) * wp[j];
            Transform t;
            decompose(ls, t);
            rotations[f * n + j] = t.rotation;
            float diff = 0.0f;
            for (int c = 0; c < 3; ++c) diff = std::max(diff, glm::length(glm::vec3(ls[c]) - glm::vec3(lp[c])));
            if (diff > 1e-6f) changed[j] = 1;
        }
    }

    Clip out = clipHeader(base);
    out.curveStats = base.curveStats;
    out.trackOfNode.assign(n, -1);
    std::vector<glm::quat> keys(grid.size());
    for (size_t j = 0; j < n; ++j) {
        const int32_t ti = j < base.trackOfNode.size() ? base.trackOfNode[j] : -1;
        if (ti < 0 && !changed[j]) continue;
        Track tr;
        tr.node = static_cast<int32_t>(j);
        if (ti >= 0) {
            const Track& src = base.tracks[static_cast<size_t>(ti)];
            tr.translation = copyChannel(base, src.translation, false, out);
            tr.scale = copyChannel(base, src.scale, false, out);
            if (!changed[j]) tr.rotation = copyChannel(base, src.rotation, true, out);
        }
        if (changed[j]) {
            // Keep each key on the side of the previous one, so interpolation takes the short way.
            for (size_t f = 0; f < grid.size(); ++f) {
                glm::quat q = rotations[f * n + j];
                if (f > 0 && glm::dot(q, keys[f - 1]) < 0.0f) q = -q;
                keys[f] = q;
            }
            tr.rotation.times = out.addTimes(grid.data(), static_cast<uint32_t>(grid.size()));
            tr.rotation.values = static_cast<uint32_t>(out.quatKeys.size());
            tr.rotation.count = static_cast<uint32_t>(grid.size());
            tr.rotation.interpolation = Interpolation::Linear;
            out.quatKeys.insert(out.quatKeys.end(), keys.begin(), keys.end());
        }
        out.trackOfNode[j] = static_cast<int32_t>(out.tracks.size());
        out.tracks.push_back(tr);
    }
    for (const MorphTrack& mt : base.morphTracks) {
        MorphTrack m = mt;
        m.times = out.addTimes(base.times.data() + mt.times, mt.count);
        m.values = static_cast<uint32_t>(out.morphKeys.size());
        const size_t perKey = mt.interpolation == WeightInterpolation::CubicSpline ? 3 : 1;
        const size_t count = static_cast<size_t>(mt.count) * mt.targets * perKey;
        out.morphKeys.insert(out.morphKeys.end(), base.morphKeys.begin() + mt.values, base.morphKeys.begin() + mt.values + count);
        out.morphTracks.push_back(m);
    }
    return out;
}

}  // namespace rig
