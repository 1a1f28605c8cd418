#!/usr/bin/env bash
# Verifies every example and gradient kernel of the corpus in upstream mlir-opt against qd's IRDL:
#   verify-corpus.sh IRDL_FILE WORK_DIR REPO_ROOT
# Three stages per kernel file: as written (qd), after reverse mode (ad, adstack), after
# convert-qd-to-lowered (lowered). Each stage's IRDL forms go to mlir-opt in one
# --split-input-file run (one process instead of one per file). Prints one line per stage
# with the number of files and of ops of each dialect that mlir-opt verified; exits 1, naming
# the file, when qd-opt or mlir-opt fails on one.
set -u
irdl=$1
root=$3
# A fresh directory per run (WORK_DIR.XXXXXX), kept only when something fails: runs of the
# suite that share a build directory do not see each other's files.
work=$(mktemp -d "$2.XXXXXX")

files=()
for f in "$root"/examples/*.mlir "$root"/examples/grad/*.mlir "$root"/examples/grad/peer/*.mlir; do
  [ -e "$f" ] && files+=("$f")
done

ad="reverse-mode-ad,minimize-tape,determine-ad-stack-size"
status=0
for stage in qd ad lowered; do
  case $stage in
    qd) passes=() ;;
    ad) passes=(-p "$ad") ;;
    lowered) passes=(-p "$ad,convert-qd-to-lowered") ;;
  esac
  all="$work/$stage.mlir"
  : > "$all"
  n=0
  for f in "${files[@]}"; do
    rel=${f#"$root"/}
    out="$work/$stage-${rel//\//_}"
    if ! qd-opt "${passes[@]}" --print-irdl-form "$f" -o "$out" 2> "$out.err"; then
      echo "FAIL $stage qd-opt ${f#"$root"/}"
      cat "$out.err"
      status=1
      continue
    fi
    [ $n -gt 0 ] && echo "// -----" >> "$all"
    cat "$out" >> "$all"
    n=$((n + 1))
  done
  if ! mlir-opt --irdl-file="$irdl" --split-input-file --mlir-print-op-generic "$all" -o "$work/$stage.out" 2> "$work/$stage.err"; then
    # Name the files that fail, one mlir-opt run each.
    for f in "${files[@]}"; do
      rel=${f#"$root"/}
    out="$work/$stage-${rel//\//_}"
      [ -s "$out" ] || continue
      if ! mlir-opt --irdl-file="$irdl" "$out" -o /dev/null 2> "$out.mlir-err"; then
        echo "FAIL $stage mlir-opt ${f#"$root"/}"
        head -5 "$out.mlir-err"
      fi
    done
    status=1
  fi
  counts=""
  for d in qd ad adstack lowered; do
    c=$(grep -o "\"$d\.[a-z_]*\"(" "$work/$stage.out" 2> /dev/null | wc -l)
    counts="$counts $d=$c"
  done
  echo "$stage: $n files verified,$counts ops"
done
[ $status -eq 0 ] && rm -rf "$work"
exit $status
