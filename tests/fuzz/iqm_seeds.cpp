// Writes the seed corpus of the IQM fuzz target into the folder given: the small files of
// tests/support/iqm_writer.h (as is, with the anim flagged as a loop, and cut to an
// animation-only file: no joints, meshes or vertices, as the IQM compiler writes an action
// file; iqm_fuzz reads that kind onto the small model's joints). tools/test.sh adds
// assimp-testmodels' mrfixit.iqm beside them.
#include <cstdio>
#include <fstream>
#include <string>

#include "support/iqm_writer.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: iqm_write_seeds DIR\n");
        return 2;
    }
    using namespace rig::testing;
    SmallIqm small;
    SmallIqm loop;
    put32(loop.bytes, get32(loop.bytes, field(kOfsAnims)) + 16, 1);
    SmallIqm animOnly;
    for (Field f : {kNumMeshes, kOfsMeshes, kNumVertexArrays, kNumVertexes, kOfsVertexArrays, kNumTriangles, kOfsTriangles,
                    kNumJoints, kOfsJoints}) {
        put32(animOnly.bytes, field(f), 0);
    }
    for (const auto& [name, iqm] : {std::pair<const char*, const SmallIqm*>{"small.iqm", &small}, {"small_loop.iqm", &loop},
                                    {"small_anim_only.iqm", &animOnly}}) {
        std::ofstream out(std::string(argv[1]) + "/" + name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(iqm->bytes.data()), static_cast<std::streamsize>(iqm->bytes.size()));
        if (!out) return 1;
    }
    return 0;
}
