// See replaced_file.h.
#include "io/replaced_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace lockgraph {

ReplacedFile::~ReplacedFile() {
  if (temp_.empty()) return;
  out_.close();
  std::remove(temp_.c_str());
}

bool ReplacedFile::Open(const std::string& path) {
  path_ = path;
  // A device, a pipe or a link (-o /dev/stdout, a named pipe, a link the
  // user keeps) is written in place: renaming over it would replace it.
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    out_.open(path, std::ios::binary | std::ios::trunc);
    return bool(out_);
  }
  // Hidden, and named after the output: a run killed before Commit (no
  // destructor runs on SIGKILL or an unhandled SIGINT) leaves it behind.
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string pattern = dir + "." + base + ".lockgraph-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) return false;
  close(fd);
  temp_ = name.data();
  out_.open(temp_, std::ios::binary | std::ios::trunc);
  return bool(out_);
}

bool ReplacedFile::Commit() {
  out_.close();
  bool ok = bool(out_);
  if (temp_.empty()) return ok;  // written in place
  if (ok) {
    const mode_t mask = umask(0);
    umask(mask);
    ok = chmod(temp_.c_str(), 0666 & ~mask) == 0 && std::rename(temp_.c_str(), path_.c_str()) == 0;
  }
  if (!ok) std::remove(temp_.c_str());
  temp_.clear();
  return ok;
}

}  // namespace lockgraph
