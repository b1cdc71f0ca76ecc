// List+watch of one resource (upstream's Reflector, with the store that
// informers keep beside it), as cluster_client.h promises:
//
//   LIST (paged, a consistent read) -> deliver the difference to what the
//   client knew -> kSynced -> WATCH from the list's resourceVersion -> deliver
//   each event -> on a dropped connection or a watch timeout, WATCH again from
//   the last resourceVersion (backoff while the server is unreachable) -> on
//   410 Gone (or any ERROR event), LIST again.
//
// The pure parts (the byte stream split into events, the known-object store
// and its re-LIST difference) are public so they are tested without a server.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "client/cluster_client.h"
#include "client/rest_client.h"
#include "util/result.h"

namespace ksched::client {

// The fields of an object the reflector needs, and its JSON text with kind
// and apiVersion filled in.
struct ObjectText {
  std::string key;  // "ns/name" or "name"
  std::string uid;
  std::string resource_version;
  std::string json;
};

// Parses one object (a list item or a watch event's object); adds "kind" and
// "apiVersion" when it lacks them.
Result<ObjectText> ParseObject(std::string_view json, const ResourceInfo& info);

// One decoded watch line.
struct WatchLine {
  enum Type { kAdded, kModified, kDeleted, kBookmark, kError } type;
  ObjectText object;   // kAdded / kModified / kDeleted / kBookmark (rv only)
  int error_code = 0;  // kError: the Status's code (410 = Gone)
  std::string error_message;
};
Result<WatchLine> ParseWatchLine(std::string_view line, const ResourceInfo& info);

// Splits a chunked stream into newline-terminated lines (the JSON watch
// framing: one event per line). Feed() hands over every complete line.
class LineSplitter {
 public:
  // Calls `line` for every complete line in `data` (and the buffered prefix);
  // returns false as soon as `line` does.
  bool Feed(std::string_view data, const std::function<bool(std::string_view)>& line);
  size_t buffered() const { return buffer_.size(); }
  void Reset() { buffer_.clear(); }

 private:
  std::string buffer_;
};

// The objects the client has delivered, by key: what a re-LIST is compared
// against, and the last known state sent with kDeleted for a vanished object.
class KnownObjects {
 public:
  // Events for a full LIST result `items`: kDeleted for known objects absent
  // from it (and for a known key whose uid changed), kAdded for new ones,
  // kModified for the rest; afterwards the store holds exactly `items`. The
  // kSynced event is not included.
  std::vector<WatchEvent> Replace(Resource resource, std::vector<ObjectText> items);
  // A watch event; the returned event is what the consumer gets (a kDeleted
  // carries the server's final object).
  WatchEvent Apply(Resource resource, WatchEventType type, ObjectText object);
  size_t size() const { return objects_.size(); }

 private:
  struct Entry {
    std::string uid;
    std::string resource_version;
    std::string json;
  };
  std::unordered_map<std::string, Entry> objects_;
};

class Reflector {
 public:
  using Sink = std::function<void(WatchEvent)>;
  using ErrorSink = std::function<void(Resource, const Error&)>;

  // `info` (which must outlive the reflector) says how the resource is
  // addressed: Info(resource), or the client's discovered version of it.
  Reflector(RestClient& rest, Resource resource, const ResourceInfo& info,
            const WatchOptions& options, Sink sink, ErrorSink on_error);
  ~Reflector();
  void Start();
  // Asks the thread to stop (a blocked transfer notices within about a second).
  void RequestStop();
  // RequestStop, then waits for the thread to end.
  void Stop();

 private:
  enum class WatchEnd { kResume, kResumeAfterBackoff, kRelist, kStopped };
  void Run();
  Status List();  // LIST every page, deliver the difference and kSynced; sets rv_
  WatchEnd Watch();
  bool SleepBackoff();  // false when stopped
  void Report(const Error& e);
  std::string CollectionPath() const;

  RestClient& rest_;
  const Resource resource_;
  const ResourceInfo& info_;
  const WatchOptions options_;
  Sink sink_;
  ErrorSink on_error_;
  KnownObjects known_;
  std::string rv_;
  int64_t backoff_ms_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread thread_;
};

}  // namespace ksched::client
