// Man pages (roff, man(7) macros) for lockgraph and each of its commands,
// written from the command line's own description (cli_spec.h): the same
// text as --help, as NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS,
// EXAMPLES and SEE ALSO, merged with hand-written sections (ENVIRONMENT,
// FILES, ...) from an include file. docs/cli.md#completion-and-man-pages.
#pragma once

#include <string>
#include <vector>

#include "app/cli_spec.h"

namespace lockgraph {

struct ManPageInfo {
  std::string version;  // "0.1.0"
  std::string date;     // .TH date, "2026-12-03"; may be empty
  /// Hand-written roff: `.SH NAME` headings, each followed by its text. A
  /// section the page already has gets this text appended; any other is
  /// placed in the conventional order (man-pages(7)).
  std::string include;
};

/// The page name of `command` ("lockgraph-analyze"), or "lockgraph" for null.
std::string ManPageName(const CommandSpec* command);

/// The roff source of lockgraph(1) (`command` null) or of one command's
/// page, lockgraph-COMMAND(1). `top` is DescribeCli's result.
std::string ManPage(const CommandSpec& top, const CommandSpec* command, const ManPageInfo& info);

/// `text` escaped for a roff text line: backslashes, hyphens as \-, a
/// leading dot or quote guarded, characters past ASCII as \[uXXXX].
std::string RoffEscape(const std::string& text);

}  // namespace lockgraph
