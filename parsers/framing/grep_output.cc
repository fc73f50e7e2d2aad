// grep output with file names and line numbers: `grep -H` (`file:line`),
// `grep -n` (`12:line`, `file:12:line`), context lines of -A/-B/-C
// (`file-line`, `file-12-line`) and the `--` between groups, which are
// skipped with a reason. Each file is a stream. File names are learnt from
// match lines (`file:`), first from the head, so that a context line of a
// file whose name holds '-' splits right (docs/postgresql.md#framings).
#include <re2/re2.h>

#include <set>

#include "parsers/framing/frame_util.h"
#include "parsers/framing/framing.h"

namespace lockgraph {
namespace {

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

/// True when `name` may be a file name as grep prints it: no blanks,
/// quotes, braces or brackets (`{"error":` is JSON, not a file).
bool LooksLikeFile(std::string_view name) {
  return !name.empty() && name.find_first_of(" \t\"'{}[]<>|,;=") == std::string_view::npos;
}

/// The file name of a match line (`file:...`), or an empty view.
std::string_view MatchFile(std::string_view line) {
  size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos) return {};
  std::string_view file = line.substr(0, colon);
  return LooksLikeFile(file) ? file : std::string_view();
}

class GrepStripper : public FrameStripper {
 public:
  explicit GrepStripper(const std::vector<std::string>& head) {
    int numbered_only = 0, with_file = 0, numbered_file = 0;
    static const RE2 kNumbered(R"((\d+):)");  // a match line of grep -n
    static const RE2 kFileNumber(R"([^\s:]+:\d+:)");
    std::string_view g[2];
    for (const std::string& line : head) {
      std::string_view file = MatchFile(line);
      if (MatchFrame(kNumbered, line, g, 2) && (file.empty() || IsDigits(file))) {
        ++numbered_only;
      } else if (!file.empty()) {
        ++with_file;
        files_.insert(std::string(file));
        if (MatchFrame(kFileNumber, line, g, 1)) ++numbered_file;
      }
    }
    // Without a match line in the head ("file:" or "12:") nothing says this
    // is grep output ("2026-12-02 ..." would pass for a context line).
    enabled_ = with_file + numbered_only > 0;
    with_file_ = with_file > numbered_only;
    numbered_ = with_file_ ? numbered_file * 2 > with_file : true;
  }

  void Strip(std::string_view line, StrippedLine* out) override {
    *out = StrippedLine();
    if (!enabled_) return;
    std::string_view body = line;
    if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
    if (body == "--") {
      out->kind = StrippedLine::Kind::kSkip;
      out->reason = "grep's separator between groups of context lines (--)";
      return;
    }
    std::string_view rest = line;
    if (with_file_ && !TakeFile(&rest, &out->stream)) return;
    if (numbered_) {
      size_t digits = 0;
      while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
      if (!digits || digits >= rest.size() || (rest[digits] != ':' && rest[digits] != '-'))
        return;
      rest.remove_prefix(digits + 1);
    }
    out->kind = StrippedLine::Kind::kLine;
    out->inner = rest;
  }

 private:
  /// Takes "file:" or "file-" off *rest: a known file name first (the
  /// longest), else the name of a match line, else, for a context line of
  /// a file not seen yet, the text before the first '-'.
  bool TakeFile(std::string_view* rest, std::string_view* stream) {
    std::string_view best;
    for (const std::string& f : files_) {
      if (f.size() > best.size() && rest->size() > f.size() && rest->substr(0, f.size()) == f &&
          ((*rest)[f.size()] == ':' || (*rest)[f.size()] == '-'))
        best = f;
    }
    if (best.empty()) {
      std::string_view file = MatchFile(*rest);
      if (!file.empty() && !IsDigits(file)) {
        best = *files_.insert(std::string(file)).first;
      } else {
        size_t dash = rest->find('-');
        if (dash == 0 || dash == std::string_view::npos) return false;
        file = rest->substr(0, dash);
        if (!LooksLikeFile(file) || file.find(':') != std::string_view::npos) return false;
        best = file;
      }
    }
    *stream = best;
    rest->remove_prefix(best.size() + 1);
    return true;
  }

  std::set<std::string> files_;
  bool enabled_ = false;
  bool with_file_ = false;
  bool numbered_ = false;
};

class GrepFraming : public Framing {
 public:
  std::string Name() const override { return "grep"; }
  std::string Description() const override {
    return "grep -H / -n / -A -B -C output: `file:12:<line>`, `file-13-<line>`, `--`; one stream "
           "per file";
  }
  std::unique_ptr<FrameStripper> NewStripper(
      const std::vector<std::string>& head) const override {
    return std::make_unique<GrepStripper>(head);
  }
  bool Weak() const override { return true; }
  StreamKind Streams() const override { return StreamKind::kFile; }
};

}  // namespace

std::unique_ptr<Framing> MakeGrepFraming() { return std::make_unique<GrepFraming>(); }

}  // namespace lockgraph
