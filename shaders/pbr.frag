#version 330 core
// The glTF 2.0 metallic-roughness material lit by an environment (image-based lighting) and an
// optional key light, the way three.js r187's MeshStandardMaterial / MeshPhysicalMaterial does
// it (docs/reference-renders.md): split-sum specular from the radiance cube's GGX levels with
// the DFG table and multiple scattering, diffuse from the roughest level, occlusion with
// specular occlusion, emissive, normal maps, clearcoat; then tone mapping and the sRGB encoding
// (shaders/tonemap.frag, linked beside this file). The rig views keep their flat look:
// u_colorSource 1 (vertex colours) and 2 (white, ghosts) are lit by the simple key/ambient
// model and written as they are.

in vec3 v_worldPos;
in vec3 v_normal;
in vec2 v_uv;
in vec2 v_uv1;
in vec4 v_color;
in vec4 v_tangent;

vec3 toneMap(vec3 color, int mode, float exposure);
vec3 srgbEncode(vec3 c);

// Texture slots (render/pbr_shading.h kSlot*): bit i of u_texMask says slot i has a texture.
const int kBase = 0, kMetalRough = 1, kNormal = 2, kOcclusion = 3, kEmissive = 4, kCoat = 5, kCoatRough = 6,
          kCoatNormal = 7;
uniform int u_texMask;
uniform int u_uvSet[8];        // 0 TEXCOORD_0, 1 TEXCOORD_1
uniform mat3 u_uvMatrix[8];    // KHR_texture_transform as three's Matrix3.setUvTransform (glTF UV space)
uniform sampler2D u_baseColorTexture;
uniform sampler2D u_metallicRoughnessTexture;
uniform sampler2D u_normalTexture;
uniform sampler2D u_occlusionTexture;
uniform sampler2D u_emissiveTexture;
uniform sampler2D u_clearcoatTexture;
uniform sampler2D u_clearcoatRoughnessTexture;
uniform sampler2D u_clearcoatNormalTexture;

uniform vec4 u_baseColor;
uniform float u_metallic;
uniform float u_roughness;
uniform vec3 u_emissive;       // factor x KHR_materials_emissive_strength
uniform float u_normalScale;
uniform float u_occlusionStrength;
uniform int u_alphaMode;       // 0 OPAQUE, 1 MASK, 2 BLEND
uniform float u_alphaCutoff;
uniform int u_doubleSided;
uniform int u_unlit;
uniform float u_clearcoat;     // 0: no coat
uniform float u_clearcoatRoughness;

uniform vec3 u_eye;
uniform mat4 u_view;           // the geometric roughness term is taken in view space, as three does
uniform int u_hasEnvironment;  // 0: a uniform grey sky of radiance u_ambient
uniform samplerCube u_radiance;
uniform sampler2D u_dfg;
uniform float u_maxLod;
uniform mat3 u_envRotation;    // world direction -> environment direction
uniform float u_ambient;
uniform int u_keyLight;
uniform vec3 u_keyLightDir;    // towards the light, world space
uniform vec3 u_keyLightColor;
uniform int u_toneMapping;
uniform float u_exposure;
uniform int u_debugChannel;    // ViewOptions' DebugChannel: 0 none
uniform int u_lighting;        // 0: the base colour alone (unlit)
uniform vec4 u_tint;           // multiplied in (overlays, ghosts); alpha blends
uniform int u_colorSource;     // 0 material, 1 vertex colour, 2 white

out vec4 o_color;

// A specialized program (render/pbr_shading.h PbrShading::variantKey) is built with these
// defined to the values the uniforms will hold for its draws, so that branches it never takes
// are compiled out: a software rasterizer (llvmpipe) runs both sides of every branch, uniform or
// not, so that an unused path costs as much as a used one. Without them (the generic program)
// the uniforms decide.
#ifdef RIG_TEX_MASK
#define TEX_MASK RIG_TEX_MASK
#define COLOR_SOURCE RIG_COLOR_SOURCE
#define DEBUG_CHANNEL RIG_DEBUG_CHANNEL
#define KEY_LIGHT RIG_KEY_LIGHT
#define UNLIT RIG_UNLIT
#define COAT_POSSIBLE RIG_COAT
#else
#define TEX_MASK u_texMask
#define COLOR_SOURCE u_colorSource
#define DEBUG_CHANNEL u_debugChannel
#define KEY_LIGHT u_keyLight
#define UNLIT (u_unlit != 0 || u_lighting == 0)
#define COAT_POSSIBLE true
#endif

const float PI = 3.141592653589793;

bool hasTex(int slot) { return (TEX_MASK & (1 << slot)) != 0; }

