#version 330 core
// Debug geometry: grid, axes, bounding box, skeleton. World-space points with a colour.
layout(location = 0) in vec3 a_position;
layout(location = 3) in vec4 a_color;
uniform mat4 u_viewProj;
uniform float u_pointSize;
out vec4 v_color;
void main() {
    v_color = a_color;
    gl_Position = u_viewProj * vec4(a_position, 1.0);
    gl_PointSize = u_pointSize;
}
