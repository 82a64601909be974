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
    return glm::perspective(glm::radians(fovYDeg), aspect > 0.0f ? aspect : 1.0f, nearPlane, farPlane);
}

void OrbitCamera::frame(const Bounds& b, float aspect, float margin) {
    if (!b.valid()) return;
    target = b.center();
    const float radius = std::max(0.5f * b.diagonal(), 1e-4f);
    const float fovY = glm::radians(fovYDeg);
    const float fovX = 2.0f * std::atan(std::tan(0.5f * fovY) * (aspect > 0.0f ? aspect : 1.0f));
    const float half = 0.5f * std::min(fovY, fovX);
    distance = radius / std::sin(half) * margin;
    nearPlane = std::max(distance - radius * 2.0f, distance * 0.01f);
    farPlane = distance + radius * 4.0f;
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
