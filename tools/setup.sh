#!/usr/bin/env bash
# One entry point for a fresh Debian machine: install what is missing, build, then
#   tools/setup.sh run   -> Release build and the main job on its default: the strong solve of
#                           Onitama 3x4 (boar cards) through the out-of-core pipeline, ~15 s
#   tools/setup.sh test  -> build and run every test (what .ci/run calls): in Release, then again
#                           in a second configuration with assertions on under ASan+UBSan
#   tools/setup.sh build -> just the Release build
# Installing is a no-op when every package is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake pkg-config time
          libstxxl-dev liburing-dev libzstd-dev libxxhash-dev
          libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
          pybind11-dev python3-dev python3-numpy python3-pytest
          libcpp-httplib-dev libjs-chart.js chromium librsvg2-dev
          libopenmpi-dev openmpi-bin eatmydata)

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

# Debian's python3, where python3-numpy and python3-pytest install (the Python module is built
# for it and tested with it), rather than another python3 first on PATH.
debian_python() {
  local p
  p=$(dpkg -L python3-minimal 2>/dev/null | awk '/\/bin\/python3$/ && !n++') || true
  echo "${p:-$(command -v python3)}"
}

build() {  # $1 = build dir, $2 = build type, $3... = targets (default: all); ZERMELO_CMAKE_ARGS
  local dir="$1" type="$2"; shift 2
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DPython3_EXECUTABLE="$(debian_python)" \
    ${ZERMELO_CMAKE_ARGS:-} >/dev/null
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
    # Warnings are errors here (CI), not in a user's build: a newer compiler's new warning should
    # not stop someone from solving a game.
    ZERMELO_CMAKE_ARGS="-DZERMELO_WERROR=ON" build build Release
    # Two tests run at once on two cores: an OpenMP worker that spins while it waits for work
    # (libgomp's default) takes CPU from the other test, about a tenth of an Ostle test's.
    export OMP_WAIT_POLICY=PASSIVE
    # Under eatmydata every fsync returns at once. No test can see an fsync (a killed process
    # leaves its writes in the page cache; only a power cut would need them): they were waiting
    # (the external solve's resume test makes 6,007, and took 0.68x the wall time without them).
    # The code still makes every call and checks what it returns.
    (cd build && eatmydata ctest --output-on-failure -j "$(nproc)")
    # The same suite with assertions on, under AddressSanitizer and UndefinedBehaviorSanitizer
    # (only what the tests run: the benchmarks are built and run in Release alone; the flags are
    # ZERMELO_SANITIZE's, in CMakeLists.txt).
    ZERMELO_CMAKE_ARGS="-DZERMELO_SANITIZE=ON -DZERMELO_WERROR=ON" \
      build build-asan Debug zermelo zermelo_tests
    # eatmydata preloads its library ahead of the ASan runtime, which ASan would refuse: the
    # order does not matter here (it wraps only the sync calls, which ASan does not intercept).
    cd build-asan && ASAN_OPTIONS=verify_asan_link_order=0 \
      exec eatmydata ctest --output-on-failure -j "$(nproc)" ;;
  build)
    build build Release ;;
  *) echo "usage: tools/setup.sh [run [ZERMELO ARGS...]|test|build]" >&2; exit 2 ;;
esac
