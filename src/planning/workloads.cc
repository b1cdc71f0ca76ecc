#include "planning/workloads.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "api/decode.h"
#include "api/pod_strategy.h"
#include "api/pod_template_digest.h"
#include "api/unknown_fields.h"
#include "api/yaml_to_json.h"
#include "labels/label_selector.h"
#include "labels/validation.h"

namespace ksched::planning {
namespace {

using WorkloadJson = nlohmann::json;

// upstream's k8s.io/apimachinery/pkg/util/rand alphabet (no vowels, no
// look-alike digits), used for generated names and hashes.
constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";

// The 5-character suffix a controller's generateName gives, deterministic:
// copy n spelt in base 27 over kAlphabet.
std::string Suffix(int64_t n) {
  std::string s(5, kAlphabet[0]);
  uint64_t v = static_cast<uint64_t>(n);
  for (int i = 4; i >= 0 && v > 0; --i) {
    s[i] = kAlphabet[v % kAlphabet.size()];
    v /= kAlphabet.size();
  }
  // Past 27^5 copies keep names unique by appending the rest.
  if (v > 0) s += "-" + std::to_string(v);
  return s;
}

uint32_t Fnv32a(std::string_view data) {
  uint32_t h = 2166136261u;
  for (unsigned char c : data) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

struct Doc {
  const WorkloadJson* obj;
  std::string where;  // "document 2", "items[3]"
};

void Flatten(const WorkloadJson& v, const std::string& where, std::vector<Doc>* out) {
  if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i) Flatten(v[i], fmt::format("{}[{}]", where, i), out);
    return;
  }
  if (v.is_object()) {
    auto kind = v.find("kind");
    if (kind != v.end() && kind->is_string()) {
      const std::string& k = kind->get_ref<const std::string&>();
      if (k.size() >= 4 && k.compare(k.size() - 4, 4, "List") == 0) {
        auto items = v.find("items");
        if (items != v.end() && items->is_array()) {
          for (size_t i = 0; i < items->size(); ++i) {
            Flatten((*items)[i], fmt::format("{}{}items[{}]", where, where.empty() ? "" : ".", i),
                    out);
          }
        }
        return;
      }
    }
  }
  out->push_back({&v, where});
}

std::string Join(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  return std::string(a) + ": " + std::string(b);
}

// Decodes one object through the snapshot decoder, so its rules and
// messages apply unchanged.
Result<ObjectSet> DecodeOne(const WorkloadJson& obj, std::string_view context) {
  ObjectSet set;
  std::string text = obj.dump();
  if (Status s = DecodeObjects(text, context, &set); !s.ok()) return s.error();
  return set;
}

// spec.replicas or spec.parallelism: absent (or null) is nullopt; any other
// value than an integer is an error, as the API server's decoding makes it
// (`replicas: "10"` does not mean ten).
Result<std::optional<int64_t>> IntField(const WorkloadJson& obj, const char* a, const char* b) {
  auto s = obj.find(a);
  if (s == obj.end() || !s->is_object()) return std::optional<int64_t>();
  auto v = s->find(b);
  if (v == s->end() || v->is_null()) return std::optional<int64_t>();
  if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<uint64_t>() > INT32_MAX)) {
    const char* type = v->is_string()            ? "string"
                       : v->is_boolean()         ? "bool"
                       : v->is_number_float()    ? "number"
                       : v->is_number_unsigned() ? "number"
                       : v->is_object()          ? "object"
                                                 : "array";
    return MakeError(fmt::format("{}.{}: expected an int32, got {} {}", a, b, type, v->dump()));
  }
  return std::optional<int64_t>(v->get<int64_t>());
}

