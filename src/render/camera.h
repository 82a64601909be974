// OrbitCamera: orbits a target at a distance (azimuth / elevation in degrees), perspective
// projection with near/far taken from the framed bounds; Y-up or Z-up worlds.
#pragma once

#include <cstddef>

#include <glm/glm.hpp>

namespace rig {

struct Bounds {
    glm::vec3 min{1e30f}, max{-1e30f};
    bool valid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
    void add(const glm::vec3& p);
    glm::vec3 center() const { return valid() ? 0.5f * (min + max) : glm::vec3(0.0f); }
    float diagonal() const { return valid() ? glm::length(max - min) : 0.0f; }
};

// Window coordinates (pixels, origin top-left) of world point `p`; false when it is behind
// the camera.
bool projectToScreen(const glm::mat4& viewProj, const glm::vec3& p, float width, float height, glm::vec2& out);

// How much of the view's height (or width, whichever binds) the viewer's framing fills.
constexpr float kFrameFill = 0.8f;

struct OrbitCamera {
    glm::vec3 target{0.0f};
    float distance = 3.0f;
    float azimuthDeg = 30.0f;    // around the up axis, 0 = looking along -Z (from +Z)
    float elevationDeg = 15.0f;  // above the horizon
    float fovYDeg = 40.0f;
    bool zUp = false;
    float nearPlane = 0.01f, farPlane = 100.0f;
    // The part of the window the view is centred in (x, y, width, height as fractions of the
    // window, origin top-left): the viewer's viewport between its panels. projection() shifts
    // and scales the image so that rectangle shows what a window of its own size would, and
    // frame() frames for its aspect; the whole window (0, 0, 1, 1) otherwise.
    glm::vec4 viewRect{0.0f, 0.0f, 1.0f, 1.0f};

    glm::vec3 up() const { return zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0); }
    glm::vec3 eye() const;
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    // Put the whole of `b` in view (keeps the angles); sets near/far from its size.
    // `margin` > 1 leaves room around it.
    void frame(const Bounds& b, float aspect, float margin = 1.05f);
    // Frame `b` tightly: aim at it and move in until its projected box (its 8 corners, seen
    // from the current angles) spans `fill` of the view's height or width, whichever binds,
    // centred. Sets near/far. Used by the viewer (F and at load: its viewport's aspect,
    // kFrameFill); `rigview render` fits the posed points (fitPoints, 0.85).
    void fit(const Bounds& b, float aspect, float fill = 0.85f);
    // The same for a point set (e.g. the posed vertices: the silhouette, tighter than the box);
    // `b` (their bounds) sets near/far.
    void fitPoints(const glm::vec3* points, size_t count, const Bounds& b, float aspect, float fill = 0.85f);
    // Mouse helpers: orbit by degrees, pan by a fraction of the view, zoom by a factor.
    void orbit(float dAzimuthDeg, float dElevationDeg);
    void pan(float dx, float dy);
    void zoom(float factor);
};

}  // namespace rig
