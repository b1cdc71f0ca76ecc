# Tests against a real kube-apiserver v1.15.5, v1.26.0 (../shared/apiserver) and v1.35.4
# (built by scripts/k8s-v135.sh, started by the same start.sh): every
# tests/cluster/*_test.cc in one binary that starts one server (etcd +
# kube-apiserver, ~10-15 s) and shares it between its tests. Each CTest test
# below runs the binary once, so its servers start once per run.
file(GLOB KSCHED_CLUSTER_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cluster/*_test.cc)
add_executable(ksched_cluster_tests ${KSCHED_CLUSTER_TESTS}
               ${CMAKE_SOURCE_DIR}/tests/cluster/apiserver_fixture.cc)
target_include_directories(ksched_cluster_tests PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(ksched_cluster_tests PRIVATE libksched GTest::gtest GTest::gtest_main)
target_compile_definitions(ksched_cluster_tests PRIVATE
  KSCHED_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
  KSCHED_SHARED_DIR="${CMAKE_SOURCE_DIR}/../shared"
  KSCHED_BINARY="$<TARGET_FILE:ksched>")
add_dependencies(ksched_cluster_tests ksched)
if(CMAKE_BUILD_TYPE MATCHES "Release|RelWithDebInfo")
  target_compile_options(ksched_cluster_tests PRIVATE -O1)
endif()
# Not in the sanitizer build, which scripts/run-tests.sh builds without this
# target (as microbench_smoke).
if(NOT KSCHED_SANITIZE)
  # (The v1.35 server's tests run below, where its binaries are built first.)
  add_test(NAME cluster_tests COMMAND ksched_cluster_tests --gtest_filter=-RunE2E135.*)
  set_tests_properties(cluster_tests PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE LABELS release)
  # The same faults (restart mid-run, two replicas on a Lease with the leader
  # killed, cut watches, 409 races, a node deleted while assumed) and the
  # client's checks, again on the real kube-apiserver v1.26.0: the binary's
  # main server is then v1.26 (KSCHED_TEST_KUBE_VERSION).
  add_test(NAME cluster_tests_v126_faults
           COMMAND ksched_cluster_tests --gtest_filter=RunE2E.*:ClientCluster.*)
  set_tests_properties(cluster_tests_v126_faults PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE LABELS release
                       ENVIRONMENT KSCHED_TEST_KUBE_VERSION=1.26)
  # Upstream kube-apiserver and kube-scheduler v1.35.4, built from the Go module proxy
  # (tests/cluster/k8s-v1.35 pins them) into a cache outside the tree, once per machine:
  # about 10 CPU-minutes cold, 0.3 s when cached. A setup test of its own, so that a cold
  # build is neither counted against a test's timeout nor run beside timed tests.
  add_test(NAME k8s_v135_binaries COMMAND ${CMAKE_SOURCE_DIR}/scripts/k8s-v135.sh)
  set_tests_properties(k8s_v135_binaries PROPERTIES TIMEOUT 3600 RUN_SERIAL TRUE LABELS release
                       FIXTURES_SETUP k8s_v135)
  # On the real kube-apiserver v1.35.4 (KSCHED_TEST_KUBE_VERSION=1.35: the binary's main
  # server is then v1.35), one server for all: the client's checks, `run` with the v1.35
  # engine it picks there (placement against upstream v1.35, gated pods, QueueingHints),
  # and the two faults every server gets (restart mid-run, leader SIGKILL).
  add_test(NAME cluster_tests_v135
           COMMAND ksched_cluster_tests
                   --gtest_filter=ClientCluster.*:RunE2E135.*:RunE2E.ApiServerRestartMidRunLosesNoPod:RunE2E.TwoReplicasOnlyTheLeaderBindsAndTheStandbyTakesOver)
  set_tests_properties(cluster_tests_v135 PROPERTIES TIMEOUT 900 RUN_SERIAL TRUE LABELS release
                       FIXTURES_REQUIRED k8s_v135
                       ENVIRONMENT KSCHED_TEST_KUBE_VERSION=1.35)
endif()
