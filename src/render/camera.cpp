#include "render/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace rig {

void Bounds::add(const glm::vec3& p) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return;
    min = glm::min(min, p);
    max = glm::max(max, p);
}

bool projectToScreen(const glm::mat4& viewProj, const glm::vec3& p, float width, float height, glm::vec2& out) {
    const glm::vec4 c = viewProj * glm::vec4(p, 1.0f);
    if (c.w <= 0.0f) return false;
    out = glm::vec2((c.x / c.w * 0.5f + 0.5f) * width, (0.5f - c.y / c.w * 0.5f) * height);
    return true;
}

glm::vec3 OrbitCamera::eye() const {
    const float az = glm::radians(azimuthDeg), el = glm::radians(elevationDeg);
    // Offset in a Y-up frame, then mapped to Z-up when asked.
    const glm::vec3 o(distance * std::cos(el) * std::sin(az), distance * std::sin(el), distance * std::cos(el) * std::cos(az));
    const glm::vec3 off = zUp ? glm::vec3(o.x, -o.z, o.y) : o;
    return target + off;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, up()); }

glm::mat4 OrbitCamera::projection(float aspect) const {
    if (aspect <= 0.0f) aspect = 1.0f;
    const glm::vec4 r = viewRect;
    if (r == glm::vec4(0.0f, 0.0f, 1.0f, 1.0f) || r.z <= 0.0f || r.w <= 0.0f) {
        return glm::perspective(glm::radians(fovYDeg), aspect, nearPlane, farPlane);
    }
    // Perspective for the sub-rectangle's own aspect, then scaled to its size and moved to its
    // centre in normalized device coordinates (y up there).
    const glm::mat4 p = glm::perspective(glm::radians(fovYDeg), aspect * r.z / r.w, nearPlane, farPlane);
    glm::mat4 t(1.0f);
    t[0][0] = r.z;
    t[1][1] = r.w;
    t[3][0] = 2.0f * (r.x + 0.5f * r.z) - 1.0f;
    t[3][1] = 1.0f - 2.0f * (r.y + 0.5f * r.w);
    return t * p;
}

void OrbitCamera::frame(const Bounds& b, float aspect, float margin) {
    if (!b.valid()) return;
    if (viewRect.z > 0.0f && viewRect.w > 0.0f) aspect *= viewRect.z / viewRect.w;
    target = b.center();
    const float radius = std::max(0.5f * b.diagonal(), 1e-4f);
    const float fovY = glm::radians(fovYDeg);
    const float fovX = 2.0f * std::atan(std::tan(0.5f * fovY) * (aspect > 0.0f ? aspect : 1.0f));
    const float half = 0.5f * std::min(fovY, fovX);
    distance = radius / std::sin(half) * margin;
    nearPlane = std::max(distance - radius * 2.0f, distance * 0.01f);
    farPlane = distance + radius * 4.0f;
}

void OrbitCamera::fit(const Bounds& b, float aspect, float fill) {
    if (!b.valid()) return;
    glm::vec3 corners[8];
    for (int i = 0; i < 8; ++i) {
        corners[i] = glm::vec3(i & 1 ? b.max.x : b.min.x, i & 2 ? b.max.y : b.min.y, i & 4 ? b.max.z : b.min.z);
    }
    fitPoints(corners, 8, b, aspect, fill);
}

void OrbitCamera::fitPoints(const glm::vec3* points, size_t count, const Bounds& b, float aspect, float fill) {
    if (!b.valid() || count == 0) return;
    aspect = aspect > 0.0f ? aspect : 1.0f;
    fill = std::clamp(fill, 0.05f, 1.0f);
    const float tanY = std::tan(glm::radians(fovYDeg) * 0.5f), tanX = tanY * aspect;
    target = b.center();
    distance = std::max(0.5f * b.diagonal(), 1e-4f);
    // The view's axes do not depend on the distance or the target, only on the angles.
    const glm::vec3 f = glm::normalize(target - eye());
    const glm::vec3 r = glm::normalize(glm::cross(f, up()));
    const glm::vec3 u = glm::cross(r, f);
    // A point at (x, y) across and z towards the camera from the target projects to
    // x / ((d - z) tanX) in NDC: it stays within `fill` when d >= z + |x| / (fill tanX).
    // Perspective shifts the projected extent off centre; re-aim at its middle and fit again.
    for (int iter = 0; iter < 6; ++iter) {
        float d = 0.0f;
        for (size_t i = 0; i < count; ++i) {
            const glm::vec3 v = points[i] - target;
            const float x = glm::dot(v, r), y = glm::dot(v, u), z = -glm::dot(v, f);
            d = std::max(d, z + std::max(std::abs(x) / (fill * tanX), std::abs(y) / (fill * tanY)));
        }
        distance = std::max(d, 1e-4f);
        float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
        for (size_t i = 0; i < count; ++i) {
            const glm::vec3 v = points[i] - target;
            const float depth = distance + glm::dot(v, f);
            const float nx = glm::dot(v, r) / (depth * tanX), ny = glm::dot(v, u) / (depth * tanY);
            lo[0] = std::min(lo[0], nx), hi[0] = std::max(hi[0], nx);
            lo[1] = std::min(lo[1], ny), hi[1] = std::max(hi[1], ny);
        }
        const float cx = 0.5f * (lo[0] + hi[0]), cy = 0.5f * (lo[1] + hi[1]);
        if (std::abs(cx) < 1e-4f && std::abs(cy) < 1e-4f) break;
        target += r * (cx * distance * tanX) + u * (cy * distance * tanY);
    }
    const float radius = std::max(0.5f * b.diagonal(), 1e-4f);
    const float toCentre = glm::length(eye() - b.center());
    nearPlane = std::max(toCentre - radius * 1.5f, toCentre * 0.01f);
    farPlane = toCentre + radius * 4.0f;
}

void OrbitCamera::orbit(float dAz, float dEl) {
    azimuthDeg = std::fmod(azimuthDeg + dAz, 360.0f);
    elevationDeg = std::clamp(elevationDeg + dEl, -89.0f, 89.0f);
}

void OrbitCamera::pan(float dx, float dy) {
    const glm::vec3 f = glm::normalize(target - eye());
    const glm::vec3 r = glm::normalize(glm::cross(f, up()));
    const glm::vec3 u = glm::cross(r, f);
    const float scale = distance * std::tan(glm::radians(fovYDeg) * 0.5f) * 2.0f;
    target += (-dx * r + dy * u) * scale;
}

void OrbitCamera::zoom(float factor) {
    const float ratio = farPlane / std::max(distance, 1e-6f);
    const float nearRatio = nearPlane / std::max(distance, 1e-6f);
    distance = std::clamp(distance * factor, 1e-4f, 1e7f);
    farPlane = distance * ratio;
    nearPlane = distance * nearRatio;
}

}  // namespace rig
