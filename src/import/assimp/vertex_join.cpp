#include "import/assimp/vertex_join.h"

#include <assimp/scene.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace rig::scene {

namespace {

// Attributes other than position and influences join within this distance (Assimp's step's).
constexpr float kEpsilon = 1e-5f;
// Kept vertices at one position compared with a new one, at most.
constexpr int kMaxCandidates = 32;

// The per-vertex arrays of a mesh or a morph target, as (base, bytes per vertex) streams.
struct Stream {
    const unsigned char* data;
    size_t size;
};

template <class M>
void addStreams(const M& m, std::vector<Stream>& out) {
    auto add = [&](const void* p, size_t size) {
        if (p) out.push_back({static_cast<const unsigned char*>(p), size});
    };
    add(m.mVertices, sizeof(aiVector3D));
    add(m.mNormals, sizeof(aiVector3D));
    add(m.mTangents, sizeof(aiVector3D));
    add(m.mBitangents, sizeof(aiVector3D));
    for (unsigned c = 0; c < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++c) add(m.mTextureCoords[c], sizeof(aiVector3D));
    for (unsigned c = 0; c < AI_MAX_NUMBER_OF_COLOR_SETS; ++c) add(m.mColors[c], sizeof(aiColor4D));
}

// 64-bit mixing of 4-byte words (a multiply-xorshift step per word): a hash, not a comparison;
// equal keys are always compared byte for byte.
inline uint64_t mix(uint64_t h, uint32_t w) {
    h ^= w;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

inline uint64_t hashBytes(uint64_t h, const unsigned char* p, size_t n) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t w;
        std::memcpy(&w, p + i, 4);
        h = mix(h, w);
    }
    for (; i < n; ++i) h = mix(h, p[i]);
    return h;
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

size_t joinMeshVertices(aiMesh& mesh) {
    const unsigned nv = mesh.mNumVertices;
    if (nv < 2 || !mesh.mVertices) return 0;
    for (unsigned a = 0; a < mesh.mNumAnimMeshes; ++a) {
        const aiAnimMesh* x = mesh.mAnimMeshes[a];
        if (x && x->mNumVertices != nv) return 0;
    }
    std::vector<Stream> streams;
    addStreams(mesh, streams);
    for (unsigned a = 0; a < mesh.mNumAnimMeshes; ++a) {
        if (mesh.mAnimMeshes[a]) addStreams(*mesh.mAnimMeshes[a], streams);
    }

    // Each vertex's influences as (bone, the weight's bits), sorted, in one array: vertex v's
    // are influence[first[v] .. first[v + 1]) (a NaN weight compares by its bits too).
    struct Influence {
        uint32_t bone, bits;
        bool operator<(const Influence& o) const { return bone != o.bone ? bone < o.bone : bits < o.bits; }
        bool operator==(const Influence& o) const { return bone == o.bone && bits == o.bits; }
    };
    std::vector<uint32_t> first;
    std::vector<Influence> influence;
    if (mesh.mNumBones) {
        first.assign(size_t(nv) + 1, 0);
        for (unsigned b = 0; b < mesh.mNumBones; ++b) {
            const aiBone* bone = mesh.mBones[b];
            if (!bone || !bone->mWeights) continue;
            for (unsigned w = 0; w < bone->mNumWeights; ++w) {
                if (bone->mWeights[w].mVertexId < nv) ++first[bone->mWeights[w].mVertexId + 1];
            }
        }
        for (unsigned v = 0; v < nv; ++v) first[v + 1] += first[v];
        influence.resize(first[nv]);
        std::vector<uint32_t> fill(first.begin(), first.end() - 1);
        for (unsigned b = 0; b < mesh.mNumBones; ++b) {
            const aiBone* bone = mesh.mBones[b];
            if (!bone || !bone->mWeights) continue;
            for (unsigned w = 0; w < bone->mNumWeights; ++w) {
                const aiVertexWeight& vw = bone->mWeights[w];
                if (vw.mVertexId >= nv) continue;
                uint32_t bits = 0;
                std::memcpy(&bits, &vw.mWeight, sizeof bits);
                influence[fill[vw.mVertexId]++] = {b, bits};
            }
        }
        // Filled bone by bone, so each vertex's are in order unless it names a bone twice.
        for (unsigned v = 0; v < nv; ++v) {
            const auto begin = influence.begin() + first[v], end = influence.begin() + first[v + 1];
            if (!std::is_sorted(begin, end)) std::sort(begin, end);
        }
    }

    // Candidates share a position bit for bit (the corners of one vertex come from one control
    // point); among them a corner joins the first kept vertex it matches: bone influences
    // exactly, every other attribute (normals, UVs, tangents, colours, morph targets) within
    // 1e-5, as Assimp's step compares them (exporters write per-corner normals with float noise).
    auto hashOf = [&](unsigned v) { return hashBytes(0x243F6A8885A308D3ull, reinterpret_cast<const unsigned char*>(&mesh.mVertices[v]), sizeof(aiVector3D)); };
    auto close = [&](const Stream& s, unsigned a, unsigned b) {
        const size_t floats = s.size / sizeof(float);
        float d2 = 0.0f;
        for (size_t i = 0; i < floats; ++i) {
            float x, y;
            std::memcpy(&x, s.data + size_t(a) * s.size + i * sizeof(float), sizeof x);
            std::memcpy(&y, s.data + size_t(b) * s.size + i * sizeof(float), sizeof y);
            if (std::memcmp(&x, &y, sizeof x) == 0) continue;  // equal bits (NaN included)
            d2 += (x - y) * (x - y);
        }
        return d2 <= kEpsilon * kEpsilon;  // false for a NaN against a number
    };
    auto same = [&](unsigned a, unsigned b) {
        if (std::memcmp(&mesh.mVertices[a], &mesh.mVertices[b], sizeof(aiVector3D)) != 0) return false;
        for (size_t s = 1; s < streams.size(); ++s) {
            if (!close(streams[s], a, b)) return false;
        }
        if (first.empty()) return true;
        const uint32_t n = first[a + 1] - first[a];
        return n == first[b + 1] - first[b] &&
               std::equal(influence.begin() + first[a], influence.begin() + first[a] + n, influence.begin() + first[b]);
    };

    // Open addressing over the positions seen (a power of two at least twice the vertex count);
    // each slot heads a chain of the kept vertices at that position, newest first. At most
    // kMaxCandidates of a chain are compared, so a file with a million corners on one point
    // stays linear (a vertex not joined is only one vertex more).
    size_t slots = 16;
    while (slots < size_t(nv) * 2) slots <<= 1;
    constexpr uint32_t kNone = UINT32_MAX;
    std::vector<uint32_t> head(slots, kNone);  // the newest kept vertex of the slot's position
    std::vector<uint32_t> next(nv, kNone);     // per kept vertex (its index in the file): the one kept before it there
    std::vector<unsigned> remap(nv), keep;
    keep.reserve(nv);
    // The table and the kept vertices are read at random: each vertex's slot is fetched
    // kAheadSlot vertices ahead, and the data of the vertex heading it kAheadData ahead, so
    // the loop waits on memory for neither (the hints change nothing of what is compared).
    constexpr unsigned kAheadSlot = 16, kAheadData = 8;
    size_t ahead[kAheadSlot];  // the slot of vertex u at ahead[u % kAheadSlot]
    for (unsigned u = 0; u < kAheadSlot && u < nv; ++u) ahead[u] = hashOf(u) & (slots - 1);
    auto fetch = [&](const void* p) { __builtin_prefetch(p); };
    for (unsigned v = 0; v < nv; ++v) {
        const size_t at0 = ahead[v % kAheadSlot];
        if (v + kAheadSlot < nv) {
            const size_t later = hashOf(v + kAheadSlot) & (slots - 1);
            ahead[v % kAheadSlot] = later;
            fetch(&head[later]);
        }
        if (v + kAheadData < nv) {
            if (const uint32_t k = head[ahead[(v + kAheadData) % kAheadSlot]]; k != kNone) {
                for (const Stream& st : streams) fetch(st.data + size_t(k) * st.size);
                if (!first.empty()) {
                    fetch(&first[k]);
                    fetch(influence.data() + first[k]);
                }
            }
        }
        size_t at = at0;
        while (head[at] != kNone &&
               std::memcmp(&mesh.mVertices[head[at]], &mesh.mVertices[v], sizeof(aiVector3D)) != 0) {
            at = (at + 1) & (slots - 1);
        }
        uint32_t found = kNone;
        int tried = 0;
        for (uint32_t k = head[at]; k != kNone && tried < kMaxCandidates && found == kNone; k = next[k], ++tried) {
            if (same(k, v)) found = k;
        }
        if (found != kNone) {
            remap[v] = remap[found];
            continue;
        }
        next[v] = head[at];
        head[at] = v;
        remap[v] = static_cast<unsigned>(keep.size());
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
    // A joined vertex's influences are its first occurrence's (the same, by the comparison).
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

size_t joinIdenticalVertices(aiScene& scene) {
    size_t removed = 0;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
        if (scene.mMeshes[m]) removed += joinMeshVertices(*scene.mMeshes[m]);
    }
    return removed;
}

}  // namespace rig::scene
