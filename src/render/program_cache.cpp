#include "render/program_cache.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/cache_folder.h"
#include "util/hash.h"
#include "util/output_file.h"

namespace rig {

namespace {

// Changes whenever the entry's layout does.
constexpr char kMagic[8] = {'R', 'I', 'G', 'P', 'R', 'G', '0', '1'};
// No program of rigview's comes near this; a larger file is not an entry of ours.
constexpr size_t kMaxBinaryBytes = size_t(64) << 20;

struct Header {
    char magic[8];
    uint32_t format;
    uint32_t length;
    uint64_t checksum;  // of the binary that follows
};

std::atomic<unsigned> gLoaded{0}, gCompiled{0}, gStored{0}, gRejected{0};

uint64_t fnv1aText(uint64_t h, const std::string& s) {
    const uint64_t n = s.size();
    h = fnv1a(h, &n, sizeof(n));  // length first: "ab"+"c" differs from "a"+"bc"
    return fnv1a(h, s.data(), s.size());
}

std::string glString(GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return s ? s : "";
}

bool driverKeepsBinaries() {
    if (!GLAD_GL_ARB_get_program_binary) return false;
    GLint formats = 0;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    return formats > 0;
}

}  // namespace

ProgramCacheCounts programCacheCounts() { return {gLoaded.load(), gCompiled.load(), gStored.load(), gRejected.load()}; }

std::string programCachePath(const std::vector<std::pair<std::string, std::string>>& namedSources,
                             const std::vector<std::string>& feedbackVaryings) {
    const std::string dir = cacheFolder("programs");
    if (dir.empty() || !driverKeepsBinaries()) return {};
    uint64_t h = fnv1a(kFnvOffset, kMagic, sizeof(kMagic));
    for (GLenum name : {GL_VENDOR, GL_RENDERER, GL_VERSION}) h = fnv1aText(h, glString(name));
    for (const auto& [name, source] : namedSources) h = fnv1aText(fnv1aText(h, name), source);
    for (const std::string& v : feedbackVaryings) h = fnv1aText(h, v);
    char file[40];
    std::snprintf(file, sizeof(file), "%016llx.bin", static_cast<unsigned long long>(h));
    return (std::filesystem::path(dir) / file).string();
}

GLuint loadCachedProgram(const std::string& path) {
    if (path.empty()) return 0;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return 0;  // not cached yet
    Header header{};
    std::vector<char> binary;
    bool intact = S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) >= sizeof(Header) &&
                  static_cast<size_t>(st.st_size) <= sizeof(Header) + kMaxBinaryBytes;
    if (intact) {
        std::ifstream in(path, std::ios::binary);
        intact = in.read(reinterpret_cast<char*>(&header), sizeof(header)) &&
                 std::memcmp(header.magic, kMagic, sizeof(kMagic)) == 0 &&
                 sizeof(Header) + header.length == static_cast<size_t>(st.st_size);
        if (intact) {
            binary.resize(header.length);
            intact = in.read(binary.data(), std::streamsize(binary.size())) &&
                     fnv1a(kFnvOffset, binary.data(), binary.size()) == header.checksum;
        }
    }
    GLuint program = 0;
    if (intact) {
        program = glCreateProgram();
        glProgramBinary(program, header.format, binary.data(), static_cast<GLsizei>(binary.size()));
        GLint ok = GL_FALSE;
        glGetProgramiv(program, GL_LINK_STATUS, &ok);
        if (!ok) {
            glDeleteProgram(program);
            program = 0;
        }
        while (glGetError() != GL_NO_ERROR) {
        }  // a refused binary format leaves GL_INVALID_ENUM behind
    }
    if (!program) {
        ++gRejected;
        return 0;
    }
    ++gLoaded;
    return program;
}

void prepareProgramForCache(GLuint program) { glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE); }

void storeCachedProgram(const std::string& path, GLuint program) {
    ++gCompiled;
    if (path.empty()) return;
    GLint length = 0;
    glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
    if (length <= 0 || static_cast<size_t>(length) > kMaxBinaryBytes) return;
    std::vector<char> binary(static_cast<size_t>(length));
    Header header{};
    std::memcpy(header.magic, kMagic, sizeof(kMagic));
    GLenum format = 0;
    GLsizei written = 0;
    glGetProgramBinary(program, length, &written, &format, binary.data());
    if (written <= 0 || glGetError() != GL_NO_ERROR) return;
    binary.resize(static_cast<size_t>(written));
    header.format = format;
    header.length = static_cast<uint32_t>(binary.size());
    header.checksum = fnv1a(kFnvOffset, binary.data(), binary.size());
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) return;
    OutputFile out(path);
    if (out.open() && out.write(&header, sizeof(header)) && out.write(binary.data(), binary.size()) && out.commit()) {
        ++gStored;
    }
}

}  // namespace rig
