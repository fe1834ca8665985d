#!/usr/bin/env bash
# ai-fabric driver: install what is missing, build, then run the main example or the test suite.
#
#   tools/ai-fabric.sh main [example args...]   install + build what the main example needs
#                                               (the library and rail-allreduce, no tests),
#                                               run it and plot it into out/
#   tools/ai-fabric.sh test [ctest args...]     install + build (plain -O3: the tests check the
#                                               model, not its speed) + run every test (ctest),
#                                               under ns-3's simulator engine and under
#                                               ai-fabric's; then a Debug (-O1) build with
#                                               AddressSanitizer and
#                                               UndefinedBehaviorSanitizer (Clang, build-asan)
#                                               runs the tests again (ai-fabric's engine; but
#                                               tools/ci/sanitizer-skip.txt) and each
#                                               libFuzzer harness of test/fuzz for
#                                               FUZZ_SECONDS (5 here); then
#                                               check the sources against ns-3.48
#                                               (tools/ci/check-ns3-latest.sh)
#   tools/ai-fabric.sh sanitize [ctest args...] install + only the sanitizer and fuzzing stage
#   tools/ai-fabric.sh build                    install + build only (profile-guided and
#                                               link-time optimized: the fast binaries)
#   tools/ai-fabric.sh mpi-build [target...]    install OpenMPI + build ns-3.48 from the
#                                               source tarball with its MPI module and
#                                               ai-fabric in contrib/ (build-mpi/, cached;
#                                               tools/ci/build-mpi.sh): one simulation across
#                                               processes (mpirun -np N <program>)
#   tools/ai-fabric.sh mpi-test                 mpi-build + the distributed runs against the
#                                               sequential one, byte for byte
#                                               (tools/ci/mpi-test.sh)
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (default Release), JOBS (default nproc),
# AI_FABRIC_PGO (build: default 1, a Release build is profile-guided and link-time optimized,
# 0: plain -O3; test: default 0, 1 tests the profile-guided build; main: default 0, plain -O3
# unless a fresh profile is already in BUILD_DIR, 1: train one),
# AI_FABRIC_MEASURED (main: the real nccl-tests log put next to the simulation, default
# data/nccl-tests/h100-4x8-ib400g-all_reduce_perf.txt; a --measured=FILE argument wins),
# NS3_LATEST_TARBALL (default ../shared/ns-3/ns-3.48-src.tar.xz beside the repository),
# SANITIZE_BUILD_DIR (default build-asan), FUZZ_SECONDS (default 15, 5 under `test`: how long
# each fuzz harness fuzzes after replaying its corpus; 0 only replays), SANITIZE_SKIP (`test`:
# default tools/ci/sanitizer-skip.txt, the tests its sanitizer pass leaves to the Release
# passes; none: run them all), AI_FABRIC_SANITIZE (default 1; 0 skips the sanitizer and
# fuzzing stage of `test`). Sanitizer options: tools/ci/sanitizer-env.sh.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$here/build}"
build_type="${BUILD_TYPE:-Release}"
jobs="${JOBS:-$(nproc)}"
# Extra CMake arguments for build() (the test command compiles the suites' own code at -O0).
build_extra=()

# Debian bookworm packages the build, tests and plot scripts need.
packages=(cmake g++ make pkg-config libns3-dev ns3 libgsl-dev libxml2-dev python3-dev
          libgtest-dev tshark python3 python3-matplotlib python3-pandas python3-scipy
          python3-numpy xz-utils
          clang-14 libclang-rt-14-dev llvm-14)
# (clang-14 and libclang-rt-14-dev: the sanitizer runtimes and libFuzzer; llvm-14: the
# llvm-symbolizer that puts function names and lines in sanitizer reports.)

install_missing() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "ai-fabric: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Profile-guided optimization (GCC only; other compilers get a plain build): an instrumented
# build in $build_dir/pgo-train runs tools/bench/pgo-train.sh once, and the real build compiles
# the library with that profile. Training is redone when a model, helper or benchmark source is
# newer than the last training.
pgo_profile_fresh() {
    local stamp="$build_dir/pgo-profile/trained.stamp"
    [ -f "$stamp" ] && [ -z "$(find "$here/model" "$here/helper" "$here/tools/bench" \
        "$here/CMakeLists.txt" -newer "$stamp" -print -quit)" ]
}

