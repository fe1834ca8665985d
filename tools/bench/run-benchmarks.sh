#!/usr/bin/env bash
# Runs every ai-fabric benchmark scenario once and collects the results in one CSV.
#   tools/bench/run-benchmarks.sh [BUILD_DIR] [OUT_CSV]
set -euo pipefail
build="${1:-build}"
out="${2:-bench-results.csv}"
bench="$build/tools/ai-fabric-bench"
[ -x "$bench" ] || { echo "run-benchmarks: $bench not built (cmake --build $build)" >&2; exit 2; }
rm -f "$out"
for s in p2p incast uet-p2p uet-incast uet-permutation uet-permutation-rccc allreduce-su allreduce-su-nccl fabric-8k websearch-128; do
    "$bench" --scenario="$s" --csv="$out"
done
# The load-balancing tiers on one permutation (the CSV's result column names the balancer).
for lb in ecmp resilient flowlet adaptive adaptive-packet conga te spray; do
    "$bench" --scenario=lb-permutation --lb="$lb" --csv="$out"
done
echo "run-benchmarks: results in $out"
