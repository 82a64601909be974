# Writes OUT (a .cpp) holding every shader of SHADER_DIR as a string, looked up by file
# name: so the binary needs no shader files at run time, and errors still name the file.
file(GLOB shaders RELATIVE ${SHADER_DIR} ${SHADER_DIR}/*.vert ${SHADER_DIR}/*.frag)
list(SORT shaders)
set(body "// Generated from shaders/ by cmake/embed_shaders.cmake. Do not edit.\n#include \"render/shader_sources.h\"\n#include <cstring>\nnamespace rig {\nnamespace {\nstruct Entry { const char* name; const char* source; };\nconst Entry kShaders[] = {\n")
foreach(s ${shaders})
  file(READ ${SHADER_DIR}/${s} text)
  string(APPEND body "  {\"${s}\", R\"rigview_glsl(${text})rigview_glsl\"},\n")
endforeach()
string(APPEND body "};\n}  // namespace\nconst char* shaderSource(const char* name) {\n  for (const Entry& e : kShaders) if (std::strcmp(e.name, name) == 0) return e.source;\n  return nullptr;\n}\n}  // namespace rig\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
