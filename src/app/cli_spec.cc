// See cli_spec.h. What an option's value is (a file, a rule, a number) is
// read from CLI11's type name and validators; the few TEXT values that are
// not paths are named in kFreeTextNames below.
#include "app/cli_spec.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <string_view>

namespace lockgraph {
namespace {

// Values that are rule IDs or names (comma-separated).
constexpr std::array<std::string_view, 4> kRuleNames = {"rules", "disable", "fail-on", "rule"};
// TEXT values that are not paths: a shell should offer nothing for them.
constexpr std::array<std::string_view, 9> kFreeTextNames = {
    "prefix",        "interval",      "duration",      "statement-timeout", "max-lock-wait",
    "min-lock-wait", "dsn",           "poll-interval", "output-max-size"};
constexpr std::array<std::string_view, 1> kDirectoryNames = {"source-root"};

template <size_t N>
bool Contains(const std::array<std::string_view, N>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// "TEXT:{a,b}=x" style type names: the part before the first ':', and the
// members of the first {...} (CLI::IsMember's description).
void ReadTypeName(const std::string& type_name, OptionSpec* spec) {
  spec->value_name = type_name.substr(0, type_name.find(':'));
  size_t colon = type_name.find(':');
  if (colon == std::string::npos) return;
  size_t open = type_name.find('{', colon);
  size_t close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return;
  std::string members = type_name.substr(open + 1, close - open - 1);
  size_t start = 0;
  while (start <= members.size()) {
    size_t comma = std::min(members.find(',', start), members.size());
    if (comma > start) spec->choices.push_back(members.substr(start, comma - start));
    start = comma + 1;
  }
}

ValueKind KindOf(const OptionSpec& spec, const std::string& key) {
  if (spec.value_name.empty()) return ValueKind::kNone;
  if (!spec.choices.empty()) return ValueKind::kChoice;
  if (Contains(kRuleNames, key)) return ValueKind::kRule;
  if (Contains(kDirectoryNames, key)) return ValueKind::kDirectory;
  if (Contains(kFreeTextNames, key)) return ValueKind::kFreeText;
  for (std::string_view number : {"INT", "UINT", "FLOAT", "NUMBER", "DOUBLE"}) {
    if (spec.value_name == number) return ValueKind::kNumber;
  }
  return ValueKind::kFile;
}

OptionSpec DescribeOption(const CLI::Option& opt) {
  OptionSpec spec;
  for (const std::string& s : opt.get_snames()) spec.short_names.push_back("-" + s);
  for (const std::string& l : opt.get_lnames()) spec.long_names.push_back("--" + l);
  if (!opt.nonpositional()) spec.positional = opt.get_name(true);
  spec.description = opt.get_description();
  spec.default_value = opt.get_default_str();
  spec.required = opt.get_required();
  const bool flag = opt.get_items_expected_max() == 0;
  if (!flag) ReadTypeName(opt.get_type_name(), &spec);
  if (!flag && spec.value_name.empty()) spec.value_name = "TEXT";
  spec.repeats = opt.get_expected_max() > 1 || (!flag && opt.get_items_expected_max() > 1);
  std::string key = spec.positional;
  if (key.empty()) key = opt.get_lnames().empty() ? opt.get_snames()[0] : opt.get_lnames()[0];
  spec.kind = KindOf(spec, key);
  return spec;
}

CommandSpec DescribeCommand(const CLI::App& app) {
  CommandSpec spec;
  spec.name = app.get_name();
  spec.description = app.get_description();
  spec.footer = app.get_footer();
  // Positionals first, as --help lists them.
  for (bool positional : {true, false}) {
    for (const CLI::Option* opt : app.get_options()) {
      if (opt->get_group().empty()) continue;  // hidden
      if (opt->nonpositional() == positional) continue;
      spec.options.push_back(DescribeOption(*opt));
    }
  }
  return spec;
}

}  // namespace

CommandSpec DescribeCli(const CLI::App& app) {
  CommandSpec top = DescribeCommand(app);
  top.name.clear();  // argv[0] once parsed: the top level has no command word
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* a) {
         return !a->get_group().empty() && !a->get_name().empty();
       })) {
    top.subcommands.push_back(DescribeCommand(*sub));
  }
  return top;
}

const CommandSpec* FindCommand(const CommandSpec& top, const std::string& name) {
  for (const CommandSpec& c : top.subcommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::vector<std::string> OptionNames(const OptionSpec& option) {
  std::vector<std::string> names = option.short_names;
  names.insert(names.end(), option.long_names.begin(), option.long_names.end());
  return names;
}

}  // namespace lockgraph