// The unknown fields of a whole workload object (its template included),
// as the snapshot decoder notes them (api/decode.h).
void NoteUnknownFields(const WorkloadJson& obj, std::string_view kind, std::string_view file,
                       const std::string& object, std::vector<FieldNote>* notes) {
  if (notes == nullptr || !HasFieldTable(kind)) return;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(obj.dump()).get(root) != simdjson::SUCCESS) return;
  std::vector<FoundField> found;
  FindUnknownFields(root, kind, &found, [](std::string_view, std::string_view) { return false; });
  for (FoundField& f : found) {
    if (f.what != FieldFinding::What::kUnknown) continue;
    FieldNote n;
    n.file.assign(file);
    n.kind.assign(kind);
    n.object = object;
    n.finding = std::move(static_cast<FieldFinding&>(f));
    notes->push_back(std::move(n));
  }
}

Status CheckSelects(const labels::Selector& selector, const Labels& template_labels,
                    std::string_view at, std::string_view label, const Labels* shown = nullptr);

// CheckSelects for the selector of each decoded set (a set without one
// selects nothing, which no template matches).
// `shown`: the labels to print, when they differ from those matched (a
// Deployment's pods also carry the pod-template-hash of its selector).
Status CheckWorkloadSelector(const std::vector<ReplicaSet>& sets, const Labels& template_labels,
                             std::string_view at, std::string_view label,
                             const Labels* shown = nullptr) {
  for (const ReplicaSet& rs : sets) {
    if (!rs.selector) {
      return MakeError(Join(at, fmt::format("{}: spec.selector: Required value", label)));
    }
    auto sel = labels::FromLabelSelector(rs.selector);
    if (!sel.ok())
      return MakeError(Join(at, fmt::format("{}: spec.selector: {}", label, sel.error().message)));
    if (sel->Empty()) {
      std::string kind(label.substr(0, label.find(' ')));
      for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return MakeError(Join(at, fmt::format("{}: spec.selector: Invalid value: {{}}: empty "
                                            "selector is invalid for {}",
                                            label, kind)));
    }
    if (Status s = CheckSelects(*sel, template_labels, at, label, shown); !s.ok()) return s;
  }
  return Status::Ok();
}

// The API server's rule for a controller: its selector must select the
// pods of its template.
Status CheckSelects(const labels::Selector& selector, const Labels& template_labels,
                    std::string_view at, std::string_view label, const Labels* shown_labels) {
  if (selector.Matches(template_labels)) return Status::Ok();
  std::string shown;
  for (const auto& [k, v] : shown_labels != nullptr ? *shown_labels : template_labels)
    shown += fmt::format("{}\"{}\":\"{}\"", shown.empty() ? "" : ",", Str(k), Str(v));
  return MakeError(Join(
      at, fmt::format("{}: spec.template.metadata.labels: Invalid value: {{{}}}: `selector` does "
                      "not match template `labels`",
                      label, shown)));
}

const WorkloadJson* Find(const WorkloadJson& obj, std::initializer_list<const char*> path) {
  const WorkloadJson* cur = &obj;
  for (const char* p : path) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(p);
    if (it == cur->end() || it->is_null()) return nullptr;
    cur = &*it;
  }
  return cur;
}

// What the API server's validation of the controller object rejects beyond
// its selector (checked by CheckWorkloadSelector): an apps/v1 Deployment
// needs a selector; a Deployment's strategy type is Recreate or
// RollingUpdate (rollingUpdate only with the latter); a Job's pods restart
// OnFailure or Never (the pod default, Always, is refused).
Status CheckControllerSpec(const WorkloadJson& obj, WorkloadKind kind, const Pod& pod,
                           std::string_view at, std::string_view label) {
  auto fail = [&](const std::string& what) { return MakeError(Join(at, Join(label, what))); };
  if (kind == WorkloadKind::kDeployment) {
    const WorkloadJson* version = Find(obj, {"apiVersion"});
    if (version != nullptr && version->is_string() && version->get<std::string>() == "apps/v1" &&
        Find(obj, {"spec", "selector"}) == nullptr) {
      return fail("spec.selector: Required value");
    }
    const WorkloadJson* type = Find(obj, {"spec", "strategy", "type"});
    if (type != nullptr && type->is_string()) {
      const std::string t = type->get<std::string>();
      if (t != "Recreate" && t != "RollingUpdate") {
        return fail(
            fmt::format("spec.strategy.type: Unsupported value: \"{}\": supported "
                        "values: \"Recreate\", \"RollingUpdate\"",
                        t));
      }
      if (t == "Recreate" && Find(obj, {"spec", "strategy", "rollingUpdate"}) != nullptr) {
        return fail(
            "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` "
            "is 'Recreate'");
      }
    }
  }
  if (kind == WorkloadKind::kJob) {
    const std::string& rp = pod.spec.restart_policy.empty() ? "Always" : pod.spec.restart_policy;
    if (rp != "OnFailure" && rp != "Never") {
      return fail(
          fmt::format("spec.template.spec.restartPolicy: Unsupported value: \"{}\": "
                      "supported values: \"OnFailure\", \"Never\"",
                      rp));
    }
  }
  return Status::Ok();
}

