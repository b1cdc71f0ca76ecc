#include "live/prebind_api.h"

#include <nlohmann/json.hpp>

#include "api/decode.h"

namespace ksched::live {
namespace {

using nlohmann::json;

// Decodes one object the API server sent with `decode`.
template <typename T, typename Decode>
Result<std::optional<T>> DecodeReply(const Result<std::optional<std::string>>& reply,
                                     std::string_view what, Decode decode) {
  if (!reply.ok()) return reply.error();
  if (!*reply) return std::optional<T>();
  simdjson::dom::parser parser;
  auto doc = ParseJson(parser, **reply, what);
  if (!doc.ok()) return doc.error();
  Result<T> obj = decode(*doc, what);
  if (!obj.ok()) return obj.error();
  return std::optional<T>(std::move(*obj));
}

}  // namespace

std::string BindPersistentVolumePatch(std::string_view resource_version,
                                      const std::optional<framework::ClaimReference>& claim_ref,
                                      bool bound_by_controller) {
  json patch = {{"metadata", {{"resourceVersion", resource_version}}}};
  if (bound_by_controller)
    patch["metadata"]["annotations"] = {{"pv.kubernetes.io/bound-by-controller", "yes"}};
  if (claim_ref) {
    // The whole reference, as upstream's GetReference of the claim; a
    // fieldPath left from an earlier reference is removed.
    patch["spec"]["claimRef"] = {{"kind", "PersistentVolumeClaim"},
                                 {"apiVersion", "v1"},
                                 {"namespace", claim_ref->ns},
                                 {"name", claim_ref->name},
                                 {"uid", claim_ref->uid},
                                 {"resourceVersion", claim_ref->resource_version},
                                 {"fieldPath", nullptr}};
    if (claim_ref->uid.empty()) patch["spec"]["claimRef"]["uid"] = nullptr;
    if (claim_ref->resource_version.empty()) patch["spec"]["claimRef"]["resourceVersion"] = nullptr;
  }
  return patch.dump();
}

std::string SelectedNodePatch(std::string_view resource_version, std::string_view node) {
  json patch = {{"metadata",
                 {{"resourceVersion", resource_version},
                  {"annotations", {{"volume.kubernetes.io/selected-node", node}}}}}};
  return patch.dump();
}

Status ClientPreBindApi::BindPersistentVolume(
    std::string_view name, std::string_view resource_version,
    const std::optional<framework::ClaimReference>& claim_ref, bool bound_by_controller) {
  return c_->PatchPersistentVolume(
      name, BindPersistentVolumePatch(resource_version, claim_ref, bound_by_controller));
}

Status ClientPreBindApi::SetSelectedNode(std::string_view ns, std::string_view name,
                                         std::string_view resource_version, std::string_view node) {
  return c_->PatchPersistentVolumeClaim(ns, name, SelectedNodePatch(resource_version, node));
}

Result<std::optional<PersistentVolume>> ClientPreBindApi::GetPersistentVolume(
    std::string_view name) {
  return DecodeReply<PersistentVolume>(
      c_->GetPersistentVolume(name), "GET persistentvolumes",
      [](simdjson::dom::element e, std::string_view f) { return DecodePersistentVolume(e, f); });
}

Result<std::optional<PersistentVolumeClaim>> ClientPreBindApi::GetPersistentVolumeClaim(
    std::string_view ns, std::string_view name) {
  return DecodeReply<PersistentVolumeClaim>(c_->GetPersistentVolumeClaim(ns, name),
                                            "GET persistentvolumeclaims",
                                            [](simdjson::dom::element e, std::string_view f) {
                                              return DecodePersistentVolumeClaim(e, f);
                                            });
}

Result<bool> ClientPreBindApi::PodExists(std::string_view ns, std::string_view name) {
  auto pod = c_->GetPod(ns, name);
  if (pod.ok()) return true;
  if (client::IsNotFound(pod.error())) return false;
  return pod.error();
}

}  // namespace ksched::live
