// The command line as data (src/app/cli_spec.h) and what is written from it:
// man pages (man_page.h) and bash/zsh completion (completion_script.h), on a
// small CLI11 app with one option of each kind. The installed files are
// checked end to end by tests/package/run.sh.
#include <catch2/catch.hpp>

#include <CLI/CLI.hpp>

#include "app/cli_spec.h"
#include "app/completion_script.h"
#include "app/man_page.h"

using namespace lockgraph;

namespace {

struct ToolArgs {
  std::vector<std::string> files, rules;
  std::string format = "text", root;
  bool quick = false;
  unsigned threads = 1;
};

// tool scan [files...] -f text|json --quick/--slow --threads --rules --source-root
void BuildTool(CLI::App& app, ToolArgs& a) {
  app.set_version_flag("--version", "tool 1.0");
  CLI::App* scan = app.add_subcommand("scan", "Scan the files; print what was found");
  scan->add_option("files", a.files, "Input files; - reads stdin");
  scan->add_option("-f,--format", a.format, "Output format:\n  text: for people\n  json: for tools")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  scan->add_flag("--quick,!--slow", a.quick, "Go fast [or not]");
  scan->add_option("--threads", a.threads, "Threads")->check(CLI::Range(1u, 4u));
  scan->add_option("--rules", a.rules, "Only these rules")->delimiter(',');
  scan->add_option("--source-root", a.root, "Paths are relative to this directory");
  scan->footer("Examples:\n  tool scan a.log\n  tool scan -f json - < a.log\n\n"
               "Reads logs. Exit codes: 0 done, 2 error.");
  app.add_subcommand("secret", "Not listed")->group("");
}

std::string Show(const OptionSpec& o) {
  std::string names;
  for (const std::string& n : OptionNames(o)) names += (names.empty() ? "" : ",") + n;
  std::string choices;
  for (const std::string& c : o.choices) choices += (choices.empty() ? "" : ",") + c;
  return o.positional + "|" + names + "|" + o.value_name + "|" + choices + "|" + o.default_value +
         "|" + std::to_string(int(o.kind)) + "|" + (o.repeats ? "repeats" : "once") +
         (o.required ? "|required" : "");
}

}  // namespace

TEST_CASE("cli spec: commands, options, values and kinds from CLI11", "[completion]") {
  CLI::App app{"tool: finds things"};
  ToolArgs args;
  BuildTool(app, args);
  CommandSpec top = DescribeCli(app);
  CHECK(top.name == "");
  CHECK(top.description == "tool: finds things");
  std::vector<std::string> top_options;
  for (const OptionSpec& o : top.options) top_options.push_back(Show(o));
  CHECK(top_options == std::vector<std::string>{"|-h,--help||||0|once", "|--version||||0|once"});
  REQUIRE(top.subcommands.size() == 1);  // "secret" is hidden
  const CommandSpec& scan = top.subcommands[0];
  CHECK(FindCommand(top, "scan") == &scan);
  CHECK(FindCommand(top, "secret") == nullptr);
  CHECK(scan.description == "Scan the files; print what was found");
  std::vector<std::string> options;
  for (const OptionSpec& o : scan.options) options.push_back(Show(o));
  CHECK(options == std::vector<std::string>{
                       "files||TEXT|||2|repeats",      // kFile
                       "|-h,--help||||0|once",         // kNone
                       "|-f,--format|TEXT|text,json|text|1|once",  // kChoice
                       "|--quick,--slow||||0|once",
                       "|--threads|UINT|||5|once",     // kNumber
                       "|--rules|TEXT|||4|repeats",    // kRule
                       "|--source-root|TEXT|||3|once",  // kDirectory
                   });
}

