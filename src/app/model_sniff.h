// A quick look at a model file's first bytes before the viewer hands it to an import worker:
// a file that cannot be any format rigview reads (a .glb without glTF's magic, a file of zeros,
// binary bytes in a text format) is refused in milliseconds with one line, instead of holding
// a worker busy reading it (a 1.5 GB file of zeros took Assimp 80 s to reject).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rig {

// What is wrong with a file named `path` (its extension says its format) of `size` bytes whose
// first bytes are `head`; "" when it may be what it says (the import decides). Formats with a
// magic number are checked against it (glb, FBX, IQM, .blend, B3D, .x, 3DS, MD2/MD3, MS3D,
// PLY, zipped COLLADA), text formats for text (glTF JSON starts with '{', COLLADA with '<', BVH
// with HIERARCHY; no NUL byte in OBJ, SMD, MD5, ASF/AMC...), every file for not being empty or
// all zeros.
std::string sniffModelHead(const std::string& path, std::string_view head, uint64_t size);

// The same on the file itself (its first 64 KiB); "" also when it cannot be read (the import
// then says why, as for any file).
std::string sniffModelFile(const std::string& path);

}  // namespace rig
