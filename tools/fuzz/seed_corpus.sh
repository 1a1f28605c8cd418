#!/usr/bin/env bash
# Seeds tools/fuzz/corpus/<target> (ignored by git) from the repository's own IR:
#   tools/fuzz/seed_corpus.sh passes        # examples/*.mlir, examples/grad/**/*.mlir, lit-tests/**/*.mlir
#   tools/fuzz/seed_corpus.sh parse_verify  # the same plus tools/qd-opt/tests/malformed/*.mlir
# A file of several `// -----` cases (lit's --split-input-file) gives one seed per case. Seeds
# over 64 KiB are left out (the passes target skips them). Seeds are named by content hash, as
# libFuzzer names its own, so running the script twice adds nothing.
set -euo pipefail
target=${1:?usage: seed_corpus.sh TARGET}
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/tools/fuzz/corpus/$target"
mkdir -p "$out"
cd "$root"
{
    find examples -maxdepth 1 -name '*.mlir'
    find examples/grad lit-tests -name '*.mlir' -not -path '*/Output/*'
    if [ "$target" = parse_verify ]; then find tools/qd-opt/tests/malformed -name '*.mlir'; fi
} | while read -r f; do
    tmp=$(mktemp -d)
    awk -v dir="$tmp" '/^\/\/ -----/ { n++; next } { print > (dir "/" n+0) }' "$f"
    for piece in "$tmp"/*; do
        [ "$(stat -c %s "$piece")" -le 65536 ] || continue
        cp "$piece" "$out/$(sha1sum "$piece" | cut -c1-40)"
    done
    rm -r "$tmp"
done
echo "$(ls "$out" | wc -l) files in $out"
