#include "predicates/volume_util.h"

#include <openssl/evp.h>

#include "labels/label_selector.h"

namespace ksched::volume {

std::string_view ClaimClass(const PersistentVolumeClaim& pvc) {
  if (const std::string* a = pvc.meta.Annotation(kBetaStorageClassAnnotation)) return *a;
  if (pvc.storage_class_name) return *pvc.storage_class_name;
  return {};
}

std::string_view VolumeClass(const PersistentVolume& pv) {
  if (const std::string* a = pv.meta.Annotation(kBetaStorageClassAnnotation)) return *a;
  return pv.storage_class_name;
}

bool IsDelayBinding(const PersistentVolumeClaim& pvc, const ClusterState& cluster) {
  std::string_view cls = ClaimClass(pvc);
  if (cls.empty()) return false;
  const StorageClass* sc = cluster.FindStorageClass(cls);
  // The decoder fills an absent volumeBindingMode with "Immediate", so
  // upstream's "VolumeBindingMode not set" error cannot arise here.
  return sc != nullptr && sc->volume_binding_mode == kWaitForFirstConsumer;
}

namespace {

// Go's strings.TrimSpace, for the ASCII white space that can occur here.
std::string_view TrimSpace(std::string_view s) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

bool LabelZonesToSet(std::string_view value, std::vector<std::string_view>* zones) {
  static constexpr std::string_view kDelimiter = "__";
  zones->clear();
  size_t start = 0;
  while (true) {
    size_t end = value.find(kDelimiter, start);
    std::string_view part =
        TrimSpace(value.substr(start, end == std::string_view::npos ? end : end - start));
    if (part.empty()) {
      zones->clear();
      return false;
    }
    zones->push_back(part);
    if (end == std::string_view::npos) break;
    start = end + kDelimiter.size();
  }
  return true;
}

bool IsEbsNitroInstanceType(std::string_view t) {
  if (t.size() >= 2 && (t[0] == 'c' || t[0] == 'm' || t[0] == 'r') && t[1] == '5') return true;
  return t.find("t3") != std::string_view::npos || t.find("z1d") != std::string_view::npos;
}

std::string CsiAttachLimitKey(std::string_view driver) {
  static constexpr std::string_view kPrefix = "attachable-volumes-csi-";
  static constexpr size_t kResourceNameLengthLimit = 63;
  std::string key(kPrefix);
  if (kPrefix.size() + driver.size() < kResourceNameLengthLimit) {
    key += driver;
    return key;
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(driver.data(), driver.size(), digest, &len, EVP_sha1(), nullptr);
  key += driver.substr(0, 23);
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned int i = 0; i < 8 && i < len; ++i) {  // 8 bytes = 16 hex digits
    key += kHex[digest[i] >> 4];
    key += kHex[digest[i] & 0xf];
  }
  return key;
}

bool HasEnoughCapacity(const ClusterState& cluster, std::string_view provisioner,
                       const PersistentVolumeClaim& claim, std::string_view class_name,
                       const NodeInfo& node, const CSIStorageCapacity** matched) {
  if (matched != nullptr) *matched = nullptr;
  if (!claim.request) return true;
  const CSIDriver* driver = cluster.FindCSIDriver(provisioner);
  if (driver == nullptr || !driver->storage_capacity) return true;
  const int64_t size = claim.request->Value();
  for (const CSIStorageCapacity& c : cluster.csi_storage_capacities()) {
    if (c.storage_class_name != class_name) continue;
    const std::optional<Quantity>& limit =
        c.maximum_volume_size ? c.maximum_volume_size : c.capacity;
    if (!limit || limit->Value() < size) continue;
    if (!c.node_topology) continue;  // no topology: no node has access
    Result<labels::Selector> selector = labels::FromLabelSelector(&*c.node_topology);
    if (selector.ok() && selector->Matches(node.labels())) {
      if (matched != nullptr) *matched = &c;
      return true;
    }
  }
  return false;
}

}  // namespace ksched::volume
