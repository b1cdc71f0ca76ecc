// The factory of every in-tree plugin, defined in the plugin's own folder
// and listed once in framework/registry.cc.
#pragma once

#include <memory>

#include "config/types.h"
#include "framework/interface.h"

namespace ksched::framework::plugins {

std::unique_ptr<Plugin> NewPrioritySort(const config::PluginArgs& args, Handle* handle,
                                        Status* error);
std::unique_ptr<Plugin> NewSchedulingGates(const config::PluginArgs& args, Handle* handle,
                                           Status* error);
std::unique_ptr<Plugin> NewNodeUnschedulable(const config::PluginArgs& args, Handle* handle,
                                             Status* error);
std::unique_ptr<Plugin> NewNodeName(const config::PluginArgs& args, Handle* handle, Status* error);
std::unique_ptr<Plugin> NewTaintToleration(const config::PluginArgs& args, Handle* handle,
                                           Status* error);
std::unique_ptr<Plugin> NewNodeAffinity(const config::PluginArgs& args, Handle* handle,
                                        Status* error);
std::unique_ptr<Plugin> NewNodePorts(const config::PluginArgs& args, Handle* handle, Status* error);
std::unique_ptr<Plugin> NewNodeResourcesFit(const config::PluginArgs& args, Handle* handle,
                                            Status* error);
std::unique_ptr<Plugin> NewNodeResourcesBalancedAllocation(const config::PluginArgs& args,
                                                           Handle* handle, Status* error);
std::unique_ptr<Plugin> NewVolumeRestrictions(const config::PluginArgs& args, Handle* handle,
                                              Status* error);
std::unique_ptr<Plugin> NewEBSLimits(const config::PluginArgs& args, Handle* handle, Status* error);
std::unique_ptr<Plugin> NewGCEPDLimits(const config::PluginArgs& args, Handle* handle,
                                       Status* error);
std::unique_ptr<Plugin> NewAzureDiskLimits(const config::PluginArgs& args, Handle* handle,
                                           Status* error);
std::unique_ptr<Plugin> NewCinderLimits(const config::PluginArgs& args, Handle* handle,
                                        Status* error);
std::unique_ptr<Plugin> NewNodeVolumeLimits(const config::PluginArgs& args, Handle* handle,
                                            Status* error);
std::unique_ptr<Plugin> NewVolumeBinding(const config::PluginArgs& args, Handle* handle,
                                         Status* error);
std::unique_ptr<Plugin> NewVolumeZone(const config::PluginArgs& args, Handle* handle,
                                      Status* error);
std::unique_ptr<Plugin> NewPodTopologySpread(const config::PluginArgs& args, Handle* handle,
                                             Status* error);
std::unique_ptr<Plugin> NewInterPodAffinity(const config::PluginArgs& args, Handle* handle,
                                            Status* error);
std::unique_ptr<Plugin> NewImageLocality(const config::PluginArgs& args, Handle* handle,
                                         Status* error);
std::unique_ptr<Plugin> NewNodeDeclaredFeatures(const config::PluginArgs& args, Handle* handle,
                                                Status* error);
std::unique_ptr<Plugin> NewGangScheduling(const config::PluginArgs& args, Handle* handle,
                                          Status* error);
std::unique_ptr<Plugin> NewSelectorSpread(const config::PluginArgs& args, Handle* handle,
                                          Status* error);
std::unique_ptr<Plugin> NewDynamicResources(const config::PluginArgs& args, Handle* handle,
                                            Status* error);
std::unique_ptr<Plugin> NewDefaultPreemption(const config::PluginArgs& args, Handle* handle,
                                             Status* error);
std::unique_ptr<Plugin> NewDefaultBinder(const config::PluginArgs& args, Handle* handle,
                                         Status* error);

}  // namespace ksched::framework::plugins
