// See server_module.h.
#include "module/server_module.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <mutex>
#include <vector>

namespace lockgraph {
namespace {

// The directory of the running binary, from /proc/self/exe ("" when unknown).
std::string BinaryDirectory() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return "";
  const std::string exe(path, static_cast<size_t>(n));
  const size_t slash = exe.rfind('/');
  return slash == std::string::npos ? "" : exe.substr(0, slash);
}

struct Module {
  void* handle = nullptr;
  std::string error;  // why it could not be opened
};

const Module& Opened() {
  static Module module;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string dir = BinaryDirectory();
    const std::vector<std::string> candidates = {
        dir + "/" + kServerModuleName, dir + "/../lib/lockgraph/" + kServerModuleName};
    std::string reasons;
    for (const std::string& path : candidates) {
      if (access(path.c_str(), F_OK) != 0) continue;
      // RTLD_NOW: a symbol the binary lacks is an error now, not a crash
      // in the middle of a poll. Never closed.
      module.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (module.handle) return;
      const char* why = dlerror();
      reasons += "; " + path + ": " + (why ? why : "cannot be opened");
    }
    module.error = "cannot open the server module " + std::string(kServerModuleName) +
                   " (looked for " + candidates[0] + " and " + candidates[1] + reasons +
                   "): it holds the connections to servers and the /metrics server";
  });
  return module;
}

}  // namespace

void* ServerModuleSymbol(const char* name, std::string* error) {
  // A sanitizer build links the server code into the binary itself.
  if (void* own = dlsym(RTLD_DEFAULT, name)) return own;
  const Module& module = Opened();
  if (!module.handle) {
    if (error) *error = module.error;
    return nullptr;
  }
  void* symbol = dlsym(module.handle, name);
  if (!symbol && error)
    *error = "the server module " + std::string(kServerModuleName) + " lacks " + name +
             " (a module of another build?)";
  return symbol;
}

}  // namespace lockgraph
