// The libraries that talk to servers: libpqxx and libpq (watch's PostgreSQL
// connections), MariaDB Connector/C (watch mysql://) and cpp-httplib (the
// /metrics server), and through them OpenSSL, GnuTLS, Kerberos and LDAP:
// 28 shared libraries that the loader mapped and relocated on every run,
// 7.7 ms of an `analyze` that never uses them. They are linked into a
// module, lockgraph-servers.so, opened the first time a command needs it.
// Its code calls back into the binary, which exports its symbols for it
// (CMakeLists.txt). docs/architecture.md#the-server-module.
#pragma once

#include <string>

namespace lockgraph {

/// The module's file name.
inline constexpr const char* kServerModuleName = "lockgraph-servers.so";

/// The module's extern "C" symbol `name` (the binary's own, in a build that
/// links the server code into it: the sanitizer builds), the module opened
/// on first use:
/// beside the binary (a build tree), else in ../lib/lockgraph/ from it (an
/// installed tree, /usr/lib/lockgraph/). Null when it cannot be opened or
/// lacks the symbol; then *error is a sentence naming the files tried and
/// the loader's reason. Thread-safe.
void* ServerModuleSymbol(const char* name, std::string* error);

}  // namespace lockgraph
