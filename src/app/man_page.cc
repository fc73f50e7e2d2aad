// See man_page.h. A footer's blocks (separated by blank lines) become
// sections: "Examples:" lines an EXAMPLES block, a paragraph from "Exit
// codes:" on the EXIT STATUS text, the rest DESCRIPTION paragraphs; indented
// lines keep their layout (.nf).
#include "app/man_page.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>
#include <string_view>
#include <utility>

namespace lockgraph {
namespace {

// man-pages(7)'s order; a section not named here goes before SEE ALSO.
constexpr std::array<std::string_view, 13> kSectionOrder = {
    "NAME",    "SYNOPSIS",    "DESCRIPTION", "COMMANDS", "OPTIONS",  "EXIT STATUS", "SIGNALS",
    "ENVIRONMENT", "FILES",   "NOTES",       "EXAMPLES", "SEE ALSO", "BUGS"};

using Sections = std::vector<std::pair<std::string, std::string>>;

size_t OrderOf(const std::string& name) {
  auto it = std::find(kSectionOrder.begin(), kSectionOrder.end(), name);
  if (it != kSectionOrder.end()) return size_t(it - kSectionOrder.begin());
  return size_t(std::find(kSectionOrder.begin(), kSectionOrder.end(), "SEE ALSO") -
                kSectionOrder.begin()) - 1;  // after the others of its rank
}

void AddTo(Sections& sections, const std::string& name, const std::string& body) {
  if (body.empty()) return;
  for (auto& [n, b] : sections) {
    if (n == name) {
      b += body;
      return;
    }
  }
  sections.emplace_back(name, body);
}

// One code point of UTF-8 at text[*i]; advances *i. Invalid bytes: U+FFFD.
unsigned NextCodePoint(const std::string& text, size_t* i) {
  unsigned char c = static_cast<unsigned char>(text[*i]);
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  unsigned cp = extra == 3 ? c & 0x07 : extra == 2 ? c & 0x0F : c & 0x1F;
  if (c < 0xC0 || c >= 0xF8 || *i + extra >= text.size()) {
    ++*i;
    return 0xFFFD;
  }
  for (int k = 1; k <= extra; ++k) {
    unsigned char n = static_cast<unsigned char>(text[*i + k]);
    if ((n & 0xC0) != 0x80) {
      ++*i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (n & 0x3F);
  }
  *i += 1 + extra;
  return cp;
}

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(' ');
  size_t e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string Bold(const std::string& text) { return "\\fB" + RoffEscape(text) + "\\fR"; }
std::string Italic(const std::string& text) { return "\\fI" + RoffEscape(text) + "\\fR"; }

std::string Preformatted(const std::vector<std::string>& lines) {
  std::string out = ".RS 4\n.nf\n";
  for (const std::string& l : lines) out += RoffEscape(l.substr(std::min(l.size(), size_t(2)))) + "\n";
  return out + ".fi\n.RE\n";
}

// A block of prose lines: its text, split at "Exit codes:" into the part
// for DESCRIPTION and the part for EXIT STATUS.
void AddProse(const std::vector<std::string>& lines, Sections& sections) {
  std::string text;
  for (const std::string& l : lines) text += (text.empty() ? "" : " ") + Trim(l);
  std::string exit_text;
  size_t exit_at = text.find("Exit codes:");
  if (exit_at != std::string::npos) {
    exit_text = Trim(text.substr(exit_at + 11));
    text = Trim(text.substr(0, exit_at));
  }
  if (!text.empty()) AddTo(sections, "DESCRIPTION", ".PP\n" + RoffEscape(text) + "\n");
  if (!exit_text.empty()) AddTo(sections, "EXIT STATUS", ".PP\n" + RoffEscape(exit_text) + "\n");
}

void AddFooter(const std::string& footer, Sections& sections) {
  std::vector<std::vector<std::string>> blocks(1);
  for (const std::string& line : Lines(footer)) {
    if (Trim(line).empty()) {
      if (!blocks.back().empty()) blocks.emplace_back();
    } else {
      blocks.back().push_back(line);
    }
  }
  for (const auto& block : blocks) {
    if (block.empty()) continue;
    if (block[0] == "Examples:") {
      AddTo(sections, "EXAMPLES", Preformatted({block.begin() + 1, block.end()}));
      continue;
    }
    // Runs of prose and of indented lines, in order.
    std::vector<std::string> run;
    bool indented_run = false;
    auto flush = [&]() {
      if (run.empty()) return;
      if (indented_run) {
        AddTo(sections, "DESCRIPTION", Preformatted(run));
      } else {
        AddProse(run, sections);
      }
      run.clear();
    };
    for (const std::string& line : block) {
      bool indented = line[0] == ' ';
      if (indented != indented_run) flush();
      indented_run = indented;
      run.push_back(line);
    }
    flush();
  }
}

std::string OptionHeading(const OptionSpec& o) {
  if (!o.positional.empty()) return Italic(o.positional) + (o.repeats ? " ..." : "");
  std::string out;
  for (const std::string& n : OptionNames(o)) out += (out.empty() ? "" : ", ") + Bold(n);
  if (o.kind != ValueKind::kNone) out += " " + Italic(o.value_name);
  return out;
}

std::string OptionBody(const OptionSpec& o) {
  std::vector<std::string> lines = Lines(o.description);
  std::vector<std::string> prose, indented;
  for (const std::string& l : lines) (l.rfind("  ", 0) == 0 ? indented : prose).push_back(l);
  std::string out;
  for (const std::string& l : prose) out += RoffEscape(Trim(l)) + "\n";
  // A list under the text ("  text: human-readable report"), line by line
  // in the body's own indentation.
  for (const std::string& l : indented) out += ".br\n" + RoffEscape(Trim(l)) + "\n";
  if (!o.choices.empty() && indented.empty()) {
    std::string list;
    for (const std::string& c : o.choices) list += (list.empty() ? "" : ", ") + Bold(c);
    out += ".br\nOne of: " + list + ".\n";
  }
  if (!o.default_value.empty() && o.kind != ValueKind::kNone) {
    out += ".br\nDefault: " + Bold(o.default_value) + ".\n";
  }
  if (o.required) out += ".br\nRequired.\n";
  return out;
}

std::string OptionsSection(const CommandSpec& cmd) {
  std::string out;
  for (const OptionSpec& o : cmd.options) out += ".TP\n" + OptionHeading(o) + "\n" + OptionBody(o);
  return out;
}

std::string Synopsis(const CommandSpec* cmd) {
  if (!cmd) return ".B lockgraph\n[" + Italic("OPTIONS") + "] " + Italic("COMMAND") + " [" +
                   Italic("ARGS") + "]\n";
  std::string out = ".B lockgraph " + RoffEscape(cmd->name) + "\n[" + Italic("OPTIONS") + "]";
  for (const OptionSpec& o : cmd->options) {
    if (!o.required || !o.positional.empty()) continue;
    out += " " + Bold(o.long_names.empty() ? o.short_names[0] : o.long_names[0]) + " " +
           Italic(o.value_name);
  }
  for (const OptionSpec& o : cmd->options) {
    if (o.positional.empty()) continue;
    std::string arg = Italic(o.positional) + (o.repeats ? " ..." : "");
    out += " " + (o.required ? arg : "[" + arg + "]");
  }
  return out + "\n";
}

// NAME's text: the description with a lower-case first word ("Read ..." ->
// "read ..."), unless that word is an acronym ("CI gate").
std::string NameLine(const std::string& description) {
  std::string d = description;
  if (d.rfind("lockgraph: ", 0) == 0) d = d.substr(11);
  if (d.size() > 1 && std::isupper(static_cast<unsigned char>(d[0])) &&
      std::islower(static_cast<unsigned char>(d[1]))) {
    d[0] = char(std::tolower(static_cast<unsigned char>(d[0])));
  }
  return d;
}

std::string SeeAlso(const CommandSpec& top, const CommandSpec* cmd) {
  std::vector<std::string> pages;
  if (cmd) pages.push_back("lockgraph");
  for (const CommandSpec& c : top.subcommands) {
    if (&c != cmd) pages.push_back(ManPageName(&c));
  }
  std::string out;
  for (size_t i = 0; i < pages.size(); ++i) {
    out += ".BR \\%" + RoffEscape(pages[i]) + " (1)" + (i + 1 < pages.size() ? "," : "") + "\n";
  }
  return out;
}

// Text lines longer than 80 bytes broken at spaces (roff joins them again);
// never inside .nf blocks, never before a word that would read as a request.
std::string WrapLines(const std::string& body) {
  std::string out;
  bool nofill = false;
  for (std::string line : Lines(body)) {
    if (line.rfind(".nf", 0) == 0) nofill = true;
    if (line.rfind(".fi", 0) == 0) nofill = false;
    while (!nofill && line.size() > 80 && line[0] != '.') {
      size_t cut = line.rfind(' ', 80);
      while (cut != std::string::npos && cut > 0 && cut + 1 < line.size() &&
             (line[cut + 1] == '.' || line[cut + 1] == '\'' || line[cut + 1] == ' ')) {
        cut = line.rfind(' ', cut - 1);
      }
      if (cut == std::string::npos || cut == 0) break;
      out += line.substr(0, cut) + "\n";
      line = line.substr(cut + 1);
    }
    out += line + "\n";
  }
  return out;
}

// The include file's sections, in its order.
Sections ParseInclude(const std::string& include) {
  Sections sections;
  std::string name;
  for (const std::string& line : Lines(include)) {
    if (line.rfind(".SH ", 0) == 0) {
      name = Trim(line.substr(4));
      if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
        name = name.substr(1, name.size() - 2);
      }
      sections.emplace_back(name, "");
    } else if (!sections.empty()) {
      sections.back().second += line + "\n";
    }
  }
  return sections;
}

}  // namespace

std::string RoffEscape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\[u%04X]", NextCodePoint(text, &i));
      out += buf;
      continue;
    }
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if ((c == '.' || c == '\'') && (out.empty() || out.back() == '\n')) {
      out += "\\&";
      out += char(c);
    } else if (c < 0x20 && c != '\n') {
      out += ' ';  // control characters have no place in a page
    } else {
      out += char(c);
    }
    ++i;
  }
  return out;
}

