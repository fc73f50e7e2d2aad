// The files `lockgraph follow FILE|DIR|GLOB...` names at one moment: a
// FILE as itself, a DIR as every regular file in it (not hidden ones), a
// GLOB as glob(3) expands it. Looked at again on every wake-up, so that a
// file the server's own rotation or logrotate creates is followed too.
#pragma once

#include <string>
#include <vector>

namespace lockgraph {

/// True when `target` has glob(3) magic (*, ? or [).
bool IsGlob(const std::string& target);

/// The regular files the targets name now, oldest modification first (then
/// by path), each once. A FILE target that does not exist yet names nothing.
std::vector<std::string> ExpandTargets(const std::vector<std::string>& targets);

/// The folders whose changes may change ExpandTargets: each DIR, the folder
/// of each FILE, the fixed leading folder of each GLOB. Each once.
std::vector<std::string> FoldersToWatch(const std::vector<std::string>& targets);

}  // namespace lockgraph
