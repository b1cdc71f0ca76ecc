// The kube-scheduler v1 Policy file (kind: Policy, apiVersion: v1).
//
// Parsed from JSON or YAML into plain structs with upstream's field names and
// validated with upstream's rules (ValidatePolicy plus the checks that
// upstream's configurator makes while building the scheduler). A field that is
// absent and a field that is empty mean different things for `predicates` and
// `priorities`: absent takes that half from DefaultProvider, empty means none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/result.h"

namespace ksched {

struct PredicatePolicy {
  std::string name;
  // argument.serviceAffinity.labels
  std::optional<std::vector<std::string>> service_affinity_labels;
  // argument.labelsPresence
  std::optional<std::pair<std::vector<std::string>, bool>> labels_presence;
};

struct PriorityPolicy {
  std::string name;
  int64_t weight = 0;
  std::optional<std::string> service_anti_affinity_label;               // serviceAntiAffinity
  std::optional<std::pair<std::string, bool>> label_preference;         // labelPreference
  // requestedToCapacityRatioArguments.shape: (utilization, score) points
  std::optional<std::vector<std::pair<int64_t, int64_t>>> requested_to_capacity_ratio_shape;
};

struct ExtenderManagedResource {
  std::string name;
  bool ignored_by_scheduler = false;
};

struct ExtenderTlsConfig {
  bool insecure = false;
  std::string server_name;
  std::string cert_file, key_file, ca_file;
  std::string cert_data, key_data, ca_data;  // base64 in the file, decoded here
};

// Largest extender reply ksched reads: far above a filter reply that carries
// full Node objects for 15,000 nodes.
inline constexpr size_t kMaxExtenderReplyBytes = size_t{1} << 30;

struct ExtenderConfig {
  std::string url_prefix;
  std::string filter_verb;
  std::string preempt_verb;
  std::string prioritize_verb;
  std::string bind_verb;
  int64_t weight = 0;
  bool enable_https = false;
  std::optional<ExtenderTlsConfig> tls_config;
  int64_t http_timeout_ns = 0;  // time.Duration; 0 means upstream's default (5 s)
  bool node_cache_capable = false;
  std::vector<ExtenderManagedResource> managed_resources;
  bool ignorable = false;
  // Not a Policy field: ksched's own bound on a reply body, so that a broken
  // or hostile extender cannot exhaust memory (upstream reads without limit).
  size_t max_reply_bytes = kMaxExtenderReplyBytes;
};

struct Policy {
  std::optional<std::vector<PredicatePolicy>> predicates;  // nullopt: key absent
  std::optional<std::vector<PriorityPolicy>> priorities;   // nullopt: key absent
  std::vector<ExtenderConfig> extenders;
  int32_t hard_pod_affinity_symmetric_weight = 0;  // 0: not set
  bool always_check_all_predicates = false;
};

// Parses a Policy from JSON or YAML text and validates it. `filename` is
// used in messages only.
Result<Policy> ParsePolicy(std::string_view text, std::string_view filename);
Result<Policy> LoadPolicyFile(const std::string& path);

// Upstream's ValidatePolicy: weights, extender weights, managed resources,
// at most one binder. Returns all problems joined, as upstream aggregates.
Status ValidatePolicy(const Policy& policy);

}  // namespace ksched
