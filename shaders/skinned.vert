#version 330 core
// GPU linear blend skinning, 4 influences per vertex, or 8 with the second set (u_influences8).
// The palette lives in a texture buffer
// (3 RGBA32F texels per joint: the rows of a 3x4 affine matrix), so any number of joints
// works. Same math as anim/skinning.cpp: blend the matrices by renormalized weights,
// transform the position once and the normal by the blended 3x3.

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec4 a_color;
layout(location = 4) in uvec4 a_joints;
layout(location = 5) in vec4 a_weights;
layout(location = 6) in uvec4 a_joints2;   // influences 5 to 8 (render/layout.h: kJoints2)
layout(location = 7) in vec4 a_weights2;   // on the first set's scale; bound only where the mesh has them
layout(location = 8) in vec4 a_tangent;    // xyz tangent, w bitangent sign; (0,0,0,0) when the mesh has none
layout(location = 9) in vec2 a_uv1;        // TEXCOORD_1 (TEXCOORD_0 where the mesh has none)

uniform samplerBuffer u_palette;
uniform samplerBuffer u_dualQuats;  // 2 texels per joint: real, dual (dual-quaternion mode)
uniform int u_paletteOffset;  // first joint of this mesh's skin
uniform int u_skinned;        // 0: positions are final (rigid or CPU-skinned);
                              // 1: linear blend; 2: stitching (strongest bone only);
                              // 3: dual-quaternion blend
uniform int u_influences8;    // 1: blend the second set too (8 influences; the mesh has one bound)
uniform samplerBuffer u_morphDeltas;   // RGBA32F: per vertex, per target: position delta, normal delta
uniform samplerBuffer u_morphWeights;  // R32F: every mesh's morph weights of this tick
uniform int u_morphBase;          // first texel of this mesh's deltas
uniform int u_morphCount;         // this mesh's targets; 0: no morphing (or done on the CPU)
uniform int u_morphWeightOffset;  // first weight of this mesh
uniform mat4 u_model;         // Animator::skinToModel: mesh node's world matrix or identity
uniform mat4 u_viewProj;
// Crowds (render/crowd_renderer.h): one instanced draw per mesh. u_crowd holds every
// instance's rows (anim/crowd.h: palette, then each mesh's world matrix, u_instanceStride
// texels per instance); u_instances one RGBA32F texel per drawn (visible) instance: its
// placement offset (xyz) and which crowd instance it is (w). Linear blend and stitching
// only; palette and model matrix then come from there, u_palette and u_model are unused.
uniform int u_instanced;           // 0: a single model (the default)
uniform samplerBuffer u_crowd;
uniform samplerBuffer u_instances;
uniform int u_instanceStride;
uniform int u_meshWorldTexel;      // this mesh's world-matrix rows within an instance

int g_crowdBase = 0;  // first texel of this instance's rows in u_crowd

out vec3 v_worldPos;
out vec3 v_normal;
out vec2 v_uv;
out vec2 v_uv1;
out vec4 v_color;
out vec4 v_tangent;   // world space xyz, bitangent sign w; w = 0: no tangent (derive the frame)

mat4 crowdMatrix(int base) {
    vec4 r0 = texelFetch(u_crowd, g_crowdBase + base);
    vec4 r1 = texelFetch(u_crowd, g_crowdBase + base + 1);
    vec4 r2 = texelFetch(u_crowd, g_crowdBase + base + 2);
    return mat4(vec4(r0.x, r1.x, r2.x, 0.0), vec4(r0.y, r1.y, r2.y, 0.0),
                vec4(r0.z, r1.z, r2.z, 0.0), vec4(r0.w, r1.w, r2.w, 1.0));
}

mat4 paletteMatrix(uint joint) {
    int base = (u_paletteOffset + int(joint)) * 3;
    if (u_instanced != 0) return crowdMatrix(base);
    vec4 r0 = texelFetch(u_palette, base);
    vec4 r1 = texelFetch(u_palette, base + 1);
    vec4 r2 = texelFetch(u_palette, base + 2);
    return mat4(vec4(r0.x, r1.x, r2.x, 0.0), vec4(r0.y, r1.y, r2.y, 0.0),
                vec4(r0.z, r1.z, r2.z, 0.0), vec4(r0.w, r1.w, r2.w, 1.0));
}

