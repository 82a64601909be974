// `rigview --completion bash|zsh|fish`: shell completion scripts made from the one option table
// (app/options.h): the subcommands, each one's options, the values an option takes when they
// are a fixed set, and the file types of option values and positionals (model files: every
// extension the importer reads).
#pragma once

#include <string>

namespace rig::cli {

// The script for `shell` ("bash", "zsh" or "fish"; anything else: ""). Installed as
// share/bash-completion/completions/rigview, share/zsh/vendor-completions/_rigview and
// share/fish/vendor_completions.d/rigview.fish.
std::string completionScript(const std::string& shell);

}  // namespace rig::cli
