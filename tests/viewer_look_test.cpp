// Issue 27 in the real viewer window (run under Xvfb by CTest): the View panel's Environment
// section, an .hdr dropped on the window, a bad environment map in the strip, the Material
// inspector on the generated material matrix and on a model whose texture is missing, and the
// Stats panel's draw time. Driven through the UI as a person would (clicks on probed widgets,
// GLFW's drop callback).
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/viewer.h"
#include "app/viewer_entry.h"
#include "app/viewer_settings.h"
#include "platform/window.h"
#include "render/camera.h"
#include "render/program_cache.h"
#include "support/demo_gltf.h"
#include "support/viewer_driver.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

// A small valid Radiance .hdr (uncompressed RGBE scanlines): `w` x `h` of one colour.
void writeHdr(const fs::path& path, int w, int h, unsigned char r, unsigned char g, unsigned char b) {
    std::ofstream out(path, std::ios::binary);
    out << "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " << h << " +X " << w << "\n";
    for (int i = 0; i < w * h; ++i) out << r << g << b << static_cast<unsigned char>(128);
}

class ViewerLook : public ::testing::Test, protected testing::ViewerDriver {
protected:
    void SetUp() override {
        dir = fs::temp_directory_path() / ("rigview-look-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir / "config");
        configHome = std::make_unique<testing::ScopedEnv>("XDG_CONFIG_HOME", (dir / "config").c_str());
    }
    void TearDown() override {
        viewer.reset();
        configHome.reset();
        fs::remove_all(dir);
    }
    void start(const std::string& model, bool remember = false) {
        ViewerConfig cfg;
        cfg.model = model;
        cfg.remember = remember;
        cfg.width = 1280;
        cfg.height = 800;
        ViewerDriver::start(cfg);
    }
    // Selects the node mesh `mesh` hangs from in the Hierarchy, as a click on its row.
    void selectMeshNode(size_t mesh) {
        const Model& m = *viewer->state().model;
        ASSERT_LT(mesh, m.meshes.size());
        const std::string name = m.skeleton.names[m.meshes[mesh].node];
        ASSERT_TRUE(has("node:" + name)) << name;
        revealIn("Hierarchy/tree", "node:" + name);
        click("node:" + name);
        ASSERT_EQ(viewer->state().selectedJoint, m.meshes[mesh].node);
        frames(1);
    }
    std::string settingsText() {
        std::ifstream in(dir / "config" / "rigview" / "settings.json");
        std::stringstream t;
        t << in.rdbuf();
        return t.str();
    }

    fs::path dir;
    std::unique_ptr<testing::ScopedEnv> configHome;
};

// Choose... opens the file browser on .hdr files only; the chosen one becomes the environment,
// is written to the settings file under "environment" and comes back at the next start;
// Studio goes back to the bundled map.
TEST_F(ViewerLook, ChooseAnHdrInTheBrowserAndItIsRemembered) {
    writeHdr(dir / "sky.hdr", 8, 4, 200, 180, 150);
    fs::copy_file(demoModelPath(), dir / "model.gltf");
    start(demoModelPath(), true);
    ViewerState& s = viewer->state();
    EXPECT_TRUE(s.view.environment.empty());
    EXPECT_EQ(text("env:file"), "studio (bundled)");
    click("env:choose");
    ASSERT_TRUE(s.ui.fileBrowser);
    EXPECT_TRUE(s.ui.browser.forEnvironment);
    s.ui.browser.dir = dir.string();
    s.ui.browser.listedDir.clear();
    frames(2);
    std::vector<std::string> files;
    for (const FileBrowserState::Entry& e : s.ui.browser.entries) {
        if (!e.folder) files.push_back(e.name);
    }
    EXPECT_EQ(files, std::vector<std::string>{"sky.hdr"}) << "the browser lists environment maps only";
    click("browser:entry:sky.hdr");
    click("browser:open");
    EXPECT_FALSE(s.ui.fileBrowser);
    EXPECT_EQ(s.view.environment, (dir / "sky.hdr").string());
    EXPECT_EQ(s.path, demoModelPath()) << "choosing an environment opened it as a model";
    EXPECT_EQ(text("env:file"), "sky.hdr");
    // The next Ctrl+O browser lists models again.
    s.ui.fileBrowser = true;
    s.ui.browser.listedDir.clear();
    frames(2);
    EXPECT_FALSE(s.ui.browser.forEnvironment);
    files.clear();
    for (const FileBrowserState::Entry& e : s.ui.browser.entries) {
        if (!e.folder) files.push_back(e.name);
    }
    EXPECT_EQ(files, std::vector<std::string>{"model.gltf"});
    s.ui.fileBrowser = false;
    frames(1);
    viewer.reset();  // quit: the settings are written
    const nlohmann::json saved = nlohmann::json::parse(settingsText());
    EXPECT_EQ(saved["view"]["environment"], (dir / "sky.hdr").string());
    start(demoModelPath(), true);
    EXPECT_EQ(viewer->state().view.environment, (dir / "sky.hdr").string());
    click("env:studio");
    EXPECT_TRUE(viewer->state().view.environment.empty());
    EXPECT_EQ(text("env:file"), "studio (bundled)");
}

// Picks entry `index` of the combo popup that is open (the items of a Combo, top to bottom).
ImVec2 comboItem(int index) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    if (g.OpenPopupStack.empty() || !g.OpenPopupStack.back().Window) return ImVec2(-1, -1);
    const ImGuiWindow* popup = g.OpenPopupStack.back().Window;
    const float row = ImGui::GetTextLineHeightWithSpacing();
    return ImVec2(popup->DC.CursorStartPos.x + 10.0f, popup->DC.CursorStartPos.y + (static_cast<float>(index) + 0.5f) * row);
}