train_pgo() {
    local train_dir="$build_dir/pgo-train" profile="$build_dir/pgo-profile"
    local log="$build_dir/pgo-train.log"
    pgo_profile_fresh && return 0
    echo "ai-fabric: training the profile-guided build (AI_FABRIC_PGO=0 skips it)"
    rm -rf "$profile"
    cmake -S "$here" -B "$train_dir" -DCMAKE_BUILD_TYPE=Release -DAI_FABRIC_TESTS=OFF \
        -DAI_FABRIC_PGO=GENERATE -DAI_FABRIC_PGO_DIR="$profile" >/dev/null
    cmake --build "$train_dir" -j "$jobs" --target ai-fabric-bench rail-allreduce switch-incast
    # The training runs' own output (small sweeps on an instrumented build) is no result: it
    # goes to a log, not to the terminal.
    echo "ai-fabric: profile-guided training run (about a minute; its output: $log)"
    if ! bash "$here/tools/bench/pgo-train.sh" "$train_dir" >"$log" 2>&1; then
        echo "ai-fabric: the training run failed; the end of $log:" >&2
        tail -n 20 "$log" >&2
        exit 1
    fi
    touch "$profile/trained.stamp"
}

# build [mode [target...]]: configure and build $build_dir. mode "pgo" (build) trains and
# uses a profile when AI_FABRIC_PGO is not 0; mode "plain" (test) only when AI_FABRIC_PGO=1;
# mode "main" builds without unless AI_FABRIC_PGO=1 or a fresh profile is already there (no
# training). Targets default to everything.
build() {
    local mode="${1:-pgo}"
    shift || true
    local pgo=(-DAI_FABRIC_PGO=OFF) use=0 want
    case "$mode" in
        pgo) want="${AI_FABRIC_PGO:-1}" ;;
        plain) want="${AI_FABRIC_PGO:-0}" ;;
        *) want="${AI_FABRIC_PGO:-reuse}" ;;
    esac
    if [ "$build_type" = Release ] && [[ "$("${CXX:-c++}" -v 2>&1)" == *"gcc version"* ]]; then
        case "$want" in
            0) ;;
            reuse) pgo_profile_fresh && use=1 ;;
            *) use=1 ;;
        esac
    fi
    if [ "$use" = 1 ]; then
        train_pgo
        pgo=(-DAI_FABRIC_PGO=USE -DAI_FABRIC_PGO_DIR="$build_dir/pgo-profile")
    fi
    cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" "${pgo[@]}" \
        "${build_extra[@]}" >/dev/null
    local targets=()
    for t in "$@"; do targets+=(--target "$t"); done
    cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
}

