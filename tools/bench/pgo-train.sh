#!/usr/bin/env bash
# Training run for profile-guided optimization (AI_FABRIC_PGO=GENERATE builds): exercises the
# data path (p2p, a DCQCN/PFC incast, a lossy incast with drops), the collective and QP control
# path (a SuperPOD SU AllReduce, a 32-rank nccl-tests sweep), fabric setup (fabric-8k) and a flow
# workload (websearch-128: QPs reused per flow, DCQCN with an ACK per packet), so the
# USE build lays out and inlines the code that real runs spend their time in. About a minute.
#   tools/bench/pgo-train.sh BUILD_DIR     (a build configured with -DAI_FABRIC_PGO=GENERATE)
set -euo pipefail
build="${1:?usage: pgo-train.sh BUILD_DIR}"
bench="$build/tools/ai-fabric-bench"
for exe in "$bench" "$build/examples/rail-allreduce" "$build/examples/switch-incast"; do
    [ -x "$exe" ] || { echo "pgo-train: $exe not built" >&2; exit 2; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$bench" --scenario=p2p --bytes=268435456
"$bench" --scenario=incast
"$bench" --scenario=allreduce-su --bytes=16777216
"$bench" --scenario=fabric-8k
"$bench" --scenario=websearch-128 --bytes=3000000
"$build/examples/rail-allreduce" --min-bytes=1048576 --max-bytes=67108864 >/dev/null
"$build/examples/switch-incast" --lossless=false >/dev/null
"$build/examples/switch-incast" --senders=4 --packets=200 --pcap=true >/dev/null