// Every widget of the Environment section changes its view option; the options are written
// to the settings file and come back at the next start.
TEST_F(ViewerLook, EnvironmentWidgetsChangeTheOptionsAndPersist) {
    start(demoModelPath(), true);
    ViewerState& s = viewer->state();
    const ViewOptions defaults;
    EXPECT_FALSE(s.view.keyLight);
    click("env:keyLight");
    EXPECT_TRUE(s.view.keyLight);
    EXPECT_TRUE(s.view.groundShadow);
    click("env:groundShadow");
    EXPECT_FALSE(s.view.groundShadow);
    click("env:backgroundMode:environment");
    EXPECT_EQ(s.view.backgroundMode, BackgroundMode::Environment);
    click("env:exposure", 0.4f);  // on the slider's frame (its label is on the right)
    EXPECT_GT(s.view.exposure, 4.0f);
    click("env:environmentRotation", 0.25f);
    EXPECT_LT(s.view.environmentRotation, -90.0f);
    click("env:backgroundBlur", 0.1f);
    EXPECT_LT(s.view.backgroundBlur, 0.3f) << "the blur slider is live with the environment background";
    // Tone mapping and the debug channel: combos; the item chosen in the list.
    EXPECT_EQ(s.view.toneMapping, ToneMapping::Neutral);
    click("env:toneMapping");
    clickAt(comboItem(2));  // ACES
    EXPECT_EQ(s.view.toneMapping, ToneMapping::Aces);
    click("env:debugChannel");
    clickAt(comboItem(4));  // roughness
    EXPECT_EQ(s.view.debugChannel, DebugChannel::Roughness);
    const ViewOptions chosen = s.view;
    viewer.reset();  // quit: the settings are written
    const nlohmann::json saved = nlohmann::json::parse(settingsText());
    EXPECT_EQ(saved["view"]["toneMapping"], "aces");
    EXPECT_EQ(saved["view"]["debugChannel"], "roughness");
    EXPECT_EQ(saved["view"]["backgroundMode"], "environment");
    EXPECT_EQ(saved["view"]["keyLight"], true);
    start(demoModelPath(), true);
    const ViewOptions& back = viewer->state().view;
    EXPECT_TRUE(back.keyLight);
    EXPECT_FALSE(back.groundShadow);
    EXPECT_EQ(back.backgroundMode, BackgroundMode::Environment);
    EXPECT_FLOAT_EQ(back.exposure, chosen.exposure);
    EXPECT_FLOAT_EQ(back.environmentRotation, chosen.environmentRotation);
    EXPECT_FLOAT_EQ(back.backgroundBlur, chosen.backgroundBlur);
    EXPECT_EQ(back.toneMapping, ToneMapping::Aces);
    EXPECT_EQ(back.debugChannel, DebugChannel::Roughness);
    EXPECT_NE(back.exposure, defaults.exposure);
}

// A bad .hdr (dropped) is one line in the strip naming it, and not kept; the viewer keeps
// running and drawing the model; a good one clears it; a dismissed line stays away.
TEST_F(ViewerLook, ABadHdrIsOneLineInTheStripAndTheViewerKeepsRunning) {
    std::ofstream(dir / "bad.hdr") << "not a radiance file at all\n";
    writeHdr(dir / "good.hdr", 16, 8, 180, 180, 180);
    start(demoModelPath());
    ViewerState& s = viewer->state();
    drop((dir / "bad.hdr").string());
    lit();
    EXPECT_EQ(s.view.environment, "") << "a map that did not load is kept (and so saved)";
    EXPECT_NE(s.environmentError.find((dir / "bad.hdr").string()), std::string::npos) << s.environmentError;
    EXPECT_EQ(s.environmentError.find('\n'), std::string::npos) << s.environmentError;
    EXPECT_TRUE(has("notice:environment"));
    EXPECT_TRUE(s.model);
    EXPECT_TRUE(s.error.empty()) << s.error;
    const double t = s.timeline.time;
    frames(10);
    EXPECT_NE(s.timeline.time, t) << "the viewer stopped playing";
    drop((dir / "good.hdr").string());
    lit();
    EXPECT_TRUE(s.environmentError.empty()) << s.environmentError;
    drop((dir / "bad.hdr").string());
    lit();
    ASSERT_FALSE(s.environmentError.empty());
    click("notice:environment:dismiss");
    frames(3);
    EXPECT_TRUE(s.environmentError.empty()) << "a dismissed line came back: " << s.environmentError;
}

