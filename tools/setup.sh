#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian 12 machine: the system packages of TOOLCHAIN.md and the lit venv.
# Called by the README's two commands; safe to run again (skips what is already there).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

pkgs=(build-essential ca-certificates python3 python3-venv
      llvm-22-dev libmlir-22-dev libpolly-22-dev libclang-22-dev zlib1g-dev libzstd-dev
      mlir-22-tools mesa-vulkan-drivers libvulkan1 spirv-tools valgrind)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

for tool in lit FileCheck not; do
  [ -x "/usr/lib/llvm-22/bin/$tool" ] || { echo "setup: /usr/lib/llvm-22/bin/$tool is missing" >&2; exit 1; }
done
