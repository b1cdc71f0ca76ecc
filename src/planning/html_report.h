// `-o html`: one self-contained HTML page (inline CSS and JavaScript, no
// network fetch) for `schedule`, `capacity` and `drain`. The report's data is
// embedded as JSON and drawn by the page's script: per-node utilisation
// (cpu, memory, pods) before and after as bars, where each pod landed,
// unschedulable pods with their reasons, and the best nodes' score
// breakdowns. The script marks <body data-rendered="ok"> when it finished and
// lists any error in #errors, which the headless-browser test checks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "planning/report.h"

namespace ksched::planning {

struct HtmlSection {
  std::string title;
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

struct HtmlReport {
  std::string title;  // "ksched schedule"
  // The release and gates the answer simulates ("kube-scheduler v1.35,
  // default feature gates"), shown under the title.
  std::string simulated;
  std::string verdict;
  bool verdict_ok = true;
  std::vector<std::pair<std::string, std::string>> summary;
  // Warnings about the input (cli/input.h's Diagnostics), shown under the
  // verdict.
  std::vector<std::string> warnings;
  // Utilisation before and after, node for node in the same order (`before`
  // may be empty: then there is only "after").
  std::vector<NodeUsage> before, after;
  std::vector<std::string> marked_nodes;  // drained or added: drawn apart
  std::string marked_as;                  // "drained", "added"
  std::vector<std::string> priorities;
  std::vector<PodRecord> pods;
  std::vector<HtmlSection> sections;
};

std::string RenderHtml(const HtmlReport& report);

}  // namespace ksched::planning
