// A digest of a pod template (spec.template of a Deployment or of one of its
// ReplicaSets) that leaves out the pod-template-hash label, so that a
// Deployment's template and its current ReplicaSet's give the same value,
// as the Deployment controller finds its new ReplicaSet by comparing the
// two templates without that label.
//
// The digest is over the template as written (object keys sorted): two
// templates that differ only by API defaults (one hand-written, one read
// back from the API server) differ. `kubectl get` output of both objects
// compares equal.
#pragma once

#include <simdjson.h>

#include <cstdint>

namespace ksched {

// 0 when `tmpl` is not an object.
uint64_t PodTemplateDigest(simdjson::dom::element tmpl);

}  // namespace ksched
