#include "anim/control/blend_space.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rig {

// ---------------------------------------------------------------------------------------
// 1D blend space

BlendSpace1D::BlendSpace1D(std::vector<Point> points) : points_(std::move(points)) {
    std::vector<uint32_t> idx(points_.size());
    std::iota(idx.begin(), idx.end(), 0u);
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
        return points_[a].position < points_[b].position;
    });
    // Keep the first point given at each position (the stable sort keeps input order on ties).
    for (uint32_t i : idx) {
        if (!std::isfinite(points_[i].position)) continue;
        if (!order_.empty() && points_[order_.back()].position == points_[i].position) continue;
        order_.push_back(i);
    }
}

void BlendSpace1D::weights(float x, std::span<float> out) const {
    std::fill(out.begin(), out.end(), 0.0f);
    if (order_.empty() || out.size() < points_.size()) return;
    const size_t n = order_.size();
    if (!(x > points_[order_[0]].position)) {  // NaN lands here too
        out[order_[0]] = 1.0f;
        return;
    }
    if (x >= points_[order_[n - 1]].position) {
        out[order_[n - 1]] = 1.0f;
        return;
    }
    for (size_t k = 0; k + 1 < n; ++k) {
        const float p0 = points_[order_[k]].position, p1 = points_[order_[k + 1]].position;
        if (x < p1) {
            const float w = (x - p0) / (p1 - p0);
            out[order_[k]] = 1.0f - w;
            out[order_[k + 1]] = w;
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------
// 2D blend space: Bowyer-Watson Delaunay triangulation, barycentric weights.

namespace {

struct BwTriangle {
    uint32_t v[3];
    double cx, cy, r2;
};

bool circumcircle(const std::vector<glm::dvec2>& p, BwTriangle& t) {
    const glm::dvec2 a = p[t.v[0]], b = p[t.v[1]], c = p[t.v[2]];
    const double d = 2.0 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
    if (std::fabs(d) < 1e-300) return false;
    const double a2 = a.x * a.x + a.y * a.y, b2 = b.x * b.x + b.y * b.y, c2 = c.x * c.x + c.y * c.y;
    t.cx = (a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d;
    t.cy = (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d;
    t.r2 = (a.x - t.cx) * (a.x - t.cx) + (a.y - t.cy) * (a.y - t.cy);
    return true;
}

double cross2(glm::dvec2 o, glm::dvec2 a, glm::dvec2 b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

}  // namespace

BlendSpace2D::BlendSpace2D(std::vector<Point> points) : points_(std::move(points)) {
    // Unique, finite positions (the first point given at a position wins).
    std::vector<uint32_t> uniq;
    for (uint32_t i = 0; i < points_.size(); ++i) {
        const glm::vec2 q = points_[i].position;
        if (!std::isfinite(q.x) || !std::isfinite(q.y)) continue;
        bool repeat = false;
        for (uint32_t j : uniq) repeat = repeat || points_[j].position == q;
        if (!repeat) uniq.push_back(i);
    }
    if (uniq.empty()) return;

    glm::vec2 lo = points_[uniq[0]].position, hi = lo;
    for (uint32_t i : uniq) {
        lo = glm::min(lo, points_[i].position);
        hi = glm::max(hi, points_[i].position);
    }
    const double extent = std::max(static_cast<double>(hi.x - lo.x), static_cast<double>(hi.y - lo.y));

    // Collinear (or a single point): a 1D space along the line through the points.
    bool collinear = true;
    if (uniq.size() >= 3) {
        const glm::dvec2 o = points_[uniq[0]].position;
        glm::dvec2 far = o;
        for (uint32_t i : uniq) {
            const glm::dvec2 q = points_[i].position;
            if (glm::length(q - o) > glm::length(far - o)) far = q;
        }
        for (uint32_t i : uniq) {
            const glm::dvec2 q = points_[i].position;
            if (std::fabs(cross2(o, far, q)) > 1e-9 * extent * extent) collinear = false;
        }
    }
    if (collinear) {
        lineOrigin_ = points_[uniq[0]].position;
        glm::vec2 dir(0.0f);
        for (uint32_t i : uniq) {
            const glm::vec2 d = points_[i].position - lineOrigin_;
            if (glm::length(d) > glm::length(dir)) dir = d;
        }
        lineDir_ = glm::length(dir) > 0.0f ? glm::normalize(dir) : glm::vec2(1.0f, 0.0f);
        lineOrder_ = uniq;
        std::stable_sort(lineOrder_.begin(), lineOrder_.end(), [&](uint32_t a, uint32_t b) {
            return glm::dot(points_[a].position - lineOrigin_, lineDir_) <
                   glm::dot(points_[b].position - lineOrigin_, lineDir_);
        });
        return;
    }

    // Bowyer-Watson: start from a triangle far larger than the points, insert them one at a
    // time, re-triangulating the cavity of triangles whose circumcircle holds the new point.
    std::vector<glm::dvec2> p;
    for (uint32_t i : uniq) p.push_back(glm::dvec2(points_[i].position));
    const uint32_t nReal = static_cast<uint32_t>(p.size());
    const glm::dvec2 mid = (glm::dvec2(lo) + glm::dvec2(hi)) * 0.5;
    const double big = 1000.0 * (extent > 0.0 ? extent : 1.0);
    p.push_back({mid.x - big, mid.y - big});
    p.push_back({mid.x + big, mid.y - big});
    p.push_back({mid.x, mid.y + big});
    std::vector<BwTriangle> tris;
    {
        BwTriangle s{{nReal, nReal + 1, nReal + 2}, 0, 0, 0};
        circumcircle(p, s);
        tris.push_back(s);
    }
    std::vector<std::array<uint32_t, 2>> cavity;
    for (uint32_t k = 0; k < nReal; ++k) {
        const glm::dvec2 q = p[k];
        cavity.clear();
        std::vector<BwTriangle> keep;
        std::vector<BwTriangle> bad;
        for (const BwTriangle& t : tris) {
            const double dx = q.x - t.cx, dy = q.y - t.cy;
            // Strictly inside only: a point on the circle (cocircular points, e.g. the
            // corners of a square) leaves the triangle alone, so ties stay consistent.
            if (dx * dx + dy * dy < t.r2 * (1.0 - 1e-12)) bad.push_back(t);
            else keep.push_back(t);
        }
        // The cavity's boundary: edges of bad triangles not shared by two bad triangles.
        for (size_t i = 0; i < bad.size(); ++i) {
            for (int e = 0; e < 3; ++e) {
                const uint32_t a = bad[i].v[e], b = bad[i].v[(e + 1) % 3];
                bool shared = false;
                for (size_t j = 0; j < bad.size() && !shared; ++j) {
                    if (j == i) continue;
                    for (int f = 0; f < 3; ++f) {
                        const uint32_t c = bad[j].v[f], d = bad[j].v[(f + 1) % 3];
                        if ((a == c && b == d) || (a == d && b == c)) {
                            shared = true;
                            break;
                        }
                    }
                }
                if (!shared) cavity.push_back({a, b});
            }
        }
        for (const auto& e : cavity) {
            BwTriangle t{{e[0], e[1], k}, 0, 0, 0};
            if (circumcircle(p, t)) keep.push_back(t);
        }
        tris.swap(keep);
    }
    for (const BwTriangle& t : tris) {
        if (t.v[0] >= nReal || t.v[1] >= nReal || t.v[2] >= nReal) continue;
        std::array<uint32_t, 3> v{t.v[0], t.v[1], t.v[2]};
        const double area = cross2(p[v[0]], p[v[1]], p[v[2]]);
        if (std::fabs(area) <= 1e-12 * extent * extent) continue;
        if (area < 0.0) std::swap(v[1], v[2]);
        triangles_.push_back({uniq[v[0]], uniq[v[1]], uniq[v[2]]});
    }
    // Boundary edges: used by exactly one triangle.
    for (size_t i = 0; i < triangles_.size(); ++i) {
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = triangles_[i][e], b = triangles_[i][(e + 1) % 3];
            int uses = 0;
            for (const auto& t : triangles_) {
                for (int f = 0; f < 3; ++f) {
                    const uint32_t c = t[f], d = t[(f + 1) % 3];
                    if ((a == c && b == d) || (a == d && b == c)) ++uses;
                }
            }
            if (uses == 1) boundary_.push_back({a, b});
        }
    }
}

void BlendSpace2D::weights(glm::vec2 p, std::span<float> out) const {
    std::fill(out.begin(), out.end(), 0.0f);
    if (out.size() < points_.size()) return;
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) p = glm::vec2(0.0f);
    if (!triangles_.empty()) {
        for (const auto& t : triangles_) {
            const glm::vec2 a = points_[t[0]].position, b = points_[t[1]].position, c = points_[t[2]].position;
            const float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
            const float l1 = ((c.x - b.x) * (p.y - b.y) - (c.y - b.y) * (p.x - b.x)) / area;  // weight of a
            const float l2 = ((a.x - c.x) * (p.y - c.y) - (a.y - c.y) * (p.x - c.x)) / area;  // weight of b
            const float l3 = 1.0f - l1 - l2;                                                 // weight of c
            const float eps = -1e-6f;
            if (l1 >= eps && l2 >= eps && l3 >= eps) {
                const float w1 = std::max(l1, 0.0f), w2 = std::max(l2, 0.0f), w3 = std::max(l3, 0.0f);
                const float sum = w1 + w2 + w3;
                out[t[0]] = w1 / sum;
                out[t[1]] = w2 / sum;
                out[t[2]] = w3 / sum;
                return;
            }
        }
        // Outside: the nearest point on the boundary.
        float best = INFINITY, bestS = 0.0f;
        uint32_t ba = boundary_.empty() ? triangles_[0][0] : boundary_[0][0], bb = ba;
        for (const auto& e : boundary_) {
            const glm::vec2 a = points_[e[0]].position, b = points_[e[1]].position;
            const glm::vec2 ab = b - a;
            const float len2 = glm::dot(ab, ab);
            float s = len2 > 0.0f ? glm::dot(p - a, ab) / len2 : 0.0f;
            s = std::clamp(s, 0.0f, 1.0f);
            const glm::vec2 q = a + ab * s;
            const float d2 = glm::dot(p - q, p - q);
            if (d2 < best) {
                best = d2;
                bestS = s;
                ba = e[0];
                bb = e[1];
            }
        }
        out[ba] += 1.0f - bestS;
        out[bb] += bestS;
        return;
    }
    if (lineOrder_.empty()) return;
    // Collinear points: linear between neighbours along the line, clamped at the ends.
    const size_t n = lineOrder_.size();
    auto at = [&](size_t k) { return glm::dot(points_[lineOrder_[k]].position - lineOrigin_, lineDir_); };
    const float x = glm::dot(p - lineOrigin_, lineDir_);
    if (n == 1 || !(x > at(0))) {
        out[lineOrder_[0]] = 1.0f;
        return;
    }
    if (x >= at(n - 1)) {
        out[lineOrder_[n - 1]] = 1.0f;
        return;
    }
    for (size_t k = 0; k + 1 < n; ++k) {
        const float p0 = at(k), p1 = at(k + 1);
        if (x < p1) {
            const float w = (x - p0) / (p1 - p0);
            out[lineOrder_[k]] = 1.0f - w;
            out[lineOrder_[k + 1]] = w;
            return;
        }
    }
}

}  // namespace rig
