// Command-line mistakes in plain words. CLI11's messages ("At Most 1 required
// but received 2", "Value -5 not in range 0.000000 to 1797...") are turned
// into what the user did and what to do instead, with the nearest command or
// option when a name was misspelt. docs/cli.md#errors.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

/// The message for a parse error of `app` on `args` (argv without argv[0]),
/// without the "lockgraph: " prefix; empty when CLI11's own output is right
/// (--help, --version).
std::string PlainParseError(const CLI::App& app, const CLI::ParseError& error,
                            const std::vector<std::string>& args);

/// "lockgraph analyze --help" for the command that was run, else
/// "lockgraph --help".
std::string HelpCommand(const CLI::App& app);

/// The candidate within two edits of `word` (or of which it is a prefix),
/// the closest first; empty when none is close.
std::string Nearest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace lockgraph
