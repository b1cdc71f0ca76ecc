#include "framework/fit_error.h"

#include <algorithm>
#include <map>
#include <vector>

namespace ksched::framework {

std::string FitErrorMessage(size_t num_all_nodes, std::string_view prefilter_msg,
                            const NodeToStatusMap& statuses, std::string_view postfilter_msg) {
  std::string msg = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!prefilter_msg.empty()) {
    // A PreFilter rejection marks every node with the same status; the
    // histogram would only repeat it.
    msg += ' ';
    msg += prefilter_msg;
    msg += '.';
  } else {
    std::map<std::string_view, int> histogram;
    for (const NodeStatus& ns : statuses)
      for (const std::string& reason : ns.status.reasons()) ++histogram[reason];
    std::vector<std::string> entries;
    entries.reserve(histogram.size());
    for (const auto& [reason, count] : histogram)
      entries.push_back(std::to_string(count) + " " + std::string(reason));
    std::sort(entries.begin(), entries.end());
    if (!entries.empty()) {
      msg += ' ';
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i) msg += ", ";
        msg += entries[i];
      }
      msg += '.';
    }
  }
  if (!postfilter_msg.empty()) {
    msg += ' ';
    msg += postfilter_msg;
    msg += '.';
  }
  return msg;
}

}  // namespace ksched::framework
