// The API server writes a scheduling cycle makes, as an interface so that the
// live scheduler's tests can record them instead of sending them. In `ksched
// run` they go to client::ClusterClient (ClientSchedulerApi below).
#pragma once

#include <string_view>

#include "client/cluster_client.h"
#include "framework/prebind.h"
#include "live/prebind_api.h"
#include "util/result.h"

namespace ksched::live {

class SchedulerApi {
 public:
  virtual ~SchedulerApi() = default;
  virtual Status BindPod(std::string_view ns, std::string_view name, std::string_view uid,
                         std::string_view node) = 0;
  virtual Status DeletePod(std::string_view ns, std::string_view name, std::string_view uid) = 0;
  virtual Status SetNominatedNodeName(std::string_view ns, std::string_view name,
                                      std::string_view node) = 0;
  virtual Status SetPodScheduledCondition(std::string_view ns, std::string_view name,
                                          std::string_view status, std::string_view reason,
                                          std::string_view message) = 0;
  // DisruptionTarget=True on a victim, with `reason` (v1.26
  // PreemptionByKubeScheduler, v1.35 PreemptionByScheduler).
  virtual Status SetDisruptionTarget(std::string_view ns, std::string_view name,
                                     std::string_view reason, std::string_view message) = 0;
  virtual Status CreateEvent(const client::EventRecord& event) = 0;
  // events.k8s.io/v1 series (ClusterClient::PatchEventSeries); an API
  // without them gets every event created.
  virtual bool EventSeriesSupported() { return false; }
  virtual Status PatchEventSeries(const client::EventRecord& event) { return CreateEvent(event); }
  // The PV and claim calls of PreBind jobs (v1.26 VolumeBinding); null when
  // this API cannot make them (a job then fails with an error).
  virtual framework::PreBindApi* prebind_api() { return nullptr; }
};

class ClientSchedulerApi : public SchedulerApi {
 public:
  explicit ClientSchedulerApi(client::ClusterClient* client) : c_(client), prebind_(client) {}
  Status BindPod(std::string_view ns, std::string_view name, std::string_view uid,
                 std::string_view node) override {
    return c_->BindPod(ns, name, uid, node);
  }
  Status DeletePod(std::string_view ns, std::string_view name, std::string_view uid) override {
    return c_->DeletePod(ns, name, uid);
  }
  Status SetNominatedNodeName(std::string_view ns, std::string_view name,
                              std::string_view node) override {
    return c_->SetNominatedNodeName(ns, name, node);
  }
  Status SetPodScheduledCondition(std::string_view ns, std::string_view name,
                                  std::string_view status, std::string_view reason,
                                  std::string_view message) override {
    return c_->SetPodScheduledCondition(ns, name, status, reason, message);
  }
  Status SetDisruptionTarget(std::string_view ns, std::string_view name, std::string_view reason,
                             std::string_view message) override {
    return c_->SetPodCondition(ns, name, "DisruptionTarget", "True", reason, message);
  }
  Status CreateEvent(const client::EventRecord& event) override { return c_->CreateEvent(event); }
  bool EventSeriesSupported() override { return c_->writes_events_v1(); }
  Status PatchEventSeries(const client::EventRecord& event) override {
    return c_->PatchEventSeries(event);
  }
  framework::PreBindApi* prebind_api() override { return &prebind_; }

 private:
  client::ClusterClient* c_;
  ClientPreBindApi prebind_;
};

}  // namespace ksched::live
