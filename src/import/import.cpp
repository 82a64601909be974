#include "import/import.h"
#include "anim/offline/clip_tools.h"
#include "import/asf_amc.h"
#include "import/gltf_interpolation.h"
#include "import/iqm.h"
#include "import/off_header.h"
#include "import/scene_repair.h"
#include "util/paths.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <mutex>
#include <filesystem>
#include <numeric>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

namespace rig {

namespace {

constexpr size_t kMaxExamples = 10;
constexpr size_t kMaxDepth = 100000;

// Some of Assimp's parsers (OpenDDL, for one) print straight to stdout/stderr. While any
// file is being read, both descriptors point at /dev/null so that an error stays one line,
// ours. Counted, so that imports on several threads keep the redirect until the last ends.
class SilenceStdio {
public:
    SilenceStdio() {
        std::lock_guard<std::mutex> lock(mutex());
        if (depth()++ > 0) return;
        std::fflush(stdout);
        std::fflush(stderr);
        const int null = ::open("/dev/null", O_WRONLY);
        if (null < 0) return;
        saved()[0] = ::dup(1);
        saved()[1] = ::dup(2);
        ::dup2(null, 1);
        ::dup2(null, 2);
        ::close(null);
    }
    ~SilenceStdio() {
        std::lock_guard<std::mutex> lock(mutex());
        if (--depth() > 0) return;
        std::fflush(stdout);
        std::fflush(stderr);
        for (int i = 0; i < 2; ++i) {
            if (saved()[i] < 0) continue;
            ::dup2(saved()[i], i + 1);
            ::close(saved()[i]);
            saved()[i] = -1;
        }
    }
    SilenceStdio(const SilenceStdio&) = delete;
    SilenceStdio& operator=(const SilenceStdio&) = delete;

private:
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    static int& depth() {
        static int d = 0;
        return d;
    }
    static int* saved() {
        static int fds[2] = {-1, -1};
        return fds;
    }
};

// Every file Assimp opens while importing a model goes through this: the model itself, and
// what it refers to (glTF buffers, OBJ material libraries, MD5 animations beside the mesh...)
// only from inside the model's folder (util/paths.h), unless --allow-external-paths. A path
// outside is neither opened nor probed; it is recorded (external-path-refused). Never writes.
class ConfinedIOSystem : public Assimp::DefaultIOSystem {
public:
    explicit ConfinedIOSystem(const std::string& model) : model_(model), folder_(paths::modelFolder(model)) {}

    bool Exists(const char* file) const override { return allowed(file, "rb") && DefaultIOSystem::Exists(file); }
    Assimp::IOStream* Open(const char* file, const char* mode = "rb") override {
        return allowed(file, mode) ? DefaultIOSystem::Open(file, mode) : nullptr;
    }
    const std::vector<std::string>& refused() const { return refused_; }

private:
    bool allowed(const char* file, const char* mode) const {
        if (!file) return false;
        const std::string f = file;
        const bool write = mode && (std::strchr(mode, 'w') || std::strchr(mode, 'a') || std::strchr(mode, '+'));
        // Judged as written and with '\\' read as '/' (a Windows path): outside either way is out.
        std::string slashed = f;
        std::replace(slashed.begin(), slashed.end(), '\\', '/');
        if (!write && (f == model_ || paths::allowExternal() ||
                       (paths::isInside(folder_, f) && paths::isInside(folder_, slashed)))) {
            return true;
        }
        // A relative name is taken by the OS relative to the working folder. Several importers
        // (LWS, Ogre) try that first and then the model's folder: when the name exists there,
        // that retry succeeds and nothing needs to be reported.
        std::error_code ec;
        const std::filesystem::path beside = std::filesystem::path(folder_) / slashed;
        const bool retried = std::filesystem::path(slashed).is_relative() && paths::isInside(folder_, beside.string()) &&
                             std::filesystem::exists(beside, ec);
        if (!retried && std::find(refused_.begin(), refused_.end(), f) == refused_.end()) refused_.push_back(f);
        return false;
    }

