#version 330 core
// GPU linear blend skinning, 4 influences per vertex. The palette lives in a texture buffer
// (3 RGBA32F texels per joint: the rows of a 3x4 affine matrix), so any number of joints
// works. Same math as anim/skinning.cpp: blend the matrices by renormalized weights,
// transform the position once and the normal by the blended 3x3.

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec4 a_color;
layout(location = 4) in uvec4 a_joints;
layout(location = 5) in vec4 a_weights;

uniform samplerBuffer u_palette;
uniform int u_paletteOffset;  // first texel row of this mesh's skin
uniform int u_skinned;        // 1: blend with the palette; 0: positions are final (CPU path)
uniform mat4 u_model;         // mesh node's world matrix
uniform mat4 u_viewProj;

out vec3 v_worldPos;
out vec3 v_normal;
out vec2 v_uv;
out vec4 v_color;

mat4 paletteMatrix(uint joint) {
    int base = u_paletteOffset + int(joint) * 3;
    vec4 r0 = texelFetch(u_palette, base);
    vec4 r1 = texelFetch(u_palette, base + 1);
    vec4 r2 = texelFetch(u_palette, base + 2);
    return mat4(vec4(r0.x, r1.x, r2.x, 0.0), vec4(r0.y, r1.y, r2.y, 0.0),
                vec4(r0.z, r1.z, r2.z, 0.0), vec4(r0.w, r1.w, r2.w, 1.0));
}

void main() {
    mat4 skin = mat4(1.0);
    if (u_skinned != 0) {
        float sum = a_weights.x + a_weights.y + a_weights.z + a_weights.w;
        vec4 w = sum > 0.0 ? a_weights / sum : vec4(1.0, 0.0, 0.0, 0.0);
        skin = paletteMatrix(a_joints.x) * w.x + paletteMatrix(a_joints.y) * w.y +
               paletteMatrix(a_joints.z) * w.z + paletteMatrix(a_joints.w) * w.w;
    }
    vec4 world = u_model * (skin * vec4(a_position, 1.0));
    v_worldPos = world.xyz;
    v_normal = mat3(u_model) * (mat3(skin) * a_normal);
    v_uv = a_uv;
    v_color = a_color;
    gl_Position = u_viewProj * world;
}
