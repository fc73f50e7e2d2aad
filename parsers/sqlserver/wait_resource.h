// SQL Server wait resource strings (reference A6): "KEY: 5:72057594214350848
// (1a39e6095155)", "RID: 6:1:20789:0", "PAGE: 6:1:20789 ", "OBJECT:
// 2:264388011:0 ", the old "TAB:" and "PAG:", "EXT:", "DB:", "APP:",
// "METADATA:", "HOBT:", "FILE:", "ALLOCATION_UNIT:". Read in the process
// attribute `waitresource` and on the resource lines of trace flag 1204.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockgraph {

struct WaitResource {
  std::string prefix;   // as written, upper case: "KEY", "PAG", "TAB", ...
  std::string element;  // the deadlock graph element: "keylock", "pagelock", ...
  /// The identifying parts, named as the graph's attributes: dbid, hobtid,
  /// fileid, pageid, objid, lockPartition, plus "hash" (KEY), "slot" (RID),
  /// "subresource" (DB [BULK-OP-DB]) and "resource" (APP, METADATA, ...).
  std::vector<std::pair<std::string, std::string>> parts;
  std::string text;     // trimmed
};

/// Reads `text`; false (and *out untouched) when it has no known prefix.
/// Parts that do not have the documented shape are kept whole in "resource".
bool ParseWaitResource(std::string_view text, WaitResource* out);

}  // namespace lockgraph
