// Which way is up in a model file. Formats that define their up axis are taken at their word:
// glTF is +Y by specification; COLLADA's <up_axis> is applied by import (Assimp turns a Z_UP or
// X_UP file to +Y at its root); FBX names it in its GlobalSettings (UpAxis, UpAxisSign).
// Formats that say nothing (BVH, SMD, .X, MD5, IQM, ASF/AMC, B3D, OBJ...) are guessed from the
// bind pose: files from Source, 3ds Max or Blender exports often keep Z up, and the viewer
// would show them lying down.
#pragma once

#include <string>
#include <string_view>

#include "render/camera.h"

namespace rig {

// A guess from the bind pose's bounds `b`: a model that stands on the plane through the origin
// is up along that plane's normal (its lowest point near 0 along Y or Z, and not along the
// other); otherwise Z is up when the model is clearly taller along Z than along Y (by 1.25
// times) and Z is its longest side. True: Z up.
bool guessZUp(const Bounds& b);

// What a file's format says about its up axis, as the model comes out of import.
struct DeclaredUp {
    enum class Axis { None, Y, Z } axis = Axis::None;  // None: the format says nothing (or an
                                                       // axis the camera cannot stand on: X, -Y, -Z)
    std::string source;  // where it came from, for the View panel ("glTF: +Y by specification")
};

// From the extension and, for FBX and COLLADA, the file's first bytes (`head`: at least its
// first 1 MiB where the file is longer; GlobalSettings and <asset> come first).
DeclaredUp declaredUpAxis(const std::string& path, std::string_view head);
// The same, reading the head of `path` itself (nothing declared when it cannot be read).
DeclaredUp declaredUpAxis(const std::string& path);

// FBX: the integer property `name` of the GlobalSettings (binary or ASCII FBX) in `head`;
// false when it is not there.
bool fbxIntProperty(std::string_view head, std::string_view name, int& value);

// The rule the viewer and `render --up auto` share: the declared axis, else the guess from the
// bind-pose bounds `bindBounds`. `why` (may be null) says which.
bool chooseZUp(const std::string& path, const Bounds& bindBounds, std::string* why = nullptr);

}  // namespace rig
