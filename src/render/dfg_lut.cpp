#include "render/dfg_lut.h"

#include <cmath>
#include <cstdint>
#include <vector>

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

namespace {

// The disk points of the Hammersley set (sqrt(u1) (cos, sin) of 2 pi u2), shared by every texel.
struct DiskPoints {
    std::vector<double> x, y;
};

const DiskPoints& diskPoints(int samples) {
    static thread_local DiskPoints cached;
    if (static_cast<int>(cached.x.size()) != samples) {
        const double pi = 3.14159265358979323846;
        cached.x.resize(static_cast<size_t>(samples));
        cached.y.resize(static_cast<size_t>(samples));
        for (int i = 0; i < samples; ++i) {
            const double r = std::sqrt(static_cast<double>(i) / samples);
            const double phi = 2.0 * pi * radicalInverse(static_cast<uint32_t>(i));
            cached.x[static_cast<size_t>(i)] = r * std::cos(phi);
            cached.y[static_cast<size_t>(i)] = r * std::sin(phi);
        }
    }
    return cached;
}

}  // namespace

void integrateDfg(double roughness, double nDotV, int samples, double& scale, double& bias) {
    const double a = roughness * roughness, a2 = a * a;
    // V in the x-z plane, N = +z.
    const double vx = std::sqrt(1.0 - nDotV * nDotV), vz = nDotV;
    // The view direction stretched into the hemisphere configuration (Heitz 2018, listing 1).
    double hx = a * vx, hz = vz;
    const double hl = std::sqrt(hx * hx + hz * hz);
    hx /= hl;
    hz /= hl;
    // With V in the x-z plane, T1 = +y and T2 = cross(Vh, T1) = (-hz, 0, hx).
    const double t2x = -hz, t2z = hx;
    const double lambdaV = smithLambda(nDotV, a2);
    const double s = 0.5 * (1.0 + hz);
    const DiskPoints& disk = diskPoints(samples);
    double sumA = 0.0, sumB = 0.0;
    for (int i = 0; i < samples; ++i) {
        const double p1 = disk.x[static_cast<size_t>(i)];
        const double p2 = (1.0 - s) * std::sqrt(std::fmax(0.0, 1.0 - p1 * p1)) + s * disk.y[static_cast<size_t>(i)];
        const double p3 = std::sqrt(std::fmax(0.0, 1.0 - p1 * p1 - p2 * p2));
        // The visible normal p1 T1 + p2 T2 + p3 Vh, unstretched: the microfacet normal H.
        const double mx = a * (p2 * t2x + p3 * hx), my = a * p1, mz = std::fmax(0.0, p2 * t2z + p3 * hz);
        const double ml = std::sqrt(mx * mx + my * my + mz * mz);
        const double vDotH = std::fmax(0.0, (vx * mx + vz * mz) / ml);
        const double lz = 2.0 * vDotH * (mz / ml) - vz;  // N.L of L = reflect(-V, H)
        if (lz <= 0.0) continue;
        // Estimator of the visible-normal sampling: G2(V, L) / G1(V), height-correlated Smith.
        const double w = (1.0 + lambdaV) / (1.0 + lambdaV + smithLambda(lz, a2));
        const double f = 1.0 - vDotH, f2 = f * f, fc = f2 * f2 * f;
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
