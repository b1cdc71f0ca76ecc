// Small pieces shared by the volume predicates (NoDiskConflict, the volume
// count limits, NoVolumeZoneConflict, CheckVolumeBinding): storage-class
// lookup rules, zone label parsing, the CSI limit key and Go's sort.Sort.
//
// They are separate from the predicates so that each rule can be unit-tested
// on its own, and so that the predicates agree on details such as which
// annotation wins over spec.storageClassName.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "util/go_quote.h"

namespace ksched::volume {

// Annotations and constants the v1.15 volume code looks at.
inline constexpr std::string_view kBetaStorageClassAnnotation =
    "volume.beta.kubernetes.io/storage-class";
inline constexpr std::string_view kBindCompletedAnnotation = "pv.kubernetes.io/bind-completed";
inline constexpr std::string_view kSelectedNodeAnnotation = "volume.kubernetes.io/selected-node";
inline constexpr std::string_view kNoProvisioner = "kubernetes.io/no-provisioner";
inline constexpr std::string_view kWaitForFirstConsumer = "WaitForFirstConsumer";
inline constexpr std::string_view kVolumeAvailablePhase = "Available";
inline constexpr std::string_view kZoneLabel = "failure-domain.beta.kubernetes.io/zone";
inline constexpr std::string_view kRegionLabel = "failure-domain.beta.kubernetes.io/region";
inline constexpr std::string_view kInstanceTypeLabel = "beta.kubernetes.io/instance-type";

// v1helper.GetPersistentVolumeClaimClass: the beta annotation if present,
// else spec.storageClassName, else "".
std::string_view ClaimClass(const PersistentVolumeClaim& pvc);
// v1helper.GetPersistentVolumeClass: the beta annotation if present, else
// spec.storageClassName.
std::string_view VolumeClass(const PersistentVolume& pv);

// The storage class named by `pvc` (ClaimClass) has volumeBindingMode
// WaitForFirstConsumer. A claim without a class, or naming a class that does
// not exist, is not delayed (pvutil.IsDelayBindingMode).
bool IsDelayBinding(const PersistentVolumeClaim& pvc, const ClusterState& cluster);

// volumehelpers.LabelZonesToSet: splits a zone label value on "__" and trims
// each part. Returns false (and clears `zones`) when any part is empty, which
// upstream treats as an unparsable label.
bool LabelZonesToSet(std::string_view value, std::vector<std::string_view>* zones);

// getMaxEBSVolume's test: Go's regexp "^[cmr]5.*|t3|z1d", unanchored, i.e.
// the type starts with c5/m5/r5 or contains "t3" or "z1d" anywhere.
bool IsEbsNitroInstanceType(std::string_view instance_type);

// volumeutil.GetCSIAttachLimitKey: "attachable-volumes-csi-<driver>", or for
// long driver names the first 23 characters plus 16 hex digits of SHA-1.
std::string CsiAttachLimitKey(std::string_view driver);

// NoDiskConflict's isVolumeConflict: `v` (the incoming pod's) cannot be
// mounted beside `existing` (a pod's on the node). Defined in
// no_disk_conflict.cc.
bool DisksConflict(const Volume& v, const Volume& existing);

// Go's "%q" (util/go_quote.h).
using ::ksched::GoQuote;

// Go 1.12's sort.Sort (quicksort + heapsort fallback + shell/insertion sort
// for short runs). It is not stable, and upstream's outcome sometimes depends
// on how it orders equal elements, so it is reproduced step for step.
// `less(i, j)` and `swap(i, j)` take indices in [0, n).
template <typename Less, typename Swap>
void GoSort(size_t n, Less less, Swap swap);

// ------------------------------------------------------------ implementation

// Upstream v1.26's hasEnoughCapacity (volume binding) for a claim to be
// provisioned by `provisioner` with StorageClass `class_name` on `node`: no
// storage request, no CSIDriver or one that does not track capacity means
// room; otherwise some CSIStorageCapacity of the class (any namespace) must
// hold the request in its maximumVolumeSize (else its capacity) and select
// the node's labels with its nodeTopology.
// `*matched` (when given) is the capacity object that holds the claim, or
// nullptr when the driver tracks no capacity.
bool HasEnoughCapacity(const ClusterState& cluster, std::string_view provisioner,
                       const PersistentVolumeClaim& claim, std::string_view class_name,
                       const NodeInfo& node, const CSIStorageCapacity** matched = nullptr);

namespace go_sort_internal {

template <typename Less, typename Swap>
void InsertionSort(Less& less, Swap& swap, ptrdiff_t a, ptrdiff_t b) {
  for (ptrdiff_t i = a + 1; i < b; ++i) {
    for (ptrdiff_t j = i; j > a && less(j, j - 1); --j) swap(j, j - 1);
  }
}

template <typename Less, typename Swap>
void SiftDown(Less& less, Swap& swap, ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t first) {
  ptrdiff_t root = lo;
  while (true) {
    ptrdiff_t child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && less(first + child, first + child + 1)) ++child;
    if (!less(first + root, first + child)) return;
    swap(first + root, first + child);
    root = child;
  }
}

template <typename Less, typename Swap>
void HeapSort(Less& less, Swap& swap, ptrdiff_t a, ptrdiff_t b) {
  ptrdiff_t first = a, hi = b - a;
  for (ptrdiff_t i = (hi - 1) / 2; i >= 0; --i) SiftDown(less, swap, i, hi, first);
  for (ptrdiff_t i = hi - 1; i >= 0; --i) {
    swap(first, first + i);
    SiftDown(less, swap, 0, i, first);
  }
}

// Leaves the median of the three positions at m1 (with m0 <= m1 <= m2).
template <typename Less, typename Swap>
void MedianOfThree(Less& less, Swap& swap, ptrdiff_t m1, ptrdiff_t m0, ptrdiff_t m2) {
  if (less(m1, m0)) swap(m1, m0);
  if (less(m2, m1)) {
    swap(m2, m1);
    if (less(m1, m0)) swap(m1, m0);
  }
}

// Partitions [lo, hi) around a pivot; returns the bounds of the middle part.
template <typename Less, typename Swap>
std::pair<ptrdiff_t, ptrdiff_t> DoPivot(Less& less, Swap& swap, ptrdiff_t lo, ptrdiff_t hi) {
  ptrdiff_t m = lo + (hi - lo) / 2;
  if (hi - lo > 40) {
    ptrdiff_t s = (hi - lo) / 8;
    MedianOfThree(less, swap, lo, lo + s, lo + 2 * s);
    MedianOfThree(less, swap, m, m - s, m + s);
    MedianOfThree(less, swap, hi - 1, hi - 1 - s, hi - 1 - 2 * s);
  }
  MedianOfThree(less, swap, lo, m, hi - 1);

  const ptrdiff_t pivot = lo;
  ptrdiff_t a = lo + 1, c = hi - 1;
  while (a < c && less(a, pivot)) ++a;
  ptrdiff_t b = a;
  while (true) {
    while (b < c && !less(pivot, b)) ++b;
    while (b < c && less(pivot, c - 1)) --c;
    if (b >= c) break;
    swap(b, c - 1);
    ++b;
    --c;
  }
  bool protect = hi - c < 5;
  if (!protect && hi - c < (hi - lo) / 4) {
    int dups = 0;
    if (!less(pivot, hi - 1)) {
      swap(c, hi - 1);
      ++c;
      ++dups;
    }
    if (!less(b - 1, pivot)) {
      --b;
      ++dups;
    }
    if (!less(m, pivot)) {
      swap(m, b - 1);
      --b;
      ++dups;
    }
    protect = dups > 1;
  }
  if (protect) {
    while (true) {
      while (a < b && !less(b - 1, pivot)) --b;
      while (a < b && less(a, pivot)) ++a;
      if (a >= b) break;
      swap(a, b - 1);
      ++a;
      --b;
    }
  }
  swap(pivot, b - 1);
  return {b - 1, c};
}

template <typename Less, typename Swap>
void QuickSort(Less& less, Swap& swap, ptrdiff_t a, ptrdiff_t b, int max_depth) {
  while (b - a > 12) {
    if (max_depth == 0) {
      HeapSort(less, swap, a, b);
      return;
    }
    --max_depth;
    auto [mlo, mhi] = DoPivot(less, swap, a, b);
    if (mlo - a < b - mhi) {
      QuickSort(less, swap, a, mlo, max_depth);
      a = mhi;
    } else {
      QuickSort(less, swap, mhi, b, max_depth);
      b = mlo;
    }
  }
  if (b - a > 1) {
    // One shell-sort pass with gap 6, then insertion sort.
    for (ptrdiff_t i = a + 6; i < b; ++i) {
      if (less(i, i - 6)) swap(i, i - 6);
    }
    InsertionSort(less, swap, a, b);
  }
}

}  // namespace go_sort_internal

template <typename Less, typename Swap>
void GoSort(size_t n, Less less, Swap swap) {
  int depth = 0;
  for (size_t i = n; i > 0; i >>= 1) ++depth;
  go_sort_internal::QuickSort(less, swap, 0, static_cast<ptrdiff_t>(n), depth * 2);
}

}  // namespace ksched::volume
