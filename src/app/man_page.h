// `rigview --help-man`: the manual page rigview(1), made from the one option table
// (app/options.h), as `--help-markdown` makes README.md's option reference.
#pragma once

#include <string>

namespace rig::cli {

// The page in man(7) roff: name, synopsis of the viewer and every subcommand, what each does,
// every option (its values, default and the commands taking it), files, environment, exit
// status.
std::string manPage();

}  // namespace rig::cli
