// Helpers shared by the subcommands (app/<name>_command.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <memory>

#include "anim/offline/compress.h"
#include "anim/runtime/compressed_clip_set.h"
#include "anim/runtime/model.h"
#include "import/import_options.h"

namespace rig::cmd {

// One line on stderr: "rigview: <line>", made terminal-safe (text::forTerminal); while an
// ErrorCapture is alive on the calling thread, kept in it instead.
void printError(const std::string& line);
// The lines printError would write on this thread, kept for a caller that reports them its
// own way (the Python module raises them as exceptions and warnings). Nests: the innermost wins.
class ErrorCapture {
public:
    ErrorCapture();
    ~ErrorCapture();
    ErrorCapture(const ErrorCapture&) = delete;
    ErrorCapture& operator=(const ErrorCapture&) = delete;
    const std::vector<std::string>& lines() const { return lines_; }
    void add(const std::string& line) { lines_.push_back(line); }

private:
    std::vector<std::string> lines_;
    ErrorCapture* outer_;
};
// A model already imported (the Python module's Model, handed to render, export or compress)
// that load() gives out, copied, instead of importing `path` again, while the scope lives on
// this thread and the load asks for that model's path with no `anims`.
class PreloadedModel {
public:
    explicit PreloadedModel(const Model& model);
    ~PreloadedModel();
    PreloadedModel(const PreloadedModel&) = delete;
    PreloadedModel& operator=(const PreloadedModel&) = delete;

private:
    const Model* outer_;
};
// Import `path` with the clips of `anims` (--anim) and `options` (--units, --amc-fps), or print
// the error; false on failure. A model that loaded with refused resources (outside its folder)
// gets one warning line.
bool load(const std::string& path, const std::vector<std::string>& anims, const ImportOptions& options, Model& out);
// That warning line (nothing when no path was refused).
void warnRefusedPaths(const Model& model);
// --clip: empty means the first clip, or the bind pose (-1) when there is none; a name or
// an index otherwise. Prints the error (listing the clips) and returns false if unknown.
bool resolveClip(const Model& model, const std::string& key, int32_t& clip);
// The clip time shown for a requested --time: past the end wraps, exactly the end is the
// last key (seekTime in loop mode, as the viewer's seek). 0 for the bind pose.
float clipTime(const Model& model, int32_t clip, double requested);
// Outputs never overwrite inputs: false (after printing "OUTPUT: is the input file F; refusing
// to overwrite it ...") when `output` is the same file as one of `inputs` (device and inode,
// paths::sameFileAmong: one stat each, however many). The one rule of every command's inputs
// and of rigview.batch's files (the Python module's output_is_not_an_input).
bool outputIsNoneOf(const std::string& output, const std::vector<std::string>& inputs);
// That rule for a command's named inputs: `model`, `anims` and `machine` (a state machine
// file). Called before anything is read or written.
bool outputIsNotAnInput(const std::string& output, const std::string& model, const std::vector<std::string>& anims,
                        const std::string& machine = {});
// The same for every file the loaded model was read from, once it is loaded: the model, the
// files its import read (glTF buffers, material libraries, its markers file, --anim files and
// theirs, texture files: Model::stats.filesRead) and its textures. Every command that writes
// calls both, the first before anything is read, this one before anything is written.
bool outputIsNotAResource(const std::string& output, const Model& model);
// Whether `path` exists and is not a regular file or folder (/dev/null, /dev/full, /dev/stdout,
// a FIFO): such an output is written directly, in the command's one format.
bool isStreamOutput(const std::string& path);
// Metres per unit of the model's lengths: 1 when import converted to metres (or the file
// names no unit), the file's own unit where --units file kept its numbers.
double metresPerModelUnit(const Model& model);
// The settings `compress --tolerance MM` uses for `model`: MM in its units
// (metresPerModelUnit) and ozz's 10 cm virtual point.
CompressSettings compressSettingsFor(const Model& model, double toleranceMm);
// --compressed MM (pose, render, bench): every clip of `model` compressed at MM, for the
// Animator, Controller or Crowd to play. Empty `mm`: none (`out` stays null). False after one
// error line when MM is not a number of millimetres in [0, 1000].
bool compressedClipsFor(const Model& model, const std::string& mm, std::unique_ptr<CompressedClipSet>& out);
// A number as printf formats it (default: enough digits to read the float back).
std::string fmt(double v, const char* format = "%.9g");
// `text` written to `path` (a temporary file renamed over it), or the error printed; false then.
bool writeFile(const std::string& path, const std::string& text);
// One warning line when a JSON output held NaN / Inf (written as null).
void warnNonFinite(const std::string& what, size_t count);
// A file's or clip's name made safe to print (text::forTerminal).
std::string term(const std::string& s);

}  // namespace rig::cmd
