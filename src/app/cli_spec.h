// The command line as plain data, read from CLI11's own option lists: the
// one source of the shell completions and man pages (`lockgraph completion`,
// `lockgraph manpage`; docs/cli.md#completion-and-man-pages), so that they
// stay right when a command or option changes.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace lockgraph {

/// What a shell offers for an option's value or a positional argument.
enum class ValueKind {
  kNone,       // a flag: takes no value
  kChoice,     // one of `choices` (CLI::IsMember)
  kFile,       // a path (the default for a TEXT value)
  kDirectory,  // a directory (--source-root)
  kRule,       // rule IDs or names, comma-separated (--rules, explain RULE)
  kNumber,     // INT, UINT, FLOAT: nothing to offer
  kFreeText,   // durations, prefixes, DSNs: nothing to offer
};

/// One option or positional argument.
struct OptionSpec {
  std::vector<std::string> short_names;  // "-f"
  std::vector<std::string> long_names;   // "--format", "--no-redact"
  std::string positional;                // "files" for a positional, else empty
  std::string value_name;                // "TEXT", "UINT"; empty for a flag
  std::vector<std::string> choices;      // kChoice only, in CLI11's order
  std::string default_value;             // as --help shows it; may be empty
  std::string description;               // may hold several lines
  ValueKind kind = ValueKind::kNone;
  bool repeats = false;   // may be given more than once or take several values
  bool required = false;
};

/// One command: the top level (name empty) or a subcommand.
struct CommandSpec {
  std::string name;         // "analyze"; empty for `lockgraph` itself
  std::string description;  // one line
  std::string footer;       // examples and notes, as --help prints them
  std::vector<OptionSpec> options;      // in --help's order, positionals first
  std::vector<CommandSpec> subcommands; // visible ones, top level only
};

/// Describes `app` and its visible subcommands (those not in the hidden,
/// empty group). Reads only; safe to call before or after parsing.
CommandSpec DescribeCli(const CLI::App& app);

/// The subcommand of `top` called `name`, or null.
const CommandSpec* FindCommand(const CommandSpec& top, const std::string& name);

/// Every name of `option` as typed: "-f", "--format" (positional: none).
std::vector<std::string> OptionNames(const OptionSpec& option);

}  // namespace lockgraph
