#include "planning/html_report.h"

#include <nlohmann/json.hpp>

namespace ksched::planning {
namespace {

using HtmlJson = nlohmann::ordered_json;

HtmlJson UsageJson(const std::vector<NodeUsage>& nodes) {
  HtmlJson out = HtmlJson::array();
  for (const NodeUsage& u : nodes) {
    out.push_back({u.name, u.cpu_allocatable, u.memory_allocatable, u.pods_allocatable, u.cpu,
                   u.memory, u.pods, u.gpu_allocatable, u.gpu});
  }
  return out;
}

HtmlJson PodJson(const PodRecord& p) {
  HtmlJson j = {{"pod", p.pod}, {"group", p.group}, {"node", p.node}, {"error", p.error}};
  if (p.scored) j["score"] = p.score;
  if (p.attempt != 1) j["attempt"] = p.attempt;
  if (!p.preempted_on.empty()) {
    j["preemptedOn"] = p.preempted_on;
    j["victims"] = p.victims;
  }
  if (!p.top.empty()) {
    HtmlJson top = HtmlJson::array();
    for (const ScoreRow& r : p.top)
      top.push_back({{"node", r.node}, {"total", r.total}, {"scores", r.scores}});
    j["top"] = std::move(top);
  }
  return j;
}

// The page: styles, a skeleton, and the script that draws the data.
constexpr const char* kHead = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ksched report</title>
<style>
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#fafbfc}
h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #dde1e7;padding-bottom:4px}
.verdict{padding:8px 12px;border-radius:6px;font-weight:600;margin:8px 0 12px}
.ok{background:#e3f6e8;color:#135a26}.bad{background:#fde8e8;color:#8a1c1c}
table{border-collapse:collapse;background:#fff;font-size:13px}td,th{border:1px solid #e2e6ec;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f3f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
.bars td{padding:2px 8px}.bar{position:relative;width:220px;height:16px;background:#eef1f5;border-radius:3px;overflow:hidden}
.bar .b{position:absolute;left:0;top:0;height:8px;background:#9aa5b4}.bar .a{position:absolute;left:0;top:8px;height:8px;background:#2f7de1}
.bar .a.hot{background:#e0662f}.lbl{font-size:11px;color:#4a5363;white-space:nowrap}
tr.marked td:first-child{font-weight:600;color:#8a1c1c}.legend span{display:inline-block;width:12px;height:8px;margin:0 4px 0 12px}
details summary{cursor:pointer;color:#2f5fa8}.err{color:#8a1c1c}.muted{color:#6b7485}.warn{color:#7a4b00}
button{margin:6px 0;font:inherit}#errors{color:#b00020;white-space:pre-wrap}
</style></head>
<body data-rendered="no">
<div id="errors"></div>
<div id="report"><p class="muted">This report is drawn by its inline script.</p></div>
<script type="application/json" id="ksched-data">)HTML";

constexpr const char* kTail = R"HTML(</script>
<script>
"use strict";
(function () {
  var errors = document.getElementById("errors");
  window.addEventListener("error", function (e) {
    errors.textContent += "script error: " + e.message + "\n";
    document.body.setAttribute("data-js-error", "1");
  });
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === "text") e.textContent = attrs[k]; else if (k === "cls") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function table(headers, rows, numeric) {
    var t = el("table"), tr = el("tr");
    if (headers) {
      headers.forEach(function (h) { tr.appendChild(el("th", {text: h})); });
      t.appendChild(tr);
    }
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c, i) {
        var td = el("td", {cls: numeric && numeric[i] ? "num" : ""});
        if (c instanceof Node) td.appendChild(c); else td.textContent = c === undefined || c === null ? "" : String(c);
        row.appendChild(td);
      });
      t.appendChild(row);
    });
    return t;
  }
  function cores(m) { return String(m / 1000); }
  function mem(b) {
    var units = [["Ti", 1099511627776], ["Gi", 1073741824], ["Mi", 1048576], ["Ki", 1024]];
    for (var i = 0; i < units.length; i++) if (b >= units[i][1]) return (b / units[i][1]).toFixed(b % units[i][1] === 0 ? 0 : 1) + units[i][0];
    return String(b);
  }
  function pct(v, cap) { return cap > 0 ? Math.round(100 * v / cap) : 0; }
  function bar(before, after, cap, fmt) {
    var wrap = el("div"), b = el("div", {cls: "bar"});
    var wb = cap > 0 ? Math.min(100, 100 * before / cap) : 0, wa = cap > 0 ? Math.min(100, 100 * after / cap) : 0;
    var bb = el("div", {cls: "b"}); bb.style.width = wb + "%";
    var ba = el("div", {cls: "a" + (wa >= 90 ? " hot" : "")}); ba.style.width = wa + "%";
    b.appendChild(bb); b.appendChild(ba); wrap.appendChild(b);
    var text = before === after ? fmt(after) : fmt(before) + " \u2192 " + fmt(after);
    wrap.appendChild(el("div", {cls: "lbl", text: text + " / " + fmt(cap) + " (" + pct(after, cap) + "%)"}));
    return wrap;
  }
  var data = JSON.parse(document.getElementById("ksched-data").textContent);
  var root = document.getElementById("report");
  root.textContent = "";
  document.title = data.title;
  root.appendChild(el("h1", {text: data.title}));
  if (data.simulated) root.appendChild(el("p", {cls: "muted", id: "simulated", text: "Simulated: " + data.simulated}));
  if (data.verdict) root.appendChild(el("div", {cls: "verdict " + (data.verdictOk ? "ok" : "bad"), id: "verdict", text: data.verdict}));
  if (data.warnings.length) {
    var warned = el("ul", {cls: "warn", id: "warnings"});
    data.warnings.forEach(function (w) { warned.appendChild(el("li", {text: "warning: " + w})); });
    root.appendChild(warned);
  }
  if (data.summary.length) root.appendChild(table(null, data.summary));

  // Nodes: changed and marked nodes first, then by name.
  var before = data.before.length ? data.before : data.after, after = data.after;
  var marked = {};
  data.markedNodes.forEach(function (n) { marked[n] = true; });
  var rows = after.map(function (a, i) {
    var b = before[i] || a;
    var changed = b[4] !== a[4] || b[5] !== a[5] || b[6] !== a[6] || b[8] !== a[8];
    return {a: a, b: b, changed: changed, marked: !!marked[a[0]]};
  });
  rows.sort(function (x, y) {
    if (x.marked !== y.marked) return x.marked ? -1 : 1;
    if (x.changed !== y.changed) return x.changed ? -1 : 1;
    return x.a[0] < y.a[0] ? -1 : x.a[0] > y.a[0] ? 1 : 0;
  });
  var changedCount = rows.filter(function (r) { return r.changed; }).length;
  root.appendChild(el("h2", {text: "Nodes (" + after.length + ", " + changedCount + " changed)"}));
  var legend = el("div", {cls: "legend muted"});
  legend.innerHTML = 'requested / allocatable:<span style="background:#9aa5b4"></span>before<span style="background:#2f7de1"></span>after';
  root.appendChild(legend);
  var nodeTable = el("table", {cls: "bars", id: "nodes"});
  // A GPU column only when some node has GPUs.
  var gpus = after.concat(before).some(function (a) { return a[7] > 0; });
  nodeTable.appendChild(el("tr", {}, [el("th", {text: "node"}), el("th", {text: "cpu (cores)"}), el("th", {text: "memory"}), el("th", {text: "pods"}),
    gpus ? el("th", {text: "gpu"}) : null]));
  function drawNodes(limit) {
    while (nodeTable.rows.length > 1) nodeTable.deleteRow(1);
    rows.slice(0, limit).forEach(function (r) {
      var name = r.a[0] + (r.marked ? " (" + data.markedAs + ")" : "");
      var tr = el("tr", {cls: r.marked ? "marked" : "", "data-node": r.a[0]}, [
        el("td", {text: name}),
        el("td", {}, [bar(r.b[4], r.a[4], r.a[1], cores)]),
        el("td", {}, [bar(r.b[5], r.a[5], r.a[2], mem)]),
        el("td", {}, [bar(r.b[6], r.a[6], r.a[3], String)]),
        gpus ? el("td", {cls: "gpu"}, [bar(r.b[8], r.a[8], r.a[7], String)]) : null]);
      nodeTable.appendChild(tr);
    });
  }
  var limit = 300;
  drawNodes(limit);
  root.appendChild(nodeTable);
  if (rows.length > limit) {
    var more = el("button", {text: "Show all " + rows.length + " nodes"});
    more.addEventListener("click", function () { drawNodes(rows.length); more.remove(); });
    root.appendChild(more);
  }

  // Pods.
  var placed = data.pods.filter(function (p) { return p.node; });
  var failed = data.pods.filter(function (p) { return !p.node; });
  root.appendChild(el("h2", {text: "Placements (" + placed.length + ")"}));
  if (placed.length) {
    root.appendChild(table(["pod", "from", "node", "score", "score breakdown (best nodes)"],
      placed.map(function (p) {
        var note = p.attempt === 2 ? " (after preemption)" : "";
        var best = "";
        if (p.top && p.top.length) {
          var d = el("details"), s = el("summary", {text: p.top.length + " best"});
          d.appendChild(s);
          d.appendChild(table(["node", "total"].concat(data.priorities),
            p.top.map(function (r) { return [r.node, r.total].concat(r.scores); })));
          best = d;
        }
        if (!best && p.score === undefined) best = el("span", {cls: "muted", text: "the only node that fits (not scored)"});
        return [p.pod, p.group, p.node + note, p.score === undefined ? "" : p.score, best];
      }), [false, false, false, true, false]));
  }
  root.appendChild(el("h2", {text: "Unschedulable (" + failed.length + ")"}));
  if (failed.length) {
    root.appendChild(table(["pod", "from", "reason"], failed.map(function (p) {
      var why = p.error;
      if (p.preemptedOn) why += " Preempting on " + p.preemptedOn + ": " + p.victims.join(", ");
      return [p.pod, p.group, el("span", {cls: "err", text: why})];
    })));
  } else {
    root.appendChild(el("p", {cls: "muted", text: "Every pod found a node."}));
  }
  data.sections.forEach(function (s) {
    root.appendChild(el("h2", {text: s.title}));
    root.appendChild(s.rows.length ? table(s.headers, s.rows) : el("p", {cls: "muted", text: "None."}));
  });
  document.body.setAttribute("data-rendered", "ok");
})();
</script>
</body></html>
)HTML";

}  // namespace

std::string RenderHtml(const HtmlReport& report) {
  HtmlJson data;
  data["title"] = report.title;
  data["simulated"] = report.simulated;
  data["verdict"] = report.verdict;
  data["verdictOk"] = report.verdict_ok;
  HtmlJson summary = HtmlJson::array();
  for (const auto& [k, v] : report.summary) summary.push_back({k, v});
  data["summary"] = std::move(summary);
  data["warnings"] = report.warnings;
  data["before"] = UsageJson(report.before);
  data["after"] = UsageJson(report.after);
  data["markedNodes"] = report.marked_nodes;
  data["markedAs"] = report.marked_as;
  data["priorities"] = report.priorities;
  HtmlJson pods = HtmlJson::array();
  for (const PodRecord& p : report.pods) pods.push_back(PodJson(p));
  data["pods"] = std::move(pods);
  HtmlJson sections = HtmlJson::array();
  for (const HtmlSection& s : report.sections)
    sections.push_back({{"title", s.title}, {"headers", s.headers}, {"rows", s.rows}});
  data["sections"] = std::move(sections);
  // ASCII only, and no '<' at all, so nothing in the data can end the
  // script element.
  std::string text = data.dump(-1, ' ', true, HtmlJson::error_handler_t::replace);
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      escaped += "\\u003c";
    } else {
      escaped += c;
    }
  }
  return std::string(kHead) + escaped + kTail;
}

}  // namespace ksched::planning
