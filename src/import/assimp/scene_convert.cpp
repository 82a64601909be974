#include "import/assimp/scene_convert.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <unordered_set>

#include "anim/offline/clip_tools.h"
#include "import/import.h"
#include "import/assimp/material_import.h"
#include "import/assimp/node_binding.h"
#include "import/influences.h"
#include "import/texture_limits.h"

namespace rig::scene {

namespace {

void importSkin(const aiMesh* am, Mesh& mesh, const Skeleton& sk, const std::vector<int32_t>& boneNodes) {
    const size_t nv = mesh.positions.size();
    WeightStats& ws = mesh.weightStats;
    // Each bone's palette slot (-1: its node is missing), and the weights each vertex keeps,
    // counted; then the influences of every vertex in one array, in bone order: vertex v's are
    // all[first[v] .. first[v + 1]).
    std::vector<int32_t> slotOf(am->mNumBones, -1);
    std::vector<uint32_t> first(nv + 1, 0);
    auto usable = [&](const aiVertexWeight& vw) {
        return vw.mVertexId < nv && std::isfinite(vw.mWeight) && vw.mWeight > 0.0f;
    };
    for (unsigned b = 0; b < am->mNumBones; ++b) {
        const aiBone* bone = am->mBones[b];
        if (!bone) continue;
        const int32_t node = b < boneNodes.size() ? boneNodes[b] : -1;
        if (node < 0) {
            mesh.missingBones.emplace_back(boneName(bone));
            continue;
        }
        slotOf[b] = static_cast<int32_t>(mesh.skin.joints.size());
        mesh.skin.joints.push_back(node);
        glm::mat4 offset = toGlm(bone->mOffsetMatrix);
        const float det = glm::determinant(glm::mat3(offset));
        uint8_t computed = 0;
        if (!finite(offset) || !(std::fabs(det) > 1e-12f)) {
            offset = sk.offsetFromBindPose(node, mesh.node);
            computed = 1;
        }
        mesh.skin.inverseBind.push_back(offset);
        mesh.skin.offsetComputed.push_back(computed);
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight& vw = bone->mWeights[w];
            if (usable(vw)) {
                ++first[vw.mVertexId + 1];
            } else if (vw.mVertexId >= nv || !std::isfinite(vw.mWeight) || vw.mWeight < 0.0f) {
                ++ws.invalidWeights;
            }
        }
    }
    for (size_t v = 0; v < nv; ++v) first[v + 1] += first[v];
    std::vector<Influence> all(first[nv]);
    {
        std::vector<uint32_t> fill(first.begin(), first.end() - 1);
        for (unsigned b = 0; b < am->mNumBones; ++b) {
            if (slotOf[b] < 0) continue;
            const aiBone* bone = am->mBones[b];
            for (unsigned w = 0; w < bone->mNumWeights; ++w) {
                const aiVertexWeight& vw = bone->mWeights[w];
                if (usable(vw)) all[fill[vw.mVertexId]++] = {static_cast<uint32_t>(slotOf[b]), vw.mWeight};
            }
        }
    }
    const uint16_t rigid = static_cast<uint16_t>(mesh.skin.rigidSlot());
    mesh.joints.assign(nv, {rigid, rigid, rigid, rigid});
    mesh.weights.assign(nv, glm::vec4(0.0f));
    mesh.originalInfluenceCount.assign(nv, 0);
    mesh.originalWeightSum.assign(nv, 0.0f);
    for (size_t v = 0; v < nv; ++v) {
        keepStrongestInfluences(mesh, v, std::span<Influence>(all.data() + first[v], first[v + 1] - first[v]));
    }
    fillSecondInfluenceSet(mesh);  // influences 5 to 8, for --influences 8
}

// Morph targets (Assimp's anim meshes). Assimp stores each target's positions and normals
// whole (base + offset, glTF and FBX alike); rigview keeps the offsets. A target whose
// vertex count differs from the mesh's is dropped.
void importMorphTargets(const aiMesh* am, Mesh& mesh) {
    const unsigned nv = am->mNumVertices;
    for (unsigned a = 0; a < am->mNumAnimMeshes; ++a) {
        const aiAnimMesh* x = am->mAnimMeshes[a];
        if (!x || x->mNumVertices != nv || !x->mVertices) continue;
        MorphTarget t;
        t.name = x->mName.length ? x->mName.C_Str() : "target" + std::to_string(a);
        t.positionDeltas.resize(nv);
        for (unsigned v = 0; v < nv; ++v) {
            const aiVector3D d = x->mVertices[v] - am->mVertices[v];
            t.positionDeltas[v] = finite(glm::vec3(d.x, d.y, d.z)) ? glm::vec3(d.x, d.y, d.z) : glm::vec3(0.0f);
        }
        if (x->mNormals && am->mNormals) {
            t.normalDeltas.resize(nv);
            for (unsigned v = 0; v < nv; ++v) {
                const aiVector3D d = x->mNormals[v] - am->mNormals[v];
                t.normalDeltas[v] = finite(glm::vec3(d.x, d.y, d.z)) ? glm::vec3(d.x, d.y, d.z) : glm::vec3(0.0f);
            }
        }
        mesh.morphTargets.push_back(std::move(t));
        mesh.morphDefaultWeights.push_back(std::isfinite(x->mWeight) ? x->mWeight : 0.0f);
    }
}

void noteCurve(CurveStats& cs, const std::string& channel) {
    if (cs.examples.size() < kMaxExamples && (cs.examples.empty() || cs.examples.back() != channel)) {
        cs.examples.push_back(channel);
    }
}

template <typename Key, typename Value, typename Convert>
Channel importChannel(const Key* keys, unsigned count, double tps, Clip& clip, std::vector<Value>& values,
                      Convert convert, ImportStats& stats, const std::string& channel) {
    CurveStats& cs = clip.curveStats;
    struct K { float t; Value v; };
    std::vector<K> ks;
    ks.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
        const float t = static_cast<float>(keys[i].mTime / tps);
        const Value v = convert(keys[i].mValue);
        if (!std::isfinite(t) || !finite(v)) {
            ++stats.nonFiniteKeys;
            ++cs.nonFiniteKeys;
            noteCurve(cs, channel);
            continue;
        }
        ks.push_back({t, v});
    }
    if (!std::is_sorted(ks.begin(), ks.end(), [](const K& a, const K& b) { return a.t < b.t; })) {
        ++stats.unsortedKeyChannels;
        ++cs.unsortedChannels;
        noteCurve(cs, channel);
        std::stable_sort(ks.begin(), ks.end(), [](const K& a, const K& b) { return a.t < b.t; });
    }
    for (size_t i = 1; i < ks.size(); ++i) {
        if (ks[i].t == ks[i - 1].t) {
            ++cs.duplicateKeyTimes;
            noteCurve(cs, channel);
        }
    }
    Channel ch;
    ch.count = static_cast<uint32_t>(ks.size());
    if (ch.count == 0) return ch;
    std::vector<float> times(ks.size());
    for (size_t i = 0; i < ks.size(); ++i) times[i] = ks[i].t;
    ch.times = clip.addTimes(times.data(), ch.count);
    ch.values = static_cast<uint32_t>(values.size());
    for (const K& k : ks) values.push_back(k.v);
    return ch;
}

}  // namespace

