// See printf_template.h. The conversion syntax is C printf's as gettext
// (xgettext --check=c-format) accepts it; PostgreSQL's catalogues use only
// the subset handled here.
#include "parsers/postgresql/printf_template.h"

#include <re2/re2.h>

#include <map>

namespace lockgraph {
namespace {

// Escapes literal template text for RE2: bytes >= 0x80 (UTF-8) and word
// characters as they are, newline and TAB as escapes, the rest quoted.
void AppendLiteral(std::string_view text, std::string* out) {
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
        (c >= 'A' && c <= 'Z') || c == '_' || c == ' ') {
      *out += c;
    } else if (c == '\n') {
      *out += "\\n";
    } else if (c == '\t') {
      *out += "\\t";
    } else {
      *out += '\\';
      *out += c;
    }
  }
}

struct Conversion {
  int arg = -1;       // argument index, -1 when positional syntax is broken
  int width = 0;      // zero-padded width, 0 when none
  char type = 0;      // d i u s c x
  size_t length = 0;  // characters after '%'
};

// Reads the conversion after a '%' at tmpl[pos]; *next_arg counts
// non-positional conversions.
bool ReadConversion(std::string_view tmpl, size_t pos, int* next_arg, Conversion* c) {
  size_t i = pos;
  auto digits = [&](int* value) {
    size_t start = i;
    int v = 0;
    while (i < tmpl.size() && tmpl[i] >= '0' && tmpl[i] <= '9') v = v * 10 + (tmpl[i++] - '0');
    *value = v;
    return i > start;
  };
  int n = 0;
  size_t save = i;
  if (digits(&n) && i < tmpl.size() && tmpl[i] == '$') {
    c->arg = n - 1;
    ++i;
  } else {
    i = save;
    c->arg = (*next_arg)++;
  }
  bool zero = false;
  while (i < tmpl.size() && (tmpl[i] == '-' || tmpl[i] == '+' || tmpl[i] == ' ' ||
                             tmpl[i] == '#' || tmpl[i] == '0')) {
    zero = zero || tmpl[i] == '0';
    ++i;
  }
  int width = 0;
  digits(&width);
  if (zero) c->width = width;
  if (i < tmpl.size() && tmpl[i] == '.') {
    ++i;
    int precision = 0;
    digits(&precision);
  }
  while (i < tmpl.size() && (tmpl[i] == 'l' || tmpl[i] == 'h' || tmpl[i] == 'z')) ++i;
  if (i >= tmpl.size()) return false;
  c->type = tmpl[i++];
  c->length = i - pos;
  return c->arg >= 0 && std::string_view("diuscx").find(c->type) != std::string_view::npos;
}

std::string SlotPattern(const Conversion& c, const std::vector<std::string_view>& string_slots) {
  switch (c.type) {
    case 'd':
    case 'i':
      return c.width > 0 ? "-?\\d{" + std::to_string(c.width) + ",}" : "-?\\d+";
    case 'u':
      return "\\d+";
    case 'x':
      return "[0-9a-f]+";
    case 'c':
      return "(?s:.)";
    default:
      if (size_t(c.arg) < string_slots.size() && !string_slots[c.arg].empty())
        return std::string(string_slots[c.arg]);
      return "(?s:.+?)";
  }
}

}  // namespace

TemplateMatcher::~TemplateMatcher() = default;

std::string TemplateMatcher::LiteralPrefix(std::string_view tmpl, bool* starts_with_number,
                                           std::string* after_number) {
  std::string prefix;
  *starts_with_number = false;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '%') {
      prefix += tmpl[i];
    } else if (i + 1 < tmpl.size() && tmpl[i + 1] == '%') {
      prefix += '%';
      ++i;
    } else {
      Conversion c;
      int next_arg = 0;
      *starts_with_number = prefix.empty() && ReadConversion(tmpl, i + 1, &next_arg, &c) &&
                            c.type != 's' && c.type != 'c';
      if (*starts_with_number && after_number) {
        size_t end = tmpl.find('%', i + 1 + c.length);
        *after_number = std::string(tmpl.substr(i + 1 + c.length, end - (i + 1 + c.length)));
      }
      break;
    }
  }
  return prefix;
}