TEST_CASE("man page: every section from --help, include merged in order", "[completion]") {
  CLI::App app{"tool: finds things"};
  ToolArgs args;
  BuildTool(app, args);
  CommandSpec top = DescribeCli(app);
  ManPageInfo info{"1.0", "2026-01-02",
                   ".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nNo colour.\n.SH \"EXIT STATUS\"\nAlso 3.\n"};
  std::string page = ManPage(top, FindCommand(top, "scan"), info);
  // ManPageName is "lockgraph-COMMAND": the pages are lockgraph's.
  CHECK(page == R"(.\" Written by `lockgraph manpage scan` from lockgraph's own --help text.
.TH "LOCKGRAPH\-SCAN" 1 "2026-01-02" "lockgraph 1.0" "User Commands"
.SH NAME
lockgraph\-scan \- scan the files; print what was found
.SH SYNOPSIS
.B lockgraph scan
[\fIOPTIONS\fR] [\fIfiles\fR ...]
.SH DESCRIPTION
Scan the files; print what was found
.PP
Reads logs.
.SH OPTIONS
.TP
\fIfiles\fR ...
Input files; \- reads stdin
.TP
\fB\-h\fR, \fB\-\-help\fR
Print this help message and exit
.TP
\fB\-f\fR, \fB\-\-format\fR \fITEXT\fR
Output format:
.br
text: for people
.br
json: for tools
.br
Default: \fBtext\fR.
.TP
\fB\-\-quick\fR, \fB\-\-slow\fR
Go fast [or not]
.TP
\fB\-\-threads\fR \fIUINT\fR
Threads
.TP
\fB\-\-rules\fR \fITEXT\fR
Only these rules
.TP
\fB\-\-source\-root\fR \fITEXT\fR
Paths are relative to this directory
.SH "EXIT STATUS"
0 done, 2 error.
Also 3.
.SH ENVIRONMENT
.TP
.B NO_COLOR
No colour.
.SH EXAMPLES
.RS 4
.nf
tool scan a.log
tool scan \-f json \- < a.log
.fi
.RE
.SH "SEE ALSO"
.BR \%lockgraph (1)
)");
  CHECK(ManPageName(nullptr) == "lockgraph");
}

TEST_CASE("man page: roff escaping", "[completion]") {
  CHECK(RoffEscape(".start \\ -x 'q\n'b\n.c") == "\\&.start \\e \\-x 'q\n\\&'b\n\\&.c");
  CHECK(RoffEscape("caf\xC3\xA9 \xE2\x86\x92 \xFF!") == "caf\\[u00E9] \\[u2192] \\[uFFFD]!");
  CHECK(RoffEscape("tab\there") == "tab here");
}

TEST_CASE("completion: bash and zsh offer each option's values", "[completion]") {
  CLI::App app{"tool: finds things"};
  ToolArgs args;
  BuildTool(app, args);
  CommandSpec top = DescribeCli(app);
  std::string bash = BashCompletion(top, {"R1", "rule-one"});
  for (const char* line : {
           "_lockgraph_rules=\"R1 rule-one\"",
           "      if [[ $cur == -* ]]; then _lockgraph_words \"-h --help --version\"; else "
           "_lockgraph_words \"scan\"; fi",
           "        -f|--format) _lockgraph_words \"text json\"; return ;;",
           "        --threads) return ;;",
           "        --rules) _lockgraph_list \"$_lockgraph_rules\"; return ;;",
           "        --source-root) _lockgraph_dirs; return ;;",
           "      if [[ $cur == -* ]]; then _lockgraph_words \"-h --help -f --format --quick "
           "--slow --threads --rules --source-root\"; return; fi",
           "      _lockgraph_files",
           "complete -F _lockgraph lockgraph",
       }) {
    CAPTURE(line);
    CHECK(bash.find(std::string(line) + "\n") != std::string::npos);
  }
  CHECK(bash.find("secret") == std::string::npos);

  std::string zsh = ZshCompletion(top, {"R1", "rule-one"});
  for (const char* line : {
           "#compdef lockgraph",
           "    'scan:Scan the files; print what was found'",
           "          '(-f --format)'{-f+,--format=}'[Output format\\:]:text:(text json)' \\",
           "          '(--quick --slow)'{--quick,--slow}'[Go fast \\[or not\\]]' \\",
           "          '(--threads)'--threads='[Threads]:uint: ' \\",
           "          '*'--rules='[Only these rules]:text:_lockgraph_rules_list' \\",
           "          '(--source-root)'--source-root='[Paths are relative to this "
           "directory]:text:_files -/' \\",
           "          '*:files:_files'",
       }) {
    CAPTURE(line);
    CHECK(zsh.find(std::string(line) + "\n") != std::string::npos);
  }
}
