// Clip markers (Clip::markers) in the model's markers file, "<model file>.markers.json", where
// the viewer saves the markers edited on its Timeline for any format:
//   {"clips": [{"clip": "walk", "markers": [{"name": "step", "time": 0.5}]}]}
// Import reads it after the file's own markers (a glTF animation's extras.markers: gltf/markers):
// it replaces the markers of each clip it names, so the viewer, `export` and every other
// command see the edited markers.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"

namespace rig {

// The markers file of a model file.
std::string markersFilePath(const std::string& modelPath);

// Read the model's markers file, if there is one: each entry's clip (by name) gets the
// entry's markers instead of its own. Returns false with `error` set ("<file>: <what>") for a
// file that is there but cannot be read or is not such JSON; true otherwise (also when there
// is no file).
bool applyMarkersFile(const std::string& modelPath, Model& model, std::string& error);

// Write the markers file of `modelPath`: every clip of `clipNames` with its markers (an empty
// list too, so markers deleted from a file's clip stay deleted). Written through OutputFile.
bool writeMarkersFile(const std::string& modelPath, const std::vector<std::string>& clipNames,
                      const std::vector<std::vector<Marker>>& markers, std::string& error);

// Sorted by time (stable: markers at one time keep their order), non-finite times dropped.
void sortMarkers(std::vector<Marker>& markers);

// The markers of a JSON array of {"name": string, "time": seconds} (the markers file's lists
// and glTF's extras.markers): entries that are not an object with a string name and a finite
// time are skipped; sorted by time. False when `list` is not an array.
bool readMarkerList(const nlohmann::json& list, std::vector<Marker>& out);

}  // namespace rig
