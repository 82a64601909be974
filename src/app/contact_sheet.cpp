#include "app/contact_sheet.h"

#include <stb_easy_font.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/command_util.h"
#include "app/exit_codes.h"
#include "platform/headless.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "util/paths.h"

namespace rig {

namespace {

constexpr int kCell = 240;
constexpr int kLabel = 18;
constexpr int kColumns = 6;
constexpr int kMaxRows = 12;

// Draw ASCII text into an RGBA image (stb_easy_font gives axis-aligned quads).
void drawText(std::vector<uint8_t>& img, int w, int h, int x, int y, const std::string& text) {
    static char buffer[99999];
    const int quads = stb_easy_font_print(0, 0, const_cast<char*>(text.c_str()), nullptr, buffer, sizeof buffer);
    const float* v = reinterpret_cast<const float*>(buffer);
    for (int q = 0; q < quads; ++q) {
        const float* p = v + q * 16;  // 4 vertices of (x, y, z, colour)
        const int x0 = x + static_cast<int>(p[0]), y0 = y + static_cast<int>(p[1]);
        const int x1 = x + static_cast<int>(p[8]), y1 = y + static_cast<int>(p[9]);
        for (int yy = std::max(0, y0); yy < std::min(h, y1); ++yy) {
            for (int xx = std::max(0, x0); xx < std::min(w, x1); ++xx) {
                uint8_t* px = &img[(static_cast<size_t>(yy) * w + xx) * 4];
                px[0] = px[1] = px[2] = 235;
                px[3] = 255;
            }
        }
    }
}

// Vertices that checks flag: more than 4 influences, weights not summing to 1, unweighted.
std::vector<uint8_t> problemVertices(const Mesh& m) {
    std::vector<uint8_t> bad(m.vertexCount(), 0);
    if (!m.skinned) return bad;
    for (const FullInfluences& t : m.truncated) bad[t.vertex] = 1;
    for (size_t v = 0; v < m.originalInfluenceCount.size(); ++v) {
        if (m.originalInfluenceCount[v] == 0) bad[v] = 1;
        if (m.originalInfluenceCount[v] > 0 && std::fabs(m.originalWeightSum[v] - 1.0f) > 1e-3f) bad[v] = 1;
    }
    return bad;
}

// How many clip rows each model gets: up to kMaxRows for one model; for several, an equal
// share of kMaxSheetRows (at least one). A model without clips shows its bind pose in one row.
size_t rowsFor(const Model& model, size_t models) {
    const size_t share = models <= 1 ? kMaxRows : std::clamp<size_t>(kMaxSheetRows / models, 1, kMaxRows);
    return model.clips.empty() ? 1 : std::min(model.clips.size(), share);
}

}  // namespace

int writeContactSheet(const std::vector<SheetEntry>& entries, const std::string& path) {
    if (paths::lowerExtension(path) != ".png" && !cmd::isStreamOutput(path)) {
        cmd::printError(path + ": --sheet must end in .png");
        return exitcode::kUsage;
    }
    for (const SheetEntry& e : entries) {
        if (e.model && !cmd::outputIsNotAResource(path, *e.model)) return exitcode::kUsage;
    }
    const std::string first = entries.empty() ? path : entries.front().path;
    auto ctx = HeadlessContext::create();
    if (!ctx) {
        cmd::printError(first + ": cannot render the sheet: " + ctx.error().message);
        return exitcode::kRenderFailed;
    }
    auto renderer = Renderer::create();
    auto target = OffscreenTarget::create(kCell, kCell, 4);
    if (!renderer || !target) {
        cmd::printError(first + ": cannot render the sheet");
        return exitcode::kRenderFailed;
    }

    // The sheet grows by a section per file, so only one model at a time need be in memory.
    const int width = kColumns * kCell, rowHeight = kCell + kLabel;
    std::vector<uint8_t> sheet;
    int height = 0;
    const auto grow = [&](int rows) {
        height += rows;
        sheet.resize(static_cast<size_t>(width) * height * 4, 0);
        for (size_t i = static_cast<size_t>(width) * (height - rows) * 4 + 3; i < sheet.size(); i += 4) sheet[i] = 255;
    };
    for (const SheetEntry& e : entries) {
        const int y0 = height;  // the top of this file's section
        Model loaded;
        const Model* shown = e.model;
        std::string error = e.error;
        if (!shown && e.load) {
            if (e.load(loaded)) {
                shown = &loaded;
                if (!cmd::outputIsNotAResource(path, loaded)) return exitcode::kUsage;
            } else {
                error = "could not be imported again for the sheet";
            }
        }
        if (!shown) {
            grow(2 * kLabel);
            drawText(sheet, width, height, 6, y0 + 4, e.path + "   not imported");
            drawText(sheet, width, height, 6, y0 + kLabel + 4, error);
            continue;
        }
        const Model& model = *shown;
        auto gpu = GpuModel::create(model);
        if (!gpu) {
            cmd::printError(e.path + ": cannot render the sheet: " + gpu.error().message);
            return exitcode::kRenderFailed;
        }
        size_t flagged = 0;
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            const std::vector<uint8_t> bad = problemVertices(model.meshes[m]);
            const size_t n = static_cast<size_t>(std::count(bad.begin(), bad.end(), 1));
            if (n == 0) continue;
            flagged += n;
            std::vector<glm::vec4> colors(bad.size());
            for (size_t v = 0; v < bad.size(); ++v) colors[v] = bad[v] ? glm::vec4(1.0f, 0.12f, 0.12f, 1.0f) : glm::vec4(1.0f);
            (*gpu)->setVertexColors(m, colors);
        }
        const int rows = static_cast<int>(rowsFor(model, entries.size()));
        const size_t more = model.clips.size() > static_cast<size_t>(rows) ? model.clips.size() - rows : 0;
        const size_t findings = e.report ? e.report->findings.size() : 0;
        const char* worst = !e.report || e.report->empty() ? "none" : severityName(e.report->worst());
        char title[512];
        std::snprintf(title, sizeof title, "   %zu findings, worst: %s   %zu flagged vertices in red", findings, worst, flagged);
        std::string titleText = e.path + title;
        if (more) titleText += "   (+" + std::to_string(more) + " clips not shown)";
        grow(kLabel + rows * rowHeight);
        drawText(sheet, width, height, 6, y0 + 4, titleText);

        Animator anim(model);
        ViewOptions view;
        view.grid = true;
        for (int r = 0; r < rows; ++r) {
            const int32_t clip = model.clips.empty() ? -1 : r;
            const float duration = clip >= 0 ? model.clips[clip].duration : 0.0f;
            const Bounds bounds = animatedBounds(model, clip, 12);
            OrbitCamera cam;
            cam.frame(bounds, 1.0f, 1.1f);
            const int rowTop = y0 + kLabel + r * rowHeight;
            char label[256];
            std::snprintf(label, sizeof label, "%s (%.2f s)", clip >= 0 ? model.clips[clip].name.c_str() : "bind pose", duration);
            drawText(sheet, width, height, 6, rowTop + 4, label);
            for (int c = 0; c < kColumns; ++c) {
                const float t = duration * static_cast<float>(c) / static_cast<float>(kColumns - 1);
                anim.evaluate(clip, t);
                (*target)->bind();
                (*renderer)->draw(**gpu, anim, cam, view, kCell, kCell, &bounds);
                const std::vector<uint8_t> px = (*target)->readPixels();
                for (int y = 0; y < kCell; ++y) {
                    std::memcpy(&sheet[(static_cast<size_t>(rowTop + kLabel + y) * width + c * kCell) * 4],
                                &px[static_cast<size_t>(y) * kCell * 4], static_cast<size_t>(kCell) * 4);
                }
                char ts[32];
                std::snprintf(ts, sizeof ts, "%.2fs", t);
                drawText(sheet, width, height, c * kCell + 4, rowTop + kLabel + kCell - 14, ts);
            }
        }
    }
    if (height == 0) grow(1);
    std::string error;
    if (!writePng(path, width, height, sheet, &error)) {
        cmd::printError(error);
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

}  // namespace rig