glm::mat4 toGlm(const aiMatrix4x4& m) {
    // Assimp stores rows; glm stores columns.
    return glm::mat4(m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2, m.a3, m.b3, m.c3, m.d3,
                     m.a4, m.b4, m.c4, m.d4);
}

bool finite(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

// Flatten Assimp's node tree into parent-before-child arrays (pre-order, iterative, guarded
// against cycles). Returns the aiNode of each flat index.
Result<std::vector<const aiNode*>> flattenNodes(const aiScene* scene, Skeleton& sk,
                                                const std::string& path) {
    std::vector<const aiNode*> nodes;
    std::unordered_set<const aiNode*> seen;
    struct Item { const aiNode* node; int32_t parent; size_t depth; };
    std::vector<Item> stack{{scene->mRootNode, -1, 0}};
    while (!stack.empty()) {
        Item it = stack.back();
        stack.pop_back();
        if (!it.node) continue;
        if (!seen.insert(it.node).second) {
            return Error{path + ": node hierarchy has a cycle at node '" + it.node->mName.C_Str() + "'"};
        }
        if (it.depth > kMaxDepth) return Error{path + ": node hierarchy is too deep"};
        const int32_t index = static_cast<int32_t>(nodes.size());
        nodes.push_back(it.node);
        sk.names.emplace_back(it.node->mName.C_Str());
        sk.parent.push_back(it.parent);
        sk.bindLocal.push_back(toGlm(it.node->mTransformation));
        // Push children in reverse so that they come out in file order.
        for (unsigned c = it.node->mNumChildren; c-- > 0;) {
            stack.push_back({it.node->mChildren[c], index, it.depth + 1});
        }
    }
    sk.bindLocalSqt.resize(sk.size());
    for (size_t i = 0; i < sk.size(); ++i) decompose(sk.bindLocal[i], sk.bindLocalSqt[i]);
    sk.computeBindModel();
    return nodes;
}

Mesh importMesh(const aiMesh* am, int32_t node, const Skeleton& sk, const std::vector<int32_t>& boneNodes,
                ImportStats& stats) {
    Mesh mesh;
    mesh.name = am->mName.length ? am->mName.C_Str() : sk.names[node];
    mesh.node = node;
    mesh.material = am->mMaterialIndex;
    const unsigned nv = am->mNumVertices;
    mesh.positions.resize(nv);
    for (unsigned v = 0; v < nv; ++v) {
        const aiVector3D& p = am->mVertices[v];
        mesh.positions[v] = glm::vec3(p.x, p.y, p.z);
        if (!finite(mesh.positions[v])) ++stats.nonFiniteVertices;
    }
    if (am->mNormals) {
        mesh.normals.resize(nv);
        for (unsigned v = 0; v < nv; ++v) {
            const aiVector3D& n = am->mNormals[v];
            mesh.normals[v] = glm::vec3(n.x, n.y, n.z);
            if (!finite(mesh.normals[v])) ++stats.nonFiniteVertices;
        }
    }
    if (am->mTextureCoords[0]) {
        mesh.uvs.resize(nv);
        for (unsigned v = 0; v < nv; ++v) {
            mesh.uvs[v] = glm::vec2(am->mTextureCoords[0][v].x, am->mTextureCoords[0][v].y);
        }
    }
    if (am->mTextureCoords[1]) {
        mesh.uvs1.resize(nv);
        for (unsigned v = 0; v < nv; ++v) {
            mesh.uvs1[v] = glm::vec2(am->mTextureCoords[1][v].x, am->mTextureCoords[1][v].y);
        }
    }
    // Tangents only where the file has them (nothing asks Assimp to make them): xyz the
    // tangent, w the bitangent's side (glTF's TANGENT.w), which Assimp keeps only in the
    // bitangent it computed as cross(normal, tangent) * w.
    if (am->mTangents && am->mNormals) {
        mesh.tangents.resize(nv);
        for (unsigned v = 0; v < nv; ++v) {
            const aiVector3D& t = am->mTangents[v];
            glm::vec3 tg(t.x, t.y, t.z);
            const float len = glm::length(tg);
            tg = len > 0.0f && std::isfinite(len) ? tg / len : glm::vec3(1.0f, 0.0f, 0.0f);
            float w = 1.0f;
            if (am->mBitangents) {
                const aiVector3D& b = am->mBitangents[v];
                const glm::vec3 n(am->mNormals[v].x, am->mNormals[v].y, am->mNormals[v].z);
                if (glm::dot(glm::cross(n, tg), glm::vec3(b.x, b.y, b.z)) < 0.0f) w = -1.0f;
            }
            mesh.tangents[v] = glm::vec4(tg, w);
        }
    }
    if (am->mColors[0]) {
        mesh.colors.resize(nv);
        for (unsigned v = 0; v < nv; ++v) {
            const aiColor4D& c = am->mColors[0][v];
            mesh.colors[v] = glm::vec4(c.r, c.g, c.b, c.a);
        }
    }
    mesh.indices.reserve(static_cast<size_t>(am->mNumFaces) * 3);
    for (unsigned f = 0; f < am->mNumFaces; ++f) {
        const aiFace& face = am->mFaces[f];
        if (face.mNumIndices != 3) continue;
        bool ok = true;
        for (int k = 0; k < 3; ++k) ok = ok && face.mIndices[k] < nv;
        if (!ok) continue;
        mesh.indices.insert(mesh.indices.end(), face.mIndices, face.mIndices + 3);
    }
    if (am->mNumBones > 0) {
        mesh.skinned = true;
        importSkin(am, mesh, sk, boneNodes);
    }
    importMorphTargets(am, mesh);
    return mesh;
}

void importMorphChannels(const aiAnimation* anim, const Model& model, Clip& clip) {
    double tps = clip.ticksPerSecond > 0.0 ? clip.ticksPerSecond : kDefaultTicksPerSecond;
    for (unsigned c = 0; c < anim->mNumMorphMeshChannels; ++c) {
        const aiMeshMorphAnim* ch = anim->mMorphMeshChannels[c];
        if (!ch || ch->mNumKeys == 0 || !ch->mKeys) continue;
        // glTF names the channel after the node; Assimp's FBX reader after the node and the
        // mesh's place among the node's meshes ("Body*0").
        std::string name = ch->mName.C_Str();
        int64_t place = -1;
        if (const size_t star = name.rfind('*'); star != std::string::npos && model.skeleton.find(name) < 0) {
            const std::string digits = name.substr(star + 1);
            if (!digits.empty() && digits.size() < 9 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                place = std::stoll(digits);
                name.resize(star);
            }
        }
        const int32_t node = model.skeleton.find(name);
        if (node < 0) continue;
        int64_t seen = -1;
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            const Mesh& mesh = model.meshes[m];
            if (mesh.node != node) continue;
            ++seen;
            if ((place >= 0 && seen != place) || mesh.morphTargets.empty()) continue;
            bool taken = false;
            for (const MorphTrack& t : clip.morphTracks) taken = taken || t.mesh == static_cast<int32_t>(m);
            if (taken) continue;
            const uint32_t nt = static_cast<uint32_t>(mesh.morphTargets.size());
            struct K { float t; size_t at; };
            std::vector<K> keys;
            std::vector<float> values;
            for (unsigned k = 0; k < ch->mNumKeys; ++k) {
                const aiMeshMorphKey& key = ch->mKeys[k];
                const float t = static_cast<float>(key.mTime / tps);
                if (!std::isfinite(t)) continue;
                keys.push_back({t, values.size()});
                values.resize(values.size() + nt, 0.0f);
                for (unsigned i = 0; i < key.mNumValuesAndWeights; ++i) {
                    if (key.mValues[i] < nt && std::isfinite(key.mWeights[i])) {
                        values[keys.back().at + key.mValues[i]] = static_cast<float>(key.mWeights[i]);
                    }
                }
            }
            if (keys.empty()) continue;
            std::stable_sort(keys.begin(), keys.end(), [](const K& a, const K& b) { return a.t < b.t; });
            MorphTrack track;
            track.mesh = static_cast<int32_t>(m);
            track.targets = nt;
            track.count = static_cast<uint32_t>(keys.size());
            std::vector<float> times(keys.size());
            for (size_t k = 0; k < keys.size(); ++k) times[k] = keys[k].t;
            track.times = clip.addTimes(times.data(), track.count);
            track.values = static_cast<uint32_t>(clip.morphKeys.size());
            for (const K& k : keys) clip.morphKeys.insert(clip.morphKeys.end(), values.begin() + k.at, values.begin() + k.at + nt);
            clip.morphTracks.push_back(track);
        }
    }
    std::sort(clip.morphTracks.begin(), clip.morphTracks.end(),
              [](const MorphTrack& a, const MorphTrack& b) { return a.mesh < b.mesh; });
    extendClipRangeToMorphs(clip);
}

