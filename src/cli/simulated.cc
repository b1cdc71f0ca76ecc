#include "cli/simulated.h"

#include "config/feature_gates.h"

namespace ksched {

Simulated SimulatedBy(const Engine& engine) {
  return Simulated{std::string(engine.version()), engine.changed_feature_gates()};
}

Simulated SimulatedBy(const SchedulerFlags& flags) {
  Simulated s{std::string(flags.EngineVersion()), {}};
  if (flags.framework()) {
    if (auto gates = flags.FrameworkGates(); gates.ok())
      s.gates = config::NonDefaultFeatureGates(*gates);
  }
  return s;
}

std::string SimulatedText(const Simulated& s) {
  std::string text = "kube-scheduler " + s.version;
  if (s.gates.empty()) return text + ", default feature gates";
  text += ", feature gates ";
  for (size_t i = 0; i < s.gates.size(); ++i)
    text += (i ? "," : "") + s.gates[i].first + "=" + (s.gates[i].second ? "true" : "false");
  return text;
}

std::string SimulatedLine(const Simulated& s) { return "# " + SimulatedText(s); }

void AddSimulated(nlohmann::ordered_json* object, const Simulated& s) {
  (*object)["schedulerVersion"] = s.version;
  nlohmann::ordered_json gates = nlohmann::ordered_json::object();
  for (const auto& [name, on] : s.gates) gates[name] = on;
  (*object)["featureGates"] = std::move(gates);
}

void WriteSimulatedFields(DocumentWriter* w, const Simulated& s) {
  w->Key("schedulerVersion");
  w->String(s.version);
  w->Key("featureGates");
  w->BeginObject();
  for (const auto& [name, on] : s.gates) {
    w->Key(name);
    w->Literal(on ? "true" : "false");
  }
  w->EndObject();
}

}  // namespace ksched
