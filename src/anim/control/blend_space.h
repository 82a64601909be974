// Blend spaces: clips placed at points of a parameter line or plane; weights() gives one
// weight per point (in the order the points were given), summing to 1, without allocating.
// Built at configuration time (the constructors allocate and triangulate).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace rig {

class BlendSpace1D {
public:
    struct Point {
        int32_t clip = -1;
        float position = 0.0f;
    };
    BlendSpace1D() = default;
    explicit BlendSpace1D(std::vector<Point> points);
    // A two-clip blend: a at 0, b at 1; the parameter is b's weight.
    static BlendSpace1D twoClip(int32_t a, int32_t b) { return BlendSpace1D({{a, 0.0f}, {b, 1.0f}}); }

    const std::vector<Point>& points() const { return points_; }
    size_t size() const { return points_.size(); }
    // Linear between the two neighbouring points; clamped to the end points outside.
    // `out` must hold size() weights. Points at equal positions: the first one wins.
    void weights(float x, std::span<float> out) const;

private:
    std::vector<Point> points_;
    std::vector<uint32_t> order_;  // indices of points_ sorted by position
};

class BlendSpace2D {
public:
    struct Point {
        int32_t clip = -1;
        glm::vec2 position{0.0f};
    };
    BlendSpace2D() = default;
    // Triangulates the points (Delaunay, Bowyer-Watson). Points repeating an earlier
    // position never get weight. All points on one line: the space acts as a 1D space along
    // that line.
    explicit BlendSpace2D(std::vector<Point> points);

    const std::vector<Point>& points() const { return points_; }
    size_t size() const { return points_.size(); }
    const std::vector<std::array<uint32_t, 3>>& triangles() const { return triangles_; }
    // Barycentric weights of the triangle holding p. Outside the triangulation p is first
    // clamped to the nearest point of its boundary (the weights of that edge's two ends).
    void weights(glm::vec2 p, std::span<float> out) const;

private:
    std::vector<Point> points_;
    std::vector<std::array<uint32_t, 3>> triangles_;      // counter-clockwise
    std::vector<std::array<uint32_t, 2>> boundary_;       // edges used by one triangle only
    std::vector<uint32_t> lineOrder_;                     // collinear case: sorted along dir_
    glm::vec2 lineOrigin_{0.0f}, lineDir_{0.0f};
};

}  // namespace rig
