#include "import/assimp/node_binding.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "import/import.h"
#include "import/assimp/scene_convert.h"

namespace rig::scene {

namespace {

// What uniquifyBoneNames puts between a repeated bone name and its number.
constexpr char kBoneSuffix = '\x1f';

// Whether Assimp's channel has the key counts and time range of a glTF target. For a path
// the target does not animate, Assimp 5.2.5 adds one key holding the node's default value.
bool sameKeys(const aiNodeAnim* na, const gltf::Nodes::Target& t, double tps) {
    const unsigned counts[3] = {na->mNumPositionKeys, na->mNumRotationKeys, na->mNumScalingKeys};
    const double times[3][2] = {
        {na->mNumPositionKeys ? na->mPositionKeys[0].mTime : 0.0, na->mNumPositionKeys ? na->mPositionKeys[na->mNumPositionKeys - 1].mTime : 0.0},
        {na->mNumRotationKeys ? na->mRotationKeys[0].mTime : 0.0, na->mNumRotationKeys ? na->mRotationKeys[na->mNumRotationKeys - 1].mTime : 0.0},
        {na->mNumScalingKeys ? na->mScalingKeys[0].mTime : 0.0, na->mNumScalingKeys ? na->mScalingKeys[na->mNumScalingKeys - 1].mTime : 0.0}};
    bool any = false;
    float first = 0.0f, last = 0.0f;
    for (int k = 0; k < 3; ++k) {
        if (t.counts[k] == 0) {
            if (counts[k] > 1) return false;
            continue;
        }
        if (counts[k] != t.counts[k]) return false;
        const float a = static_cast<float>(times[k][0] / tps), b = static_cast<float>(times[k][1] / tps);
        first = any ? std::min(first, a) : a;
        last = any ? std::max(last, b) : b;
        any = true;
    }
    const float tol = 1e-4f * std::max(1.0f, std::fabs(t.last));
    return any && std::fabs(first - t.first) <= tol && std::fabs(last - t.last) <= tol;
}

// Whether the channel's first and last key values are the target's (where they were read).
bool sameValues(const aiNodeAnim* na, const gltf::Nodes::Target& t) {
    auto close = [](const float* a, const float* b, int n, bool sign) {
        float d = 0.0f, e = 0.0f;
        for (int i = 0; i < n; ++i) {
            d = std::max(d, std::fabs(a[i] - b[i]));
            e = std::max(e, std::fabs(a[i] + b[i]));
        }
        return d <= 1e-5f || (sign && e <= 1e-5f);
    };
    for (int k = 0; k < 3; ++k) {
        if (!t.hasValues[k] || t.counts[k] == 0) continue;
        float first[4] = {}, last[4] = {};
        if (k == 1) {
            if (!na->mNumRotationKeys) return false;
            const aiQuaternion& a = na->mRotationKeys[0].mValue;
            const aiQuaternion& b = na->mRotationKeys[na->mNumRotationKeys - 1].mValue;
            const float fa[4] = {a.x, a.y, a.z, a.w}, fb[4] = {b.x, b.y, b.z, b.w};
            std::copy(fa, fa + 4, first);
            std::copy(fb, fb + 4, last);
        } else {
            const aiVectorKey* keys = k == 0 ? na->mPositionKeys : na->mScalingKeys;
            const unsigned count = k == 0 ? na->mNumPositionKeys : na->mNumScalingKeys;
            if (!count) return false;
            const aiVector3D& a = keys[0].mValue;
            const aiVector3D& b = keys[count - 1].mValue;
            const float fa[3] = {a.x, a.y, a.z}, fb[3] = {b.x, b.y, b.z};
            std::copy(fa, fa + 3, first);
            std::copy(fb, fb + 3, last);
        }
        const int n = k == 1 ? 4 : 3;
        if (!close(first, t.firstValue[k], n, k == 1) || !close(last, t.lastValue[k], n, k == 1)) return false;
    }
    return true;
}

}  // namespace

void uniquifyBoneNames(aiScene* scene) {
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        aiMesh* am = scene->mMeshes[m];
        if (!am || !am->mBones) continue;
        std::unordered_set<std::string> seen;
        for (unsigned b = 0; b < am->mNumBones; ++b) {
            if (!am->mBones[b]) continue;
            std::string name = am->mBones[b]->mName.C_Str();
            if (seen.insert(name).second) continue;
            for (unsigned k = 2;; ++k) {
                const std::string unique = name + kBoneSuffix + std::to_string(k);
                if (unique.size() < MAXLEN && seen.insert(unique).second) {
                    am->mBones[b]->mName.Set(unique);
                    break;
                }
                if (unique.size() >= MAXLEN) break;
            }
        }
    }
}

