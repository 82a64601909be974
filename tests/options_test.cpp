// The command line's one option table (app/options.h): every option declared once, with help;
// each subcommand's parser and --help hold exactly its table entries; values land in the
// right fields; the README's option reference is the table's Markdown.
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/options.h"

using rig::cli::Command;

namespace {

std::vector<std::string> namesOf(const rig::cli::OptionSpec& spec) {
    std::vector<std::string> out;
    std::stringstream in(spec.names);
    for (std::string n; std::getline(in, n, ',');) {
        if (!n.empty() && n[0] == '!') n.erase(0, 1);
        out.push_back(n);
    }
    return out;
}

// The option names a help text lists: the first column of each line under OPTIONS,
// POSITIONALS and the other groups ("  -o,--output TEXT REQUIRED  Output..." -> -o, --output).
std::set<std::string> namesInHelp(const std::string& help) {
    std::set<std::string> out;
    std::stringstream in(help);
    bool inGroup = false;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        if (line[0] != ' ') {  // a heading: "OPTIONS:", "POSITIONALS:", "Isolation (...):", "SUBCOMMANDS:"
            inGroup = line.back() == ':' && line != "Subcommands:";
            continue;
        }
        if (!inGroup) continue;
        const size_t first = line.find_first_not_of(' ');
        if (first != 2) continue;  // a wrapped description
        std::string column = line.substr(first, line.find(' ', first) - first);
        std::stringstream names(column);
        for (std::string n; std::getline(names, n, ',');) out.insert(n.substr(0, n.find('{')));  // "--no-watch{false}"
    }
    return out;
}

int parse(CLI::App& app, std::vector<std::string> args) {
    std::vector<const char*> argv{"rigview"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
        return e.get_exit_code() == 0 ? 0 : 2;
    }
    return 0;
}

}  // namespace

TEST(CliOptions, EveryOptionOnceWithHelpAndASubcommand) {
    std::map<std::string, int> seen;
    for (const rig::cli::OptionSpec& spec : rig::cli::optionTable()) {
        EXPECT_FALSE(spec.help.empty()) << spec.names;
        EXPECT_FALSE(spec.targets.empty()) << spec.names;
        for (const std::string& n : namesOf(spec)) ++seen[n];
        std::set<Command> commands;
        for (const rig::cli::Target& t : spec.targets) {
            EXPECT_TRUE(commands.insert(t.command).second) << spec.names << " twice on " << rig::cli::commandName(t.command);
            EXPECT_FALSE(rig::cli::helpFor(spec, t).empty()) << spec.names;
        }
    }
    for (const auto& [name, count] : seen) EXPECT_EQ(count, 1) << name << " is declared " << count << " times";
    // The ones issue 11 counted: --anim was declared 7 times, the model 6, --clip 5.
    EXPECT_EQ(seen["--anim"], 1);
    EXPECT_EQ(seen["model"], 1);
    EXPECT_EQ(seen["--clip"], 1);
}

TEST(CliOptions, EachSubcommandHelpListsExactlyItsTableEntries) {
    CLI::App app{"", "rigview"};
    rig::cli::Settings settings;
    const rig::cli::Parser parser = rig::cli::build(app, settings);  // throws on a name twice in one subcommand
    for (Command c : rig::cli::kCommands) {
        CLI::App* a = parser[c];
        ASSERT_NE(a, nullptr);
        std::set<std::string> expected{"-h", "--help"};
        for (const rig::cli::OptionSpec& spec : rig::cli::optionTable()) {
            for (const rig::cli::Target& t : spec.targets) {
                if (t.command != c) continue;
                for (const std::string& n : namesOf(spec)) expected.insert(n);
                // Its default, where it has one worth showing, is in the help.
                const std::string shown = rig::cli::defaultText(t.field(settings));
                if (!shown.empty()) {
                    EXPECT_NE(a->help().find(namesOf(spec).back() + " "), std::string::npos);
                    EXPECT_EQ(a->get_option(rig::cli::primaryName(spec))->get_default_str(), shown) << spec.names;
                }
            }
        }
        EXPECT_EQ(namesInHelp(a->help()), expected) << "rigview " << rig::cli::commandName(c) << " --help:\n" << a->help();
    }
}