bool IsWorkloadKind(std::string_view kind) {
  return kind == "Pod" || kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" ||
         kind == "ReplicationController" || kind == "Job";
}

Result<Workload> DecodeWorkload(const WorkloadJson& obj, std::string_view file,
                                const std::string& where, const WorkloadArg& arg,
                                std::vector<FieldNote>* notes, const WorkloadFileOptions& options) {
  const std::string kind = obj.is_object() && obj.contains("kind") && obj["kind"].is_string()
                               ? obj["kind"].get<std::string>()
                               : "";
  const std::string at = Join(file, where);
  Workload w;
  w.file = std::string(file);
  if (kind == "Pod") {
    w.kind = WorkloadKind::kPod;
  } else if (kind == "Deployment") {
    w.kind = WorkloadKind::kDeployment;
  } else if (kind == "ReplicaSet") {
    w.kind = WorkloadKind::kReplicaSet;
  } else if (kind == "StatefulSet") {
    w.kind = WorkloadKind::kStatefulSet;
  } else if (kind == "ReplicationController") {
    w.kind = WorkloadKind::kReplicationController;
  } else if (kind == "Job") {
    w.kind = WorkloadKind::kJob;
  } else {
    return MakeError(Join(at, fmt::format("kind {}: not a workload capacity can place (Pod, "
                                          "Deployment, ReplicaSet, StatefulSet, "
                                          "ReplicationController or Job)",
                                          kind.empty() ? "missing" : "\"" + kind + "\"")));
  }
  const WorkloadJson* meta = Find(obj, {"metadata"});
  const WorkloadJson* name = meta ? Find(*meta, {"name"}) : nullptr;
  if (name == nullptr || !name->is_string() || name->get<std::string>().empty()) {
    return MakeError(Join(at, kind + ": metadata.name: missing"));
  }
  w.name = name->get<std::string>();
  const WorkloadJson* ns_field = Find(*meta, {"namespace"});
  std::string ns = ns_field && ns_field->is_string() ? ns_field->get<std::string>() : "";
  if (ns.empty()) {
    ns = options.ns.empty() ? "default" : options.ns;
  } else if (!options.ns.empty() && ns != options.ns) {
    // kubectl's words for the same mismatch.
    return MakeError(Join(at, fmt::format("{} {}: the namespace from the provided object \"{}\" "
                                          "does not match the namespace \"{}\". You must pass "
                                          "'--namespace={}' to perform this operation.",
                                          kind, w.name, ns, options.ns, ns)));
  }
  w.ns = Intern(ns);
  const std::string label = fmt::format("{} {}/{}", kind, ns, w.name);

  if (w.kind == WorkloadKind::kPod) {
    auto set = DecodeOne(obj, at);
    if (!set.ok()) return set.error();
    if (set->pods.size() != 1) return MakeError(Join(at, label + ": expected one Pod"));
    w.pod = std::move(set->pods[0]);
    w.pod.meta.ns = w.ns;  // -n's namespace when the pod names none
    w.pod.spec.node_name.clear();
    w.pod.nominated_node_name.clear();
    w.prefix = w.name + "-";
    if (notes != nullptr) {
      for (FieldNote& n : set->field_notes) notes->push_back(std::move(n));
    }
  } else {
    const WorkloadJson* tmpl = Find(obj, {"spec", "template"});
    if (tmpl == nullptr || !tmpl->is_object()) {
      return MakeError(Join(at, label + ": spec.template: missing"));
    }
    WorkloadJson pod = WorkloadJson::object();
    pod["apiVersion"] = "v1";
    pod["kind"] = "Pod";
    WorkloadJson pmeta = WorkloadJson::object();
    if (const WorkloadJson* m = Find(*tmpl, {"metadata"}); m != nullptr && m->is_object())
      pmeta = *m;
    pmeta["name"] = w.name;
    pmeta["namespace"] = ns;
    pmeta.erase("ownerReferences");
    pod["metadata"] = pmeta;
    if (const WorkloadJson* spec = Find(*tmpl, {"spec"})) pod["spec"] = *spec;
    auto set = DecodeOne(pod, Join(at, label + ": spec.template"));
    if (!set.ok()) return set.error();
    if (set->pods.size() != 1) return MakeError(Join(at, label + ": spec.template: not a pod"));
    w.pod = std::move(set->pods[0]);
    w.pod.spec.node_name.clear();
    w.pod.meta.owner_references.clear();
    // Unknown fields of the whole object, template included; the
    // template's fields newer than the engine as the pod's.
    NoteUnknownFields(obj, kind, file, ns + "/" + w.name, notes);
    if (notes != nullptr) {
      for (FieldNote& n : set->field_notes)
        if (n.skew >= 0) notes->push_back(std::move(n));
    }
    const Labels template_labels = w.pod.meta.labels;
    if (Status st = CheckControllerSpec(obj, w.kind, w.pod, at, label); !st.ok()) return st.error();

    // The workload's uid, or one made up for this run.
    std::string uid;
    if (const WorkloadJson* u = Find(*meta, {"uid"}); u && u->is_string())
      uid = u->get<std::string>();
    if (uid.empty()) uid = fmt::format("ksched-planning-{}-{}-{}", kind, ns, w.name);
    const uint32_t hash = Fnv32a(tmpl->dump());
    const std::string hash_text = SafeEncodeHash(hash);

    OwnerReference owner;
    owner.controller = true;
    switch (w.kind) {
      case WorkloadKind::kDeployment: {
        const std::string rs_name = w.name + "-" + hash_text;
        const std::string rs_uid = uid + "-" + hash_text;
        w.pod.meta.labels.Set(Intern("pod-template-hash"), Intern(hash_text));
        // The ReplicaSet the Deployment controller creates: the template's
        // labels and the Deployment's selector, each with the hash added.
        WorkloadJson rs = WorkloadJson::object();
        rs["apiVersion"] = "apps/v1";
        rs["kind"] = "ReplicaSet";
        WorkloadJson rmeta = WorkloadJson::object();
        rmeta["name"] = rs_name;
        rmeta["namespace"] = ns;
        rmeta["uid"] = rs_uid;
        WorkloadJson selector = WorkloadJson::object();
        if (const WorkloadJson* s = Find(obj, {"spec", "selector"}); s && s->is_object()) {
          selector = *s;
        } else if (const WorkloadJson* l = Find(*tmpl, {"metadata", "labels"});
                   l && l->is_object()) {
          selector["matchLabels"] = *l;  // extensions/v1beta1 defaulting
        }
        if (!selector.contains("matchLabels") || !selector["matchLabels"].is_object())
          selector["matchLabels"] = WorkloadJson::object();
        selector["matchLabels"]["pod-template-hash"] = hash_text;
        rs["metadata"] = rmeta;
        rs["spec"] = WorkloadJson{{"selector", selector}};
        auto set = DecodeOne(rs, Join(at, label + " (its ReplicaSet " + rs_name + ")"));
        if (!set.ok()) return set.error();
        w.replica_sets = std::move(set->replica_sets);
        if (Status st = CheckWorkloadSelector(w.replica_sets, w.pod.meta.labels, at, label,
                                              &template_labels);
            !st.ok())
          return st.error();
        owner.api_version = "apps/v1";
        owner.kind = "ReplicaSet";
        owner.name = rs_name;
        owner.uid = rs_uid;
        w.prefix = rs_name + "-";
        {
          simdjson::dom::parser parser;
          simdjson::dom::element t;
          if (parser.parse(tmpl->dump()).get(t) == simdjson::SUCCESS)
            w.template_digest = PodTemplateDigest(t);
        }
        break;
      }
      case WorkloadKind::kReplicaSet:
      case WorkloadKind::kStatefulSet:
      case WorkloadKind::kReplicationController: {
        WorkloadJson copy = obj;
        copy["metadata"]["namespace"] = ns;
        copy["metadata"]["uid"] = uid;
        if (w.kind == WorkloadKind::kReplicationController) {
          // An RC without a selector selects its template's labels (API
          // defaulting).
          const WorkloadJson* sel = Find(obj, {"spec", "selector"});
          if (sel == nullptr || (sel->is_object() && sel->empty())) {
            if (const WorkloadJson* l = Find(*tmpl, {"metadata", "labels"}); l && l->is_object())
              copy["spec"]["selector"] = *l;
          }
        }
        auto set = DecodeOne(copy, at);
        if (!set.ok()) return set.error();
        w.replica_sets = std::move(set->replica_sets);
        w.stateful_sets = std::move(set->stateful_sets);
        w.replication_controllers = std::move(set->replication_controllers);
        if (Status st = CheckWorkloadSelector(w.replica_sets, template_labels, at, label); !st.ok())
          return st.error();
        if (Status st = CheckWorkloadSelector(w.stateful_sets, template_labels, at, label);
            !st.ok())
          return st.error();
        for (const ReplicationController& rc : w.replication_controllers) {
          if (rc.has_selector && !rc.selector.empty() &&
              !template_labels.ContainsAll(rc.selector)) {
            return CheckSelects(labels::Selector::Nothing(), template_labels, at, label).error();
          }
        }
        owner.api_version = w.kind == WorkloadKind::kReplicationController ? "v1" : "apps/v1";
        owner.kind = kind;
        owner.name = w.name;
        owner.uid = uid;
        if (w.kind == WorkloadKind::kStatefulSet) {
          w.pod.meta.labels.Set(Intern("controller-revision-hash"),
                                Intern(w.name + "-" + hash_text));
        }
        w.prefix = w.name + "-";
        break;
      }
      case WorkloadKind::kJob:
        if (const WorkloadJson* manual = Find(obj, {"spec", "manualSelector"});
            manual != nullptr && manual->is_boolean() && manual->get<bool>()) {
          // A Job's own selector (else the controller-uid one the API
          // server generates).
          WorkloadJson rs = WorkloadJson::object();
          rs["apiVersion"] = "apps/v1";
          rs["kind"] = "ReplicaSet";
          rs["metadata"] = WorkloadJson{{"name", w.name}, {"namespace", ns}};
          if (const WorkloadJson* sel = Find(obj, {"spec", "selector"}))
            rs["spec"] = WorkloadJson{{"selector", *sel}};
          auto set = DecodeOne(rs, at);
          if (!set.ok()) return set.error();
          if (Status st = CheckWorkloadSelector(set->replica_sets, template_labels, at, label);
              !st.ok())
            return st.error();
        }
        w.pod.meta.labels.Set(Intern("controller-uid"), Intern(uid));
        w.pod.meta.labels.Set(Intern("job-name"), Intern(w.name));
        owner.api_version = "batch/v1";
        owner.kind = "Job";
        owner.name = w.name;
        owner.uid = uid;
        w.prefix = w.name + "-";
        break;
      case WorkloadKind::kPod:
        break;
    }
    w.pod.meta.owner_references.push_back(owner);
    auto count = IntField(obj, "spec", w.kind == WorkloadKind::kJob ? "parallelism" : "replicas");
    if (!count.ok()) return MakeError(Join(at, label + ": " + count.error().message));
    w.count = *count;
    if (w.count && *w.count < 0) {
      return MakeError(
          Join(at, label + fmt::format(": spec.{}: must not be negative, got {}",
                                       w.kind == WorkloadKind::kJob ? "parallelism" : "replicas",
                                       *w.count)));
    }
  }
  if (arg.count) w.count = arg.count;
  if (arg.fill) w.count.reset();
  return w;
}

}  // namespace

