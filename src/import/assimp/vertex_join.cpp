#include "import/assimp/vertex_join.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rig {

namespace {

template <class T>
void appendBytes(std::string& key, const T* values, unsigned v) {
    if (values) key.append(reinterpret_cast<const char*>(&values[v]), sizeof(T));
}

// Every per-vertex value of `m` (a mesh or a morph target) for vertex v, as bytes.
template <class M>
void appendVertex(std::string& key, const M& m, unsigned v) {
    appendBytes(key, m.mVertices, v);
    appendBytes(key, m.mNormals, v);
    appendBytes(key, m.mTangents, v);
    appendBytes(key, m.mBitangents, v);
    for (unsigned c = 0; c < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++c) appendBytes(key, m.mTextureCoords[c], v);
    for (unsigned c = 0; c < AI_MAX_NUMBER_OF_COLOR_SETS; ++c) appendBytes(key, m.mColors[c], v);
}

// Keep element keep[n] at place n (keep is increasing and keep[n] >= n: in place).
template <class T>
void compact(T* values, const std::vector<unsigned>& keep) {
    if (!values) return;
    for (size_t n = 0; n < keep.size(); ++n) values[n] = values[keep[n]];
}

template <class M>
void compactVertices(M& m, const std::vector<unsigned>& keep) {
    compact(m.mVertices, keep);
    compact(m.mNormals, keep);
    compact(m.mTangents, keep);
    compact(m.mBitangents, keep);
    for (unsigned c = 0; c < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++c) compact(m.mTextureCoords[c], keep);
    for (unsigned c = 0; c < AI_MAX_NUMBER_OF_COLOR_SETS; ++c) compact(m.mColors[c], keep);
    m.mNumVertices = static_cast<unsigned>(keep.size());
}

}  // namespace

size_t joinMorphMeshVertices(aiMesh& mesh) {
    const unsigned nv = mesh.mNumVertices;
    if (nv == 0 || !mesh.mVertices) return 0;
    for (unsigned a = 0; a < mesh.mNumAnimMeshes; ++a) {
        const aiAnimMesh* x = mesh.mAnimMeshes[a];
        if (x && x->mNumVertices != nv) return 0;
    }
    // Each vertex's influences as (bone, the weight's bits), sorted (a NaN weight sorts too).
    std::vector<std::vector<std::pair<unsigned, uint32_t>>> influences(mesh.mNumBones ? nv : 0);
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        const aiBone* bone = mesh.mBones[b];
        if (!bone || !bone->mWeights) continue;
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight& vw = bone->mWeights[w];
            uint32_t bits = 0;
            std::memcpy(&bits, &vw.mWeight, sizeof bits);
            if (vw.mVertexId < nv) influences[vw.mVertexId].emplace_back(b, bits);
        }
    }
    for (auto& inf : influences) std::sort(inf.begin(), inf.end());

    // Every value of vertex v, as bytes (influence lists end with a separator: they differ in
    // length).
    auto keyOf = [&](unsigned v, std::string& key) {
        key.clear();
        appendVertex(key, mesh, v);
        if (!influences.empty()) {
            for (const auto& [bone, weight] : influences[v]) {
                key.append(reinterpret_cast<const char*>(&bone), sizeof bone);
                key.append(reinterpret_cast<const char*>(&weight), sizeof weight);
            }
            key.push_back('|');
        }
        for (unsigned a = 0; a < mesh.mNumAnimMeshes; ++a) {
            if (mesh.mAnimMeshes[a]) appendVertex(key, *mesh.mAnimMeshes[a], v);
        }
    };
    // Kept vertices by the hash of their bytes; a candidate's bytes are built again to compare
    // (so memory stays one entry per vertex, however many targets the mesh has).
    std::vector<unsigned> remap(nv), keep;
    std::unordered_multimap<size_t, unsigned> byHash;
    byHash.reserve(nv);
    std::string key, other;
    for (unsigned v = 0; v < nv; ++v) {
        keyOf(v, key);
        const size_t h = std::hash<std::string>{}(key);
        bool found = false;
        for (auto [it, end] = byHash.equal_range(h); it != end && !found; ++it) {
            keyOf(keep[it->second], other);
            if (other == key) {
                remap[v] = it->second;
                found = true;
            }
        }
        if (found) continue;
        remap[v] = static_cast<unsigned>(keep.size());
        byHash.emplace(h, remap[v]);
        keep.push_back(v);
    }
    if (keep.size() == nv) return 0;

    compactVertices(mesh, keep);
    for (unsigned a = 0; a < mesh.mNumAnimMeshes; ++a) {
        if (mesh.mAnimMeshes[a]) compactVertices(*mesh.mAnimMeshes[a], keep);
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        aiFace& face = mesh.mFaces[f];
        for (unsigned k = 0; k < face.mNumIndices; ++k) {
            if (face.mIndices[k] < nv) face.mIndices[k] = remap[face.mIndices[k]];
        }
    }
    // A joined vertex's influences are its first occurrence's (the same, by the key).
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        aiBone* bone = mesh.mBones[b];
        if (!bone || !bone->mWeights) continue;
        unsigned kept = 0;
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight vw = bone->mWeights[w];
            if (vw.mVertexId >= nv || keep[remap[vw.mVertexId]] != vw.mVertexId) continue;
            bone->mWeights[kept++] = aiVertexWeight(remap[vw.mVertexId], vw.mWeight);
        }
        bone->mNumWeights = kept;
    }
    return nv - keep.size();
}

const aiScene* joinIdenticalVertices(Assimp::Importer& importer) {
    auto* scene = const_cast<aiScene*>(importer.GetScene());
    if (!scene || !scene->mMeshes) return importer.ApplyPostProcessing(aiProcess_JoinIdenticalVertices);
    const std::vector<aiMesh*> all(scene->mMeshes, scene->mMeshes + scene->mNumMeshes);
    std::vector<aiMesh*> plain, morphing;
    for (aiMesh* m : all) (m && m->mNumAnimMeshes > 0 ? morphing : plain).push_back(m);
    for (aiMesh* m : morphing) joinMorphMeshVertices(*m);
    if (morphing.empty()) return importer.ApplyPostProcessing(aiProcess_JoinIdenticalVertices);
    // Assimp's step sees only the meshes without targets; the array is put back as it was.
    std::copy(plain.begin(), plain.end(), scene->mMeshes);
    scene->mNumMeshes = static_cast<unsigned>(plain.size());
    const aiScene* joined = importer.ApplyPostProcessing(aiProcess_JoinIdenticalVertices);
    if (!joined) {  // Assimp freed the scene and the meshes it saw
        for (aiMesh* m : morphing) delete m;
        return nullptr;
    }
    std::copy(all.begin(), all.end(), scene->mMeshes);
    scene->mNumMeshes = static_cast<unsigned>(all.size());
    return joined;
}

}  // namespace rig
