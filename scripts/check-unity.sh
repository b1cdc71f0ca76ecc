#!/usr/bin/env bash
# Checks that the library and the unit tests compile as CI builds them: merged
# into unity sources.
#
# Builds under ccache compile one source at a time (CMakeLists.txt), so a
# file-local name that two sources of the same unity batch both define is
# only seen by a build without ccache, which is CI's. This script generates
# both unity layouts (the release one, which keeps the hot path out of the
# batches, and the sanitizer one, which merges it too) and parses every unity
# source with -fsyntax-only: about two minutes on 2 cores instead of two full
# builds. Run it before pushing a change that adds or renames a source or a
# file-local function.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
WORK=${UNITY_CHECK_DIR:-build-unity-check}

check() {
  local dir=$1
  shift
  CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_CXX_COMPILER_LAUNCHER= -DCMAKE_C_COMPILER_LAUNCHER= "$@" >/dev/null
  python3 - "$dir/compile_commands.json" "$JOBS" <<'EOF'
import json, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

entries = [e for e in json.load(open(sys.argv[1])) if "/Unity/" in e["file"]]
if not entries:
    sys.exit("no unity sources: is UNITY_BUILD still on for libksched?")

def syntax_only(e):
    args = shlex.split(e["command"])
    # Drop the object and depfile outputs; keep every flag and define.
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT"):
            skip = True
            continue
        if a in ("-MD", "-c"):
            continue
        out.append(a)
    # The test targets' precompiled header may not be built yet: include its
    # header as text instead (the "-Xclang -include -Xclang X.hxx" pair stays).
    i = 0
    while i < len(out):
        if out[i] == "-include-pch" and i > 0 and out[i - 1] == "-Xclang":
            del out[i - 1:i + 3]
            continue
        i += 1
    r = subprocess.run(out + ["-fsyntax-only"], cwd=e["directory"], capture_output=True, text=True)
    return e["file"], r.returncode, r.stderr

failed = 0
with ThreadPoolExecutor(int(sys.argv[2])) as pool:
    for f, rc, err in pool.map(syntax_only, entries):
        if rc != 0:
            failed += 1
            print(f"FAILED: {f}\n{err}", file=sys.stderr)
print(f"{len(entries) - failed}/{len(entries)} unity sources parse ({sys.argv[1]})")
sys.exit(1 if failed else 0)
EOF
}

check "$WORK/release" -DCMAKE_BUILD_TYPE=Release
check "$WORK/sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKSCHED_FUZZ=ON
