// The explicit list of framings. Order breaks ties between framings that
// fit the same lines: the more specific frame first.
#include "parsers/framing/framing.h"

namespace lockgraph {

std::vector<std::unique_ptr<Framing>> RegisterBuiltinFramings() {
  std::vector<std::unique_ptr<Framing>> framings;
  framings.push_back(MakeHerokuFraming());
  framings.push_back(MakeRfc5424Framing());
  framings.push_back(MakeKubectlFraming());
  framings.push_back(MakeDockerComposeFraming());
  framings.push_back(MakeCloudWatchFraming());  // before docker: ties on 3 digits
  framings.push_back(MakeDockerTimestampsFraming());
  framings.push_back(MakeGrepFraming());
  return framings;
}

}  // namespace lockgraph
