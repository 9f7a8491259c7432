#!/usr/bin/env bash
# Create (or reuse) the project's virtual environment in .venv, then run the given command inside it.
# Re-installs when pyproject.toml changed since the last install. Usage: bash scripts/venv.sh CMD [ARGS...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
stamp="$venv/.installed-pyproject"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
if [ ! -f "$stamp" ] || ! cmp -s "$root/pyproject.toml" "$stamp"; then
  echo "[spatialbench] installing into $venv (first run takes a few minutes)" >&2
  log="$venv/install.log"
  # pip's output goes to a log; on failure its tail is shown.
  if ! { "$venv/bin/python" -m pip install --upgrade pip && "$venv/bin/python" -m pip install -e "$root[dev,hf]"; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "[spatialbench] install failed; full log: $log" >&2
    exit 1
  fi
  cp "$root/pyproject.toml" "$stamp"
fi
export PATH="$venv/bin:$PATH"
cd "$root"
exec "$@"
