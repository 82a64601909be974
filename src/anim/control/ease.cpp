#include "anim/control/ease.h"
#include "anim/runtime/unit_interval.h"

#include <cmath>

namespace rig {

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

}  // namespace rig