// The settings name an environment map that is gone: one line in the strip, the model shown,
// lit by the studio.
TEST_F(ViewerLook, AMissingSavedEnvironmentIsOneLineNotFatal) {
    fs::create_directories(dir / "config" / "rigview");
    std::ofstream(dir / "config" / "rigview" / "settings.json")
        << R"({"version": 1, "view": {"environment": ")" << (dir / "gone.hdr").string() << R"("}})";
    start(demoModelPath(), true);
    ViewerState& s = viewer->state();
    frames(2);
    EXPECT_EQ(s.view.environment, "") << "the studio lights it instead";
    EXPECT_NE(s.environmentError.find("gone.hdr"), std::string::npos) << s.environmentError;
    EXPECT_EQ(s.environmentError.find('\n'), std::string::npos) << s.environmentError;
    EXPECT_TRUE(s.settingsProblem.empty()) << s.settingsProblem;
    EXPECT_TRUE(s.model);
}

// An .hdr dropped on the window lights the model (the model stays); a model file dropped
// still opens.
TEST_F(ViewerLook, ADroppedHdrSetsTheEnvironmentAndADroppedModelOpens) {
    writeHdr(dir / "Warm Sky.HDR", 8, 4, 220, 160, 120);
    start(demoModelPath());
    ViewerState& s = viewer->state();
    const Model* before = s.model.get();
    drop((dir / "Warm Sky.HDR").string());
    EXPECT_EQ(s.view.environment, (dir / "Warm Sky.HDR").string());
    EXPECT_EQ(s.model.get(), before) << "the .hdr was opened as a model";
    EXPECT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(text("env:file"), "Warm Sky.HDR");
    const std::string box = "/usr/share/assimp/models/glTF2/BoxTextured-glTF/BoxTextured.gltf";
    drop(box);
    viewer->waitForLoad();
    frames(2);
    EXPECT_EQ(s.path, box);
    EXPECT_EQ(s.view.environment, (dir / "Warm Sky.HDR").string()) << "a new model keeps the environment";
}

// The Material inspector on BoxTextured: its texture's file, pixel size and UV set; copied
// without its texture: the slot says it did not load and why, and the strip has one line.
TEST_F(ViewerLook, TheMaterialInspectorShowsATexturesSizeOrWhyItDidNotLoad) {
    const fs::path src = "/usr/share/assimp/models/glTF2/BoxTextured-glTF";
    start((src / "BoxTextured.gltf").string());
    ViewerState& s = viewer->state();
    selectMeshNode(0);
    EXPECT_EQ(text("texture:baseColor").rfind("CesiumLogoFlat.png, 211x211, UV0, wrap ", 0), 0u) << text("texture:baseColor");
    // Its thumbnail beside the row: the texture the renderer draws with, showing the image's own
    // colours (its mean within a few levels of the file's, not the darker linear values).
    const Mesh& mesh = s.model->meshes[0];
    ASSERT_LT(mesh.material, s.materialTextures.size());
    const unsigned tex = s.materialTextures[mesh.material].baseColor;
    ASSERT_NE(tex, 0u);
    EXPECT_EQ(text("texture:baseColor:thumb"), std::to_string(tex));
    revealIn("Hierarchy/inspector", "texture:baseColor:thumb");
    const ImVec4 thumb = rect("texture:baseColor:thumb"), row = rect("texture:baseColor");
    EXPECT_LT(thumb.z, row.x + 1.0f);
    EXPECT_NEAR(thumb.y, row.y, ImGui::GetTextLineHeight());
    EXPECT_GE(thumb.w - thumb.y, 2.0f * ImGui::GetTextLineHeight());
    const ModelImage* image = s.model->findImage("CesiumLogoFlat.png");
    ASSERT_NE(image, nullptr);
    double file[3] = {0, 0, 0}, linear[3] = {0, 0, 0};
    const size_t n = image->rgba.size() / 4;
    for (size_t i = 0; i < n; ++i) {
        for (int c = 0; c < 3; ++c) {
            const double v = image->rgba[4 * i + c] / 255.0;
            file[c] += v * 255.0 / n;
            linear[c] += (v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4)) * 255.0 / n;
        }
    }
    int w = 0, h = 0;
    const std::vector<uint8_t> px = viewer->captureFrame(w, h);
    ASSERT_EQ(px.size(), static_cast<size_t>(w) * static_cast<size_t>(h) * 4u);
    ASSERT_GT(n, 0u);
    ASSERT_TRUE(thumb.x >= 0.0f && thumb.y >= 0.0f && thumb.z <= w && thumb.w <= h) << "the thumbnail is off the window";
    double shown[3] = {0, 0, 0};
    int count = 0;
    for (int y = static_cast<int>(std::round(thumb.y)); y < static_cast<int>(std::round(thumb.w)); ++y) {
        for (int x = static_cast<int>(std::round(thumb.x)); x < static_cast<int>(std::round(thumb.z)); ++x) {
            for (int c = 0; c < 3; ++c) shown[c] += px[(static_cast<size_t>(y) * w + x) * 4 + c];
            ++count;
        }
    }
    ASSERT_GT(count, 100);
    for (int c = 0; c < 3; ++c) {
        shown[c] /= count;
        EXPECT_NEAR(shown[c], file[c], 8.0) << "channel " << c << " (linear would be " << linear[c] << ")";
    }
    // Hovered: the texture larger, with its slot, file and size.
    mouse = at("texture:baseColor:thumb");
    frames(2);
    EXPECT_EQ(text("texture:tooltip"), "baseColor: CesiumLogoFlat.png\n211 x 211 pixels");
    mouse = ImVec2(-FLT_MAX, -FLT_MAX);
    frames(1);
    // Without the image beside it.
    fs::create_directories(dir / "box");
    fs::copy_file(src / "BoxTextured.gltf", dir / "box" / "BoxTextured.gltf");
    fs::copy_file(src / "BoxTextured0.bin", dir / "box" / "BoxTextured0.bin");
    s.requests.open = (dir / "box" / "BoxTextured.gltf").string();
    frames(1);
    viewer->waitForLoad();
    frames(3);
    ASSERT_EQ(s.path, (dir / "box" / "BoxTextured.gltf").string()) << s.error;
    selectMeshNode(0);
    EXPECT_EQ(text("texture:baseColor").rfind("CesiumLogoFlat.png, NOT LOADED (texture CesiumLogoFlat.png missing), UV0", 0), 0u)
        << text("texture:baseColor");
    EXPECT_EQ(std::count(s.warning.begin(), s.warning.end(), '\n'), 0) << s.warning;
    EXPECT_NE(s.warning.find("texture CesiumLogoFlat.png missing"), std::string::npos) << s.warning;
}

