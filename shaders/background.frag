#version 330 core
// The environment as the background (three's backgroundCube with a PMREM): the world direction
// through the pixel, turned by u_rotation (the environment's lookup rotation), read from the
// radiance cube at the blur's mip (three's roughnessToMip), tone mapped and sRGB-encoded
// (tonemap.frag, linked beside this shader).
in vec2 v_ndc;
uniform mat4 u_invViewProj;
uniform mat3 u_rotation;
uniform samplerCube u_radiance;
uniform float u_lod;
uniform int u_toneMapping;
uniform float u_exposure;
out vec4 fragColor;

vec3 toneMap(vec3 color, int mode, float exposure);
vec3 srgbEncode(vec3 c);

void main() {
    vec4 nearPoint = u_invViewProj * vec4(v_ndc, -1.0, 1.0);
    vec4 farPoint = u_invViewProj * vec4(v_ndc, 1.0, 1.0);
    vec3 dir = farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w;
    vec3 radiance = textureLod(u_radiance, u_rotation * dir, u_lod).rgb;
    fragColor = vec4(srgbEncode(toneMap(radiance, u_toneMapping, u_exposure)), 1.0);
}