std::string_view KindName(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kPod:
      return "Pod";
    case WorkloadKind::kDeployment:
      return "Deployment";
    case WorkloadKind::kReplicaSet:
      return "ReplicaSet";
    case WorkloadKind::kStatefulSet:
      return "StatefulSet";
    case WorkloadKind::kReplicationController:
      return "ReplicationController";
    case WorkloadKind::kJob:
      return "Job";
  }
  return "?";
}

std::string SafeEncodeHash(uint32_t hash) {
  std::string digits = std::to_string(hash);
  for (char& c : digits) c = kAlphabet[static_cast<unsigned char>(c) % kAlphabet.size()];
  return digits;
}

Result<WorkloadArg> ParseWorkloadArg(const std::string& arg) {
  WorkloadArg out;
  out.file = arg;
  size_t eq = arg.rfind('=');
  if (eq == std::string::npos || eq == 0) return out;
  std::string tail = arg.substr(eq + 1);
  if (tail == "max") {
    out.file = arg.substr(0, eq);
    out.fill = true;
    return out;
  }
  if (tail.empty() || tail.find_first_not_of("0123456789") != std::string::npos) return out;
  std::optional<int64_t> n = labels::ParseInt64(tail);
  if (!n || *n < 1) {
    return MakeError(
        fmt::format("--pod {}: the count after '=' must be a whole number from 1 "
                    "to 2^63-1, or max (got \"{}\")",
                    arg, tail));
  }
  out.file = arg.substr(0, eq);
  out.count = *n;
  return out;
}