// The UV a slot samples at. Mesh UVs follow GL's origin (v up, as Assimp gives them) and the
// images are stored bottom row first; the transform is defined on glTF's UVs (v down).
vec2 slotUv(int slot) {
    vec2 uv = u_uvSet[slot] == 1 ? v_uv1 : v_uv;
    vec2 g = vec2(uv.x, 1.0 - uv.y);
    g = (u_uvMatrix[slot] * vec3(g, 1.0)).xy;
    return vec2(g.x, 1.0 - g.y);
}

vec2 gltfUv(int slot) {
    vec2 uv = slotUv(slot);
    return vec2(uv.x, 1.0 - uv.y);
}

float pow2(float x) { return x * x; }
float pow4(float x) { float x2 = x * x; return x2 * x2; }

vec3 fSchlick(vec3 f0, float f90, float dotVH) {
    float fresnel = exp2((-5.55473 * dotVH - 6.98316) * dotVH);
    return f0 * (1.0 - fresnel) + f90 * fresnel;
}

// three's getTangentFrame (perturbNormal2Arb): the tangent frame from screen-space derivatives
// of the position and of glTF's UV.
mat3 derivedTangentFrame(vec3 eyePos, vec3 n, vec2 uv) {
    vec3 q0 = dFdx(eyePos), q1 = dFdy(eyePos);
    vec2 st0 = dFdx(uv), st1 = dFdy(uv);
    vec3 q1perp = cross(q1, n), q0perp = cross(n, q0);
    vec3 t = q1perp * st0.x + q0perp * st1.x;
    vec3 b = q1perp * st0.y + q0perp * st1.y;
    float det = max(dot(t, t), dot(b, b));
    float scale = det == 0.0 ? 0.0 : inversesqrt(det);
    return mat3(t * scale, b * scale, n);
}

mat3 tangentFrame(vec3 n, float faceDirection, int uvSlot) {
    mat3 tbn;
    if (v_tangent.w != 0.0) {
        vec3 t = normalize(v_tangent.xyz);
        // three: vBitangent = cross(vNormal, vTangent) * w, from the interpolated normal.
        vec3 b = normalize(cross(normalize(v_normal), t) * v_tangent.w);
        tbn = mat3(t, b, n);
    } else {
        tbn = derivedTangentFrame(v_worldPos - u_eye, n, gltfUv(uvSlot));
    }
    if (u_doubleSided != 0) {
        tbn[0] *= faceDirection;
        tbn[1] *= faceDirection;
    }
    return tbn;
}

vec3 envLookup(vec3 dir, float lod) {
    if (u_hasEnvironment == 0) return vec3(u_ambient);
    return textureLod(u_radiance, u_envRotation * dir, lod).rgb;
}

vec3 iblRadiance(vec3 viewDir, vec3 n, float roughness) {
    vec3 r = reflect(-viewDir, n);
    r = normalize(mix(r, n, pow4(roughness)));
    float rr = clamp(roughness, 0.0, 1.0);
    return envLookup(r, u_maxLod * rr * (2.0 - rr));
}

vec2 dfg(float roughness, float dotNV) {
    return texture(u_dfg, vec2(roughness, dotNV)).rg;
}

// Fdez-Aguera's multiple scattering: single (FssEss) and multiple (Fms Ems) scattering.
void multiScattering(vec2 fab, vec3 f0, float f90, out vec3 single, out vec3 multi) {
    vec3 fssEss = f0 * fab.x + f90 * fab.y;
    float ess = fab.x + fab.y;
    float ems = 1.0 - ess;
    vec3 favg = f0 + (1.0 - f0) * 0.047619;
    vec3 fms = fssEss * favg / (1.0 - ems * favg);
    single = fssEss;
    multi = fms * ems;
}

float vGgxSmithCorrelated(float alpha, float dotNL, float dotNV) {
    float a2 = pow2(alpha);
    float gv = dotNL * sqrt(a2 + (1.0 - a2) * pow2(dotNV));
    float gl = dotNV * sqrt(a2 + (1.0 - a2) * pow2(dotNL));
    return 0.5 / max(gv + gl, 1e-6);
}

float dGgx(float alpha, float dotNH) {
    float a2 = pow2(alpha);
    float denom = pow2(dotNH) * (a2 - 1.0) + 1.0;
    return a2 / (PI * pow2(denom));
}