// The material matrix (tools/make_material_matrix.py, generated by CTest into the build folder):
// selecting a node shows its mesh's material: factors, alpha mode, double-sided, each texture
// with its size, UV set and transform; the Mesh list shows another.
TEST_F(ViewerLook, TheMaterialInspectorShowsTheMaterialMatrix) {
    const fs::path matrix = fs::path(RIGVIEW_MATERIAL_MATRIX_DIR) / "material_matrix.gltf";
    ASSERT_TRUE(fs::exists(matrix)) << matrix << " (made by the test viewer_look.material_matrix)";
    start(matrix.string());
    ViewerState& s = viewer->state();
    const Model& m = *s.model;
    auto meshNamed = [&](const std::string& name) {
        for (size_t i = 0; i < m.meshes.size(); ++i) {
            if (m.meshes[i].name == name) return i;
        }
        ADD_FAILURE() << "no mesh " << name;
        return size_t(0);
    };
    selectMeshNode(meshNamed("metal0.5_rough0.9"));
    EXPECT_EQ(text("material:name"), "metal0.5_rough0.9");
    EXPECT_EQ(text("material:baseColor"), "0.900 0.550 0.300  alpha 1.000");
    // A swatch of the colour beside its numbers, on the same line.
    const ImVec4 sw = rect("material:baseColor:swatch"), row = rect("material:baseColor");
    EXPECT_LT(sw.z, row.x + 1.0f);
    EXPECT_NEAR(sw.y, row.y, ImGui::GetTextLineHeight());
    EXPECT_TRUE(has("material:emissive:swatch"));
    EXPECT_EQ(text("material:origin"), "glTF metallic-roughness");
    EXPECT_EQ(text("material:metallic"), "0.500");
    EXPECT_EQ(text("material:roughness"), "0.900");
    EXPECT_EQ(text("material:alpha"), "opaque");
    EXPECT_EQ(text("material:doubleSided"), "no");
    EXPECT_EQ(viewer->probe().texts.count("texture:baseColor"), 0u) << "a sphere without textures shows one";
    EXPECT_EQ(text("material:textures"), "none");
    selectMeshNode(meshNamed("texture_transform"));
    EXPECT_EQ(text("material:name"), "texture_transform");
    EXPECT_EQ(text("texture:baseColor").rfind("uv_grid.png, 64x64, UV0, offset (0.25, 0.1) rotation 17.2 deg scale (1.5, 1.5), wrap ", 0), 0u)
        << text("texture:baseColor");
    EXPECT_EQ(viewer->probe().texts.count("material:textures"), 0u);
    selectMeshNode(meshNamed("texcoord1"));
    EXPECT_EQ(text("texture:baseColor").rfind("uv_grid.png, 64x64, UV1, wrap ", 0), 0u) << text("texture:baseColor");
    selectMeshNode(meshNamed("emissive"));
    EXPECT_EQ(text("material:emissive"), "1.000 0.450 0.100  strength 4.000");
    EXPECT_EQ(text("texture:emissive").rfind("emissive_dots.png, ", 0), 0u) << text("texture:emissive");
    selectMeshNode(meshNamed("normal_map"));
    EXPECT_EQ(text("material:normalScale"), "1.000");
    EXPECT_EQ(text("texture:normal").rfind("normal_bumps.png, 128x128, UV0", 0), 0u) << text("texture:normal");
    selectMeshNode(meshNamed("alpha_mask"));
    EXPECT_EQ(text("material:alpha"), "mask, cutoff 0.500");
    selectMeshNode(meshNamed("alpha_blend"));
    EXPECT_EQ(text("material:alpha"), "blend");
    selectMeshNode(meshNamed("double_sided_back"));
    EXPECT_EQ(text("material:doubleSided"), "yes");
    // The Mesh list shows any mesh's material.
    revealIn("Hierarchy/inspector", "material:mesh");
    click("material:mesh");
    ImGuiContext& g = *ImGui::GetCurrentContext();
    ASSERT_FALSE(g.OpenPopupStack.empty());
    clickAt(comboItem(static_cast<int>(meshNamed("metal1_rough0.1"))));
    EXPECT_EQ(text("material:name"), "metal1_rough0.1");
    EXPECT_EQ(text("material:metallic"), "1.000");
    EXPECT_EQ(text("material:roughness"), "0.100");
    selectMeshNode(meshNamed("occlusion"));
    EXPECT_EQ(text("material:occlusionStrength"), "1.000");
    EXPECT_EQ(text("texture:occlusion").rfind("occlusion_stripes.png, 64x64, UV0", 0), 0u) << text("texture:occlusion");
}

