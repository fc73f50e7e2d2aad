// The hidden commands that describe lockgraph to the system it is installed
// on: `lockgraph completion bash|zsh` prints a shell completion script and
// `lockgraph manpage [COMMAND]` a man page, both from the options CLI11 holds
// (cli_spec.h), so they stay right when a command or option changes. The
// build writes the installed pages and scripts with them (cmake/install.cmake).
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli_spec.h"
#include "app/commands.h"
#include "app/completion_script.h"
#include "app/man_page.h"
#include "rules/rule.h"

namespace lockgraph {
namespace {

std::vector<std::string> RuleWords() {
  std::vector<std::string> words;
  for (const auto& rule : RegisterBuiltinRules(RuleSettings{})) {
    words.emplace_back(rule->info().id);
  }
  for (const auto& rule : RegisterBuiltinRules(RuleSettings{})) {
    words.emplace_back(rule->info().name);
  }
  return words;
}

struct ManPageArgs {
  std::string command;  // empty: lockgraph(1)
  std::string include;  // a file of hand-written sections
  std::string date;
  bool list = false;
};

int RunManPage(const CLI::App& app, const ManPageArgs& args) {
  CommandSpec top = DescribeCli(app);
  if (args.list) {
    std::cout << ManPageName(nullptr) << '\n';
    for (const CommandSpec& c : top.subcommands) std::cout << ManPageName(&c) << '\n';
    return kExitOk;
  }
  const CommandSpec* command = nullptr;
  if (!args.command.empty()) {
    command = FindCommand(top, args.command);
    if (!command) {
      std::cerr << "lockgraph manpage: no command '" << args.command << "'\n";
      return kExitError;
    }
  }
  ManPageInfo info{LOCKGRAPH_VERSION, args.date, ""};
  if (!args.include.empty()) {
    std::ifstream in(args.include, std::ios::binary);
    if (!in) {
      std::cerr << "lockgraph manpage: cannot read " << args.include << '\n';
      return kExitError;
    }
    std::ostringstream text;
    text << in.rdbuf();
    info.include = text.str();
  }
  std::cout << ManPage(top, command, info);
  return kExitOk;
}

}  // namespace

void AddCompletionCommand(CLI::App& app) {
  CLI::App* completion = app.add_subcommand(
      "completion", "Print a shell completion script: lockgraph completion bash|zsh");
  completion->group("");  // hidden: installed scripts call it, users rarely need to
  auto shell = std::make_shared<std::string>();
  completion->add_option("shell", *shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  completion->callback([&app, shell]() {
    CommandSpec top = DescribeCli(app);
    std::cout << (*shell == "bash" ? BashCompletion(top, RuleWords())
                                   : ZshCompletion(top, RuleWords()));
    throw CLI::RuntimeError(kExitOk);
  });

  CLI::App* manpage =
      app.add_subcommand("manpage", "Print the man page of lockgraph or of one command (roff)");
  manpage->group("");
  auto args = std::make_shared<ManPageArgs>();
  manpage->add_option("command", args->command, "The command; none: lockgraph(1)");
  manpage->add_option("--include", args->include, "Hand-written sections (roff, .SH headings)");
  manpage->add_option("--date", args->date, "The date in the page's title line");
  manpage->add_flag("--list", args->list, "Print the page names, one a line");
  manpage->callback([&app, args]() { throw CLI::RuntimeError(RunManPage(app, *args)); });
}

}  // namespace lockgraph
