#include "client/reflector.h"

#include <simdjson.h>

#include <chrono>
#include <random>
#include <unordered_set>

namespace ksched::client {
namespace {

namespace dom = simdjson::dom;

dom::parser& ThreadParser() {
  thread_local dom::parser parser;
  return parser;
}

std::string_view StringOr(dom::element e, std::string_view key) {
  std::string_view out;
  if (e[key].get_string().get(out) != simdjson::SUCCESS) return {};
  return out;
}

std::string ApiVersion(const ResourceInfo& info) {
  return info.group.empty() ? std::string(info.version)
                            : std::string(info.group) + "/" + std::string(info.version);
}

Result<ObjectText> ObjectFromElement(dom::element e, const ResourceInfo& info) {
  dom::object obj;
  if (e.get_object().get(obj) != simdjson::SUCCESS) {
    return MakeError(std::string(info.plural) + ": an object in the reply is not a JSON object");
  }
  ObjectText out;
  dom::element meta;
  if (obj["metadata"].get(meta) == simdjson::SUCCESS) {
    std::string_view ns = StringOr(meta, "namespace");
    std::string_view name = StringOr(meta, "name");
    out.key = ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
    out.uid = StringOr(meta, "uid");
    out.resource_version = StringOr(meta, "resourceVersion");
  }
  std::string text = simdjson::minify(e);
  bool has_kind = !StringOr(e, "kind").empty();
  bool has_api_version = !StringOr(e, "apiVersion").empty();
  if (!has_kind || !has_api_version) {
    std::string prefix = "{";
    if (!has_kind) prefix += "\"kind\":\"" + std::string(info.kind) + "\",";
    if (!has_api_version) prefix += "\"apiVersion\":\"" + ApiVersion(info) + "\",";
    if (text.size() <= 2) prefix.pop_back();  // "{}": no member follows
    text = prefix + text.substr(1);
  }
  out.json = std::move(text);
  return out;
}

}  // namespace

Result<ObjectText> ParseObject(std::string_view json, const ResourceInfo& info) {
  dom::element e;
  if (auto err = ThreadParser().parse(json.data(), json.size()).get(e); err) {
    return MakeError(std::string(info.plural) +
                     ": bad JSON from the API server: " + simdjson::error_message(err));
  }
  return ObjectFromElement(e, info);
}

Result<WatchLine> ParseWatchLine(std::string_view line, const ResourceInfo& info) {
  dom::element e;
  if (auto err = ThreadParser().parse(line.data(), line.size()).get(e); err) {
    return MakeError(std::string(info.plural) +
                     ": bad watch event from the API server: " + simdjson::error_message(err));
  }
  std::string_view type = StringOr(e, "type");
  dom::element object;
  if (e["object"].get(object) != simdjson::SUCCESS) {
    return MakeError(std::string(info.plural) + ": watch event without an object");
  }
  WatchLine w;
  if (type == "ERROR") {
    w.type = WatchLine::kError;
    int64_t code = 0;
    if (object["code"].get_int64().get(code) == simdjson::SUCCESS) {
      w.error_code = static_cast<int>(code);
    }
    w.error_message = StringOr(object, "message");
    return w;
  }
  if (type == "ADDED") {
    w.type = WatchLine::kAdded;
  } else if (type == "MODIFIED") {
    w.type = WatchLine::kModified;
  } else if (type == "DELETED") {
    w.type = WatchLine::kDeleted;
  } else if (type == "BOOKMARK") {
    w.type = WatchLine::kBookmark;
  } else {
    return MakeError(std::string(info.plural) + ": unknown watch event type \"" +
                     std::string(type) + "\"");
  }
  auto obj = ObjectFromElement(object, info);
  if (!obj.ok()) return obj.error();
  w.object = std::move(obj).value();
  return w;
}

bool LineSplitter::Feed(std::string_view data, const std::function<bool(std::string_view)>& line) {
  while (!data.empty()) {
    size_t nl = data.find('\n');
    if (nl == std::string_view::npos) {
      buffer_.append(data);
      return true;
    }
    bool go_on;
    if (buffer_.empty()) {
      go_on = nl == 0 || line(data.substr(0, nl));
    } else {
      buffer_.append(data.substr(0, nl));
      go_on = line(buffer_);
      buffer_.clear();
    }
    if (!go_on) return false;
    data.remove_prefix(nl + 1);
  }
  return true;
}

// ====================================================================== store

std::vector<WatchEvent> KnownObjects::Replace(Resource resource, std::vector<ObjectText> items) {
  std::vector<WatchEvent> events;
  std::unordered_set<std::string_view> listed;
  listed.reserve(items.size());
  for (const ObjectText& item : items) listed.insert(item.key);
  // Vanished objects first, with their last known state.
  for (auto it = objects_.begin(); it != objects_.end();) {
    if (listed.count(it->first) == 0) {
      events.push_back({WatchEventType::kDeleted, resource, std::move(it->second.json),
                        std::move(it->second.resource_version)});
      it = objects_.erase(it);
    } else {
      ++it;
    }
  }
  for (ObjectText& item : items) {
    auto it = objects_.find(item.key);
    WatchEventType type = WatchEventType::kAdded;
    if (it != objects_.end()) {
      if (it->second.uid != item.uid) {
        // Deleted and recreated under the same name while we were not watching.
        events.push_back(
            {WatchEventType::kDeleted, resource, it->second.json, it->second.resource_version});
      } else {
        type = WatchEventType::kModified;
      }
    }
    Entry& entry = objects_[item.key];
    entry.uid = item.uid;
    entry.resource_version = item.resource_version;
    entry.json = item.json;
    events.push_back({type, resource, std::move(item.json), std::move(item.resource_version)});
  }
  return events;
}

WatchEvent KnownObjects::Apply(Resource resource, WatchEventType type, ObjectText object) {
  if (type == WatchEventType::kDeleted) {
    objects_.erase(object.key);
  } else {
    Entry& entry = objects_[object.key];
    entry.uid = object.uid;
    entry.resource_version = object.resource_version;
    entry.json = object.json;
  }
  return {type, resource, std::move(object.json), std::move(object.resource_version)};
}

// ====================================================================== reflector

Reflector::Reflector(RestClient& rest, Resource resource, const ResourceInfo& info,
                     const WatchOptions& options, Sink sink, ErrorSink on_error)
    : rest_(rest),
      resource_(resource),
      info_(info),
      options_(options),
      sink_(std::move(sink)),
      on_error_(std::move(on_error)),
      backoff_ms_(options.backoff_initial_ms) {}

Reflector::~Reflector() { Stop(); }

void Reflector::Start() {
  thread_ = std::thread([this] { Run(); });
}

void Reflector::RequestStop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
}

