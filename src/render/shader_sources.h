// Shader sources from shaders/, embedded at build time (cmake/embed_shaders.cmake).
#pragma once

namespace rig {

// The source of shaders/<name> (e.g. "skinned.vert"), or nullptr.
const char* shaderSource(const char* name);

}  // namespace rig
