// The plug-in point for framings: a frame that another tool (docker compose,
// kubectl, grep, journald's neighbours, CloudWatch, Heroku's logplex, an
// RFC 5424 syslog relay) wrote around each PostgreSQL log line. A framing is
// not a format: it takes the frame off and a FramedParser hands the inner
// line to an inner format (stderr, csvlog, jsonlog, syslog). A framing is one
// file and one line in RegisterBuiltinFramings() (parsers/framing/registry.cc).
// Design and the list: docs/postgresql.md#framings.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph {

/// One input line with its frame taken off. Views point into the input line
/// or into the stripper's own buffer; they stay valid until the next Strip.
struct StrippedLine {
  enum class Kind {
    kLine,     // a framed line: `inner` goes to the stream's inner parser
    kSkip,     // a line of the framing itself (grep's "--"): `reason` says why
    kNoFrame,  // the line carries no frame of this framing
  };
  Kind kind = Kind::kNoFrame;
  std::string_view inner;
  /// Which stream the line belongs to ("db-1", "pod/pg-0/postgres", a file
  /// name of grep -H); lines of different streams never share an inner
  /// parser. Empty: the input's only stream.
  std::string_view stream;
  /// What the frame says about the server process, when it says it
  /// (Heroku's `app[postgres.PID]`): used when the inner line lacks it.
  std::optional<int64_t> pid;
  std::string_view time;
  std::string_view reason;  // kSkip
};

/// Takes frames off the lines of one input, in order. May keep state
/// between lines (grep's file names, RFC 6587 octet counts). Not
/// thread-safe; one per input.
class FrameStripper {
 public:
  virtual ~FrameStripper() = default;
  /// `line` has no '\n' (a trailing '\r' is kept).
  virtual void Strip(std::string_view line, StrippedLine* out) = 0;
};

class Framing {
 public:
  virtual ~Framing() = default;
  /// Stable short name shown in the report ("docker-compose", "heroku").
  virtual std::string Name() const = 0;
  /// One line for --help and docs: the shape of a framed line.
  virtual std::string Description() const = 0;
  /// A fresh stripper for one input. `head` holds the first lines of that
  /// input (the same lines Strip will see first), for framings that must
  /// learn something before the first line (grep's file names).
  virtual std::unique_ptr<FrameStripper> NewStripper(
      const std::vector<std::string>& head) const = 0;
  /// log_line_prefixes the platform behind this frame is known to use,
  /// tried on the inner lines before prefix detection. Default: none.
  virtual std::vector<std::string> InnerPrefixes() const { return {}; }
  /// True when the frame alone is weak evidence (grep's `name:` fits much
  /// application output): the inner lines must then fit a real
  /// log_line_prefix, not stderr's catch-all `%*`. Default: false.
  virtual bool Weak() const { return false; }
  /// What a stream is, which decides the server its events name
  /// (docs/postgresql.md#servers). Default: kServer.
  enum class StreamKind {
    kServer,   // a compose service, a pod, a syslog host: named as it is
    kFile,     // grep -H: the file's log series (io/log_series.h)
    kProcess,  // Heroku's app[postgres]: says nothing of which server
  };
  virtual StreamKind Streams() const { return StreamKind::kServer; }
};

/// The builtin framings, most specific first (the order breaks ties).
std::vector<std::unique_ptr<Framing>> RegisterBuiltinFramings();

std::unique_ptr<Framing> MakeDockerComposeFraming();
std::unique_ptr<Framing> MakeKubectlFraming();
std::unique_ptr<Framing> MakeDockerTimestampsFraming();
std::unique_ptr<Framing> MakeCloudWatchFraming();
std::unique_ptr<Framing> MakeHerokuFraming();
std::unique_ptr<Framing> MakeRfc5424Framing();
std::unique_ptr<Framing> MakeGrepFraming();

}  // namespace lockgraph
