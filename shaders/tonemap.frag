#version 330 core
// Tone mapping and the sRGB output encoding, linked into every program that writes display
// colours (pbr.frag, background.frag). The curves are three.js r187's (the reference
// renderer, docs/reference-renders.md), so the same scene gives the same pixels:
//   mode 0 none:    clamp(exposure * c)            (three's LinearToneMapping)
//   mode 1 neutral: Khronos PBR Neutral            (NeutralToneMapping)
//   mode 2 aces:    Hill's ACES fit, c * exposure / 0.6 first (ACESFilmicToneMapping)

vec3 rrtAndOdtFit(vec3 v) {
    vec3 a = v * (v + 0.0245786) - 0.000090537;
    vec3 b = v * (0.983729 * v + 0.4329510) + 0.238081;
    return a / b;
}

vec3 toneMapAces(vec3 color, float exposure) {
    const mat3 inputMat = mat3(vec3(0.59719, 0.07600, 0.02840), vec3(0.35458, 0.90834, 0.13383),
                               vec3(0.04823, 0.01566, 0.83777));
    const mat3 outputMat = mat3(vec3(1.60475, -0.10208, -0.00327), vec3(-0.53108, 1.10813, -0.07276),
                                vec3(-0.07367, -0.00605, 1.07602));
    color *= exposure / 0.6;
    color = outputMat * rrtAndOdtFit(inputMat * color);
    return clamp(color, 0.0, 1.0);
}

vec3 toneMapNeutral(vec3 color, float exposure) {
    const float startCompression = 0.8 - 0.04;
    const float desaturation = 0.15;
    color *= exposure;
    float x = min(color.r, min(color.g, color.b));
    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    color -= offset;
    float peak = max(color.r, max(color.g, color.b));
    if (peak < startCompression) return color;
    float d = 1.0 - startCompression;
    float newPeak = 1.0 - d * d / (peak + d - startCompression);
    color *= newPeak / peak;
    float g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    return mix(color, vec3(newPeak), g);
}

vec3 toneMap(vec3 color, int mode, float exposure) {
    if (mode == 1) return toneMapNeutral(color, exposure);
    if (mode == 2) return toneMapAces(color, exposure);
    return clamp(color * exposure, 0.0, 1.0);
}

// The sRGB transfer function (IEC 61966-2-1), as three writes it.
vec3 srgbEncode(vec3 c) {
    return mix(pow(c, vec3(0.41666)) * 1.055 - vec3(0.055), c * 12.92, vec3(lessThanEqual(c, vec3(0.0031308))));
}