std::string boneName(const aiBone* bone) {
    const std::string name = bone->mName.C_Str();
    const size_t cut = name.find(kBoneSuffix);
    return cut == std::string::npos ? name : name.substr(0, cut);
}

NodeBinder::NodeBinder(const Skeleton& sk, const std::vector<const aiNode*>& nodes, const gltf::Nodes& gltf,
                       ImportStats& stats)
    : sk_(sk), gltf_(gltf), stats_(stats), hasMesh_(sk.size(), 0), isJoint_(sk.size(), 0) {
    for (size_t i = 0; i < sk.size(); ++i) {
        byName_[sk.names[i]].push_back(static_cast<int32_t>(i));
        hasMesh_[i] = nodes[i]->mNumMeshes > 0;
    }
}

std::vector<int32_t> NodeBinder::bindBones(const aiMesh* am, int32_t meshNode, const std::string& meshLabel) {
    std::vector<int32_t> out(am->mNumBones, -1);
    const std::vector<int32_t>* joints = gltfSkin(meshNode);
    std::vector<size_t> ambiguous;
    for (unsigned b = 0; b < am->mNumBones; ++b) {
        if (!am->mBones[b]) continue;
        const std::string name = boneName(am->mBones[b]);
        const std::vector<int32_t>* cands = candidates(name);
        if (joints && joints->size() == am->mNumBones && (*joints)[b] >= 0 &&
            (sk_.names[(*joints)[b]] == name || name.rfind("bone_", 0) == 0)) {
            out[b] = (*joints)[b];
            if (cands && cands->size() > 1) note(name, "bone of mesh " + meshLabel, *cands, out[b], "glTF skin.joints", true);
        } else if (cands && cands->size() == 1) {
            out[b] = cands->front();
        } else if (cands) {
            ambiguous.push_back(b);
        }
    }
    // The skin's skeleton: the common ancestor of the joints already known.
    int32_t top = -1;
    for (int32_t n : out) {
        if (n >= 0) top = top < 0 ? n : commonAncestor(top, n);
    }
    for (size_t b : ambiguous) {
        const std::string name = boneName(am->mBones[b]);
        const std::vector<int32_t>& cands = *candidates(name);
        // Where the offset says the bone was bound: meshToRoot * inverse(offset) (seed 000).
        const glm::mat4 offset = toGlm(am->mBones[b]->mOffsetMatrix);
        const glm::vec3 bound = finite(offset) && meshNode >= 0
                                    ? glm::vec3((sk_.bindModel[meshNode] * glm::inverse(offset))[3])
                                    : glm::vec3(std::numeric_limits<float>::quiet_NaN());
        std::vector<int> score(cands.size(), 0);
        int atBind = 0;
        for (size_t k = 0; k < cands.size(); ++k) {
            const int32_t c = cands[k];
            const bool inside = top >= 0 && (isAncestorOrSelf(top, c) || isAncestorOrSelf(c, top));
            const glm::vec3 at(sk_.bindModel[c][3]);
            const bool there = finite(bound) && glm::length(at - bound) <= 1e-4f * (1.0f + glm::length(bound));
            atBind += there ? 1 : 0;
            score[k] = (inside ? 2 : 0) + (hasMesh_[c] ? 0 : 1) + (there ? 4 : 0);
        }
        out[b] = pick(cands, score, name, "bone of mesh " + meshLabel,
                      atBind == 1 ? "the node where its offset matrix says it was bound"
                                  : "inside the skin's skeleton and not a mesh node");
    }
    for (int32_t n : out) {
        if (n >= 0) isJoint_[n] = 1;
    }
    return out;
}