// The binary itself: no option reaches rigview's parser except through the table.
TEST(CliOptions, TheBinarysHelpListsExactlyTheTable) {
    for (Command c : rig::cli::kCommands) {
        if (c == Command::ImportWorker) continue;  // hidden, no help of its own
        std::set<std::string> expected{"-h", "--help"};
        for (const rig::cli::OptionSpec& spec : rig::cli::optionTable()) {
            for (const rig::cli::Target& t : spec.targets) {
                if (t.command == c) {
                    for (const std::string& n : namesOf(spec)) expected.insert(n);
                }
            }
        }
        const std::string command = std::string(RIGVIEW_EXE) + " " + rig::cli::commandName(c) + " --help";
        FILE* pipe = popen(command.c_str(), "r");
        ASSERT_NE(pipe, nullptr);
        std::string help;
        char buf[4096];
        for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) help.append(buf, n);
        EXPECT_EQ(pclose(pipe), 0) << command;
        EXPECT_EQ(namesInHelp(help), expected) << command << ":\n" << help;
    }
}

TEST(CliOptions, ValuesLandInTheirSubcommandsFields) {
    {
        CLI::App app{"", "rigview"};
        rig::cli::Settings s;
        rig::cli::build(app, s);
        ASSERT_EQ(parse(app, {"pose", "m.fbx", "-o", "p.json", "--clip", "walk", "--time", "1.5", "--anim", "a.bvh",
                              "--anim", "b.bvh", "--units", "file", "--set", "speed=2"}),
                  0);
        EXPECT_EQ(s.pose.model, "m.fbx");
        EXPECT_EQ(s.pose.output, "p.json");
        EXPECT_EQ(s.pose.clip, "walk");
        EXPECT_DOUBLE_EQ(s.pose.time, 1.5);
        EXPECT_EQ(s.pose.anims, (std::vector<std::string>{"a.bvh", "b.bvh"}));
        EXPECT_EQ(s.pose.sets, (std::vector<std::string>{"speed=2"}));
        EXPECT_EQ(s.units, "file");
        EXPECT_TRUE(s.render.model.empty());
        EXPECT_TRUE(s.viewer.anims.empty());
    }
    {
        CLI::App app{"", "rigview"};
        rig::cli::Settings s;
        rig::cli::build(app, s);
        ASSERT_EQ(parse(app, {"--import-timeout", "5", "--amc-fps", "60", "m.dae", "--clip", "2", "--window", "640", "--no-watch",
                              "--compare", "m2.dae"}),
                  0);
        EXPECT_EQ(s.viewer.model, "m.dae");
        EXPECT_EQ(s.viewer.compare, "m2.dae");
        EXPECT_EQ(s.viewer.clip, "2");
        EXPECT_EQ(s.viewer.width, 640);
        EXPECT_FALSE(s.viewer.watch);
        EXPECT_DOUBLE_EQ(s.isolation.timeoutSeconds, 5.0);
        EXPECT_FLOAT_EQ(s.amcFps, 60.0f);
    }
    {
        CLI::App app{"", "rigview"};
        rig::cli::Settings s;
        rig::cli::build(app, s);
        ASSERT_EQ(parse(app, {"bench", "m.fbx", "--instances", "64", "--threads", "4", "--json"}), 0);
        EXPECT_EQ(s.bench.instances, 64);
        EXPECT_EQ(s.bench.threads, 4);
        EXPECT_TRUE(s.bench.json);
        EXPECT_EQ(s.render.instances, 0);
        EXPECT_EQ(s.bench.ticks, 6000);  // untouched default
    }
}

TEST(CliOptions, ValidationAndExclusionsFromTheTable) {
    const std::vector<std::vector<std::string>> bad{
        {"--window", "100"},                                         // below 320
        {"--units", "feet"},                                         // not a member
        {"check", "x", "--jobs", "2000"},                            // above 1024
        {"pose", "m", "-o", "p.json", "--bind-pose", "--file-pose"},  // excluded
        {"render", "m", "-o", "r.png", "--bind-pose", "--machine", "a.machine.json"},
        {"check", "x", "--json", "--json-lines"},
        {"pose", "m"},                                               // -o required
        {"info"},                                                    // model required
        {"info", "m", "--clip", "0"},                                // info takes no --clip
        {"pose", "m", "-o", "p.json", "--anim", "a", "b"},           // --anim takes one value
    };
    for (const auto& args : bad) {
        CLI::App app{"", "rigview"};
        app.require_subcommand(0, 1);
        rig::cli::Settings s;
        rig::cli::build(app, s);
        std::string line;
        for (const std::string& a : args) line += a + " ";
        EXPECT_EQ(parse(app, args), 2) << line;
    }
}

