#include "check/diagnostics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "anim/offline/compress.h"
#include "anim/runtime/pose.h"
#include "check/vertex_views.h"
#include "util/paths.h"

namespace rig {

const char* severityName(Severity s) {
    switch (s) {
        case Severity::Info: return "info";
        case Severity::Warning: return "warning";
        case Severity::Error: return "error";
    }
    return "info";
}

Severity Report::worst() const {
    Severity w = Severity::Info;
    for (const Finding& f : findings) {
        if (static_cast<int>(f.severity) > static_cast<int>(w)) w = f.severity;
    }
    return w;
}

namespace {

constexpr float kPi = 3.14159265358979f;

std::vector<int64_t> toExamples(const std::vector<uint32_t>& v) {
    return std::vector<int64_t>(v.begin(), v.end());
}

std::string meshLabel(const Mesh& m, size_t i) {
    return "mesh " + std::to_string(i) + " '" + m.name + "'";
}

std::string clipLabel(const Clip& c, size_t i) {
    return "clip " + std::to_string(i) + " '" + c.name + "'";
}

std::string fmt(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

bool finiteMat(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 4; ++k)
            if (!std::isfinite(m[c][k])) return false;
    return true;
}

bool finiteVec(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Angle in degrees between two rotations (unit quaternions), the short way; accurate for
// small angles (atan2 rather than acos of the dot product).
float angleDegrees(const glm::quat& a, const glm::quat& b) {
    const glm::quat r = glm::conjugate(a) * b;
    const float s = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z);
    const float ang = 2.0f * std::atan2(s, std::fabs(r.w));
    return std::isfinite(ang) ? ang * 180.0f / kPi : 0.0f;
}

const std::string& nodeName(const Model& model, int32_t node) {
    static const std::string none;
    return node >= 0 && static_cast<size_t>(node) < model.skeleton.names.size() ? model.skeleton.names[node] : none;
}

// A few examples (indices and names) gathered while counting.
struct Examples {
    size_t limit = 10;
    std::vector<int64_t> indices;
    std::vector<std::string> names;
    void add(int64_t index) {
        if (indices.size() < limit) indices.push_back(index);
    }
    void addName(const std::string& name) {
        if (names.size() < limit && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
};

// Per-model context shared by the checks.
struct Context {
    const Model& model;
    const CheckSettings& s;
    Report& r;
    float rigSize = 1.0f;
    std::vector<uint8_t> relevant;  // nodes whose bind transform matters to the rig
};

void add(Context& cx, Finding f) { cx.r.findings.push_back(std::move(f)); }

// ---------------------------------------------------------------------------------------
// Meshes: weights, skin, limits.

// Worst truncation error per mesh (model units) over the bind pose and every clip.
struct Truncation {
    float worst = 0.0f;
    uint32_t vertex = 0;
    int32_t clip = -1;
    float time = 0.0f;
};

std::vector<Truncation> worstTruncation(const Context& cx) {
    const Model& model = cx.model;
    std::vector<Truncation> out(model.meshes.size());
    size_t perPose = 0;
    for (const Mesh& m : model.meshes) {
        if (m.skinned) perPose += m.truncated.size();
    }
    if (perPose == 0) return out;
    // Keep the work bounded on big meshes: at most ~4M vertex-poses in all.
    const size_t clips = model.clips.size();
    int samples = std::max(1, cx.s.truncationSamplesPerClip);
    if (clips) {
        const size_t budget = std::max<size_t>(4000000 / perPose, clips + 1);
        samples = static_cast<int>(std::clamp<size_t>((budget - 1) / clips, 1, static_cast<size_t>(samples)));
    }
    // And at most ~16M vertex-poses even when that leaves clips out (huge truncated meshes).
    const size_t maxPoses = std::max<size_t>(1, 16000000 / perPose);
    size_t poses = 0;
    Animator anim(model);
    auto measure = [&](int32_t clip, float t) {
        if (poses++ >= maxPoses) return;
        if (clip >= 0 && model.clips[clip].trackOfNode.size() < model.skeleton.size()) return;
        anim.evaluate(clip, t);
        for (size_t mi = 0; mi < model.meshes.size(); ++mi) {
            const Mesh& mesh = model.meshes[mi];
            if (!mesh.skinned || mesh.truncated.empty()) continue;
            const glm::mat4* palette = anim.palette().data() + anim.paletteOffset(mi);
            const glm::mat4& meshWorld = anim.skinToModel(mi);
            for (const FullInfluences& full : mesh.truncated) {
                const float d = truncationDistance(mesh, full, palette, meshWorld);
                if (d > out[mi].worst) out[mi] = {d, full.vertex, clip, t};
            }
        }
    };
    measure(-1, 0.0f);
    for (size_t c = 0; c < clips; ++c) {
        const Clip& clip = model.clips[c];
        if (clip.tracks.empty()) continue;
        const float t0 = std::min(clip.startTime, clip.duration), t1 = clip.duration;
        const int n = t1 > t0 ? samples : 1;
        for (int i = 0; i < n; ++i) {
            const float t = n == 1 ? t0 : t0 + (t1 - t0) * static_cast<float>(i) / static_cast<float>(n - 1);
            measure(static_cast<int32_t>(c), t);
        }
    }
    return out;
}

// Offset matrices against the bind pose. At the bind pose, joint j takes a mesh-space vertex v
// to Q_j v = bindPoseModel[joint] * inverseBind[j] * v (model space). The bind pose is derived
// from the skins' own inverse bind matrices, so a mesh's joints disagree there only where a joint
// is shared with another skin bound in a different pose (the first skin sets the joint's bind
// pose), or where an offset was computed from the file pose under a joint that moved. A consistent skin has every
// Q_j equal to the mesh node's own transform M. If the joints disagree among themselves, the
// mesh renders distorted at the bind pose (warning). If they all agree on one transform other
// than M, the mesh is whole but sits away from its node (info): glTF and .X readers ignore a
// skinned mesh's node transform anyway, and so does rigview's palette.
void checkBindPose(Context& cx, const Mesh& m, size_t mi, const std::string& label) {
    const Model& model = cx.model;
    const Skeleton& sk = model.skeleton;
    const size_t nj = m.skin.joints.size();
    if (nj == 0 || m.node < 0 || static_cast<size_t>(m.node) >= sk.size()) return;
    // Box (mesh space) around the vertices each joint slot moves, and how many it moves.
    std::vector<glm::vec3> lo(nj, glm::vec3(std::numeric_limits<float>::max()));
    std::vector<glm::vec3> hi(nj, glm::vec3(-std::numeric_limits<float>::max()));
    std::vector<uint32_t> moved(nj, 0);
    glm::vec3 meshLo(std::numeric_limits<float>::max()), meshHi(-std::numeric_limits<float>::max());
    auto grow = [&](uint32_t slot, const glm::vec3& p) {
        if (slot >= nj) return;
        lo[slot] = glm::min(lo[slot], p);
        hi[slot] = glm::max(hi[slot], p);
        ++moved[slot];
    };
    for (size_t v = 0; v < m.vertexCount(); ++v) {
        const glm::vec3& p = m.positions[v];
        if (!finiteVec(p)) continue;
        meshLo = glm::min(meshLo, p);
        meshHi = glm::max(meshHi, p);
        if (v >= m.joints.size() || v >= m.weights.size()) continue;
        for (int k = 0; k < kMaxInfluences; ++k) {
            if (m.weights[v][k] > 0.0f) grow(m.joints[v][k], p);
        }
    }
    for (const FullInfluences& full : m.truncated) {
        if (full.vertex >= m.vertexCount() || !finiteVec(m.positions[full.vertex])) continue;
        for (size_t k = kMaxInfluences; k < full.influences.size(); ++k) {  // the dropped ones
            if (full.influences[k].second > 0.0f) grow(full.influences[k].first, m.positions[full.vertex]);
        }
    }
    if (!(meshHi.x >= meshLo.x)) return;  // no finite vertex
    const glm::mat4& meshBind = sk.bindModel[m.node];
    if (!finiteMat(meshBind)) return;
    float size = glm::length(glm::mat3(meshBind) * (meshHi - meshLo));
    if (!(size > 0.0f) || !std::isfinite(size)) size = cx.rigSize;
    const float tol = cx.s.bindPoseTolerance * size;

    // Largest distance between a and b over the corners of a box.
    auto apart = [](const glm::mat4& a, const glm::mat4& b, const glm::vec3& l, const glm::vec3& h) {
        float d = 0.0f;
        for (int corner = 0; corner < 8; ++corner) {
            const glm::vec4 c((corner & 1) ? h.x : l.x, (corner & 2) ? h.y : l.y, (corner & 4) ? h.z : l.z, 1.0f);
            d = std::max(d, glm::length(glm::vec3(a * c) - glm::vec3(b * c)));
        }
        return d;
    };
    struct J {
        size_t slot;
        glm::mat4 q;
    };
    std::vector<J> js;  // joints that move vertices and have an offset from the file
    for (size_t j = 0; j < nj; ++j) {
        if (!moved[j]) continue;  // moves no vertex: its offset shows nowhere
        if (j < m.skin.offsetComputed.size() && m.skin.offsetComputed[j]) continue;
        const int32_t joint = m.skin.joints[j];
        if (joint < 0 || static_cast<size_t>(joint) >= sk.size() || j >= m.skin.inverseBind.size()) continue;
        const glm::mat4 q = sk.bindPoseModel()[joint] * m.skin.inverseBind[j];
        if (finiteMat(q)) js.push_back({j, q});
    }
    if (js.empty()) return;
    // The reference: the mesh node's transform if some joint agrees with it, else the joint
    // that moves the most vertices.
    glm::mat4 ref = meshBind;
    bool refIsNode = false;
    size_t dominant = 0;
    for (size_t i = 0; i < js.size(); ++i) {
        if (apart(js[i].q, meshBind, lo[js[i].slot], hi[js[i].slot]) <= tol) refIsNode = true;
        if (moved[js[i].slot] > moved[js[dominant].slot]) dominant = i;
    }
    if (!refIsNode) ref = js[dominant].q;

    Examples ex{cx.s.maxExamples};
    uint64_t bad = 0;
    float worst = 0.0f;
    int32_t worstJoint = -1;
    for (const J& j : js) {
        const float d = apart(j.q, ref, lo[j.slot], hi[j.slot]);
        if (!(d > tol)) continue;
        const int32_t joint = m.skin.joints[j.slot];
        ++bad;
        ex.add(joint);
        ex.addName(nodeName(model, joint));
        if (d > worst) {
            worst = d;
            worstJoint = joint;
        }
    }
    if (bad) {
        Finding f{"bind-pose-mismatch", Severity::Warning,
                  label + ": " + std::to_string(bad) + " of " + std::to_string(nj) +
                      " joints have an offset matrix that disagrees with the inverse of the joint's bind-pose transform; "
                      "at the bind pose the vertices they move render up to " + fmt(worst) + " units away from " +
                      (refIsNode ? "where the mesh's node puts them" : "the rest of the mesh") + " (worst '" +
                      nodeName(model, worstJoint) + "'): the mesh renders distorted",
                  bad, label + " joints (skeleton nodes)", ex.indices, ex.names};
        f.mesh = static_cast<int32_t>(mi);
        f.joint = worstJoint;
        f.value = worst;
        add(cx, std::move(f));
        return;
    }
    if (refIsNode) return;
    const float shift = apart(ref, meshBind, meshLo, meshHi);
    for (const J& j : js) {
        ex.add(m.skin.joints[j.slot]);
        ex.addName(nodeName(model, m.skin.joints[j.slot]));
    }
    Finding f{"bind-pose-mismatch", Severity::Info,
              label + (js.size() == 1 ? std::string(": the offset matrix of its only weighted joint disagrees")
                                      : ": the offset matrices of all " + std::to_string(js.size()) +
                                            " weighted joints agree with each other but not") +
                  " with the mesh's node: at the bind pose the whole mesh "
                  "sits up to " + fmt(shift) + " units from where its node would put it, undistorted (glTF and .X "
                  "ignore a skinned mesh's node transform, as rigview does)",
              js.size(), label + " joints (skeleton nodes)", ex.indices, ex.names};
    f.mesh = static_cast<int32_t>(mi);
    f.joint = m.skin.joints[js[dominant].slot];
    f.value = shift;
    add(cx, std::move(f));
}

void checkMeshes(Context& cx) {
    const Model& model = cx.model;
    const std::vector<Truncation> trunc = worstTruncation(cx);
    for (size_t i = 0; i < model.meshes.size(); ++i) {
        const Mesh& m = model.meshes[i];
        const std::string label = meshLabel(m, i);
        const int32_t mi = static_cast<int32_t>(i);
        if (m.vertexCount() > 65535) {
            Finding f{"needs-32-bit-indices", Severity::Info,
                      label + ": " + std::to_string(m.vertexCount()) +
                          " vertices; 16-bit indices address at most 65535, so this mesh needs 32-bit indices "
                          "(or splitting) in engines that use 16-bit index buffers",
                      m.vertexCount(), label, {}, {}};
            f.mesh = mi;
            f.value = static_cast<double>(m.vertexCount());
            add(cx, std::move(f));
        }
        if (!m.skinned) continue;
        const WeightStats& ws = m.weightStats;
        if (ws.unnormalizedVertices) {
            Finding f{"weights-not-normalized", Severity::Warning,
                      label + ": " + std::to_string(ws.unnormalizedVertices) +
                          " vertices have weights that do not sum to 1 (worst off by " + fmt(ws.worstSumError) +
                          "); renormalized on import",
                      ws.unnormalizedVertices, label + " vertices", toExamples(ws.unnormalizedExamples), {}};
            f.mesh = mi;
            f.value = ws.worstSumError;
            add(cx, std::move(f));
        }
        if (ws.truncatedVertices) {
            const Truncation& t = trunc[i];
            std::string where = t.clip >= 0 ? "in " + clipLabel(model.clips[t.clip], t.clip) + " at " + fmt(t.time) + " s"
                                             : "at the bind pose";
            Finding f{"too-many-influences", Severity::Warning,
                      label + ": " + std::to_string(ws.truncatedVertices) +
                          " vertices have more than 4 influences (up to " + std::to_string(ws.maxInfluences) +
                          "); the 4 strongest are kept; worst truncation error " + fmt(t.worst) +
                          " units (vertex " + std::to_string(t.vertex) + ", " + where + ")",
                      ws.truncatedVertices, label + " vertices", toExamples(ws.truncatedExamples), {}};
            f.mesh = mi;
            f.clip = t.clip;
            f.value = t.worst;
            add(cx, std::move(f));
        }
        if (ws.unweightedVertices) {
            Finding f{"unweighted-vertices", Severity::Warning,
                      label + ": " + std::to_string(ws.unweightedVertices) + " of " + std::to_string(m.vertexCount()) +
                          " vertices carry no weight; they follow the mesh's node rigidly",
                      ws.unweightedVertices, label + " vertices", toExamples(ws.unweightedExamples), {}};
            f.mesh = mi;
            add(cx, std::move(f));
        }
        if (ws.invalidWeights) {
            Finding f{"invalid-weights", Severity::Error,
                      label + ": " + std::to_string(ws.invalidWeights) +
                          " weights are NaN, infinite, negative or name a vertex that does not exist; dropped",
                      ws.invalidWeights, label, {}, {}};
            f.mesh = mi;
            add(cx, std::move(f));
        }
        if (!m.missingBones.empty()) {
            Finding f{"bone-missing-from-hierarchy", Severity::Error,
                      label + ": " + std::to_string(m.missingBones.size()) +
                          " bones name no node of the hierarchy; their weights are dropped",
                      m.missingBones.size(), label + " bones", {}, m.missingBones};
            f.mesh = mi;
            add(cx, std::move(f));
        }
        uint64_t computed = 0, nonFinite = 0;
        Examples names{cx.s.maxExamples}, nonFiniteNames{cx.s.maxExamples};
        int32_t firstComputed = -1, firstNonFinite = -1;
        for (size_t j = 0; j < m.skin.joints.size(); ++j) {
            const int32_t node = m.skin.joints[j];
            if (j < m.skin.inverseBind.size() && !finiteMat(m.skin.inverseBind[j])) {
                ++nonFinite;
                nonFiniteNames.add(node);
                nonFiniteNames.addName(nodeName(model, node));
                if (firstNonFinite < 0) firstNonFinite = node;
            }
            if (j >= m.skin.offsetComputed.size() || !m.skin.offsetComputed[j]) continue;
            ++computed;
            names.add(node);
            names.addName(nodeName(model, node));
            if (firstComputed < 0) firstComputed = node;
        }
        if (computed) {
            Finding f{"offset-matrix-computed", Severity::Warning,
                      label + ": " + std::to_string(computed) +
                          " bones have a singular or non-finite offset matrix; computed from the bind pose",
                      computed, label + " bones", {}, names.names};
            f.mesh = mi;
            f.joint = firstComputed;
            add(cx, std::move(f));
        }
        if (nonFinite) {
            Finding f{"non-finite-offset-matrix", Severity::Error,
                      label + ": " + std::to_string(nonFinite) + " bones have NaN or infinite offset matrices",
                      nonFinite, label + " joints (skeleton nodes)", nonFiniteNames.indices, nonFiniteNames.names};
            f.mesh = mi;
            f.joint = firstNonFinite;
            add(cx, std::move(f));
        }
        if (m.skin.joints.size() > 65535) {
            Finding f{"too-many-joints", Severity::Error,
                      label + ": " + std::to_string(m.skin.joints.size()) +
                          " joints in one skin; more than 65535 cannot be addressed by 16-bit joint indices",
                      m.skin.joints.size(), label, {}, {}};
            f.mesh = mi;
            add(cx, std::move(f));
        } else if (m.skin.joints.size() > cx.s.uniformPaletteJoints) {
            Finding f{"too-many-joints-for-gpu", Severity::Info,
                      label + ": " + std::to_string(m.skin.joints.size()) + " joints in one skin; rigview draws it "
                          "(palette in a texture buffer) but engines with a fixed " +
                          std::to_string(cx.s.uniformPaletteJoints) + "-entry uniform palette cannot",
                      m.skin.joints.size(), label, {}, {}};
            f.mesh = mi;
            f.value = static_cast<double>(m.skin.joints.size());
            add(cx, std::move(f));
        }
        checkBindPose(cx, m, i, label);
    }

    // Joints of some skin that carry no weight in any mesh.
    const size_t n = model.skeleton.size();
    std::vector<uint8_t> inSkin(n, 0), weighted(n, 0);
    for (const Mesh& m : model.meshes) {
        if (!m.skinned) continue;
        const size_t nj = m.skin.joints.size();
        std::vector<uint8_t> slotUsed(nj, 0);
        for (size_t v = 0; v < m.joints.size() && v < m.weights.size(); ++v) {
            for (int k = 0; k < kMaxInfluences; ++k) {
                if (m.weights[v][k] > 0.0f && m.joints[v][k] < nj) slotUsed[m.joints[v][k]] = 1;
            }
        }
        for (const FullInfluences& full : m.truncated) {
            for (const auto& [slot, w] : full.influences) {
                if (w > 0.0f && slot < nj) slotUsed[slot] = 1;
            }
        }
        for (size_t j = 0; j < nj; ++j) {
            const int32_t node = m.skin.joints[j];
            if (node < 0 || static_cast<size_t>(node) >= n) continue;
            inSkin[node] = 1;
            if (slotUsed[j]) weighted[node] = 1;
        }
    }
    Examples idle{cx.s.maxExamples};
    uint64_t idleCount = 0;
    int32_t firstIdle = -1;
    for (size_t i = 0; i < n; ++i) {
        if (!inSkin[i] || weighted[i]) continue;
        ++idleCount;
        idle.add(static_cast<int64_t>(i));
        idle.addName(model.skeleton.names[i]);
        if (firstIdle < 0) firstIdle = static_cast<int32_t>(i);
    }
    if (idleCount) {
        Finding f{"joint-influences-nothing", Severity::Info,
                  std::to_string(idleCount) + " skin joints carry no weight on any vertex (e.g. '" +
                      nodeName(model, firstIdle) + "'); they move nothing",
                  idleCount, "joints (skeleton nodes)", idle.indices, idle.names};
        f.joint = firstIdle;
        add(cx, std::move(f));
    }
}

// ---------------------------------------------------------------------------------------
// Hierarchy, bind pose, non-finite data, textures.

void checkNonFinite(Context& cx) {
    const Model& model = cx.model;
    uint64_t nodes = 0;
    Examples ex{cx.s.maxExamples};
    for (size_t i = 0; i < model.skeleton.size(); ++i) {
        if (finiteMat(model.skeleton.bindLocal[i])) continue;
        ++nodes;
        ex.add(static_cast<int64_t>(i));
        ex.addName(model.skeleton.names[i]);
    }
    if (nodes) {
        Finding f{"non-finite-node-transform", Severity::Error,
                  std::to_string(nodes) + " nodes have NaN or infinite transforms (e.g. '" + ex.names.front() + "')",
                  nodes, "nodes", ex.indices, ex.names};
        f.joint = static_cast<int32_t>(ex.indices.front());
        add(cx, std::move(f));
    }
    // Vertices: counted on import; models built in code are scanned.
    uint64_t bad = 0;
    int32_t firstMesh = -1;
    Examples vex{cx.s.maxExamples};
    for (size_t mi = 0; mi < model.meshes.size(); ++mi) {
        const Mesh& m = model.meshes[mi];
        for (size_t v = 0; v < m.vertexCount(); ++v) {
            const bool ok = finiteVec(m.positions[v]) && (v >= m.normals.size() || finiteVec(m.normals[v]));
            if (ok) continue;
            bad += 1 + (!finiteVec(m.positions[v]) && v < m.normals.size() && !finiteVec(m.normals[v]));
            if (firstMesh < 0) firstMesh = static_cast<int32_t>(mi);
            if (static_cast<int32_t>(mi) == firstMesh) vex.add(static_cast<int64_t>(v));
        }
    }
    bad = std::max<uint64_t>(bad, model.stats.nonFiniteVertices);
    if (bad) {
        const std::string where = firstMesh >= 0 ? " (first in " + meshLabel(model.meshes[firstMesh], firstMesh) + ")" : "";
        Finding f{"non-finite-vertices", Severity::Error,
                  std::to_string(bad) + " vertex positions or normals are NaN or infinite" + where, bad,
                  firstMesh >= 0 ? meshLabel(model.meshes[firstMesh], firstMesh) + " vertices" : "vertices",
                  vex.indices, {}};
        f.mesh = firstMesh;
        add(cx, std::move(f));
    }
    if (model.stats.nonFiniteKeys) {
        Examples cex{cx.s.maxExamples};
        int32_t first = -1;
        for (size_t c = 0; c < model.clips.size(); ++c) {
            if (!model.clips[c].curveStats.nonFiniteKeys) continue;
            cex.add(static_cast<int64_t>(c));
            cex.addName(model.clips[c].name);
            if (first < 0) first = static_cast<int32_t>(c);
        }
        Finding f{"non-finite-keys", Severity::Error,
                  std::to_string(model.stats.nonFiniteKeys) +
                      " animation keys have a NaN or infinite time or value; dropped",
                  model.stats.nonFiniteKeys, "keys (examples: clips)", cex.indices, cex.names};
        f.clip = first;
        add(cx, std::move(f));
    }
}

void checkNames(Context& cx) {
    const Model& model = cx.model;
    const Skeleton& sk = model.skeleton;
    std::vector<uint8_t> used(sk.size(), 0);  // node a bone or a channel binds to
    for (const Mesh& m : model.meshes) {
        if (!m.skinned) continue;
        for (int32_t j : m.skin.joints)
            if (j >= 0 && static_cast<size_t>(j) < sk.size()) used[j] = 1;
    }
    for (const Clip& c : model.clips) {
        for (const Track& t : c.tracks)
            if (t.node >= 0 && static_cast<size_t>(t.node) < sk.size()) used[t.node] = 1;
    }
    std::unordered_map<std::string_view, int32_t> first;  // name -> first node
    first.reserve(sk.size());
    std::vector<int32_t> dupOf(sk.size(), -1);
    for (size_t i = 0; i < sk.size(); ++i) {
        if (sk.names[i].empty()) continue;
        auto [it, inserted] = first.emplace(sk.names[i], static_cast<int32_t>(i));
        if (!inserted) dupOf[i] = it->second;
    }
    // Per duplicated name (indexed by its first node): whether a bone or channel uses one of
    // its nodes, and whether import bound every such use by identity ("safe").
    std::vector<uint8_t> nameDup(sk.size(), 0), nameUsed(sk.size(), 0);
    for (size_t i = 0; i < sk.size(); ++i) {
        if (dupOf[i] < 0) continue;
        nameDup[dupOf[i]] = 1;
        if (used[i]) nameUsed[dupOf[i]] = 1;
    }
    for (size_t i = 0; i < sk.size(); ++i) {
        if (nameDup[i] && used[i]) nameUsed[i] = 1;
    }
    auto bindingsOf = [&](const std::string& name) {
        std::vector<const NameBinding*> list;
        for (const NameBinding& b : model.stats.nameBindings)
            if (b.name == name) list.push_back(&b);
        return list;
    };
    Examples err{cx.s.maxExamples}, warn{cx.s.maxExamples}, info{cx.s.maxExamples};
    uint64_t errNames = 0, warnNames = 0, infoNames = 0;
    int32_t errFirst = -1, warnFirst = -1, infoFirst = -1;
    std::string chosen;  // "'root' -> node 2 (rule)" for the first resolved name
    std::vector<int> kind(sk.size(), 0);  // per first node: 1 error, 2 warning, 3 info
    for (size_t i = 0; i < sk.size(); ++i) {
        if (!nameDup[i]) continue;
        const auto binds = bindingsOf(sk.names[i]);
        const bool safe = !binds.empty() &&
                          std::all_of(binds.begin(), binds.end(), [](const NameBinding* b) { return b->safe; });
        kind[i] = !nameUsed[i] ? 2 : safe ? 3 : 1;
        Examples& ex = kind[i] == 1 ? err : kind[i] == 2 ? warn : info;
        (kind[i] == 1 ? errNames : kind[i] == 2 ? warnNames : infoNames)++;
        int32_t& firstNode = kind[i] == 1 ? errFirst : kind[i] == 2 ? warnFirst : infoFirst;
        const int32_t pickedNode = !binds.empty() ? binds.front()->chosen : static_cast<int32_t>(i);
        if (firstNode < 0) firstNode = pickedNode;
        if (kind[i] == 3 && chosen.empty()) {
            const int32_t c = binds.front()->chosen;
            const int32_t p = c >= 0 ? sk.parent[c] : -1;
            chosen = "'" + sk.names[i] + "' (" + binds.front()->usedBy + ") -> node " + std::to_string(c) +
                     (p >= 0 ? " under '" + sk.names[p] + "'" : "") + ", by " + binds.front()->rule;
        }
        ex.addName(sk.names[i]);
        ex.add(static_cast<int64_t>(i));
    }
    // Examples also list the later nodes of each name.
    for (size_t i = 0; i < sk.size(); ++i) {
        if (dupOf[i] < 0) continue;
        const int k = kind[dupOf[i]];
        (k == 1 ? err : k == 2 ? warn : info).add(static_cast<int64_t>(i));
    }
    if (errNames) {
        const auto binds = bindingsOf(err.names.front());
        const std::string where = binds.empty() ? "" : " (bound to node " + std::to_string(binds.front()->chosen) +
                                                           ", " + binds.front()->rule + ")";
        Finding f{"duplicate-node-name", Severity::Error,
                  std::to_string(errNames) + " node names are shared by several nodes and used by a skin bone or an "
                  "animation channel (e.g. '" + err.names.front() + "'" + where + "); nothing in the file tells which "
                  "node is meant, so the bone or channel may move the wrong one",
                  errNames, "nodes with a shared name", err.indices, err.names};
        f.joint = errFirst;
        add(cx, std::move(f));
    }
    if (infoNames) {
        Finding f{"duplicate-node-name", Severity::Info,
                  std::to_string(infoNames) + " node names are shared by several nodes and used by bones or channels; "
                  "each was bound to one node without ambiguity (e.g. " + chosen + ")",
                  infoNames, "nodes with a shared name", info.indices, info.names};
        f.joint = infoFirst;
        add(cx, std::move(f));
    }
    if (warnNames) {
        Finding f{"duplicate-node-name", Severity::Warning,
                  std::to_string(warnNames) + " node names are shared by several nodes (e.g. '" + warn.names.front() +
                      "'); nothing binds to them by name yet, but tools that look nodes up by name will pick the first",
                  warnNames, "nodes with a shared name", warn.indices, warn.names};
        f.joint = warnFirst;
        add(cx, std::move(f));
    }
}

// Scale and degeneracy of a 3x3 (columns are the scaled axes).
struct ScaleInfo {
    float minAxis = 0.0f, maxAxis = 0.0f, det = 0.0f;
    bool degenerate = false, negative = false;
    float ratio = 1.0f;  // maxAxis / minAxis
};

ScaleInfo scaleInfo(const glm::mat3& m, float degenerateScale) {
    ScaleInfo s;
    const float a = glm::length(m[0]), b = glm::length(m[1]), c = glm::length(m[2]);
    s.minAxis = std::min({a, b, c});
    s.maxAxis = std::max({a, b, c});
    s.det = glm::determinant(m);
    const float volume = a * b * c;
    s.degenerate = !(s.minAxis > degenerateScale) || !(std::fabs(s.det) > degenerateScale * volume);
    s.negative = s.det < 0.0f;
    s.ratio = s.minAxis > 0.0f ? s.maxAxis / s.minAxis : std::numeric_limits<float>::infinity();
    return s;
}

void checkBindTransforms(Context& cx) {
    const Model& model = cx.model;
    const Skeleton& sk = model.skeleton;
    Examples deg{cx.s.maxExamples}, nonUni{cx.s.maxExamples}, neg{cx.s.maxExamples};
    uint64_t nDeg = 0, nNonUni = 0, nNeg = 0;
    float worstRatio = 1.0f;
    int32_t worstNonUni = -1;
    for (size_t i = 0; i < sk.size(); ++i) {
        if (!cx.relevant[i] || !finiteMat(sk.bindLocal[i])) continue;
        const ScaleInfo s = scaleInfo(glm::mat3(sk.bindLocal[i]), cx.s.degenerateScale);
        const int64_t idx = static_cast<int64_t>(i);
        if (s.degenerate) {
            ++nDeg;
            deg.add(idx);
            deg.addName(sk.names[i]);
            continue;
        }
        if (s.negative) {
            ++nNeg;
            neg.add(idx);
            neg.addName(sk.names[i]);
        }
        if (s.ratio - 1.0f > cx.s.scaleTolerance) {
            ++nNonUni;
            nonUni.add(idx);
            nonUni.addName(sk.names[i]);
            if (s.ratio > worstRatio) {
                worstRatio = s.ratio;
                worstNonUni = static_cast<int32_t>(i);
            }
        }
    }
    if (nDeg) {
        Finding f{"degenerate-transform", Severity::Error,
                  "bind pose: " + std::to_string(nDeg) + " rig nodes have a zero or near-zero scale or a singular transform "
                  "(e.g. '" + deg.names.front() + "'); what hangs below them collapses",
                  nDeg, "nodes", deg.indices, deg.names};
        f.joint = static_cast<int32_t>(deg.indices.front());
        add(cx, std::move(f));
    }
    if (nNonUni) {
        Finding f{"non-uniform-scale", Severity::Warning,
                  "bind pose: " + std::to_string(nNonUni) + " rig nodes are scaled non-uniformly (worst '" +
                      nodeName(model, worstNonUni) + "', axes " + fmt(worstRatio) +
                      " : 1); children inherit shear and skinning distorts",
                  nNonUni, "nodes", nonUni.indices, nonUni.names};
        f.joint = worstNonUni;
        f.value = worstRatio;
        add(cx, std::move(f));
    }
    if (nNeg) {
        Finding f{"negative-scale", Severity::Warning,
                  "bind pose: " + std::to_string(nNeg) + " rig nodes are mirrored by a negative scale (e.g. '" +
                      neg.names.front() + "'); triangle winding and normals flip below them",
                  nNeg, "nodes", neg.indices, neg.names};
        f.joint = static_cast<int32_t>(neg.indices.front());
        add(cx, std::move(f));
    }
}

namespace fs = std::filesystem;

bool textureFound(const Model& model, const std::string& ref) {
    if (ref.empty()) return true;
    if (ref[0] == '*') {
        const char* p = ref.c_str() + 1;
        char* end = nullptr;
        const long idx = std::strtol(p, &end, 10);
        if (end != p && *end == '\0' && idx >= 0 && static_cast<size_t>(idx) < model.textures.size()) return true;
    }
    for (const EmbeddedTexture& t : model.textures) {
        if (!t.name.empty() && t.name == ref) return true;
    }
    // A file inside the model's folder (util/paths.h). One that exists outside it was refused
    // and is reported as external-path-refused, not as missing.
    std::vector<std::string> refused;
    return !paths::resolveResourceFile(model.path, ref, &refused).empty() || !refused.empty();
}

void checkResources(Context& cx) {
    const std::vector<std::string>& refused = cx.model.stats.refusedPaths;
    if (refused.empty()) return;
    std::vector<std::string> names(refused.begin(), refused.begin() + std::min(refused.size(), cx.s.maxExamples));
    add(cx, {"external-path-refused", Severity::Warning,
             std::to_string(refused.size()) + " files the model refers to lie outside its folder and were not read ('" +
                 refused.front() + "'" + (refused.size() > 1 ? ", ..." : "") + "); --allow-external-paths reads them",
             refused.size(), "files", {}, names});
}

// A file beside the model whose name matches `ref`'s file name but for letter case (files
// made on Windows), or "".
std::string sameNameButCase(const Model& model, const std::string& ref) {
    std::string p = ref;
    std::replace(p.begin(), p.end(), '\\', '/');
    auto lower = [](std::string x) {
        for (char& ch : x) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return x;
    };
    const std::string want = lower(fs::path(p).filename().string());
    if (want.empty()) return {};
    std::error_code ec;
    fs::path dir = fs::path(model.path).parent_path();
    if (dir.empty()) dir = ".";
    fs::directory_iterator it(dir, ec), end;
    for (size_t n = 0; !ec && it != end && n < 10000; it.increment(ec), ++n) {
        const std::string name = it->path().filename().string();
        if (lower(name) == want) return name;
    }
    return {};
}

void checkTextures(Context& cx) {
    if (!cx.s.checkTextureFiles) return;
    const Model& model = cx.model;
    std::vector<uint8_t> usedMat(model.materials.size(), 0);
    for (const Mesh& m : model.meshes)
        if (m.material < usedMat.size()) usedMat[m.material] = 1;
    for (size_t i = 0; i < model.materials.size(); ++i) {
        const Material& mat = model.materials[i];
        if (!usedMat[i] || mat.baseColorTexture.empty() || textureFound(model, mat.baseColorTexture)) continue;
        std::vector<int64_t> meshes;
        for (size_t mi = 0; mi < model.meshes.size() && meshes.size() < cx.s.maxExamples; ++mi)
            if (model.meshes[mi].material == i) meshes.push_back(static_cast<int64_t>(mi));
        const std::string near = sameNameButCase(model, mat.baseColorTexture);
        Finding f{"missing-texture", Severity::Warning,
                  "material " + std::to_string(i) + " '" + mat.name + "': base-colour texture '" + mat.baseColorTexture +
                      "' is not embedded and no such file is found (as written, beside the model, or by its file name)" +
                      (near.empty() ? std::string() : "; '" + near + "' beside the model differs only in letter case"),
                  1, "meshes using material " + std::to_string(i), meshes, {mat.baseColorTexture}};
        f.mesh = meshes.empty() ? -1 : static_cast<int32_t>(meshes.front());
        add(cx, std::move(f));
    }
}

// ---------------------------------------------------------------------------------------
// Clips.

void checkClipList(Context& cx) {
    const Model& model = cx.model;
    const ImportStats& s = model.stats;
    if (s.skippedChannels) {
        add(cx, {"channel-missing-node", Severity::Warning,
                 std::to_string(s.skippedChannels) + " animation channels name a node that does not exist; skipped",
                 s.skippedChannels, "channels", {}, s.skippedChannelNames});
    }
    if (s.duplicateChannels) {
        add(cx, {"duplicate-channel", Severity::Warning,
                 std::to_string(s.duplicateChannels) +
                     " channels animate a node that another channel of the same clip already animates; the first is used",
                 s.duplicateChannels, "channels", {}, {}});
    }
    uint32_t unsortedInClips = 0;
    for (const Clip& c : model.clips) unsortedInClips += c.curveStats.unsortedChannels;
    if (s.unsortedKeyChannels && !unsortedInClips) {
        add(cx, {"keys-out-of-order", Severity::Warning,
                 std::to_string(s.unsortedKeyChannels) + " channels have keys out of time order; sorted",
                 s.unsortedKeyChannels, "channels", {}, {}});
    }
    std::vector<int64_t> empty, zero, noTps;
    std::vector<std::string> emptyNames, zeroNames, noTpsNames;
    for (size_t i = 0; i < model.clips.size(); ++i) {
        const Clip& c = model.clips[i];
        if (c.tracks.empty() && c.morphTracks.empty()) {  // morph weights alone are an animation
            empty.push_back(static_cast<int64_t>(i));
            emptyNames.push_back(c.name);
        } else if (!(c.duration > c.startTime)) {
            zero.push_back(static_cast<int64_t>(i));
            zeroNames.push_back(c.name);
        }
        if (!c.ticksPerSecondFromFile) {
            noTps.push_back(static_cast<int64_t>(i));
            noTpsNames.push_back(c.name);
        }
    }
    auto clipFinding = [&](const char* code, Severity sev, const std::string& msg, const std::vector<int64_t>& idx,
                           const std::vector<std::string>& names) {
        Finding f{code, sev, msg, idx.size(), "clips", idx, names};
        f.clip = idx.empty() ? -1 : static_cast<int32_t>(idx.front());
        add(cx, std::move(f));
    };
    if (!empty.empty()) {
        clipFinding("clip-without-channels", Severity::Warning,
                    std::to_string(empty.size()) + " clips animate no node of the model (e.g. '" + emptyNames.front() + "')",
                    empty, emptyNames);
    }
    if (!zero.empty()) {
        clipFinding("clip-zero-length", Severity::Warning,
                    std::to_string(zero.size()) + " clips have zero duration, all keys at one time (e.g. '" +
                        zeroNames.front() + "')",
                    zero, zeroNames);
    }
    if (!noTps.empty()) {
        clipFinding("clip-no-ticks-per-second", Severity::Info,
                    std::to_string(noTps.size()) + " clips give no ticks per second; 25 ticks per second assumed",
                    noTps, noTpsNames);
    }
}

// One rotation channel of a clip: its track's node.
struct RotChannel {
    int32_t node;
    const Channel* ch;
};

void checkCurves(Context& cx, const Clip& c, size_t ci) {
    const Model& model = cx.model;
    const std::string label = clipLabel(c, ci);
    const int32_t clipIndex = static_cast<int32_t>(ci);
    const CurveStats& cs = c.curveStats;

    if (cs.unsortedChannels) {
        Finding f{"keys-out-of-order", Severity::Warning,
                  label + ": " + std::to_string(cs.unsortedChannels) + " channels have keys out of time order; sorted on import",
                  cs.unsortedChannels, label + " channels (examples: channels with any curve problem)", {}, cs.examples};
        f.clip = clipIndex;
        add(cx, std::move(f));
    }

    // Duplicate key times, non-unit and sign-flipped rotation keys, scale keys: from the keys.
    uint64_t dupKeys = 0, nonUnit = 0, flips = 0;
    Examples dupEx{cx.s.maxExamples}, nonUnitEx{cx.s.maxExamples}, flipEx{cx.s.maxExamples};
    uint64_t flipChannels = 0;
    Examples degEx{cx.s.maxExamples}, nonUniEx{cx.s.maxExamples}, negEx{cx.s.maxExamples};
    uint64_t nDeg = 0, nNonUni = 0, nNeg = 0;
    float worstRatio = 1.0f;
    int32_t worstRatioNode = -1;
    const char* paths[3] = {"translation", "rotation", "scale"};
    for (const Track& tr : c.tracks) {
        const std::string& nn = nodeName(model, tr.node);
        const Channel* chs[3] = {&tr.translation, &tr.rotation, &tr.scale};
        for (int p = 0; p < 3; ++p) {
            const Channel& ch = *chs[p];
            if (ch.times + ch.count > c.times.size()) continue;
            uint32_t d = 0;
            for (uint32_t k = 1; k < ch.count; ++k) d += c.times[ch.times + k] == c.times[ch.times + k - 1];
            if (d) {
                dupKeys += d;
                dupEx.add(tr.node);
                dupEx.addName(nn + "." + paths[p]);
            }
        }
        const Channel& R = tr.rotation;
        if (R.values + R.count <= c.quatKeys.size()) {
            uint32_t f = 0, nu = 0;
            for (uint32_t k = 0; k < R.count; ++k) {
                const glm::quat& q = c.quatKeys[R.values + k];
                const float len = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
                if (std::isfinite(len) && std::fabs(len - 1.0f) > 1e-3f) ++nu;
                if (k && glm::dot(c.quatKeys[R.values + k - 1], q) < 0.0f) ++f;
            }
            if (nu) {
                nonUnit += nu;
                nonUnitEx.add(tr.node);
                nonUnitEx.addName(nn + ".rotation");
            }
            if (f) {
                flips += f;
                ++flipChannels;
                flipEx.add(tr.node);
                flipEx.addName(nn + ".rotation");
            }
        }
        const Channel& S = tr.scale;
        if (S.values + S.count <= c.vec3Keys.size()) {
            bool deg = false, negative = false, nonUni = false;
            for (uint32_t k = 0; k < S.count; ++k) {
                const glm::vec3& v = c.vec3Keys[S.values + k];
                const glm::vec3 a = glm::abs(v);
                const float lo = std::min({a.x, a.y, a.z}), hi = std::max({a.x, a.y, a.z});
                if (!(lo > cx.s.degenerateScale)) {
                    deg = true;
                    continue;
                }
                if (v.x * v.y * v.z < 0.0f) negative = true;
                const float ratio = hi / lo;
                if (ratio - 1.0f > cx.s.scaleTolerance) {
                    nonUni = true;
                    if (ratio > worstRatio) {
                        worstRatio = ratio;
                        worstRatioNode = tr.node;
                    }
                }
            }
            if (deg) {
                ++nDeg;
                degEx.add(tr.node);
                degEx.addName(nn);
            }
            if (negative) {
                ++nNeg;
                negEx.add(tr.node);
                negEx.addName(nn);
            }
            if (nonUni) {
                ++nNonUni;
                nonUniEx.add(tr.node);
                nonUniEx.addName(nn);
            }
        }
    }
    auto clipFinding = [&](const char* code, Severity sev, const std::string& msg, uint64_t count,
                           const std::string& subject, const Examples& ex, double value = 0.0, int32_t joint = -2) {
        Finding f{code, sev, label + ": " + msg, count, subject, ex.indices, ex.names};
        f.clip = clipIndex;
        f.joint = joint != -2 ? joint : ex.indices.empty() ? -1 : static_cast<int32_t>(ex.indices.front());
        f.value = value;
        add(cx, std::move(f));
    };
    if (dupKeys) {
        clipFinding("duplicate-key-times", Severity::Warning,
                    std::to_string(dupKeys) + " neighbouring keys share their time (e.g. '" + dupEx.names.front() +
                        "'); the curve jumps there",
                    dupKeys, label + " keys (examples: skeleton nodes)", dupEx);
    }
    const uint64_t nonUnitCount = std::max<uint64_t>(nonUnit, cs.nonUnitRotationKeys);
    if (nonUnitCount) {
        Examples ex = nonUnitEx;
        for (const std::string& n : cs.examples) {
            if (n.size() > 9 && n.compare(n.size() - 9, 9, ".rotation") == 0) ex.addName(n);
        }
        clipFinding("non-unit-rotation-keys", Severity::Warning,
                    std::to_string(nonUnitCount) + " rotation keys are not unit quaternions" +
                        (ex.names.empty() ? std::string() : " (e.g. '" + ex.names.front() + "')") +
                        "; normalized on import, other tools may scale the mesh",
                    nonUnitCount, label + " keys (examples: skeleton nodes)", ex);
    }
    if (flips) {
        clipFinding("quaternion-sign-flip", Severity::Info,
                    std::to_string(flips) + " neighbouring rotation keys in " + std::to_string(flipChannels) +
                        " channels have a negative dot product (e.g. '" + flipEx.names.front() +
                        "'); rigview takes the short way, a naive lerp would spin the long way round",
                    flips, label + " key pairs (examples: skeleton nodes)", flipEx);
    }
    if (nDeg) {
        clipFinding("degenerate-transform", Severity::Warning,
                    std::to_string(nDeg) + " joints have scale keys with a zero or near-zero axis (e.g. '" +
                        degEx.names.front() + "'); what hangs below collapses",
                    nDeg, label + " joints (skeleton nodes)", degEx);
    }
    if (nNonUni) {
        clipFinding("non-uniform-scale", Severity::Warning,
                    std::to_string(nNonUni) + " joints have non-uniform scale keys (worst '" +
                        nodeName(model, worstRatioNode) + "', axes " + fmt(worstRatio) + " : 1)",
                    nNonUni, label + " joints (skeleton nodes)", nonUniEx, worstRatio, worstRatioNode);
    }
    if (nNeg) {
        clipFinding("negative-scale", Severity::Warning,
                    std::to_string(nNeg) + " joints have negative scale keys (e.g. '" + negEx.names.front() +
                        "'); the mesh turns inside out below them",
                    nNeg, label + " joints (skeleton nodes)", negEx);
    }
}

// Local rotation of every rotation channel, sampled at the clip's sample rate: a joint turning
// more than the threshold between consecutive samples.
void checkJumps(Context& cx, const Clip& c, size_t ci) {
    const Model& model = cx.model;
    std::vector<RotChannel> rc;
    for (const Track& tr : c.tracks) {
        const Channel& R = tr.rotation;
        if (R.count >= 2 && R.times + R.count <= c.times.size() && R.values + R.count <= c.quatKeys.size()) {
            rc.push_back({tr.node, &R});
        }
    }
    const float t0 = std::min(c.startTime, c.duration), t1 = c.duration;
    if (rc.empty() || !(t1 > t0)) return;
    const float rate = c.sampleRate > 0.0f && std::isfinite(c.sampleRate) ? c.sampleRate : 30.0f;
    const double dt = 1.0 / rate;
    const int64_t frames = static_cast<int64_t>(std::min(1e15, std::floor((t1 - t0) / dt + 1e-4))) + 1;
    // Sample times: t0 + k dt, then t1 if the grid stops short of it.
    const bool tail = t0 + static_cast<double>(frames - 1) * dt < t1 - 1e-6;
    const int64_t samples = frames + (tail ? 1 : 0);
    auto timeAt = [&](int64_t k) {
        return k >= frames ? t1 : static_cast<float>(t0 + static_cast<double>(k) * dt);
    };
    const float threshold = cx.s.rotationJumpDegrees;
    struct Worst {
        float deg = 0.0f;
        float time = 0.0f;
    };
    std::vector<Worst> worst(rc.size());
    const double work = static_cast<double>(samples) * static_cast<double>(rc.size());
    for (size_t i = 0; i < rc.size(); ++i) {
        const Channel& ch = *rc[i].ch;
        uint32_t cursor = 0;
        auto consider = [&](const glm::quat& a, const glm::quat& b, float tb) {
            const float d = angleDegrees(a, b);
            if (d > worst[i].deg) worst[i] = {d, tb};
        };
        if (work <= static_cast<double>(cx.s.maxRotationSamplesPerClip)) {
            glm::quat prev = sampleQuat(c, ch, timeAt(0), cursor, RotationBlend::Slerp);
            for (int64_t k = 1; k < samples; ++k) {
                const float t = timeAt(k);
                const glm::quat q = sampleQuat(c, ch, t, cursor, RotationBlend::Slerp);
                consider(prev, q, t);
                prev = q;
            }
        } else if (samples >= 2) {
            // Too long to walk every frame: pairs of consecutive frames spread over the clip.
            const int64_t pairs = std::max<int64_t>(2, cx.s.maxRotationSamplesPerClip / (2 * static_cast<int64_t>(rc.size())));
            for (int64_t p = 0; p < pairs; ++p) {
                const int64_t k = static_cast<int64_t>(static_cast<double>(samples - 2) * static_cast<double>(p) /
                                                       static_cast<double>(pairs - 1));
                const glm::quat a = sampleQuat(c, ch, timeAt(k), cursor, RotationBlend::Slerp);
                const glm::quat b = sampleQuat(c, ch, timeAt(k + 1), cursor, RotationBlend::Slerp);
                consider(a, b, timeAt(k + 1));
            }
        }
    }
    Examples ex{cx.s.maxExamples};
    uint64_t count = 0;
    size_t w = 0;
    for (size_t i = 0; i < rc.size(); ++i) {
        if (!(worst[i].deg > threshold)) continue;
        ++count;
        ex.add(rc[i].node);
        ex.addName(nodeName(model, rc[i].node));
        if (worst[i].deg > worst[w].deg || !(worst[w].deg > threshold)) w = i;
    }
    if (!count) return;
    const std::string label = clipLabel(c, ci);
    Finding f{"sudden-rotation-jump", Severity::Warning,
              label + ": " + std::to_string(count) + " joints turn more than " + fmt(threshold) +
                  " degrees between two frames at " + fmt(rate) + " fps (worst '" + nodeName(model, rc[w].node) + "': " +
                  fmt(worst[w].deg) + " degrees just before " + fmt(worst[w].time) + " s)",
              count, label + " joints (skeleton nodes)", ex.indices, ex.names};
    f.clip = static_cast<int32_t>(ci);
    f.joint = rc[w].node;
    f.value = worst[w].deg;
    add(cx, std::move(f));
}

// Nothing moves over the whole clip: every channel's keys stay at its first key.
void checkStatic(Context& cx, const Clip& c, size_t ci) {
    if (c.tracks.empty() || !(c.duration > std::min(c.startTime, c.duration))) return;
    const float posTol = cx.s.staticPositionTolerance * cx.rigSize;
    for (const Track& tr : c.tracks) {
        const Channel& T = tr.translation;
        for (uint32_t k = 1; k < T.count && T.values + T.count <= c.vec3Keys.size(); ++k) {
            if (glm::length(c.vec3Keys[T.values + k] - c.vec3Keys[T.values]) > posTol) return;
        }
        const Channel& R = tr.rotation;
        for (uint32_t k = 1; k < R.count && R.values + R.count <= c.quatKeys.size(); ++k) {
            if (angleDegrees(c.quatKeys[R.values], c.quatKeys[R.values + k]) > cx.s.staticRotationDegrees) return;
        }
        const Channel& S = tr.scale;
        for (uint32_t k = 1; k < S.count && S.values + S.count <= c.vec3Keys.size(); ++k) {
            const glm::vec3 d = glm::abs(c.vec3Keys[S.values + k] - c.vec3Keys[S.values]);
            if (std::max({d.x, d.y, d.z}) > 1e-4f) return;
        }
    }
    const std::string label = clipLabel(c, ci);
    Finding f{"clip-static", Severity::Warning,
              label + ": nothing moves over the whole clip (" + std::to_string(c.tracks.size()) +
                  " animated nodes hold one pose from " + fmt(c.startTime) + " s to " + fmt(c.duration) + " s)",
              c.tracks.size(), label, {}, {c.name}};
    f.clip = static_cast<int32_t>(ci);
    add(cx, std::move(f));
}

// Keys that interpolating their neighbours restores within redundantKeyTolerance, measured
// in model space at the points each joint carries (anim/offline/compress's key reduction,
// without quantization).
void checkRedundantKeys(Context& cx, const Clip& c, size_t ci) {
    const RedundancyStats st = findRedundantKeys(cx.model, c, cx.s.redundantKeyTolerance);
    if (st.keys == 0 || st.redundant < cx.s.redundantKeyMinimum ||
        static_cast<double>(st.redundant) < cx.s.redundantKeyFraction * static_cast<double>(st.keys)) {
        return;
    }
    const std::string label = clipLabel(c, ci);
    std::string msg = label + ": " + std::to_string(st.redundant) + " of " + std::to_string(st.keys) + " keys (" +
                      fmt(100.0 * double(st.redundant) / double(st.keys)) + "%) are redundant: their neighbours restore them within " +
                      fmt(cx.s.redundantKeyTolerance * 1e3) + " mm at every joint and vertex";
    if (st.constantChannels) msg += "; " + std::to_string(st.constantChannels) + " channels hold one value on every key";
    msg += " (most in '" + st.exampleChannel + "'); `rigview compress` drops them";
    Finding f{"redundant-keys", Severity::Info, msg, st.redundant, label + " keys", {}, {c.name}};
    f.clip = static_cast<int32_t>(ci);
    f.value = double(st.redundant) / double(st.keys);
    add(cx, std::move(f));
}

bool isAncestorOrSelf(const Skeleton& sk, int32_t a, int32_t n) {
    while (n >= 0) {
        if (n == a) return true;
        n = n < static_cast<int32_t>(sk.parent.size()) ? sk.parent[n] : -1;
    }
    return false;
}

// First and last pose of a clip. Looping playback goes from the last pose straight to the
// first, so a seam is a jump there that is both over the tolerance and clearly bigger than
// an ordinary frame step at the clip's ends (exporters that leave out the closing frame,
// which repeats the first, make the wrap an ordinary one-frame step: no seam).
void checkLoopSeam(Context& cx, Animator& anim, const std::vector<int32_t>& joints, const Clip& c, size_t ci) {
    const Model& model = cx.model;
    const Skeleton& sk = model.skeleton;
    const float t0 = std::min(c.startTime, c.duration), t1 = c.duration;
    if (c.tracks.empty() || !(t1 > t0)) return;
    // Root motion: the top-most node with a moving translation channel, if every other
    // animated node hangs below it.
    int32_t rootMotion = -1;
    for (const Track& tr : c.tracks) {
        if (tr.translation.count >= 2) {
            rootMotion = tr.node;
            break;  // tracks are in node order: the first is the top-most
        }
    }
    if (rootMotion >= 0) {
        for (const Track& tr : c.tracks) {
            if (!isAncestorOrSelf(sk, rootMotion, tr.node)) {
                rootMotion = -1;
                break;
            }
        }
    }
    // Nodes compared: the joints and every animated node (positions); animated nodes with a
    // rotation channel (local rotations).
    std::vector<int32_t> nodes = joints;
    for (const Track& tr : c.tracks) nodes.push_back(tr.node);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    std::vector<int32_t> rotNodes;
    for (const Track& tr : c.tracks)
        if (tr.rotation.count >= 2) rotNodes.push_back(tr.node);

    struct Pose {
        std::vector<glm::vec3> pos;
        std::vector<glm::quat> rot;
    };
    const int32_t clip = static_cast<int32_t>(ci);
    auto poseAt = [&](float t) {
        anim.evaluate(clip, t);
        Pose p;
        const glm::vec3 root = rootMotion >= 0 ? glm::vec3(anim.world()[rootMotion][3]) : glm::vec3(0.0f);
        p.pos.reserve(nodes.size());
        for (int32_t n : nodes) p.pos.push_back(glm::vec3(anim.world()[n][3]) - root);
        p.rot.reserve(rotNodes.size());
        for (int32_t n : rotNodes) p.rot.push_back(anim.local()[n].rotation);
        return p;
    };
    const float rate = c.sampleRate > 0.0f && std::isfinite(c.sampleRate) ? c.sampleRate : 30.0f;
    const float dt = std::min(1.0f / rate, 0.5f * (t1 - t0));
    const Pose first = poseAt(t0), afterFirst = poseAt(t0 + dt), beforeLast = poseAt(t1 - dt), last = poseAt(t1);

    const float posTol = cx.s.loopPositionTolerance * cx.rigSize;
    const float rotTol = cx.s.loopRotationDegrees;
    const float factor = cx.s.loopSeamStepFactor;
    float worstPos = 0.0f, worstRot = 0.0f, stepPos = 0.0f, stepRot = 0.0f;
    int32_t worstPosNode = -1, worstRotNode = -1;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const float seam = glm::length(last.pos[i] - first.pos[i]);
        const float step = std::max(glm::length(afterFirst.pos[i] - first.pos[i]), glm::length(last.pos[i] - beforeLast.pos[i]));
        if (seam > posTol && seam > factor * step && seam > worstPos) {
            worstPos = seam;
            stepPos = step;
            worstPosNode = nodes[i];
        }
    }
    for (size_t i = 0; i < rotNodes.size(); ++i) {
        const float seam = angleDegrees(first.rot[i], last.rot[i]);
        const float step = std::max(angleDegrees(first.rot[i], afterFirst.rot[i]), angleDegrees(beforeLast.rot[i], last.rot[i]));
        if (seam > rotTol && seam > factor * step && seam > worstRot) {
            worstRot = seam;
            stepRot = step;
            worstRotNode = rotNodes[i];
        }
    }
    if (worstPosNode < 0 && worstRotNode < 0) return;
    const bool loops = clipMeantToLoop(c.name, cx.s);
    const std::string label = clipLabel(c, ci);
    std::string what;
    if (worstPosNode >= 0) {
        what = "'" + nodeName(model, worstPosNode) + "' is " + fmt(worstPos) + " units away (a frame moves it " +
               fmt(stepPos) + ")";
    }
    if (worstRotNode >= 0) {
        what += (what.empty() ? "" : "; ") + std::string("'") + nodeName(model, worstRotNode) + "' is turned " +
                fmt(worstRot) + " degrees (a frame turns it " + fmt(stepRot) + ")";
    }
    const int32_t joint = worstPosNode >= 0 ? worstPosNode : worstRotNode;
    Finding f{"loop-seam", loops ? Severity::Warning : Severity::Info,
              label + ": the last pose does not lead back into the first: " + what + "; " +
                  (loops ? "the clip is named as a loop and pops at the seam"
                         : "it pops if played as a loop (its name does not say it loops)"),
              1, label, {}, {nodeName(model, joint)}};
    f.clip = clip;
    f.joint = joint;
    f.value = worstPos;
    add(cx, std::move(f));
}

void checkClips(Context& cx) {
    checkClipList(cx);
    const Model& model = cx.model;
    if (model.clips.empty()) return;
    Animator anim(model);
    const std::vector<int32_t> joints = model.jointNodes();
    for (size_t ci = 0; ci < model.clips.size(); ++ci) {
        const Clip& c = model.clips[ci];
        checkCurves(cx, c, ci);
        checkJumps(cx, c, ci);
        checkStatic(cx, c, ci);
        checkRedundantKeys(cx, c, ci);
        // Posing needs the node -> track map (models built by hand may lack it).
        if (c.trackOfNode.size() >= model.skeleton.size()) checkLoopSeam(cx, anim, joints, c, ci);
    }
}

std::vector<uint8_t> relevantNodes(const Model& model) {
    const Skeleton& sk = model.skeleton;
    std::vector<uint8_t> rel(sk.size(), 0);
    auto mark = [&](int32_t n) {
        while (n >= 0 && static_cast<size_t>(n) < sk.size() && !rel[n]) {
            rel[n] = 1;
            n = sk.parent[n];
        }
    };
    for (const Mesh& m : model.meshes) {
        if (!m.skinned) continue;
        mark(m.node);
        for (int32_t j : m.skin.joints) mark(j);
    }
    for (const Clip& c : model.clips)
        for (const Track& t : c.tracks) mark(t.node);
    return rel;
}

}  // namespace

bool clipMeantToLoop(const std::string& name, const CheckSettings& settings) {
    std::string lower = name;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const std::string& hint : settings.loopNameHints) {
        std::string h = hint;
        for (char& ch : h) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (!h.empty() && lower.find(h) != std::string::npos) return true;
    }
    return false;
}

float rigSize(const Model& model) {
    const Skeleton& sk = model.skeleton;
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    auto grow = [&](const glm::vec3& p) {
        if (!finiteVec(p)) return;
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    };
    for (int32_t j : model.jointNodes()) {
        if (static_cast<size_t>(j) < sk.bindModel.size()) grow(glm::vec3(sk.bindModel[j][3]));
    }
    for (const Mesh& m : model.meshes) {
        if (m.node < 0 || static_cast<size_t>(m.node) >= sk.bindModel.size()) continue;
        const glm::mat4& w = sk.bindModel[m.node];
        for (const glm::vec3& p : m.positions) grow(glm::vec3(w * glm::vec4(p, 1.0f)));
    }
    if (!(hi.x >= lo.x)) return 1.0f;
    const float d = glm::length(hi - lo);
    return d > 0.0f && std::isfinite(d) ? d : 1.0f;
}

// ---------------------------------------------------------------------------------------
// Import: what the format cannot give, and what import repaired.

void checkImport(Context& cx) {
    const ImportStats& s = cx.model.stats;
    if (!s.formatLimitation.empty()) {
        add(cx, {"blend-not-supported", Severity::Error, s.formatLimitation, 1, "file", {}, {}});
    }
    for (const char* code : {"repaired-keys", "repaired-channels"}) {
        std::vector<std::string> what;
        for (const ImportRepair& rep : s.repairs) {
            if (rep.code == code) what.push_back(rep.what);
        }
        if (what.empty()) continue;
        std::string msg = "Assimp's validation refused the file; rigview repaired it: ";
        for (size_t i = 0; i < what.size(); ++i) msg += (i ? "; " : "") + what[i];
        add(cx, {code, Severity::Warning, msg, what.size(), "repairs", {}, {}});
    }
}

Report checkModel(const Model& model) { return checkModel(model, CheckSettings{}); }

Report checkModel(const Model& model, const CheckSettings& settings) {
    Report r;
    Context cx{model, settings, r};
    cx.rigSize = rigSize(model);
    cx.relevant = relevantNodes(model);
    checkMeshes(cx);
    checkNonFinite(cx);
    checkNames(cx);
    checkBindTransforms(cx);
    checkTextures(cx);
    checkResources(cx);
    checkClips(cx);
    checkImport(cx);
    std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
        return static_cast<int>(a.severity) > static_cast<int>(b.severity);
    });
    return r;
}

}  // namespace rig
