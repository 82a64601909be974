#include "platform/headless.h"

#include <glad/egl.h>

#include <vector>

#include "platform/gl.h"
#include "platform/lsan_scope.h"

namespace rig {

namespace {

bool hasExtension(const char* list, const char* name) {
    if (!list) return false;
    const std::string l = std::string(" ") + list + " ";
    return l.find(std::string(" ") + name + " ") != std::string::npos;
}

// Try one platform: initialize, bind the GL API, create a 3.3 core context, make it
// current without a surface. Returns the context or EGL_NO_CONTEXT.
EGLContext tryDisplay(EGLDisplay dpy) {
    if (dpy == EGL_NO_DISPLAY) return EGL_NO_CONTEXT;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(dpy, &major, &minor)) return EGL_NO_CONTEXT;
    // Reload with the display so that its extensions and 1.5 entry points resolve.
    if (!gladLoaderLoadEGL(dpy)) return EGL_NO_CONTEXT;
    if (!hasExtension(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context")) {
        eglTerminate(dpy);
        return EGL_NO_CONTEXT;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        eglTerminate(dpy);
        return EGL_NO_CONTEXT;
    }
    const EGLint configAttribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    if (!eglChooseConfig(dpy, configAttribs, &config, 1, &count) || count < 1) config = nullptr;
    const EGLint ctxAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                 EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctxAttribs);
    if (ctx == EGL_NO_CONTEXT) {
        eglTerminate(dpy);
        return EGL_NO_CONTEXT;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
        return EGL_NO_CONTEXT;
    }
    return ctx;
}

// eglGetPlatformDisplay is EGL 1.5; before a display exists glad may know only 1.4, so
// take the EXT form from the client extension, or ask EGL for the entry point.
EGLDisplay platformDisplay(EGLenum platform, void* native) {
    if (eglGetPlatformDisplayEXT) return eglGetPlatformDisplayEXT(platform, native, nullptr);
    auto fn = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    return fn ? fn(platform, native, nullptr) : EGL_NO_DISPLAY;
}

}  // namespace

Result<std::unique_ptr<HeadlessContext>> HeadlessContext::create() {
    [[maybe_unused]] LsanIgnoreScope driverAllocations;
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) return Error{"cannot load libEGL (install libegl1 and a Mesa or NVIDIA EGL driver)"};
    const char* clientExt = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    std::unique_ptr<HeadlessContext> hc(new HeadlessContext());
    EGLDisplay dpy = EGL_NO_DISPLAY;
    EGLContext ctx = EGL_NO_CONTEXT;
    // 1. Device platform (NVIDIA's headless path; Mesa render nodes).
    if (!eglQueryDevicesEXT) {
        eglQueryDevicesEXT = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    }
    if (hasExtension(clientExt, "EGL_EXT_platform_device") && eglQueryDevicesEXT) {
        EGLDeviceEXT devices[16];
        EGLint n = 0;
        if (eglQueryDevicesEXT(16, devices, &n)) {
            for (EGLint i = 0; i < n && ctx == EGL_NO_CONTEXT; ++i) {
                dpy = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i]);
                ctx = tryDisplay(dpy);
                if (ctx != EGL_NO_CONTEXT) hc->description_ = "EGL device " + std::to_string(i);
            }
        }
    }
    // 2. Mesa's surfaceless platform (llvmpipe with no GPU at all).
    if (ctx == EGL_NO_CONTEXT && hasExtension(clientExt, "EGL_MESA_platform_surfaceless")) {
        dpy = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
        ctx = tryDisplay(dpy);
        if (ctx != EGL_NO_CONTEXT) hc->description_ = "EGL surfaceless (Mesa)";
    }
    if (ctx == EGL_NO_CONTEXT) {
        return Error{"no headless OpenGL 3.3 core context through EGL (device or surfaceless platform)"};
    }
    hc->display_ = dpy;
    hc->context_ = ctx;
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
        return Error{"cannot load OpenGL functions through EGL"};
    }
    hc->description_ += std::string(", ") + reinterpret_cast<const char*>(glGetString(GL_RENDERER)) + ", OpenGL " +
                        reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return hc;
}

HeadlessContext::~HeadlessContext() {
    [[maybe_unused]] LsanIgnoreScope driverAllocations;
    auto dpy = static_cast<EGLDisplay>(display_);
    if (dpy) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context_) eglDestroyContext(dpy, static_cast<EGLContext>(context_));
        eglTerminate(dpy);
    }
}

}  // namespace rig
