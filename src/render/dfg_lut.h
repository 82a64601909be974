// The split-sum DFG table of image-based lighting (three.js r187's DFG LUT: 16 x 16, x =
// roughness, y = N.V, both at texel centres (i + 0.5) / 16, sampled without a half-texel offset):
// for each texel the scale a and bias b with  integral of f_spec(V, L) N.L dL = F0 * a + F90 * b
// for the GGX lobe (alpha = roughness^2), height-correlated Smith masking and Schlick's Fresnel.
// Computed here by integration (4096 Hammersley samples of the visible normals per texel, Heitz
// 2018), not copied: tests compare it with three's table.
#pragma once

#include <vector>

namespace rig {

constexpr int kDfgLutSize = 16;

// Row-major (y = N.V row, x = roughness), 2 floats (scale, bias) per texel; computed once.
const std::vector<float>& dfgLutTable();

// One entry: the integral for `roughness` and `nDotV` with `samples` samples.
void integrateDfg(double roughness, double nDotV, int samples, double& scale, double& bias);

}  // namespace rig
