// Streaming decompressors for LineReader: gzip (zlib), bzip2 (libbz2), xz
// (liblzma) and zstd (libzstd), chosen by the magic bytes at the start of an
// input, never by its name. Concatenated members, streams and frames
// (`cat a.gz b.gz`, `pbzip2`, `xz` multi-stream, `zstd` multi-frame) are
// decoded one after the other. See docs/postgresql.md#compressed-input.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace lockgraph {

/// One codec's streaming state. Not thread-safe; not copyable.
class Decoder {
 public:
  virtual ~Decoder() = default;
  /// "gzip", "bzip2", "xz" or "zstd".
  virtual const char* Name() const = 0;
  /// Decodes from [*in, *in + *in_len) into [*out, *out + *out_len) and
  /// advances both (one library call: it may consume or produce nothing).
  /// `at_eof`: no input follows what is given. Returns false and sets
  /// *error (without the file name) on corrupt data.
  virtual bool Decode(const unsigned char** in, size_t* in_len, unsigned char** out,
                      size_t* out_len, bool at_eof, std::string* error) = 0;
  /// True when the input given so far ends at a member, stream or frame
  /// boundary (or is empty), i.e. the input is not cut inside compressed
  /// data. Meaningful after a Decode with at_eof that produced nothing.
  virtual bool Complete() const = 0;
};

/// Number of leading bytes DecoderFor() needs to see.
constexpr size_t kMagicBytes = 6;

/// The decoder for an input starting with `head` (`n` bytes, fewer only at
/// end of input); nullptr when it is not compressed (or the library cannot
/// start, which *error then says).
std::unique_ptr<Decoder> DecoderFor(const unsigned char* head, size_t n, std::string* error);

}  // namespace lockgraph
