#include "import/assimp/quad_split.h"

#include <assimp/mesh.h>

#include <memory>

namespace rig::scene {

namespace {

// The corner the quad `q` (four vertex indices) is fanned from. Corner i's angles to the
// opposite corner are acos(l·d) and acos(r·d) (l, r: the unit edges to its neighbours, d: the
// unit diagonal); acos falls from pi to 0 over [-1, 1], so acos(a) + acos(b) > pi exactly when
// a + b < 0. A zero edge stays zero (aiVector3D::Normalize), its cosine 0 as in Assimp's step;
// a NaN (a non-finite vertex) is never less than 0, and acosf's NaN never more than pi.
unsigned fanCorner(const aiVector3D* verts, const unsigned* q) {
    for (unsigned i = 0; i < 4; ++i) {
        const aiVector3D& v = verts[q[i]];
        const aiVector3D left = (verts[q[(i + 3) % 4]] - v).Normalize();
        const aiVector3D diag = (verts[q[(i + 2) % 4]] - v).Normalize();
        const aiVector3D right = (verts[q[(i + 1) % 4]] - v).Normalize();
        if (left * diag + right * diag < 0.0f) return i;
    }
    return 0;
}

}  // namespace

size_t splitQuads(aiMesh& mesh) {
    if (!mesh.mFaces || !mesh.mVertices) return 0;
    size_t quads = 0;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const unsigned n = mesh.mFaces[f].mNumIndices;
        if (n > 4) return 0;  // Assimp's step triangulates the whole mesh
        quads += n == 4;
    }
    if (quads == 0 || mesh.mNumFaces + quads > 0xFFFFFFFFull) return 0;
    std::unique_ptr<aiFace[]> faces(new aiFace[mesh.mNumFaces + quads]);
    aiFace* out = faces.get();
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        aiFace& in = mesh.mFaces[f];
        if (in.mNumIndices != 4) {
            // Moved, not copied: the old face gives up its indices.
            out->mNumIndices = in.mNumIndices;
            out->mIndices = in.mIndices;
            in.mNumIndices = 0;
            in.mIndices = nullptr;
            ++out;
            continue;
        }
        const unsigned* q = in.mIndices;
        const unsigned s = fanCorner(mesh.mVertices, q);
        const unsigned a = q[s], b = q[(s + 1) % 4], c = q[(s + 2) % 4], d = q[(s + 3) % 4];
        // The first triangle keeps the quad's array (room for four), the second gets its own.
        out[1].mIndices = new unsigned[3]{a, c, d};
        out[1].mNumIndices = 3;
        out[0].mIndices = in.mIndices;
        out[0].mNumIndices = 3;
        out[0].mIndices[0] = a;
        out[0].mIndices[1] = b;
        out[0].mIndices[2] = c;
        in.mNumIndices = 0;
        in.mIndices = nullptr;
        out += 2;
    }
    delete[] mesh.mFaces;
    mesh.mFaces = faces.release();
    mesh.mNumFaces += static_cast<unsigned>(quads);
    mesh.mPrimitiveTypes = (mesh.mPrimitiveTypes & ~aiPrimitiveType_POLYGON) | aiPrimitiveType_TRIANGLE;
    return quads;
}

}  // namespace rig::scene