std::unique_ptr<TemplateMatcher> TemplateMatcher::Compile(
    std::string_view tmpl, const std::vector<std::string_view>& string_slots,
    std::string* error) {
  std::unique_ptr<TemplateMatcher> m(new TemplateMatcher());
  std::string& re = m->pattern_;
  std::map<int, bool> seen;
  int next_arg = 0;
  size_t literal_start = 0;
  bool any_conversion = false;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '%') continue;
    std::string_view literal = tmpl.substr(literal_start, i - literal_start);
    if (i + 1 < tmpl.size() && tmpl[i + 1] == '%') {  // "%%": a literal '%'
      AppendLiteral(literal, &re);
      if (!any_conversion) m->prefix_.append(literal.data(), literal.size()).push_back('%');
      re += "%";
      literal_start = ++i + 1;
      continue;
    }
    Conversion c;
    if (!ReadConversion(tmpl, i + 1, &next_arg, &c)) {
      if (error) *error = "unsupported conversion at byte " + std::to_string(i) + " of \"" +
                          std::string(tmpl) + "\"";
      return nullptr;
    }
    AppendLiteral(literal, &re);
    if (literal.size() > m->required_.size()) m->required_ = std::string(literal);
    if (!any_conversion) {
      m->prefix_.append(literal.data(), literal.size());
      m->starts_with_number_ = literal.empty() && c.type != 's' && c.type != 'c';
      any_conversion = true;
    }
    std::string slot = SlotPattern(c, string_slots);
    if (seen[c.arg]) {
      re += "(?:" + slot + ")";  // printed twice: captured once
    } else {
      seen[c.arg] = true;
      re += "(?P<a" + std::to_string(c.arg + 1) + ">" + slot + ")";
      m->group_arg_.push_back(c.arg);
      if (c.arg + 1 > m->arg_count_) m->arg_count_ = c.arg + 1;
    }
    i += c.length;
    literal_start = i + 1;
  }
  std::string_view tail = tmpl.substr(std::min(literal_start, tmpl.size()));
  AppendLiteral(tail, &re);
  if (tail.size() > m->required_.size()) m->required_ = std::string(tail);
  if (!any_conversion) m->prefix_.append(tail.data(), tail.size());
  RE2::Options options;
  options.set_log_errors(false);
  m->re_ = std::make_unique<RE2>(re, options);
  if (!m->re_->ok()) {
    if (error) *error = "cannot compile \"" + std::string(tmpl) + "\": " + m->re_->error();
    return nullptr;
  }
  // Group numbers follow the order of the slots in the pattern.
  std::vector<int> by_group(m->re_->NumberOfCapturingGroups(), -1);
  for (const auto& [name, index] : m->re_->NamedCapturingGroups())
    by_group[index - 1] = std::stoi(name.substr(1)) - 1;
  m->group_arg_ = by_group;
  return m;
}

bool TemplateMatcher::Match(std::string_view text, std::vector<std::string_view>* args) const {
  if (text.substr(0, prefix_.size()) != prefix_) return false;
  // A literal chunk is cheaper to look for than the regex to run.
  if (text.find(required_) == std::string_view::npos) return false;
  const int n = int(group_arg_.size());
  std::vector<re2::StringPiece> groups(n);
  std::vector<RE2::Arg> argv(n);
  std::vector<const RE2::Arg*> argp(n);
  for (int i = 0; i < n; ++i) {
    argv[i] = RE2::Arg(&groups[i]);
    argp[i] = &argv[i];
  }
  if (!RE2::FullMatchN(re2::StringPiece(text.data(), text.size()), *re_, argp.data(), n))
    return false;
  if (args) {
    args->assign(arg_count_, std::string_view());
    for (int i = 0; i < n; ++i)
      if (group_arg_[i] >= 0)
        (*args)[group_arg_[i]] = std::string_view(groups[i].data(), groups[i].size());
  }
  return true;
}

}  // namespace lockgraph
