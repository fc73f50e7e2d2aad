// MakePqxxSnapshotSource and MakeMariadbSnapshotSource (snapshot_source.h):
// the sources live in the server module (src/module/server_module.h, with
// libpqxx and MariaDB Connector/C); these open it and ask it for one.
#include <utility>

#include "module/server_module.h"
#include "watch/dsn.h"
#include "watch/snapshot_source.h"

namespace lockgraph {
namespace {

// What watch gets when the module cannot be opened: every poll fails with
// the reason (`watch` asks ServerModuleAvailable first and stops there).
class UnavailableSource : public SnapshotSource {
 public:
  UnavailableSource(const std::string& dsn, std::string error)
      : label_(MaskDsn(dsn)), error_(std::move(error)) {}
  std::string label() const override { return label_; }
  Result Poll() override {
    Result r;
    r.status = Result::Status::kConnectFailed;
    r.error = error_;
    return r;
  }

 private:
  std::string label_, error_;
};

std::unique_ptr<SnapshotSource> Make(const char* entry, const std::string& dsn,
                                     const PollSettings& settings) {
  using New = SnapshotSource* (*)(const std::string*, const PollSettings*);
  std::string error;
  auto make = reinterpret_cast<New>(ServerModuleSymbol(entry, &error));
  if (!make) return std::make_unique<UnavailableSource>(dsn, error);
  return std::unique_ptr<SnapshotSource>(make(&dsn, &settings));
}

}  // namespace

std::unique_ptr<SnapshotSource> MakePqxxSnapshotSource(const std::string& dsn,
                                                       const PollSettings& settings) {
  return Make("lockgraph_new_pqxx_source", dsn, settings);
}

std::unique_ptr<SnapshotSource> MakeMariadbSnapshotSource(const std::string& uri,
                                                          const PollSettings& settings) {
  return Make("lockgraph_new_mariadb_source", uri, settings);
}

bool ServerModuleAvailable(std::string* error) {
  return ServerModuleSymbol("lockgraph_new_pqxx_source", error) &&
         ServerModuleSymbol("lockgraph_new_mariadb_source", error);
}

bool IsMysqlUri(const std::string& dsn) {
  return dsn.rfind("mysql://", 0) == 0 || dsn.rfind("mariadb://", 0) == 0;
}

}  // namespace lockgraph
