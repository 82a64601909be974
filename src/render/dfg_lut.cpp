#include "render/dfg_lut.h"

#include <cmath>
#include <cstdint>

namespace rig {

namespace {

double radicalInverse(uint32_t i) {
    i = (i << 16) | (i >> 16);
    i = ((i & 0x00FF00FFu) << 8) | ((i & 0xFF00FF00u) >> 8);
    i = ((i & 0x0F0F0F0Fu) << 4) | ((i & 0xF0F0F0F0u) >> 4);
    i = ((i & 0x33333333u) << 2) | ((i & 0xCCCCCCCCu) >> 2);
    i = ((i & 0x55555555u) << 1) | ((i & 0xAAAAAAAAu) >> 1);
    return static_cast<double>(i) / 4294967296.0;
}

// Smith's Lambda for GGX at cos(theta) = c.
double smithLambda(double c, double a2) {
    const double c2 = c * c;
    return 0.5 * (-1.0 + std::sqrt(1.0 + a2 * (1.0 - c2) / c2));
}

}  // namespace

void integrateDfg(double roughness, double nDotV, int samples, double& scale, double& bias) {
    const double a = roughness * roughness, a2 = a * a;
    const double pi = 3.14159265358979323846;
    // V in the x-z plane, N = +z.
    const double vx = std::sqrt(1.0 - nDotV * nDotV), vz = nDotV;
    // The view direction stretched into the hemisphere configuration (Heitz 2018, listing 1).
    double hx = a * vx, hz = vz;
    const double hl = std::sqrt(hx * hx + hz * hz);
    hx /= hl;
    hz /= hl;
    // T1 = (0, 1, 0) x ... : with V in the x-z plane, T1 = +y, T2 = cross(Vh, T1).
    const double t2x = -hz, t2z = hx;  // cross((hx, 0, hz), (0, 1, 0))
    const double lambdaV = smithLambda(nDotV, a2);
    const double g1V = 1.0 / (1.0 + lambdaV);
    double sumA = 0.0, sumB = 0.0;
    for (int i = 0; i < samples; ++i) {
        const double u1 = static_cast<double>(i) / samples, u2 = radicalInverse(static_cast<uint32_t>(i));
        const double r = std::sqrt(u1), phi = 2.0 * pi * u2;
        const double p1 = r * std::cos(phi);
        double p2 = r * std::sin(phi);
        const double s = 0.5 * (1.0 + hz);
        p2 = (1.0 - s) * std::sqrt(std::fmax(0.0, 1.0 - p1 * p1)) + s * p2;
        const double p3 = std::sqrt(std::fmax(0.0, 1.0 - p1 * p1 - p2 * p2));
        // Nh = p1 * T1 + p2 * T2 + p3 * Vh; T1 = +y.
        const double nx = p2 * t2x + p3 * hx, ny = p1, nz = p2 * t2z + p3 * hz;
        double mx = a * nx, my = a * ny, mz = std::fmax(0.0, nz);
        const double ml = std::sqrt(mx * mx + my * my + mz * mz);
        mx /= ml;
        my /= ml;
        mz /= ml;
        const double vDotH = std::fmax(0.0, vx * mx + vz * mz);
        const double lz = 2.0 * vDotH * mz - vz;  // N.L of L = reflect(-V, H)
        if (lz <= 0.0) continue;
        // Estimator of the visible-normal sampling: G2(V, L) / G1(V).
        const double g2 = 1.0 / (1.0 + lambdaV + smithLambda(lz, a2));
        const double w = g2 / g1V;
        const double fc = std::pow(1.0 - vDotH, 5.0);
        sumA += (1.0 - fc) * w;
        sumB += fc * w;
    }
    scale = sumA / samples;
    bias = sumB / samples;
}

const std::vector<float>& dfgLutTable() {
    static const std::vector<float> table = [] {
        std::vector<float> t(static_cast<size_t>(kDfgLutSize) * kDfgLutSize * 2);
        for (int y = 0; y < kDfgLutSize; ++y) {
            for (int x = 0; x < kDfgLutSize; ++x) {
                double a = 0.0, b = 0.0;
                integrateDfg((x + 0.5) / kDfgLutSize, (y + 0.5) / kDfgLutSize, 4096, a, b);
                t[(static_cast<size_t>(y) * kDfgLutSize + x) * 2] = static_cast<float>(a);
                t[(static_cast<size_t>(y) * kDfgLutSize + x) * 2 + 1] = static_cast<float>(b);
            }
        }
        return t;
    }();
    return table;
}

}  // namespace rig
