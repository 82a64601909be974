// libFuzzer target for the ASF/AMC parsers. The input is ASF text, optionally followed by a
// line "@@AMC@@" and AMC text for that skeleton. Beyond "no crash, hang or leak" it checks
// what the rest of rigview relies on: one-line errors, parent-before-child skeletons, channels
// inside the clip's arrays, ascending key times, finite unit quaternions, and that sampling
// the clip gives finite poses. A broken invariant aborts (a finding).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "anim/runtime/clip.h"
#include "import/asf_amc/asf_amc.h"

namespace {

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "asf_amc_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

void checkError(const rig::Error& e, const std::string& path) {
    require(!e.message.empty(), "empty error message");
    require(e.message.find('\n') == std::string::npos, "error message spans lines");
    require(e.message.rfind(path, 0) == 0, "error message does not start with the path");
}

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

void checkSkeleton(const rig::AsfSkeleton& asf) {
    const rig::Skeleton& sk = asf.skeleton;
    require(sk.size() >= 1 && sk.names.size() == sk.size() && sk.bindLocal.size() == sk.size() &&
                sk.bindLocalSqt.size() == sk.size() && sk.bindModel.size() == sk.size(),
            "skeleton arrays differ in size");
    for (size_t i = 0; i < sk.size(); ++i) {
        require(sk.parent[i] < static_cast<int32_t>(i) && (i == 0) == (sk.parent[i] < 0), "parent order");
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) require(std::isfinite(sk.bindModel[i][c][r]), "non-finite bind pose");
    }
    require(!asf.bones.empty() && asf.bones[0].name == "root", "bone 0 is not the root");
    for (size_t b = 0; b < asf.bones.size(); ++b) {
        const rig::AsfBone& bone = asf.bones[b];
        require(bone.node >= 0 && static_cast<size_t>(bone.node) < sk.size(), "bone node out of range");
        require(sk.names[bone.node] == bone.name, "bone node name");
        require(bone.parent < static_cast<int32_t>(b), "bone parent order");
    }
}

void checkClip(const rig::Clip& clip, const rig::AsfSkeleton& asf) {
    const rig::Skeleton& sk = asf.skeleton;
    require(clip.trackOfNode.size() == sk.size(), "trackOfNode size");
    require(std::isfinite(clip.duration) && clip.duration >= 0.0f && clip.startTime == 0.0f, "clip range");
    int32_t lastNode = -1;
    for (size_t i = 0; i < clip.tracks.size(); ++i) {
        const rig::Track& t = clip.tracks[i];
        require(t.node > lastNode && static_cast<size_t>(t.node) < sk.size(), "tracks sorted by node");
        require(clip.trackOfNode[t.node] == static_cast<int32_t>(i), "trackOfNode");
        lastNode = t.node;
        for (const rig::Channel* ch : {&t.translation, &t.rotation, &t.scale}) {
            if (!ch->count) continue;
            require(size_t(ch->times) + ch->count <= clip.times.size(), "times run out of range");
            for (uint32_t k = 1; k < ch->count; ++k) {
                require(clip.times[ch->times + k - 1] <= clip.times[ch->times + k], "times descend");
            }
        }
        require(t.scale.count == 0, "scale keys");
        require(size_t(t.translation.values) + t.translation.count <= clip.vec3Keys.size(), "vec3 run out of range");
        require(size_t(t.rotation.values) + t.rotation.count <= clip.quatKeys.size(), "quat run out of range");
        for (uint32_t k = 0; k < t.rotation.count; ++k) {
            const glm::quat& q = clip.quatKeys[t.rotation.values + k];
            require(std::isfinite(q.w) && finite(glm::vec3(q.x, q.y, q.z)), "non-finite quaternion");
            require(std::fabs(glm::dot(q, q) - 1.0f) < 1e-3f, "quaternion not unit");
            if (k > 0) require(glm::dot(q, clip.quatKeys[t.rotation.values + k - 1]) >= 0.0f, "quaternion sign flips");
        }
        for (uint32_t k = 0; k < t.translation.count; ++k) {
            require(finite(clip.vec3Keys[t.translation.values + k]), "non-finite translation");
        }
    }
    // Sample at the ends and in between.
    std::vector<rig::Transform> local(sk.bindLocalSqt);
    std::vector<uint32_t> cursors(3 * clip.tracks.size(), 0);
    for (float t : {0.0f, clip.duration * 0.37f, clip.duration, clip.duration + 1.0f}) {
        rig::sampleClip(clip, t, sk.bindLocalSqt.data(), local.data(), cursors.data(), rig::RotationBlend::Slerp);
        for (const rig::Transform& x : local) require(finite(x.translation) && std::isfinite(x.rotation.w), "non-finite pose");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view all(reinterpret_cast<const char*>(data), size);
    constexpr std::string_view kMarker = "\n@@AMC@@\n";
    const size_t at = all.find(kMarker);
    const std::string asfPath = "fuzz/in.asf", amcPath = "fuzz/in.amc";

    rig::Result<rig::AsfSkeleton> asf = rig::parseAsf(all.substr(0, at), asfPath);
    if (!asf) {
        checkError(asf.error(), asfPath);
        return 0;
    }
    checkSkeleton(*asf);
    if (at == std::string_view::npos) return 0;
    for (float fps : {120.0f, 7.5f}) {
        rig::Result<rig::Clip> clip = rig::parseAmc(all.substr(at + kMarker.size()), *asf, amcPath, fps);
        if (!clip) {
            checkError(clip.error(), amcPath);
            return 0;
        }
        checkClip(*clip, *asf);
    }
    return 0;
}
