#include "config/version.h"

namespace ksched::config {

std::string_view SchedulerVersionName(SchedulerVersion v) {
  switch (v) {
    case SchedulerVersion::kV126:
      return "v1.26";
    case SchedulerVersion::kV135:
      return "v1.35";
  }
  return "v1.26";
}

std::optional<SchedulerVersion> ParseSchedulerVersion(std::string_view s) {
  if (!s.empty() && s.front() == 'v') s.remove_prefix(1);
  if (s == "1.26") return SchedulerVersion::kV126;
  if (s == "1.35") return SchedulerVersion::kV135;
  return std::nullopt;
}

}  // namespace ksched::config
