// Connection strings as they may be printed: every password masked, in both
// libpq forms (key=value and postgresql:// URIs), and mysql:// / mariadb:// URIs. docs/watch.md#safety.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

/// `dsn` with the value of every keyword ending in "password" (password,
/// sslpassword, PASSWORD) replaced by "***", the password of a URI's user
/// info too ("postgresql://app:***@db/x"), and the same inside a conninfo
/// or URI given as `dbname`. Other text is kept as given.
std::string MaskDsn(std::string_view dsn);

/// `text` (an error from libpq or the server) with every occurrence of each
/// secret replaced by "***": the passwords of the DSN, PGPASSWORD.
std::string MaskSecrets(std::string_view text, const std::vector<std::string>& secrets);

}  // namespace lockgraph
