#!/usr/bin/env bash
# Builds upstream kube-apiserver and kube-scheduler v1.35.4 from the Go module proxy, once
# per machine, into a cache outside the tree, and prints where they are.
#
#   scripts/k8s-v135.sh            # build if missing; prints KUBE_APISERVER=... KUBE_SCHEDULER=...
#   scripts/k8s-v135.sh --check    # print them if built, else exit 1 (never builds)
#   eval "$(scripts/k8s-v135.sh)"  # then "$KUBE_APISERVER" ...
#
# The module tests/cluster/k8s-v1.35 pins k8s.io/kubernetes v1.35.4 and its staging modules
# (k8s.io/* v0.35.4, by replace) with go.sum; nothing fetched is committed. The binaries go to
# ${KSCHED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ksched}/k8s-v1.35.4/ and are rebuilt only when
# one is missing, does not report v1.35.4, or was built from a different go.mod/go.sum/flags.
# Concurrent callers wait on a lock and the binaries appear atomically.
#
# Needs Go >= 1.25 (GO, else /usr/local/go/bin/go, else go on PATH) and the module proxy
# (GOPROXY) the first time. A cold build takes about 10 CPU-minutes (docs/run.md);
# it runs under nice (KSCHED_NICE, default 10). Go's own module and build caches
# (GOMODCACHE, GOCACHE) are used as configured; a cold build downloads 82 MB of modules
# (530 MB unpacked) and adds 2.3 GB to the build cache (Go trims entries unused for 5 days).
set -euo pipefail

VERSION=v1.35.4
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODDIR=$(cd "$HERE/../tests/cluster/k8s-v1.35" && pwd)
CACHE_ROOT=${KSCHED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ksched}
OUT=$CACHE_ROOT/k8s-$VERSION
BINARIES=(kube-apiserver kube-scheduler)

mode=build
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "k8s-v135.sh: unknown argument $1 (--check, --help)" >&2; exit 2 ;;
esac

# Upstream's release builds stamp the version with these -X flags (hack/lib/version.sh);
# without them --version and /version say v0.0.0-master, and clients that pick their
# behaviour by server version (ksched run among them) would misread the server. The module
# proxy does not say which commit the tag is, so gitCommit stays empty; buildDate is the
# tag's time (the proxy's), so that a rebuild gives the same bytes.
ldflags="-s -w"
for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
  ldflags+=" -X $pkg.gitVersion=$VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=35"
  ldflags+=" -X $pkg.gitCommit= -X $pkg.gitTreeState=clean -X $pkg.buildDate=2026-04-15T18:01:22Z"
done
# upstream builds both binaries static (KUBE_STATIC_BINARIES): no cgo, no C toolchain needed.
# No build tags: v1.35 has no in-tree cloud providers left, so "providerless" changes nothing.
build_flags=(-trimpath -buildvcs=false -ldflags "$ldflags")

stamp() {  # what the binaries were built from: the pins and the flags
  { cat "$MODDIR/go.mod" "$MODDIR/go.sum"; echo "CGO_ENABLED=0 ${build_flags[*]}"; } |
    sha256sum | cut -d' ' -f1
}

up_to_date() {
  [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$(stamp)" ] || return 1
  local b
  for b in "${BINARIES[@]}"; do
    [ -x "$OUT/$b" ] || return 1
    "$OUT/$b" --version 2>/dev/null | grep -qx "Kubernetes $VERSION" || return 1
  done
}

report() {
  echo "KUBE_APISERVER=$OUT/kube-apiserver"
  echo "KUBE_SCHEDULER=$OUT/kube-scheduler"
}

if up_to_date; then report; exit 0; fi
if [ $mode = check ]; then
  echo "k8s-v135.sh: no kube-apiserver/kube-scheduler $VERSION in $OUT (run $0)" >&2
  exit 1
fi

GO=${GO:-}
if [ -z "$GO" ]; then
  if [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go; else GO=$(command -v go || true); fi
fi
[ -n "$GO" ] && [ -x "$GO" ] || { echo "k8s-v135.sh: no Go toolchain (set GO=/path/to/go)" >&2; exit 2; }
go_minor=$("$GO" env GOVERSION | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ "${go_minor:-0}" -lt 25 ]; then
  echo "k8s-v135.sh: $GO is $("$GO" env GOVERSION); Kubernetes $VERSION needs Go >= 1.25" >&2
  exit 2
fi

mkdir -p "$OUT"
exec 9> "$OUT/.lock"
if ! flock -n 9; then
  echo "k8s-v135.sh: another build into $OUT is running; waiting for it" >&2
  flock 9
fi
# The one we waited for may have built them.
if up_to_date; then report; exit 0; fi

TMP=$(mktemp -d "$OUT/.build.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
echo "k8s-v135.sh: building kube-apiserver and kube-scheduler $VERSION with $("$GO" env GOVERSION)" \
  "into $OUT (cold: several minutes)" >&2
t0=$(date +%s)
# -mod=readonly: go.mod and go.sum are the pins, never rewritten. GOWORK=off: a go.work above
# the checkout must not change what is built. GOTOOLCHAIN=local: never download a toolchain.
# -buildvcs=false: the checkout's git state is not the binaries' (and a CI checkout owned by
# another user makes git refuse to answer).
(
  cd "$MODDIR"
  CGO_ENABLED=0 GOWORK=off GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly" \
    nice -n "${KSCHED_NICE:-10}" "$GO" build "${build_flags[@]}" -o "$TMP/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-scheduler
) >&2
for b in "${BINARIES[@]}"; do
  got=$("$TMP/$b" --version 2>&1 || true)
  [ "$got" = "Kubernetes $VERSION" ] || {
    echo "k8s-v135.sh: built $b reports \"$got\", not Kubernetes $VERSION" >&2
    exit 1
  }
done
for b in "${BINARIES[@]}"; do mv -f "$TMP/$b" "$OUT/$b"; done
stamp > "$OUT/stamp"
echo "k8s-v135.sh: built in $(($(date +%s) - t0)) s" >&2
report
