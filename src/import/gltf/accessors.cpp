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

namespace {

size_t componentBytes(size_t type) {
    switch (type) {
        case 5120: case 5121: return 1;
        case 5122: case 5123: return 2;
        case 5125: case 5126: return 4;
        default: return 0;
    }
}

int typeComponents(const std::string& type) {
    if (type == "SCALAR") return 1;
    if (type == "VEC2") return 2;
    if (type == "VEC3") return 3;
    if (type == "VEC4") return 4;
    if (type == "MAT2") return 4;
    if (type == "MAT3") return 9;
    if (type == "MAT4") return 16;
    return 0;
}

// The bytes [offset, offset + length) of bufferViews[view]'s buffer, or nullptr.
const char* viewBytes(const Document& doc, const json& views, const json& viewIndex, size_t offset, size_t length,
                      size_t* stride) {
    if (!viewIndex.is_number_unsigned() || !views.is_array() || viewIndex.get<size_t>() >= views.size()) return nullptr;
    const json& view = views[viewIndex.get<size_t>()];
    if (!view.is_object()) return nullptr;
    const size_t buffer = unsignedOr(view, "buffer", SIZE_MAX);
    const std::string_view* data = buffer == SIZE_MAX ? nullptr : doc.buffer(buffer);
    if (!data) return nullptr;
    const size_t viewOffset = unsignedOr(view, "byteOffset", 0), viewLength = unsignedOr(view, "byteLength", SIZE_MAX);
    if (viewOffset > data->size() || viewLength > data->size() - viewOffset) return nullptr;
    if (offset > viewLength || length > viewLength - offset) return nullptr;
    if (stride) *stride = unsignedOr(view, "byteStride", 0);
    return data->data() + viewOffset + offset;
}

template <class T>
T load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

float componentFloat(const char* p, size_t type, bool normalized) {
    switch (type) {
        case 5126: return load<float>(p);
        case 5120: return normalized ? std::max(load<int8_t>(p) / 127.0f, -1.0f) : static_cast<float>(load<int8_t>(p));
        case 5121: return normalized ? load<uint8_t>(p) / 255.0f : static_cast<float>(load<uint8_t>(p));
        case 5122: return normalized ? std::max(load<int16_t>(p) / 32767.0f, -1.0f) : static_cast<float>(load<int16_t>(p));
        case 5123: return normalized ? load<uint16_t>(p) / 65535.0f : static_cast<float>(load<uint16_t>(p));
        case 5125: return static_cast<float>(load<uint32_t>(p));
        default: return 0.0f;
    }
}

uint32_t componentUint(const char* p, size_t type) {
    switch (type) {
        case 5121: return load<uint8_t>(p);
        case 5123: return load<uint16_t>(p);
        case 5125: return load<uint32_t>(p);
        case 5120: return static_cast<uint32_t>(std::max<int>(load<int8_t>(p), 0));
        case 5122: return static_cast<uint32_t>(std::max<int>(load<int16_t>(p), 0));
        case 5126: {
            const float f = load<float>(p);
            return f > 0.0f && f < 4294967040.0f ? static_cast<uint32_t>(f) : 0u;
        }
        default: return 0;
    }
}

// Each element's first n components from `base` (stride bytes apart) through `convert`.
template <class T, class Convert>
void decodeElements(const char* base, size_t stride, size_t count, size_t componentSize, int n, T* out, Convert convert) {
    for (size_t i = 0; i < count; ++i) {
        const char* e = base + i * stride;
        for (int c = 0; c < n; ++c) out[i * n + c] = convert(e + c * componentSize);
    }
}

// Elements [first, first + count) of the accessor, sparse substitutions included.
template <class T, class Convert>
void decodeAccessor(const AccessorData& acc, int n, T* out, size_t first, size_t count, Convert convert) {
    if (acc.base) {
        decodeElements(acc.base + first * acc.stride, acc.stride, count, acc.componentSize, n, out, convert);
    } else {
        std::fill(out, out + count * n, T(0));
    }
    const size_t element = acc.componentSize * acc.components;
    for (size_t s = 0; s < acc.sparseCount; ++s) {
        const size_t at = componentUint(acc.sparseIndices + s * componentBytes(acc.sparseIndexType), acc.sparseIndexType);
        if (at >= first && at - first < count) {
            decodeElements(acc.sparseValues + s * element, element, 1, acc.componentSize, n, out + (at - first) * n, convert);
        }
    }
}

}  // namespace

