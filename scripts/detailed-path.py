#!/usr/bin/env python3
"""Times the detailed path (what a person reads) against upstream's own algorithm, in one run.

    scripts/detailed-path.py replay  [--pods 50] [--refsched PATH]   # every ../shared/perf family
    scripts/detailed-path.py snapshot [--existing 100000] [--pending 20]

`replay`: for each 1000-pod family of ../shared/perf, the first N pending pods
(scripts/cut-scenario.py) go through upstream v1.15.5's algorithm printing its steps
(../shared/refsched, built per its README; default /work/tools/refsched or `refsched` on PATH)
and through `ksched replay`, one after the other; the outputs must be byte-identical.
`snapshot`: the mixed family as a `kind: List` of 5,000 nodes and N existing pods
(scripts/perf-to-list.py) through `ksched schedule` with each output format and `--explain`.

Wall seconds are what a person waits; CPU seconds (user + sys, all threads) are steadier on a
shared machine. Prints markdown tables (docs/performance.md).
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PERF = os.path.join(ROOT, "..", "shared", "perf")


def timed(cmd, stdin_path, stdout_path):
    """Runs cmd under /usr/bin/time; returns (wall s, cpu s, peak MiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        with open(stdout_path, "wb") as out:
            stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
            r = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", t.name] + cmd,
                               stdin=stdin, stdout=out)
            if stdin_path:
                stdin.close()
        if r.returncode not in (0, 1):
            sys.exit(f"{' '.join(cmd)}: exit status {r.returncode}")
        wall, user, sys_, rss = t.read().split()[-4:]
    return float(wall), float(user) + float(sys_), int(rss) / 1024


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def replay(a, ksched, tmp):
    refsched = a.refsched or shutil.which("refsched") or "/work/tools/refsched"
    if not os.path.exists(refsched):
        sys.exit("refsched not found: build it per ../shared/refsched/README.md, pass --refsched")
    print(f"First {a.pods} pending pods of each family; upstream = refsched (16 workers).\n")
    print("| family | steps MB | upstream wall s | ksched wall s | wall ratio "
          "| upstream CPU s | ksched CPU s | CPU ratio | ksched peak MiB | identical |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(PERF, "perf-*-1000p.json"))):
        family = os.path.basename(path)[len("perf-"):].split("-5000n")[0]
        cut = os.path.join(tmp, family + ".json")
        with open(cut, "wb") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cut-scenario.py"),
                            "--pending", str(a.pods), path], stdout=f, check=True)
        ref_out, ks_out = os.path.join(tmp, "ref.jsonl"), os.path.join(tmp, "ksched.jsonl")
        rw, rc, _ = timed([refsched], cut, ref_out)
        kw, kc, krss = timed([ksched, "replay", cut], None, ks_out)
        mb = os.path.getsize(ks_out) / 1e6
        same = "yes" if same_bytes(ref_out, ks_out) else "NO"
        print(f"| {family} | {mb:.0f} | {rw:.2f} | {kw:.2f} | {rw / kw:.0f}x | {rc:.2f} | "
              f"{kc:.2f} | {rc / max(kc, 0.01):.0f}x | {krss:.0f} | {same} |")
        sys.stdout.flush()


def snapshot(a, ksched, tmp):
    snap = os.path.join(tmp, "snapshot.json")
    with open(snap, "wb") as f:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "perf-to-list.py"),
                        os.path.join(PERF, "perf-mixed-5000n-1000e-1000p.json"),
                        "--existing", str(a.existing), "--pending", str(a.pending)],
                       stdout=f, check=True)
    empty = os.path.join(tmp, "empty.json")
    with open(empty, "w") as f:
        f.write('{"apiVersion":"v1","kind":"List","items":[]}\n')
    print(f"5,000 nodes, {a.existing:,} existing pods, {a.pending} pending "
          f"({os.path.getsize(snap) / 1e6:.0f} MB of JSON).\n")
    print("| command | output MB | wall s | CPU s | peak MiB |")
    print("|---|---|---|---|---|")
    runs = [("load only (no pending pods)", ["--pending", empty]), ("-o table", []),
            ("-o json", ["-o", "json"]), ("-o yaml", ["-o", "yaml"]),
            ("--explain default/pod-2", ["--explain", "default/pod-2"])]
    for name, extra in runs:
        out = os.path.join(tmp, "out")
        w, c, rss = timed([ksched, "schedule", "-f", snap] + extra, None, out)
        print(f"| `schedule {name}` | {os.path.getsize(out) / 1e6:.1f} | {w:.2f} | {c:.2f} | "
              f"{rss:.0f} |")
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["replay", "snapshot"])
    ap.add_argument("--pods", type=int, default=50, help="replay: pending pods per family")
    ap.add_argument("--refsched", help="replay: upstream harness binary")
    ap.add_argument("--existing", type=int, default=100000, help="snapshot: existing pods")
    ap.add_argument("--pending", type=int, default=20, help="snapshot: pending pods")
    ap.add_argument("--ksched", default=os.path.join(ROOT, "build", "ksched"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (replay if a.what == "replay" else snapshot)(a, a.ksched, tmp)


if __name__ == "__main__":
    main()