void Reflector::Stop() {
  RequestStop();
  if (thread_.joinable()) thread_.join();
}

void Reflector::Report(const Error& e) {
  if (on_error_) on_error_(resource_, e);
}

bool Reflector::SleepBackoff() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, std::chrono::milliseconds(backoff_ms_), [this] { return stop_.load(); });
  backoff_ms_ = std::min(backoff_ms_ * 2, std::max<int64_t>(options_.backoff_max_ms, 1));
  return !stop_;
}

std::string Reflector::CollectionPath() const {
  std::string p = info_.group.empty()
                      ? "/api/" + std::string(info_.version)
                      : "/apis/" + std::string(info_.group) + "/" + std::string(info_.version);
  return p + "/" + std::string(info_.plural);
}

namespace {

std::string UrlEncode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

}  // namespace

Status Reflector::List() {
  RequestTarget target{"list", std::string(info_.group), std::string(info_.plural), "", ""};
  std::string selector;
  if (resource_ == Resource::kPod && !options_.pod_field_selector.empty()) {
    selector = "fieldSelector=" + UrlEncode(options_.pod_field_selector);
  }
  std::vector<ObjectText> items;
  std::string list_rv;
  std::string continue_token;
  for (;;) {
    if (stop_) return Status::Ok();
    std::string query;
    auto add = [&query](const std::string& part) { query += (query.empty() ? "?" : "&") + part; };
    if (!selector.empty()) add(selector);
    if (options_.list_page_size > 0) add("limit=" + std::to_string(options_.list_page_size));
    if (!continue_token.empty()) add("continue=" + UrlEncode(continue_token));
    auto reply = rest_.Send(target, "GET", CollectionPath() + query);
    if (!reply.ok()) return reply.error();
    if (reply->code == 410 && !continue_token.empty()) {
      // The continue token expired between pages: list again from the start.
      items.clear();
      continue_token.clear();
      continue;
    }
    if (reply->code == 404) {
      Error e = ApiError(target, reply->code, reply->body);
      e.message += " (the API server does not serve " + ApiVersion(info_) + " " +
                   std::string(info_.plural) + "; ksched cannot schedule without it)";
      return e;
    }
    if (reply->code != 200) return ApiError(target, reply->code, reply->body);
    dom::element page;
    if (auto err = ThreadParser().parse(reply->body).get(page); err) {
      return MakeError("list " + std::string(info_.plural) +
                       ": bad JSON from the API server: " + simdjson::error_message(err));
    }
    dom::array array;
    auto items_err = page["items"].get_array().get(array);
    if (items_err != simdjson::SUCCESS) {
      dom::element items_el;
      if (page["items"].get(items_el) != simdjson::SUCCESS || !items_el.is_null()) {
        return MakeError("list " + std::string(info_.plural) + ": reply has no items list");
      }
    } else {
      for (dom::element item : array) {
        auto obj = ObjectFromElement(item, info_);
        if (!obj.ok()) return obj.error();
        items.push_back(std::move(obj).value());
      }
    }
    dom::element meta;
    std::string_view next;
    if (page["metadata"].get(meta) == simdjson::SUCCESS) {
      list_rv = StringOr(meta, "resourceVersion");
      next = StringOr(meta, "continue");
    }
    if (next.empty()) break;
    continue_token = std::string(next);
  }
  if (stop_) return Status::Ok();
  for (WatchEvent& e : known_.Replace(resource_, std::move(items))) sink_(std::move(e));
  rv_ = list_rv;
  sink_({WatchEventType::kSynced, resource_, "", list_rv});
  return Status::Ok();
}

