#include "framework/status.h"

namespace ksched::framework {

std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kSuccess:
      return "Success";
    case Code::kError:
      return "Error";
    case Code::kUnschedulable:
      return "Unschedulable";
    case Code::kUnschedulableAndUnresolvable:
      return "UnschedulableAndUnresolvable";
    case Code::kWait:
      return "Wait";
    case Code::kSkip:
      return "Skip";
  }
  return "Unknown";
}

const std::vector<std::string>& Status::NoReasons() {
  static const std::vector<std::string> kNone;
  return kNone;
}

const std::string& Status::NoPlugin() {
  static const std::string kNone;
  return kNone;
}

std::string Status::Message() const {
  const std::vector<std::string>& r = reasons();
  std::string out;
  for (size_t i = 0; i < r.size(); ++i) {
    if (i) out += ", ";
    out += r[i];
  }
  return out;
}

}  // namespace ksched::framework
