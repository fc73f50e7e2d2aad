// What `lockgraph follow` keeps of files: the state file (whole values,
// atomic save), file identity and the change seen between two looks, the
// head print that finds a copytruncate copy, the rotating output, and the
// files a FILE, DIR or GLOB target names.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "follow/file_identity.h"
#include "follow/follow_state.h"
#include "follow/output_file.h"
#include "follow/target_scan.h"
#include "support.h"

namespace lockgraph {
namespace {

namespace fs = std::filesystem;

/// A fresh, empty folder under the temporary directory.
std::string FreshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("lockgraph-follow-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void WriteText(const std::string& path, const std::string& text, bool append = false) {
  std::ofstream out(path, append ? std::ios::app | std::ios::binary : std::ios::binary);
  out << text;
}

FollowState SampleState() {
  FollowState s;
  s.files.push_back({"/var/log/postgresql/postgresql-2026-12-03_120000.log", {2049, 131075}, 8192,
                     120, 3, {4096, 0xfedcba9876543210ULL}, false, false});
  s.files.push_back({"/var/log/postgresql/old.log.gz", {2049, 7}, 0, 0, 0, {}, false, true});
  s.files.push_back({"/var/log/postgresql/postgresql.log.1", {2049, 9}, 100, 2, 1, {100, 42}, true,
                     false});
  s.output = {"/var/log/lockgraph/events.ndjson", {2050, 11}, 5000};
  return s;
}

TEST_CASE("follow state: JSON round trip keeps every field", "[follow]") {
  const FollowState s = SampleState();
  FollowState back;
  std::string error;
  REQUIRE(StateFromJson(StateToJson(s), &back, &error));
  CHECK(error.empty());
  CHECK(back == s);
  CHECK(StateToJson(s).find("\"version\": 1") != std::string::npos);
}

TEST_CASE("follow state: malformed or foreign text is refused with a reason", "[follow]") {
  FollowState back;
  std::string error;
  CHECK_FALSE(StateFromJson("{\"version\": 2, \"files\": []}", &back, &error));
  CHECK(error == "unknown state version 2");
  error.clear();
  CHECK_FALSE(StateFromJson("{\"version\": 1}", &back, &error));
  CHECK(error.rfind("malformed state: ", 0) == 0);
  error.clear();
  CHECK_FALSE(StateFromJson("not json", &back, &error));
  CHECK(error.rfind("malformed state: ", 0) == 0);
}

TEST_CASE("follow state: saved atomically, loaded back; a missing file is a first start",
          "[follow]") {
  const std::string dir = FreshDir("state");
  const std::string path = dir + "/state.json";
  FollowState loaded;
  bool existed = true;
  std::string error;
  REQUIRE(LoadState(path, &loaded, &existed, &error));
  CHECK_FALSE(existed);
  CHECK(loaded == FollowState());
  REQUIRE(SaveState(path, SampleState(), &error));
  CHECK_FALSE(fs::exists(path + ".tmp"));
  REQUIRE(LoadState(path, &loaded, &existed, &error));
  CHECK(existed);
  CHECK(loaded == SampleState());
  WriteText(path, "{\"version\": 1, \"files\": [");  // a torn write would look like this
  CHECK_FALSE(LoadState(path, &loaded, &existed, &error));
  CHECK(error.rfind(path + ": malformed state: ", 0) == 0);
  CHECK_FALSE(SaveState(dir + "/no/such/folder/state.json", SampleState(), &error));
  CHECK(error == dir + "/no/such/folder/state.json.tmp: No such file or directory");
}

TEST_CASE("file change: growth, copytruncate, rename and delete are told apart", "[follow]") {
  const FileId id{1, 10};
  FileStat by_fd{id, 500, 0, true};
  const FileStat same_path{id, 500, 0, true};
  const FileStat other_path{{1, 11}, 20, 0, true};
  CHECK(ClassifyChange(id, 500, by_fd, same_path) == FileChange::kSame);
  CHECK(ClassifyChange(id, 400, by_fd, same_path) == FileChange::kGrown);
  CHECK(ClassifyChange(id, 600, by_fd, same_path) == FileChange::kTruncated);
  CHECK(ClassifyChange(id, 400, by_fd, other_path) == FileChange::kMoved);   // logrotate create
  CHECK(ClassifyChange(id, 400, by_fd, std::nullopt) == FileChange::kMoved);  // deleted
  by_fd.size = 0;
  CHECK(ClassifyChange(id, 400, by_fd, other_path) == FileChange::kTruncated);
}

TEST_CASE("file identity: a copy has its own identity and the same head print", "[follow]") {
  const std::string dir = FreshDir("identity");
  WriteText(dir + "/a.log", std::string(5000, 'x') + "\n");
  fs::copy_file(dir + "/a.log", dir + "/a.log.1");
  WriteText(dir + "/b.log", "y\n");
  const int a = open((dir + "/a.log").c_str(), O_RDONLY);
  const int copy = open((dir + "/a.log.1").c_str(), O_RDONLY);
  const int b = open((dir + "/b.log").c_str(), O_RDONLY);
  const HeadPrint print = HeadPrintOf(a);
  CHECK(print.len == kHeadPrintBytes);
  CHECK(HeadMatches(copy, print));
  CHECK_FALSE(HeadMatches(b, print));
  CHECK(HeadPrintOf(b).len == 2);
  CHECK_FALSE(StatFd(a)->id == StatFd(copy)->id);
  CHECK(StatPath(dir + "/a.log")->id == StatFd(a)->id);
  CHECK(StatPath(dir + "/a.log")->size == 5001);
  CHECK_FALSE(StatPath(dir + "/none").has_value());
  CHECK_FALSE(LooksCompressed(a));
  close(a);
  close(copy);
  close(b);
  WriteText(dir + "/c.gz", std::string("\x1f\x8b\x08\x00", 4));
  const int gz = open((dir + "/c.gz").c_str(), O_RDONLY);
  CHECK(LooksCompressed(gz));
  close(gz);
}

TEST_CASE("output file: rotates by size keeping N, cuts back what a state did not save",
          "[follow]") {
  const std::string dir = FreshDir("output");
  const std::string path = dir + "/events.ndjson";
  std::string error;
  {
    OutputFile out(path, 20, 2);
    REQUIRE(out.Open(&error));
    for (const char* batch : {"{\"n\":1}\n{\"n\":2}\n", "{\"n\":3}\n", "{\"n\":4}\n", "{\"n\":5}\n"})
      REQUIRE(out.Write(batch, &error));
    CHECK(out.size() == 8);
  }
  CHECK(test::ReadFile(path) == "{\"n\":5}\n");
  CHECK(test::ReadFile(path + ".1") == "{\"n\":3}\n{\"n\":4}\n");
  CHECK(test::ReadFile(path + ".2") == "{\"n\":1}\n{\"n\":2}\n");
  CHECK_FALSE(fs::exists(path + ".3"));
  {  // a batch that passes the size is cut between two lines
    OutputFile out(path, 20, 2);
    REQUIRE(out.Open(&error));
    REQUIRE(out.Write("{\"n\":6}\n{\"n\":7}\n{\"n\":8}\n", &error));
  }
  CHECK(test::ReadFile(path) == "{\"n\":7}\n{\"n\":8}\n");
  CHECK(test::ReadFile(path + ".1") == "{\"n\":5}\n{\"n\":6}\n");
  CHECK(test::ReadFile(path + ".2") == "{\"n\":3}\n{\"n\":4}\n");
  {  // a crash after a rotation that followed the last save: FILE.1 and FILE cut back
    OutputFile out(path, 20, 2);
    REQUIRE(out.Open(&error));
    const FileId saved = out.id();
    REQUIRE(out.Write("{\"n\":9}\n", &error));
    OutputFile resumed(path, 20, 2);
    REQUIRE(resumed.Open(&error));
    CHECK(resumed.CutBackTo(saved, 8) == 16);
  }
  CHECK(test::ReadFile(path + ".1") == "{\"n\":7}\n");
  CHECK(test::ReadFile(path) == "");
  fs::remove(path + ".1");
  fs::remove(path + ".2");
  WriteText(path, "{\"n\":5}\n");
  OutputFile again(path, 0, 2);
  REQUIRE(again.Open(&error));
  REQUIRE(again.Write("{\"n\":6}\n", &error));
  CHECK(again.CutBackTo(FileId{1, 1}, 8) == 0);  // another file: left alone
  CHECK(again.CutBackTo(again.id(), 8) == 8);
  CHECK(again.CutBackTo(again.id(), 8) == 0);
  CHECK(test::ReadFile(path) == "{\"n\":5}\n");
}

TEST_CASE("output size: bytes, k, M, G; anything else refused", "[follow]") {
  uint64_t n = 0;
  CHECK((ParseByteSize("4096", &n) && n == 4096));
  CHECK((ParseByteSize("64k", &n) && n == 65536));
  CHECK((ParseByteSize("100M", &n) && n == 104857600));
  CHECK((ParseByteSize("1G", &n) && n == 1073741824));
  CHECK_FALSE(ParseByteSize("", &n));
  CHECK_FALSE(ParseByteSize("ten", &n));
  CHECK_FALSE(ParseByteSize("10 MB", &n));
}

TEST_CASE("targets: a DIR names its visible files, a GLOB its matches, oldest first", "[follow]") {
  const std::string dir = FreshDir("targets");
  WriteText(dir + "/postgresql-2026-12-03_120000.log", "a\n");
  WriteText(dir + "/postgresql-2026-12-03_130000.log", "b\n");
  WriteText(dir + "/postgresql.csv", "c\n");
  WriteText(dir + "/.hidden", "d\n");
  fs::create_directories(dir + "/sub");
  // Oldest first by modification time, whatever the names say.
  const auto t = fs::last_write_time(dir + "/postgresql.csv");
  fs::last_write_time(dir + "/postgresql-2026-12-03_130000.log", t + std::chrono::seconds(20));
  fs::last_write_time(dir + "/postgresql-2026-12-03_120000.log", t + std::chrono::seconds(10));
  CHECK(ExpandTargets({dir}) ==
        std::vector<std::string>{dir + "/postgresql.csv", dir + "/postgresql-2026-12-03_120000.log",
                                 dir + "/postgresql-2026-12-03_130000.log"});
  CHECK(ExpandTargets({dir + "/*.log", dir + "/postgresql-2026-12-03_120000.log"}) ==
        std::vector<std::string>{dir + "/postgresql-2026-12-03_120000.log",
                                 dir + "/postgresql-2026-12-03_130000.log"});
  CHECK(ExpandTargets({dir + "/not-yet.log"}).empty());
  CHECK(FoldersToWatch({dir, dir + "/*.log", dir + "/sub/x.log", "/var/*/pg/*.log"}) ==
        std::vector<std::string>{dir, dir + "/sub", "/var"});
  CHECK(IsGlob("/var/log/*.csv"));
  CHECK_FALSE(IsGlob("/var/log/postgresql"));
}

}  // namespace
}  // namespace lockgraph
