#include "import/assimp/fbx_chain.h"

#include <assimp/SceneCombiner.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "import/assimp/scene_repair.h"

namespace rig::scene {

namespace {

constexpr std::string_view kTag = "_$AssimpFbx$_";

// The chain's terms in Assimp's order (the order of the helper nodes above the node).
enum class Term {
    Translation, RotationOffset, RotationPivot, PreRotation, Rotation, PostRotation, RotationPivotInverse,
    ScalingOffset, ScalingPivot, Scaling, ScalingPivotInverse, GeometricTranslation, GeometricRotation,
    GeometricScaling,
    // Below the node, before its children.
    GeometricScalingInverse, GeometricRotationInverse, GeometricTranslationInverse,
    Count
};

constexpr std::array<std::string_view, static_cast<size_t>(Term::Count)> kTermNames = {
    "Translation", "RotationOffset", "RotationPivot", "PreRotation", "Rotation", "PostRotation", "RotationPivotInverse",
    "ScalingOffset", "ScalingPivot", "Scaling", "ScalingPivotInverse", "GeometricTranslation", "GeometricRotation",
    "GeometricScaling", "GeometricScalingInverse", "GeometricRotationInverse", "GeometricTranslationInverse"};

bool isGeometric(Term t) { return t >= Term::GeometricTranslation; }
bool isPost(Term t) { return t >= Term::GeometricScalingInverse; }

// "<base>_$AssimpFbx$_<Term>" -> base and term; false for any other name.
bool splitHelperName(const aiString& name, std::string& base, Term& term) {
    const std::string_view s(name.C_Str(), name.length);
    const size_t at = s.rfind(kTag);
    if (at == std::string_view::npos) return false;
    const std::string_view suffix = s.substr(at + kTag.size());
    for (size_t i = 0; i < kTermNames.size(); ++i) {
        if (suffix == kTermNames[i]) {
            base.assign(s.substr(0, at));
            term = static_cast<Term>(i);
            return true;
        }
    }
    return false;
}

bool named(const aiNode* n, const std::string& name) {
    return n && n->mName.length == name.size() && std::memcmp(n->mName.C_Str(), name.data(), name.size()) == 0;
}

// One node's folded chain.
struct Chain {
    aiNode* node = nullptr;                // the file's node (Assimp's last node of the chain)
    std::string name;
    std::vector<std::pair<Term, aiMatrix4x4>> terms;  // above the node, in order
    aiMatrix4x4 geometric;                 // product of the geometric terms
    bool hasGeometric = false;
};

// ---- key sampling ---------------------------------------------------------------------------

aiVector3D sampleVector(const aiVectorKey* keys, unsigned n, double t, const aiVector3D& fallback) {
    if (!keys || n == 0) return fallback;
    if (t <= keys[0].mTime) return keys[0].mValue;
    if (t >= keys[n - 1].mTime) return keys[n - 1].mValue;
    const aiVectorKey* hi = std::upper_bound(keys, keys + n, t, [](double v, const aiVectorKey& k) { return v < k.mTime; });
    const aiVectorKey* lo = hi - 1;
    const double span = hi->mTime - lo->mTime;
    const float f = span > 0.0 ? static_cast<float>((t - lo->mTime) / span) : 0.0f;
    return lo->mValue + (hi->mValue - lo->mValue) * f;
}

aiQuaternion sampleQuat(const aiQuatKey* keys, unsigned n, double t) {
    if (!keys || n == 0) return aiQuaternion();
    if (t <= keys[0].mTime) return keys[0].mValue;
    if (t >= keys[n - 1].mTime) return keys[n - 1].mValue;
    const aiQuatKey* hi = std::upper_bound(keys, keys + n, t, [](double v, const aiQuatKey& k) { return v < k.mTime; });
    const aiQuatKey* lo = hi - 1;
    const double span = hi->mTime - lo->mTime;
    const float f = span > 0.0 ? static_cast<float>((t - lo->mTime) / span) : 0.0f;
    aiQuaternion out;
    aiQuaternion::Interpolate(out, lo->mValue, hi->mValue, f);
    return out.Normalize();
}

// A channel's transform at t, as Assimp's own evaluation replaces the node's transform by it.
aiMatrix4x4 channelMatrix(const aiNodeAnim& ch, double t) {
    const aiVector3D p = sampleVector(ch.mPositionKeys, ch.mNumPositionKeys, t, aiVector3D());
    const aiQuaternion r = sampleQuat(ch.mRotationKeys, ch.mNumRotationKeys, t);
    const aiVector3D s = sampleVector(ch.mScalingKeys, ch.mNumScalingKeys, t, aiVector3D(1.0f, 1.0f, 1.0f));
    return aiMatrix4x4(s, r, p);
}

template <typename Key>
void addTimes(const Key* keys, unsigned n, std::vector<double>& times) {
    // A lone key is Assimp's placeholder for a term the channel does not animate.
    if (!keys || n < 2) return;
    for (unsigned k = 0; k < n; ++k) times.push_back(keys[k].mTime);
}

template <typename Key>
void replaceKeys(Key*& keys, unsigned& count, std::vector<Key>&& fresh) {
    delete[] keys;
    count = static_cast<unsigned>(fresh.size());
    keys = new Key[fresh.size()];
    std::copy(fresh.begin(), fresh.end(), keys);
}

// Write `m(t)` at `times` into `ch` (translation, rotation, scaling at every time), keeping each
// rotation on the side of its predecessor.
template <typename Eval>
void writeChannel(aiNodeAnim& ch, const std::vector<double>& times, Eval m) {
    std::vector<aiVectorKey> pos, scl;
    std::vector<aiQuatKey> rot;
    pos.reserve(times.size());
    scl.reserve(times.size());
    rot.reserve(times.size());
    for (double t : times) {
        aiVector3D s, p;
        aiQuaternion r;
        m(t).Decompose(s, r, p);
        if (!rot.empty()) {
            const aiQuaternion& q = rot.back().mValue;
            if (q.x * r.x + q.y * r.y + q.z * r.z + q.w * r.w < 0.0f) r = aiQuaternion(-r.w, -r.x, -r.y, -r.z);
        }
        pos.push_back(aiVectorKey(t, p));
        rot.push_back(aiQuatKey(t, r));
        scl.push_back(aiVectorKey(t, s));
    }
    replaceKeys(ch.mPositionKeys, ch.mNumPositionKeys, std::move(pos));
    replaceKeys(ch.mRotationKeys, ch.mNumRotationKeys, std::move(rot));
    replaceKeys(ch.mScalingKeys, ch.mNumScalingKeys, std::move(scl));
}

// ---- the node tree --------------------------------------------------------------------------

// If `first` (a child of its parent) starts a helper chain that ends in its node, the chain.
bool readChain(aiNode* first, Chain& chain) {
    std::string base;
    Term term;
    if (!splitHelperName(first->mName, base, term) || isPost(term)) return false;
    aiNode* n = first;
    int last = -1;
    while (true) {
        std::string b;
        Term t;
        if (!splitHelperName(n->mName, b, t) || b != base || isPost(t) || static_cast<int>(t) <= last) return false;
        if (n->mNumMeshes != 0 || n->mNumChildren != 1 || !n->mChildren || !n->mChildren[0]) return false;
        last = static_cast<int>(t);
        chain.terms.emplace_back(t, n->mTransformation);
        n = n->mChildren[0];
        if (named(n, base)) break;
    }
    chain.node = n;
    chain.name = base;
    for (const auto& [t, m] : chain.terms) {
        if (!isGeometric(t)) continue;
        chain.geometric = chain.hasGeometric ? chain.geometric * m : m;
        chain.hasGeometric = true;
    }
    return true;
}

// Detach `node` from the chain under it: its children become the children of the last node of
// the geometric inverses that follow it (if any), which are deleted.
void dropPostNodes(aiNode* node, const std::string& base) {
    if (node->mNumChildren != 1 || !node->mChildren || !node->mChildren[0]) return;
    aiNode* post = node->mChildren[0];
    std::string b;
    Term t;
    if (!splitHelperName(post->mName, b, t) || b != base || !isPost(t)) return;
    aiNode* last = post;
    while (true) {
        if (last->mNumMeshes != 0) return;
        if (last->mNumChildren != 1 || !last->mChildren || !last->mChildren[0]) break;
        aiNode* next = last->mChildren[0];
        if (!splitHelperName(next->mName, b, t) || b != base || !isPost(t)) break;
        last = next;
    }
    // The geometric terms are baked into the node's meshes: the children hang from the node.
    node->mChildren[0] = nullptr;
    delete[] node->mChildren;
    node->mChildren = last->mChildren;
    node->mNumChildren = last->mNumChildren;
    for (unsigned c = 0; c < node->mNumChildren; ++c)
        if (node->mChildren[c]) node->mChildren[c]->mParent = node;
    last->mChildren = nullptr;
    last->mNumChildren = 0;
    delete post;
}

// Base names whose helper chains start more than once (two FBX nodes of one name): their
// channels name helpers that cannot be told apart, so those chains are left as Assimp made them.
std::map<std::string, int> chainStarts(aiNode* root) {
    std::map<std::string, int> starts;
    std::vector<aiNode*> stack{root};
    while (!stack.empty()) {
        aiNode* n = stack.back();
        stack.pop_back();
        std::string base, parentBase;
        Term term, parentTerm;
        if (splitHelperName(n->mName, base, term) && !isPost(term) &&
            !(n->mParent && splitHelperName(n->mParent->mName, parentBase, parentTerm) && parentBase == base)) {
            ++starts[base];
        }
        for (unsigned c = 0; c < n->mNumChildren; ++c)
            if (n->mChildren && n->mChildren[c]) stack.push_back(n->mChildren[c]);
    }
    return starts;
}

void collectChains(aiNode* root, std::vector<Chain>& chains) {
    const std::map<std::string, int> starts = chainStarts(root);
    std::vector<aiNode*> stack{root};
    while (!stack.empty()) {
        aiNode* parent = stack.back();
        stack.pop_back();
        for (unsigned c = 0; c < parent->mNumChildren; ++c) {
            aiNode* child = parent->mChildren ? parent->mChildren[c] : nullptr;
            if (!child) continue;
            Chain chain;
            if (readChain(child, chain) && starts.at(chain.name) == 1) {
                // Replace the helpers by the node itself.
                aiNode* node = chain.node;
                node->mParent->mChildren[0] = nullptr;  // the last helper lets go of the node
                node->mParent->mNumChildren = 0;
                delete[] node->mParent->mChildren;
                node->mParent->mChildren = nullptr;
                delete child;
                parent->mChildren[c] = node;
                node->mParent = parent;
                aiMatrix4x4 local;
                for (const auto& [t, m] : chain.terms)
                    if (!isGeometric(t)) local = local * m;
                node->mTransformation = local * node->mTransformation;
                if (chain.hasGeometric) dropPostNodes(node, chain.name);
                chains.push_back(std::move(chain));
                child = node;
            }
            stack.push_back(child);
        }
    }
}

// ---- geometric terms --------------------------------------------------------------------------

void transformMesh(aiMesh& mesh, const aiMatrix4x4& g) {
    transformMeshData(mesh, g);
    // Skinned: offset * v must not change, so offset' = offset * G^-1.
    aiMatrix4x4 inverse = g;
    inverse.Inverse();
    for (unsigned b = 0; b < mesh.mNumBones; ++b)
        if (mesh.mBones && mesh.mBones[b]) mesh.mBones[b]->mOffsetMatrix = mesh.mBones[b]->mOffsetMatrix * inverse;
}

unsigned bakeGeometric(aiScene& scene, const std::vector<Chain>& chains) {
    // How many nodes hold each mesh: a shared mesh is copied before it is moved.
    std::vector<unsigned> users(scene.mNumMeshes, 0);
    std::vector<aiNode*> stack{scene.mRootNode};
    while (!stack.empty()) {
        aiNode* n = stack.back();
        stack.pop_back();
        for (unsigned k = 0; k < n->mNumMeshes; ++k)
            if (n->mMeshes && n->mMeshes[k] < scene.mNumMeshes) ++users[n->mMeshes[k]];
        for (unsigned c = 0; c < n->mNumChildren; ++c)
            if (n->mChildren && n->mChildren[c]) stack.push_back(n->mChildren[c]);
    }
    std::vector<aiMesh*> added;
    unsigned baked = 0;
    for (const Chain& chain : chains) {
        if (!chain.hasGeometric) continue;
        aiNode* node = chain.node;
        for (unsigned k = 0; k < node->mNumMeshes; ++k) {
            const unsigned mi = node->mMeshes[k];
            if (mi >= scene.mNumMeshes || !scene.mMeshes[mi]) continue;
            aiMesh* mesh = scene.mMeshes[mi];
            if (users[mi] > 1) {
                aiMesh* copy = nullptr;
                Assimp::SceneCombiner::Copy(&copy, mesh);
                --users[mi];
                node->mMeshes[k] = scene.mNumMeshes + static_cast<unsigned>(added.size());
                added.push_back(copy);
                mesh = copy;
            }
            transformMesh(*mesh, chain.geometric);
            ++baked;
        }
    }
    if (!added.empty()) {
        aiMesh** all = new aiMesh*[scene.mNumMeshes + added.size()];
        std::copy(scene.mMeshes, scene.mMeshes + scene.mNumMeshes, all);
        std::copy(added.begin(), added.end(), all + scene.mNumMeshes);
        delete[] scene.mMeshes;
        scene.mMeshes = all;
        scene.mNumMeshes += static_cast<unsigned>(added.size());
    }
    return baked;
}

// ---- channels -----------------------------------------------------------------------------

// Fold the channels of one animation. `byName`: chain index per file node name.
unsigned foldChannels(aiAnimation& anim, const std::vector<Chain>& chains, const std::map<std::string, int>& byName) {
    if (!anim.mChannels || anim.mNumChannels == 0) return 0;
    // Per chain: its whole-transform channel and its term channels.
    struct Found {
        int whole = -1;
        std::vector<std::pair<Term, int>> terms;
    };
    std::map<int, Found> found;
    for (unsigned c = 0; c < anim.mNumChannels; ++c) {
        const aiNodeAnim* ch = anim.mChannels[c];
        if (!ch) continue;
        std::string base;
        Term term;
        const bool helper = splitHelperName(ch->mNodeName, base, term);
        const auto it = byName.find(helper ? base : std::string(ch->mNodeName.C_Str(), ch->mNodeName.length));
        if (it == byName.end() || it->second < 0) continue;
        if (helper) found[it->second].terms.emplace_back(term, static_cast<int>(c));
        else found[it->second].whole = static_cast<int>(c);
    }
    std::vector<bool> drop(anim.mNumChannels, false);
    unsigned rewritten = 0;
    for (auto& [index, f] : found) {
        const Chain& chain = chains[static_cast<size_t>(index)];
        bool onlyRotations = true;  // the chain holds no term that takes Assimp's whole-transform form wrong
        aiMatrix4x4 postInverse;
        bool hasPost = false;
        for (const auto& [t, m] : chain.terms) {
            if (t == Term::PostRotation) {
                postInverse = m;
                hasPost = true;
            } else if (t != Term::Translation && t != Term::PreRotation && t != Term::Rotation && t != Term::Scaling) {
                onlyRotations = false;
            }
        }
        if (f.whole >= 0 && f.terms.empty() && onlyRotations) {
            // Assimp's whole-transform channel: T * (Rpre * R * Rpost) * S. Rpost^-1 is wanted:
            // the rotation is multiplied by the post-rotation helper's (inverse) rotation twice.
            aiNodeAnim& ch = *anim.mChannels[f.whole];
            if (hasPost) {
                const aiQuaternion h{aiMatrix3x3(postInverse)};
                const aiQuaternion hh = (h * h).Normalize();
                for (unsigned k = 0; k < ch.mNumRotationKeys; ++k) ch.mRotationKeys[k].mValue = (ch.mRotationKeys[k].mValue * hh).Normalize();
            }
            ++rewritten;
            continue;
        }
        // Term channels (and, should both forms meet, a whole-transform channel below them):
        // the chain multiplied out at every key time of any of them.
        std::vector<std::pair<Term, const aiNodeAnim*>> animated;
        std::vector<double> times;
        for (const auto& [t, c] : f.terms) {
            const aiNodeAnim* ch = anim.mChannels[c];
            animated.emplace_back(t, ch);
            addTimes(ch->mPositionKeys, ch->mNumPositionKeys, times);
            addTimes(ch->mRotationKeys, ch->mNumRotationKeys, times);
            addTimes(ch->mScalingKeys, ch->mNumScalingKeys, times);
        }
        const aiNodeAnim* whole = f.whole >= 0 ? anim.mChannels[f.whole] : nullptr;
        if (whole) {
            addTimes(whole->mPositionKeys, whole->mNumPositionKeys, times);
            addTimes(whole->mRotationKeys, whole->mNumRotationKeys, times);
            addTimes(whole->mScalingKeys, whole->mNumScalingKeys, times);
        }
        if (times.empty()) {
            for (const auto& [t, ch] : animated) {
                if (ch->mNumPositionKeys) times.push_back(ch->mPositionKeys[0].mTime);
                if (ch->mNumRotationKeys) times.push_back(ch->mRotationKeys[0].mTime);
                if (ch->mNumScalingKeys) times.push_back(ch->mScalingKeys[0].mTime);
            }
            if (whole && whole->mNumRotationKeys) times.push_back(whole->mRotationKeys[0].mTime);
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        if (times.empty()) continue;
        auto local = [&](double time) {
            aiMatrix4x4 m;
            for (const auto& term : chain.terms) {
                const auto& t = term.first;
                if (isGeometric(t)) continue;
                const auto a = std::find_if(animated.begin(), animated.end(), [&](const auto& x) { return x.first == t; });
                m = m * (a != animated.end() ? channelMatrix(*a->second, time) : term.second);
            }
            return whole ? m * channelMatrix(*whole, time) : m;
        };
        // The result lands on one channel named after the node; the others go.
        int target = f.whole >= 0 ? f.whole : f.terms.front().second;
        aiNodeAnim& out = *anim.mChannels[target];
        writeChannel(out, times, local);
        out.mNodeName = chain.node->mName;
        for (const auto& [t, c] : f.terms)
            if (c != target) drop[static_cast<size_t>(c)] = true;
        ++rewritten;
    }
    unsigned kept = 0;
    for (unsigned c = 0; c < anim.mNumChannels; ++c) {
        if (drop[c]) {
            delete anim.mChannels[c];
            continue;
        }
        anim.mChannels[kept++] = anim.mChannels[c];
    }
    anim.mNumChannels = kept;
    return rewritten;
}

template <typename Key>
unsigned mergeAtOneTime(Key*& keys, unsigned& count, double tps) {
    if (!keys || count < 2) return 0;
    unsigned kept = 0;
    for (unsigned k = 0; k < count; ++k) {
        const float t = static_cast<float>(keys[k].mTime / tps);
        if (k + 1 < count && static_cast<float>(keys[k + 1].mTime / tps) == t) continue;
        keys[kept++] = keys[k];
    }
    const unsigned gone = count - kept;
    count = kept;
    return gone;
}

}  // namespace

unsigned mergeKeysAtOneTime(aiScene& scene, double defaultTicksPerSecond) {
    unsigned gone = 0;
    for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
        aiAnimation* anim = scene.mAnimations ? scene.mAnimations[a] : nullptr;
        if (!anim || !anim->mChannels) continue;
        const double tps = anim->mTicksPerSecond > 0.0 && std::isfinite(anim->mTicksPerSecond) ? anim->mTicksPerSecond
                                                                                                : defaultTicksPerSecond;
        for (unsigned c = 0; c < anim->mNumChannels; ++c) {
            aiNodeAnim* ch = anim->mChannels[c];
            if (!ch) continue;
            gone += mergeAtOneTime(ch->mPositionKeys, ch->mNumPositionKeys, tps);
            gone += mergeAtOneTime(ch->mRotationKeys, ch->mNumRotationKeys, tps);
            gone += mergeAtOneTime(ch->mScalingKeys, ch->mNumScalingKeys, tps);
        }
    }
    return gone;
}

FbxChainStats foldFbxTransformChains(aiScene& scene) {
    FbxChainStats stats;
    if (!scene.mRootNode) return stats;
    std::vector<Chain> chains;
    collectChains(scene.mRootNode, chains);
    if (chains.empty()) return stats;
    stats.chains = static_cast<unsigned>(chains.size());
    std::map<std::string, int> byName;  // every folded chain's name is its own (chainStarts)
    for (size_t i = 0; i < chains.size(); ++i) byName.emplace(chains[i].name, static_cast<int>(i));
    for (unsigned a = 0; a < scene.mNumAnimations; ++a)
        if (scene.mAnimations && scene.mAnimations[a]) stats.channels += foldChannels(*scene.mAnimations[a], chains, byName);
    stats.geometricMeshes = bakeGeometric(scene, chains);
    return stats;
}

}  // namespace rig::scene