vec4 quatMul(vec4 a, vec4 b) {
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

void main() {
    mat4 model = u_model;
    vec3 placement = vec3(0.0);
    if (u_instanced != 0) {
        vec4 inst = texelFetch(u_instances, gl_InstanceID);
        placement = inst.xyz;
        g_crowdBase = int(inst.w + 0.5) * u_instanceStride;
        model = crowdMatrix(u_meshWorldTexel);
    }
    // Morph targets first (same order as anim/skinning.cpp: target by target, zero weights
    // skipped), then the skin.
    vec3 position = a_position;
    vec3 normal = a_normal;
    for (int t = 0; t < u_morphCount; ++t) {
        float mw = texelFetch(u_morphWeights, u_morphWeightOffset + t).r;
        if (mw != 0.0) {
            int texel = u_morphBase + (gl_VertexID * u_morphCount + t) * 2;
            position += mw * texelFetch(u_morphDeltas, texel).xyz;
            normal += mw * texelFetch(u_morphDeltas, texel + 1).xyz;
        }
    }
    mat4 skin = mat4(1.0);
    float sum = a_weights.x + a_weights.y + a_weights.z + a_weights.w;
    vec4 w2 = vec4(0.0);
    if (u_influences8 != 0) sum += a_weights2.x + a_weights2.y + a_weights2.z + a_weights2.w;
    vec4 w = sum > 0.0 ? a_weights / sum : vec4(1.0, 0.0, 0.0, 0.0);
    if (u_influences8 != 0 && sum > 0.0) w2 = a_weights2 / sum;
    vec3 skinnedPos = position;
    vec3 skinnedNormal = normal;
    vec3 skinnedTangent = a_tangent.xyz;
    if (u_skinned == 1) {
        skin = paletteMatrix(a_joints.x) * w.x + paletteMatrix(a_joints.y) * w.y +
               paletteMatrix(a_joints.z) * w.z + paletteMatrix(a_joints.w) * w.w;
        if (u_influences8 != 0) {
            skin += paletteMatrix(a_joints2.x) * w2.x + paletteMatrix(a_joints2.y) * w2.y +
                    paletteMatrix(a_joints2.z) * w2.z + paletteMatrix(a_joints2.w) * w2.w;
        }
    } else if (u_skinned == 2) {
        uint strongest = a_joints.x;
        float best = w.x;
        if (w.y > best) { best = w.y; strongest = a_joints.y; }
        if (w.z > best) { best = w.z; strongest = a_joints.z; }
        if (w.w > best) { best = w.w; strongest = a_joints.w; }
        skin = paletteMatrix(strongest);
    }
    if (u_skinned == 3) {
        // Dual quaternions: flip each into the first one's hemisphere, blend, normalize.
        uvec4 j = a_joints;
        vec4 r0 = texelFetch(u_dualQuats, (u_paletteOffset + int(j.x)) * 2);
        vec4 real = vec4(0.0), dual = vec4(0.0);
        int n = u_influences8 != 0 ? 8 : 4;
        for (int k = 0; k < n; ++k) {
            uvec4 js = k < 4 ? j : a_joints2;
            vec4 ws = k < 4 ? w : w2;
            int i = k & 3;
            uint jk = i == 0 ? js.x : (i == 1 ? js.y : (i == 2 ? js.z : js.w));
            float wk = i == 0 ? ws.x : (i == 1 ? ws.y : (i == 2 ? ws.z : ws.w));
            vec4 r = texelFetch(u_dualQuats, (u_paletteOffset + int(jk)) * 2);
            vec4 d = texelFetch(u_dualQuats, (u_paletteOffset + int(jk)) * 2 + 1);
            float s = dot(r, r0) < 0.0 ? -wk : wk;
            real += r * s;
            dual += d * s;
        }
        float len = length(real);
        real /= len;
        dual /= len;
        vec3 t = 2.0 * (real.w * dual.xyz - dual.w * real.xyz + cross(real.xyz, dual.xyz));
        skinnedPos = quatMul(quatMul(real, vec4(position, 0.0)), vec4(-real.xyz, real.w)).xyz + t;
        skinnedNormal = quatMul(quatMul(real, vec4(normal, 0.0)), vec4(-real.xyz, real.w)).xyz;
        skinnedTangent = quatMul(quatMul(real, vec4(a_tangent.xyz, 0.0)), vec4(-real.xyz, real.w)).xyz;
    } else {
        skinnedPos = (skin * vec4(position, 1.0)).xyz;
        skinnedNormal = mat3(skin) * normal;
        skinnedTangent = mat3(skin) * a_tangent.xyz;
    }
    vec4 world = model * vec4(skinnedPos, 1.0);
    world.xyz += placement;
    v_worldPos = world.xyz;
    v_normal = mat3(model) * skinnedNormal;
    v_uv = a_uv;
    v_uv1 = a_uv1;
    v_color = a_color;
    v_tangent = vec4(mat3(model) * skinnedTangent, a_tangent.w);
    gl_Position = u_viewProj * world;
}
