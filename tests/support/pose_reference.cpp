#include "support/pose_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "support/gunzip.h"

namespace rig::testing {

namespace {

using nlohmann::json;

struct Posed {
    std::vector<glm::vec3> vertices;          // every mesh's, in mesh order
    std::map<std::string, glm::vec3> joints;  // by sanitized name
};

Posed pose(const Model& m, const json& p, const PoseNames& names) {
    int32_t clip = kBindPose;
    float t = 0.0f;
    if (!p.value("bind", false)) {
        clip = m.findClip(names.clip.empty() ? p["clip"].get<std::string>() : names.clip);
        EXPECT_GE(clip, 0) << "no clip " << p["clip"];
        t = p["time"].get<float>();
    }
    Animator a(m);
    a.evaluate(clip, t);
    Posed out;
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        const Mesh& mesh = m.meshes[i];
        std::vector<glm::vec3> ps(mesh.vertexCount());
        if (mesh.skinned) {
            skinMesh(mesh, a.palette().data() + a.paletteOffset(i), ps.data(), nullptr, SkinningMethod::Linear, kMaxInfluences);
        } else {
            ps = mesh.positions;
        }
        for (glm::vec3& v : ps) out.vertices.push_back(glm::vec3(a.skinToModel(i) * glm::vec4(v, 1.0f)));
    }
    for (int32_t j : m.jointNodes()) out.joints[names.joint(m.skeleton.names[j])] = glm::vec3(a.world()[j][3]);
    return out;
}

std::vector<glm::vec3> points(const json& pose) {
    std::vector<glm::vec3> out;
    for (const json& mesh : pose["meshes"]) {
        const json& p = mesh["positions"];
        for (size_t i = 0; 3 * i + 2 < p.size(); ++i)
            out.emplace_back(p[3 * i].get<float>(), p[3 * i + 1].get<float>(), p[3 * i + 2].get<float>());
    }
    return out;
}

float diagonal(const std::vector<glm::vec3>& ps) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& p : ps) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    return ps.empty() ? 1.0f : glm::length(hi - lo);
}

}  // namespace

std::string sanitizedName(const std::string& name) {
    std::string out;
    for (char c : name)
        if (c != '[' && c != ']' && c != '.' && c != ':' && c != '/' && c != ' ') out += c;
    return out;
}

json readJsonFile(const std::string& path) {
    const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
    std::ifstream in(gz ? gunzip(path) : path);
    EXPECT_TRUE(in) << path;
    return json::parse(in, nullptr, false);
}

PoseComparison comparePoses(const Model& model, const json& ref, const PoseNames& given) {
    PoseNames names = given;
    if (!names.joint) names.joint = sanitizedName;
    PoseComparison out;
    if (!ref.is_object() || !ref["poses"].is_array() || ref["poses"].empty()) {
        ADD_FAILURE() << "not a pose reference";
        out.vertices = out.strays = out.joints = 1e30f;
        return out;
    }
    std::vector<Posed> mine;
    std::vector<std::vector<glm::vec3>> theirs;
    for (const json& p : ref["poses"]) {
        mine.push_back(pose(model, p, names));
        theirs.push_back(points(p));
        if (theirs.back().size() != theirs.front().size() || mine.back().vertices.empty()) {
            ADD_FAILURE() << "poses of different vertex counts";
            out.vertices = out.strays = out.joints = 1e30f;
            return out;
        }
    }
    const float diag = diagonal(theirs.front());
    const size_t nRef = theirs.front().size(), nMine = mine.front().vertices.size();
    // cost[i][j]: the largest distance between reference vertex i and rigview vertex j over the poses.
    std::vector<float> cost(nRef * nMine, 0.0f);
    for (size_t p = 0; p < mine.size(); ++p)
        for (size_t i = 0; i < nRef; ++i)
            for (size_t j = 0; j < nMine; ++j) {
                float& c = cost[i * nMine + j];
                c = std::max(c, glm::length(theirs[p][i] - mine[p].vertices[j]));
            }
    for (size_t i = 0; i < nRef; ++i)
        out.vertices = std::max(out.vertices, *std::min_element(cost.begin() + i * nMine, cost.begin() + (i + 1) * nMine));
    for (size_t j = 0; j < nMine; ++j) {
        float best = 1e30f;
        for (size_t i = 0; i < nRef; ++i) best = std::min(best, cost[i * nMine + j]);
        out.strays = std::max(out.strays, best);
    }
    out.jointsCompared = SIZE_MAX;
    for (size_t p = 0; p < mine.size(); ++p) {
        size_t compared = 0;
        for (const json& b : ref["poses"][p]["bones"]) {
            const auto it = mine[p].joints.find(names.joint(b["name"].get<std::string>()));
            if (it == mine[p].joints.end()) continue;
            const glm::vec3 head(b["head"][0].get<float>(), b["head"][1].get<float>(), b["head"][2].get<float>());
            out.joints = std::max(out.joints, glm::length(it->second - head));
            ++compared;
        }
        out.jointsCompared = std::min(out.jointsCompared, compared);
    }
    out.vertices /= diag;
    out.strays /= diag;
    out.joints /= diag;
    out.poses = mine.size();
    return out;
}

}  // namespace rig::testing