std::string Workload::Label() const {
  return fmt::format("{} {}/{}", KindName(kind), Str(ns), name);
}

std::string Workload::Key() const { return fmt::format("{}/{}", Str(ns), name); }

std::string Workload::CopyName(int64_t n) const {
  switch (kind) {
    case WorkloadKind::kPod:
      return prefix + std::to_string(n + 1);
    case WorkloadKind::kStatefulSet:
      return prefix + std::to_string(n);
    default:
      return prefix + Suffix(n);
  }
}

Pod Workload::MakeCopy(int64_t n, const std::string& copy_name) const {
  Pod p = pod;
  p.meta.name = copy_name;
  p.meta.uid = fmt::format("ksched-planning/{}/{}/{}", Key(), KindName(kind), n);
  if (kind == WorkloadKind::kStatefulSet) {
    p.meta.labels.Set(Intern("statefulset.kubernetes.io/pod-name"), Intern(copy_name));
  }
  // After the labels: the merge reads this copy's values.
  if (create_as) PreparePodForCreate(&p, *create_as);
  return p;
}

Result<std::vector<Workload>> DecodeWorkloads(std::string_view text, std::string_view file,
                                              const WorkloadArg& arg, std::vector<FieldNote>* notes,
                                              const WorkloadFileOptions& options) {
  std::vector<WorkloadJson> docs;
  std::vector<std::string> doc_names;
  try {
    if (LooksLikeJson(text)) {
      docs.push_back(WorkloadJson::parse(text));
      doc_names.emplace_back();
    } else {
      auto converted = YamlDocumentsToJson(text, file);
      if (!converted.ok()) return converted.error();
      for (size_t i = 0; i < converted->size(); ++i) {
        docs.push_back(WorkloadJson::parse((*converted)[i]));
        doc_names.push_back(converted->size() > 1 ? fmt::format("document {}", i + 1) : "");
      }
    }
  } catch (const WorkloadJson::exception& e) {
    return MakeError(Join(file, std::string("not valid JSON: ") + e.what()));
  }
  std::vector<Doc> flat;
  for (size_t i = 0; i < docs.size(); ++i) Flatten(docs[i], doc_names[i], &flat);
  std::vector<Workload> out;
  for (const Doc& d : flat) {
    // A document of nothing but comments or `---` (Helm renders have them).
    if (d.obj->is_null()) continue;
    if (options.skipped != nullptr && d.obj->is_object()) {
      const WorkloadJson* kind = Find(*d.obj, {"kind"});
      if (kind != nullptr && kind->is_string() && !kind->get<std::string>().empty() &&
          !IsWorkloadKind(kind->get<std::string>())) {
        const WorkloadJson* name = Find(*d.obj, {"metadata", "name"});
        const WorkloadJson* ns = Find(*d.obj, {"metadata", "namespace"});
        std::string who = kind->get<std::string>();
        if (name != nullptr && name->is_string()) {
          who += " ";
          if (ns != nullptr && ns->is_string() && !ns->get<std::string>().empty())
            who += ns->get<std::string>() + "/";
          who += name->get<std::string>();
        }
        options.skipped->push_back(std::move(who));
        continue;
      }
    }
    auto w = DecodeWorkload(*d.obj, file, d.where, arg, notes, options);
    if (!w.ok()) return w.error();
    out.push_back(std::move(w).value());
  }
  if (out.empty()) {
    if (options.skipped != nullptr && !options.skipped->empty()) {
      std::string names;
      for (size_t i = 0; i < options.skipped->size() && i < 5; ++i)
        names += (i ? ", " : "") + (*options.skipped)[i];
      if (options.skipped->size() > 5)
        names += fmt::format(" and {} more", options.skipped->size() - 5);
      return MakeError(Join(file, fmt::format("{}: not a workload capacity can place (Pod, "
                                              "Deployment, ReplicaSet, StatefulSet, "
                                              "ReplicationController or Job), and the file "
                                              "holds no workload",
                                              names)));
    }
    return MakeError(Join(file, "no workload (expected a Pod, Deployment, ...)"));
  }
  return out;
}

