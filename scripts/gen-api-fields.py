#!/usr/bin/env python3
"""Writes src/api/api_fields.inc: the field names of the Kubernetes objects
ksched reads, for the unknown-field check (src/api/unknown_fields.h).

Three sources, all read from local copies (nothing is downloaded here):
  --go DIR    a Kubernetes v1.15 source tree (or a git dir with --git): the Go
              structs' json tags of core/v1, apps/v1, batch/v1, policy/v1beta1,
              storage/v1, scheduling/v1 and meta/v1 give the v1.15 fields;
  --ts DIR    the unpacked npm package kubernetes-types (1.30): its TypeScript
              interfaces give the fields later releases added, which are
              accepted without a message (they are not typos) unless
              api/version_skew.h names them as changing what a scheduler does;
  --later-go DIR  the k8s.io directory of a later release's Go types (v1.35:
              vendor/k8s.io of the vendored v1.35 tree, with api/ and
              apimachinery/): its core/v1, apps/v1, batch/v1, policy/v1,
              storage/v1, scheduling/v1 and meta/v1 structs add the fields up
              to that release, as --ts does. Fields the TypeScript package has
              and the later release removed stay accepted (a snapshot of a
              cluster between still carries them).

Only the names, nesting and shape (object, array of objects, anything else)
are kept. A type whose fields are not known (maps, RawExtension, FieldsV1) is
not descended into.

  scripts/gen-api-fields.py --git /work/.mirror/xnile+kubernetes-1.15.5/repo \\
      --ts /tmp/kubernetes-types/package \\
      --later-go /work/upstream/v135/vendor/k8s.io > src/api/api_fields.inc
"""
import argparse
import os
import re
import subprocess
import sys

GO_FILES = [
    "staging/src/k8s.io/api/core/v1/types.go",
    "staging/src/k8s.io/api/apps/v1/types.go",
    "staging/src/k8s.io/api/batch/v1/types.go",
    "staging/src/k8s.io/api/policy/v1beta1/types.go",
    "staging/src/k8s.io/api/storage/v1/types.go",
    "staging/src/k8s.io/api/scheduling/v1/types.go",
    "staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go",
]
LATER_GO_FILES = [
    "api/core/v1/types.go",
    "api/apps/v1/types.go",
    "api/batch/v1/types.go",
    "api/policy/v1/types.go",
    "api/storage/v1/types.go",
    "api/scheduling/v1/types.go",
    "apimachinery/pkg/apis/meta/v1/types.go",
]
TS_FILES = ["core/v1.d.ts", "apps/v1.d.ts", "batch/v1.d.ts", "policy/v1.d.ts", "storage/v1.d.ts",
            "scheduling/v1.d.ts", "meta/v1.d.ts"]
ROOTS = ["Pod", "Node", "Service", "ReplicationController", "ReplicaSet", "StatefulSet",
         "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "PodDisruptionBudget",
         "PriorityClass", "Namespace", "CSINode", "CSIDriver", "Deployment", "Job", "DaemonSet",
         "CSIStorageCapacity"]
# Leaf types whose JSON is a scalar although they are named types.
SCALARS = {"Quantity", "Time", "MicroTime", "IntOrString", "Duration", "Fields", "FieldsV1",
           "RawExtension", "Object"}


def read_go(args, path):
    if args.git:
        return subprocess.run(["git", "--git-dir=" + args.git, "show", "HEAD:" + path],
                              check=True, capture_output=True, text=True).stdout
    with open(os.path.join(args.go, path)) as f:
        return f.read()


def parse_go(text, types):
    """types: name -> {field: (shape, type)}; shape 'obj', 'arr' or 'leaf'."""
    for m in re.finditer(r"^type (\w+) struct \{\n(.*?)^\}", text, re.S | re.M):
        name, body = m.group(1), m.group(2)
        fields = {}
        inline = []
        for line in body.split("\n"):
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            tag = re.search(r'json:"([^"]*)"', line)
            if not tag:
                continue
            json_name = tag.group(1).split(",")[0]
            if json_name == "-":
                continue
            parts = line.split()
            if json_name == "":  # embedded, inline
                inline.append(parts[0].split(".")[-1].lstrip("*"))
                continue
            # An embedded struct with its own json name: `metav1.ObjectMeta `json:"metadata"``.
            gotype = parts[0] if parts[1].startswith("`") else parts[1]
            shape = "leaf"
            if gotype.startswith("map["):
                t = None
            else:
                arr = gotype.startswith("[]")
                t = gotype.lstrip("*[]").split(".")[-1]
                if t in SCALARS or t[0].islower():
                    t = None
                elif arr and t != "byte":
                    shape = "arr"
                else:
                    shape = "obj"
            fields[json_name] = (shape if t else "leaf", t)
        types[name] = {"fields": fields, "inline": inline}


