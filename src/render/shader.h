// Program: a linked GLSL program built from shaders/ by name. Compile and link errors come
// back as one message naming the shader file and line. A program linked once is kept between
// runs where the driver allows (render/program_cache.h).
#pragma once

#include <string>
#include <vector>

#include "anim/runtime/result.h"
#include "platform/gl.h"

namespace rig {

class Program {
public:
    Program() = default;
    ~Program();
    Program(Program&& o) noexcept : id_(o.id_) { o.id_ = 0; }
    Program& operator=(Program&& o) noexcept;
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    // Build from shader files (by name, e.g. "skinned.vert", "pbr.frag"). Varyings, if
    // any, are captured by transform feedback (interleaved). `defines` (lines such as
    // "#define X 1\n") go after each file's #version line; error lines still count in the file.
    static Result<Program> build(const std::vector<std::string>& shaders,
                                 const std::vector<std::string>& feedbackVaryings = {},
                                 const std::string& defines = {});
    // Build from explicit sources (tests of the error reporting use this).
    static Result<Program> buildFromSources(const std::vector<std::pair<std::string, std::string>>& namedSources,
                                            const std::vector<std::string>& feedbackVaryings = {});

    GLuint id() const { return id_; }
    // Uniform location, looked up once at set-up (never per frame).
    GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }

private:
    explicit Program(GLuint id) : id_(id) {}
    GLuint id_ = 0;
};

}  // namespace rig
