// Repository-relative paths for the CI reports (sarif, github, junit,
// codequality, the text verdict): a CI service maps a result to a file of
// the repository only by its path from the repository's root, so every
// input path is rewritten once, relative to the source root, before the
// report is written. docs/ci.md#paths.
#pragma once

#include <string>
#include <vector>

#include "analysis/report.h"

namespace lockgraph {

/// The git work tree that holds `input`: the nearest directory, from the
/// input's own up to '/', that has a `.git` entry (a directory, or the file
/// of a linked work tree or submodule). Absolute and lexically normal;
/// empty when there is none or `input` is "-" (stdin). Reads the file
/// system only (no git process).
std::string FindGitWorkTree(const std::string& input);

/// The default --source-root: the git work tree of the first input that has
/// one, else the current directory. Absolute, without a trailing '/'.
std::string DefaultSourceRoot(const std::vector<std::string>& inputs);

/// `root` made absolute and lexically normal, without a trailing '/'
/// (except for "/").
std::string NormalRoot(const std::string& root);

/// `file` relative to `root` (absolute, NormalRoot): "logs/pg.log", never
/// with a ".." segment. A file outside the root becomes its file name only;
/// "-" (stdin) stays "-".
std::string RepoPath(const std::string& file, const std::string& root);

/// Rewrites every input path of the report with RepoPath: inputs, event
/// sources, groups, unparsed lines, diagnostics, and where findings quote
/// the path as it was given.
void RelocateSources(Report* report, const std::string& root);

/// What RelocateSources does to each of Report::events, for an event kept
/// apart from the report (`check` reads its events back one by one).
void RelocateEvent(Event* event, const std::string& root);

}  // namespace lockgraph
