#include "live/engine_choice.h"

#include <fmt/format.h>

namespace ksched::live {

namespace {

std::string ServerName(const client::ServerApis& apis) {
  return apis.git_version.empty() ? "(version unknown)" : apis.git_version;
}

}  // namespace

EngineChoice ChooseEngineForServer(const client::ServerApis& apis) {
  const int minor = client::ServerMinorVersion(apis.git_version);
  if (apis.Serves("resource.k8s.io", "v1")) {
    return {"v1.35",
            fmt::format("the API server ({}) serves resource.k8s.io/v1", ServerName(apis))};
  }
  if (minor >= 0 && minor < 18) {
    return {"v1.15", fmt::format("the API server ({}) predates the APIs the v1.26 framework reads "
                                 "(storage.k8s.io/v1 CSINodes and CSIDrivers)",
                                 ServerName(apis))};
  }
  return {"v1.26", fmt::format("the API server ({}) serves storage.k8s.io/v1 CSINodes and "
                               "CSIDrivers but not resource.k8s.io/v1",
                               ServerName(apis))};
}

std::string NewerServerWarning(const client::ServerApis& apis, const std::string& engine_version) {
  const int server = client::ServerMinorVersion(apis.git_version);
  const int engine = client::ServerMinorVersion(engine_version + ".0");
  if (server < 0 || engine < 0 || server <= engine) return "";
  return fmt::format(
      "the API server ({}) is newer than the {} engine: scheduling as kube-scheduler {} would, "
      "which may not know what the newer release adds",
      apis.git_version, engine_version, engine_version);
}

}  // namespace ksched::live
