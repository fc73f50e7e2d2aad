// Detecting a framing over the first lines of an input, and the LineParser
// that takes frames off and hands each stream's inner lines to its own inner
// parser (docs/postgresql.md#framings).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parsers/framing/framing.h"
#include "parsers/input_format.h"

namespace lockgraph {

/// What ChooseFraming found.
struct FramingChoice {
  const Framing* framing = nullptr;    // null: no framing fits
  const InputFormat* inner = nullptr;  // the format inside the frames
  std::string detected;  // the inner format's SniffResult::detected (a prefix)
  int score = 0;         // head lines that carry the frame
  std::string reason;    // why none fits (one line per framing tried)
};

/// Tries each framing on `head`. A framing fits when more than half of the
/// non-blank head lines carry its frame (TAB- or space-indented lines after a
/// framed line count as continuations, neither for nor against) and the inner
/// lines of at least one stream sniff as one of `inner_formats` (with
/// `options`). The best fit has the most framed lines, then the inner
/// format's highest score over its streams; ties go to the earlier framing.
FramingChoice ChooseFraming(const std::vector<std::unique_ptr<Framing>>& framings,
                            const std::vector<const InputFormat*>& inner_formats,
                            const std::vector<std::string>& head,
                            const ParseOptions& options);

/// A LineParser for input `file` (whose first lines are `head`, for the
/// stripper) that strips `framing`'s frames and feeds
/// one `inner` parser per stream (created with `options` and `detected`).
/// A stream is PostgreSQL once one of its first 200 inner lines sniffs as
/// `inner` (with `detected`); until then its lines are held. A stream that
/// never does is not PostgreSQL: its lines are counted as skipped, with a
/// note naming the stream. Every input line is counted once: parsed or not
/// understood by its stream's parser, skipped (grep's `--`, other streams),
/// or not understood here (no frame and not a continuation).
std::unique_ptr<LineParser> MakeFramedParser(const Framing& framing, const InputFormat& inner,
                                             const std::string& detected,
                                             const std::string& file,
                                             const ParseOptions& options,
                                             const std::vector<std::string>& head,
                                             ParseSink& sink);

}  // namespace lockgraph
