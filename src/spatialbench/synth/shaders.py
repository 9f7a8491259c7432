"""GLSL sources of the rasteriser (kept beside the renderer that compiles them)."""

VERTEX = """
#version 330
uniform mat4 mvp;
uniform mat4 view;
in vec3 in_pos;
in vec3 in_normal;
in vec3 in_color;
in float in_id;
in float in_mat;
out vec3 v_world;
out vec3 v_normal;
out vec3 v_color;
out float v_view_z;
flat out int v_id;
flat out int v_mat;
void main() {
    gl_Position = mvp * vec4(in_pos, 1.0);
    v_world = in_pos;
    v_normal = in_normal;
    v_color = in_color;
    v_view_z = -(view * vec4(in_pos, 1.0)).z;
    v_id = int(in_id + 0.5);
    v_mat = int(in_mat + 0.5);
}
"""

FRAGMENT = """
#version 330
uniform vec3 eye;
uniform vec3 key_dir;       // direction the key light travels (world)
uniform vec3 lamp_pos[8];   // ceiling lights (world)
uniform int lamp_count;
uniform float lamp_power;
uniform sampler3D occlusion_volume;  // baked contact shadows (synth.shadows)
uniform vec4 occ_rect;               // x0, y0, 1/width, 1/depth
uniform float occ_top;
in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;
in float v_view_z;
flat in int v_id;
flat in int v_mat;
layout(location = 0) out vec4 out_color;
layout(location = 1) out vec2 out_id_depth;  // instance id (exact below 2^24), view depth in metres

float hash(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453); }
float noise(vec2 p) {
    vec2 i = floor(p), f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    float bottom = mix(hash(i), hash(i + vec2(1, 0)), u.x);
    float top = mix(hash(i + vec2(0, 1)), hash(i + vec2(1, 1)), u.x);
    return mix(bottom, top, u.y);
}

// Procedural patterns per material, from world coordinates (no UVs needed).
vec3 pattern(vec3 base, vec3 n) {
    vec2 p = abs(n.z) > 0.5 ? v_world.xy : (abs(n.x) > 0.5 ? v_world.yz : v_world.xz);
    if (v_mat == 1) {  // wood grain
        float g = noise(vec2(p.x * 3.0, p.y * 40.0)) * 0.5 + noise(p * 9.0) * 0.5;
        return base * (0.85 + 0.25 * g);
    }
    if (v_mat == 2) {  // fabric weave
        return base * (0.92 + 0.12 * noise(p * 60.0));
    }
    if (v_mat == 5) {  // floor planks
        float row = floor(v_world.y / 0.18);
        float x = v_world.x + hash(vec2(row, 1.0)) * 3.0;
        float plank = floor(x / 1.2);
        float seam = step(0.985, fract(v_world.y / 0.18)) + step(0.995, fract(x / 1.2));
        float tone = 0.85 + 0.25 * hash(vec2(row, plank));
        float grain = 0.9 + 0.15 * noise(vec2(x * 2.0, v_world.y * 60.0));
        return base * tone * grain * (1.0 - 0.5 * min(seam, 1.0));
    }
    if (v_mat == 6) {  // tiles with grout
        vec2 t = fract(p / 0.3);
        float grout = step(t.x, 0.03) + step(t.y, 0.03);
        return mix(base * (0.95 + 0.08 * hash(floor(p / 0.3))), vec3(0.55), min(grout, 1.0));
    }
    return base;
}

// Share of the neighbourhood covered by an object above this point (0 = open, 1 = under furniture).
float occlusion() {
    vec2 uv = (v_world.xy - occ_rect.xy) * occ_rect.zw;
    return texture(occlusion_volume, vec3(uv, clamp(v_world.z / occ_top, 0.0, 1.0))).r;
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 to_eye = normalize(eye - v_world);
    if (dot(n, to_eye) < 0.0) n = -n;  // two-sided lighting
    vec3 albedo = pattern(v_color, n);
    vec3 color;
    if (v_mat == 9) {
        // Window pane: a bright sky, paler towards a hazy horizon 1.2 m above the floor.
        float up = clamp((v_world.z - 1.2) / 1.2, 0.0, 1.0);
        color = mix(vec3(0.93, 0.95, 0.96), albedo * vec3(0.92, 0.97, 1.05), up);
    } else if (v_mat == 4) {
        color = albedo * 1.05;  // emissive: window panes, lamp shades
    } else {
        float occ = occlusion();
        float sky = 0.5 + 0.5 * n.z;
        vec3 ambient = mix(vec3(0.33, 0.32, 0.3), vec3(0.5, 0.52, 0.54), sky) * (1.0 - 0.5 * occ);
        float key = max(dot(n, -normalize(key_dir)), 0.0) * 0.4 * (1.0 - 0.8 * occ);
        vec3 lamps = vec3(0.0);
        for (int i = 0; i < lamp_count; ++i) {
            vec3 d = lamp_pos[i] - v_world;
            float dist = length(d);
            lamps += max(dot(n, d / dist), 0.0) / (1.0 + 0.2 * dist * dist);
        }
        lamps *= vec3(1.0, 0.96, 0.88) * lamp_power * (1.0 - 0.7 * occ);
        float spec = 0.0;
        if (v_mat == 3 || v_mat == 8) {
            vec3 h = normalize(to_eye - normalize(key_dir));
            spec = pow(max(dot(n, h), 0.0), v_mat == 8 ? 60.0 : 24.0) * 0.35;
        }
        color = albedo * (ambient + key + lamps) + spec;
    }
    // A slight darkening with distance reads as depth cueing and keeps far walls from washing out.
    color *= 1.0 - 0.04 * clamp(v_view_z - 2.0, 0.0, 6.0) / 6.0;
    color = vec3(1.0) - exp(-1.5 * color);  // soft tone curve: bright rooms do not clip to white
    out_color = vec4(color, 1.0);
    out_id_depth = vec2(float(v_id), v_view_z);
}
"""
