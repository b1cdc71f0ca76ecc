// framework.Status: the outcome of running one plugin, as upstream's
// pkg/scheduler/framework/interface.go defines it.
//
// A Status is a value: a code, the reasons a user reads (in order, upstream's
// exact strings) and the plugin that produced it. Success carries nothing and
// costs nothing to copy; copies of a failure share its reasons and plugin
// until one of them is changed (copy on write).
#pragma once

#include <memory>
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
  explicit Status(Code code, std::vector<std::string> reasons = {}) : code_(code) {
    if (!reasons.empty()) rep_ = std::make_shared<Rep>(Rep{std::move(reasons), {}});
  }
  Status(Code code, std::string reason)
      : code_(code), rep_(std::make_shared<Rep>(Rep{{std::move(reason)}, {}})) {}

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

  const std::vector<std::string>& reasons() const { return rep_ ? rep_->reasons : NoReasons(); }
  void AppendReason(std::string reason) { Own().reasons.push_back(std::move(reason)); }
  // Upstream's Status.Message(): the reasons joined with ", ".
  std::string Message() const;

  // Whether `other` is a copy of this failure (same code, shared reasons).
  bool SharesReasonsWith(const Status& other) const {
    return rep_ != nullptr && rep_ == other.rep_ && code_ == other.code_;
  }

  // The plugin that returned this status (set by the runtime).
  const std::string& failed_plugin() const { return rep_ ? rep_->failed_plugin : NoPlugin(); }
  Status& WithFailedPlugin(std::string plugin) {
    if (!rep_ && plugin.empty()) return *this;
    Own().failed_plugin = std::move(plugin);
    return *this;
  }

 private:
  // Reasons and plugin, shared by copies until one of them changes (a
  // failing node's status is copied from kept ones, thousands per cycle).
  struct Rep {
    std::vector<std::string> reasons;
    std::string failed_plugin;
  };
  static const std::vector<std::string>& NoReasons();
  static const std::string& NoPlugin();
  Rep& Own() {
    if (!rep_) {
      rep_ = std::make_shared<Rep>();
    } else if (rep_.use_count() > 1) {
      rep_ = std::make_shared<Rep>(*rep_);
    }
    return *rep_;
  }

  Code code_ = Code::kSuccess;
  std::shared_ptr<Rep> rep_;
};

}  // namespace ksched::framework
