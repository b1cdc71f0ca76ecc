#!/usr/bin/env bash
# CTest `cli_doc`: docs/cli.md must be what scripts/gen-cli-doc.sh writes for
# this binary, so every flag `--help` shows is documented and every flag the
# page documents exists.
#
#   tests/cli_doc_test.sh KSCHED_BINARY REPO_ROOT
set -euo pipefail

fail() {
  echo "cli_doc_test: FAIL: $*" >&2
  exit 1
}

[ $# -eq 2 ] || fail "usage: $0 KSCHED_BINARY REPO_ROOT"
bin=$1
root=$2
doc=$root/docs/cli.md
gen=$root/scripts/gen-cli-doc.sh
fix="run scripts/gen-cli-doc.sh (after building ksched) and commit docs/cli.md"

[ -x "$bin" ] || fail "$bin: missing or not executable"
[ -f "$gen" ] || fail "$gen: missing"
[ -s "$doc" ] || fail "$doc: missing or empty; $fix"

# The binary itself must answer --help, or the comparison below means nothing.
help=$("$bin" --help) || fail "$bin --help exited with status $?"
[ -n "$help" ] || fail "$bin --help printed nothing"

work=$(mktemp -d "${TMPDIR:-/tmp}/cli-doc-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fresh=$work/cli.md
bash "$gen" "$bin" "$fresh" || fail "scripts/gen-cli-doc.sh failed"
[ -s "$fresh" ] || fail "scripts/gen-cli-doc.sh wrote nothing"

# Flags as they appear in CLI11's option lists, the lines under "Options:" up
# to the next blank line: "  -f,--filename TEXT", "  --pod TEXT". Each
# command's section is checked on its own, so a flag moved from one command to
# another is caught too.
flags_by_command() {
  awk '
    /^## / { cmd = substr($0, 4); in_opts = 0; next }
    /^Options:/ { in_opts = 1; next }
    /^$/ || /^```/ { in_opts = 0; next }
    in_opts && /^  -/ {
      n = split($1, names, ",")
      for (i = 1; i <= n; i++) if (names[i] ~ /^--?[A-Za-z]/) print cmd ": " names[i]
    }' "$1" | sort -u
}
flags_by_command "$fresh" >"$work/flags.help"
flags_by_command "$doc" >"$work/flags.doc"

# Not vacuous: the page has a section per command with flags in it.
count=$(wc -l <"$work/flags.help")
[ "$count" -ge 20 ] || fail "only $count flags found in the help output; the parser or the help text broke"
for cmd in $(grep '^## ksched ' "$fresh" | cut -c11-); do
  grep -q "^ksched $cmd: --" "$work/flags.help" || fail "ksched $cmd --help lists no flags"
done

status=0
missing=$(comm -23 "$work/flags.help" "$work/flags.doc")
if [ -n "$missing" ]; then
  echo "cli_doc_test: flags in --help but not in docs/cli.md:" >&2
  printf '%s\n' "$missing" | sed 's/^/  /' >&2
  status=1
fi
stale=$(comm -13 "$work/flags.help" "$work/flags.doc")
if [ -n "$stale" ]; then
  echo "cli_doc_test: flags in docs/cli.md that the binary does not have:" >&2
  printf '%s\n' "$stale" | sed 's/^/  /' >&2
  status=1
fi
if ! diff -u "$doc" "$fresh" >"$work/diff"; then
  echo "cli_doc_test: docs/cli.md differs from the binary's --help:" >&2
  head -60 "$work/diff" >&2
  status=1
fi
[ "$status" -eq 0 ] || fail "docs/cli.md is out of date: $fix"
echo "cli_doc_test: docs/cli.md matches --help ($count flags over $(grep -c '^## ' "$fresh") sections)"
