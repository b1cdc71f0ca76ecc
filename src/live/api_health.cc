#include "live/api_health.h"

namespace ksched::live {

void ApiHealth::OnError(client::Resource resource, const Error& error) {
  const bool blocking = Blocking(error);
  std::string message = error.message;
  bool log = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    any_.store(true);
    if (blocking) problems_[resource] = message;
    std::string& last = last_logged_[resource];
    if (last != message) {
      last = message;
      log = true;
    }
  }
  if (log && log_ != nullptr) {
    log_(blocking ? 'E' : 'W',
         blocking ? "cannot read " + client::ResourceName(resource) +
                        " (nothing is scheduled until ksched can list and watch it): " + message
                  : message);
  }
}

void ApiHealth::OnEvent(client::Resource resource) {
  if (!any_.load(std::memory_order_relaxed)) return;
  bool recovered = false;
  std::string what;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (problems_.erase(resource) != 0) {
      recovered = true;
      what = client::ResourceName(resource);
    }
    last_logged_.erase(resource);
    if (problems_.empty() && last_logged_.empty()) any_.store(false);
  }
  if (recovered && log_ != nullptr) log_('I', what + " can be read again");
}

void ApiHealth::SetProblem(client::Resource resource, const std::string& message) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    any_.store(true);
    problems_[resource] = message;
    last_logged_[resource] = message;
  }
  if (log_ != nullptr) log_('E', message);
}

std::vector<std::string> ApiHealth::Problems() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [r, m] : problems_) out.push_back(m);
  return out;
}

}  // namespace ksched::live
