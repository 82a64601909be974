// Where rigview may read and write.
// - Resources a model refers to (glTF buffers and images, OBJ materials, textures beside an
//   FBX...) are read only from inside the model's folder (subfolders too), after resolving
//   "..", symlinks and absolute paths; embedded data and data: URIs are always fine. Inside,
//   only regular files with one hard link are read (notReadable). A process-wide switch
//   (--allow-external-paths) lifts the rule.
// - An output is never one of the command's inputs.
#pragma once

#include <string>
#include <vector>

namespace rig::paths {

// The extension of `path`, lower case, with its dot (".glb"; "" when it has none).
std::string lowerExtension(const std::string& path);

// Process-wide; set once from the command line before importing.
void setAllowExternal(bool allow);
bool allowExternal();

// The canonical folder of a model file ("." resolved; symlinks of the folder resolved).
std::string modelFolder(const std::string& modelPath);

// Whether `path` (resolved: "..", symlinks) lies inside `folder` (canonical, from
// modelFolder). A path that does not exist is judged by its lexically normal form. An existing
// file inside that notReadable refuses counts as outside.
bool isInside(const std::string& folder, const std::string& path);

// Why an existing resource file is not read even inside the folder, "" when it may be: not a
// regular file (a FIFO would block the read, a device never end it), or a file with more than
// one hard link (a hard link names the same data as a file elsewhere, and nothing tells where:
// Landlock and the folder rule both see only the name inside). --allow-external-paths lifts it.
std::string notReadable(const std::string& path);
// Whether a resource may be opened: never a FIFO, device or socket (not even with
// --allow-external-paths: opening one could block for good); otherwise allowExternal() or
// isInside.
bool mayRead(const std::string& folder, const std::string& path);
// `path` for a refusal message: with notReadable's reason in parentheses when there is one.
std::string refusedName(const std::string& path);

// A texture reference of a model (a material's base-colour path) resolved to a file that may
// be read: tried as written (relative to the model's folder when relative), then by its file
// name beside the model. Returns the first candidate that exists and is allowed, else "".
// `refused` receives the candidates that exist but lie outside the folder (and were not read).
std::string resolveResourceFile(const std::string& modelPath, const std::string& ref, std::vector<std::string>* refused);

// Whether `output` names the same file as `input`: the same device and inode when both exist,
// the same canonical path otherwise (so "./m.obj", "m.obj" and a symlink to it all match).
bool sameFile(const std::string& output, const std::string& input);
// The index in `inputs` of the file `output` names (the same device and inode: through
// symbolic links, "..", hard links), or `inputs.size()` when none: `output` is stat'ed once and
// each input once (on several threads for long lists), so a million inputs cost a million
// stats, never pairs. An output that does not exist yet is none of them (nothing is stat'ed).
size_t sameFileAmong(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace rig::paths
