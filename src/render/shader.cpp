#include "render/shader.h"

#include <regex>
#include <sstream>

#include "render/program_cache.h"
#include "render/shader_sources.h"

namespace rig {

Program::~Program() {
    if (id_) glDeleteProgram(id_);
}

Program& Program::operator=(Program&& o) noexcept {
    if (this != &o) {
        if (id_) glDeleteProgram(id_);
        id_ = o.id_;
        o.id_ = 0;
    }
    return *this;
}

namespace {

// Rewrite a driver's log ("0:12(5): error: ..." from Mesa, "0(12) : error ..." from NVIDIA)
// as "NAME:12: error: ..." joined on one line.
std::string formatLog(const std::string& name, const std::string& log) {
    static const std::regex mesa(R"(^\s*\d+:(\d+)\(\d+\):\s*(.*)$)");
    static const std::regex nvidia(R"(^\s*\d+\((\d+)\)\s*:\s*(.*)$)");
    std::istringstream in(log);
    std::string line, out;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::smatch m;
        std::string entry;
        if (std::regex_match(line, m, mesa) || std::regex_match(line, m, nvidia)) {
            entry = name + ":" + m[1].str() + ": " + m[2].str();
        } else {
            entry = name + ": " + line;
        }
        out += (out.empty() ? "" : "; ") + entry;
    }
    return out.empty() ? name + ": failed without a log" : out;
}

// A shader's or a program's info log.
std::string infoLog(GLuint object, bool program) {
    GLint len = 0;
    if (program) {
        glGetProgramiv(object, GL_INFO_LOG_LENGTH, &len);
    } else {
        glGetShaderiv(object, GL_INFO_LOG_LENGTH, &len);
    }
    std::string log(static_cast<size_t>(len > 0 ? len : 1), '\0');
    if (program) {
        glGetProgramInfoLog(object, len, nullptr, log.data());
    } else {
        glGetShaderInfoLog(object, len, nullptr, log.data());
    }
    return log.c_str();
}

GLenum stageOf(const std::string& name) {
    if (name.size() >= 5 && name.compare(name.size() - 5, 5, ".vert") == 0) return GL_VERTEX_SHADER;
    return GL_FRAGMENT_SHADER;
}

}  // namespace

Result<Program> Program::buildFromSources(const std::vector<std::pair<std::string, std::string>>& namedSources,
                                          const std::vector<std::string>& feedbackVaryings) {
    const std::string cached = programCachePath(namedSources, feedbackVaryings);
    if (const GLuint prog = loadCachedProgram(cached)) return Program(prog);
    const GLuint prog = glCreateProgram();
    std::vector<GLuint> shaders;
    auto cleanup = [&] {
        for (GLuint s : shaders) glDeleteShader(s);
    };
    for (const auto& [name, source] : namedSources) {
        const GLuint s = glCreateShader(stageOf(name));
        const char* src = source.c_str();
        glShaderSource(s, 1, &src, nullptr);
        glCompileShader(s);
        GLint ok = 0;
        glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            const std::string log = infoLog(s, false);
            glDeleteShader(s);
            cleanup();
            glDeleteProgram(prog);
            return Error{"shader compile error: " + formatLog(name, log)};
        }
        glAttachShader(prog, s);
        shaders.push_back(s);
    }
    if (!feedbackVaryings.empty()) {
        std::vector<const char*> names;
        for (const std::string& v : feedbackVaryings) names.push_back(v.c_str());
        glTransformFeedbackVaryings(prog, static_cast<GLsizei>(names.size()), names.data(), GL_INTERLEAVED_ATTRIBS);
    }
    if (!cached.empty()) prepareProgramForCache(prog);
    glLinkProgram(prog);
    cleanup();
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        const std::string log = infoLog(prog, true);
        glDeleteProgram(prog);
        std::string names;
        for (const auto& ns : namedSources) names += (names.empty() ? "" : "+") + ns.first;
        return Error{"shader link error: " + formatLog(names, log)};
    }
    storeCachedProgram(cached, prog);
    return Program(prog);
}

Result<Program> Program::build(const std::vector<std::string>& shaders, const std::vector<std::string>& feedbackVaryings,
                               const std::string& defines) {
    std::vector<std::pair<std::string, std::string>> sources;
    for (const std::string& name : shaders) {
        const char* src = shaderSource(name.c_str());
        if (!src) return Error{"shader '" + name + "' is not built into this binary"};
        std::string text = src;
        if (!defines.empty()) {
            // Line 1 is #version (every file in shaders/ starts with it); #line 2 keeps the
            // compiler's line numbers those of the file.
            const size_t eol = text.find('\n');
            if (eol != std::string::npos) text.insert(eol + 1, defines + "#line 2\n");
        }
        sources.emplace_back(name, std::move(text));
    }
    return buildFromSources(sources, feedbackVaryings);
}

}  // namespace rig
