// rigview's command line, declared once: a table of every option (names, help, group,
// validation, the subcommands that take it and the field it fills in each), from which main
// builds CLI11's parser for the viewer and every subcommand, the tests walk, and the README's
// option reference is generated (`rigview --help-markdown`).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/commands.h"
#include "app/viewer_entry.h"
#include "platform/import_worker.h"
#include "render/view_options.h"

namespace rig::cli {

// The viewer (rigview with no subcommand) and the subcommands, in help order.
enum class Command { Viewer, Info, Pose, Check, Render, Export, Bench, Compress, Diff, Thumbnail, ImportWorker };
inline constexpr Command kCommands[] = {Command::Viewer, Command::Info,     Command::Pose,  Command::Check,
                                        Command::Render, Command::Export,   Command::Bench, Command::Compress,
                                        Command::Diff,   Command::Thumbnail, Command::ImportWorker};
// "" for the viewer, else the subcommand's name ("info", ..., "__import-worker").
const char* commandName(Command c);
// The subcommand's one-line description (the viewer's: rigview's).
const char* commandDescription(Command c);

// Everything the command line fills: each subcommand's options struct and the global settings.
struct Settings {
    ViewerLaunch viewer;
    InfoOptions info;
    PoseOptions pose;
    CheckOptions check;
    RenderOptions render;
    ExportOptions exportOpts;
    BenchOptions bench;
    CompressOptions compress;
    DiffCommandOptions diff;
    ThumbnailOptions thumbnail;
    // Global (before the subcommand, and some after it too).
    IsolationConfig isolation;       // --import-timeout (timeoutSeconds)
    bool noIsolation = false;        // --no-isolation
    float amcFps = 120.0f;           // --amc-fps
    std::string units = "metres";    // --units
    bool allowExternalPaths = false; // --allow-external-paths
    bool helpMarkdown = false;       // --help-markdown
    bool helpMan = false;            // --help-man
    std::string completion;          // --completion SHELL
    bool version = false;            // --version
    bool verbose = false;            // --verbose (with --version)
    // The hidden import worker (platform/import_worker).
    std::string workerModel;
    std::vector<std::string> workerAnims;
    int workerFd = 3;
    int64_t workerParent = 0;
    bool workerStages = false;
    bool workerNoImages = false;      // --no-images: the materials' textures are not decoded
    bool workerEnvironment = false;   // --environment: --model is an environment map to decode
};

// A view option with choices (render/view_options.h) in `view`: its value is given by name.
struct ViewChoiceField {
    const ViewOptionSpec* option;
    ViewOptions* view;
};

// A field an option writes; its type decides the option's kind (bool: a flag, vector: a
// repeatable option, anything else: one value).
using Field = std::variant<bool*, std::string*, std::vector<std::string>*, int*, int64_t*, float*, double*, ViewChoiceField>;

// One subcommand taking an option: where its value goes, and what differs there.
struct Target {
    Command command;
    std::function<Field(Settings&)> field;
    const char* help = nullptr;  // this subcommand's own help; null: the option's
    bool required = false;
    const char* files = nullptr;  // the files its value names, on this subcommand; null: the option's
};

// What files an option's value names (OptionSpec::files, Target::files), for the shell
// completions: extensions without the dot, separated by spaces ("json obj"), or one of these.
inline constexpr const char* kModelFiles = "@model";              // a model file (every format rigview reads)
inline constexpr const char* kModelFilesOrFolders = "@model @dir";  // model files, or folders searched for them
inline constexpr const char* kAnyFile = "@file";                  // a file of any name

struct OptionSpec {
    std::string names;      // CLI11 names: "-o,--output", "model" (positional), "!--no-watch" (negated flag)
    std::string help;       // what it does, in general (per-subcommand details: Target::help)
    std::string group;      // help group; empty: CLI11's (OPTIONS, POSITIONALS)
    std::vector<CLI::Validator> checks;  // ranges, allowed values
    std::vector<std::string> excludes;   // other options (long names) it cannot be given with
    std::vector<Target> targets;
    const char* files = nullptr;         // the files its value names (kModelFiles, "png"...); null: not files
};

// Options in this group change what an import produces: main puts them in each command's
// ImportOptions (with --units), which every import passes on to the import worker process.
inline constexpr const char* kImportGroup = "Import options (before the subcommand)";

// The table: every option once.
const std::vector<OptionSpec>& optionTable();

// The option's long name ("--output"), or the positional's name ("model"); "!" stripped.
std::string primaryName(const OptionSpec& spec);
// The help `t` gets on its subcommand.
std::string helpFor(const OptionSpec& spec, const Target& t);
// The default the field holds before parsing, as help shows it (empty: none worth showing).
std::string defaultText(const Field& field);
// The files `t`'s value names on its subcommand (Target::files, else OptionSpec::files), or null.
const char* filesFor(const OptionSpec& spec, const Target& t);
// The values the option takes when they are a fixed set (its CLI::IsMember check, or a view
// option's choices), else empty.
std::vector<std::string> choicesOf(const OptionSpec& spec, const Target& t);
// Whether command c is hidden (the import worker: started by rigview itself).
bool hidden(Command c);

// The parser: `app` with the viewer's options and every subcommand, writing into `settings`
// (which must outlive it). subcommands[c] is the CLI11 app of command c (the viewer: `app`).
struct Parser {
    CLI::App* subcommands[std::size(kCommands)] = {};
    CLI::App* operator[](Command c) const { return subcommands[static_cast<int>(c)]; }
};
Parser build(CLI::App& app, Settings& settings);

// One option as the references show it (README.md's table, the manual page): its names ("!"
// stripped), its value ("TEXT", "INT", "FLOAT", "TEXT ..." when repeatable; "" for a flag),
// the default shown, the commands taking it ("viewer", "render (required)"...), and whether
// only hidden commands take it.
struct OptionSummary {
    std::vector<std::string> names;
    std::string value;
    std::string shown;
    std::vector<std::string> commands;
    bool hidden = false;
};
OptionSummary summarize(const OptionSpec& spec);

// The option reference as a Markdown table (README.md's "Option reference").
std::string optionsMarkdown();

}  // namespace rig::cli
