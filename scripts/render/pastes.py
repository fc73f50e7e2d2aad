#!/usr/bin/env python3
"""Renders a real server's stderr log the ways people paste and cut it.

Input: samples/postgresql/scenarios.log (scripts/make-samples.sh, PostgreSQL
15, log_line_prefix '%m [%p] %q%u@%d/%a '). Output, one file per shape, in
samples/postgresql/rendered/ (tests/unit/test_renderings.cc checks that each
gives the events of the same run's csvlog, scenarios.csv):

  paste-crlf-trailing.log  CRLF line ends, blanks after every line, a blank
                           line between records (a Windows editor, a ticket)
  paste-tab-spaces.log     every continuation TAB turned into 8 spaces (a web
                           page, a log viewer)
  paste-tab-stripped.log   continuation lines with their TAB removed
  paste-html.log           what an HTML page shows: every run of blanks
                           (TABs, the two spaces after a label) folded to one
  prefix-no-pid.log        log_line_prefix '%m ' (no %p): the prefix
                           rewritten, as a server with that setting writes it

Usage: scripts/render/pastes.py [SAMPLES_DIR]
"""
import os
import re
import sys

PREFIX = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \S+) \[(\d+)\] (?:\S*@\S*/\S* )?")


def read_lines(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().split("\n")[:-1]  # the file ends in a newline


def write(path, lines, end="\n"):
    with open(path, "w", encoding="utf-8", newline="") as f:
        for line in lines:
            f.write(line + end)


def crlf_trailing(lines):
    out = []
    for line in lines:
        # A new record (a prefixed primary line) after the first: a blank line.
        if out and PREFIX.match(line) and re.search(r"\] \S*(LOG|ERROR|FATAL|WARNING):  ", line):
            out.append("")
        out.append(line + "  ")
    return out


def tab_spaces(lines):
    return [(" " * 8 + line[1:]) if line.startswith("\t") else line for line in lines]


def tab_stripped(lines):
    return [line[1:] if line.startswith("\t") else line for line in lines]


def html(lines):
    return [re.sub(r"[ \t]+", " ", line).strip() for line in lines]


def no_pid(lines):
    out = []
    for line in lines:
        m = PREFIX.match(line)
        out.append(m.group(1) + " " + line[m.end():] if m else line)
    return out


def main():
    samples = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples", "postgresql")
    lines = read_lines(os.path.join(samples, "scenarios.log"))
    out = os.path.join(samples, "rendered")
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "paste-crlf-trailing.log"), crlf_trailing(lines), "\r\n")
    write(os.path.join(out, "paste-tab-spaces.log"), tab_spaces(lines))
    write(os.path.join(out, "paste-tab-stripped.log"), tab_stripped(lines))
    write(os.path.join(out, "paste-html.log"), html(lines))
    write(os.path.join(out, "prefix-no-pid.log"), no_pid(lines))


if __name__ == "__main__":
    main()