    std::string model_, folder_;
    mutable std::vector<std::string> refused_;
};

// Base-colour textures that are files (not embedded) and exist only outside the model's
// folder: not read by anyone (renderer, check), recorded as refused.
void confineTextures(Model& model) {
    for (const Material& m : model.materials) {
        const std::string& ref = m.baseColorTexture;
        if (ref.empty() || ref[0] == '*' || ref.rfind("data:", 0) == 0) continue;
        bool embedded = false;
        for (const EmbeddedTexture& t : model.textures) embedded = embedded || (!t.name.empty() && t.name == ref);
        if (embedded) continue;
        std::vector<std::string> refused;
        if (!paths::resolveResourceFile(model.path, ref, &refused).empty()) continue;
        for (const std::string& r : refused) {
            auto& list = model.stats.refusedPaths;
            if (std::find(list.begin(), list.end(), r) == list.end()) list.push_back(r);
        }
    }
}

glm::mat4 toGlm(const aiMatrix4x4& m) {
    // Assimp stores rows; glm stores columns.
    return glm::mat4(m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2, m.a3, m.b3, m.c3, m.d3,
                     m.a4, m.b4, m.c4, m.d4);
}

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(const glm::quat& q) { return finite(glm::vec3(q.x, q.y, q.z)) && std::isfinite(q.w); }
bool finite(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

void addExample(std::vector<uint32_t>& list, uint32_t v) {
    if (list.size() < kMaxExamples) list.push_back(v);
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

std::string boneName(const aiBone* bone);  // the bone's name as in the file (binding section)

struct Influence {
    uint32_t slot;
    float weight;
};

void importSkin(const aiMesh* am, Mesh& mesh, const Skeleton& sk, const std::vector<int32_t>& boneNodes) {
    const size_t nv = mesh.positions.size();
    std::vector<std::vector<Influence>> per(nv);
    WeightStats& ws = mesh.weightStats;
    for (unsigned b = 0; b < am->mNumBones; ++b) {
        const aiBone* bone = am->mBones[b];
        if (!bone) continue;
        const int32_t node = b < boneNodes.size() ? boneNodes[b] : -1;
        if (node < 0) {
            mesh.missingBones.emplace_back(boneName(bone));
            continue;
        }
        const uint32_t slot = static_cast<uint32_t>(mesh.skin.joints.size());
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
            if (vw.mVertexId >= nv) {
                ++ws.invalidWeights;
                continue;
            }
            if (!std::isfinite(vw.mWeight) || vw.mWeight < 0.0f) {
                ++ws.invalidWeights;
                continue;
            }
            if (vw.mWeight == 0.0f) continue;
            per[vw.mVertexId].push_back({slot, vw.mWeight});
        }
    }
    const uint16_t rigid = static_cast<uint16_t>(mesh.skin.rigidSlot());
    mesh.joints.assign(nv, {rigid, rigid, rigid, rigid});
    mesh.weights.assign(nv, glm::vec4(0.0f));
    mesh.originalInfluenceCount.assign(nv, 0);
    mesh.originalWeightSum.assign(nv, 0.0f);
    for (size_t v = 0; v < nv; ++v) {
        auto& inf = per[v];
        const uint32_t vi = static_cast<uint32_t>(v);
        ws.maxInfluences = std::max<uint32_t>(ws.maxInfluences, static_cast<uint32_t>(inf.size()));
        mesh.originalInfluenceCount[v] = static_cast<uint8_t>(std::min<size_t>(inf.size(), 255));
        if (inf.empty()) {
            ++ws.unweightedVertices;
            addExample(ws.unweightedExamples, vi);
            mesh.weights[v] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);  // rigid slot, follows the node
            continue;
        }
        double sum = 0.0;
        for (const Influence& i : inf) sum += i.weight;
        mesh.originalWeightSum[v] = static_cast<float>(sum);
        const float err = static_cast<float>(std::fabs(sum - 1.0));
        ws.worstSumError = std::max(ws.worstSumError, err);
        if (err > 1e-3f) {
            ++ws.unnormalizedVertices;
            addExample(ws.unnormalizedExamples, vi);
        }
        std::stable_sort(inf.begin(), inf.end(),
                         [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
        if (inf.size() > static_cast<size_t>(kMaxInfluences)) {
            ++ws.truncatedVertices;
            addExample(ws.truncatedExamples, vi);
            FullInfluences full;
            full.vertex = vi;
            for (const Influence& i : inf) full.influences.emplace_back(static_cast<uint16_t>(i.slot), i.weight);
            mesh.truncated.push_back(std::move(full));
            inf.resize(kMaxInfluences);
        }
        float kept = 0.0f;
        for (const Influence& i : inf) kept += i.weight;
        for (size_t k = 0; k < inf.size(); ++k) {
            mesh.joints[v][k] = static_cast<uint16_t>(inf[k].slot);
            mesh.weights[v][static_cast<int>(k)] = inf[k].weight / kept;
        }
        for (size_t k = inf.size(); k < static_cast<size_t>(kMaxInfluences); ++k) {
            mesh.joints[v][k] = static_cast<uint16_t>(inf[0].slot);
        }
    }
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

// A clip's morph weight channels (Assimp's aiMeshMorphAnim, named after the node that holds
// the mesh): one MorphTrack per mesh at that node with morph targets, weights dense per key
// (a target a key does not list weighs 0). Times in seconds; linear until the glTF JSON says
// otherwise (gltf_interpolation.cpp). Extends the clip's time range to its morph keys.
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

float estimateSampleRate(const Clip& clip) {
    std::vector<float> deltas;
    auto collect = [&](const Channel& ch) {
        for (uint32_t k = 1; k < ch.count && deltas.size() < 8192; ++k) {
            const float d = clip.times[ch.times + k] - clip.times[ch.times + k - 1];
            if (d > 1e-6f) deltas.push_back(d);
        }
    };
    for (const Track& t : clip.tracks) {
        collect(t.translation);
        collect(t.rotation);
        collect(t.scale);
    }
    if (deltas.empty()) return 30.0f;
    // Keys sparser than 10 per second are poses to interpolate, not frames: step at 30 fps.
    std::nth_element(deltas.begin(), deltas.begin() + deltas.size() / 2, deltas.end());
    float rate = 1.0f / deltas[deltas.size() / 2];
    const float rounded = std::round(rate);
    if (std::fabs(rate - rounded) < 0.01f * rounded) rate = rounded;
    return rate < 10.0f ? 30.0f : std::min(rate, 1000.0f);
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
            const float len = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
            if (std::isfinite(len) && std::fabs(len - 1.0f) > 1e-3f) {
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
    clip.sampleRate = estimateSampleRate(clip);
    return clip;
}

void importMaterials(const aiScene* scene, Model& model) {
    for (unsigned i = 0; i < scene->mNumMaterials; ++i) {
        const aiMaterial* am = scene->mMaterials[i];
        Material m;
        aiString name;
        if (am->Get(AI_MATKEY_NAME, name) == AI_SUCCESS) m.name = name.C_Str();
        aiColor4D c;
        if (am->Get(AI_MATKEY_BASE_COLOR, c) == AI_SUCCESS ||
            am->Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS) {
            m.baseColor = glm::vec4(c.r, c.g, c.b, c.a);
        }
        aiString tex;
        if (am->GetTexture(aiTextureType_BASE_COLOR, 0, &tex) == AI_SUCCESS ||
            am->GetTexture(aiTextureType_DIFFUSE, 0, &tex) == AI_SUCCESS) {
            m.baseColorTexture = tex.C_Str();
        }
        model.materials.push_back(std::move(m));
    }
    if (model.materials.empty()) model.materials.emplace_back();
    for (unsigned i = 0; i < scene->mNumTextures; ++i) {
        const aiTexture* t = scene->mTextures[i];
        EmbeddedTexture et;
        et.name = t->mFilename.C_Str();
        et.width = t->mWidth;
        et.height = t->mHeight;
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

constexpr const char* kBlendLimitation =
    "Assimp reads no armature or animation from .blend files; export FBX or glTF from Blender";

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}


// ---- Binding by identity: bones and channels to the node the file means ------------------
//
// Assimp 5.2.5 names bones and channels by node name only; no importer fills aiBone::mNode
// (its aiProcess_PopulateArmatureData step looks names up too, skipping nodes with meshes).
// So: a name only one node carries binds to it; glTF binds by the JSON's node indices
// (skin.joints, channel target.node); otherwise a bone prefers, among the nodes of its name,
// one inside the skin's skeleton (below the common ancestor of the skin's other joints, or on
// the path above it) that holds no mesh, and a channel prefers a skin joint, then a node with
// no mesh. Ties go to the first in node order and are reported as unsafe.
// Assimp's validator refuses a mesh whose bones share a name, yet a glTF skin may well have two
// joints called "tip" (left and right). Before validation, later bones of a name get a suffix
// (kBoneSuffix and a number) that boneName() takes off again: skins bind by index anyway.
constexpr char kBoneSuffix = '\x1f';

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

class NodeBinder {
public:
    NodeBinder(const Skeleton& sk, const std::vector<const aiNode*>& nodes, const GltfNodes& gltf,
               ImportStats& stats)
        : sk_(sk), gltf_(gltf), stats_(stats), hasMesh_(sk.size(), 0), isJoint_(sk.size(), 0) {
        for (size_t i = 0; i < sk.size(); ++i) {
            byName_[sk.names[i]].push_back(static_cast<int32_t>(i));
            hasMesh_[i] = nodes[i]->mNumMeshes > 0;
        }
    }

    std::vector<int32_t> bindBones(const aiMesh* am, int32_t meshNode, const std::string& meshLabel) {
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

    std::vector<int32_t> bindChannels(const aiAnimation* anim, size_t index, const std::string& clipLabel) {
        std::vector<int32_t> out(anim->mNumChannels, -1);
        const std::vector<GltfNodes::Target>* targets =
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
                for (const GltfNodes::Target& t : *targets) {
                    if (sk_.names[t.node] != name || taken[t.node]) continue;
                    if (sameKeys(na, t, tps)) match.push_back(t.node);
                }
                if (match.size() > 1) {
                    // Alike in key counts and times: tell them apart by their key values.
                    std::vector<int32_t> byValue;
                    for (int32_t node : match) {
                        for (const GltfNodes::Target& t : *targets)
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

private:
    const std::vector<int32_t>* candidates(const std::string& name) const {
        auto it = byName_.find(name);
        return it == byName_.end() ? nullptr : &it->second;
    }

    const std::vector<int32_t>* gltfSkin(int32_t meshNode) const {
        if (!gltf_.valid || meshNode < 0 || static_cast<size_t>(meshNode) >= gltf_.jsonOfNode.size()) return nullptr;
        const int32_t j = gltf_.jsonOfNode[meshNode];
        if (j < 0 || static_cast<size_t>(j) >= gltf_.skinOfJson.size()) return nullptr;
        const int32_t skin = gltf_.skinOfJson[j];
        return skin >= 0 && static_cast<size_t>(skin) < gltf_.skinJoints.size() ? &gltf_.skinJoints[skin] : nullptr;
    }

    bool isAncestorOrSelf(int32_t a, int32_t n) const {
        for (; n >= 0; n = sk_.parent[n]) {
            if (n == a) return true;
        }
        return false;
    }

    int32_t commonAncestor(int32_t a, int32_t b) const {
        for (; a >= 0; a = sk_.parent[a]) {
            if (isAncestorOrSelf(a, b)) return a;
        }
        return -1;
    }

    // Whether Assimp's channel has the key counts and time range of a glTF target. For a path
    // the target does not animate, Assimp 5.2.5 adds one key holding the node's default value.
    static bool sameKeys(const aiNodeAnim* na, const GltfNodes::Target& t, double tps) {
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
    static bool sameValues(const aiNodeAnim* na, const GltfNodes::Target& t) {
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

    int32_t pick(const std::vector<int32_t>& cands, const std::vector<int>& score, const std::string& name,
                 const std::string& usedBy, const std::string& rule) {
        size_t best = 0;
        for (size_t k = 1; k < cands.size(); ++k) {
            if (score[k] > score[best]) best = k;
        }
        const bool unique = std::count(score.begin(), score.end(), score[best]) == 1;
        note(name, usedBy, cands, cands[best], unique ? rule : "first of the nodes alike (ambiguous)", unique);
        return cands[best];
    }

    void note(const std::string& name, const std::string& usedBy, const std::vector<int32_t>& cands, int32_t chosen,
              const std::string& rule, bool safe) {
        for (const NameBinding& b : stats_.nameBindings) {
            if (b.name == name && b.chosen == chosen && b.rule == rule) return;
        }
        stats_.nameBindings.push_back({name, usedBy, cands, chosen, rule, safe});
    }

    const Skeleton& sk_;
    const GltfNodes& gltf_;
    ImportStats& stats_;
    std::unordered_map<std::string, std::vector<int32_t>> byName_;
    std::vector<uint8_t> hasMesh_, isJoint_;
};

// ---- Units: every file in metres (or the file's own numbers with --units file) ----------

std::atomic<int> gUnitMode{static_cast<int>(UnitMode::Metres)};

bool metaNumber(const aiMetadata* md, const char* key, double& out) {
    if (!md) return false;
    for (unsigned i = 0; i < md->mNumProperties; ++i) {
        if (std::strcmp(md->mKeys[i].C_Str(), key) != 0 || !md->mValues[i].mData) continue;
        const aiMetadataEntry& e = md->mValues[i];
        switch (e.mType) {
            case AI_FLOAT: out = *static_cast<const float*>(e.mData); return true;
            case AI_DOUBLE: out = *static_cast<const double*>(e.mData); return true;
            case AI_INT32: out = *static_cast<const int32_t*>(e.mData); return true;
            default: return false;
        }
    }
    return false;
}

std::string metaString(const aiMetadata* md, const char* key) {
    if (!md) return {};
    for (unsigned i = 0; i < md->mNumProperties; ++i) {
        if (std::strcmp(md->mKeys[i].C_Str(), key) != 0 || !md->mValues[i].mData) continue;
        if (md->mValues[i].mType == AI_AISTRING) return static_cast<const aiString*>(md->mValues[i].mData)->C_Str();
    }
    return {};
}

std::string fmtNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// A readable name for a length unit given in metres.
std::string unitName(double metres) {
    struct Named { double m; const char* name; };
    static const Named known[] = {{1.0, "metre"},     {0.01, "centimetre"}, {0.001, "millimetre"},
                                  {0.0254, "inch"},   {0.3048, "foot"},     {0.9144, "yard"},
                                  {1000.0, "kilometre"}, {0.1, "decimetre"}};
    for (const Named& n : known) {
        if (std::fabs(metres - n.m) <= 1e-6 * n.m) return n.name;
    }
    return fmtNumber(metres) + " m";
}

// COLLADA's <asset><unit meter="..."/>: Assimp 5.2.5 reads it but only multiplies the root
// node's matrix by it (so every joint matrix carries the scale). Read it here to undo that and
// bake it instead. Returns false when the file has no <unit> (COLLADA's default is 1 metre).
bool readColladaUnit(const std::string& path, double& meter, std::string& name) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::string head(1 << 20, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    const size_t assetEnd = head.find("</asset>");
    size_t at = head.find("<unit");
    if (at == std::string::npos || (assetEnd != std::string::npos && at > assetEnd)) return false;
    const size_t close = head.find('>', at);
    if (close == std::string::npos) return false;
    const std::string tag = head.substr(at, close - at);
    auto attribute = [&](const char* key) -> std::string {
        const std::string k = std::string(key) + "=";
        const size_t p = tag.find(k);
        if (p == std::string::npos || p + k.size() >= tag.size()) return {};
        const char quote = tag[p + k.size()];
        const size_t end = tag.find(quote, p + k.size() + 1);
        if (end == std::string::npos) return {};
        return tag.substr(p + k.size() + 1, end - p - k.size() - 1);
    };
    const std::string m = attribute("meter");
    name = attribute("name");
    char* end = nullptr;
    const double v = m.empty() ? 1.0 : std::strtod(m.c_str(), &end);
    if (!(v > 0.0) || !std::isfinite(v)) return false;
    meter = v;
    return true;
}

void scaleTranslation(aiMatrix4x4& m, ai_real s) {
    m.a4 *= s;
    m.b4 *= s;
    m.c4 *= s;
}

// Multiply every length of the scene by s without putting a scale into any matrix: node and
// offset-matrix translations, vertex positions (morph targets too) and translation keys. For a
// uniform S, S * M * S^-1 is M with its translation scaled, so every world matrix becomes
// S * W * S^-1 and every skinned or rigid vertex lands at S times where it was: the same
// picture in other units, with joint matrices as rigid as in the file.
void bakeUnitScale(aiScene* scene, ai_real s) {
    std::vector<aiNode*> stack{scene->mRootNode};
    std::unordered_set<aiNode*> seen;
    while (!stack.empty()) {
        aiNode* n = stack.back();
        stack.pop_back();
        if (!n || !seen.insert(n).second) continue;
        scaleTranslation(n->mTransformation, s);
        for (unsigned c = 0; c < n->mNumChildren; ++c) stack.push_back(n->mChildren[c]);
    }
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        aiMesh* am = scene->mMeshes[m];
        if (!am) continue;
        if (am->mVertices) {
            for (unsigned v = 0; v < am->mNumVertices; ++v) am->mVertices[v] *= s;
        }
        for (unsigned k = 0; k < am->mNumAnimMeshes; ++k) {
            aiAnimMesh* morph = am->mAnimMeshes ? am->mAnimMeshes[k] : nullptr;
            if (!morph || !morph->mVertices) continue;
            for (unsigned v = 0; v < morph->mNumVertices; ++v) morph->mVertices[v] *= s;
        }
        for (unsigned b = 0; b < am->mNumBones; ++b) {
            if (am->mBones && am->mBones[b]) scaleTranslation(am->mBones[b]->mOffsetMatrix, s);
        }
    }
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
        aiAnimation* anim = scene->mAnimations[a];
        if (!anim) continue;
        for (unsigned c = 0; c < anim->mNumChannels; ++c) {
            aiNodeAnim* na = anim->mChannels ? anim->mChannels[c] : nullptr;
            if (!na || !na->mPositionKeys) continue;
            for (unsigned k = 0; k < na->mNumPositionKeys; ++k) na->mPositionKeys[k].mValue *= s;
        }
    }
}

// Mean |log10| of the uniform scale of the skin joints' world matrices (every node's below the
// root in a file without skins; file pose, file numbers) when the whole scene is scaled by
// `top` at the root: how far from rigid they are.
double jointScaleError(const aiScene* scene, double top) {
    std::unordered_set<std::string> bones;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh* am = scene->mMeshes[m];
        for (unsigned b = 0; am && am->mBones && b < am->mNumBones; ++b) {
            if (am->mBones[b]) bones.insert(am->mBones[b]->mName.C_Str());
        }
    }
    struct Item { const aiNode* node; aiMatrix4x4 parent; size_t depth; };
    std::vector<Item> stack{{scene->mRootNode, aiMatrix4x4(), 0}};
    double sum = 0.0;
    size_t count = 0;
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        if (!it.node || it.depth > kMaxDepth) continue;
        const aiMatrix4x4 world = it.parent * it.node->mTransformation;
        if (bones.empty() ? it.depth > 0 : bones.count(it.node->mName.C_Str()) > 0) {
            const double det = std::fabs(static_cast<double>(world.Determinant()));
            if (det > 0.0 && std::isfinite(det)) {
                sum += std::fabs(std::log10(top * std::cbrt(det)));
                ++count;
            }
        }
        for (unsigned c = 0; c < it.node->mNumChildren; ++c) stack.push_back({it.node->mChildren[c], world, it.depth + 1});
    }
    return count ? sum / static_cast<double>(count) : 0.0;
}

bool rootIsAnimated(const aiScene* scene) {
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
        const aiAnimation* anim = scene->mAnimations[a];
        for (unsigned c = 0; anim && anim->mChannels && c < anim->mNumChannels; ++c) {
            if (anim->mChannels[c] && anim->mChannels[c]->mNodeName == scene->mRootNode->mName) return true;
        }
    }
    return false;
}

// Work out the file's unit, undo Assimp's own COLLADA root scale, and (unless --units file)
// convert to metres: baked into the data (joints stay as rigid as the file made them), or,
// where the file's own nodes carry the inverse of the unit's scale (Blender's FBX export puts
// 100 on every object of a centimetre file), as a scale on the root, which cancels it and
// leaves the joints rigid. Vertices land in the same place either way.
Units applyUnits(aiScene* scene, const std::string& path, const std::string& ext) {
    Units u;
    const aiMetadata* md = scene->mMetaData;
    double factor = 0.0;
    const bool fbx = ext == ".fbx" || metaString(md, "SourceAsset_Format").find("FBX") != std::string::npos;
    if (fbx && metaNumber(md, "UnitScaleFactor", factor) && factor > 0.0 && std::isfinite(factor)) {
        // UnitScaleFactor: centimetres per unit of the file's numbers.
        u.metresPerUnit = factor / 100.0;
        u.file = unitName(u.metresPerUnit);
        u.source = "FBX UnitScaleFactor " + fmtNumber(factor);
        double original = 0.0;
        if (metaNumber(md, "OriginalUnitScaleFactor", original) && original > 0.0 && original != factor) {
            u.source += " (authored in " + unitName(original / 100.0) + ", OriginalUnitScaleFactor " +
                        fmtNumber(original) + ")";
        }
    } else if (ext == ".dae") {
        double meter = 1.0;
        std::string name;
        const bool given = readColladaUnit(path, meter, name);
        if (std::fabs(meter - 1.0) > 1e-12 && scene->mRootNode) {
            const ai_real inv = static_cast<ai_real>(1.0 / meter);
            scene->mRootNode->mTransformation *= aiMatrix4x4(inv, 0, 0, 0, 0, inv, 0, 0, 0, 0, inv, 0, 0, 0, 0, 1);
        }
        u.metresPerUnit = meter;
        u.file = unitName(meter);
        u.source = given ? "COLLADA <unit meter=\"" + fmtNumber(meter) + "\"" + (name.empty() ? "" : " name=\"" + name + "\"") + ">"
                         : "COLLADA, no <unit> (1 metre)";
    } else if (ext == ".gltf" || ext == ".glb") {
        u.metresPerUnit = 1.0;
        u.file = "metre";
        u.source = "glTF (always metres)";
    }
    if (unitMode() == UnitMode::Metres && u.metresPerUnit > 0.0 && std::fabs(u.metresPerUnit - 1.0) > 1e-12) {
        const ai_real s = static_cast<ai_real>(u.metresPerUnit);
        const bool atRoot = scene->mRootNode && !rootIsAnimated(scene) &&
                            jointScaleError(scene, u.metresPerUnit) + 1e-3 < jointScaleError(scene, 1.0);
        if (atRoot) {
            scene->mRootNode->mTransformation = aiMatrix4x4(s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1) *
                                                scene->mRootNode->mTransformation;
        } else {
            bakeUnitScale(scene, s);
        }
        u.scaleApplied = u.metresPerUnit;
        u.appliedAtRoot = atRoot;
    }
    return u;
}

}  // namespace

namespace {
std::atomic<float> gAmcFps{120.0f};
}  // namespace

void setUnitMode(UnitMode mode) { gUnitMode = static_cast<int>(mode); }
UnitMode unitMode() { return static_cast<UnitMode>(gUnitMode.load()); }

void setAmcFramesPerSecond(float fps) {
    if (fps > 0.0f && std::isfinite(fps)) gAmcFps = fps;
}
float amcFramesPerSecond() { return gAmcFps; }

bool isModelFile(const std::string& path) {
    const std::string ext = lowerExtension(path);
    if (ext.empty()) return false;
    if (ext == ".asf" || ext == ".amc") return true;
    static const Assimp::Importer probe;
    return probe.IsExtensionSupported(ext);
}

std::string assimpVersion() {
    return std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
           std::to_string(aiGetVersionPatch());
}

unsigned importFlags() {
    return aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals |
           aiProcess_SortByPType | aiProcess_ValidateDataStructure;
}

Result<Model> importModel(const std::string& path) {
    if (Result<bool> regular = checkRegularFile(path); !regular) return regular.error();

    // Acclaim motion capture (CMU): our own parser; an .amc finds its skeleton beside it.
    const std::string ext = lowerExtension(path);
    if (ext == ".asf") return importAsf(path);
    if (ext == ".amc") {
        const std::string asf = findAsfForAmc(path);
        if (asf.empty()) {
            return Error{path + ": no skeleton beside it (for 01_01.amc rigview looks for 01.asf in the same folder)"};
        }
        return importAsfAmc(asf, {path}, amcFramesPerSecond());
    }
    // Inter-Quake Model: our own reader (Assimp 5.2.5 reads only the static meshes).
    if (ext == ".iqm") {
        Result<Model> iqm = importIqm(path);
        if (iqm) computeSkinBindPose(iqm.value());
        return iqm;
    }

    // Object File Format (by extension or, as Assimp also finds it, by keyword): counts no
    // file of this size could hold are refused before Assimp allocates for them (off_header.h).
    if (Result<bool> counts = checkOffCounts(path, ext == ".off"); !counts) return counts.error();

    Assimp::Importer importer;
    auto* io = new ConfinedIOSystem(path);  // owned by the importer
    importer.SetIOHandler(io);
    // Drop point and line primitives: a skinned viewer draws triangles.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    // Skeleton-only files (BVH, some FBX) stay skeletons: no stand-in bone meshes.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
    // Read with no post-processing first: a skeleton-only file (BVH) has no meshes, which
    // the validator rejects unless the scene is flagged incomplete. Then validate (always the
    // first step) and post-process.
    const aiScene* scene = nullptr;
    std::vector<ImportRepair> repairs;
    {
        SilenceStdio quiet;
        scene = importer.ReadFile(path, 0);
        if (scene && scene->mNumMeshes == 0) {
            const_cast<aiScene*>(scene)->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;
        }
        // Points Assimp's validation would refuse but that have one safe reading (keys past a
        // clip's end, empty channels) are repaired first and recorded for `check` and `info`.
        if (scene) repairs = repairScene(*const_cast<aiScene*>(scene));
        if (scene) dropLightsAndCameras(*const_cast<aiScene*>(scene));  // not read: see scene_repair.h
        if (scene) uniquifyBoneNames(const_cast<aiScene*>(scene));
        if (scene) scene = importer.ApplyPostProcessing(importFlags());
    }
    if (!scene && !io->refused().empty()) {
        return Error{path + ": refused to read " + io->refused().front() +
                         ": outside the model's folder (--allow-external-paths allows it)",
                     "external-path-refused"};
    }
    if (!scene) {
        std::string msg = importer.GetErrorString();
        if (msg.empty()) msg = "Assimp could not import it";
        if (msg.find("bad_alloc") != std::string::npos) {
            msg = "out of memory while importing (the file claims more data than fits; see RIGVIEW_MAX_MEMORY_MB)";
        }
        if (ext == ".blend") msg += " (and " + std::string(kBlendLimitation) + ")";
        return Error{path + ": " + msg};
    }
    if (!scene->mRootNode) return Error{path + ": the scene has no root node"};

    Model model;
    model.path = path;
    model.stats.repairs = std::move(repairs);
    model.stats.refusedPaths = io->refused();
    model.units = applyUnits(const_cast<aiScene*>(scene), path, ext);
    auto nodes = flattenNodes(scene, model.skeleton, path);
    if (!nodes) return nodes.error();
    importMaterials(scene, model);
    confineTextures(model);
    const GltfNodes gltf = readGltfNodes(path, model.skeleton);
    NodeBinder binder(model.skeleton, *nodes, gltf, model.stats);

    for (size_t n = 0; n < nodes->size(); ++n) {
        const aiNode* an = (*nodes)[n];
        for (unsigned k = 0; k < an->mNumMeshes; ++k) {
            const unsigned mi = an->mMeshes[k];
            if (mi >= scene->mNumMeshes || !scene->mMeshes[mi]) continue;
            const aiMesh* am = scene->mMeshes[mi];
            if (!(am->mPrimitiveTypes & (aiPrimitiveType_TRIANGLE | aiPrimitiveType_POLYGON)) || am->mNumFaces == 0) {
                ++model.stats.skippedMeshes;
                continue;
            }
            const std::string label = "'" + std::string(am->mName.length ? am->mName.C_Str() : model.skeleton.names[n]) + "'";
            const std::vector<int32_t> boneNodes = binder.bindBones(am, static_cast<int32_t>(n), label);
            Mesh mesh = importMesh(am, static_cast<int32_t>(n), model.skeleton, boneNodes, model.stats);
            if (mesh.material >= model.materials.size()) mesh.material = 0;
            model.meshes.push_back(std::move(mesh));
        }
    }
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
        if (!scene->mAnimations[a]) continue;
        const aiAnimation* anim = scene->mAnimations[a];
        const std::string label = "'" + std::string(anim->mName.length ? anim->mName.C_Str() : "clip" + std::to_string(a)) + "'";
        const std::vector<int32_t> channelNodes = binder.bindChannels(anim, a, label);
        model.clips.push_back(importClip(anim, a, model.skeleton, channelNodes, model.stats));
        importMorphChannels(anim, model, model.clips.back());
    }
    applyGltfNodeKeys(path, model);
    applyGltfStepInterpolation(path, model);
    applyGltfMorphs(path, model);
    // FBX: Assimp puts each blend shape's full weight (1) in aiAnimMesh::mWeight, not the
    // channel's value; the shapes rest at 0, as Blender's importer has them.
    if (ext == ".fbx") {
        for (Mesh& mesh : model.meshes) std::fill(mesh.morphDefaultWeights.begin(), mesh.morphDefaultWeights.end(), 0.0f);
    }
    for (Clip& c : model.clips) shareTimeRuns(c);
    computeSkinBindPose(model);
    // Assimp's Blender reader gives static geometry only: shown, but never passed as a rig.
    if (ext == ".blend") model.stats.formatLimitation = kBlendLimitation;
    if (model.meshes.empty() && model.clips.empty() && model.skeleton.size() <= 1) {
        return Error{path + ": the file holds no meshes, no skeleton and no animation"};
    }
    return model;
}

Result<Model> importModelWithAnims(const std::string& path, const std::vector<std::string>& animPaths) {
    if (animPaths.empty()) return importModel(path);
    if (Result<bool> regular = checkRegularFile(path); !regular) return regular.error();
    for (const std::string& a : animPaths) {
        if (Result<bool> regular = checkRegularFile(a); !regular) return regular.error();
    }
    std::vector<std::string> amcs, others;
    for (const std::string& a : animPaths) (lowerExtension(a) == ".amc" && lowerExtension(path) == ".asf" ? amcs : others).push_back(a);
    Result<Model> base = amcs.empty() ? importModel(path) : importAsfAmc(path, amcs, amcFramesPerSecond());
    if (!base) return base;
    Model& model = base.value();
    for (const std::string& a : amcs) {
        model.stats.retargetNotes.push_back(a + ": motion read with the skeleton's own dof");
    }
    for (const std::string& a : others) {
        Result<Model> src = importModel(a);
        if (!src) return src.error();
        const Model& from = src.value();
        if (from.clips.empty()) return Error{a + ": has no clips to add"};
        for (const std::string& r : from.stats.refusedPaths) model.stats.refusedPaths.push_back(r);
        const RetargetMap map = buildRetargetMap(from.skeleton, model.skeleton);
        std::vector<std::string> skipped;
        size_t added = 0;
        for (const Clip& c : from.clips) {
            Clip clip = retargetClip(c, map, from.skeleton, model.skeleton, &skipped);
            if (clip.tracks.empty()) continue;
            if (model.findClip(clip.name) >= 0) clip.name = std::filesystem::path(a).stem().string() + ":" + clip.name;
            model.clips.push_back(std::move(clip));
            ++added;
        }
        if (added == 0) {
            return Error{a + ": none of its joints match " + path + " by name (" +
                         std::to_string(map.missingInTarget.size()) + " joints missing)"};
        }
        std::sort(skipped.begin(), skipped.end());
        skipped.erase(std::unique(skipped.begin(), skipped.end()), skipped.end());
        std::string note = a + ": " + std::to_string(added) + " clips added";
        if (!skipped.empty()) {
            note += "; " + std::to_string(skipped.size()) + " joints not in the model skipped:";
            for (size_t i = 0; i < skipped.size() && i < 12; ++i) note += (i ? ", " : " ") + skipped[i];
            if (skipped.size() > 12) note += ", ...";
        }
        if (!map.missingInSource.empty()) {
            note += "; " + std::to_string(map.missingInSource.size()) + " model joints not animated";
        }
        model.stats.retargetNotes.push_back(note);
    }
    return base;
}

}  // namespace rig
