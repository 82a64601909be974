// Which way is up in a model file that does not say: formats such as SMD and most files from
// Source, 3ds Max or Blender exports keep Z up, and the viewer would show them lying down.
#pragma once

#include "render/camera.h"

namespace rig {

// A guess from the bind pose's bounds `b`: a model that stands on the plane through the origin
// is up along that plane's normal (its lowest point near 0 along Y or Z, and not along the
// other); otherwise Z is up when the model is clearly taller along Z than along Y (by 1.25
// times) and Z is its longest side. True: Z up.
bool guessZUp(const Bounds& b);

}  // namespace rig
