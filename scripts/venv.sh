#!/usr/bin/env bash
# Create (or reuse) the project's virtual environment in .venv, then run the given command inside it.
# Installs the package alone (what the demo and every other command need); for `pytest` also the dev tools
# and the Hugging Face extra (torch), which only the tests and the HF back end need. Re-installs when
# pyproject.toml changed since the last install.
# Usage: bash scripts/venv.sh CMD [ARGS...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
py="${PYTHON:-python3}"
want="base"
if [ "${1:-}" = "pytest" ]; then
  want="dev,hf"
fi
# An install is current when its stamp holds this pyproject.toml; the dev,hf install also serves base.
current() { [ -f "$venv/.installed-$1" ] && cmp -s "$root/pyproject.toml" "$venv/.installed-$1"; }
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
if ! current "$want" && ! { [ "$want" = "base" ] && current "dev,hf"; }; then
  echo "[spatialbench] installing into $venv (first run takes a few minutes)" >&2
  log="$venv/install.log"
  # The tests' torch is the CPU build 2.13.0 (a plain `torch` would pull a multi-GB CUDA build).
  torch=()
  target="$root"
  if [ "$want" = "dev,hf" ]; then
    torch=("torch==2.13.0")
    target="$root[$want]"
  fi
  # pip's output goes to a log; on failure its tail is shown.
  if ! { "$venv/bin/python" -m pip install --upgrade pip \
      && { [ ${#torch[@]} -eq 0 ] || "$venv/bin/python" -m pip install "${torch[@]}"; } \
      && "$venv/bin/python" -m pip install -e "$target"; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "[spatialbench] install failed; full log: $log" >&2
    exit 1
  fi
  rm -f "$venv"/.installed-*
  cp "$root/pyproject.toml" "$venv/.installed-$want"
fi
export PATH="$venv/bin:$PATH"
cd "$root"
exec "$@"
