// See completion_script.h. Both scripts are data-driven from CommandSpec:
// nothing here names a command or an option.
#include "app/completion_script.h"

#include <sstream>

namespace lockgraph {
namespace {

// Words for a double-quoted shell string (choices and rule names are plain
// words; anything else is escaped rather than trusted).
std::string DoubleQuoted(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    for (char c : w) {
      if (c == '"' || c == '\\' || c == '$' || c == '`') out += '\\';
      out += c;
    }
  }
  return out;
}

// Text inside a single-quoted zsh word: ' becomes '\''.
std::string SingleQuoted(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> FlagWords(const CommandSpec& cmd) {
  std::vector<std::string> words;
  for (const OptionSpec& o : cmd.options) {
    for (const std::string& n : OptionNames(o)) words.push_back(n);
  }
  return words;
}

const OptionSpec* Positional(const CommandSpec& cmd) {
  for (const OptionSpec& o : cmd.options) {
    if (!o.positional.empty()) return &o;
  }
  return nullptr;
}

// The bash function call that completes a value of `kind`; empty: nothing.
std::string BashValueAction(const OptionSpec& o, bool positional) {
  switch (o.kind) {
    case ValueKind::kChoice:
      return "_lockgraph_words \"" + DoubleQuoted(o.choices) + "\"";
    case ValueKind::kFile:
      return "_lockgraph_files";
    case ValueKind::kDirectory:
      return "_lockgraph_dirs";
    case ValueKind::kRule:
      return positional ? "_lockgraph_words \"$_lockgraph_rules\""
                        : "_lockgraph_list \"$_lockgraph_rules\"";
    default:
      return "";
  }
}

void BashCommandCase(const CommandSpec& cmd, std::ostream& out) {
  out << "    " << cmd.name << ")\n      case \"$prev\" in\n";
  for (const OptionSpec& o : cmd.options) {
    if (!o.positional.empty() || o.kind == ValueKind::kNone) continue;
    std::string pattern;
    for (const std::string& n : OptionNames(o)) pattern += (pattern.empty() ? "" : "|") + n;
    std::string action = BashValueAction(o, false);
    out << "        " << pattern << ") " << (action.empty() ? "" : action + "; ") << "return ;;\n";
  }
  out << "      esac\n";
  out << "      if [[ $cur == -* ]]; then _lockgraph_words \"" << DoubleQuoted(FlagWords(cmd))
      << "\"; return; fi\n";
  const OptionSpec* positional = Positional(cmd);
  std::string action = positional ? BashValueAction(*positional, true) : "";
  if (!action.empty()) out << "      " << action << "\n";
  out << "      ;;\n";
}

}  // namespace

std::string BashCompletion(const CommandSpec& top, const std::vector<std::string>& rules) {
  std::vector<std::string> commands;
  for (const CommandSpec& c : top.subcommands) commands.push_back(c.name);
  std::ostringstream out;
  out << R"(# bash completion for lockgraph                           -*- shell-script -*-
# Written by `lockgraph completion bash` from lockgraph's own option lists.

_lockgraph_rules=")" << DoubleQuoted(rules) << R"("

_lockgraph_words() {  # the words of $1 that start with $cur
  mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur")
}
_lockgraph_files() {
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
_lockgraph_dirs() {
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -d -- "$cur")
}
_lockgraph_list() {  # comma-separated values: completes the one after the last comma
  local done_part="" last="$cur"
  if [[ $cur == *,* ]]; then done_part="${cur%,*},"; last="${cur##*,}"; fi
  mapfile -t COMPREPLY < <(compgen -P "$done_part" -W "$1" -- "$last")
}

_lockgraph() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" i
  ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD - 1]}"
  COMPREPLY=()
  # bash splits --format=json at '=' (COMP_WORDBREAKS).
  if [[ $cur == = ]]; then
    cur=""
  elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
    prev="${COMP_WORDS[COMP_CWORD - 2]}"
  fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [[ ${COMP_WORDS[i]} != -* ]]; then cmd="${COMP_WORDS[i]}"; break; fi
  done
  case "$cmd" in
    "")
      if [[ $cur == -* ]]; then _lockgraph_words ")"
      << DoubleQuoted(FlagWords(top)) << R"("; else _lockgraph_words ")"
      << DoubleQuoted(commands) << R"("; fi
      ;;
)";
  for (const CommandSpec& c : top.subcommands) BashCommandCase(c, out);
  out << R"(  esac
}
complete -F _lockgraph lockgraph
)";
  return out.str();
}

