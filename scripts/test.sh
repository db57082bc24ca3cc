#!/usr/bin/env bash
# The test command: set up a fresh machine, build from scratch if needed, and
# run the whole lit suite (dialect, front end, driver, code generation, e2e).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cmake --build "${BUILD_DIR:-$root/build}" --target check-gemm-opt
