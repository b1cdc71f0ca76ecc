#include "config/load.h"

#include <string>

#include "config/decode.h"
#include "config/defaults.h"
#include "config/validation.h"

namespace ksched::config {

Result<KubeSchedulerConfiguration> LoadConfiguration(std::string_view text,
                                                     std::string_view filename,
                                                     const FeatureGates& gates) {
  auto decoded = DecodeConfiguration(text, filename, gates.version);
  if (!decoded.ok()) return decoded.error();
  KubeSchedulerConfiguration cfg = SetDefaults(std::move(*decoded), gates);
  const std::string prefix = filename.empty() ? "" : std::string(filename) + ": ";
  ErrorList errs = ValidateKubeSchedulerConfiguration(cfg, gates);
  if (!errs.empty()) return MakeError(prefix + AggregateError(errs));
  Status built = ValidateFramework(cfg, gates);
  if (!built.ok()) return MakeError(prefix + built.error().message);
  return cfg;
}

KubeSchedulerConfiguration DefaultConfiguration(const FeatureGates& gates) {
  DecodedConfiguration empty;
  empty.api_version = std::string(kVersionV1);
  empty.config.api_version = empty.api_version;
  return SetDefaults(std::move(empty), gates);
}

}  // namespace ksched::config