Clip importClip(const aiAnimation* anim, size_t index, const Skeleton& sk, const std::vector<int32_t>& channelNodes,
                ImportStats& stats) {
    Clip clip;
    clip.name = anim->mName.length ? anim->mName.C_Str() : "clip" + std::to_string(index);
    double tps = anim->mTicksPerSecond;
    if (!(tps > 0.0) || !std::isfinite(tps)) {
        tps = kDefaultTicksPerSecond;
        clip.ticksPerSecondFromFile = false;
        ++stats.clipsWithoutTicksPerSecond;
    }
    clip.ticksPerSecond = tps;
    clip.trackOfNode.assign(sk.size(), -1);
    auto v3 = [](const aiVector3D& v) { return glm::vec3(v.x, v.y, v.z); };
    auto q4 = [](const aiQuaternion& q) {
        glm::quat r(q.w, q.x, q.y, q.z);
        const float len = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
        return len > 0.0f && std::isfinite(len) ? r / len : r;
    };
    for (unsigned c = 0; c < anim->mNumChannels; ++c) {
        const aiNodeAnim* na = anim->mChannels[c];
        if (!na) continue;
        const int32_t node = c < channelNodes.size() ? channelNodes[c] : -1;
        if (node < 0) {
            ++stats.skippedChannels;
            if (stats.skippedChannelNames.size() < kMaxExamples) {
                stats.skippedChannelNames.emplace_back(na->mNodeName.C_Str());
            }
            continue;
        }
        if (clip.trackOfNode[node] >= 0) {
            ++stats.duplicateChannels;
            continue;
        }
        Track tr;
        tr.node = node;
        const std::string nodeName = na->mNodeName.C_Str();
        for (unsigned k = 0; k < na->mNumRotationKeys; ++k) {
            const aiQuaternion& q = na->mRotationKeys[k].mValue;
            if (isNonUnitRotation(q.x, q.y, q.z, q.w)) {
                ++clip.curveStats.nonUnitRotationKeys;
                noteCurve(clip.curveStats, nodeName + ".rotation");
            }
        }
        tr.translation = importChannel(na->mPositionKeys, na->mNumPositionKeys, tps, clip, clip.vec3Keys, v3, stats,
                                       nodeName + ".translation");
        tr.rotation = importChannel(na->mRotationKeys, na->mNumRotationKeys, tps, clip, clip.quatKeys, q4, stats,
                                    nodeName + ".rotation");
        tr.scale = importChannel(na->mScalingKeys, na->mNumScalingKeys, tps, clip, clip.vec3Keys, v3, stats,
                                 nodeName + ".scale");
        clip.trackOfNode[node] = static_cast<int32_t>(clip.tracks.size());
        clip.tracks.push_back(tr);
    }
    // Tracks in node order: sampling then walks the skeleton's memory forward.
    std::vector<Track> sorted = clip.tracks;
    std::sort(sorted.begin(), sorted.end(), [](const Track& a, const Track& b) { return a.node < b.node; });
    clip.tracks = std::move(sorted);
    for (size_t i = 0; i < clip.tracks.size(); ++i) clip.trackOfNode[clip.tracks[i].node] = static_cast<int32_t>(i);

    bool any = false;
    float first = 0.0f, last = 0.0f;
    for (const Track& t : clip.tracks) {
        for (const Channel* ch : {&t.translation, &t.rotation, &t.scale}) {
            if (!ch->count) continue;
            const float a = clip.times[ch->times], b = clip.times[ch->times + ch->count - 1];
            first = any ? std::min(first, a) : a;
            last = any ? std::max(last, b) : b;
            any = true;
        }
    }
    clip.startTime = first;
    clip.duration = std::max(last, 0.0f);
    clip.sampleRate = keySampleRate(clip);
    return clip;
}