// Stats: the model's draw time on the CPU, and the GPU's from a timer query read back later.
TEST_F(ViewerLook, StatsShowTheDrawTime) {
    start(demoModelPath());
    const ViewerState& s = viewer->state();
    for (int i = 0; i < 30 && s.stats.drawGpuMs < 0.0f; ++i) frames(1);
    EXPECT_GT(s.stats.drawCpuMs, 0.0f);
    EXPECT_GE(s.stats.drawGpuMs, 0.0f) << "no timer query result after 30 frames";
}

// Anti-aliasing: auto leaves the scene at one sample on a software renderer (llvmpipe under
// Xvfb here) and gives 4x MSAA on a GPU; choosing 4x MSAA in the View panel multisamples the
// scene, which changes only the pixels along edges, and is written to the settings file.
TEST_F(ViewerLook, AntiAliasingAutoIsOffOnASoftwareRendererAndFourSamplesWhenChosen) {
    start(demoModelPath(), true);
    ViewerState& s = viewer->state();
    EXPECT_EQ(s.view.antiAliasing, AntiAliasing::Auto);
    EXPECT_EQ(s.stats.softwareRenderer, isSoftwareRenderer(s.stats.glRenderer)) << s.stats.glRenderer;
    EXPECT_EQ(s.stats.sceneSamples, s.stats.softwareRenderer ? 1 : 4) << s.stats.glRenderer;
    s.requests.togglePlay = true;  // paused: the two pictures show the same pose
    frames(2);
    ASSERT_FALSE(s.timeline.playing);
    int w = 0, h = 0;
    const std::vector<uint8_t> before = viewer->captureFrame(w, h);
    click("antiAliasing");
    clickAt(comboItem(2));  // 4x MSAA
    frames(2);  // the combo's popup closed, the cursor away from the widgets
    ASSERT_EQ(s.view.antiAliasing, AntiAliasing::Msaa4);
    EXPECT_EQ(s.stats.sceneSamples, 4);
    const std::vector<uint8_t> after = viewer->captureFrame(w, h);
    ASSERT_EQ(after.size(), before.size());
    // Inside the viewport only the edges change (on a software renderer, where auto was off).
    const LayoutRect& c = s.ui.layout.rects.centre;
    size_t changed = 0, pixels = 0;
    for (int y = static_cast<int>(c.y) + 2; y < static_cast<int>(c.y + c.h) - 2; ++y) {
        for (int x = static_cast<int>(c.x) + 2; x < static_cast<int>(c.x + c.w) - 2; ++x) {
            const size_t i = (static_cast<size_t>(y) * w + x) * 4;
            ++pixels;
            changed += std::abs(before[i] - after[i]) + std::abs(before[i + 1] - after[i + 1]) +
                           std::abs(before[i + 2] - after[i + 2]) > 6;
        }
    }
    if (s.stats.softwareRenderer) {
        EXPECT_GT(changed, 200u) << "4x MSAA changed no edge";
        EXPECT_LT(changed, pixels / 20) << "4x MSAA changed more than the edges: " << changed << " of " << pixels;
    }
    viewer.reset();  // quit: the settings are written
    EXPECT_EQ(nlohmann::json::parse(settingsText())["view"]["antiAliasing"], "msaa4");
    start(demoModelPath(), true);
    EXPECT_EQ(viewer->state().view.antiAliasing, AntiAliasing::Msaa4);
    EXPECT_EQ(viewer->state().stats.sceneSamples, 4);
}

