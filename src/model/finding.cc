// Names of finding severities, as every output format writes them.
#include "model/finding.h"

namespace lockgraph {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "note";
}

}  // namespace lockgraph
