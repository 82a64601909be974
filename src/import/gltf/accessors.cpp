#include "import/gltf/accessors.h"

#include <algorithm>
#include <cstring>

namespace rig::gltf {

const json* arrayMember(const Document& doc, const char* key) {
    if (!doc.valid()) return nullptr;
    const auto it = doc.json().find(key);
    return it != doc.json().end() && it->is_array() ? &*it : nullptr;
}

size_t unsignedOr(const json& o, const char* key, size_t fallback) {
    return o.is_object() && o.contains(key) && o[key].is_number_unsigned() ? o[key].get<size_t>() : fallback;
}

std::string nodeName(const json& nodes, size_t n) {
    if (n < nodes.size() && nodes[n].is_object() && nodes[n].contains("name") && nodes[n]["name"].is_string()) {
        const std::string name = nodes[n]["name"].get<std::string>();
        if (!name.empty()) return name;
    }
    return "nodes[" + std::to_string(n) + "]";
}

float accessorBound(const json& doc, const json& accessor, const char* key) {
    if (!accessor.is_number_unsigned() || !doc.contains("accessors")) return 0.0f;
    const json& list = doc["accessors"];
    const size_t a = accessor.get<size_t>();
    if (!list.is_array() || a >= list.size() || !list[a].is_object() || !list[a].contains(key)) return 0.0f;
    const json& v = list[a][key];
    return v.is_array() && !v.empty() && v[0].is_number() ? v[0].get<float>() : 0.0f;
}

uint32_t accessorCount(const json& doc, const json& accessor) {
    if (!accessor.is_number_unsigned() || !doc.contains("accessors")) return 0;
    const json& list = doc["accessors"];
    const size_t a = accessor.get<size_t>();
    if (!list.is_array() || a >= list.size() || !list[a].is_object() || !list[a].contains("count")) return 0;
    return list[a]["count"].is_number_unsigned() ? list[a]["count"].get<uint32_t>() : 0;
}

const char* elementBytes(const Document& document, const json& accessor, size_t index, int n, size_t& componentType) {
    const json& doc = document.json();
    if (!accessor.is_number_unsigned() || !doc.contains("accessors") || !doc.contains("bufferViews")) return nullptr;
    const json& accs = doc["accessors"];
    const json& views = doc["bufferViews"];
    const size_t a = accessor.get<size_t>();
    if (!accs.is_array() || a >= accs.size() || !accs[a].is_object()) return nullptr;
    const json& acc = accs[a];
    componentType = unsignedOr(acc, "componentType", 0);
    const size_t size = componentType == 5126 || componentType == 5125   ? 4
                        : componentType == 5122 || componentType == 5123 ? 2
                        : componentType == 5120 || componentType == 5121 ? 1
                                                                         : 0;
    if (size == 0 || !acc.contains("bufferView") || !acc["bufferView"].is_number_unsigned()) return nullptr;
    const size_t v = acc["bufferView"].get<size_t>();
    if (!views.is_array() || v >= views.size() || !views[v].is_object()) return nullptr;
    const json& view = views[v];
    const std::string_view* data = document.buffer(unsignedOr(view, "buffer", 0));
    if (!data) return nullptr;
    const size_t stride = std::min<size_t>(unsignedOr(view, "byteStride", 0) ? unsignedOr(view, "byteStride", 0) : size * n, 1u << 20);
    const size_t offset = std::min<size_t>(unsignedOr(view, "byteOffset", 0), size_t(1) << 40) +
                          std::min<size_t>(unsignedOr(acc, "byteOffset", 0), size_t(1) << 40);
    if (index >= unsignedOr(acc, "count", 0) || index > (size_t(1) << 32)) return nullptr;
    const size_t at = offset + index * stride;
    if (at + size * n > data->size()) return nullptr;
    return data->data() + at;
}

bool readFloats(const Document& doc, const json& accessor, size_t index, int n, float* out) {
    size_t type = 0;
    const char* bytes = elementBytes(doc, accessor, index, n, type);
    if (!bytes || type != 5126) return false;
    std::memcpy(out, bytes, 4u * n);
    return true;
}

bool readRotation(const Document& doc, const json& accessor, size_t index, float* out) {
    size_t type = 0;
    const char* bytes = elementBytes(doc, accessor, index, 4, type);
    if (!bytes || (type != 5126 && type != 5120 && type != 5121 && type != 5122 && type != 5123)) return false;
    for (int c = 0; c < 4; ++c) {
        if (type == 5126) {
            std::memcpy(&out[c], bytes + 4 * c, 4);
        } else if (type == 5120) {
            out[c] = std::max(static_cast<float>(static_cast<int8_t>(bytes[c])) / 127.0f, -1.0f);
        } else if (type == 5121) {
            out[c] = static_cast<float>(static_cast<uint8_t>(bytes[c])) / 255.0f;
        } else if (type == 5122) {
            int16_t q = 0;
            std::memcpy(&q, bytes + 2 * c, 2);
            out[c] = std::max(static_cast<float>(q) / 32767.0f, -1.0f);
        } else {
            uint16_t q = 0;
            std::memcpy(&q, bytes + 2 * c, 2);
            out[c] = static_cast<float>(q) / 65535.0f;
        }
    }
    return true;
}

bool readScalars(const Document& document, size_t index, std::vector<float>& out) {
    const json& doc = document.json();
    if (!doc.contains("accessors") || !doc["accessors"].is_array() || index >= doc["accessors"].size()) return false;
    const json& acc = doc["accessors"][index];
    if (!acc.is_object() || acc.contains("sparse") || !acc.contains("bufferView") || acc.value("type", "") != "SCALAR") return false;
    if (!acc["bufferView"].is_number_unsigned() || !acc.contains("count") || !acc["count"].is_number_unsigned()) return false;
    const size_t viewIndex = acc["bufferView"].get<size_t>();
    if (!doc.contains("bufferViews") || viewIndex >= doc["bufferViews"].size()) return false;
    const json& view = doc["bufferViews"][viewIndex];
    if (!view.is_object() || !view.contains("buffer") || !view["buffer"].is_number_unsigned()) return false;
    const std::string_view* data = document.buffer(view["buffer"].get<size_t>());
    if (!data) return false;
    const int type = acc.value("componentType", 0);
    const size_t size = type == 5126 ? 4 : (type == 5123 || type == 5122) ? 2 : (type == 5121 || type == 5120) ? 1 : 0;
    if (size == 0 || (type != 5126 && !acc.value("normalized", false))) return false;
    const size_t count = acc["count"].get<size_t>();
    const size_t stride = view.value("byteStride", static_cast<size_t>(0)) ? view.value("byteStride", size) : size;
    const size_t start = view.value("byteOffset", static_cast<size_t>(0)) + acc.value("byteOffset", static_cast<size_t>(0));
    const size_t viewEnd = view.value("byteOffset", static_cast<size_t>(0)) + view.value("byteLength", static_cast<size_t>(0));
    if (count == 0 || viewEnd > data->size() || start + (count - 1) * stride + size > viewEnd) return false;
    out.resize(count);
    for (size_t i = 0; i < count; ++i) {
        const char* p = data->data() + start + i * stride;
        float v = 0.0f;
        if (type == 5126) {
            std::memcpy(&v, p, 4);
        } else if (type == 5123) {
            uint16_t u;
            std::memcpy(&u, p, 2);
            v = u / 65535.0f;
        } else if (type == 5122) {
            int16_t u;
            std::memcpy(&u, p, 2);
            v = std::max(u / 32767.0f, -1.0f);
        } else if (type == 5121) {
            v = static_cast<uint8_t>(*p) / 255.0f;
        } else {
            v = std::max(static_cast<int8_t>(*p) / 127.0f, -1.0f);
        }
        out[i] = v;
    }
    return true;
}

}  // namespace rig::gltf
