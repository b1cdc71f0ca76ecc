#include "framework/status.h"

namespace ksched::framework {

std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kSuccess: return "Success";
    case Code::kError: return "Error";
    case Code::kUnschedulable: return "Unschedulable";
    case Code::kUnschedulableAndUnresolvable: return "UnschedulableAndUnresolvable";
    case Code::kWait: return "Wait";
    case Code::kSkip: return "Skip";
  }
  return "Unknown";
}

std::string Status::Message() const {
  std::string out;
  for (size_t i = 0; i < reasons_.size(); ++i) {
    if (i) out += ", ";
    out += reasons_[i];
  }
  return out;
}

}  // namespace ksched::framework
