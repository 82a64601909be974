#include "import/asf_amc/common.h"

#include <charconv>
#include <cmath>
#include <fstream>

#include "import/regular_file.h"

namespace rig::acclaim {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

bool allDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

std::string quote(std::string_view s) {
    std::string r = "'";
    for (size_t i = 0; i < s.size() && i < 40; ++i) r += (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    if (s.size() > 40) r += "...";
    return r + "'";
}

const char* parseNumber(std::string_view tok, double& out) {
    const char* b = tok.data();
    const char* e = b + tok.size();
    if (b != e && *b == '+') ++b;
    if (b == e || *b == '+') return "is not a number";
    double v = 0.0;
    const auto r = std::from_chars(b, e, v);
    if (r.ec == std::errc::result_out_of_range) return "is out of range";
    if (r.ec != std::errc() || r.ptr != e) return "is not a number";
    if (!std::isfinite(v)) return "is not a finite number";
    if (std::fabs(v) > kMaxNumber) return "is out of range (more than 1e9)";
    out = v;
    return nullptr;
}

bool parseDof(std::string_view t, AsfDof& d) {
    static constexpr std::pair<std::string_view, AsfDof> kNames[] = {
        {"rx", AsfDof::RX}, {"ry", AsfDof::RY}, {"rz", AsfDof::RZ}, {"tx", AsfDof::TX},
        {"ty", AsfDof::TY}, {"tz", AsfDof::TZ}, {"l", AsfDof::L}};
    for (const auto& [name, dof] : kNames) {
        if (equalsNoCase(t, name)) {
            d = dof;
            return true;
        }
    }
    return false;
}

Error errorAt(const std::string& path, int line, std::string_view section, const std::string& what) {
    std::string m = path + ":" + std::to_string(line) + ": ";
    if (!section.empty()) m.append(section).append(": ");
    return Error{m + what};
}

glm::dvec3 boneOffset(const AsfSkeleton& asf, size_t b) {
    return b == 0 ? glm::dvec3(0.0) : asf.bones[b].direction * (asf.bones[b].length * asf.lengthMultiplier);
}

Sqt boneBind(const AsfSkeleton& asf, size_t b) {
    const AsfBone& bone = asf.bones[b];
    if (bone.parent < 0) return {asf.rootPosition * asf.lengthMultiplier, bone.axis};
    const glm::dquat cpInv = glm::conjugate(asf.bones[bone.parent].axis);
    return {cpInv * boneOffset(asf, bone.parent), cpInv * bone.axis};
}

Sqt endBind(const AsfSkeleton& asf, size_t b) {
    return {glm::conjugate(asf.bones[b].axis) * boneOffset(asf, b), glm::dquat(1.0, 0.0, 0.0, 0.0)};
}

glm::dvec3 stretchDirection(const AsfSkeleton& asf, size_t b) {
    return glm::conjugate(asf.bones[b].axis) * (asf.bones[b].direction * asf.lengthMultiplier);
}

Transform toTransform(const Sqt& s) {
    Transform t;
    t.translation = glm::vec3(s.t);
    t.rotation = glm::normalize(glm::quat(s.r));
    return t;
}

bool finite(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

Result<std::string> readFile(const std::string& path, size_t maxBytes) {
    if (Result<bool> regular = checkRegularFile(path); !regular) return regular.error();
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot be opened"};
    std::string s;
    char buf[1 << 16];
    for (;;) {
        in.read(buf, sizeof buf);
        const std::streamsize got = in.gcount();
        if (got <= 0) break;
        s.append(buf, static_cast<size_t>(got));
        if (s.size() > maxBytes) return Error{path + ": larger than " + std::to_string(maxBytes >> 20) + " MiB"};
    }
    if (in.bad()) return Error{path + ": read error"};
    return s;
}

Error outOfMemory(const std::string& path) {
    return Error{path + ": out of memory while importing (the file claims more data than fits)"};
}

Model modelOf(AsfSkeleton&& asf) {
    Model m;
    m.path = asf.path;
    m.skeleton = std::move(asf.skeleton);
    m.materials.emplace_back();
    return m;
}

}  // namespace rig::acclaim