# AddressSanitizer + UndefinedBehaviorSanitizer (with leak detection) over the whole test suite,
# then the libFuzzer harnesses, in one Debug build made by Clang at -O1 (AddressSanitizer's
# recommended level; NS_ASSERT and NS_LOG stay compiled in, and the suite runs in about half
# the CPU time of -O0) (AI_FABRIC_FUZZ=ON also builds the copy of the library that the
# harnesses link, its input-path sources instrumented for coverage). ctest -LE fuzz selects
# the GoogleTest suites, -L fuzz the harnesses (each replays test/fuzz/corpus/<name>, then
# fuzzes). The suites' own code is compiled at -O0 (half the compile time; the library stays
# at -O1). Under `test` (CI) each harness fuzzes 5 s after its replay (FUZZ_SECONDS; 15 under
# `sanitize`), and the whole-scenario tests listed in tools/ci/sanitizer-skip.txt are left to
# the Release passes (SANITIZE_SKIP=none runs them too; `sanitize` runs every test).
sanitize_skip="${SANITIZE_SKIP:-}"
fuzz_seconds="${FUZZ_SECONDS:-15}"
sanitize() {
    local dir="${SANITIZE_BUILD_DIR:-$here/build-asan}"
    local cxx=clang++-14
    command -v "$cxx" >/dev/null || cxx=clang++
    cmake -S "$here" -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DAI_FABRIC_PGO=OFF -DAI_FABRIC_FUZZ=ON \
        -DAI_FABRIC_FUZZ_SECONDS="$fuzz_seconds" -DAI_FABRIC_TEST_COMPILE_OPTIONS=-O0 \
        >/dev/null
    cmake --build "$dir" -j "$jobs"
    # shellcheck source=ci/sanitizer-env.sh
    source "$here/tools/ci/sanitizer-env.sh"
    local skip=()
    if [ -n "$sanitize_skip" ] && [ "$sanitize_skip" != none ]; then
        local names
        names=$({ grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$sanitize_skip" || true; } |
            sed 's/[.]/[.]/g' | paste -sd'|')
        if [ -n "$names" ]; then
            # A parametrized test's CTest name goes on with "  # GetParam() = ...".
            skip=(-E "^($names)( |\$)")
        fi
    fi
    # Under ai-fabric's engine only (its event queues are model code too; ns-3's engine is not
    # ours, and the Release runs above cover both): one sanitized pass keeps CI under its
    # budget on a 2-core machine.
    (cd "$dir" &&
        NS_GLOBAL_VALUE="SimulatorImplementationType=ns3::FabricSimulatorImpl" \
            ctest --output-on-failure -j "$jobs" -LE fuzz "${skip[@]}" "$@")
    (cd "$dir" && ctest --output-on-failure -j "$jobs" -L fuzz)
}

cmd="${1:-main}"
shift || true
case "$cmd" in
    main)
        install_missing
        # Only what the main job needs: the library and the example (tests: `test`).
        build main rail-allreduce
        mkdir -p "$here/out"
        cd "$here/out"
        # The real nccl-tests log shipped in the project (data/nccl-tests/README.md says where
        # it comes from and what it measured), unless AI_FABRIC_MEASURED or the arguments name
        # another; the plot labels another one from its header.
        shipped="$here/data/nccl-tests/h100-4x8-ib400g-all_reduce_perf.txt"
        measured="${AI_FABRIC_MEASURED:-$shipped}"
        extra=(--plot-data=true)
        plot_args=()
        if [[ " $* " == *" --measured="* ]]; then
            :
        elif [ -f "$measured" ]; then
            extra+=("--measured=$measured")
            [ "$measured" = "$shipped" ] && plot_args+=(--measured-label
                "measured: 4 × 8 H100, 400 Gb/s InfiniBand, NCCL 2.26.2 (nccl-tests)")
        else
            echo "ai-fabric: no measured nccl-tests log at $measured: the results and the" \
                "plot show the simulation only (AI_FABRIC_MEASURED=FILE or --measured=FILE)" >&2
        fi
        prefix=rail-allreduce
        for a in "$@"; do [[ "$a" == --prefix=* ]] && prefix="${a#--prefix=}"; done
        "$build_dir/examples/rail-allreduce" "${extra[@]}" "$@"
        /usr/bin/python3 "$here/tools/plots/plot_rail_allreduce.py" "$prefix" \
            --out "$here/out" "${plot_args[@]}"
        echo "ai-fabric: outputs (CSV, PDF/PNG figures) in $here/out"
        ;;
    test)
        # Each stage prints its wall time (CI's budget: under 45 minutes in all).
        stage_start=$SECONDS
        run_start=$SECONDS
        stage_done() {
            echo "ai-fabric: stage '$1' took $((SECONDS - stage_start)) s" \
                "($((SECONDS - run_start)) s so far)"
            stage_start=$SECONDS
        }
        install_missing
        stage_done install
        # The suites' own code (set-up and assertions) at -O0: it compiles in about 60 % of
        # the time; the library they test keeps the build's -O3.
        build_extra=(-DAI_FABRIC_TEST_COMPILE_OPTIONS=-O0)
        build plain
        stage_done build
        (cd "$build_dir" && ctest --output-on-failure -j "$jobs" "$@")
        stage_done "tests (ns-3's engine)"
        # Again with ai-fabric's simulator engine as every simulation's default: the model
        # must behave identically under it (tests that pick an engine keep theirs).
        (cd "$build_dir" &&
            NS_GLOBAL_VALUE="SimulatorImplementationType=ns3::FabricSimulatorImpl" \
                ctest --output-on-failure -j "$jobs" "$@")
        stage_done "tests (ai-fabric's engine)"
        bash "$here/tools/plots/selftest.sh" "$build_dir"
        stage_done "plot scripts"
        if [ "${AI_FABRIC_SANITIZE:-1}" != 0 ]; then
            sanitize_skip="${SANITIZE_SKIP:-$here/tools/ci/sanitizer-skip.txt}"
            fuzz_seconds="${FUZZ_SECONDS:-5}"
            sanitize "$@"
            stage_done "sanitizers and fuzzing"
        fi
        # The module must keep compiling against the newest ns-3 release too (its sources,
        # -fsyntax-only, against a configured ns-3.48 tree; about five minutes).
        latest="${NS3_LATEST_TARBALL:-$here/../shared/ns-3/ns-3.48-src.tar.xz}"
        if [ -f "$latest" ]; then
            NS3_LATEST_TARBALL="$latest" JOBS="$jobs" \
                bash "$here/tools/ci/check-ns3-latest.sh" "$build_dir/ns3-latest"
            stage_done "newest ns-3"
        else
            echo "ai-fabric: skipped the newest-ns-3 check: no source tarball at $latest" \
                "(set NS3_LATEST_TARBALL)"
        fi
        ;;
    build)
        install_missing
        build
        ;;
    sanitize)
        install_missing
        sanitize "$@"
        ;;
    mpi-build | mpi-test)
        # OpenMPI only for these modes (the sequential build and CI do not need it).
        packages+=(libopenmpi-dev openmpi-bin)
        install_missing
        if [ "$cmd" = mpi-build ]; then
            JOBS="$jobs" bash "$here/tools/ci/build-mpi.sh" "$@"
        else
            build plain distributed-permutation
            JOBS="$jobs" bash "$here/tools/ci/mpi-test.sh" "$build_dir"
        fi
        ;;
    *)
        echo "usage: $0 main|test|sanitize|build|mpi-build|mpi-test [args...]" >&2
        exit 2
        ;;
esac
