#version 330 core
// The equirectangular .hdr into the source cube (three's PMREMGenerator equirect pass): each
// texel the mean of four bilinear samples a quarter texel apart along the screen axes, so small
// bright features keep their energy. Mapping (three's equirectUv): u = atan(z, x) / 2 pi + 0.5,
// v = asin(y) / pi + 0.5 with v = 1 the image's top row (uploaded flipped, as three's flipY).
in vec3 v_direction;
uniform sampler2D u_equirect;
out vec4 fragColor;

const float kPi = 3.141592653589793;

vec2 equirectUv(vec3 d) {
    return vec2(atan(d.z, d.x) * (0.5 / kPi) + 0.5, asin(clamp(d.y, -1.0, 1.0)) * (1.0 / kPi) + 0.5);
}

void main() {
    vec3 d = normalize(v_direction);
    vec3 dx = dFdx(d) * 0.25;
    vec3 dy = dFdy(d) * 0.25;
    vec3 c = textureLod(u_equirect, equirectUv(normalize(d - dx - dy)), 0.0).rgb;
    c += textureLod(u_equirect, equirectUv(normalize(d + dx - dy)), 0.0).rgb;
    c += textureLod(u_equirect, equirectUv(normalize(d - dx + dy)), 0.0).rgb;
    c += textureLod(u_equirect, equirectUv(normalize(d + dx + dy)), 0.0).rgb;
    fragColor = vec4(c * 0.25, 1.0);
}
