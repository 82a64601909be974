// Assimp's own read of a file and nothing else (no post-processing, no conversion): the peer
// that `rigview info` is measured against on FBX in bench/open_ladder.sh.
// usage: assimp_read FILE   (prints the meshes' vertex count)
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: assimp_read FILE\n");
        return 2;
    }
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(argv[1], 0);
    if (!scene) {
        std::fprintf(stderr, "%s: %s\n", argv[1], importer.GetErrorString());
        return 1;
    }
    unsigned long vertices = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) vertices += scene->mMeshes[m]->mNumVertices;
    std::printf("vertices %lu\n", vertices);
    return 0;
}
