// libFuzzer entry point for ksched::fuzz::CelSelector (fuzz/targets.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ksched::fuzz::CelSelector(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
