#!/usr/bin/env bash
# Golden outputs: every example and benchmark scenario, run small, hashed file by file.
# A refactor must leave every hash unchanged (nccl tables, CSVs, pcaps, stdout).
#
#   tools/golden/golden.sh check  BUILD_DIR   run everything, compare with golden.sha256
#   tools/golden/golden.sh update BUILD_DIR   run everything, rewrite golden.sha256
#   tools/golden/golden.sh run    BUILD_DIR OUT_DIR   run everything, keep the outputs in OUT_DIR
#
# Stdout is kept minus wall-clock and memory figures; the benchmark driver's line is reduced to
# its simulated time, packet-hops and result. Run from any directory; about two minutes on a
# 2-core machine (Release build).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mode="${1:?usage: golden.sh check|update|run BUILD_DIR [OUT_DIR]}"
build="$(cd "${2:?usage: golden.sh check|update|run BUILD_DIR [OUT_DIR]}" && pwd)"
manifest="$here/golden.sha256"
if [ "$mode" = run ]; then
    out="${3:?usage: golden.sh run BUILD_DIR OUT_DIR}"
    mkdir -p "$out"
    out="$(cd "$out" && pwd)"
else
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
fi
ex="$build/examples"
bench="$build/tools/ai-fabric-bench"

# run NAME CMD...: runs CMD in $out/NAME, keeps its files and its stdout (as stdout.txt).
run() {
    local name="$1"
    shift
    mkdir -p "$out/$name"
    (cd "$out/$name" && "$@" >stdout.txt 2>stderr.txt) || {
        echo "golden: '$*' failed (exit $?); see $out/$name/stderr.txt" >&2
        cat "$out/$name/stderr.txt" >&2
        return 1
    }
    rm -f "$out/$name/stderr.txt"
}

run pfc-link "$ex/pfc-link" --csv=pfc-link.csv --pcap=true
run switch-incast "$ex/switch-incast" --pcap=true
run switch-incast-lossy "$ex/switch-incast" --lossless=false
run roce-write "$ex/roce-write" --pcap=true
run roce-write-loss "$ex/roce-write" --loss=5 --qps=2 --bytes=200000
run roce-read "$ex/roce-write" --read=true --cc=dcqcn
run uet-write "$ex/uet-write"
run uet-write-loss "$ex/uet-write" --loss=3 --csv=uet-write.csv
run uet-matrix-single "$ex/uet-matrix" --pattern=single
run uet-matrix-permutation "$ex/uet-matrix" --pattern=permutation --csv=uet-matrix.csv
run uet-matrix-causal "$ex/uet-matrix" --pattern=incast --order=causal --csv=uet-matrix.csv
run dcqcn-fairness "$ex/dcqcn-fairness"
run dcqcn-fairness-none "$ex/dcqcn-fairness" --cc=none --flows=2
run dcqcn-incast "$ex/dcqcn-incast"
run dcqcn-incast-paper "$ex/dcqcn-incast" --preset=paper --senders=4
run cc-workload "$ex/cc-workload" --duration=1ms --fct=fct.csv --summary=summary.csv
run cc-workload-uet "$ex/cc-workload" --duration=1ms --transport=uet --fct=fct.csv
run cc-workload-timeline "$ex/cc-workload" --duration=1ms --cc=none --timeline=timeline.csv
run collective-ring "$ex/collective-ring" --csv=collective.csv
run collective-tree "$ex/collective-ring" --algo=tree --ranks=16 --servers=2 --size=4MiB
run collective-alltoall "$ex/collective-ring" --op=alltoall --ranks=8 --size=1MiB
run collective-pxn "$ex/collective-ring" --ranks=16 --servers=2 --pxn=true --size=4MiB
run collective-with-background "$ex/collective-with-background" --size=1048576 --iters=2
run topology-rail "$ex/topology-summary" --csv=links.csv --dot=graph.dot
run topology-clos "$ex/topology-summary" --topology=clos --tiers=3 --servers=64
run topology-rail-only "$ex/topology-summary" --topology=rail-only --servers=8
run rail-allreduce "$ex/rail-allreduce" --max-bytes=268435456
run rail-allreduce-pcap "$ex/rail-allreduce" --servers=2 --gpus-per-server=2 \
    --min-bytes=65536 --max-bytes=65536 --pcap=true
