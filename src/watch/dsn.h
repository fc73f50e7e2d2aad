// Connection strings as they may be printed: every password masked, in both
// libpq forms (key=value and postgresql:// URIs). docs/watch.md#safety.
#pragma once

#include <string>
#include <string_view>

namespace lockgraph {

/// `dsn` with the value of every keyword ending in "password" (password,
/// sslpassword) replaced by "***", and the password of a URI's user info
/// too ("postgresql://app:***@db/x"). Other text is kept as given.
std::string MaskDsn(std::string_view dsn);

}  // namespace lockgraph
