#include "app/man_page.h"

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "app/options.h"
#include "util/version.h"

namespace rig::cli {

namespace {

// Text as roff shows it literally: backslashes doubled, hyphens as minus signs (so option names
// can be searched and copied), a control character (. or ') at a line's start escaped.
std::string roff(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            out += "\\-";
        } else {
            out += c;
        }
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
    return out;
}

// The synopsis line of command c: its name, then its positionals, [OPTIONS].
std::string synopsis(Command c) {
    std::string line = "\\fBrigview\\fR";
    if (c != Command::Viewer) line += std::string(" \\fB") + commandName(c) + "\\fR";
    line += " [\\fIOPTIONS\\fR]";
    Settings scratch;
    for (const OptionSpec& spec : optionTable()) {
        if (spec.names.empty() || spec.names[0] == '-' || spec.names[0] == '!') continue;  // options
        for (const Target& t : spec.targets) {
            if (t.command != c) continue;
            std::string name;
            for (char ch : primaryName(spec)) name += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            const bool many = std::holds_alternative<std::vector<std::string>*>(t.field(scratch));
            name = "\\fI" + name + "\\fR" + (many ? "..." : "");
            line += " " + (t.required ? name : "[" + name + "]");
        }
    }
    return line;
}

struct ExitStatus {
    int code;
    const char* meaning;
};
constexpr ExitStatus kExitStatus[] = {
    {0, "Success; for check, no errors in any file (warnings and infos allowed unless --strict)."},
    {1, "check found errors in some file (with --strict: errors or warnings); diff: the two versions differ beyond --tolerance."},
    {2, "A bad command line or option value (an unknown subcommand, option or clip, an output of the wrong type or one that is an input)."},
    {3, "The model could not be read or imported (a missing or broken file, the importer crashed, ran out of memory or "
        "passed --import-timeout), or rigview's data folder is missing where it is needed."},
    {4, "The output file, or the report on standard output, could not be written."},
    {5, "The viewer found no display (use rigview render)."},
    {6, "No OpenGL 3.3 context could be made headless, or a shader failed to build."},
    {7, "An internal error: an unexpected exception inside rigview (one line says what; please report it)."},
};

struct EnvironmentVariable {
    const char* name;
    const char* meaning;
};
constexpr EnvironmentVariable kEnvironment[] = {
    {"RIGVIEW_MAX_MEMORY_MB", "The memory budget of an import worker in MiB (default: half the RAM, at most 8 GiB; 0: none)."},
    {"RIGVIEW_WORKER", "The rigview binary run as the import worker (default: this one)."},
    {"RIGVIEW_NO_CACHE", "1 turns off the cache of prefiltered environment maps and linked shader programs."},
    {"RIGVIEW_TIMING", "1: the viewer prints how long its start took, stage by stage, as one line on stderr."},
    {"RIGVIEW_ISA", "avx2 or sse2 forces that form of the per-tick kernels (default: the best the CPU runs)."},
    {"XDG_CONFIG_HOME", "Where the viewer's settings.json is kept (default ~/.config; the file is rigview/settings.json)."},
    {"XDG_CACHE_HOME", "Where prefiltered environment maps and linked shader programs are cached (default ~/.cache; in rigview/env/ and rigview/programs/)."},
    {"XDG_PICTURES_DIR", "Where the viewer's F12 screenshots go (default: from ~/.config/user-dirs.dirs, else ~/Pictures)."},
};

// One option's or positional's entry: its names and value, what it does, its values when a
// fixed set, its default and the commands taking it.
void page(std::ostringstream& m, const OptionSpec& spec) {
    const OptionSummary o = summarize(spec);
    if (o.hidden) return;
    m << ".TP\n";
    std::string names;
    if (spec.names[0] != '-' && spec.names[0] != '!') {  // a positional: its name as the synopsis writes it
        for (char ch : o.names.front()) names += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        names = "\\fI" + names + "\\fR";
    } else {
        for (const std::string& n : o.names) names += (names.empty() ? "" : ", ") + ("\\fB" + roff(n) + "\\fR");
        if (!o.value.empty()) names += " \\fI" + roff(o.value) + "\\fR";
    }
    m << names << "\n" << roff(spec.help) << ".";
    std::vector<std::string> choices;
    for (const Target& t : spec.targets) {
        if (choices.empty()) choices = choicesOf(spec, t);
    }
    if (!choices.empty()) {
        std::string list;
        for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
        m << " One of: " << roff(list) << ".";
    }
    if (!o.shown.empty()) m << " Default: " << roff(o.shown) << ".";
    std::string commands;
    for (const std::string& c : o.commands) commands += (commands.empty() ? "" : ", ") + c;
    m << " Commands: " << roff(commands) << ".\n";
}

}  // namespace

