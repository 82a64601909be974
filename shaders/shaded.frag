#version 330 core
// Diffuse + ambient lighting with an optional headlight; base colour from the material,
// its texture and the vertex colour, or the vertex colour alone (colour views), or white
// (ghosts: the tint alone).

in vec3 v_worldPos;
in vec3 v_normal;
in vec2 v_uv;
in vec4 v_color;

uniform vec4 u_baseColor;
uniform int u_hasTexture;
uniform sampler2D u_baseColorTexture;
uniform vec3 u_eye;
uniform vec3 u_keyLightDir;   // direction towards the key light, world space
uniform int u_headlight;
uniform float u_ambient;
uniform int u_lighting;       // 0: unlit (flat base colour)
uniform vec4 u_tint;          // multiplied in (overlays, ghosts); alpha blends
uniform int u_colorSource;    // 0 material x texture x vertex colour, 1 vertex colour, 2 white

out vec4 o_color;

void main() {
    vec4 base = u_colorSource == 2 ? vec4(1.0) : u_colorSource == 1 ? v_color : u_baseColor * v_color;
    if (u_colorSource == 0 && u_hasTexture != 0) base *= texture(u_baseColorTexture, v_uv);
    vec3 c = base.rgb;
    if (u_lighting != 0) {
        vec3 n = normalize(v_normal);
        vec3 toEye = normalize(u_eye - v_worldPos);
        if (dot(n, toEye) < 0.0) n = -n;  // two-sided
        float key = max(dot(n, normalize(u_keyLightDir)), 0.0);
        float head = u_headlight != 0 ? max(dot(n, toEye), 0.0) : 0.0;
        c = base.rgb * (u_ambient + 0.65 * key + 0.45 * head);
    }
    o_color = vec4(c, base.a) * u_tint;
}
