// The one include for OpenGL: glad's GL 3.3 core loader.
#pragma once

#include <glad/gl.h>
