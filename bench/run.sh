#!/usr/bin/env bash
# lockgraph benchmark (issues 7 and 20). Never run as a test: it takes minutes.
#
#   bench/run.sh [SIZE_MB]        (default 1024)
#
# 1. builds lockgraph in Release mode into build-release/, and the bench tools
#    (bench/gen_pglog/*.cc, bench/graph_bench.cc) into build-release/bench/;
# 2. generates, once, SIZE_MB and SIZE_MB/10 PostgreSQL logs in stderr, csvlog,
#    jsonlog and syslog with their exact expected counts (gen_pglog) into
#    $LOCKGRAPH_BENCH_DIR (default /var/tmp/lockgraph-bench; never the repo);
# 3. warms the page cache and times, on the same files: cat and
#    grep -c 'deadlock detected' (the floor), lockgraph analyze --format json
#    on one core (taskset -c 0 ... --threads 1) and on both (the default),
#    --format ndjson and --format text (wall, CPU, MB/s, peak RSS); peak RSS
#    on the SIZE_MB/10 file and on the SIZE_MB file read ten times through a
#    pipe (BENCH_SKIP_10X=1 skips that); pgBadger on the same stderr file
#    (1.5 to 3 MB/s: 6 to 12 minutes for 1 GB; BENCH_PGBADGER_FULL=0 runs it
#    on the SIZE_MB/10 file instead);
#    and checks lockgraph's counts against the generator's;
# 4. peak RSS of every other output (`analyze --format F`) and of the other
#    commands (`check --format F` for every F, `baseline`, `report`) on the
#    SIZE_MB stderr file and on it ten times through a pipe
#    (BENCH_SKIP_ALL_OUTPUTS=1 skips them: about 8 minutes at 1024);
# 5. times a 100,000-waiting-process wait-for graph (bench/graph_bench.cc,
#    and a pg_locks snapshot through `lockgraph analyze` when lockgraph reads
#    that format);
# 6. each format's file with --threads 1 up to the CPUs there are (at least
#    3), wall and CPU time: how many cores were at work;
# 7. the pipe filter's latency (bench/stdin_latency.py on the heads of
#    samples/postgresql/scenarios.{log,csv,json}, a message every 0.15 s).
# Prints a Markdown report, each of issue 20's targets against what this run
# measured (the stderr ones against the same run's grep -F), and keeps a copy
# in $LOCKGRAPH_BENCH_DIR/results-*.md.
#
# Environment: BENCH_SEED (1), BENCH_REPEAT (1: runs per measurement, the
# fastest is kept), BENCH_PGBADGER_FULL (1), BENCH_SKIP_PGBADGER (0),
# BENCH_SKIP_10X (0), BENCH_SKIP_ALL_OUTPUTS (0), BENCH_SKIP_LATENCY (0),
# BENCH_SKIP_THREADS (0),
# LOCKGRAPH_BENCH_DIR, LOCKGRAPH_BENCH_REV: measure a committed revision
# (e.g. HEAD) built from `git archive` in $LOCKGRAPH_BENCH_DIR/src-REV/
# instead of the working tree as it is (which other work may be changing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SIZE_MB=${1:-1024}
[[ "$SIZE_MB" =~ ^[0-9]+$ ]] && [ "$SIZE_MB" -ge 10 ] || { echo "usage: bench/run.sh [SIZE_MB >= 10]" >&2; exit 2; }
SMALL_MB=$((SIZE_MB / 10))
SEED=${BENCH_SEED:-1}
REPEAT=${BENCH_REPEAT:-1}
CACHE=${LOCKGRAPH_BENCH_DIR:-/var/tmp/lockgraph-bench}
PREFIX='%m [%p] %q%u@%d/%a '
mkdir -p "$CACHE"
REV=${LOCKGRAPH_BENCH_REV:-}
if [ -n "$REV" ]; then
  SRC=$CACHE/src-$(git rev-parse --short "$REV")
  rm -rf "$SRC" && mkdir -p "$SRC"
  git archive "$REV" | tar -x -C "$SRC"
  LG_VERSION="$(git rev-parse --short "$REV") (git archive of $REV)"
