// See source_paths.h. Lexical only (std::filesystem::path arithmetic): a
// symlinked checkout keeps the paths as the CI job spells them.
#include "emit/source_paths.h"

#include <filesystem>
#include <map>
#include <system_error>

namespace lockgraph {
namespace {

namespace fs = std::filesystem;

fs::path Absolute(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(fs::path(p), ec);
  if (ec) a = fs::path(p);
  return a.lexically_normal();
}

std::string WithoutTrailingSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

void ReplaceAll(std::string* text, const std::string& from, const std::string& to) {
  if (from.empty() || from == to) return;
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size()))
    text->replace(at, from.size(), to);
}

void RelocateFindings(std::vector<Finding>* findings, const std::string& from,
                      const std::string& to) {
  for (Finding& f : *findings) {
    ReplaceAll(&f.message, from, to);
    ReplaceAll(&f.hint, from, to);
    for (std::string& e : f.evidence) ReplaceAll(&e, from, to);
  }
}

}  // namespace

std::string FindGitWorkTree(const std::string& input) {
  if (input.empty() || input == "-") return "";
  std::error_code ec;
  for (fs::path dir = Absolute(input).parent_path();; dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", ec)) return WithoutTrailingSlash(dir.string());
    if (dir == dir.root_path() || dir.empty()) return "";
  }
}

std::string DefaultSourceRoot(const std::vector<std::string>& inputs) {
  for (const std::string& in : inputs) {
    std::string root = FindGitWorkTree(in);
    if (!root.empty()) return root;
  }
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  return ec ? "/" : WithoutTrailingSlash(cwd.lexically_normal().string());
}

std::string NormalRoot(const std::string& root) {
  return WithoutTrailingSlash(Absolute(root.empty() ? "." : root).string());
}

std::string RepoPath(const std::string& file, const std::string& root) {
  if (file.empty() || file == "-") return file;
  fs::path abs = Absolute(file);
  fs::path rel = abs.lexically_relative(fs::path(root));
  bool outside = rel.empty();
  for (const fs::path& part : rel)
    if (part == "..") outside = true;
  if (outside) return abs.filename().string();
  std::string s = rel.generic_string();
  return s == "." ? abs.filename().string() : s;
}

void RelocateSources(Report* report, const std::string& root) {
  std::map<std::string, std::string> moved;  // as given -> repository path
  auto path = [&](std::string* file) {
    auto it = moved.find(*file);
    if (it == moved.end()) it = moved.emplace(*file, RepoPath(*file, root)).first;
    *file = it->second;
  };
  for (InputInfo& in : report->inputs) path(&in.file);
  for (Event& ev : report->events) {
    std::string given = ev.source.file;
    path(&ev.source.file);
    RelocateFindings(&ev.findings, given, ev.source.file);
  }
  for (RelationName& r : report->summary.relation_names) path(&r.file);
  for (DeadlockGroup& g : report->groups) {
    path(&g.first_source.file);
    path(&g.last_source.file);
  }
  for (UnparsedLine& u : report->unparsed) path(&u.file);
  for (Diagnostic& d : report->diagnostics) path(&d.file);
  for (const auto& [given, repo] : moved) RelocateFindings(&report->findings, given, repo);
}

void RelocateEvent(Event* event, const std::string& root) {
  std::string given = event->source.file;
  event->source.file = RepoPath(given, root);
  RelocateFindings(&event->findings, given, event->source.file);
}

}  // namespace lockgraph
