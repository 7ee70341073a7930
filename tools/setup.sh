#!/usr/bin/env bash
# One entry point for a fresh Debian machine: install what is missing, build, then
#   tools/setup.sh run   -> Release build and the main job on its default: the strong solve of
#                           Onitama 3x4 (boar cards) through the out-of-core pipeline, ~15 s
#   tools/setup.sh test  -> build and run every test (what .ci/run calls)
#   tools/setup.sh build -> just the Release build
# Installing is a no-op when every package is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake pkg-config time
          libstxxl-dev liburing-dev libzstd-dev libxxhash-dev
          libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
          libcpp-httplib-dev libjs-chart.js chromium)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}" >&2
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

build() {  # $1 = build dir, $2 = build type, $3... = targets (default: all)
  local dir="$1" type="$2"; shift 2
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" >/dev/null
  if [ $# -gt 0 ]; then cmake --build "$dir" -j "$(nproc)" --target "$@"; else cmake --build "$dir" -j "$(nproc)"; fi
}

mode="${1:-run}"
install_missing
case "$mode" in
  run)
    build build Release zermelo
    shift || true
    if [ $# -eq 0 ]; then
      # The default job, solved afresh each time (about 15 s): a work dir left by an older
      # version may hold a job of another identity, which a solve would rightly refuse to resume.
      rm -rf work/default-onitama-3x4
      set -- --work-dir work/default-onitama-3x4 solve onitama 3x4 boar
    fi
    exec ./build/zermelo "$@" ;;
  test)
    build build Release
    cd build && exec ctest --output-on-failure -j "$(nproc)" ;;
  build)
    build build Release ;;
  *) echo "usage: tools/setup.sh [run [ZERMELO ARGS...]|test|build]" >&2; exit 2 ;;
esac
