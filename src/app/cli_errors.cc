// See cli_errors.h. CLI11 2.x words its errors in a few fixed shapes; each
// shape is recognised by its text and reworded, the rest kept as they are.
#include "app/cli_errors.h"

#include <algorithm>
#include <cstdlib>

namespace lockgraph {
namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The commands --help lists: hidden ones (`completion`, `manpage`) are neither
// listed nor suggested.
std::vector<std::string> CommandNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (!sub->get_group().empty()) names.push_back(sub->get_name());
  return names;
}

// The subcommand the user ran, or null.
const CLI::App* Ran(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->parsed()) return sub;
  return nullptr;
}

std::string Join(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
  return s;
}

// "lockgraph COMMAND": no such command, or none given.
std::string MissingCommand(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> names = CommandNames(app);
  for (const std::string& a : args) {
    if (StartsWith(a, "-")) continue;
    std::string near = Nearest(a, names);
    return "unknown command '" + a + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?") +
           " Commands: " + Join(names) + ".";
  }
  return "a command is required: " + Join(names) + ".";
}

// "--format: At Most 1 required but received 2".
std::string GivenTwice(std::string_view what) {
  size_t colon = what.find(':');
  return std::string(what.substr(0, colon)) + " given more than once; give it once";
}

// "--threads: Value 0 not in range 1 to 64", "--max-wait: Value -5 not in range 0.000000 to 1.79e308".
std::string OutOfRange(std::string_view what) {
  size_t colon = what.find(": Value ");
  std::string option(what.substr(0, colon));
  std::string_view rest = what.substr(colon + 8);
  size_t sp = rest.find(" not in range ");
  std::string value(rest.substr(0, sp));
  std::string_view range = rest.substr(sp + 14);
  size_t to = range.find(" to ");
  double low = std::strtod(std::string(range.substr(0, to)).c_str(), nullptr);
  double high = std::strtod(std::string(range.substr(to + 4)).c_str(), nullptr);
  auto num = [](double d) {
    std::string s = std::to_string(d);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  };
  if (high > 1e15)
    return option + ": " + value + " is " + (low == 0 ? "negative" : "too small") + "; give a number of at least " +
           num(low);
  return option + ": " + value + " is out of range; give a number from " + num(low) + " to " + num(high);
}

// "--format: yaml not in {text,json,...}".
std::string NotAChoice(std::string_view what) {
  size_t colon = what.find(": ");
  std::string option(what.substr(0, colon));
  std::string_view rest = what.substr(colon + 2);
  size_t cut = rest.find(" not in {");
  std::string value(rest.substr(0, cut));
  std::string list(rest.substr(cut + 9));
  if (!list.empty() && list.back() == '}') list.pop_back();
  std::vector<std::string> choices;
  for (size_t at = 0; at <= list.size();) {
    size_t comma = std::min(list.find(',', at), list.size());
    choices.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  std::string near = Nearest(value, choices);
  return option + ": '" + value + "' is not one of " + Join(choices) +
         (near.empty() ? "" : "; did you mean '" + near + "'?");
}

// "The following argument was not expected: --nope".
std::string UnknownOption(const CLI::App& app, std::string_view what) {
  std::string word(what.substr(what.rfind(": ") + 2));
  const CLI::App* cmd = Ran(app);
  std::vector<std::string> options;
  for (const CLI::App* a : {cmd, &app}) {
    if (!a) continue;
    for (const CLI::Option* o : a->get_options())
      for (const std::string& name : o->get_lnames()) options.push_back("--" + name);
  }
  std::string first = word.substr(0, word.find(' '));
  std::string near = StartsWith(first, "--") ? Nearest(first, options) : "";
  std::string where = cmd ? "lockgraph " + cmd->get_name() : "lockgraph";
  return "'" + word + "' is not an option or input of '" + where + "'" +
         (near.empty() ? "" : "; did you mean '" + near + "'?");
}

}  // namespace

std::string Nearest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = word.size() <= 4 ? 2 : 3;  // "yaml" is not a typo of "html"
  for (const std::string& c : candidates) {
    size_t d = StartsWith(c, word) && word.size() >= 3 ? 1 : EditDistance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

std::string HelpCommand(const CLI::App& app) {
  const CLI::App* cmd = Ran(app);
  return cmd ? "lockgraph " + cmd->get_name() + " --help" : "lockgraph --help";
}

std::string PlainParseError(const CLI::App& app, const CLI::ParseError& error,
                            const std::vector<std::string>& args) {
  std::string what = error.what();
  if (what == "A subcommand is required") return MissingCommand(app, args);
  if (what.find(": At Most 1 required but received") != std::string::npos) return GivenTwice(what);
  if (what.find(": Value ") != std::string::npos && what.find(" not in range ") != std::string::npos)
    return OutOfRange(what);
  if (what.find(" not in {") != std::string::npos) return NotAChoice(what);
  if (StartsWith(what, "The following argument") && what.find("not expected") != std::string::npos)
    return UnknownOption(app, what);
  return what;
}

}  // namespace lockgraph
