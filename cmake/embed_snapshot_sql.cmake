# Writes OUT, a C++ file whose PgSnapshotQuery() returns docs/snapshot.sql
# (SQL) byte for byte: the query users run with psql and the one
# `lockgraph watch` runs are one file. Run by the build (CMakeLists.txt):
# cmake -DSQL=... -DOUT=... -P this.
# -DFUNC=Name embeds another query under that function name (default
# PgSnapshotQuery); several may be embedded, one file each.
if(NOT FUNC)
  set(FUNC PgSnapshotQuery)
endif()
file(READ "${SQL}" text)
string(FIND "${text}" ")lgsql\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${SQL} contains the raw-string delimiter )lgsql\"")
endif()
set(out "// Generated from ${SQL} by cmake/embed_snapshot_sql.cmake. Do not edit.\n")
string(APPEND out "#include \"watch/snapshot_source.h\"\n\nnamespace lockgraph {\n\n")
string(APPEND out "const char* ${FUNC}() {\n  return R\"lgsql(${text})lgsql\";\n}\n\n")
string(APPEND out "}  // namespace lockgraph\n")
file(WRITE "${OUT}.tmp" "${out}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
