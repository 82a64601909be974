// Weights, skins and limits: the findings about each mesh (one per mesh and code), and the
// skin joints that move nothing (one per model).
#include <algorithm>
#include <cmath>
#include <limits>

#include "anim/runtime/pose.h"
#include "check/check_context.h"
#include "check/vertex_views.h"

namespace rig::checks {

namespace {

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
    const size_t kept = static_cast<size_t>(cx.s.influences);
    size_t perPose = 0;
    for (const Mesh& m : model.meshes) {
        if (!m.skinned) continue;
        for (const FullInfluences& full : m.truncated) perPose += full.influences.size() > kept ? 1 : 0;
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
                if (full.influences.size() <= kept) continue;
                const float d = truncationDistance(mesh, full, palette, meshWorld, cx.s.influences);
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
        Finding f = makeFinding(CheckCode::BindPoseMismatch,
                                label + ": " + std::to_string(bad) + " of " + std::to_string(nj) +
                                    " joints have an offset matrix that disagrees with the inverse of the joint's bind-pose transform; "
                                    "at the bind pose the vertices they move render up to " + fmt(worst) + " units away from " +
                                    (refIsNode ? "where the mesh's node puts them" : "the rest of the mesh") + " (worst '" +
                                    nodeName(model, worstJoint) + "'): the mesh renders distorted",
                                bad, label + " joints (skeleton nodes)", ex.indices, ex.names);
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
    Finding f = makeFinding(CheckCode::BindPoseMeshAway,
                            label + (js.size() == 1 ? std::string(": the offset matrix of its only weighted joint disagrees")
                                                    : ": the offset matrices of all " + std::to_string(js.size()) +
                                                          " weighted joints agree with each other but not") +
                                " with the mesh's node: at the bind pose the whole mesh "
                                "sits up to " + fmt(shift) + " units from where its node would put it, undistorted (glTF and .X "
                                "ignore a skinned mesh's node transform, as rigview does)",
                            js.size(), label + " joints (skeleton nodes)", ex.indices, ex.names);
    f.mesh = static_cast<int32_t>(mi);
    f.joint = m.skin.joints[js[dominant].slot];
    f.value = shift;
    add(cx, std::move(f));
}

}  // namespace

void checkMeshes(Context& cx) {
    const Model& model = cx.model;
    const std::vector<Truncation> trunc = worstTruncation(cx);
    for (size_t i = 0; i < model.meshes.size(); ++i) {
        const Mesh& m = model.meshes[i];
        const std::string label = meshLabel(m, i);
        const int32_t mi = static_cast<int32_t>(i);
        if (m.vertexCount() > 65535) {
            Finding f = makeFinding(CheckCode::Needs32BitIndices,
                                    label + ": " + std::to_string(m.vertexCount()) +
                                        " vertices; 16-bit indices address at most 65535, so this mesh needs 32-bit indices "
                                        "(or splitting) in engines that use 16-bit index buffers",
                                    m.vertexCount(), label, {}, {});
            f.mesh = mi;
            f.value = static_cast<double>(m.vertexCount());
            add(cx, std::move(f));
        }
        if (!m.skinned) continue;
        const WeightStats& ws = m.weightStats;
        if (ws.unnormalizedVertices) {
            Finding f = makeFinding(CheckCode::WeightsNotNormalized,
                                    label + ": " + std::to_string(ws.unnormalizedVertices) +
                                        " vertices have weights that do not sum to 1 (worst off by " + fmt(ws.worstSumError) +
                                        "); renormalized on import",
                                    ws.unnormalizedVertices, label + " vertices", toExamples(ws.unnormalizedExamples), {});
            f.mesh = mi;
            f.value = ws.worstSumError;
            add(cx, std::move(f));
        }
        // Vertices with more influences than skinning keeps (4, or 8 with --influences 8).
        uint32_t over = ws.truncatedVertices;
        std::vector<uint32_t> overExamples = ws.truncatedExamples;
        if (cx.s.influences > kMaxInfluences) {
            over = 0;
            overExamples.clear();
            for (const FullInfluences& full : m.truncated) {
                if (full.influences.size() <= static_cast<size_t>(cx.s.influences)) continue;
                ++over;
                if (overExamples.size() < cx.s.maxExamples) overExamples.push_back(full.vertex);
            }
        }
        if (over) {
            const Truncation& t = trunc[i];
            const std::string keep = std::to_string(cx.s.influences);
            std::string where = t.clip >= 0 ? "in " + clipLabel(model.clips[t.clip], t.clip) + " at " + fmt(t.time) + " s"
                                             : "at the bind pose";
            Finding f = makeFinding(CheckCode::TooManyInfluences,
                                    label + ": " + std::to_string(over) + " vertices have more than " + keep +
                                        " influences (up to " + std::to_string(ws.maxInfluences) + "); the " + keep +
                                        " strongest are kept; worst truncation error " + fmt(t.worst) +
                                        " units (vertex " + std::to_string(t.vertex) + ", " + where + ")",
                                    over, label + " vertices", toExamples(overExamples), {});
            f.mesh = mi;
            f.clip = t.clip;
            f.value = t.worst;
            add(cx, std::move(f));
        }
        if (ws.unweightedVertices) {
            Finding f = makeFinding(CheckCode::UnweightedVertices,
                                    label + ": " + std::to_string(ws.unweightedVertices) + " of " + std::to_string(m.vertexCount()) +
                                        " vertices carry no weight; they follow the mesh's node rigidly",
                                    ws.unweightedVertices, label + " vertices", toExamples(ws.unweightedExamples), {});
            f.mesh = mi;
            add(cx, std::move(f));
        }
        if (ws.invalidWeights) {
            Finding f = makeFinding(CheckCode::InvalidWeights,
                                    label + ": " + std::to_string(ws.invalidWeights) +
                                        " weights are NaN, infinite, negative or name a vertex that does not exist; dropped",
                                    ws.invalidWeights, label, {}, {});
            f.mesh = mi;
            add(cx, std::move(f));
        }
        if (!m.missingBones.empty()) {
            Finding f = makeFinding(CheckCode::BoneMissingFromHierarchy,
                                    label + ": " + std::to_string(m.missingBones.size()) +
                                        " bones name no node of the hierarchy; their weights are dropped",
                                    m.missingBones.size(), label + " bones", {}, m.missingBones);
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
            Finding f = makeFinding(CheckCode::OffsetMatrixComputed,
                                    label + ": " + std::to_string(computed) +
                                        " bones have a singular or non-finite offset matrix; computed from the bind pose",
                                    computed, label + " bones", {}, names.names);
            f.mesh = mi;
            f.joint = firstComputed;
            add(cx, std::move(f));
        }
        if (nonFinite) {
            Finding f = makeFinding(CheckCode::NonFiniteOffsetMatrix,
                                    label + ": " + std::to_string(nonFinite) + " bones have NaN or infinite offset matrices",
                                    nonFinite, label + " joints (skeleton nodes)", nonFiniteNames.indices, nonFiniteNames.names);
            f.mesh = mi;
            f.joint = firstNonFinite;
            add(cx, std::move(f));
        }
        if (m.skin.joints.size() > 65535) {
            Finding f = makeFinding(CheckCode::TooManyJoints,
                                    label + ": " + std::to_string(m.skin.joints.size()) +
                                        " joints in one skin; more than 65535 cannot be addressed by 16-bit joint indices",
                                    m.skin.joints.size(), label, {}, {});
            f.mesh = mi;
            add(cx, std::move(f));
        } else if (m.skin.joints.size() > cx.s.uniformPaletteJoints) {
            Finding f = makeFinding(CheckCode::TooManyJointsForGpu,
                                    label + ": " + std::to_string(m.skin.joints.size()) + " joints in one skin; rigview draws it "
                                        "(palette in a texture buffer) but engines with a fixed " +
                                        std::to_string(cx.s.uniformPaletteJoints) + "-entry uniform palette cannot",
                                    m.skin.joints.size(), label, {}, {});
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
        Finding f = makeFinding(CheckCode::JointInfluencesNothing,
                                std::to_string(idleCount) + " skin joints carry no weight on any vertex (e.g. '" +
                                    nodeName(model, firstIdle) + "'); they move nothing",
                                idleCount, "joints (skeleton nodes)", idle.indices, idle.names);
        f.joint = firstIdle;
        add(cx, std::move(f));
    }
}

}  // namespace rig::checks
