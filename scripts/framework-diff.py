#!/usr/bin/env python3
"""Replays framework vectors with `ksched replay` and prints, per file, PASS or
FAIL with the first differing field (step, pod, JSON path, expected, got).

usage: scripts/framework-diff.py [-k KSCHED] [-q] [FILE_OR_GLOB ...]
  default files: ../shared/framework/mconf-*.json (beside the repository)
  -k  the ksched binary (default build/ksched)
  -q  print failures only, then the pass count
  -p  PLUGIN: print only failures whose first mismatch mentions PLUGIN (e.g.
      NodeResourcesFit); the others are counted as "other"

Lines are compared as parsed JSON: the same fields with the same values.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def first_diff(e, a, path=""):
    if e == a:
        return None
    if isinstance(e, dict) and isinstance(a, dict):
        for k in sorted(set(e) | set(a)):
            sub = path + "." + k
            if k not in e:
                return sub, "(absent)", a[k]
            if k not in a:
                return sub, e[k], "(absent)"
            d = first_diff(e[k], a[k], sub)
            if d:
                return d
        return None
    if isinstance(e, list) and isinstance(a, list) and len(e) == len(a):
        for i, (x, y) in enumerate(zip(e, a)):
            d = first_diff(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return path, e, a


def short(v, n=200):
    s = v if isinstance(v, str) else json.dumps(v, sort_keys=True)
    return s if len(s) <= n else s[:n] + "..."


def check(ksched, path, plugin):
    expected_path = path[: -len(".json")] + ".expected.jsonl"
    with open(expected_path) as f:
        expected = [json.loads(l) for l in f if l.strip()]
    p = subprocess.run([ksched, "replay", path], capture_output=True, text=True)
    if p.returncode != 0:
        return "ksched failed (%d): %s" % (p.returncode, p.stderr.strip()[:300])
    actual = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    for i, e in enumerate(expected):
        if i >= len(actual):
            return "step %d (%s): missing" % (i, e.get("pod"))
        d = first_diff(e, actual[i])
        if d:
            msg = "step %d (%s) %s: expected %s, got %s" % (
                i, e.get("pod"), d[0], short(d[1]), short(d[2]))
            if plugin is not None and plugin not in msg:
                return "OTHER"
            return msg
    if len(actual) > len(expected):
        return "%d extra steps" % (len(actual) - len(expected))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-k", default=os.path.join(ROOT, "build", "ksched"))
    ap.add_argument("-q", action="store_true")
    ap.add_argument("-p", default=None)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    shared = os.path.join(ROOT, "..", "shared")
    if not os.path.isdir(shared):  # a worktree under /work/wt/<branch>
        shared = os.path.join(ROOT, "..", "..", "shared")
    patterns = args.files or [os.path.join(shared, "framework", "mconf-*.json")]
    files = []
    for pat in patterns:
        files += sorted(f for f in glob.glob(pat) if not f.endswith(".expected.jsonl"))
    passed = other = 0
    for f in files:
        why = check(args.k, f, args.p)
        name = os.path.basename(f)
        if why == "OTHER":
            other += 1
        elif why is None:
            passed += 1
            if not args.q:
                print("PASS %s" % name)
        else:
            print("FAIL %s: %s" % (name, why))
    print("%d/%d pass%s" % (passed, len(files),
                           ", %d fail elsewhere" % other if args.p else ""))
    return 0 if passed == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
