// See follow_state.h.
#include "follow/follow_state.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lockgraph {
namespace {

using Json = nlohmann::ordered_json;

Json IdToJson(const FileId& id) { return {{"dev", id.dev}, {"ino", id.ino}}; }
FileId IdFromJson(const Json& j) { return {j.at("dev").get<uint64_t>(), j.at("ino").get<uint64_t>()}; }

std::string Dirname(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string StateToJson(const FollowState& state) {
  Json files = Json::array();
  for (const FileState& f : state.files) {
    files.push_back({{"path", f.path},
                     {"id", IdToJson(f.id)},
                     {"offset", f.offset},
                     {"lines", f.lines},
                     {"events", f.events},
                     {"head", {{"len", f.head.len}, {"hash", f.head.hash}}},
                     {"finished", f.finished},
                     {"skipped", f.skipped}});
  }
  Json j = {{"version", 1},
            {"files", files},
            {"output",
             {{"path", state.output.path},
              {"id", IdToJson(state.output.id)},
              {"size", state.output.size}}}};
  return j.dump(2) + "\n";
}

bool StateFromJson(const std::string& text, FollowState* state, std::string* error) {
  try {
    const Json j = Json::parse(text);
    if (j.at("version").get<int>() != 1) {
      *error = "unknown state version " + j.at("version").dump();
      return false;
    }
    FollowState s;
    for (const Json& f : j.at("files")) {
      FileState fs;
      fs.path = f.at("path").get<std::string>();
      fs.id = IdFromJson(f.at("id"));
      fs.offset = f.at("offset").get<uint64_t>();
      fs.lines = f.at("lines").get<uint64_t>();
      fs.events = f.at("events").get<uint64_t>();
      fs.head = {f.at("head").at("len").get<uint64_t>(), f.at("head").at("hash").get<uint64_t>()};
      fs.finished = f.at("finished").get<bool>();
      fs.skipped = f.at("skipped").get<bool>();
      s.files.push_back(std::move(fs));
    }
    const Json& o = j.at("output");
    s.output = {o.at("path").get<std::string>(), IdFromJson(o.at("id")),
                o.at("size").get<uint64_t>()};
    *state = std::move(s);
    return true;
  } catch (const nlohmann::json::exception& e) {
    *error = std::string("malformed state: ") + e.what();
    return false;
  }
}

bool LoadState(const std::string& path, FollowState* state, bool* existed, std::string* error) {
  *state = FollowState();
  std::ifstream in(path, std::ios::binary);
  *existed = static_cast<bool>(in);
  if (!in) {
    if (errno == ENOENT) return true;
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  if (!StateFromJson(text.str(), state, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

bool SaveState(const std::string& path, const FollowState& state, std::string* error) {
  const std::string tmp = path + ".tmp";
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = tmp + ": " + std::strerror(errno);
    return false;
  }
  const bool ok = WriteAll(fd, StateToJson(state)) && fsync(fd) == 0;
  const int saved_errno = errno;
  close(fd);
  if (!ok || rename(tmp.c_str(), path.c_str()) != 0) {
    *error = path + ": " + std::strerror(ok ? errno : saved_errno);
    unlink(tmp.c_str());
    return false;
  }
  const int dir = open(Dirname(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {  // the rename itself survives a crash
    fsync(dir);
    close(dir);
  }
  return true;
}

}  // namespace lockgraph
