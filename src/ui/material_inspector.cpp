// The Hierarchy inspector's Material section: what the renderer knows of one mesh's material,
// read-only (anim/runtime/model.h's Material, GpuModel::textureStatus), with colour swatches
// and a thumbnail of each texture as the renderer holds it (GpuModel::materials).
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>

#include "platform/gl.h"

#include "ui/panels.h"
#include "ui/widgets.h"

namespace rig {

namespace {

std::string fmt(const char* f, ...) IM_FMTARGS(1);
std::string fmt(const char* f, ...) {
    char buf[512];
    va_list args;
    va_start(args, f);
    std::vsnprintf(buf, sizeof buf, f, args);
    va_end(args);
    return buf;
}

const char* wrapName(int mode) {
    switch (mode) {
        case 10497: return "repeat";
        case 33071: return "clamp";
        case 33648: return "mirror";
        default: return "?";
    }
}

const char* filterName(int mode) {
    switch (mode) {
        case 9728: return "nearest";
        case 9729: return "linear";
        case 9984: return "nearest, nearest mip";
        case 9985: return "linear, nearest mip";
        case 9986: return "nearest, linear mip";
        case 9987: return "linear, linear mip";
        default: return "?";
    }
}

const char* alphaName(AlphaMode m) {
    switch (m) {
        case AlphaMode::Opaque: return "opaque";
        case AlphaMode::Mask: return "mask";
        case AlphaMode::Blend: return "blend";
    }
    return "?";
}

// One row: "label: text", wrapped, probed as `key` with its text.
void row(UiProbe* probe, const std::string& key, const char* label, const std::string& text) {
    ImGui::TextWrapped("%s: %s", label, text.c_str());
    probeItem(probe, key);
    if (probe) probe->texts[key] = text;
}

// A swatch of a linear colour as it shows on screen (sRGB encoded), before the row's text.
void swatch(UiProbe* probe, const std::string& key, const glm::vec4& linear) {
    auto encode = [](float c) {
        c = std::clamp(c, 0.0f, 1.0f);
        return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
    };
    const ImVec4 shown(encode(linear.r), encode(linear.g), encode(linear.b), std::clamp(linear.a, 0.0f, 1.0f));
    const float side = ImGui::GetTextLineHeight();
    ImGui::ColorButton(("##" + key).c_str(), shown, ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_AlphaPreviewHalf,
                       ImVec2(side, side));
    probeItem(probe, key + ":swatch");
    ImGui::SameLine();
}

// EXT_texture_sRGB_decode (not in glad's core 3.3 loader): an sRGB texture sampled without
// decoding gives its stored values, as an image viewer shows the file.
constexpr GLenum kTextureSrgbDecode = 0x8A48, kSkipDecode = 0x8A4A;

// The sampler thumbnails are drawn with (made once in the viewer's GL context, which frees it):
// trilinear, clamped, and sRGB textures not decoded where the GL can say so, whatever the
// file's own sampler says.
GLuint thumbnailSampler(ViewerUiState& ui) {
    if (ui.thumbnailSampler != 0) return ui.thumbnailSampler;
    bool skip = false;
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i) {
        const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
        if (e && std::strcmp(e, "GL_EXT_texture_sRGB_decode") == 0) skip = true;
    }
    GLuint sampler = 0;
    glGenSamplers(1, &sampler);
    glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    if (skip) glSamplerParameteri(sampler, kTextureSrgbDecode, static_cast<GLint>(kSkipDecode));
    ui.thumbnailSampler = sampler;
    return sampler;
}

// Draw-list callbacks around a thumbnail (run by the OpenGL backend as it draws the UI, on the
// texture unit it draws with).
void bindSampler(const ImDrawList*, const ImDrawCmd* cmd) {
    glBindSampler(0, static_cast<GLuint>(reinterpret_cast<intptr_t>(cmd->UserCallbackData)));
}
void unbindSampler(const ImDrawList*, const ImDrawCmd*) { glBindSampler(0, 0); }

// Texture `tex` drawn into [a, b] of `dl` (letterboxed to the image's aspect), framed.
void drawTexture(ImDrawList* dl, GLuint tex, ImVec2 a, ImVec2 b, int width, int height, GLuint sampler) {
    const float bw = b.x - a.x, bh = b.y - a.y;
    const float k = std::min(bw / static_cast<float>(std::max(width, 1)), bh / static_cast<float>(std::max(height, 1)));
    const ImVec2 size(k * static_cast<float>(width), k * static_cast<float>(height));
    const ImVec2 p0(std::round(a.x + 0.5f * (bw - size.x)), std::round(a.y + 0.5f * (bh - size.y)));
    void* id = reinterpret_cast<void*>(static_cast<intptr_t>(tex));
    dl->AddCallback(bindSampler, reinterpret_cast<void*>(static_cast<intptr_t>(sampler)));
    dl->AddImage(id, p0, ImVec2(p0.x + size.x, p0.y + size.y));
    dl->AddCallback(unbindSampler, nullptr);
    dl->AddRect(ImVec2(a.x - 1.0f, a.y - 1.0f), ImVec2(b.x + 1.0f, b.y + 1.0f), ImGui::GetColorU32(ImGuiCol_Border));
}

// A small picture of a loaded texture before its row, the texture larger with its slot, file
// and size on hover. Probed as "<key>:thumb" (its text: the GL texture name) and, while the
// tooltip shows, "texture:tooltip".
void thumbnail(ViewerState& s, UiProbe* probe, const std::string& key, const char* slot, const TextureRef& t, GLuint tex,
               const GpuModel::TextureStatus& st) {
    const GLuint sampler = thumbnailSampler(s.ui);
    const float side = std::round(2.0f * ImGui::GetTextLineHeightWithSpacing());
    const ImVec2 a = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(side, side));
    probeItem(probe, key + ":thumb");
    if (probe) probe->texts[key + ":thumb"] = std::to_string(tex);
    drawTexture(ImGui::GetWindowDrawList(), tex, a, ImVec2(a.x + side, a.y + side), st.width, st.height, sampler);
    if (ImGui::IsItemHovered()) {
        const std::string text = fmt("%s: %s\n%d x %d pixels", slot, t.path.c_str(), st.width, st.height);
        ImGui::BeginTooltip();
        const float big = std::round(std::min(256.0f * ImGui::GetFontSize() / 13.0f, static_cast<float>(std::max(st.width, st.height))));
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::Dummy(ImVec2(big, big));
        drawTexture(ImGui::GetWindowDrawList(), tex, p, ImVec2(p.x + big, p.y + big), st.width, st.height, sampler);
        ImGui::TextUnformatted(text.c_str());
        ImGui::EndTooltip();
        if (probe) probe->texts["texture:tooltip"] = text;
    }
    ImGui::SameLine();
}

