#version 330 core
// A rough PMREM level: radiance prefiltered with the GGX lobe of u_roughness around N (V = N),
// integrated over every texel of a small source mip (u_sourceSize squared per face, at mip
// u_sourceLod) instead of sampled, so the wide lobes carry no sampling noise. Weight of a texel:
// D(H) N.L times its solid angle; with V = N, (N.H)^2 = (1 + N.L) / 2, and the constant factors
// of D and of the solid angle cancel in the normalization. Each pair of opposite faces is
// walked once: of a texel and its antipode only the one on N's side counts.
in vec3 v_direction;
uniform samplerCube u_source;
uniform float u_roughness;
uniform float u_sourceLod;
uniform int u_sourceSize;
out vec4 fragColor;

void main() {
    vec3 n = normalize(v_direction);
    float a = u_roughness * u_roughness;
    float a2 = a * a;
    float step = 2.0 / float(u_sourceSize);
    vec3 sum = vec3(0.0);
    float weight = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
        for (int y = 0; y < u_sourceSize; ++y) {
            for (int x = 0; x < u_sourceSize; ++x) {
                vec2 st = (vec2(x, y) + 0.5) * step - 1.0;
                vec3 dir = axis == 0 ? vec3(1.0, st) : (axis == 1 ? vec3(st.x, 1.0, st.y) : vec3(st, 1.0));
                float invLen = inversesqrt(1.0 + dot(st, st));
                float c = dot(n, dir);
                if (c < 0.0) dir = -dir;
                float nl = abs(c) * invLen;
                float den = 1.0 + a2 + (a2 - 1.0) * nl;
                float w = nl * invLen * invLen * invLen / (den * den);
                sum += textureLod(u_source, dir, u_sourceLod).rgb * w;
                weight += w;
            }
        }
    }
    fragColor = vec4(sum / weight, 1.0);
}