// How many pixels of the viewport's middle third differ from `other` (RGB, more than 12 levels).
size_t differingPixels(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int w, const LayoutRect& c) {
    size_t n = 0;
    for (int y = static_cast<int>(c.y + c.h / 3); y < static_cast<int>(c.y + 2 * c.h / 3); ++y) {
        for (int x = static_cast<int>(c.x + c.w / 3); x < static_cast<int>(c.x + 2 * c.w / 3); ++x) {
            const size_t i = (static_cast<size_t>(y) * w + x) * 4;
            n += std::abs(a[i] - b[i]) + std::abs(a[i + 1] - b[i + 1]) + std::abs(a[i + 2] - b[i + 2]) > 12;
        }
    }
    return n;
}

// Shader programs are kept between runs (render/program_cache.h): the first start compiles
// and stores them, the second links every one from the cache; entries damaged on disk (a
// flipped byte, a binary the driver refuses) are ignored, the model still drawn, and written
// again for the next start.
TEST_F(ViewerLook, ASecondStartLinksItsProgramsFromTheCache) {
    testing::ScopedEnv cacheHome("XDG_CACHE_HOME", (dir / "cache").c_str());
    const fs::path programs = dir / "cache" / "rigview" / "programs";
    auto run = [&](const char* what) {
        const ProgramCacheCounts before = programCacheCounts();
        start(demoModelPath());
        EXPECT_TRUE(viewer->state().error.empty()) << what << ": " << viewer->state().error;
        viewer.reset();
        const ProgramCacheCounts after = programCacheCounts();
        return ProgramCacheCounts{after.loaded - before.loaded, after.compiled - before.compiled,
                                  after.stored - before.stored, after.rejected - before.rejected};
    };
    const ProgramCacheCounts first = run("first start");
    if (first.stored == 0) GTEST_SKIP() << "this driver keeps no program binaries (GL_NUM_PROGRAM_BINARY_FORMATS 0)";
    EXPECT_GT(first.compiled, 3u);
    EXPECT_EQ(first.loaded, 0u);
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(programs)) entries.push_back(e.path());
    std::sort(entries.begin(), entries.end());
    EXPECT_EQ(entries.size(), first.stored);

    const ProgramCacheCounts second = run("second start");
    EXPECT_EQ(second.compiled, 0u) << "a program was compiled again";
    EXPECT_GE(second.loaded, 3u);
    EXPECT_EQ(second.rejected, 0u);

    // Every entry damaged, in turn: a byte flipped in its binary (its checksum no longer
    // matches), its binary rewritten as noise under a matching checksum (the driver refuses it),
    // cut short.
    ASSERT_GE(entries.size(), 3u);
    for (size_t k = 0; k < entries.size(); ++k) {
        const fs::path& entry = entries[k];
        if (k % 3 == 0) {
            std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
            f.seekg(-10, std::ios::end);
            const char c = static_cast<char>(f.get() ^ 0x5a);
            f.seekp(-10, std::ios::end);
            f.put(c);
        } else if (k % 3 == 1) {
            std::ifstream in(entry, std::ios::binary);
            std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            in.close();
            ASSERT_GT(bytes.size(), 24u);
            uint64_t h = 14695981039346656037ull;  // the entry's checksum: FNV-1a of the binary
            for (size_t i = 24; i < bytes.size(); ++i) {
                bytes[i] = static_cast<char>((i * 131) ^ 0xa5);
                h = (h ^ static_cast<unsigned char>(bytes[i])) * 1099511628211ull;
            }
            std::memcpy(bytes.data() + 16, &h, sizeof(h));
            std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
        } else {
            fs::resize_file(entry, fs::file_size(entry) / 2);
        }
    }
    const ProgramCacheCounts damaged = run("damaged cache");
    EXPECT_EQ(damaged.rejected, second.loaded) << "an entry damaged on disk was used";
    EXPECT_EQ(damaged.loaded, 0u);
    EXPECT_EQ(damaged.compiled, damaged.rejected) << "the damaged entries are compiled from source";
    EXPECT_EQ(damaged.stored, damaged.compiled) << "and written again";
    const ProgramCacheCounts again = run("after the damage");
    EXPECT_EQ(again.compiled, 0u);
    EXPECT_EQ(again.rejected, 0u);
}