void importMaterials(const aiScene* scene, Model& model) {
    for (unsigned i = 0; i < scene->mNumMaterials; ++i) {
        const aiMaterial* am = scene->mMaterials[i];
        Material m = materialFromAssimp(*am);
        model.materials.push_back(std::move(m));
    }
    if (model.materials.empty()) model.materials.emplace_back();
    for (unsigned i = 0; i < scene->mNumTextures; ++i) {
        const aiTexture* t = scene->mTextures[i];
        EmbeddedTexture et;
        et.name = t->mFilename.C_Str();
        et.width = t->mWidth;
        et.height = t->mHeight;
        // An image over the limits keeps its size but none of its bytes (the renderer refuses
        // it with that size, render/texture_image.h): nothing that large crosses to the viewer.
        const bool tooLarge = t->mHeight == 0 ? t->mWidth > kMaxTextureBytes
                                              : t->mWidth > static_cast<unsigned>(kMaxTextureSide) ||
                                                    t->mHeight > static_cast<unsigned>(kMaxTextureSide);
        if (tooLarge) {
            model.textures.push_back(std::move(et));
            continue;
        }
        if (t->mHeight == 0) {
            const auto* b = reinterpret_cast<const uint8_t*>(t->pcData);
            et.data.assign(b, b + t->mWidth);
        } else {
            et.data.resize(static_cast<size_t>(t->mWidth) * t->mHeight * 4);
            for (size_t p = 0; p < static_cast<size_t>(t->mWidth) * t->mHeight; ++p) {
                const aiTexel& x = t->pcData[p];
                et.data[4 * p + 0] = x.r;
                et.data[4 * p + 1] = x.g;
                et.data[4 * p + 2] = x.b;
                et.data[4 * p + 3] = x.a;
            }
        }
        model.textures.push_back(std::move(et));
    }
}

}  // namespace rig::scene