std::vector<int32_t> NodeBinder::bindChannels(const aiAnimation* anim, size_t index, const std::string& clipLabel) {
    std::vector<int32_t> out(anim->mNumChannels, -1);
    const std::vector<gltf::Nodes::Target>* targets =
        gltf_.valid && index < gltf_.animationTargets.size() ? &gltf_.animationTargets[index] : nullptr;
    std::vector<uint8_t> taken(sk_.size(), 0);
    for (unsigned c = 0; c < anim->mNumChannels; ++c) {
        const aiNodeAnim* na = anim->mChannels[c];
        if (!na) continue;
        const std::string name = na->mNodeName.C_Str();
        const std::vector<int32_t>* cands = candidates(name);
        if (!cands) continue;
        if (cands->size() == 1) {
            out[c] = cands->front();
            continue;
        }
        const std::string usedBy = "channel of clip " + clipLabel;
        if (targets) {
            // The animation's targets of that name, told apart by their key counts and range.
            const double tps = anim->mTicksPerSecond > 0.0 ? anim->mTicksPerSecond : kDefaultTicksPerSecond;
            std::vector<int32_t> match;
            for (const gltf::Nodes::Target& t : *targets) {
                if (sk_.names[t.node] != name || taken[t.node]) continue;
                if (sameKeys(na, t, tps)) match.push_back(t.node);
            }
            if (match.size() > 1) {
                // Alike in key counts and times: tell them apart by their key values.
                std::vector<int32_t> byValue;
                for (int32_t node : match) {
                    for (const gltf::Nodes::Target& t : *targets)
                        if (t.node == node && sameValues(na, t)) byValue.push_back(node);
                }
                if (!byValue.empty()) match = byValue;
            }
            if (!match.empty()) {
                out[c] = match.front();
                taken[out[c]] = 1;
                note(name, usedBy, *cands, out[c],
                     match.size() == 1 ? "glTF channel target.node" : "glTF target.node, first of targets alike",
                     match.size() == 1);
                continue;
            }
        }
        std::vector<int> score(cands->size(), 0);
        for (size_t k = 0; k < cands->size(); ++k) {
            const int32_t n = (*cands)[k];
            score[k] = (taken[n] ? -8 : 0) + (isJoint_[n] ? 2 : 0) + (hasMesh_[n] ? 0 : 1);
        }
        out[c] = pick(*cands, score, name, usedBy, "a skin joint, not a mesh node");
        taken[out[c]] = 1;
    }
    return out;
}

const std::vector<int32_t>* NodeBinder::candidates(const std::string& name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : &it->second;
}

const std::vector<int32_t>* NodeBinder::gltfSkin(int32_t meshNode) const {
    if (!gltf_.valid || meshNode < 0 || static_cast<size_t>(meshNode) >= gltf_.jsonOfNode.size()) return nullptr;
    const int32_t j = gltf_.jsonOfNode[meshNode];
    if (j < 0 || static_cast<size_t>(j) >= gltf_.skinOfJson.size()) return nullptr;
    const int32_t skin = gltf_.skinOfJson[j];
    return skin >= 0 && static_cast<size_t>(skin) < gltf_.skinJoints.size() ? &gltf_.skinJoints[skin] : nullptr;
}

bool NodeBinder::isAncestorOrSelf(int32_t a, int32_t n) const {
    for (; n >= 0; n = sk_.parent[n]) {
        if (n == a) return true;
    }
    return false;
}

int32_t NodeBinder::commonAncestor(int32_t a, int32_t b) const {
    for (; a >= 0; a = sk_.parent[a]) {
        if (isAncestorOrSelf(a, b)) return a;
    }
    return -1;
}

int32_t NodeBinder::pick(const std::vector<int32_t>& cands, const std::vector<int>& score, const std::string& name,
                         const std::string& usedBy, const std::string& rule) {
    size_t best = 0;
    for (size_t k = 1; k < cands.size(); ++k) {
        if (score[k] > score[best]) best = k;
    }
    const bool unique = std::count(score.begin(), score.end(), score[best]) == 1;
    note(name, usedBy, cands, cands[best], unique ? rule : "first of the nodes alike (ambiguous)", unique);
    return cands[best];
}

void NodeBinder::note(const std::string& name, const std::string& usedBy, const std::vector<int32_t>& cands,
                      int32_t chosen, const std::string& rule, bool safe) {
    for (const NameBinding& b : stats_.nameBindings) {
        if (b.name == name && b.chosen == chosen && b.rule == rule) return;
    }
    stats_.nameBindings.push_back({name, usedBy, cands, chosen, rule, safe});
}

}  // namespace rig::scene