std::string manPage() {
    std::ostringstream m;
    const std::string version = rigviewVersion();
    m << ".\\\" The manual page of rigview " << roff(version) << ", generated by `rigview --help-man` from its option table.\n";
    m << ".TH RIGVIEW 1 \"\" \"rigview " << roff(version) << "\" \"User Commands\"\n";
    m << ".SH NAME\n";
    m << "rigview \\- a viewer for rigged, animated 3D models, and the same binary headless for asset pipelines\n";
    m << ".SH SYNOPSIS\n";
    bool first = true;
    for (Command c : kCommands) {
        if (hidden(c)) continue;
        m << (first ? "" : ".br\n") << synopsis(c) << "\n";
        first = false;
    }
    m << ".SH DESCRIPTION\n";
    m << roff("rigview opens an FBX, glTF, COLLADA, .X, BVH, MD5, SMD, IQM or ASF/AMC file and plays it with GPU skinning: "
              "play, scrub and step its clips, look at the skeleton, the weights and the bind pose, and get a list of what is "
              "wrong with the rig. With no MODEL it opens the bundled demo. The subcommands run headless (no display, OpenGL "
              "through EGL) for asset pipelines. Files from strangers are imported in an isolated worker process with time "
              "and memory limits.")
      << "\n";
    m << ".SH COMMANDS\n";
    for (Command c : kCommands) {
        if (hidden(c)) continue;
        if (c == Command::Viewer) {
            m << ".TP\n\\fBrigview\\fR [\\fIMODEL\\fR]\n"
              << roff("The interactive viewer: opens MODEL (or the bundled demo) in a window; F1 lists its keys.") << "\n";
        } else {
            m << ".TP\n\\fB" << commandName(c) << "\\fR\n" << roff(commandDescription(c)) << ".\n";
        }
    }
    for (const bool positionals : {true, false}) {
        m << (positionals ? ".SH ARGUMENTS\n" : ".SH OPTIONS\n");
        if (!positionals) {
            m << roff("Options go after their subcommand; --units and --allow-external-paths may also go before it, and "
                      "--amc-fps, --import-timeout and --no-isolation go before it (they are rigview's own).")
              << "\n";
        }
        for (const OptionSpec& spec : optionTable()) {
            const bool positional = spec.names[0] != '-' && spec.names[0] != '!';
            if (positional == positionals) page(m, spec);
        }
    }
    m << ".SH FILES\n";
    m << ".TP\n\\fI../share/rigview/\\fR beside the executable's folder (\\fI/usr/share/rigview/\\fR for \\fI/usr/bin/rigview\\fR)\n"
      << roff("rigview's data folder: the demo model (demo/) and the studio environment lighting (env/studio.hdr).") << "\n";
    m << ".TP\n\\fI$XDG_CONFIG_HOME/rigview/settings.json\\fR\n"
      << roff("The viewer's layout, view options, camera, recent files and window, written when something changed and on quit.")
      << "\n";
    m << ".TP\n\\fIMODEL.markers.json\\fR, \\fIMODEL_STEM.machine.json\\fR\n"
      << roff("Beside a model: its clips' markers (saved by the viewer) and the state machine loaded with it.") << "\n";
    m << ".SH ENVIRONMENT\n";
    for (const EnvironmentVariable& e : kEnvironment) m << ".TP\n\\fB" << e.name << "\\fR\n" << roff(e.meaning) << "\n";
    m << ".SH EXIT STATUS\n";
    m << roff("Every error is one line on standard error naming the file and the problem; a failed command writes no "
              "output file and leaves an existing one as it was.")
      << "\n";
    for (const ExitStatus& e : kExitStatus) m << ".TP\n\\fB" << e.code << "\\fR\n" << roff(e.meaning) << "\n";
    m << ".SH EXAMPLES\n";
    m << ".nf\n"
      << roff("rigview character.fbx --clip walk") << "\n"
      << roff("rigview render character.fbx -o walk.png --clip walk --time 0.5 --size 1280x720") << "\n"
      << roff("rigview check assets/ --json-lines > report.jsonl") << "\n"
      << roff("rigview pose character.fbx -o pose.json --clip 0 --time 1") << "\n"
      << roff("rigview diff old.fbx new.fbx") << "\n"
      << ".fi\n";
    m << ".SH SEE ALSO\n";
    m << roff("The README and docs/ of rigview's source tree; python3 -m rigview.batch --help for library checks on Dask.")
      << "\n";
    return m.str();
}

}  // namespace rig::cli