Reflector::WatchEnd Reflector::Watch() {
  RequestTarget target{"watch", std::string(info_.group), std::string(info_.plural), "", ""};
  thread_local std::mt19937_64 rng(std::random_device{}());
  int64_t min_timeout = std::max<int64_t>(options_.min_watch_timeout_seconds, 1);
  int64_t timeout_s =
      min_timeout + static_cast<int64_t>(rng() % static_cast<uint64_t>(min_timeout));
  std::string path = CollectionPath() + "?watch=1&resourceVersion=" + UrlEncode(rv_) +
                     "&timeoutSeconds=" + std::to_string(timeout_s);
  if (resource_ == Resource::kPod && !options_.pod_field_selector.empty()) {
    path += "&fieldSelector=" + UrlEncode(options_.pod_field_selector);
  }
  LineSplitter splitter;
  WatchEnd end = WatchEnd::kResume;
  bool any_event = false;
  auto on_line = [&](std::string_view line) -> bool {
    auto w = ParseWatchLine(line, info_);
    if (!w.ok()) {
      Report(w.error());
      end = WatchEnd::kRelist;  // cannot tell what we missed
      return false;
    }
    switch (w->type) {
      case WatchLine::kError:
        if (w->error_code != 410) {
          Error e = MakeError("watch " + std::string(info_.plural) + ": error event " +
                              std::to_string(w->error_code) + ": " + w->error_message);
          e.http_code = w->error_code;
          Report(e);
        }
        end = WatchEnd::kRelist;
        return false;
      case WatchLine::kBookmark:
        if (!w->object.resource_version.empty()) rv_ = w->object.resource_version;
        return true;
      case WatchLine::kAdded:
      case WatchLine::kModified:
      case WatchLine::kDeleted: {
        WatchEventType type = w->type == WatchLine::kAdded      ? WatchEventType::kAdded
                              : w->type == WatchLine::kModified ? WatchEventType::kModified
                                                                : WatchEventType::kDeleted;
        std::string rv = w->object.resource_version;
        sink_(known_.Apply(resource_, type, std::move(w->object)));
        if (!rv.empty()) rv_ = std::move(rv);
        any_event = true;
        return true;
      }
    }
    return true;
  };
  auto on_data = [&](std::string_view data) { return splitter.Feed(data, on_line); };
  auto started = std::chrono::steady_clock::now();
  auto reply = rest_.Stream(target, path, on_data, stop_, timeout_s * 1000 + 30'000);
  if (stop_) return WatchEnd::kStopped;
  if (end == WatchEnd::kRelist) return end;
  if (!reply.ok()) {
    Report(reply.error());
    if (any_event) backoff_ms_ = options_.backoff_initial_ms;
    return WatchEnd::kResumeAfterBackoff;
  }
  if (reply->code == 410) return WatchEnd::kRelist;
  if (reply->code < 200 || reply->code >= 300) {
    Report(ApiError(target, reply->code, reply->body));
    return WatchEnd::kResumeAfterBackoff;
  }
  // A clean end: the server's timeoutSeconds (or it is shutting down).
  bool long_enough = std::chrono::steady_clock::now() - started > std::chrono::seconds(1);
  if (any_event || long_enough) {
    backoff_ms_ = options_.backoff_initial_ms;
    return WatchEnd::kResume;
  }
  return WatchEnd::kResumeAfterBackoff;
}

void Reflector::Run() {
  bool need_list = true;
  while (!stop_) {
    if (need_list) {
      Status st = List();
      if (stop_) return;
      if (!st.ok()) {
        Report(st.error());
        if (!SleepBackoff()) return;
        continue;
      }
      backoff_ms_ = options_.backoff_initial_ms;
      need_list = false;
    }
    switch (Watch()) {
      case WatchEnd::kStopped:
        return;
      case WatchEnd::kRelist:
        need_list = true;
        break;
      case WatchEnd::kResumeAfterBackoff:
        if (!SleepBackoff()) return;
        break;
      case WatchEnd::kResume:
        break;
    }
  }
}

}  // namespace ksched::client
