#version 330 core
// The environment behind the model: a quad over the whole viewport (4 vertices, no attributes).
out vec2 v_ndc;
void main() {
    v_ndc = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    gl_Position = vec4(v_ndc, 1.0, 1.0);
}