else
  SRC=$ROOT
  LG_VERSION="$(git describe --always --dirty 2>/dev/null || echo '?') (working tree)"
fi
BUILD=$SRC/build-release
LG=$BUILD/lockgraph
BIN=$BUILD/bench
mkdir -p "$BIN"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/lockgraph-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

say() { echo "bench: $*" >&2; }

# ---------------------------------------------------------------- tools
need_pkgs=()
[ -x /usr/bin/time ] || need_pkgs+=(time)
command -v g++ >/dev/null || need_pkgs+=(g++)
command -v cmake >/dev/null || need_pkgs+=(cmake)
command -v python3 >/dev/null || need_pkgs+=(python3)
command -v taskset >/dev/null || need_pkgs+=(util-linux)
if [ "${BENCH_SKIP_PGBADGER:-0}" != 1 ] && ! command -v pgbadger >/dev/null; then need_pkgs+=(pgbadger); fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
  say "installing ${need_pkgs[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null 2>&1 \
    || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null; }
fi

# ---------------------------------------------------------------- build
say "building lockgraph (Release) into $BUILD"
cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j2 --target lockgraph >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log" >&2; exit 1; }
say "building bench tools into $BIN"
g++ -std=c++20 -O2 -Wall -Wextra -o "$BIN/gen_pglog" bench/gen_pglog/*.cc
g++ -std=c++20 -O2 -I"$SRC/src" -I"$SRC" -o "$BIN/graph_bench" bench/graph_bench.cc "$BUILD/liblockgraph_core.a"

# ---------------------------------------------------------------- data
# Files are named by size, seed and the generator's source hash, so a changed
# generator makes new files; old ones are removed.
GEN_HASH=$(cat bench/gen_pglog/*.h bench/gen_pglog/*.cc | sha1sum | cut -c1-10)
ext() { case $1 in stderr) echo log ;; csvlog) echo csv ;; jsonlog) echo json ;; syslog) echo syslog.log ;; esac; }
# syslog: the stderr text as rsyslog writes PostgreSQL's syslog output.
FORMATS="stderr csvlog jsonlog syslog"
data_file() { echo "$CACHE/pg-$2M-seed$SEED-$GEN_HASH.$(ext "$1")"; }
find "$CACHE" -maxdepth 1 -name 'pg-*' ! -name "pg-*-$GEN_HASH.*" -delete
for fmt in $FORMATS; do
  for mb in "$SIZE_MB" "$SMALL_MB"; do
    f=$(data_file "$fmt" "$mb")
    if [ ! -s "$f" ] || [ ! -s "$f.expected.json" ]; then
      say "generating $f"
      /usr/bin/time -f '%e' -o "$TMP/gen.time" "$BIN/gen_pglog" --format "$fmt" --size "${mb}M" --seed "$SEED" -o "$f"
      say "  $(awk -v s="$(stat -c %s "$f")" '{printf "%.0f MB in %.1f s (%.0f MB/s)", s/1048576, $1, s/1048576/($1>0?$1:0.01)}' "$TMP/gen.time")"
    fi
  done
done

# ---------------------------------------------------------------- measuring
# timed OUT CMD...: runs CMD with stdout to OUT, REPEAT times; sets WALL, CPU
# (user+sys of the fastest run) and RSS_MB (the largest peak).
timed() {
  local out=$1; shift
  local i wall user sys rss best=""
  RSS_MB=0
  for ((i = 0; i < REPEAT; i++)); do
    if ! /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" >"$out" 2>"$TMP/stderr"; then
      echo "bench: failed: $*" >&2; cat "$TMP/stderr" >&2; return 1
    fi
    read -r wall user sys rss < <(tail -n1 "$TMP/time")
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN{exit !(a<b)}'; then
      best=$wall
      CPU=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')
    fi
    RSS_MB=$(awk -v r="$rss" -v m="$RSS_MB" 'BEGIN{v=r/1024; printf "%.1f", (v>m?v:m)}')
  done
  WALL=$best
}
vs_cat() { awk -v a="$WALL" -v b="$1" 'BEGIN{ if (b > 0) printf "%.1f x cat", a/b; else print "-" }'; }
vs_grep() { awk -v a="$WALL" -v b="$grep_wall" 'BEGIN{ if (b > 0) printf "%.2f x grep -F", a/b; else print "-" }'; }
mbs() { awk -v mb="$1" -v t="$2" 'BEGIN{ if (t <= 0) print "-"; else printf "%.1f", mb/t }'; }
size_mb() { awk -v s="$(stat -c %s "$1")" 'BEGIN{printf "%.1f", s/1048576}'; }

ROWS=()      # main table
RSS_ROWS=()  # RSS: small vs full
CHECK_ROWS=()
row() { ROWS+=("| $1 | $2 | \`$3\` | $WALL | $CPU | $(mbs "$2" "$WALL") | $(mbs "$2" "$CPU") | $RSS_MB | $4 |"); }

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A LG_WALL LG_CPU LG_RSS GREP_WALL
for fmt in $FORMATS; do
  f=$(data_file "$fmt" "$SIZE_MB"); small=$(data_file "$fmt" "$SMALL_MB")
  mb=$(size_mb "$f"); smb=$(size_mb "$small")
  name=$(basename "$f")
  say "$fmt: warming the page cache ($mb MB + $smb MB)"
  cat "$f" "$small" >/dev/null
  timed /dev/null cat "$f"
  cat_wall=$WALL
  row "$fmt" "$mb" "cat $name > /dev/null" "floor"
  # grep -F in the C locale, into a file: GNU grep stops at the first match when its
  # output is /dev/null, which would make the floor meaningless.
  timed "$TMP/grep.out" env LC_ALL=C grep -F -c 'deadlock detected' "$f" || true
  row "$fmt" "$mb" "LC_ALL=C grep -F -c 'deadlock detected' $name > /tmp/x" "floor ($(cat "$TMP/grep.out") lines)"
  grep_wall=$WALL
  GREP_WALL[$fmt]=$WALL
  say "$fmt: lockgraph analyze --format json on one core ($mb MB)"
  timed /dev/null taskset -c 0 "$LG" analyze --threads 1 --format json "$f"
  row "$fmt" "$mb" "taskset -c 0 lockgraph analyze --threads 1 --format json $name > /dev/null" \
    "one core; $(vs_cat "$cat_wall"); $(vs_grep)"
  LG_WALL[$fmt.json.onecore]=$WALL; LG_CPU[$fmt.json.onecore]=$CPU
  for out in json ndjson text; do
    say "$fmt: lockgraph analyze --format $out ($mb MB)"
    timed /dev/null "$LG" analyze --format "$out" "$f"
    row "$fmt" "$mb" "lockgraph analyze --format $out $name > /dev/null" "two cores (default); $(vs_cat "$cat_wall"); $(vs_grep)"
    LG_WALL[$fmt.$out]=$WALL; LG_CPU[$fmt.$out]=$CPU; LG_RSS[$fmt.$out]=$RSS_MB
    full_rss=$RSS_MB
    timed /dev/null "$LG" analyze --format "$out" "$small"
    LG_WALL[$fmt.$out.small]=$WALL; LG_CPU[$fmt.$out.small]=$CPU; LG_RSS[$fmt.$out.small]=$RSS_MB
    small_rss=$RSS_MB
    ten_rss="-"; ten_wall="-"
    if [ "${BENCH_SKIP_10X:-0}" != 1 ]; then
      say "$fmt: lockgraph analyze --format $out - on $mb MB x 10 through a pipe"
      timed /dev/null bash -c 'lg=$1; shift; cat "$@" | "$lg" analyze --format '"$out"' -' _ "$LG" \
        "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f"
      ten_rss=$RSS_MB; ten_wall=$WALL
    fi
    RSS_ROWS+=("| $fmt | $out | $small_rss | $full_rss | $ten_rss | $ten_wall |")
  done
  say "$fmt: checking lockgraph's counts against the generator's"
  "$LG" analyze --format json "$f" >"$TMP/report.json"
  if python3 bench/check_counts.py "$f.expected.json" "$TMP/report.json" >"$TMP/check.txt"; then verdict=PASS; else verdict=FAIL; fi
  read -r exp_dl exp_lw exp_lines < <(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(e["deadlocks"], e["lock_waits"], e["lines"])' "$f.expected.json")
  read -r got_dl got_lw got_lines got_unparsed < <(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s["deadlocks"], s["lock_waits"], s["lines"]["total"], s["lines"]["unparsed"])' "$TMP/report.json")
  CHECK_ROWS+=("| $fmt | $mb | $exp_dl / $got_dl | $exp_lw / $got_lw | $exp_lines / $got_lines | $got_unparsed | **$verdict** |")
  if [ "$verdict" = FAIL ]; then grep -v '^ok' "$TMP/check.txt" | sed 's/^/bench:   /' >&2; fi
  cp "$TMP/check.txt" "$CACHE/check-$fmt-${SIZE_MB}M.txt"
done

# ---------------------------------------------------------------- threads
# Issue 20: every core at work. Each format's file with --threads 1 up to the
# CPUs there are, and at least 3 (a stderr file parses on threads - 1
# threads from 3 on, the rules' thread being the other one).
THREAD_ROWS=()
MAX_THREADS=$(( $(nproc) > 3 ? $(nproc) : 3 ))
if [ "${BENCH_SKIP_THREADS:-0}" != 1 ]; then
  for fmt in $FORMATS; do
    f=$(data_file "$fmt" "$SIZE_MB"); mb=$(size_mb "$f")
    for ((t = 1; t <= MAX_THREADS; t++)); do
      say "$fmt: lockgraph analyze --threads $t --format json ($mb MB)"
      timed /dev/null "$LG" analyze --threads "$t" --format json "$f"
      THREAD_ROWS+=("| $fmt | $t | $WALL | $CPU | $(awk -v c="$CPU" -v w="$WALL" 'BEGIN{ if (w > 0) printf "%.2f", c/w; else print "-" }') | $(mbs "$mb" "$WALL") | $RSS_MB |")
    done
  done
fi

# ---------------------------------------------------------------- every output and command
# Issue 20: memory bounded for every output and command. json, ndjson and
# text under analyze are above; here the other formats, `check` in every
# format (its exit 1, a broken limit, is not a failure here), `baseline` and
# `report`, on the stderr file and on it ten times through a pipe.
OTHER_FORMATS="dot html sarif junit github codequality prometheus"
ALL_FORMATS="text json ndjson $OTHER_FORMATS"
ALL_ROWS=()
# all_row LABEL ARGS...: the peak RSS of `lockgraph ARGS... FILE` and of
# `cat FILE x10 | lockgraph ARGS... -`.
all_row() {
  local label=$1; shift
  local f one ten ten_wall
  f=$(data_file stderr "$SIZE_MB")
  say "every output: lockgraph $label"
  timed /dev/null bash -c '"$@" || [ $? = 1 ]' _ "$LG" "$@" "$f"
  one=$RSS_MB
  timed /dev/null bash -c 'lg=$1 f=$2; shift 2; cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" | "$lg" "$@" - || [ $? = 1 ]' \
    _ "$LG" "$f" "$@"
  ten=$RSS_MB; ten_wall=$WALL
  ALL_ROWS+=("| \`lockgraph $label\` | $one | $ten | $ten_wall |")
}
if [ "${BENCH_SKIP_ALL_OUTPUTS:-0}" != 1 ]; then
  for out in $OTHER_FORMATS; do all_row "analyze --format $out" analyze --format "$out"; done
  for out in $ALL_FORMATS; do all_row "check --format $out" check --format "$out"; done
  all_row "baseline" baseline
  all_row "report -o -" report -o -
fi

# ---------------------------------------------------------------- pgBadger
PGB_ROWS=()
if [ "${BENCH_SKIP_PGBADGER:-0}" != 1 ]; then
  if [ "${BENCH_PGBADGER_FULL:-1}" = 1 ]; then pgb_mb=$SIZE_MB; pgb_key=stderr.json; else pgb_mb=$SMALL_MB; pgb_key=stderr.json.small; fi
  f=$(data_file stderr "$pgb_mb"); mb=$(size_mb "$f")
  say "pgBadger on $(basename "$f") ($mb MB, -j 1)"
  mkdir -p "$TMP/pgbadger"
  timed /dev/null pgbadger -q -j 1 -f stderr --prefix "$PREFIX" -x text -o "$TMP/pgbadger/report.txt" "$f"
  pgb_dl=$(grep -E '^[0-9]+\) [0-9]+ - ERROR:  deadlock detected' "$TMP/pgbadger/report.txt" | head -n1 | awk '{print $2}')
  read -r exp_dl exp_lw < <(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(e["deadlocks"], e["lock_waits"])' "$f.expected.json")
  PGB_ROWS+=("| pgBadger $(pgbadger --version | awk '{print $NF}') | $mb | \`pgbadger -j 1 -f stderr --prefix '$PREFIX' -x text\` | $WALL | $CPU | $(mbs "$mb" "$WALL") | $(mbs "$mb" "$CPU") | $RSS_MB | \`deadlock detected\` errors counted: ${pgb_dl:-?} (generator: $exp_dl); no cycles, no lock waits |")
  pgb_wall=$WALL; pgb_cpu=$CPU
  WALL=${LG_WALL[$pgb_key]}; CPU=${LG_CPU[$pgb_key]}; RSS_MB=${LG_RSS[$pgb_key]}
  PGB_ROWS+=("| lockgraph | $mb | \`lockgraph analyze --format json\` | $WALL | $CPU | $(mbs "$mb" "$WALL") | $(mbs "$mb" "$CPU") | $RSS_MB | $exp_dl deadlocks with cycles and edges, $exp_lw lock waits with chains |")
  PGB_RATIO=$(awk -v a="$pgb_wall" -v b="$WALL" -v c="$pgb_cpu" -v d="$CPU" \
    'BEGIN{printf "lockgraph / pgBadger throughput on the same %s MB file: **%.1f x** by wall time, **%.1f x** by CPU time", "'"$mb"'", (b>0?a/b:0), (d>0?c/d:0)}')
fi

# ---------------------------------------------------------------- wait-for graph
say "wait-for graph of 100,000 waiting processes (bench/graph_bench.cc)"
"$BIN/graph_bench" 100000 >"$TMP/graph.txt"
GRAPH_SNAPSHOT=""
if "$LG" analyze --help 2>/dev/null | grep -q pglocks && [ -f bench/gen_pglocks.py ]; then
  snap=$CACHE/pglocks-100000-seed$SEED-$(sha1sum bench/gen_pglocks.py | cut -c1-10).csv
  [ -s "$snap" ] || python3 bench/gen_pglocks.py --waiters 100000 --seed "$SEED" -o "$snap"
  cat "$snap" >/dev/null
  say "pg_locks snapshot of 100,000 waiting backends: lockgraph analyze"
  timed /dev/null "$LG" analyze --format json "$snap"
  SNAP_WALL=$WALL; SNAP_RSS=$RSS_MB
  # The generator's roots and cycles against lockgraph's chains and cycles.
  "$LG" analyze --format ndjson "$snap" | tail -n1 >"$TMP/snap-summary.json"
  snap_check=$(python3 -c 'import json,sys
e = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2]))
ok = (s.get("snapshots"), s.get("chains"), s.get("cycles")) == (1, e["root_blockers"], e["deadlocked_sets"])
print("%s chains / %s root blockers, %s cycles / %s: %s" % (s.get("chains"), e["root_blockers"], s.get("cycles"), e["deadlocked_sets"], "PASS" if ok else "FAIL"))' "$snap.expected.json" "$TMP/snap-summary.json")
  GRAPH_SNAPSHOT="| \`lockgraph analyze --format json $(basename "$snap")\` ($(size_mb "$snap") MB pg_locks snapshot, 100,000 waiters) | $WALL s | $CPU s | $RSS_MB MB | $snap_check |"
fi
# ---------------------------------------------------------------- pipe latency
# `tail -F log | lockgraph analyze --format ndjson -`: from the write() of an
# event's last line to the event on stdout (docs/performance.md, "Latency of
# the pipe filter"), on the heads of the scenarios, a message every 0.15 s.
LAT_ROWS=()
LAT_MAX=""
if [ "${BENCH_SKIP_LATENCY:-0}" != 1 ]; then
  for spec in scenarios.log:200 scenarios.csv:100 scenarios.json:60; do
    name=${spec%%:*}; lines=${spec##*:}
    head -n "$lines" "samples/postgresql/$name" >"$TMP/latency-$name"
    say "pipe latency: $lines lines of $name"
    python3 bench/stdin_latency.py "$LG" "$TMP/latency-$name" --pause 0.15 >"$TMP/latency.txt" 2>&1 || true
    read -r n median max < <(sed -nE 's/^ *([0-9]+) events after the head: median ([0-9.]+) ms, max ([0-9.]+) ms.*/\1 \2 \3/p' "$TMP/latency.txt")
    same=$(sed -nE 's/^ *output byte-identical to the file read at once: (.*)/\1/p' "$TMP/latency.txt")
    LAT_ROWS+=("| $lines lines of $name | ${n:-?} | ${median:-?} ms | ${max:-?} ms | ${same:-?} |")
    LAT_MAX=$(awk -v a="${max:-999999}" -v b="${LAT_MAX:-0}" 'BEGIN{ print (a > b ? a : b) }')
  done
