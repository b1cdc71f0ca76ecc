# Tests against a real kube-apiserver v1.15.5 (../shared/apiserver): every
# tests/cluster/*_test.cc in one binary that starts one server (etcd +
# kube-apiserver, ~10-15 s) and shares it between its tests. One CTest test
# runs the whole binary, so the server starts once per run.
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
  add_test(NAME cluster_tests COMMAND ksched_cluster_tests)
  set_tests_properties(cluster_tests PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endif()
