#!/usr/bin/env bash
# Build ai-fabric with ns-3's MPI module (one simulation across processes, on ns-3's
# distributed engine). Debian's ns-3 has no MPI module, so this builds ns-3 from source: the
# ns-3.48 release tarball beside the repository, configured with MPI (Debian's OpenMPI) and only
# the modules ai-fabric needs (core, network, bridge, traffic-control, internet, mpi), with
# ai-fabric in contrib/ (a symlink to this working tree). The tree is extracted once and the
# build is incremental: the first build takes about 15 minutes on 2 cores, a rebuild after a
# change only what changed.
#
#   tools/ci/build-mpi.sh [TARGET...]
#
# Targets default to the library and the programs that run across processes
# (distributed-permutation). Prints the directory of the built programs on its last line.
# Environment: MPI_BUILD_DIR (default build-mpi), NS3_LATEST_TARBALL (default
# ../shared/ns-3/ns-3.48-src.tar.xz beside the repository), JOBS (default nproc). Needs
# libopenmpi-dev and openmpi-bin (tools/ai-fabric.sh mpi-build installs them). Exit status: 0
# built, 1 the build failed, 2 no tarball or no MPI compiler.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tarball="${NS3_LATEST_TARBALL:-$here/../shared/ns-3/ns-3.48-src.tar.xz}"
work="${MPI_BUILD_DIR:-$here/build-mpi}"
jobs="${JOBS:-$(nproc)}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ai-fabric distributed-permutation distributed-collective
    rail-allreduce uet-matrix cc-workload)

if ! command -v mpicxx >/dev/null; then
    echo "build-mpi: no MPI compiler (mpicxx); apt-get install libopenmpi-dev openmpi-bin" >&2
    exit 2
fi
mkdir -p "$work"
work="$(cd "$work" && pwd)"
. "$here/tools/ci/ns3-source-tree.sh"
src="$(ns3_source_tree build-mpi "$tarball" "$work")"

bld="$src/cmake-cache"
if [ ! -f "$bld/CMakeCache.txt" ]; then
    if ! cmake -S "$src" -B "$bld" -DCMAKE_BUILD_TYPE=release -DNS3_MPI=ON \
        -DNS3_ENABLED_MODULES="ai-fabric;mpi" -DNS3_EXAMPLES=ON -DNS3_TESTS=OFF \
        -DNS3_WARNINGS_AS_ERRORS=OFF >"$work/configure.log" 2>&1; then
        cat "$work/configure.log" >&2
        echo "build-mpi: configuring ns-3 with MPI failed" >&2
        exit 1
    fi
    if ! grep -q "MPI Support *: ON" "$work/configure.log"; then
        grep -i mpi "$work/configure.log" >&2 || true
        echo "build-mpi: ns-3 did not find MPI (libopenmpi-dev)" >&2
        exit 1
    fi
fi
start=$(date +%s)
if ! cmake --build "$bld" -j "$jobs" --target "${targets[@]}" >"$work/build.log" 2>&1; then
    grep -E "error|Error" "$work/build.log" | head -n 40 >&2
    echo "build-mpi: the build failed (whole log: $work/build.log)" >&2
    exit 1
fi
echo "build-mpi: built ${targets[*]} in $(($(date +%s) - start)) s"
echo "$src/build/contrib/ai-fabric/examples"
