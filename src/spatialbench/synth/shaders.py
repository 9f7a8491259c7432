"""GLSL sources of the rasteriser (kept beside the renderer that compiles them).

The light is baked per vertex (``synth.lighting``). Mesa's llvmpipe runs every branch of a fragment
shader for every pixel, so there are two fragment shaders, each drawn over its own triangles: the plain
one writes the baked colour; the other is one pattern for every patterned material: cells of a
per-material size (from world coordinates along the face, in the vertex shader), rows shifted, a tone
per cell from a low-discrepancy sequence (cheaper than a hash) and dark seams at the cells' edges.
"""

VERTEX = """
#version 330
uniform mat4 mvp;
uniform vec3 eye;
uniform vec3 key_dir;       // direction the key light travels (world, unit)
in vec3 in_pos;
in vec3 in_normal;
in vec3 in_front;           // baked light x albedo of the side in_normal points to
in vec3 in_back;            // ... and of the other side
in float in_id;
in float in_mat;
out vec3 v_color;
out vec2 v_uv;
flat out vec4 v_pattern;
flat out int v_id;

// Per material (synth.parts.Material): cells per metre along and across the face.
const vec2 SCALE[10] = vec2[](
    vec2(1.0), vec2(2.0, 40.0), vec2(60.0), vec2(1.0), vec2(1.0),
    vec2(1.0 / 1.2, 1.0 / 0.18), vec2(1.0 / 0.3), vec2(1.0), vec2(1.0), vec2(1.0));
// Row shift (cells), seam width along and across (share of a cell), tone spread.
const vec4 PATTERN[10] = vec4[](
    vec4(0.0, -1.0, -1.0, 0.0),     // plain
    vec4(0.618, -1.0, -1.0, 0.1),   // wood grain: long thin streaks
    vec4(0.5, -1.0, -1.0, 0.1),     // fabric weave
    vec4(0.0, -1.0, -1.0, 0.0),     // metal
    vec4(0.0, -1.0, -1.0, 0.0),     // emissive
    vec4(0.618, 0.005, 0.015, 0.14),  // floor planks: staggered rows, dark joints
    vec4(0.0, 0.03, 0.03, 0.06),    // tiles with grout
    vec4(0.0, -1.0, -1.0, 0.0),     // wall
    vec4(0.0, -1.0, -1.0, 0.0),     // screen
    vec4(0.0, -1.0, -1.0, 0.0));    // glass

void main() {
    gl_Position = mvp * vec4(in_pos, 1.0);
    vec3 to_eye = normalize(eye - in_pos);
    bool front = dot(in_normal, to_eye) >= 0.0;
    vec3 n = front ? in_normal : -in_normal;
    vec3 color = front ? in_front : in_back;
    int mat = int(in_mat + 0.5);
    if (mat == 3 || mat == 8) {  // metal, screen: a highlight of the key light
        vec3 h = normalize(to_eye - key_dir);
        color += pow(max(dot(n, h), 0.0), mat == 8 ? 60.0 : 24.0) * 0.35;
    }
    // A slight darkening with distance reads as depth cueing and keeps far walls from washing out.
    color *= 1.0 - 0.04 * clamp(gl_Position.w - 2.0, 0.0, 6.0) / 6.0;
    v_color = vec3(1.0) - exp(-1.5 * color);  // soft tone curve: bright rooms do not clip to white
    vec2 p = abs(n.z) > 0.5 ? in_pos.xy : (abs(n.x) > 0.5 ? in_pos.yz : in_pos.xz);
    v_uv = p * SCALE[mat];
    v_pattern = PATTERN[mat];
    v_id = int(in_id + 0.5);
}
"""

_FRAGMENT_HEAD = """
#version 330
in vec3 v_color;
in vec2 v_uv;
flat in vec4 v_pattern;
flat in int v_id;
layout(location = 0) out vec4 out_color;
layout(location = 1) out ivec2 out_id_depth;  // instance id, bits of the view depth in metres (float)
"""

#: walls, ceiling, plain, metal, emissive, screen and glass parts: the baked colour as it is
FRAGMENT_PLAIN = (
    _FRAGMENT_HEAD
    + """
void main() {
    out_color = vec4(v_color, 1.0);
    out_id_depth = ivec2(v_id, floatBitsToInt(1.0 / gl_FragCoord.w));  // 1 / w: depth along the optical axis
}
"""
)

#: wood, fabric, floor planks and tiles
FRAGMENT_PATTERN = (
    _FRAGMENT_HEAD
    + """
void main() {
    vec2 p = vec2(v_uv.x + floor(v_uv.y) * v_pattern.x, v_uv.y);
    vec2 cell = floor(p);
    vec2 f = p - cell;
    // Tone per cell from the R2 low-discrepancy sequence: neighbours always differ, no hash needed.
    float tone = 1.0 + v_pattern.w * (fract(dot(cell, vec2(0.7548777, 0.5698403))) - 0.5);
    float seam = max(step(f.x, v_pattern.y), step(f.y, v_pattern.z));
    out_color = vec4(v_color * tone * (1.0 - 0.45 * seam), 1.0);
    out_id_depth = ivec2(v_id, floatBitsToInt(1.0 / gl_FragCoord.w));
}
"""
)
