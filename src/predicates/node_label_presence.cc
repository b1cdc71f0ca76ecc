// CheckNodeLabelPresence (Policy argument labelsPresence): with presence=true
// the node must have every listed label key, with presence=false none of them;
// values are not looked at.
#include "predicates/factories.h"

namespace ksched {
namespace {

class NodeLabelPresence : public Predicate {
 public:
  NodeLabelPresence(std::vector<std::string> labels, bool presence)
      : presence_(presence), reason_(Intern("node(s) didn't have the requested labels")) {
    for (const std::string& l : labels) keys_.push_back(Intern(l));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    (void)state;
    const Labels& labels = node.labels();
    for (StrId key : keys_) {
      if (labels.Has(key) != presence_) {
        reasons->Add(reason_);
        return false;
      }
    }
    return true;
  }

 private:
  std::vector<StrId> keys_;
  bool presence_;
  ReasonId reason_;
};

}  // namespace

std::unique_ptr<Predicate> NewNodeLabelPredicate(std::vector<std::string> labels, bool presence) {
  return std::make_unique<NodeLabelPresence>(std::move(labels), presence);
}

}  // namespace ksched
