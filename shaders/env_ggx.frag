#version 330 core
// A sharp PMREM level: radiance prefiltered with the GGX lobe of u_roughness around N (V = N = R),
// by importance sampling the visible normals (for V = N the reflected direction's density is
// D(H) / 4), u_samples Hammersley points, each weighted by N.L. Every sample reads the source
// mip whose texel solid angle matches the sample's (lod = log2(D term) + u_lodBias, the
// sample-independent part computed on the CPU). Roughness 0 copies the source (the mirror level).
in vec3 v_direction;
uniform samplerCube u_source;
uniform float u_roughness;
uniform float u_lodBias;
uniform int u_samples;
out vec4 fragColor;

const float kPi = 3.141592653589793;

// Radical inverse in base 2: the bits of i mirrored about the binary point.
float radicalInverse(uint i) {
    i = (i << 16u) | (i >> 16u);
    i = ((i & 0x00FF00FFu) << 8u) | ((i & 0xFF00FF00u) >> 8u);
    i = ((i & 0x0F0F0F0Fu) << 4u) | ((i & 0xF0F0F0F0u) >> 4u);
    i = ((i & 0x33333333u) << 2u) | ((i & 0xCCCCCCCCu) >> 2u);
    i = ((i & 0x55555555u) << 1u) | ((i & 0xAAAAAAAAu) >> 1u);
    return float(i) * (1.0 / 4294967296.0);
}

void main() {
    vec3 n = normalize(v_direction);
    if (u_roughness < 0.001) {
        fragColor = vec4(textureLod(u_source, n, 0.0).rgb, 1.0);
        return;
    }
    float a = u_roughness * u_roughness;
    float a2 = a * a;
    vec3 helper = abs(n.z) < 0.999 ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0);
    vec3 t = normalize(cross(helper, n));
    vec3 b = cross(n, t);
    vec3 sum = vec3(0.0);
    float weight = 0.0;
    uint count = uint(u_samples);
    for (uint i = 0u; i < count; ++i) {
        float x = float(i) / float(count);
        float phi = 2.0 * kPi * radicalInverse(i);
        // Inverse CDF of the reflected direction's polar angle for V = N:
        // cos(theta_L) = (1 - x - a2 x) / (1 - x + a2 x).
        float q = 1.0 / (1.0 - x + a2 * x);
        float nl = (1.0 - x - a2 * x) * q;
        if (nl <= 0.0) continue;
        float sinL = 2.0 * a * sqrt(x * (1.0 - x)) * q;
        vec3 l = nl * n + sinL * (cos(phi) * t + sin(phi) * b);
        float lod = max(log2(a2 * q) + u_lodBias, 0.0);
        sum += textureLod(u_source, l, lod).rgb * nl;
        weight += nl;
    }
    fragColor = vec4(sum / weight, 1.0);
}