run rail-allreduce-clos "$ex/rail-allreduce" --topology=clos --cc=none --op=alltoall \
    --servers=2 --min-bytes=1048576 --max-bytes=4194304
run rail-allreduce-tree "$ex/rail-allreduce" --algo=tree --servers=2 --max-bytes=16777216
run rail-allreduce-hier "$ex/rail-allreduce" --algo=hierarchical --topology=rail-only \
    --servers=2 --max-bytes=16777216
run rail-allreduce-uet "$ex/rail-allreduce" --transport=uet --servers=2 --max-bytes=16777216
# The main job as it runs across MPI processes (a barrier between collectives, causal order).
run rail-allreduce-barrier "$ex/rail-allreduce" --topology=clos --servers=8 \
    --gpus-per-server=2 --max-bytes=16777216 --barrier=2us --send-completion=posted \
    --order=causal --plot-data
run roce-vs-uet "$ex/roce-vs-uet" --csv=roce-vs-uet.csv
run lb-compare "$ex/lb-compare" --csv=lb-compare.csv
run distributed-permutation "$ex/distributed-permutation" --fct=fct.csv
run distributed-collective "$ex/distributed-collective" --csv=collectives.csv
run distributed-collective-uet "$ex/distributed-collective" --transport=uet \
    --send-completion=acknowledged --op=alltoall --maxbytes=4194304 --csv=collectives.csv
for lab in pfc-deadlock pfc-storm lost-acks ecn-misprofile link-flap; do
    run "$lab" "$ex/$lab" --quiet
done
for s in p2p incast uet-p2p uet-incast allreduce-su allreduce-su-nccl fabric-8k; do
    run "bench-$s" "$bench" --scenario="$s"
done
run bench-uet-permutation-k4 "$bench" --scenario=uet-permutation --k=4
run bench-uet-permutation-rccc-k4 "$bench" --scenario=uet-permutation-rccc --k=4
run bench-lb-permutation-flowlet "$bench" --scenario=lb-permutation --lb=flowlet --bytes=1048576
run bench-lb-permutation-adaptive-packet "$bench" --scenario=lb-permutation \
    --lb=adaptive-packet --bytes=1048576
run bench-lb-permutation-conga "$bench" --scenario=lb-permutation --lb=conga --bytes=1048576
run bench-lb-permutation-te "$bench" --scenario=lb-permutation --lb=te --bytes=1048576
run bench-websearch-128-1ms "$bench" --scenario=websearch-128 --bytes=1000000
run bench-p2p-default-engine "$bench" --scenario=p2p --bytes=16777216 \
    --simulator=ns3::DefaultSimulatorImpl --scheduler=ns3::MapScheduler

# Strip what depends on the machine, not the model: wall time, event rates, memory.
for f in "$out"/bench-*/stdout.txt; do
    sed -E -i 's/, wall [0-9.]+ s, run [0-9.]+ s, events [0-9]+ \([0-9.]+ M\/s\)//; s/ \([0-9.]+ M\/s\), peak RSS [0-9.]+ MiB//; s/; fabric built in [0-9.e-]+ s//' "$f"
done
for f in "$out"/*/stdout.txt; do
    sed -E -i '/wall|took [0-9.]+ s|elapsed|peak RSS/d' "$f"
done

actual="$(cd "$out" && find . -type f | LC_ALL=C sort | xargs sha256sum)"
case "$mode" in
    update)
        echo "$actual" >"$manifest"
        echo "golden: $(wc -l <"$manifest") outputs recorded in $manifest"
        ;;
    check)
        if diff <(echo "$actual") "$manifest" >/dev/null; then
            echo "golden: all $(wc -l <"$manifest") outputs identical"
        else
            echo "golden: outputs differ from $manifest:" >&2
            diff <(echo "$actual") "$manifest" >&2 || true
            exit 1
        fi
        ;;
    run) echo "$actual" >"$out/outputs.sha256" ;;
    *) echo "usage: golden.sh check|update|run BUILD_DIR [OUT_DIR]" >&2; exit 2 ;;
esac
