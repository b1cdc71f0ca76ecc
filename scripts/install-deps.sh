#!/usr/bin/env bash
# Installs the Debian packages ksched builds and tests with. Safe to re-run.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev \
  libsimdjson-dev nlohmann-json3-dev libyaml-dev rapidjson-dev libcli11-dev libfmt-dev \
  libtbb-dev libcpp-httplib-dev libcurl4-openssl-dev libssl-dev openssl \
  libgtest-dev libgmock-dev googletest libbenchmark-dev python3 \
  etcd-server xz-utils curl >/dev/null  # etcd, xz, curl: ../shared/apiserver for tests/cluster
# A headless browser for the -o html test (src/planning/html_report_test.cc).
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
# ksched run: Prometheus metrics.
$SUDO apt-get install -y -qq --no-install-recommends prometheus-cpp-dev >/dev/null
echo "install-deps: done"
