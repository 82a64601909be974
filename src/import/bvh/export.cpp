#include "import/bvh/export.h"

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtx/euler_angles.hpp>

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <vector>

#include "anim/runtime/clip.h"
#include "util/output_file.h"

namespace rig {

namespace {

std::string bvhName(const std::string& name, size_t index) {
    std::string out;
    for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    return out.empty() ? "node" + std::to_string(index) : out;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", std::fabs(v) < 5e-7 ? 0.0 : v);
    return buf;
}

// Nodes written with 6 channels (the root, and nodes with translation keys).
std::vector<uint8_t> positionChannels(const Skeleton& sk, const Clip& clip) {
    std::vector<uint8_t> positions(sk.size(), 0);
    if (!positions.empty()) positions[0] = 1;
    for (const Track& t : clip.tracks) {
        if (t.translation.count > 1 && static_cast<size_t>(t.node) < positions.size()) positions[t.node] = 1;
    }
    return positions;
}

}  // namespace

int64_t bvhFrameCount(const Clip& clip, double fps) {
    const double duration = std::max(static_cast<double>(clip.duration), 0.0);
    const double frames = std::floor(static_cast<double>(static_cast<float>(duration) * static_cast<float>(fps) + 1e-4f)) + 1.0;
    if (!(frames < 9.2e18)) return INT64_MAX;  // also NaN
    return static_cast<int64_t>(frames);
}

int64_t bvhChannelCount(const Model& model, const Clip& clip) {
    int64_t n = 0;
    for (uint8_t p : positionChannels(model.skeleton, clip)) n += p ? 6 : 3;
    return n;
}

Result<bool> exportBvh(const Model& model, const Clip& clip, float fps, const std::string& path) {
    const Skeleton& sk = model.skeleton;
    if (sk.size() == 0) return Error{path + ": the model has no nodes to export"};
    if (!(fps > 0.0f) || !(fps <= kMaxBvhFps)) return Error{path + ": --fps must be a number in (0, 1000]"};
    const int64_t frames = bvhFrameCount(clip, fps);
    if (frames > kMaxBvhFrames || frames > kMaxBvhValues / std::max<int64_t>(1, bvhChannelCount(model, clip))) {
        return Error{path + ": the export would be too large (" + std::to_string(frames) + " frames)"};
    }
    const size_t n = sk.size();
    std::vector<std::vector<int32_t>> children(n);
    for (size_t i = 1; i < n; ++i) {
        if (sk.parent[i] >= 0) children[sk.parent[i]].push_back(static_cast<int32_t>(i));
    }
    const std::vector<uint8_t> positions = positionChannels(sk, clip);
    // Only node 0's subtree is written (Assimp's scenes and ASF skeletons have one root).
    std::ostringstream out;
    out << "HIERARCHY\n";
    std::vector<int32_t> order;
    struct Item { int32_t node; int depth; bool close; };
    std::vector<Item> stack{{0, 0, false}};
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        const std::string pad(static_cast<size_t>(it.depth) * 2, ' ');
        if (it.close) {
            out << pad << "}\n";
            continue;
        }
        const int32_t i = it.node;
        order.push_back(i);
        const glm::vec3 off = sk.bindLocalSqt[i].translation;
        out << pad << (i == 0 ? "ROOT " : "JOINT ") << bvhName(sk.names[i], static_cast<size_t>(i)) << "\n" << pad << "{\n";
        out << pad << "  OFFSET " << num(off.x) << " " << num(off.y) << " " << num(off.z) << "\n";
        out << pad << "  CHANNELS " << (positions[i] ? "6 Xposition Yposition Zposition " : "3 ")
            << "Zrotation Xrotation Yrotation\n";
        if (children[i].empty()) {
            out << pad << "  End Site\n" << pad << "  {\n" << pad << "    OFFSET 0 0 0\n" << pad << "  }\n";
        }
        stack.push_back({i, it.depth, true});
        for (auto c = children[i].rbegin(); c != children[i].rend(); ++c) stack.push_back({*c, it.depth + 1, false});
    }
    const float duration = std::max(clip.duration, 0.0f);
    out << "MOTION\nFrames: " << frames << "\nFrame Time: " << num(1.0 / fps) << "\n";
    // Streamed: the hierarchy, then the frames in blocks of about 1 MB.
    OutputFile file(path);
    if (!file.open() || !file.write(out.str())) return Error{file.error()};
    std::vector<Transform> local = sk.bindLocalSqt;
    std::vector<uint32_t> cursors(3 * clip.tracks.size() + 3, 0);
    std::string block;
    for (int64_t f = 0; f < frames; ++f) {
        const float t = std::min(static_cast<float>(static_cast<double>(f) / fps), duration);
        sampleClip(clip, t, sk.bindLocalSqt.data(), local.data(), cursors.data(), RotationBlend::Slerp);
        std::string line;
        for (int32_t i : order) {
            const Transform& x = clip.trackOfNode.size() == n && clip.trackOfNode[i] >= 0 ? local[i] : sk.bindLocalSqt[i];
            if (positions[i]) line += num(x.translation.x) + " " + num(x.translation.y) + " " + num(x.translation.z) + " ";
            float z = 0, xr = 0, y = 0;
            glm::extractEulerAngleZXY(glm::mat4_cast(x.rotation), z, xr, y);
            line += num(glm::degrees(z)) + " " + num(glm::degrees(xr)) + " " + num(glm::degrees(y)) + " ";
        }
        line.back() = '\n';
        block += line;
        if (block.size() > (1u << 20)) {
            if (!file.write(block)) return Error{file.error()};
            block.clear();
        }
    }
    if (!file.write(block) || !file.commit()) return Error{file.error()};
    return true;
}

}  // namespace rig
