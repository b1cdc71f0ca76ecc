// Micro-benchmarks of label selectors: parsing, matching compiled selectors
// against interned label sets, and LabelSelector -> Selector conversion.
//
// Matching runs over a population of 1024 distinct label sets (as a
// predicate walks many pods or nodes), not one set in a loop, so branch
// prediction and caches see a realistic mix of hits and misses.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "api/intern.h"
#include "api/types.h"
#include "labels/label_selector.h"
#include "labels/selector.h"

namespace ksched::labels {
namespace {

constexpr size_t kPopulation = 1024;

// `size` labels per set: "app" (20 distinct values), "tier" (3 values) and
// filler keys shaped like real node/pod labels. Keys are interned in a fixed
// order; Labels sorts pairs by id, as decoded objects do.
std::vector<Labels> Population(size_t size) {
  static const char* kTiers[] = {"frontend", "backend", "cache"};
  std::vector<Labels> out;
  out.reserve(kPopulation);
  for (size_t j = 0; j < kPopulation; ++j) {
    std::vector<Labels::Pair> pairs;
    pairs.emplace_back(Intern("app"), Intern(fmt::format("app-{}", j % 20)));
    if (size > 1) pairs.emplace_back(Intern("tier"), Intern(kTiers[j % 3]));
    for (size_t i = 2; i < size; ++i) {
      pairs.emplace_back(Intern(fmt::format("example.com/label-{}", i)),
                         Intern(fmt::format("value-{}", (i * 7 + j) % 13)));
    }
    out.emplace_back(std::move(pairs));
  }
  return out;
}

Selector MustParse(const std::string& s) {
  Result<Selector> sel = Parse(s);
  if (!sel.ok()) std::abort();
  return std::move(sel).value();
}

// "app in (app-0,...,app-{n-1})": with n >= 20 every set matches, with 1 or
// 10 a fraction do.
std::string InValues(size_t n) {
  std::string s = "app in (";
  for (size_t i = 0; i < n; ++i) s += fmt::format("{}app-{}", i ? "," : "", i);
  return s + ")";
}

// Matches `selector` against every set of the population per iteration.
// Arg: labels per set.
void BM_SelectorMatch(benchmark::State& state, const std::string& selector) {
  const Selector sel = MustParse(selector);
  const std::vector<Labels> population = Population(static_cast<size_t>(state.range(0)));
  size_t matched = 0;
  for (auto _ : state) {
    for (const Labels& l : population) matched += sel.Matches(l) ? 1 : 0;
    benchmark::DoNotOptimize(matched);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPopulation));
  state.counters["match%"] =
      100.0 * static_cast<double>(matched) / static_cast<double>(state.iterations() * kPopulation);
}

#define LABEL_SIZES ->Arg(4)->Arg(16)->Arg(64)
BENCHMARK_CAPTURE(BM_SelectorMatch, equality, std::string("app=app-3")) LABEL_SIZES;
BENCHMARK_CAPTURE(BM_SelectorMatch, in_1, InValues(1)) LABEL_SIZES;
BENCHMARK_CAPTURE(BM_SelectorMatch, in_10, InValues(10)) LABEL_SIZES;
BENCHMARK_CAPTURE(BM_SelectorMatch, in_1000, InValues(1000)) LABEL_SIZES;
BENCHMARK_CAPTURE(BM_SelectorMatch, exists, std::string("tier")) LABEL_SIZES;
BENCHMARK_CAPTURE(BM_SelectorMatch, missing_key, std::string("absent=x")) LABEL_SIZES;
// A Deployment-style selector: every requirement is evaluated for a match.
BENCHMARK_CAPTURE(BM_SelectorMatch, three_reqs,
                  std::string("app in (app-1,app-2,app-3),tier!=cache,!canary"))
LABEL_SIZES;
#undef LABEL_SIZES

// Parsing a `kubectl -l` string (validates and interns every key and value).
void BM_SelectorParse(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    Result<Selector> sel = Parse(text);
    benchmark::DoNotOptimize(sel);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK_CAPTURE(BM_SelectorParse, equality, std::string("app=web"));
BENCHMARK_CAPTURE(BM_SelectorParse, mixed,
                  std::string("app=web,tier!=db,env in (prod,staging),!canary,version>3"));
BENCHMARK_CAPTURE(BM_SelectorParse, in_1000, InValues(1000));

// metav1.LabelSelector -> Selector, as workload selectors and affinity terms
// are compiled (SelectorSpread's Prepare does this for every ReplicaSet and
// StatefulSet of the pod's namespace, every cycle).
void BM_FromLabelSelector(benchmark::State& state) {
  LabelSelector ls;
  ls.match_labels = {{"app", "web"}, {"tier", "frontend"}};
  ls.match_expressions = {{"env", "In", {"prod", "staging"}}, {"canary", "DoesNotExist", {}}};
  for (auto _ : state) {
    Result<Selector> sel = FromLabelSelector(&ls);
    benchmark::DoNotOptimize(sel);
  }
}
BENCHMARK(BM_FromLabelSelector);

// SelectorFromSet of a Service selector (SelectorSpread's Prepare, per Service).
void BM_FromSet(benchmark::State& state) {
  const Labels set({{Intern("app"), Intern("web")}, {Intern("tier"), Intern("frontend")}});
  for (auto _ : state) {
    Selector sel = FromSet(set);
    benchmark::DoNotOptimize(sel);
  }
}
BENCHMARK(BM_FromSet);

}  // namespace
}  // namespace ksched::labels
