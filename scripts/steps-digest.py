#!/usr/bin/env python3
"""The chosen-node digest of a step stream, as `ksched bench` computes it.

    refsched135 < FILE | scripts/steps-digest.py
    ksched replay FILE | scripts/steps-digest.py

Reads JSON lines with a "node" field (null or absent when the pod was not
placed, counted as "-") and prints FNV-1a 64 over the node names in step
order, each followed by the byte 0xff, and the number of steps. Lines that
are not steps (no "pod" field) are skipped.
"""
import json
import sys

PRIME = 1099511628211
MASK = (1 << 64) - 1


def main() -> int:
    h = 1469598103934665603
    steps = 0
    for line in sys.stdin.buffer:
        line = line.strip()
        if not line.startswith(b"{"):
            continue
        step = json.loads(line)
        if "pod" not in step:
            continue
        node = step.get("node") or "-"
        for c in node.encode():
            h = ((h ^ c) * PRIME) & MASK
        h = ((h ^ 0xFF) * PRIME) & MASK
        steps += 1
    print(f"{h:016x} {steps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