TEST(CliOptions, ReadmeOptionReferenceIsTheTable) {
    std::ifstream in(RIGVIEW_SOURCE_DIR "/README.md");
    ASSERT_TRUE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string readme = text.str();
    const std::string begin = "<!-- options:begin (generated: rigview --help-markdown) -->\n";
    const std::string end = "<!-- options:end -->";
    const size_t b = readme.find(begin);
    const size_t e = readme.find(end);
    ASSERT_NE(b, std::string::npos);
    ASSERT_NE(e, std::string::npos);
    const std::string section = readme.substr(b + begin.size(), e - b - begin.size());
    const std::string table = rig::cli::optionsMarkdown();
    EXPECT_EQ(section, table) << "README.md's option table differs from the table in src/app/options.cpp; "
                                 "regenerate it with `rigview --help-markdown`:\n"
                              << table;
    // Every visible option has its row.
    for (const rig::cli::OptionSpec& spec : rig::cli::optionTable()) {
        bool visible = false;
        for (const rig::cli::Target& t : spec.targets) visible |= t.command != Command::ImportWorker;
        if (visible) EXPECT_NE(table.find("`" + rig::cli::primaryName(spec) + "`"), std::string::npos) << spec.names;
    }
}

// The view option table (render/view_options.h): each option with a flag is on `render`'s
// command line under that flag with the table's help, and the flag sets the option.
TEST(ViewOptionFlags, EveryFlagInTheTableIsRendersAndSetsItsOption) {
    std::map<std::string, const rig::cli::OptionSpec*> byName;
    for (const rig::cli::OptionSpec& spec : rig::cli::optionTable()) byName[rig::cli::primaryName(spec)] = &spec;
    int flags = 0;
    for (const rig::ViewOptionSpec& o : rig::viewOptionTable()) {
        if (!o.cliFlag) continue;
        ++flags;
        ASSERT_TRUE(byName.count(o.cliFlag)) << o.cliFlag << " is not in the option table";
        const rig::cli::OptionSpec& spec = *byName[o.cliFlag];
        EXPECT_EQ(spec.help, o.help) << o.cliFlag;
        ASSERT_EQ(spec.targets.size(), 1u) << o.cliFlag;
        EXPECT_EQ(spec.targets[0].command, Command::Render) << o.cliFlag;
        const rig::ViewOptions start = rig::renderViewDefaults();
        if (o.type == rig::ViewOptionType::Flag) {
            EXPECT_FALSE(start.*o.flag) << o.cliFlag << ": render starts with it off, the flag turns it on";
            CLI::App app{"", "rigview"};
            rig::cli::Settings s;
            rig::cli::build(app, s);
            ASSERT_EQ(parse(app, {"render", "m.fbx", "-o", "r.png", o.cliFlag}), 0) << o.cliFlag;
            EXPECT_TRUE(s.render.view.*o.flag) << o.cliFlag;
        } else if (o.type == rig::ViewOptionType::Choice) {
            for (size_t i = 0; i < o.choices.size(); ++i) {
                CLI::App app{"", "rigview"};
                rig::cli::Settings s;
                rig::cli::build(app, s);
                ASSERT_EQ(parse(app, {"render", "m.fbx", "-o", "r.png", o.cliFlag, o.choices[i].name}), 0) << o.cliFlag;
                EXPECT_EQ(o.choiceOf(s.render.view), static_cast<int>(i)) << o.cliFlag << " " << o.choices[i].name;
            }
            CLI::App app{"", "rigview"};
            rig::cli::Settings s;
            rig::cli::build(app, s);
            EXPECT_EQ(parse(app, {"render", "m.fbx", "-o", "r.png", o.cliFlag, "no-such-choice"}), 2) << o.cliFlag;
        } else if (o.type == rig::ViewOptionType::Number) {
            const float mid = 0.5f * (o.min + o.max) + 0.25f;
            CLI::App app{"", "rigview"};
            rig::cli::Settings s;
            rig::cli::build(app, s);
            ASSERT_EQ(parse(app, {"render", "m.fbx", "-o", "r.png", o.cliFlag, std::to_string(mid)}), 0) << o.cliFlag;
            EXPECT_FLOAT_EQ(s.render.view.*o.number, mid) << o.cliFlag;
        } else {
            ADD_FAILURE() << o.cliFlag << ": a colour has no command-line flag";
        }
    }
    // --skinning, --bones, --grid, --wireframe; --key-light, --ground-shadow, --tonemap,
    // --exposure, --env-rotation, --debug-channel
    EXPECT_EQ(flags, 10);
}

// Everything else render draws with is the viewer's default.
TEST(ViewOptionFlags, RenderStartsFromTheViewersDefaultsWithItsFlagsOff) {
    const rig::ViewOptions viewer, render = rig::renderViewDefaults();
    EXPECT_TRUE(viewer.grid);
    EXPECT_FALSE(render.grid);
    EXPECT_EQ(render.skinning, viewer.skinning);
    EXPECT_EQ(render.lighting, viewer.lighting);
    EXPECT_FLOAT_EQ(render.ambient, viewer.ambient);
}
