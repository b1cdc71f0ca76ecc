// The body of the cel fuzz target (fuzz/targets.h: CelSelector), in a
// header of its own so that a sanitizer build of src/cel alone can run it
// without building the rest of ksched.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "api/quantity.h"
#include "cel/device_selector.h"

namespace ksched::fuzz {

inline void CelSelectorBody(std::string_view data) {
  // Selectors are short; long inputs only slow the fuzzer down.
  if (data.size() > 4096) return;
  auto program = cel::CompileDeviceSelector(data, cel::Features{data.size() % 2 == 1});
  if (!program.ok()) {
    if (program.error().message.empty()) {
      std::fprintf(stderr, "fuzz invariant failed: empty compile error\n");
      std::abort();
    }
    return;
  }
  static const Quantity kMemory = *Quantity::Parse("80Gi");
  static const Quantity kCores = *Quantity::Parse("1500m");
  cel::DeviceAttributeValue model{cel::DeviceAttributeValue::Kind::kString, 0, false, "a100"};
  cel::DeviceAttributeValue version{cel::DeviceAttributeValue::Kind::kVersion, 0, false,
                                    "1.2.3-rc.1"};
  cel::DeviceAttributeValue healthy{cel::DeviceAttributeValue::Kind::kBool, 0, true, {}};
  cel::DeviceAttributeValue index{cel::DeviceAttributeValue::Kind::kInt, -7, false, {}};
  std::vector<cel::DeviceAttribute> attrs = {{"model", model},
                                             {"driverVersion", version},
                                             {"healthy", healthy},
                                             {"other.example.com/index", index}};
  std::vector<cel::DeviceCapacity> caps = {{"memory", &kMemory},
                                           {"other.example.com/cores", &kCores}};
  cel::DeviceView device;
  device.driver = "gpu.example.com";
  device.attributes = attrs;
  device.capacity = caps;
  uint64_t cost1 = 0, cost2 = 0;
  auto r1 = (*program)->Matches(device, &cost1);
  auto r2 = (*program)->Matches(device, &cost2);
  // Evaluation is deterministic and within the cost limit.
  bool same =
      r1.ok() == r2.ok() && (r1.ok() ? *r1 == *r2 : r1.error().message == r2.error().message);
  if (!same || cost1 != cost2) {
    std::fprintf(stderr, "fuzz invariant failed: evaluation not deterministic\n  %.*s\n",
                 static_cast<int>(data.size()), data.data());
    std::abort();
  }
  if (r1.ok() && cost1 > cel::kSelectorMaxCost) {
    std::fprintf(stderr, "fuzz invariant failed: cost %llu over the limit\n",
                 static_cast<unsigned long long>(cost1));
    std::abort();
  }
}

}  // namespace ksched::fuzz
