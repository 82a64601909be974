#include "app/model_sniff.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "util/input_file.h"

namespace rig {

namespace {

constexpr size_t kSniffBytes = size_t(64) << 10;

std::string lowerExt(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The first character that is not white space, after a UTF-8 byte order mark.
char firstText(std::string_view s) {
    if (startsWith(s, "\xEF\xBB\xBF")) s.remove_prefix(3);
    for (char c : s) {
        if (!std::isspace(static_cast<unsigned char>(c))) return c;
    }
    return '\0';
}

std::string printable(std::string_view bytes) {
    std::string out;
    for (char c : bytes.substr(0, 8)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", u);
            out += hex;
        }
    }
    return "\"" + out + "\"";
}

struct Magic {
    const char* ext;
    std::string_view bytes;
    const char* format;
};

}  // namespace

std::string sniffModelHead(const std::string& path, std::string_view head, uint64_t size) {
    if (size == 0) return "empty file: no format rigview reads";
    if (std::all_of(head.begin(), head.end(), [](char c) { return c == 0; })) {
        return size > head.size() ? "its first " + std::to_string(head.size()) + " bytes are all zero: no format rigview reads"
                                  : "all zero bytes: no format rigview reads";
    }
    const std::string ext = lowerExt(path);
    using namespace std::string_view_literals;
    static const Magic kMagic[] = {
        {"glb", "glTF"sv, "binary glTF"},
        {"iqm", "INTERQUAKEMODEL\0"sv, "IQM"},
        {"blend", "BLENDER"sv, "Blender"},
        {"b3d", "BB3D"sv, "Blitz3D"},
        {"x", "xof "sv, "DirectX .x"},
        {"3ds", "\x4D\x4D"sv, "3DS"},
        {"md2", "IDP2"sv, "MD2"},
        {"md3", "IDP3"sv, "MD3"},
        {"ms3d", "MS3D000000"sv, "Milkshape 3D"},
        {"ply", "ply"sv, "PLY"},
        {"zae", "PK\x03\x04"sv, "zipped COLLADA"},
    };
    for (const Magic& m : kMagic) {
        if (ext != m.ext) continue;
        if (startsWith(head, m.bytes)) return {};
        return std::string("not a ") + m.format + " file: it starts with " + printable(head) + ", not " + printable(m.bytes);
    }
    // Text in UTF-16 (a byte order mark first) is read by its low bytes; it holds zero bytes.
    std::string narrowed;
    if (startsWith(head, "\xFF\xFE") || startsWith(head, "\xFE\xFF")) {
        const size_t low = head[0] == '\xFF' ? 0 : 1;
        for (size_t i = 2; i + 1 < head.size(); i += 2) narrowed += head[i + low];
        head = narrowed;
    }
    const bool hasNul = head.find('\0') != std::string_view::npos;
    if (ext == "fbx") {
        if (startsWith(head, "Kaydara FBX Binary") || !hasNul) return {};
        return "not an FBX file: neither binary FBX (\"Kaydara FBX Binary\") nor text; it starts with " + printable(head);
    }
    if (ext == "gltf") {
        if (firstText(head) == '{' && !hasNul) return {};
        return "not a glTF file: its JSON must start with '{'; it starts with " + printable(head);
    }
    if (ext == "dae") {
        if (firstText(head) == '<' && !hasNul) return {};
        return "not a COLLADA file: its XML must start with '<'; it starts with " + printable(head);
    }
    if (ext == "bvh") {
        std::string_view t = head;
        while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
        if (startsWith(t, "HIERARCHY")) return {};
        return "not a BVH file: it must start with HIERARCHY; it starts with " + printable(head);
    }
    static const char* kText[] = {"obj", "smd", "vta", "md5mesh", "md5anim", "asf", "amc", "off", "ase", "ac"};
    for (const char* t : kText) {
        if (ext == t && hasNul) return "not a text file (as ." + ext + " files are): a zero byte at offset " + std::to_string(head.find('\0'));
    }
    return {};
}

std::string sniffModelFile(const std::string& path) {
    std::string head, error;
    if (readInputFileHead(path, kSniffBytes, head, error) != InputFileStatus::Read) return {};
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return sniffModelHead(path, head, static_cast<uint64_t>(st.st_size));
}

}  // namespace rig