def parse_ts(text, types):
    for m in re.finditer(r"^export interface (\w+) \{\n(.*?)^\}", text, re.S | re.M):
        name, body = m.group(1), m.group(2)
        fields = {}
        depth = 0
        for line in body.split("\n"):
            s = line.strip()
            if s.startswith("/**") or s.startswith("*") or s.startswith("*/") or not s:
                continue
            if depth > 0:
                if s.startswith("}"):
                    depth -= 1
                continue
            fm = re.match(r"^(\w+)\??: (.*?);?$", s)
            if not fm:
                continue
            fname, ftype = fm.group(1), fm.group(2)
            if ftype == "{":
                depth += 1
                fields[fname] = ("leaf", None)
                continue
            am = re.match(r"^Array<(.*)>$", ftype)
            arr = ftype.endswith("[]") or am is not None
            t = (am.group(1) if am else ftype).rstrip("[]").split(".")[-1]
            if t in SCALARS or t in ("string", "number", "boolean", "any") or not t[0].isupper():
                fields[fname] = ("leaf", None)
            else:
                fields[fname] = ("arr" if arr else "obj", t)
        types[name] = {"fields": fields, "inline": []}


def flatten(types):
    out = {}

    def get(name, seen=()):
        t = types.get(name)
        if t is None:
            return None
        fields = dict(t["fields"])
        for inl in t["inline"]:
            if inl in seen:
                continue
            sub = get(inl, seen + (name,))
            if sub:
                fields.update(sub)
        return fields

    for name in types:
        out[name] = get(name)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--go")
    ap.add_argument("--git")
    ap.add_argument("--ts", required=True)
    ap.add_argument("--later-go")
    args = ap.parse_args()
    old_types = {}
    for f in GO_FILES:
        parse_go(read_go(args, f), old_types)
    new_types = {}
    for f in TS_FILES:
        with open(os.path.join(args.ts, f)) as fh:
            parse_ts(fh.read(), new_types)
    old = flatten(old_types)
    new = flatten(new_types)
    if args.later_go:
        later_types = {}
        for f in LATER_GO_FILES:
            with open(os.path.join(args.later_go, f)) as fh:
                parse_go(fh.read(), later_types)
        for name, fields in flatten(later_types).items():
            if not fields:
                continue
            merged = dict(new.get(name) or {})
            for k, v in fields.items():
                merged.setdefault(k, v)
            new[name] = merged

    # Reachable types from the roots, through either version.
    order = []
    seen = set()
    stack = list(ROOTS)
    while stack:
        t = stack.pop(0)
        if t in seen:
            continue
        seen.add(t)
        fields = {}
        for src in (old.get(t) or {}, new.get(t) or {}):
            for k, (shape, ft) in src.items():
                fields.setdefault(k, (shape, ft))
        if not fields:
            continue
        order.append(t)
        for shape, ft in fields.values():
            if ft and ft not in seen:
                stack.append(ft)
    known = set(order)
    index = {t: i for i, t in enumerate(order)}
    w = sys.stdout.write
    w("// Generated by scripts/gen-api-fields.py: field names of the Kubernetes v1.15 API\n")
    w("// (and of later releases up to v1.35, marked kNewer) for the unknown-field check.\n")
    w("// Do not edit.\n")
    for t in order:
        fields = {}
        o = old.get(t) or {}
        n = new.get(t) or {}
        for k in set(o) | set(n):
            shape, ft = o.get(k) or n.get(k)
            if ft not in known:
                shape, ft = "leaf", None
            # Only a field added to a type v1.15 has is "newer"; the fields of a
            # type added later are reported through the field that holds it.
            fields[k] = (shape, ft, bool(o) and k not in o)
        w("constexpr SchemaField k%sFields[] = {\n" % t)
        for k in sorted(fields):
            shape, ft, newer = fields[k]
            sh = {"leaf": "kLeaf", "obj": "kObject", "arr": "kArray"}[shape]
            w('    {"%s", %s, %d, %s},\n' % (k, sh, index[ft] if ft else -1,
                                             "kNewer" if newer else "kV115"))
        w("};\n")
    w("constexpr SchemaType kSchemaTypes[] = {\n")
    for t in order:
        w('    {"%s", k%sFields, std::size(k%sFields)},\n' % (t, t, t))
    w("};\n")
    w("constexpr int kRootTypes[] = {%s};\n" % ", ".join(str(index[r]) for r in ROOTS))
    for r in ROOTS:
        w("constexpr int kType%s = %d;\n" % (r, index[r]))


if __name__ == "__main__":
    main()