// What one texture slot reads: the file, its size or why it did not load, UV set, transform
// and sampler.
std::string textureText(const TextureRef& t, const GpuModel::TextureStatus* st) {
    std::string text = t.path;
    if (st && st->loaded()) {
        text += fmt(", %dx%d", st->width, st->height);
    } else if (st && !st->problem.empty()) {
        text += ", NOT LOADED (" + st->problem + ")";
    } else {
        text += ", not read by the renderer";
    }
    text += fmt(", UV%d", t.texCoord);
    if (t.hasTransform()) {
        text += fmt(", offset (%.3g, %.3g) rotation %.3g deg scale (%.3g, %.3g)", t.offset.x, t.offset.y,
                    t.rotation * 180.0 / M_PI, t.scale.x, t.scale.y);
    }
    text += fmt(", wrap %s/%s, filter %s / %s", wrapName(t.wrapS), wrapName(t.wrapT), filterName(t.magFilter),
                filterName(t.minFilter));
    return text;
}

}  // namespace

void drawMaterialInspector(ViewerState& s, UiProbe* probe) {
    if (probe) {  // what the last frame showed, not what an earlier material did
        for (auto it = probe->texts.begin(); it != probe->texts.end();) {
            const bool mine = it->first.rfind("material:", 0) == 0 || it->first.rfind("texture:", 0) == 0;
            it = mine ? probe->texts.erase(it) : std::next(it);
        }
        for (auto it = probe->rects.begin(); it != probe->rects.end();) {
            const bool thumb = it->first.rfind("texture:", 0) == 0 && it->first.size() > 6 &&
                               it->first.compare(it->first.size() - 6, 6, ":thumb") == 0;
            it = thumb ? probe->rects.erase(it) : std::next(it);
        }
    }
    if (!s.model || s.model->meshes.empty()) return;
    const Model& m = *s.model;
    if (!ImGui::CollapsingHeader("Material", ImGuiTreeNodeFlags_DefaultOpen)) return;
    probeItem(probe, "material:header");
    // Selecting a node shows the material of its first mesh; the list picks any mesh.
    if (s.ui.materialForNode != s.selectedJoint) {
        s.ui.materialForNode = s.selectedJoint;
        for (size_t i = 0; i < m.meshes.size(); ++i) {
            if (m.meshes[i].node == s.selectedJoint) {
                s.ui.materialMesh = static_cast<int>(i);
                break;
            }
        }
    }
    if (s.ui.materialMesh >= static_cast<int>(m.meshes.size())) s.ui.materialMesh = -1;
    const int cur = s.ui.materialMesh;
    ImGui::SetNextItemWidth(widthBeside("Mesh"));
    if (ImGui::BeginCombo("Mesh", cur >= 0 ? m.meshes[static_cast<size_t>(cur)].name.c_str() : "(choose a mesh)")) {
        for (size_t i = 0; i < m.meshes.size(); ++i) {
            const std::string label = m.meshes[i].name + "##mesh" + std::to_string(i);
            if (ImGui::Selectable(label.c_str(), static_cast<int>(i) == cur)) s.ui.materialMesh = static_cast<int>(i);
        }
        ImGui::EndCombo();
    }
    probeItem(probe, "material:mesh");
    if (cur < 0) {
        textDisabledWrapped("Select a node with a mesh, or choose one here.");
        return;
    }
    const Mesh& mesh = m.meshes[static_cast<size_t>(cur)];
    if (mesh.material >= m.materials.size()) {
        textDisabledWrapped("This mesh names no material (drawn in the default).");
        return;
    }
    const Material& mat = m.materials[mesh.material];
    row(probe, "material:name", "Name", mat.name.empty() ? fmt("(unnamed, material %u)", mesh.material) : mat.name);
    row(probe, "material:origin", "Read as", mat.origin);
    if (mat.unlit) row(probe, "material:unlit", "Unlit", "yes (KHR_materials_unlit)");
    const glm::vec4& b = mat.baseColor;
    swatch(probe, "material:baseColor", b);
    row(probe, "material:baseColor", "Base colour", fmt("%.3f %.3f %.3f  alpha %.3f", b.r, b.g, b.b, b.a));
    row(probe, "material:metallic", "Metallic", fmt("%.3f", mat.metallic));
    row(probe, "material:roughness", "Roughness", fmt("%.3f", mat.roughness));
    swatch(probe, "material:emissive", glm::vec4(mat.emissive * std::min(mat.emissiveStrength, 1.0f), 1.0f));
    row(probe, "material:emissive", "Emissive",
        fmt("%.3f %.3f %.3f  strength %.3f", mat.emissive.r, mat.emissive.g, mat.emissive.b, mat.emissiveStrength));
    row(probe, "material:normalScale", "Normal scale", fmt("%.3f", mat.normalScale));
    row(probe, "material:occlusionStrength", "Occlusion strength", fmt("%.3f", mat.occlusionStrength));
    row(probe, "material:alpha", "Alpha",
        mat.alphaMode == AlphaMode::Mask ? fmt("mask, cutoff %.3f", mat.alphaCutoff) : std::string(alphaName(mat.alphaMode)));
    row(probe, "material:doubleSided", "Double-sided", mat.doubleSided ? "yes" : "no");
    row(probe, "material:clearcoat", "Clearcoat",
        mat.clearcoat > 0.0f ? fmt("%.3f, roughness %.3f", mat.clearcoat, mat.clearcoatRoughness) : std::string("none"));
    // The texture slots that have a texture.
    const std::vector<GpuModel::TextureStatus>* status =
        mesh.material < s.textureStatus.size() ? &s.textureStatus[mesh.material] : nullptr;
    const GpuMaterial* gpu = mesh.material < s.materialTextures.size() ? &s.materialTextures[mesh.material] : nullptr;
    size_t slot = 0;
    int textures = 0;
    mat.forEachTexture([&](const char* name, const TextureRef& t) {
        const size_t i = slot++;
        if (!t.present()) return;
        ++textures;
        const GpuModel::TextureStatus* st = status && i < status->size() ? &(*status)[i] : nullptr;
        const bool bad = st && !st->loaded() && !st->problem.empty();
        // In Material::forEachTexture's order.
        const GLuint slots[8] = {gpu ? gpu->baseColor : 0u, gpu ? gpu->metallicRoughness : 0u, gpu ? gpu->normal : 0u,
                                 gpu ? gpu->occlusion : 0u, gpu ? gpu->emissive : 0u, gpu ? gpu->clearcoat : 0u,
                                 gpu ? gpu->clearcoatRoughness : 0u, gpu ? gpu->clearcoatNormal : 0u};
        if (st && st->loaded() && i < 8 && slots[i] != 0) thumbnail(s, probe, std::string("texture:") + name, name, t, slots[i], *st);
        if (bad) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.5f, 1.0f));
        row(probe, std::string("texture:") + name, name, textureText(t, st));
        if (bad) ImGui::PopStyleColor();
    });
    if (textures == 0) {
        textDisabledWrapped("No textures.");
        if (probe) probe->texts["material:textures"] = "none";
    }
    if (!mesh.uvs1.empty()) textDisabledWrapped("The mesh has a second UV set (UV1).");
}

}  // namespace rig
