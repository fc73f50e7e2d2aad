// See target_scan.h.
#include "follow/target_scan.h"

#include <dirent.h>
#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <set>
#include <utility>

namespace lockgraph {
namespace {

std::string Dirname(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool IsDir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void AddIfRegular(const std::string& path, std::vector<std::pair<int64_t, std::string>>* out) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  out->push_back({static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, path});
}

}  // namespace

bool IsGlob(const std::string& target) {
  return target.find_first_of("*?[") != std::string::npos;
}

std::vector<std::string> ExpandTargets(const std::vector<std::string>& targets) {
  std::vector<std::pair<int64_t, std::string>> found;
  for (const std::string& t : targets) {
    if (IsGlob(t)) {
      glob_t g{};
      if (glob(t.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) AddIfRegular(g.gl_pathv[i], &found);
      globfree(&g);
    } else if (IsDir(t)) {
      DIR* dir = opendir(t.c_str());
      if (!dir) continue;
      const std::string base = t.back() == '/' ? t : t + "/";
      while (const dirent* e = readdir(dir))
        if (e->d_name[0] != '.') AddIfRegular(base + e->d_name, &found);
      closedir(dir);
    } else {
      AddIfRegular(t, &found);
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> paths;
  std::set<std::string> seen;
  for (auto& [mtime, path] : found)
    if (seen.insert(path).second) paths.push_back(std::move(path));
  return paths;
}

std::vector<std::string> FoldersToWatch(const std::vector<std::string>& targets) {
  std::vector<std::string> folders;
  for (const std::string& t : targets) {
    std::string folder;
    if (IsGlob(t)) {
      folder = Dirname(t.substr(0, t.find_first_of("*?[")) + "x");
      if (IsGlob(folder)) continue;  // a wildcard folder: the poll interval covers it
    } else {
      folder = IsDir(t) ? t : Dirname(t);
    }
    if (std::find(folders.begin(), folders.end(), folder) == folders.end())
      folders.push_back(folder);
  }
  return folders;
}

}  // namespace lockgraph
