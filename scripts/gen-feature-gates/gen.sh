#!/usr/bin/env bash
# Regenerates src/config/feature_gates_v135.inc from upstream's own gate
# registry: runs main.go inside a tree that vendors k8s.io/kubernetes v1.35.x
# (e.g. ../shared/refsched135's extracted module, /tmp/refsched135-build/src).
# usage: gen.sh TREE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=${1:?usage: gen.sh TREE}
mkdir -p "$tree/cmd/ksched-gatedump"
cp "$here/main.go" "$tree/cmd/ksched-gatedump/main.go"
( cd "$tree" && GOFLAGS=-mod=vendor GOPROXY=off GOTOOLCHAIN=local go run ./cmd/ksched-gatedump ) |
  python3 "$here/gen.py" v1.35 > "$here/../../src/config/feature_gates_v135.inc"
rm -rf "$tree/cmd/ksched-gatedump"
