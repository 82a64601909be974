#include "import/gltf/export_vertex.h"

#include <cmath>
#include <cstdint>

namespace rig {

namespace {

bool finite3(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

std::vector<glm::vec4> unitTangents(const Mesh& mesh, const std::vector<glm::vec4>& tangents) {
    std::vector<glm::vec4> out(tangents);
    for (size_t i = 0; i < out.size(); ++i) {
        glm::vec3 t(out[i]);
        const float len = glm::length(t);
        if (finite3(t) && len > 1e-20f && std::isfinite(len)) {
            t /= len;
        } else {
            const glm::vec3 nrm = finite3(mesh.normals[i]) ? mesh.normals[i] : glm::vec3(0.0f, 0.0f, 1.0f);
            t = std::fabs(nrm.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
            t = glm::cross(nrm, t);
            const float l = glm::length(t);
            t = l > 1e-20f && std::isfinite(l) ? t / l : glm::vec3(1.0f, 0.0f, 0.0f);
        }
        out[i] = glm::vec4(t, out[i].w < 0.0f ? -1.0f : 1.0f);
    }
    return out;
}

std::vector<glm::vec4> uvTangents(const Mesh& mesh, int set) {
    const size_t n = mesh.vertexCount();
    const std::vector<glm::vec2>& uv = set == 1 ? mesh.uvs1 : mesh.uvs;
    std::vector<glm::vec3> sdir(n, glm::vec3(0.0f)), tdir(n, glm::vec3(0.0f));
    for (size_t i = 0; uv.size() == n && i + 2 < mesh.indices.size(); i += 3) {
        const uint32_t a = mesh.indices[i], b = mesh.indices[i + 1], c = mesh.indices[i + 2];
        if (a >= n || b >= n || c >= n) continue;
        const glm::vec3 e1 = mesh.positions[b] - mesh.positions[a], e2 = mesh.positions[c] - mesh.positions[a];
        const glm::vec2 d1(uv[b].x - uv[a].x, uv[a].y - uv[b].y), d2(uv[c].x - uv[a].x, uv[a].y - uv[c].y);
        const float det = d1.x * d2.y - d2.x * d1.y;
        if (!(std::fabs(det) > 1e-20f)) continue;
        const glm::vec3 s = (e1 * d2.y - e2 * d1.y) / det, t = (e2 * d1.x - e1 * d2.x) / det;
        if (!finite3(s) || !finite3(t)) continue;
        for (uint32_t v : {a, b, c}) {
            sdir[v] += s;
            tdir[v] += t;
        }
    }
    std::vector<glm::vec4> out(n, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    for (size_t v = 0; v < n; ++v) {
        const glm::vec3 nrm = mesh.normals[v];
        const glm::vec3 t = sdir[v] - nrm * glm::dot(nrm, sdir[v]);
        out[v] = glm::vec4(t, glm::dot(glm::cross(nrm, t), tdir[v]) < 0.0f ? -1.0f : 1.0f);
    }
    return out;
}

std::vector<glm::vec3> unitNormals(const std::vector<glm::vec3>& normals) {
    std::vector<glm::vec3> out(normals);
    for (glm::vec3& v : out) {
        const float len = glm::length(v);
        v = finite3(v) && len > 1e-20f && std::isfinite(len) ? v / len : glm::vec3(0.0f, 0.0f, 1.0f);
    }
    return out;
}

}  // namespace rig
