// What the glTF export tests share: Node.js scripts (the Khronos validator, three.js) run on
// written files.
#pragma once

#include <string>
#include <vector>

namespace rig::testing::exports {

// node SCRIPT ARGS..., its standard output; a failure names what is missing (Node.js, or the
// npm package `package` beside the script). Exit code 1 is a result when `oneIsAResult` (the
// validator found errors), a failure otherwise.
std::string runNode(const std::string& script, const std::string& package, const std::vector<std::string>& args,
                    bool oneIsAResult = false);

// The Khronos glTF validator (tools/gltf_validator) on `files`: no error, no unused object (but
// texture coordinates no texture reads: a mesh's UVs are kept), and no warning but the three that say a skinned mesh's node transform is ignored (see
// GltfExportValidator.NoErrors) and those named in `alsoAllowed`.
void expectValid(const std::vector<std::string>& files, const std::vector<std::string>& alsoAllowed = {});

}  // namespace rig::testing::exports
