#include <fmt/format.h>

#include "explain/cause.h"

namespace ksched::explain {

namespace {

constexpr std::pair<int64_t, const char*> kByteUnits[] = {{int64_t{1} << 40, "Ti"},
                                                          {int64_t{1} << 30, "Gi"},
                                                          {int64_t{1} << 20, "Mi"},
                                                          {int64_t{1} << 10, "Ki"}};

bool IsByteResource(std::string_view resource) {
  return resource == "memory" || resource == "ephemeral-storage" ||
         resource.substr(0, 10) == "hugepages-";
}

}  // namespace

std::string FormatAmount(std::string_view resource, int64_t amount) {
  if (resource == "cpu") {
    if (amount % 1000 == 0) return std::to_string(amount / 1000);
    return std::to_string(amount) + "m";
  }
  if (IsByteResource(resource)) {
    for (const auto& [size, suffix] : kByteUnits) {
      if (amount != 0 && amount % size == 0) return std::to_string(amount / size) + suffix;
    }
  }
  return std::to_string(amount);
}

std::vector<std::string> FormatAmountsAlike(std::string_view resource,
                                            const std::vector<int64_t>& amounts) {
  std::vector<std::string> out;
  out.reserve(amounts.size());
  if (!IsByteResource(resource)) {
    for (int64_t a : amounts) out.push_back(FormatAmount(resource, a));
    return out;
  }
  const char* suffix = "";
  int64_t unit = 1;
  for (const auto& [size, s] : kByteUnits) {
    bool exact = false;
    bool all = true;
    for (int64_t a : amounts) {
      if (a == 0) continue;
      exact = true;
      all = all && a % size == 0;
    }
    if (exact && all) {
      unit = size;
      suffix = s;
      break;
    }
  }
  for (int64_t a : amounts) out.push_back(a == 0 ? "0" : std::to_string(a / unit) + suffix);
  return out;
}

std::string FormatTaint(const Taint& taint) {
  std::string out(Str(taint.key));
  if (taint.value != kEmptyStr) out += "=" + std::string(Str(taint.value));
  return out + ":" + taint.effect_str;
}

std::string FormatRequirement(const SelectorRequirement& r) {
  std::string out = r.key + " " + r.op;
  if (!r.values.empty()) out += " (" + fmt::format("{}", fmt::join(r.values, ",")) + ")";
  return out;
}

std::string FormatLabelSelector(const std::optional<LabelSelector>& s) {
  if (!s) return "<none>";
  std::vector<std::string> parts;
  for (const auto& [k, v] : s->match_labels) parts.push_back(k + "=" + v);
  for (const SelectorRequirement& r : s->match_expressions) parts.push_back(FormatRequirement(r));
  if (parts.empty()) return "<all>";
  return fmt::format("{}", fmt::join(parts, ","));
}

std::string NodeLabelValue(const Labels& labels, std::string_view key) {
  StrId k = FindInterned(key);
  std::optional<StrId> v = k == kNoStr ? std::nullopt : labels.Get(k);
  if (!v) return fmt::format("no label {}", key);
  return fmt::format("{}={}", key, Str(*v));
}

std::string JoinLimited(const std::vector<std::string>& names, size_t limit) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > limit) out += fmt::format(" and {} more", names.size() - limit);
  return out;
}

}  // namespace ksched::explain
