// The explicit list of output formats.
#include "emit/emitter.h"

namespace lockgraph {

std::vector<std::unique_ptr<Emitter>> RegisterBuiltinEmitters() {
  std::vector<std::unique_ptr<Emitter>> emitters;
  emitters.push_back(MakeTextEmitter());
  emitters.push_back(MakeJsonEmitter());
  emitters.push_back(MakeNdjsonEmitter());
  emitters.push_back(MakeDotEmitter());
  emitters.push_back(MakeSarifEmitter());
  emitters.push_back(MakeJunitEmitter());
  emitters.push_back(MakeGithubEmitter());
  emitters.push_back(MakeCodeQualityEmitter());
  emitters.push_back(MakeHtmlEmitter());
  emitters.push_back(MakePrometheusEmitter());
  return emitters;
}

}  // namespace lockgraph
