#include "import/gltf/markers.h"

#include <nlohmann/json.hpp>

#include "import/clip_markers.h"

namespace rig::gltf {

using nlohmann::json;

int applyMarkers(const Document& document, Model& model) {
    if (!document.valid()) return 0;
    const json& doc = document.json();
    const auto anims = doc.find("animations");
    if (anims == doc.end() || !anims->is_array() || anims->size() != model.clips.size()) return 0;
    int read = 0;
    for (size_t a = 0; a < anims->size(); ++a) {
        const json& an = (*anims)[a];
        if (!an.is_object()) continue;
        const auto extras = an.find("extras");
        if (extras == an.end() || !extras->is_object()) continue;
        const auto list = extras->find("markers");
        std::vector<Marker> markers;
        if (list == extras->end() || !readMarkerList(*list, markers)) continue;
        read += static_cast<int>(markers.size());
        model.clips[a].markers = std::move(markers);
    }
    return read;
}

}  // namespace rig::gltf
