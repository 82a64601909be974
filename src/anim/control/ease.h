// Ease curves: map a fade's linear progress x in [0, 1] to a blend weight, f(0) = 0,
// f(1) = 1 (x is clamped). Used by cross-fades and layer weight ramps.
#pragma once

#include <cstdint>

#include <glm/glm.hpp>

namespace rig {

enum class EaseCurve : uint8_t {
    Linear,
    SmoothStep,  // 3x^2 - 2x^3
    CubicIn,     // x^3
    CubicOut,    // 1 - (1 - x)^3
    CubicInOut,  // 4x^3 below 0.5, mirrored above
    Bezier,      // CSS-style cubic Bezier through (0,0), p1, p2, (1,1)
};

struct Ease {
    EaseCurve curve = EaseCurve::Linear;
    glm::vec2 p1{0.42f, 0.0f}, p2{0.58f, 1.0f};  // Bezier control points (x in [0, 1])
    static Ease bezier(float x1, float y1, float x2, float y2) {
        return Ease{EaseCurve::Bezier, {x1, y1}, {x2, y2}};
    }
};

float applyEase(const Ease& ease, float x);
// y of the cubic Bezier (0,0) (x1,y1) (x2,y2) (1,1) at abscissa x (Newton, then bisection).
float cubicBezierEase(float x1, float y1, float x2, float y2, float x);

}  // namespace rig