fi

LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------- targets
# Issue 20's targets against what was measured above (1 GB/s = 10^9 bytes/s;
# the tables' MB are MiB), then issue 7's that still hold.
verdict() { awk -v v="$1" -v t="$2" 'BEGIN{ print (v >= t ? "met" : "NOT met") }'; }
at_most() { awk -v v="$1" -v t="$2" 'BEGIN{ print (v != "" && v <= t ? "met" : "NOT met") }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "" }'; }
gbs() { awk -v mb="$1" -v t="$2" 'BEGIN{ if (t > 0) printf "%.2f", mb*1048576/1e9/t; else print 0 }'; }
# The largest peak RSS in columns FROM..TO of the rows given.
worst_rss() {
  local from=$1 to=$2 worst=0 r; shift 2
  for r in "$@"; do
    worst=$(echo "$r" | awk -F'|' -v w="$worst" -v a="$from" -v b="$to" \
      '{ for (i = a; i <= b; i++) if ($i + 0 > w) w = $i + 0; print w }')
  done
  echo "$worst"
}
targets() {
  local f mb v r g t worst
  echo "Against issue 20's targets:"
  echo
  g=${GREP_WALL[stderr]}
  r=$(ratio "${LG_WALL[stderr.json]}" "$g")
  echo "* stderr, default threads: ${LG_WALL[stderr.json]} s, $r x grep -F's ${g} s; target at most 1.0 x: $(at_most "$r" 1.0)"
  r=$(ratio "${LG_WALL[stderr.json.onecore]}" "$g")
  echo "* stderr, one core (\`taskset -c 0 ... --threads 1\`): ${LG_WALL[stderr.json.onecore]} s, $r x grep -F; target at most 1.7 x: $(at_most "$r" 1.7)"
  for fmt in csvlog jsonlog; do
    f=$(data_file "$fmt" "$SIZE_MB"); mb=$(size_mb "$f")
    v=$(gbs "$mb" "${LG_WALL[$fmt.json]}")
    t=1.2; [ "$fmt" = jsonlog ] && t=1.0
    echo "* $fmt, default threads: $v GB/s (${LG_WALL[$fmt.json]} s; one core $(gbs "$mb" "${LG_WALL[$fmt.json.onecore]}") GB/s); target at least $t GB/s: $(verdict "$v" "$t")"
  done
  f=$(data_file syslog "$SIZE_MB"); mb=$(size_mb "$f")
  echo "* syslog, default threads: $(gbs "$mb" "${LG_WALL[syslog.json]}") GB/s (${LG_WALL[syslog.json]} s, $(ratio "${LG_WALL[syslog.json]}" "${GREP_WALL[syslog]}") x grep -F; one core $(gbs "$mb" "${LG_WALL[syslog.json.onecore]}") GB/s); no target of its own"
  worst=$(worst_rss 4 6 "${RSS_ROWS[@]}")
  if [ ${#ALL_ROWS[@]} -gt 0 ]; then
    v=$(worst_rss 3 4 "${ALL_ROWS[@]}")
    worst=$(awk -v a="$worst" -v b="$v" 'BEGIN{ print (a > b ? a : b) }')
    echo "* peak RSS, every output and command, ${SIZE_MB} MB and ten times that: largest $worst MB; target under 64 MB: $(awk -v w="$worst" 'BEGIN{ print (w < 64 ? "met" : "NOT met") }')"
  else
    echo "* peak RSS, json, ndjson and text only (BENCH_SKIP_ALL_OUTPUTS=1): largest $worst MB; target under 64 MB for every output and command: not measured"
  fi
  if [ -n "${SNAP_WALL:-}" ]; then
    echo "* the 100,000-waiter pg_locks snapshot through \`lockgraph analyze --format json\`: $SNAP_WALL s and $SNAP_RSS MB; target under 1 s: $(awk -v v="$SNAP_WALL" 'BEGIN{ print (v < 1 ? "met" : "NOT met") }'), under 128 MB: $(awk -v v="$SNAP_RSS" 'BEGIN{ print (v < 128 ? "met" : "NOT met") }')"
  fi
  if [ -n "$LAT_MAX" ]; then
    echo "* pipe filter latency (the table above), the largest: $LAT_MAX ms; target within 100 ms: $(at_most "$LAT_MAX" 100)"
  fi
  echo "* every core at work: stderr, csvlog, jsonlog and syslog files are parsed on several threads (the threads table: stderr from \`--threads 3\` on, syslog from 2), the output the same byte for byte (tests/parallel/run.sh): met; how far it scales past this machine's $(nproc) CPUs is not measured here"
  echo
  echo "Issue 7's, still held to:"
  echo
  [ -n "${PGB_RATIO:-}" ] && echo "* against pgBadger, target 100 x: ${PGB_RATIO#lockgraph / pgBadger throughput on the same }"
  v=$(awk '$1 == "total_ms" { print $2 }' "$TMP/graph.txt")
  echo "* wait-for graph of 100,000 waiting processes (graph_bench, build + analysis): $v ms, target 100 ms: $(awk -v v="$v" 'BEGIN{ print (v < 100 ? "met" : "NOT met") }')"
}

# ---------------------------------------------------------------- report
REPORT=$CACHE/results-$(date -u +%Y%m%dT%H%M%SZ)-${SIZE_MB}M.md
{
  echo "## lockgraph benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "* machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')), $(awk '/MemTotal/{printf "%.1f GB", $2/1048576}' /proc/meminfo) RAM, Linux $(uname -r)"
  echo "* load average (1/5/15 min): $LOAD_START at the start, $LOAD_END at the end"
  echo "* lockgraph $LG_VERSION, Release build in $BUILD; data: gen_pglog seed $SEED in $CACHE; best of $REPEAT run(s); page cache warm"
  echo
  echo "| input | MB | command | wall s | CPU s | MB/s (wall) | MB/s (CPU) | peak RSS MB | note |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  if [ ${#PGB_ROWS[@]} -gt 0 ]; then
    echo "| tool | MB | command | wall s | CPU s | MB/s (wall) | MB/s (CPU) | peak RSS MB | what it reports |"
    echo "|---|---:|---|---:|---:|---:|---:|---:|---|"
    printf '%s\n' "${PGB_ROWS[@]}"
    echo
    echo "$PGB_RATIO"
    echo
  fi
  echo "Counts (generator / lockgraph, \`--format json\` on the ${SIZE_MB} MB files):"
  echo
  echo "| input | MB | deadlocks | lock waits | lines | unparsed | counts equal |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  printf '%s\n' "${CHECK_ROWS[@]}"
  echo
  echo "Peak RSS against input size (the ${SMALL_MB} MB file is the first tenth of the ${SIZE_MB} MB stream; \`x 10\`: the ${SIZE_MB} MB file"
  echo "ten times through a pipe, \`cat FILE ... FILE | lockgraph analyze --format OUT -\`):"
  echo
  echo "| input | output | peak RSS MB, ${SMALL_MB} MB | peak RSS MB, ${SIZE_MB} MB | peak RSS MB, ${SIZE_MB} MB x 10 | wall s, x 10 |"
  echo "|---|---|---:|---:|---:|---:|"
  printf '%s\n' "${RSS_ROWS[@]}"
  echo
  if [ ${#THREAD_ROWS[@]} -gt 0 ]; then
    echo "\`lockgraph analyze --threads N --format json\` on the ${SIZE_MB} MB files, N from 1 to the CPUs there are (at least 3);"
    echo "CPU / wall is how many cores were at work on average:"
    echo
    echo "| input | --threads | wall s | CPU s | CPU / wall | MB/s (wall) | peak RSS MB |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${THREAD_ROWS[@]}"
    echo
  fi
  if [ ${#ALL_ROWS[@]} -gt 0 ]; then
    echo "Every other output and command on the ${SIZE_MB} MB stderr file (\`x 10\`: ten times through a pipe):"
    echo
    echo "| command | peak RSS MB, ${SIZE_MB} MB | peak RSS MB, ${SIZE_MB} MB x 10 | wall s, x 10 |"
    echo "|---|---:|---:|---:|"
    printf '%s\n' "${ALL_ROWS[@]}"
    echo
  fi
  if [ ${#LAT_ROWS[@]} -gt 0 ]; then
    echo "Pipe filter latency (\`python3 bench/stdin_latency.py lockgraph FILE --pause 0.15\`: a message every"
    echo "0.15 s; from the write() of an event's last line to the event on stdout):"
    echo
    echo "| input | events after the head | median | max | same bytes as read at once |"
    echo "|---|---:|---:|---:|---|"
    printf '%s\n' "${LAT_ROWS[@]}"
    echo
  fi
  echo "Wait-for graph, 100,000 waiting processes (\`graph_bench 100000\`: lockgraph::WaitForGraph alone):"
  echo
  echo '```'
  cat "$TMP/graph.txt"
  echo '```'
  if [ -n "$GRAPH_SNAPSHOT" ]; then
    echo
    echo "| command | wall | CPU | peak RSS | lockgraph / generator |"
    echo "|---|---:|---:|---:|---|"
    echo "$GRAPH_SNAPSHOT"
  fi
  echo
  targets
} | tee "$REPORT"
say "report saved to $REPORT"