vec3 brdfGgx(vec3 l, vec3 v, vec3 n, vec3 f0, float f90, float roughness) {
    float alpha = pow2(max(roughness, 0.045));
    vec3 h = normalize(l + v);
    float dotNL = clamp(dot(n, l), 0.0, 1.0), dotNV = clamp(dot(n, v), 0.0, 1.0);
    float dotNH = clamp(dot(n, h), 0.0, 1.0), dotVH = clamp(dot(v, h), 0.0, 1.0);
    return fSchlick(f0, f90, dotVH) * (vGgxSmithCorrelated(alpha, dotNL, dotNV) * dGgx(alpha, dotNH));
}

vec4 finish(vec3 display, float alpha) {
    return vec4(display, u_alphaMode == 2 ? alpha : 1.0) * u_tint;
}

void main() {
    // The rig views: colours as painted (or the tint alone), simple key + ambient light.
    if (COLOR_SOURCE != 0) {
        vec4 base = COLOR_SOURCE == 2 ? vec4(1.0) : v_color;
        vec3 c = base.rgb;
        if (u_lighting != 0) {
            vec3 n = normalize(v_normal);
            vec3 toEye = normalize(u_eye - v_worldPos);
            if (dot(n, toEye) < 0.0) n = -n;
            float key = max(dot(n, normalize(u_keyLightDir)), 0.0);
            float head = max(dot(n, toEye), 0.0);
            c = base.rgb * (0.35 + 0.65 * key + 0.45 * head);
        }
        o_color = vec4(c, base.a) * u_tint;
        return;
    }

    vec4 base = u_baseColor * v_color;
    if (hasTex(kBase)) base *= texture(u_baseColorTexture, slotUv(kBase));
    if (u_alphaMode == 1 && base.a < u_alphaCutoff) discard;

    float faceDirection = gl_FrontFacing ? 1.0 : -1.0;
    vec3 n = normalize(v_normal);
    if (u_doubleSided != 0) n *= faceDirection;
    vec3 nonPerturbed = n;

    float metallic = u_metallic, roughness = u_roughness;
    if (hasTex(kMetalRough)) {
        vec4 mr = texture(u_metallicRoughnessTexture, slotUv(kMetalRough));
        roughness *= mr.g;
        metallic *= mr.b;
    }
    if (hasTex(kNormal)) {
        mat3 tbn = tangentFrame(n, faceDirection, kNormal);
        vec3 mapN = texture(u_normalTexture, slotUv(kNormal)).xyz * 2.0 - 1.0;
        // GLTFLoader flips normalScale.y when the frame comes from derivatives.
        mapN.xy *= vec2(u_normalScale, v_tangent.w != 0.0 ? u_normalScale : -u_normalScale);
        n = normalize(tbn * mapN);
    }
    float ao = 1.0;
    if (hasTex(kOcclusion)) ao = (texture(u_occlusionTexture, slotUv(kOcclusion)).r - 1.0) * u_occlusionStrength + 1.0;
    vec3 emissive = u_emissive;
    if (hasTex(kEmissive)) emissive *= texture(u_emissiveTexture, slotUv(kEmissive)).rgb;

    if (DEBUG_CHANNEL != 0) {
        vec3 d = vec3(0.0);
        if (DEBUG_CHANNEL == 1) d = srgbEncode(clamp(base.rgb, 0.0, 1.0));
        else if (DEBUG_CHANNEL == 2) d = n * 0.5 + 0.5;
        else if (DEBUG_CHANNEL == 3) d = vec3(metallic);
        else if (DEBUG_CHANNEL == 4) d = vec3(roughness);
        else if (DEBUG_CHANNEL == 5) d = vec3(ao);
        else if (DEBUG_CHANNEL == 6) d = srgbEncode(clamp(emissive, 0.0, 1.0));
        else if (DEBUG_CHANNEL == 7) d = vec3(base.a);
        else if (DEBUG_CHANNEL == 8) d = vec3(fract(gltfUv(kBase)), 0.0);
        else if (DEBUG_CHANNEL == 9) d = vec3(fract(vec2(v_uv1.x, 1.0 - v_uv1.y)), 0.0);
        o_color = vec4(d, 1.0) * u_tint;
        return;
    }
    if (UNLIT) {
        o_color = finish(srgbEncode(toneMap(base.rgb, u_toneMapping, u_exposure)), base.a);
        return;
    }

    vec3 viewDir = normalize(u_eye - v_worldPos);
    vec3 nv = mat3(u_view) * nonPerturbed;
    vec3 dxy = max(abs(dFdx(nv)), abs(dFdy(nv)));
    float geometryRoughness = max(max(dxy.x, dxy.y), dxy.z);
    roughness = min(max(roughness, 0.045) + geometryRoughness, 1.0);

    vec3 diffuseContribution = base.rgb * (1.0 - metallic);
    vec3 specularColor = vec3(0.04);
    vec3 specularBlended = mix(specularColor, base.rgb, metallic);
    float dotNV = clamp(dot(n, viewDir), 0.0, 1.0);
    vec2 fab = dfg(roughness, dotNV);

    vec3 directDiffuse = vec3(0.0), directSpecular = vec3(0.0);
    vec3 coatDirect = vec3(0.0);
    float coat = u_clearcoat, coatRoughness = u_clearcoatRoughness;
    vec3 coatNormal = nonPerturbed;
    if (COAT_POSSIBLE && coat > 0.0) {
        if (hasTex(kCoat)) coat *= texture(u_clearcoatTexture, slotUv(kCoat)).r;
        if (hasTex(kCoatRough)) coatRoughness *= texture(u_clearcoatRoughnessTexture, slotUv(kCoatRough)).g;
        coat = clamp(coat, 0.0, 1.0);
        coatRoughness = min(max(coatRoughness, 0.045) + geometryRoughness, 1.0);
        if (hasTex(kCoatNormal)) {
            mat3 tbn2 = tangentFrame(nonPerturbed, faceDirection, kCoatNormal);
            vec3 m = texture(u_clearcoatNormalTexture, slotUv(kCoatNormal)).xyz * 2.0 - 1.0;
            if (v_tangent.w == 0.0) m.y = -m.y;
            coatNormal = normalize(tbn2 * m);
        }
    }
    if (KEY_LIGHT != 0) {
        vec3 l = normalize(u_keyLightDir);
        float dotNL = clamp(dot(n, l), 0.0, 1.0);
        vec3 irradiance = dotNL * u_keyLightColor;
        float essMs = fab.x + fab.y;
        vec3 compensation = 1.0 + specularBlended * (1.0 / essMs - 1.0);
        directSpecular += irradiance * brdfGgx(l, viewDir, n, specularBlended, 1.0, roughness) * compensation;
        float dotVH = clamp(dot(viewDir, normalize(l + viewDir)), 0.0, 1.0);
        directDiffuse += irradiance * diffuseContribution / PI * (1.0 - fSchlick(specularColor, 1.0, dotVH));
        if (COAT_POSSIBLE && coat > 0.0) {
            float dotNLcc = clamp(dot(coatNormal, l), 0.0, 1.0);
            coatDirect += dotNLcc * u_keyLightColor * brdfGgx(l, viewDir, coatNormal, vec3(0.04), 1.0, coatRoughness);
        }
    }

    // Image-based lighting: three's RE_IndirectSpecular_Physical.
    vec3 irradiance = PI * envLookup(n, u_maxLod);
    vec3 radiance = iblRadiance(viewDir, n, roughness);
    vec3 singleD, multiD, singleM, multiM;
    multiScattering(fab, specularColor, 1.0, singleD, multiD);
    multiScattering(fab, base.rgb, 1.0, singleM, multiM);
    vec3 single = mix(singleD, singleM, metallic);
    vec3 multi = mix(multiD, multiM, metallic);
    vec3 diffuse = diffuseContribution * (1.0 - (singleD + multiD));
    vec3 cosineIrradiance = irradiance / PI;
    vec3 indirectSpecular = radiance * single + multi * cosineIrradiance;
    vec3 indirectDiffuse = diffuse * cosineIrradiance;
    vec3 coatIndirect = vec3(0.0);
    if (COAT_POSSIBLE && coat > 0.0) {
        float dotNVc = clamp(dot(coatNormal, viewDir), 0.0, 1.0);
        vec2 fabc = dfg(coatRoughness, dotNVc);
        coatIndirect = iblRadiance(viewDir, coatNormal, coatRoughness) * (vec3(0.04) * fabc.x + fabc.y);
    }

    // Occlusion: the indirect diffuse, and the indirect specular by Lagarde's specular occlusion.
    if (hasTex(kOcclusion)) {
        indirectDiffuse *= ao;
        coatIndirect *= ao;
        indirectSpecular *= clamp(pow(dotNV + ao, exp2(-16.0 * roughness - 1.0)) - 1.0 + ao, 0.0, 1.0);
    }

    vec3 outgoing = directDiffuse + indirectDiffuse + directSpecular + indirectSpecular + emissive;
    if (COAT_POSSIBLE && coat > 0.0) {
        float dotNVcc = clamp(dot(coatNormal, viewDir), 0.0, 1.0);
        vec3 fcc = fSchlick(vec3(0.04), 1.0, dotNVcc);
        outgoing = outgoing * (1.0 - coat * fcc) + (coatDirect + coatIndirect) * coat;
    }
    o_color = finish(srgbEncode(toneMap(outgoing, u_toneMapping, u_exposure)), base.a);
}
