#include "app/version_text.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "import/import.h"
#include "platform/headless.h"
#include "util/data_folder.h"
#include "util/version.h"

namespace rig {

std::string versionText(bool verbose) {
    std::string out = std::string("rigview ") + rigviewVersion() + "\n" + "Assimp " + assimpVersion() + "\n";
    if (!verbose) return out;
    out += std::string("Dear ImGui ") + IMGUI_VERSION + "\n";
    int major = 0, minor = 0, revision = 0;
    glfwGetVersion(&major, &minor, &revision);
    out += "GLFW " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(revision) + "\n";
    auto context = HeadlessContext::create();
    out += "OpenGL (headless): " + (context ? (*context)->description() : "none: " + context.error().message) + "\n";
    out += "data folder: " + (dataFolder().empty() ? "none: " + missingDataFolderMessage() : dataFolder()) + "\n";
    return out;
}

}  // namespace rig
