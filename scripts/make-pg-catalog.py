#!/usr/bin/env python3
"""Regenerates parsers/postgresql/catalog_data.cc: the translations of the
PostgreSQL server messages lockgraph reads (deadlock report, log_lock_waits,
lock tags, cursor position, part labels, wait outcomes, row-wait contexts).

Source: the real catalogues of Debian's postgresql-15 package
(/usr/share/locale/<lang>/LC_MESSAGES/postgres-15.mo and plpgsql-15.mo, read
with gettext's msgunfmt), plus the hand-checked entries of
parsers/postgresql/catalog_extra.tsv (languages and versions the package does
not ship, with their repository path and commit). Usage:

  scripts/make-pg-catalog.py > parsers/postgresql/catalog_data.cc
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (enum name, English msgid) in the order of PgText in catalog.h.
MESSAGES = [
    ("kDeadlockDetected", "deadlock detected"),
    ("kDeadlockEdge", "Process %d waits for %s on %s; blocked by process %d."),
    ("kDeadlockQuery", "Process %d: %s"),
    ("kWaitAvoided", "process %d avoided deadlock for %s on %s by rearranging queue order after %ld.%03d ms"),
    ("kWaitDetected", "process %d detected deadlock while waiting for %s on %s after %ld.%03d ms"),
    ("kWaitStill", "process %d still waiting for %s on %s after %ld.%03d ms"),
    ("kWaitAcquired", "process %d acquired %s on %s after %ld.%03d ms"),
    ("kWaitFailed", "process %d failed to acquire %s on %s after %ld.%03d ms"),
    ("kTagRelation", "relation %u of database %u"),
    ("kTagExtend", "extension of relation %u of database %u"),
    ("kTagFrozenIds", "pg_database.datfrozenxid of database %u"),
    ("kTagPage", "page %u of relation %u of database %u"),
    ("kTagTuple", "tuple (%u,%u) of relation %u of database %u"),
    ("kTagTransaction", "transaction %u"),
    ("kTagVirtualTransaction", "virtual transaction %d/%u"),
    ("kTagSpeculativeToken", "speculative token %u of transaction %u"),
    ("kTagObject", "object %u of class %u of database %u"),
    ("kTagUserLock", "user lock [%u,%u,%u]"),
    ("kTagAdvisory", "advisory lock [%u,%u,%u,%u]"),
    ("kTagApplyTransaction", "remote transaction %u of subscription %u of database %u"),
    ("kTagUnrecognized", "unrecognized locktag type %d"),
    ("kAtCharacter", " at character %d"),
    ("kCancelLockTimeout", "canceling statement due to lock timeout"),
    ("kCancelStatementTimeout", "canceling statement due to statement timeout"),
    ("kCancelUserRequest", "canceling statement due to user request"),
    ("kCancelAutovacuum", "canceling autovacuum task"),
    ("kTerminateAdmin", "terminating connection due to administrator command"),
    ("kNoWaitRow", "could not obtain lock on row in relation \\\"%s\\\""),
    ("kNoWaitRelation", "could not obtain lock on relation \\\"%s\\\""),
    ("kCtxUpdating", "while updating tuple (%u,%u) in relation \\\"%s\\\""),
    ("kCtxDeleting", "while deleting tuple (%u,%u) in relation \\\"%s\\\""),
    ("kCtxLocking", "while locking tuple (%u,%u) in relation \\\"%s\\\""),
    ("kCtxLockingUpdated", "while locking updated version (%u,%u) of tuple in relation \\\"%s\\\""),
    ("kCtxInsertingIndex", "while inserting index tuple (%u,%u) in relation \\\"%s\\\""),
    ("kCtxCheckingUniqueness", "while checking uniqueness of tuple (%u,%u) in relation \\\"%s\\\""),
    ("kCtxRechecking", "while rechecking updated tuple (%u,%u) in relation \\\"%s\\\""),
    ("kCtxCheckingExclusion", "while checking exclusion constraint on tuple (%u,%u) in relation \\\"%s\\\""),
    ("kCtxSqlStatement", "SQL statement \\\"%s\\\""),
    ("kCtxSqlExpression", "SQL expression \\\"%s\\\""),
    ("kCtxPlpgsqlAssignment", "PL/pgSQL assignment \\\"%s\\\""),
    ("kCtxSqlFunction", "SQL function \\\"%s\\\" statement %d"),
    # From plpgsql's own catalogue (plpgsql-15.mo), see PLPGSQL below.
    ("kCtxPlpgsqlLineAt", "PL/pgSQL function %s line %d at %s"),
    ("kCtxPlpgsqlLine", "PL/pgSQL function %s line %d %s"),
    ("kPlpgsqlSqlStatement", "SQL statement"),
    ("kLabelDebug", "DEBUG"), ("kLabelLog", "LOG"), ("kLabelInfo", "INFO"), ("kLabelNotice", "NOTICE"),
    ("kLabelWarning", "WARNING"), ("kLabelError", "ERROR"), ("kLabelFatal", "FATAL"),
    ("kLabelPanic", "PANIC"),
    ("kLabelDetail", "DETAIL:  "), ("kLabelHint", "HINT:  "), ("kLabelQuery", "QUERY:  "),
    ("kLabelContext", "CONTEXT:  "), ("kLabelLocation", "LOCATION:  "),
    ("kLabelStatement", "STATEMENT:  "), ("kLabelBacktrace", "BACKTRACE:  "),
]

# Texts of plpgsql's catalogue (the rest are the backend's postgres-15.mo).
PLPGSQL = {"kCtxPlpgsqlLineAt", "kCtxPlpgsqlLine", "kPlpgsqlSqlStatement"}

LANGS = ["de", "es", "fr", "it", "ja", "ka", "ko", "pl", "pt_BR", "ru", "sv", "tr", "uk", "zh_CN"]


def po_entries(text):
    out = {}
    for m in re.finditer(r'(#, fuzzy\n)?(?:msgctxt[^\n]*\n)?msgid ((?:"(?:[^"\\]|\\.)*"\s*)+)'
                         r'msgstr ((?:"(?:[^"\\]|\\.)*"\s*)+)', text):
        def join(s):
            return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', s))
        if m.group(1):
            continue  # fuzzy: msgfmt drops it, the server prints English
        out[join(m.group(2))] = join(m.group(3))
    return out


def package_version():
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", "postgresql-15"],
                              capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main():
    version = package_version()
    rows = []  # (enum, lang, msgstr, source, note)
    for lang in LANGS:
        catalogues = {}
        for domain in ("postgres", "plpgsql"):
            mo = f"/usr/share/locale/{lang}/LC_MESSAGES/{domain}-15.mo"
            if os.path.exists(mo):
                po = subprocess.run(["msgunfmt", mo], capture_output=True, text=True,
                                    check=True).stdout
                catalogues[domain] = po_entries(po)
        for enum, msgid in MESSAGES:
            domain = "plpgsql" if enum in PLPGSQL else "postgres"
            s = catalogues.get(domain, {}).get(msgid)
            if s:
                rows.append((enum, lang, s, "kDebian15" if domain == "postgres" else
                             "kDebian15Plpgsql", ""))
    extra = os.path.join(ROOT, "parsers/postgresql/catalog_extra.tsv")
    sources = {}
    if os.path.exists(extra):
        for line in open(extra, encoding="utf-8"):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f = line.split("\t")
            if f[0] == "source":
                sources[f[1]] = f[2]
                continue
            enum, lang, msgstr, src, note = (f + [""] * 5)[:5]
            rows.append((enum, lang, msgstr, src, note))
    order = {e: i for i, (e, _) in enumerate(MESSAGES)}
    rows.sort(key=lambda r: (order[r[0]], r[1]))
    w = sys.stdout.write
    w("// GENERATED by scripts/make-pg-catalog.py: do not edit by hand (edit\n"
      "// parsers/postgresql/catalog_extra.tsv or rerun the script).\n"
      "// Translations of the PostgreSQL server messages lockgraph reads, as DATA:\n"
      "// one row per (message, language), msgstr exactly as in the catalogue.\n"
      "// Sources: kDebian15 = the .mo files of Debian's postgresql-15\n"
      f"// {version} (/usr/share/locale/<lang>/LC_MESSAGES/postgres-15.mo,\n"
      "// read with msgunfmt); other sources are named on their rows.\n"
      "// Fuzzy or missing entries have no row: the server prints English there.\n"
      "// Versions: every msgid below is the same in 12 to 17 (reference §7)\n"
      "// except kTagFrozenIds (14+) and kTagApplyTransaction (16+, so no row in\n"
      "// the 15 catalogues); the catalogues' wording of a msgid changes only when\n"
      "// a translator edits it, and the rows from other sources say which tree\n"
      "// they come from.\n"
      "#include \"parsers/postgresql/catalog.h\"\n\n"
      "namespace lockgraph {\nnamespace {\n"
      f"constexpr const char* kDebian15 = \"Debian postgresql-15 {version}, postgres-15.mo\";\n"
      f"constexpr const char* kDebian15Plpgsql = \"Debian postgresql-15 {version}, plpgsql-15.mo\";\n")
    for name, text in sorted(sources.items()):
        w(f"constexpr const char* {name} = \"{text}\";\n")
    w("}  // namespace\n\n"
      "const PgMessageText kPgMessages[] = {\n")
    for enum, msgid in MESSAGES:
        w(f"    {{PgText::{enum}, \"{msgid}\"}},\n")
    w("};\n\nconst PgTranslation kPgTranslations[] = {\n")
    last = None
    for enum, lang, msgstr, src, note in rows:
        if enum != last:
            w(f"    // {dict(MESSAGES)[enum]}\n")
            last = enum
        w(f"    {{PgText::{enum}, \"{lang}\", \"{msgstr}\", {src}, \"{note}\"}},\n")
    w("};\n\nconst size_t kPgMessageCount = sizeof(kPgMessages) / sizeof(kPgMessages[0]);\n"
      "const size_t kPgTranslationCount = sizeof(kPgTranslations) / sizeof(kPgTranslations[0]);\n\n"
      "}  // namespace lockgraph\n")


if __name__ == "__main__":
    main()