// A chosen .hdr is prefiltered a piece at a time (render/environment.h's EnvironmentLoad): the
// strip says "Prefiltering environment sky.hdr  N%" with N rising, the window keeps drawing the
// model lit by the studio meanwhile, and the map lights it once done.
TEST_F(ViewerLook, AnHdrIsPrefilteredWhileTheModelIsDrawn) {
    testing::ScopedEnv cacheHome("XDG_CACHE_HOME", (dir / "cache").c_str());  // nothing prefiltered before
    writeHdr(dir / "sky.hdr", 512, 256, 90, 150, 250);
    start(demoModelPath());
    ViewerState& s = viewer->state();
    if (s.timeline.playing) s.requests.togglePlay = true;
    s.view.grid = false;
    frames(2);
    int w = 0, h = 0;
    const std::vector<uint8_t> studio = viewer->captureFrame(w, h);
    const LayoutRect c = s.ui.layout.rects.centre;
    // The background alone: its colour (the viewport's corner) everywhere.
    std::vector<uint8_t> empty(studio.size());
    const size_t corner = (static_cast<size_t>(c.y + 4) * w + static_cast<size_t>(c.x + 4)) * 4;
    for (size_t i = 0; i < empty.size(); i += 4) std::copy_n(studio.begin() + corner, 4, empty.begin() + i);
    s.requests.environment = (dir / "sky.hdr").string();
    std::vector<int> percents;
    std::vector<uint8_t> during;
    const unsigned long long before = viewer->framesDrawn();
    for (int i = 0; i < 2000 && (percents.empty() || percents.back() < 100); ++i) {
        viewer->frame(1.0 / 60.0);
        if (!viewer->probe().texts.count("progress")) {
            if (!percents.empty()) percents.push_back(100);  // the line went: done
            continue;
        }
        const std::string line = viewer->probe().texts.at("progress");
        const std::string prefix = "Prefiltering environment sky.hdr  ";
        if (line.rfind(prefix, 0) != 0) {
            EXPECT_EQ(line, "Reading environment sky.hdr");
            continue;
        }
        percents.push_back(std::stoi(line.substr(prefix.size())));
        if (during.empty() && percents.back() >= 30) {
            during = viewer->captureFrame(w, h);
            EXPECT_TRUE(viewer->probe().texts.count("progress")) << "done while the frame was captured";
        }
    }
    ASSERT_FALSE(percents.empty()) << "no progress line";
    EXPECT_EQ(percents.back(), 100) << "the prefilter never ended";
    EXPECT_GE(percents.size(), 5u) << "prefiltered in too few frames to keep the window answering";
    EXPECT_TRUE(std::is_sorted(percents.begin(), percents.end()));
    EXPECT_GT(viewer->framesDrawn() - before, 5u);
    ASSERT_FALSE(during.empty()) << "no frame was drawn past 30%";
    // The model is on screen while the map is prefiltered, lit as before (the studio).
    const size_t model = differingPixels(studio, empty, w, c);
    EXPECT_GT(model, 500u) << "the model is not in the viewport";
    EXPECT_LT(differingPixels(during, studio, w, c), model / 20) << "the model was not drawn, or not lit by the studio";
    // Then the sky lights it: the picture changes; no error; the map is kept.
    frames(2);
    const std::vector<uint8_t> sky = viewer->captureFrame(w, h);
    EXPECT_GT(differingPixels(sky, studio, w, c), model / 4) << "the new map does not light the model";
    EXPECT_TRUE(s.environmentError.empty()) << s.environmentError;
    EXPECT_EQ(s.view.environment, (dir / "sky.hdr").string());
    EXPECT_FALSE(viewer->probe().texts.count("progress"));

    // Through the viewer's own loop (frames only when something is due): frames come while
    // another map is prefiltered, and one more takes the line away when it is done.
    writeHdr(dir / "dusk.hdr", 512, 256, 250, 140, 90);
    drop((dir / "dusk.hdr").string());  // dropped on the window: two frames, the load begun
    ASSERT_FALSE(s.progress.empty()) << "no progress line for the dropped map";
    int drawn = 0;
    for (int turn = 0; turn < 4000 && !s.progress.empty(); ++turn) drawn += viewer->step(0.5);
    EXPECT_TRUE(s.progress.empty()) << "the prefilter never ended";
    EXPECT_GT(drawn, 5) << "the loop drew too few frames while the map was prefiltered";
    EXPECT_TRUE(viewer->step(0.5)) << "no frame took the progress line away";
    EXPECT_FALSE(viewer->probe().texts.count("progress")) << "the progress line stayed on screen";
}