namespace {

// A description for _arguments' [...] and _describe: its first line, with
// the characters those specs give a meaning escaped.
std::string ZshDescription(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  std::string out;
  for (char c : line) {
    if (c == '[' || c == ']' || c == '\\' || c == ':') out += '\\';
    out += c;
  }
  return SingleQuoted(out);
}

std::string ZshValueAction(const OptionSpec& o) {
  std::string words;
  switch (o.kind) {
    case ValueKind::kChoice:
      for (const std::string& c : o.choices) words += (words.empty() ? "" : " ") + c;
      return "(" + SingleQuoted(words) + ")";
    case ValueKind::kFile:
      return "_files";
    case ValueKind::kDirectory:
      return "_files -/";
    case ValueKind::kRule:
      return o.positional.empty() ? "_lockgraph_rules_list" : "_lockgraph_rules";
    default:
      return " ";  // a message, nothing offered
  }
}

// One _arguments spec per option name group, e.g.
// '(-f --format)'{-f+,--format=}'[Output format]:format:(text json)'.
void ZshOption(const OptionSpec& o, std::ostream& out) {
  std::vector<std::string> names = OptionNames(o);
  std::string exclusive;
  if (!o.repeats) {
    for (const std::string& n : names) exclusive += (exclusive.empty() ? "" : " ") + n;
    exclusive = "(" + exclusive + ")";
  } else {
    exclusive = "*";
  }
  std::string name_list;
  for (const std::string& n : names) {
    std::string suffix;
    if (o.kind != ValueKind::kNone) suffix = n.size() == 2 ? "+" : "=";
    name_list += (name_list.empty() ? "" : ",") + n + suffix;
  }
  if (names.size() > 1) name_list = "{" + name_list + "}";
  std::string value;
  if (o.kind != ValueKind::kNone) {
    std::string label = o.value_name;
    for (char& c : label) c = char(std::tolower(static_cast<unsigned char>(c)));
    value = ":" + label + ":" + ZshValueAction(o);
  }
  out << " \\\n      '" << SingleQuoted(exclusive) << "'" << name_list << "'["
      << ZshDescription(o.description) << "]" << SingleQuoted(value) << "'";
}

void ZshCommand(const CommandSpec& cmd, std::ostream& out) {
  out << "    " << cmd.name << ")\n      _arguments -s -S :";
  for (const OptionSpec& o : cmd.options) {
    if (!o.positional.empty()) continue;
    ZshOption(o, out);
  }
  for (const OptionSpec& o : cmd.options) {
    if (o.positional.empty()) continue;
    std::string action = ZshValueAction(o);
    out << " \\\n      '" << (o.repeats ? "*" : "1") << ":" << SingleQuoted(o.positional) << ":"
        << SingleQuoted(action) << "'";
  }
  out << "\n      ;;\n";
}

}  // namespace

std::string ZshCompletion(const CommandSpec& top, const std::vector<std::string>& rules) {
  std::ostringstream out;
  out << R"(#compdef lockgraph
# zsh completion for lockgraph, written by `lockgraph completion zsh` from
# lockgraph's own option lists.

_lockgraph_rules() {
  local -a rules=()" << DoubleQuoted(rules) << R"()
  _describe -t rules 'rule' rules
}
_lockgraph_rules_list() {
  local -a rules=()" << DoubleQuoted(rules) << R"()
  _values -s , 'rule' $rules
}

_lockgraph() {
  local curcontext="$curcontext" state line ret=1
  typeset -A opt_args
  local -a commands=(
)";
  for (const CommandSpec& c : top.subcommands) {
    out << "    '" << SingleQuoted(c.name) << ":" << ZshDescription(c.description) << "'\n";
  }
  out << "  )\n  _arguments -C";
  for (const OptionSpec& o : top.options) ZshOption(o, out);
  out << R"( \
      '1:command:->command' \
      '*::argument:->argument' && ret=0
  case $state in
    command)
      _describe -t commands 'lockgraph command' commands && ret=0
      ;;
    argument)
      curcontext="${curcontext%:*:*}:lockgraph-$words[1]:"
      case $words[1] in
)";
  std::ostringstream cases;
  for (const CommandSpec& c : top.subcommands) ZshCommand(c, cases);
  // Indent the per-command cases one level further.
  std::string line;
  std::istringstream in(cases.str());
  while (std::getline(in, line)) out << "    " << line << '\n';
  out << R"(      esac && ret=0
      ;;
  esac
  return ret
}

if [ "$funcstack[1]" = "_lockgraph" ]; then
  _lockgraph "$@"
else
  compdef _lockgraph lockgraph
fi
)";
  return out.str();
}

}  // namespace lockgraph
