#include "framework/runtime/fake_plugins_test.h"

#include <algorithm>

namespace ksched::framework::testing {
namespace fake_plugins_test {

class FakeBase : public virtual Plugin {
 public:
  explicit FakeBase(const FakeSpec* spec) : spec_(spec) {}
  std::string_view Name() const override { return spec_->name; }

 protected:
  const FakeSpec* spec_;
};

class FakeQueueSort final : public FakeBase, public QueueSortPlugin {
 public:
  using FakeBase::FakeBase;
  bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override {
    return a.pod->spec.priority.value_or(0) > b.pod->spec.priority.value_or(0);
  }
};

class FakeBinder final : public FakeBase, public BindPlugin {
 public:
  using FakeBase::FakeBase;
  Status Bind(CycleState*, const Pod&, NodeId) override { return Status(); }
};

class FakeFilterOnly final : public FakeBase, public FilterPlugin {
 public:
  using FakeBase::FakeBase;
  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    ++*spec_->filter_calls;
    return spec_->filter_fn ? spec_->filter_fn(pod, node) : Status();
  }
};

class FakePostFilter final : public FakeBase, public PostFilterPlugin {
 public:
  using FakeBase::FakeBase;
  Status PostFilter(CycleState*, const Pod&, const NodeToStatusMap&,
                    PostFilterResult* result) override {
    if (spec_->post_filter_node) {
      result->nominating = true;
      result->nominated_node_name = *spec_->post_filter_node;
    }
    return spec_->post_filter_status;
  }
};

class FakeNormalize final : public ScoreExtensions {
 public:
  Status NormalizeScore(const CycleState&, const Pod&, NodeScoreList* scores) const override {
    int64_t top = 0;
    for (const NodeScore& s : *scores) top = std::max(top, s.score);
    if (top == 0) return Status();
    for (NodeScore& s : *scores) s.score = s.score * kMaxNodeScore / top;
    return Status();
  }
};

class FakeScoreOnly final : public FakeBase, public ScorePlugin {
 public:
  using FakeBase::FakeBase;
  Status Score(const CycleState&, const Pod&, const NodeInfo& node, int64_t* score) const override {
    *score = spec_->score_fn ? spec_->score_fn(node) : 0;
    return Status();
  }
  const ScoreExtensions* ScoreExt() const override {
    return spec_->normalize ? &normalize_ : nullptr;
  }

 private:
  FakeNormalize normalize_;
};

class FakeAll final : public FakeBase,
                      public PreFilterPlugin,
                      public PreFilterExtensions,
                      public FilterPlugin,
                      public ScorePlugin,
                      public ReservePlugin {
 public:
  using FakeBase::FakeBase;
  Status PreFilter(CycleState*, const Pod&, PreFilterResult* result) override {
    result->node_names = spec_->pre_filter_nodes;
    return spec_->pre_filter_status;
  }
  PreFilterExtensions* Extensions() override { return this; }
  Status AddPod(CycleState*, const Pod&, const PodInfo&, const NodeInfo&) override {
    ++*spec_->add_pod_calls;
    return Status();
  }
  Status RemovePod(CycleState*, const Pod&, const PodInfo&, const NodeInfo&) override {
    return Status();
  }
  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    ++*spec_->filter_calls;
    return spec_->filter_fn ? spec_->filter_fn(pod, node) : Status();
  }
  Status Score(const CycleState&, const Pod&, const NodeInfo& node, int64_t* score) const override {
    *score = spec_->score_fn ? spec_->score_fn(node) : 0;
    return Status();
  }
  const ScoreExtensions* ScoreExt() const override {
    return spec_->normalize ? &normalize_ : nullptr;
  }
  Status Reserve(CycleState*, const Pod&, NodeId) override { return spec_->reserve_status; }
  void Unreserve(CycleState*, const Pod&, NodeId) override { ++*spec_->unreserve_calls; }

 private:
  FakeNormalize normalize_;
};

template <size_t I>
std::unique_ptr<Plugin> NewFake(const config::PluginArgs&, Handle*, Status*) {
  const FakeSpec* spec = &FakeSpecs()[I];
  switch (spec->kind) {
    case FakeKind::kQueueSort:
      return std::make_unique<FakeQueueSort>(spec);
    case FakeKind::kBinder:
      return std::make_unique<FakeBinder>(spec);
    case FakeKind::kAll:
      return std::make_unique<FakeAll>(spec);
    case FakeKind::kFilter:
      return std::make_unique<FakeFilterOnly>(spec);
    case FakeKind::kScore:
      return std::make_unique<FakeScoreOnly>(spec);
    case FakeKind::kPostFilter:
      return std::make_unique<FakePostFilter>(spec);
  }
  return nullptr;
}

constexpr PluginFactory kFactories[] = {&NewFake<0>, &NewFake<1>, &NewFake<2>, &NewFake<3>,
                                        &NewFake<4>, &NewFake<5>, &NewFake<6>, &NewFake<7>};

}  // namespace fake_plugins_test

std::vector<FakeSpec>& FakeSpecs() {
  static std::vector<FakeSpec> specs;
  return specs;
}

std::vector<RegistryEntry> FakeRegistry() {
  std::vector<RegistryEntry> out;
  for (size_t i = 0; i < FakeSpecs().size() && i < std::size(fake_plugins_test::kFactories); ++i)
    out.push_back({FakeSpecs()[i].name, fake_plugins_test::kFactories[i]});
  return out;
}

}  // namespace ksched::framework::testing