// Selecting a mesh outlines it in the viewport, in its skinned pose (Blender's orange, a band
// around its silhouette): the outline's pixels are there while its node is selected (in the
// Hierarchy, or by a click on the mesh in the viewport) and not otherwise, and they move with
// the animation.
TEST_F(ViewerLook, TheSelectedMeshIsOutlined) {
    start(demoModelPath());
    ViewerState& s = viewer->state();
    if (s.timeline.playing) s.requests.togglePlay = true;
    frames(2);
    int w = 0, h = 0;
    auto outline = [&] {  // the outline-coloured pixels of the viewport, by index
        const std::vector<uint8_t> px = viewer->captureFrame(w, h);
        const LayoutRect c = s.ui.layout.rects.centre;
        std::vector<size_t> at;
        for (int y = static_cast<int>(c.y); y < static_cast<int>(c.y + c.h); ++y) {
            for (int x = static_cast<int>(c.x); x < static_cast<int>(c.x + c.w); ++x) {
                const size_t i = (static_cast<size_t>(y) * w + x) * 4;
                if (std::abs(px[i] - 255) <= 3 && std::abs(px[i + 1] - 153) <= 3 && std::abs(px[i + 2] - 26) <= 3) at.push_back(i / 4);
            }
        }
        return at;
    };
    EXPECT_TRUE(outline().empty()) << "an outline with nothing selected";
    const Model& m = *s.model;
    selectMeshNode(0);
    const std::vector<size_t> selected = outline();
    EXPECT_GT(selected.size(), 300u) << "the selected mesh is not outlined";
    shot("outline");

    // A joint selected instead: no outline.
    int bone = -1;
    for (int32_t j : s.joints) {
        bool meshNode = false;
        for (const Mesh& mesh : m.meshes) meshNode = meshNode || mesh.node == j;
        if (!meshNode) bone = j;
    }
    ASSERT_GE(bone, 0);
    s.selectedJoint = bone;
    frames(1);
    EXPECT_TRUE(outline().empty()) << "still outlined with a joint selected";

    // A click on the mesh, away from every joint, selects the node it hangs from: outlined again.
    const std::vector<uint8_t> px = viewer->captureFrame(w, h);
    const LayoutRect c = s.ui.layout.rects.centre;
    const size_t corner = (static_cast<size_t>(c.y + 4) * w + static_cast<size_t>(c.x + 4)) * 4;
    const float aspect = static_cast<float>(w) / static_cast<float>(h);
    const glm::mat4 viewProj = s.camera.projection(aspect) * s.camera.view();
    std::vector<glm::vec2> joints;
    for (size_t j = 0; j < m.skeleton.size(); ++j) {
        glm::vec2 p;
        if (projectToScreen(viewProj, glm::vec3(s.animator->world()[j][3]), static_cast<float>(w), static_cast<float>(h), p)) {
            joints.push_back(p);
        }
    }
    ImVec2 onMesh(-1.0f, -1.0f);
    for (int y = static_cast<int>(c.y + c.h * 0.3f); y < static_cast<int>(c.y + c.h * 0.7f) && onMesh.x < 0; y += 4) {
        for (int x = static_cast<int>(c.x + c.w * 0.3f); x < static_cast<int>(c.x + c.w * 0.7f) && onMesh.x < 0; x += 4) {
            const size_t i = (static_cast<size_t>(y) * w + x) * 4;
            const bool model = std::abs(px[i] - px[corner]) + std::abs(px[i + 1] - px[corner + 1]) + std::abs(px[i + 2] - px[corner + 2]) > 30;
            bool nearJoint = false;
            for (const glm::vec2& j : joints) nearJoint = nearJoint || glm::distance(j, glm::vec2(x, y)) < 24.0f;
            if (model && !nearJoint) onMesh = ImVec2(static_cast<float>(x), static_cast<float>(y));
        }
    }
    ASSERT_GE(onMesh.x, 0.0f) << "no pixel of the mesh away from the joints";
    clickAt(onMesh);
    frames(1);
    bool meshNode = false;
    for (const Mesh& mesh : m.meshes) meshNode = meshNode || mesh.node == s.selectedJoint;
    EXPECT_TRUE(meshNode) << "the click selected node " << s.selectedJoint << ", which holds no mesh";
    const std::vector<size_t> clicked = outline();
    EXPECT_GT(clicked.size(), 300u) << "the clicked mesh is not outlined";

    // Playing: the outline follows the skinned pose.
    s.requests.togglePlay = true;
    frames(20);
    const std::vector<size_t> later = outline();
    EXPECT_GT(later.size(), 300u);
    std::vector<size_t> moved;
    std::set_symmetric_difference(clicked.begin(), clicked.end(), later.begin(), later.end(), std::back_inserter(moved));
    EXPECT_GT(moved.size(), clicked.size() / 10) << "the outline did not move with the animation";
}

// The GL renderer strings of software rasterizers, and of GPUs.
TEST(AntiAliasing, SoftwareRenderersAreRecognizedByTheirRendererString) {
    EXPECT_TRUE(isSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_TRUE(isSoftwareRenderer("softpipe"));
    EXPECT_TRUE(isSoftwareRenderer("Google SwiftShader"));
    EXPECT_TRUE(isSoftwareRenderer("ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)"));
    EXPECT_TRUE(isSoftwareRenderer("GDI Generic"));
    EXPECT_FALSE(isSoftwareRenderer("NVIDIA H200/PCIe/SSE2"));
    EXPECT_FALSE(isSoftwareRenderer("AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.7, DRM 3.54, 6.5.0)"));
    EXPECT_FALSE(isSoftwareRenderer("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
}

}  // namespace
}  // namespace rig
