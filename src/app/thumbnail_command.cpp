// `rigview thumbnail MODEL OUT.png --size N`: what the .thumbnailer file runs for file managers
// (GNOME Files, Thunar, Nemo, Caja...). It is `render` with what a preview wants: square, the
// first clip's first frame (the bind pose without clips), framed, the model's up axis guessed,
// a transparent background, the studio lighting, and the same isolated import as every command.
#include <string>
#include <vector>

#include "app/command_util.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "render/offscreen.h"

namespace rig {

int runThumbnail(const ThumbnailOptions& o) {
    if (o.size < 8 || o.size > 4096) {
        cmd::printError("--size " + std::to_string(o.size) + ": the thumbnail's side must be 8..4096 pixels");
        return exitcode::kUsage;
    }
    RenderOptions r;
    r.import = o.import;
    r.model = o.model;
    r.output = o.output;  // only checked against the inputs here; written below whatever its extension
    r.size = std::to_string(o.size) + "x" + std::to_string(o.size);
    r.up = "auto";
    r.time = 0.0;  // before or at the first key: the first frame (tracks hold their first value)
    r.view.background.a = 0.0f;  // transparent where the model is not
    std::vector<uint8_t> rgba;
    int width = 0, height = 0;
    if (const int rc = renderPixels(r, rgba, width, height); rc != exitcode::kOk) return rc;
    std::string error;
    if (!writePng(o.output, width, height, rgba, &error)) {
        cmd::printError(error);
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

}  // namespace rig