Result<std::vector<Workload>> LoadWorkloads(const WorkloadArg& arg, std::vector<FieldNote>* notes,
                                            const WorkloadFileOptions& options) {
  auto f = PaddedFile::Load(arg.file);
  if (!f.ok()) return f.error();
  return DecodeWorkloads(f->view(), arg.file == "-" ? "<stdin>" : arg.file, arg, notes, options);
}

void UseCurrentReplicaSets(const std::vector<ReplicaSet>& existing,
                           std::vector<Workload>* workloads) {
  const StrId hash_key = Intern("pod-template-hash");
  for (Workload& w : *workloads) {
    if (w.kind != WorkloadKind::kDeployment || w.template_digest == 0) continue;
    for (const ReplicaSet& rs : existing) {
      if (rs.meta.ns != w.ns || rs.template_digest != w.template_digest) continue;
      bool controlled = false;
      for (const OwnerReference& o : rs.meta.owner_references)
        controlled = controlled || (o.controller && o.kind == "Deployment" && o.name == w.name);
      std::optional<StrId> hash = rs.meta.labels.Get(hash_key);
      if (!controlled || !hash) continue;
      w.pod.meta.labels.Set(hash_key, *hash);
      for (OwnerReference& o : w.pod.meta.owner_references) {
        if (!o.controller) continue;
        o.name = rs.meta.name;
        o.uid = rs.meta.uid;
      }
      w.prefix = rs.meta.name + "-";
      w.replica_sets.clear();  // the snapshot has it
      w.current_replica_set = rs.meta.name;
      break;
    }
  }
}

void AddWorkloadObjects(const std::vector<Workload>& workloads, ObjectSet* objects) {
  for (const Workload& w : workloads) {
    for (const ReplicaSet& rs : w.replica_sets) objects->replica_sets.push_back(rs);
    for (const StatefulSet& ss : w.stateful_sets) objects->stateful_sets.push_back(ss);
    for (const ReplicationController& rc : w.replication_controllers)
      objects->replication_controllers.push_back(rc);
  }
}

}  // namespace ksched::planning