std::string ManPageName(const CommandSpec* command) {
  return command ? "lockgraph-" + command->name : "lockgraph";
}

std::string ManPage(const CommandSpec& top, const CommandSpec* command, const ManPageInfo& info) {
  const CommandSpec& cmd = command ? *command : top;
  std::string page = ManPageName(command);
  std::string title = page;
  for (char& c : title) c = char(std::toupper(static_cast<unsigned char>(c)));

  Sections sections;
  AddTo(sections, "NAME", RoffEscape(page) + " \\- " + RoffEscape(NameLine(cmd.description)) + "\n");
  AddTo(sections, "SYNOPSIS", Synopsis(command));
  AddTo(sections, "DESCRIPTION", command ? RoffEscape(cmd.description) + "\n"
                                         : "\\fBlockgraph\\fR is a " + RoffEscape(NameLine(cmd.description)) + ".\n");
  if (!command) {
    std::string list;
    for (const CommandSpec& c : top.subcommands) {
      list += ".TP\n.BR \\%" + RoffEscape(ManPageName(&c)) + " (1)\n" + RoffEscape(c.description) + "\n";
    }
    AddTo(sections, "COMMANDS", list);
  }
  AddTo(sections, "OPTIONS", OptionsSection(cmd));
  AddFooter(cmd.footer, sections);
  AddTo(sections, "SEE ALSO", SeeAlso(top, command));
  for (const auto& [name, body] : ParseInclude(info.include)) AddTo(sections, name, body);
  std::stable_sort(sections.begin(), sections.end(), [](const auto& a, const auto& b) {
    return OrderOf(a.first) < OrderOf(b.first);
  });

  std::ostringstream out;
  out << ".\\\" Written by `lockgraph manpage" << (command ? " " + command->name : "")
      << "` from lockgraph's own --help text.\n"
      << ".TH \"" << RoffEscape(title) << "\" 1 \"" << info.date << "\" \"lockgraph "
      << info.version << "\" \"User Commands\"\n";
  for (const auto& [name, body] : sections) {
    out << ".SH " << (name.find(' ') != std::string::npos ? "\"" + name + "\"" : name) << "\n";
    out << WrapLines(body.rfind(".PP\n", 0) == 0 ? body.substr(4) : body);
  }
  return out.str();
}

}  // namespace lockgraph
