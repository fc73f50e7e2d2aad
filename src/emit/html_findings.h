// HTML pieces shared by the sections of the report: rule findings with
// their hints and a link to the rule's page (#rule-PG001), where an event
// came from, and who ran it. All log text goes through HtmlText.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// A <ul class="findings"> of `findings`; nothing when there are none.
void WriteFindingsHtml(const std::vector<Finding>& findings, std::ostream& out);

/// A link to a rule's page in the report: <a href="#rule-PG001">PG001</a>.
std::string RuleLink(const std::string& rule_id);

/// "file:12-20", escaped.
std::string WhereHtml(const SourceSpan& source);

/// "file:12-20" and, when the event names its server (several servers'
/// logs), "<br>server NAME", escaped.
std::string WhereHtml(const Event& event);

/// "user@db, app name, from host", escaped; empty when nothing is known.
std::string WhoHtml(const SessionInfo& session);

/// "12.3 ms"
std::string MsText(double ms);

}  // namespace lockgraph
