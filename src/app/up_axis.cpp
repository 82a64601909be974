#include "app/up_axis.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "util/input_file.h"

namespace rig {

namespace {

constexpr size_t kHeadBytes = size_t(1) << 20;

std::string lowerExt(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

uint32_t le32(std::string_view s, size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<size_t>(i)]);
    return v;
}

// Binary FBX: a property record P is a list of typed values; GlobalSettings' integer
// properties are "S name, S type, S label, S flags, I value" (S: a 4-byte length and bytes;
// I: a 4-byte little-endian integer).
bool binaryFbxInt(std::string_view head, std::string_view name, int& value) {
    std::string key = "S";
    for (int i = 0; i < 4; ++i) key += static_cast<char>((name.size() >> (8 * i)) & 0xff);
    key += name;
    for (size_t at = head.find(key); at != std::string_view::npos; at = head.find(key, at + 1)) {
        size_t p = at + key.size();
        bool ok = true;
        for (int s = 0; s < 3 && ok; ++s) {  // type, label, flags
            if (p + 5 > head.size() || head[p] != 'S') {
                ok = false;
                break;
            }
            const uint32_t len = le32(head, p + 1);
            if (len > 64 || p + 5 + len > head.size()) ok = false;
            p += 5 + len;
        }
        if (!ok || p + 5 > head.size() || head[p] != 'I') continue;
        value = static_cast<int32_t>(le32(head, p + 1));
        return true;
    }
    return false;
}

// ASCII FBX: `P: "UpAxis", "int", "Integer", "",2` (the value last on the line).
bool asciiFbxInt(std::string_view head, std::string_view name, int& value) {
    const std::string key = "\"" + std::string(name) + "\"";
    for (size_t at = head.find(key); at != std::string_view::npos; at = head.find(key, at + 1)) {
        const size_t eol = std::min(head.find('\n', at), head.size());
        const std::string_view line = head.substr(at, eol - at);
        const size_t comma = line.find_last_of(',');
        if (comma == std::string_view::npos) continue;
        std::string digits(line.substr(comma + 1));
        digits.erase(std::remove_if(digits.begin(), digits.end(), [](unsigned char c) { return std::isspace(c); }), digits.end());
        if (digits.empty() || digits.size() > 11) continue;
        char* end = nullptr;
        const long v = std::strtol(digits.c_str(), &end, 10);
        if (end != digits.c_str() + digits.size()) continue;
        value = static_cast<int>(v);
        return true;
    }
    return false;
}

}  // namespace

bool guessZUp(const Bounds& b) {
    if (!b.valid()) return false;
    const glm::vec3 ext = b.max - b.min;
    const float size = std::max({ext.x, ext.y, ext.z});
    if (!(size > 0.0f)) return false;
    // Standing on the ground at the origin: the lowest point within 2% of the size from it.
    const float near = 0.02f * size;
    const bool onY = std::abs(b.min.y) <= near && b.max.y > near;
    const bool onZ = std::abs(b.min.z) <= near && b.max.z > near;
    if (onY != onZ) return onZ;
    return ext.z > 1.25f * ext.y && ext.z >= ext.x;
}

bool fbxIntProperty(std::string_view head, std::string_view name, int& value) {
    static constexpr char kBinaryMagic[] = "Kaydara FBX Binary";
    if (head.substr(0, sizeof kBinaryMagic - 1) == kBinaryMagic) return binaryFbxInt(head, name, value);
    return asciiFbxInt(head, name, value);
}

DeclaredUp declaredUpAxis(const std::string& path, std::string_view head) {
    DeclaredUp d;
    const std::string ext = lowerExt(path);
    if (ext == ".gltf" || ext == ".glb") {
        d.axis = DeclaredUp::Axis::Y;
        d.source = "glTF: +Y by specification";
    } else if (ext == ".dae" || ext == ".zae") {
        // Assimp 5.2.5 reads <up_axis> and rotates the scene's root to +Y (Y_UP is the default).
        std::string given = "Y_UP";
        const size_t at = head.find("<up_axis>");
        if (at != std::string_view::npos) {
            const size_t end = head.find("</up_axis>", at);
            if (end != std::string_view::npos && end - at < 64) {
                given = std::string(head.substr(at + 9, end - at - 9));
                given.erase(std::remove_if(given.begin(), given.end(), [](unsigned char c) { return std::isspace(c); }), given.end());
            }
        }
        d.axis = DeclaredUp::Axis::Y;
        d.source = "COLLADA <up_axis> " + given + (given == "Y_UP" ? "" : ", turned to +Y at import");
    } else if (ext == ".fbx") {
        int axis = 0, sign = 1;
        if (!fbxIntProperty(head, "UpAxis", axis)) return d;
        if (!fbxIntProperty(head, "UpAxisSign", sign)) sign = 1;
        const char* names = "XYZ";
        const std::string said = std::string("FBX UpAxis ") + (axis >= 0 && axis <= 2 ? std::string(1, names[axis]) : std::to_string(axis)) +
                                 (sign < 0 ? " (negative)" : "");
        if (sign >= 0 && axis == 1) d.axis = DeclaredUp::Axis::Y;
        if (sign >= 0 && axis == 2) d.axis = DeclaredUp::Axis::Z;
        d.source = said;
    }
    return d;
}

DeclaredUp declaredUpAxis(const std::string& path) {
    const std::string ext = lowerExt(path);
    std::string head, error;
    if (ext == ".fbx" || ext == ".dae") {
        if (readInputFileHead(path, kHeadBytes, head, error) != InputFileStatus::Read) head.clear();
    }
    return declaredUpAxis(path, head);
}

bool chooseZUp(const std::string& path, const Bounds& bindBounds, std::string* why) {
    const DeclaredUp d = declaredUpAxis(path);
    if (d.axis != DeclaredUp::Axis::None) {
        if (why) *why = d.source;
        return d.axis == DeclaredUp::Axis::Z;
    }
    const bool z = guessZUp(bindBounds);
    if (why) *why = (d.source.empty() ? std::string("the format does not say") : d.source) + ": guessed from the bind pose";
    return z;
}

}  // namespace rig