bool resolveAccessor(const Document& document, size_t index, AccessorData& out) {
    out = AccessorData{};
    const json* accessors = arrayMember(document, "accessors");
    if (!accessors || index >= accessors->size() || !(*accessors)[index].is_object()) return false;
    const json& acc = (*accessors)[index];
    static const json kNone;
    const json* viewList = arrayMember(document, "bufferViews");
    const json& views = viewList ? *viewList : kNone;  // (a reference, never a copy of the list)
    out.componentType = unsignedOr(acc, "componentType", 0);
    out.componentSize = componentBytes(out.componentType);
    out.components = acc.contains("type") && acc["type"].is_string() ? typeComponents(acc["type"].get<std::string>()) : 0;
    out.count = unsignedOr(acc, "count", SIZE_MAX);
    out.normalized = acc.contains("normalized") && acc["normalized"].is_boolean() && acc["normalized"].get<bool>();
    if (out.componentSize == 0 || out.components == 0 || out.count == SIZE_MAX || out.count > (size_t(1) << 32)) return false;
    const size_t element = out.componentSize * out.components;
    if (acc.contains("bufferView")) {
        size_t stride = 0;
        const size_t offset = unsignedOr(acc, "byteOffset", 0);
        if (offset > (size_t(1) << 40)) return false;
        // The view's stride first (its length is what must hold the elements).
        if (!viewBytes(document, views, acc["bufferView"], 0, 0, &stride)) return false;
        out.stride = stride ? stride : element;
        if (out.stride > (1u << 20)) return false;
        const size_t span = out.count == 0 ? 0 : (out.count - 1) * out.stride + element;
        out.base = viewBytes(document, views, acc["bufferView"], offset, span, nullptr);
        if (!out.base) return false;
    }
    if (acc.contains("sparse")) {
        const json& sparse = acc["sparse"];
        out.sparseCount = unsignedOr(sparse, "count", SIZE_MAX);
        if (!sparse.is_object() || out.sparseCount > out.count || !sparse.contains("indices") || !sparse.contains("values")) return false;
        const json& indices = sparse["indices"];
        const json& values = sparse["values"];
        if (!indices.is_object() || !values.is_object() || !indices.contains("bufferView") || !values.contains("bufferView")) return false;
        out.sparseIndexType = unsignedOr(indices, "componentType", 0);
        if (out.sparseIndexType != 5121 && out.sparseIndexType != 5123 && out.sparseIndexType != 5125) return false;
        out.sparseIndices = viewBytes(document, views, indices["bufferView"], unsignedOr(indices, "byteOffset", 0),
                                      out.sparseCount * componentBytes(out.sparseIndexType), nullptr);
        out.sparseValues = viewBytes(document, views, values["bufferView"], unsignedOr(values, "byteOffset", 0),
                                     out.sparseCount * element, nullptr);
        if (!out.sparseIndices || !out.sparseValues) return false;
    }
    return true;
}

void decodeFloats(const AccessorData& acc, int n, float* out) { decodeFloats(acc, n, out, 0, acc.count); }

void decodeFloats(const AccessorData& acc, int n, float* out, size_t first, size_t count) {
    n = std::min(n, acc.components);
    if (acc.base && acc.componentType == 5126 && n == acc.components && acc.stride == 4u * n && acc.sparseCount == 0) {
        std::memcpy(out, acc.base + first * acc.stride, count * 4u * n);
        return;
    }
    const size_t type = acc.componentType;
    const bool normalized = acc.normalized;
    decodeAccessor(acc, n, out, first, count, [type, normalized](const char* p) { return componentFloat(p, type, normalized); });
}

void decodeUints(const AccessorData& acc, int n, uint32_t* out) { decodeUints(acc, n, out, 0, acc.count); }

void decodeUints(const AccessorData& acc, int n, uint32_t* out, size_t first, size_t count) {
    n = std::min(n, acc.components);
    const size_t type = acc.componentType;
    decodeAccessor(acc, n, out, first, count, [type](const char* p) { return componentUint(p, type); });
}

}  // namespace rig::gltf
