#include "anim/blend.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace rig {

namespace {

inline float clamp01(float w) {
    if (!(w > 0.0f)) return 0.0f;  // NaN too
    return w < 1.0f ? w : 1.0f;
}

inline glm::quat normalizedQuat(const glm::quat& q) {
    const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (!(len2 > 0.0f)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    const float inv = 1.0f / std::sqrt(len2);
    return glm::quat(q.w * inv, q.x * inv, q.y * inv, q.z * inv);
}

inline float safeRatio(float s, float r) {
    return std::fabs(r) > 1e-12f ? s / r : 1.0f;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Poses

void samplePose(const Clip& clip, float t, const Skeleton& skeleton, uint32_t* cursors,
                std::span<Transform> out, RotationBlend blend) {
    const size_t n = skeleton.size();
    if (out.size() < n || skeleton.bindLocalSqt.size() < n) return;
    std::copy(skeleton.bindLocalSqt.begin(), skeleton.bindLocalSqt.begin() + static_cast<std::ptrdiff_t>(n), out.begin());
    sampleClip(clip, t, skeleton.bindLocalSqt.data(), out.data(), cursors, blend);
}

Transform blendTransforms(const Transform& a, const Transform& b, float w) {
    w = clamp01(w);
    if (w == 0.0f) return a;
    if (w == 1.0f) return b;
    Transform r;
    r.translation = a.translation + (b.translation - a.translation) * w;
    r.rotation = slerpShortest(a.rotation, b.rotation, w);
    r.scale = a.scale + (b.scale - a.scale) * w;
    return r;
}

void blendPoses(std::span<const Transform> a, std::span<const Transform> b, float w,
                std::span<Transform> out) {
    const size_t n = std::min({a.size(), b.size(), out.size()});
    for (size_t i = 0; i < n; ++i) out[i] = blendTransforms(a[i], b[i], w);
}

void blendPosesMasked(std::span<const Transform> a, std::span<const Transform> b,
                      std::span<const float> weights, std::span<Transform> out, float scale) {
    const size_t n = std::min({a.size(), b.size(), out.size()});
    for (size_t i = 0; i < n; ++i) {
        const float w = i < weights.size() ? weights[i] * scale : 0.0f;
        out[i] = blendTransforms(a[i], b[i], w);
    }
}

Transform differenceTransform(const Transform& source, const Transform& reference) {
    Transform d;
    d.rotation = normalizedQuat(source.rotation * glm::inverse(reference.rotation));
    d.translation = source.translation - reference.translation;
    d.scale = glm::vec3(safeRatio(source.scale.x, reference.scale.x),
                        safeRatio(source.scale.y, reference.scale.y),
                        safeRatio(source.scale.z, reference.scale.z));
    return d;
}

Transform addTransform(const Transform& base, const Transform& difference, float w) {
    w = clamp01(w);
    if (w == 0.0f) return base;
    Transform r;
    const glm::quat q = w == 1.0f ? difference.rotation
                                  : slerpShortest(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), difference.rotation, w);
    r.rotation = normalizedQuat(q * base.rotation);
    r.translation = base.translation + difference.translation * w;
    r.scale = base.scale * (glm::vec3(1.0f) + (difference.scale - glm::vec3(1.0f)) * w);
    return r;
}

void makeDifference(std::span<const Transform> source, std::span<const Transform> reference,
                    std::span<Transform> out) {
    const size_t n = std::min({source.size(), reference.size(), out.size()});
    for (size_t i = 0; i < n; ++i) out[i] = differenceTransform(source[i], reference[i]);
}

Pose makeDifference(const Pose& source, const Pose& reference) {
    Pose out(std::min(source.size(), reference.size()));
    makeDifference(source, reference, out);
    return out;
}

void applyAdditive(std::span<const Transform> base, std::span<const Transform> difference,
                   float weight, std::span<Transform> out) {
    const size_t n = std::min({base.size(), difference.size(), out.size()});
    for (size_t i = 0; i < n; ++i) out[i] = addTransform(base[i], difference[i], weight);
}

void applyAdditiveMasked(std::span<const Transform> base, std::span<const Transform> difference,
                         std::span<const float> weights, std::span<Transform> out, float scale) {
    const size_t n = std::min({base.size(), difference.size(), out.size()});
    for (size_t i = 0; i < n; ++i) {
        const float w = i < weights.size() ? weights[i] * scale : 0.0f;
        out[i] = addTransform(base[i], difference[i], w);
    }
}

// ---------------------------------------------------------------------------------------
// Joint masks

JointMask uniformMask(const Skeleton& skeleton, float weight) {
    return JointMask{std::vector<float>(skeleton.size(), clamp01(weight))};
}

JointMask maskFromSubtree(const Skeleton& skeleton, int32_t rootNode, float weight) {
    const size_t n = skeleton.size();
    JointMask m{std::vector<float>(n, 0.0f)};
    if (rootNode < 0 || static_cast<size_t>(rootNode) >= n) return m;
    const float w = clamp01(weight);
    std::vector<uint8_t> in(n, 0);
    in[rootNode] = 1;
    // Parents come first, so one forward pass from the root marks its whole subtree.
    for (size_t i = static_cast<size_t>(rootNode) + 1; i < n; ++i) {
        const int32_t p = skeleton.parent[i];
        if (p >= 0 && in[p]) in[i] = 1;
    }
    for (size_t i = 0; i < n; ++i) m.weights[i] = in[i] ? w : 0.0f;
    return m;
}

JointMask invertMask(const JointMask& mask) {
    JointMask r{mask.weights};
    for (float& w : r.weights) w = 1.0f - clamp01(w);
    return r;
}

JointMask combineMasks(const JointMask& a, const JointMask& b, MaskCombine op) {
    const size_t n = std::max(a.weights.size(), b.weights.size());
    JointMask r{std::vector<float>(n, 0.0f)};
    for (size_t i = 0; i < n; ++i) {
        const float x = i < a.weights.size() ? a.weights[i] : 0.0f;
        const float y = i < b.weights.size() ? b.weights[i] : 0.0f;
        float v = 0.0f;
        switch (op) {
            case MaskCombine::Max: v = std::max(x, y); break;
            case MaskCombine::Min: v = std::min(x, y); break;
            case MaskCombine::Multiply: v = x * y; break;
            case MaskCombine::Add: v = x + y; break;
        }
        r.weights[i] = clamp01(v);
    }
    return r;
}

// ---------------------------------------------------------------------------------------
// Ease curves

float cubicBezierEase(float x1, float y1, float x2, float y2, float x) {
    x = clamp01(x);
    if (x == 0.0f || x == 1.0f) return x;
    x1 = clamp01(x1);
    x2 = clamp01(x2);
    // B(s) = 3(1-s)^2 s P1 + 3(1-s) s^2 P2 + s^3, as polynomials in s.
    const double cx = 3.0 * x1, bx = 3.0 * (x2 - x1) - cx, ax = 1.0 - cx - bx;
    const double cy = 3.0 * y1, by = 3.0 * (y2 - y1) - cy, ay = 1.0 - cy - by;
    auto bezX = [&](double s) { return ((ax * s + bx) * s + cx) * s; };
    auto bezY = [&](double s) { return ((ay * s + by) * s + cy) * s; };
    auto dX = [&](double s) { return (3.0 * ax * s + 2.0 * bx) * s + cx; };
    double s = x;
    bool solved = false;
    for (int i = 0; i < 8; ++i) {
        const double err = bezX(s) - x;
        if (std::fabs(err) < 1e-7) {
            solved = true;
            break;
        }
        const double d = dX(s);
        if (std::fabs(d) < 1e-6) break;
        s -= err / d;
        if (s < 0.0 || s > 1.0) break;
    }
    if (!solved) {
        // x(s) is monotonic for control x in [0, 1]: bisection always converges.
        double lo = 0.0, hi = 1.0;
        s = x;
        for (int i = 0; i < 60; ++i) {
            s = 0.5 * (lo + hi);
            const double v = bezX(s);
            if (std::fabs(v - x) < 1e-9) break;
            (v < x ? lo : hi) = s;
        }
    }
    return static_cast<float>(bezY(s));
}

float applyEase(const Ease& ease, float x) {
    x = clamp01(x);
    switch (ease.curve) {
        case EaseCurve::Linear: return x;
        case EaseCurve::SmoothStep: return x * x * (3.0f - 2.0f * x);
        case EaseCurve::CubicIn: return x * x * x;
        case EaseCurve::CubicOut: {
            const float u = 1.0f - x;
            return 1.0f - u * u * u;
        }
        case EaseCurve::CubicInOut: {
            if (x < 0.5f) return 4.0f * x * x * x;
            const float u = 2.0f - 2.0f * x;
            return 1.0f - 0.5f * u * u * u;
        }
        case EaseCurve::Bezier: return cubicBezierEase(ease.p1.x, ease.p1.y, ease.p2.x, ease.p2.y, x);
    }
    return x;
}

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

// ---------------------------------------------------------------------------------------
// Clip tools

namespace {

Clip emptyLike(const Clip& clip) {
    Clip c;
    c.name = clip.name;
    c.duration = clip.duration;
    c.startTime = clip.startTime;
    c.sampleRate = clip.sampleRate;
    c.ticksPerSecond = clip.ticksPerSecond;
    c.ticksPerSecondFromFile = clip.ticksPerSecondFromFile;
    return c;
}

Channel addVec3Channel(Clip& dst, const std::vector<float>& times, const std::vector<glm::vec3>& values,
                       Interpolation interpolation) {
    Channel ch;
    if (times.empty()) return ch;
    ch.times = dst.addTimes(times.data(), static_cast<uint32_t>(times.size()));
    ch.values = static_cast<uint32_t>(dst.vec3Keys.size());
    ch.count = static_cast<uint32_t>(times.size());
    ch.interpolation = interpolation;
    dst.vec3Keys.insert(dst.vec3Keys.end(), values.begin(), values.end());
    return ch;
}

Channel addQuatChannel(Clip& dst, const std::vector<float>& times, const std::vector<glm::quat>& values,
                       Interpolation interpolation) {
    Channel ch;
    if (times.empty()) return ch;
    ch.times = dst.addTimes(times.data(), static_cast<uint32_t>(times.size()));
    ch.values = static_cast<uint32_t>(dst.quatKeys.size());
    ch.count = static_cast<uint32_t>(times.size());
    ch.interpolation = interpolation;
    dst.quatKeys.insert(dst.quatKeys.end(), values.begin(), values.end());
    return ch;
}

// Copies of one channel's keys (times and values), read from `src`.
void readVec3(const Clip& src, const Channel& ch, std::vector<float>& times, std::vector<glm::vec3>& values) {
    times.assign(src.times.begin() + ch.times, src.times.begin() + ch.times + ch.count);
    values.assign(src.vec3Keys.begin() + ch.values, src.vec3Keys.begin() + ch.values + ch.count);
}

void readQuat(const Clip& src, const Channel& ch, std::vector<float>& times, std::vector<glm::quat>& values) {
    times.assign(src.times.begin() + ch.times, src.times.begin() + ch.times + ch.count);
    values.assign(src.quatKeys.begin() + ch.values, src.quatKeys.begin() + ch.values + ch.count);
}

// Build a clip from `src` track by track: `edit` turns each source channel into the keys of
// the new one (times and values vectors, emptied first).
template <class EditVec3, class EditQuat>
void rebuildTracks(const Clip& src, Clip& dst, EditVec3&& editVec3, EditQuat&& editQuat) {
    std::vector<float> times;
    std::vector<glm::vec3> v3;
    std::vector<glm::quat> q4;
    dst.trackOfNode = src.trackOfNode;
    for (const Track& tr : src.tracks) {
        Track out;
        out.node = tr.node;
        if (tr.translation.count) {
            editVec3(tr.translation, times, v3);
            out.translation = addVec3Channel(dst, times, v3, tr.translation.interpolation);
        }
        if (tr.rotation.count) {
            editQuat(tr.rotation, times, q4);
            out.rotation = addQuatChannel(dst, times, q4, tr.rotation.interpolation);
        }
        if (tr.scale.count) {
            editVec3(tr.scale, times, v3);
            out.scale = addVec3Channel(dst, times, v3, tr.scale.interpolation);
        }
        dst.tracks.push_back(out);
    }
}

}  // namespace

RetargetMap buildRetargetMap(const Skeleton& from, const Skeleton& to) {
    RetargetMap map;
    std::unordered_map<std::string, int32_t> byName;
    for (size_t i = 0; i < to.names.size(); ++i) byName.emplace(to.names[i], static_cast<int32_t>(i));
    std::unordered_set<std::string> fromNames(from.names.begin(), from.names.end());
    map.toNode.assign(from.names.size(), -1);
    for (size_t i = 0; i < from.names.size(); ++i) {
        const auto it = byName.find(from.names[i]);
        if (it != byName.end()) map.toNode[i] = it->second;
        else map.missingInTarget.push_back(from.names[i]);
    }
    for (const std::string& name : to.names) {
        if (!fromNames.count(name)) map.missingInSource.push_back(name);
    }
    return map;
}

Clip retargetClip(const Clip& clip, const RetargetMap& map, const Skeleton& fromSkeleton,
                  const Skeleton& toSkeleton, std::vector<std::string>* skipped) {
    Clip dst = emptyLike(clip);
    dst.curveStats = clip.curveStats;
    const size_t nTo = toSkeleton.size();
    dst.trackOfNode.assign(nTo, -1);
    std::vector<std::pair<int32_t, size_t>> mapped;  // (target node, source track)
    std::vector<uint8_t> taken(nTo, 0);
    for (size_t i = 0; i < clip.tracks.size(); ++i) {
        const int32_t node = clip.tracks[i].node;
        const bool known = node >= 0 && static_cast<size_t>(node) < map.toNode.size();
        const int32_t target = known ? map.toNode[node] : -1;
        if (target < 0 || static_cast<size_t>(target) >= nTo || taken[target]) {
            if (skipped) {
                skipped->push_back(known && static_cast<size_t>(node) < fromSkeleton.names.size()
                                       ? fromSkeleton.names[node]
                                       : "node " + std::to_string(node));
            }
            continue;
        }
        taken[target] = 1;
        mapped.emplace_back(target, i);
    }
    std::sort(mapped.begin(), mapped.end());

    std::vector<float> times;
    std::vector<glm::vec3> v3;
    std::vector<glm::quat> q4;
    for (const auto& [target, srcIndex] : mapped) {
        const Track& tr = clip.tracks[srcIndex];
        Track out;
        out.node = target;
        if (tr.translation.count) {
            readVec3(clip, tr.translation, times, v3);
            const bool haveBinds = static_cast<size_t>(tr.node) < fromSkeleton.bindLocalSqt.size() &&
                                   static_cast<size_t>(target) < toSkeleton.bindLocalSqt.size();
            if (haveBinds) {
                const glm::vec3 shift = toSkeleton.bindLocalSqt[target].translation -
                                        fromSkeleton.bindLocalSqt[tr.node].translation;
                for (glm::vec3& v : v3) v += shift;
            }
            out.translation = addVec3Channel(dst, times, v3, tr.translation.interpolation);
        }
        if (tr.rotation.count) {
            readQuat(clip, tr.rotation, times, q4);
            out.rotation = addQuatChannel(dst, times, q4, tr.rotation.interpolation);
        }
        if (tr.scale.count) {
            readVec3(clip, tr.scale, times, v3);
            out.scale = addVec3Channel(dst, times, v3, tr.scale.interpolation);
        }
        dst.trackOfNode[target] = static_cast<int32_t>(dst.tracks.size());
        dst.tracks.push_back(out);
    }
    return dst;
}

Clip retargetClip(const Clip& clip, const Skeleton& fromSkeleton, const Skeleton& toSkeleton,
                  std::vector<std::string>* skipped) {
    return retargetClip(clip, buildRetargetMap(fromSkeleton, toSkeleton), fromSkeleton, toSkeleton, skipped);
}

Clip trimClip(const Clip& clip, float start, float end) {
    const float d = std::max(clip.duration, 0.0f);
    start = std::isfinite(start) ? std::clamp(start, 0.0f, d) : 0.0f;
    end = std::isfinite(end) ? std::clamp(end, 0.0f, d) : d;
    if (!(end > start)) end = start;
    const float eps = 1e-6f * std::max(1.0f, end);

    Clip dst = emptyLike(clip);
    dst.startTime = 0.0f;
    dst.duration = end - start;
    auto cutTimes = [&](const Clip& src, const Channel& ch, std::vector<float>& times) {
        // Key times of the new channel: 0, the old keys strictly inside, end - start.
        times.clear();
        times.push_back(0.0f);
        for (uint32_t k = 0; k < ch.count; ++k) {
            const float t = src.times[ch.times + k];
            if (t > start + eps && t < end - eps) times.push_back(t - start);
        }
        if (end > start) times.push_back(end - start);
    };
    rebuildTracks(
        clip, dst,
        [&](const Channel& ch, std::vector<float>& times, std::vector<glm::vec3>& values) {
            values.clear();
            if (ch.count == 1) {
                times.assign(1, 0.0f);
                values.push_back(clip.vec3Keys[ch.values]);
                return;
            }
            cutTimes(clip, ch, times);
            uint32_t cursor = 0;
            values.push_back(sampleVec3(clip, ch, start, cursor));
            for (uint32_t k = 0; k < ch.count; ++k) {
                const float t = clip.times[ch.times + k];
                if (t > start + eps && t < end - eps) values.push_back(clip.vec3Keys[ch.values + k]);
            }
            if (end > start) values.push_back(sampleVec3(clip, ch, end, cursor));
        },
        [&](const Channel& ch, std::vector<float>& times, std::vector<glm::quat>& values) {
            values.clear();
            if (ch.count == 1) {
                times.assign(1, 0.0f);
                values.push_back(clip.quatKeys[ch.values]);
                return;
            }
            cutTimes(clip, ch, times);
            uint32_t cursor = 0;
            values.push_back(sampleQuat(clip, ch, start, cursor, RotationBlend::Slerp));
            for (uint32_t k = 0; k < ch.count; ++k) {
                const float t = clip.times[ch.times + k];
                if (t > start + eps && t < end - eps) values.push_back(clip.quatKeys[ch.values + k]);
            }
            if (end > start) values.push_back(sampleQuat(clip, ch, end, cursor, RotationBlend::Slerp));
        });
    return dst;
}

Clip resampleClip(const Clip& clip, float fps) {
    if (!(fps > 0.0f) || !std::isfinite(fps)) return clip;
    const double t0 = clip.startTime;
    const double t1 = std::max(static_cast<double>(clip.duration), t0);
    // At most a million keys per channel.
    const double span = t1 - t0;
    double rate = fps;
    if (span * rate > 1e6) rate = 1e6 / span;
    std::vector<float> grid;
    const long n = static_cast<long>(std::floor(span * rate + 1e-4));
    for (long k = 0; k <= n; ++k) grid.push_back(static_cast<float>(t0 + static_cast<double>(k) / rate));
    if (grid.back() > t1) grid.back() = static_cast<float>(t1);
    if (grid.back() < static_cast<float>(t1) - 1e-6f * std::max(1.0f, static_cast<float>(t1))) {
        grid.push_back(static_cast<float>(t1));
    }

    Clip dst = emptyLike(clip);
    dst.sampleRate = static_cast<float>(rate);
    rebuildTracks(
        clip, dst,
        [&](const Channel& ch, std::vector<float>& times, std::vector<glm::vec3>& values) {
            if (ch.count == 1) {
                readVec3(clip, ch, times, values);
                return;
            }
            times = grid;
            values.clear();
            uint32_t cursor = 0;
            for (float t : grid) values.push_back(sampleVec3(clip, ch, t, cursor));
        },
        [&](const Channel& ch, std::vector<float>& times, std::vector<glm::quat>& values) {
            if (ch.count == 1) {
                readQuat(clip, ch, times, values);
                return;
            }
            times = grid;
            values.clear();
            uint32_t cursor = 0;
            for (float t : grid) values.push_back(sampleQuat(clip, ch, t, cursor, RotationBlend::Slerp));
        });
    return dst;
}

}  // namespace rig
