// `schedule -o html` and `schedule --add-node`: the what-if layer
// (planning/) over the same snapshot, pending pods and loop as `schedule`.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/planning_output.h"
#include "cli/simulated.h"

namespace ksched {

int RunScheduleAddNode(const ScheduleArgs& args) {
  auto served = CheckFlagsAndServedNames(args.flags, args.scheduler_name);
  if (!served.ok()) {
    std::cerr << "ksched: " << served.error().message << "\n";
    return kExitBadInput;
  }
  Diagnostics diag(args.flags);
  diag.set_shown(args.warnings);
  auto snap =
      LoadPlanningSnapshot(args.files, args.pending_file, *served, &diag, args.keep_pending);
  if (!snap.ok()) {
    std::cerr << "ksched: " << snap.error().message << "\n";
    return kExitBadInput;
  }
  diag.Print();
  planning::CapacityOptions options;
  return RunAddNode(*snap, {}, args.add_node, args.add_node_search, args.flags, options,
                    args.output, diag.Lines());
}

int RunScheduleHtml(const ScheduleArgs& args) {
  auto served = CheckFlagsAndServedNames(args.flags, args.scheduler_name);
  if (!served.ok()) {
    std::cerr << "ksched: " << served.error().message << "\n";
    return kExitBadInput;
  }
  Diagnostics diag(args.flags);
  diag.set_shown(args.warnings);
  auto snap =
      LoadPlanningSnapshot(args.files, args.pending_file, *served, &diag, args.keep_pending);
  if (!snap.ok()) {
    std::cerr << "ksched: " << snap.error().message << "\n";
    return kExitBadInput;
  }
  diag.Print();
  planning::CapacityOptions options;
  options.pending_preemption = !args.disable_preemption;
  options.record_details = true;
  const size_t num_pending = snap->pending.size();
  auto skipped = std::move(snap->skipped);
  auto r = planning::PlanCapacity(std::move(snap->objects), std::move(snap->pending), {},
                                  MakeSchedulerFactory(args.flags), options);
  if (!r.ok()) {
    std::cerr << "ksched: " << r.error().message << "\n";
    return kExitBadInput;
  }
  planning::HtmlReport page;
  page.title = "ksched schedule";
  page.simulated = SimulatedText(SimulatedBy(args.flags));
  page.warnings = diag.Lines();
  page.verdict_ok = r->pending_unscheduled == 0;
  page.verdict = fmt::format("{} of {} pending pods scheduled",
                             num_pending - r->pending_unscheduled, num_pending);
  page.summary = {{"pending pods", std::to_string(num_pending)},
                  {"unschedulable", std::to_string(r->pending_unscheduled)},
                  {"left to other schedulers or being deleted", std::to_string(skipped.size())}};
  page.before = r->before;
  page.after = r->after;
  page.priorities = r->priorities;
  page.pods = r->pending;
  planning::HtmlSection left{"Not scheduled here", {"pod", "why"}, {}};
  for (const auto& [p, why] : skipped) left.rows.push_back({p.Key(), why});
  page.sections.push_back(std::move(left));
  return WriteHtml(page, page.verdict_ok ? kExitOk : kExitUnschedulable);
}

}  // namespace ksched
