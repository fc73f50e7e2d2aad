// Bash and zsh completion scripts for lockgraph, written from the command
// line's own description (cli_spec.h): commands, each command's options, the
// values of --format and the other choices, rule IDs, and files.
// docs/cli.md#completion-and-man-pages.
#pragma once

#include <string>
#include <vector>

#include "app/cli_spec.h"

namespace lockgraph {

/// A bash script defining `_lockgraph` and `complete -F _lockgraph lockgraph`;
/// `rules` are the words offered for rule-valued options (IDs and names).
std::string BashCompletion(const CommandSpec& top, const std::vector<std::string>& rules);

/// A zsh completion function file (`#compdef lockgraph`, installed as
/// `_lockgraph` in a directory of $fpath).
std::string ZshCompletion(const CommandSpec& top, const std::vector<std::string>& rules);

}  // namespace lockgraph
