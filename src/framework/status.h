// framework.Status: the outcome of running one plugin, as upstream's
// pkg/scheduler/framework/interface.go defines it.
//
// A Status is a value: a code, the reasons a user reads (in order, upstream's
// exact strings) and the plugin that produced it. Success carries nothing and
// costs nothing to copy.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ksched::framework {

enum class Code : uint8_t {
  kSuccess,
  kError,
  kUnschedulable,
  kUnschedulableAndUnresolvable,
  kWait,
  kSkip,
};

// Upstream's names ("Success", "Error", ...).
std::string_view CodeName(Code code);

class Status {
 public:
  Status() = default;  // Success
  explicit Status(Code code, std::vector<std::string> reasons = {})
      : code_(code), reasons_(std::move(reasons)) {}
  Status(Code code, std::string reason) : code_(code), reasons_{std::move(reason)} {}

  static Status Success() { return Status(); }
  static Status Error(std::string message) { return Status(Code::kError, std::move(message)); }
  static Status Unschedulable(std::string reason) {
    return Status(Code::kUnschedulable, std::move(reason));
  }
  static Status Unresolvable(std::string reason) {
    return Status(Code::kUnschedulableAndUnresolvable, std::move(reason));
  }

  Code code() const { return code_; }
  bool IsSuccess() const { return code_ == Code::kSuccess; }
  bool IsError() const { return code_ == Code::kError; }
  bool IsSkip() const { return code_ == Code::kSkip; }
  bool IsWait() const { return code_ == Code::kWait; }
  // Unschedulable or UnschedulableAndUnresolvable.
  bool IsUnschedulable() const {
    return code_ == Code::kUnschedulable || code_ == Code::kUnschedulableAndUnresolvable;
  }

  const std::vector<std::string>& reasons() const { return reasons_; }
  void AppendReason(std::string reason) { reasons_.push_back(std::move(reason)); }
  // Upstream's Status.Message(): the reasons joined with ", ".
  std::string Message() const;

  // The plugin that returned this status (set by the runtime).
  const std::string& failed_plugin() const { return failed_plugin_; }
  Status& WithFailedPlugin(std::string plugin) {
    failed_plugin_ = std::move(plugin);
    return *this;
  }

 private:
  Code code_ = Code::kSuccess;
  std::vector<std::string> reasons_;
  std::string failed_plugin_;
};

}  // namespace ksched::framework
