#version 330 core
// One face of a cube map render target, covered by a quad (4 vertices, no attributes). v_direction
// is the (unnormalized) world direction the GL cube map convention gives the texel under each
// fragment: u_face's columns are the directions of +s, +t and the face's axis
// (render/environment.cpp). Used by every pass that prefilters the environment.
uniform mat3 u_face;
out vec3 v_direction;
void main() {
    vec2 p = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    v_direction = u_face * vec3(p, 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}
