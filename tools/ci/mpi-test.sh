#!/usr/bin/env bash
# One simulation across MPI processes: builds the MPI variant (tools/ci/build-mpi.sh) and runs
# its distributed program sequentially (no mpirun) and with 1 to 4 MPI processes
# (mpirun --oversubscribe: more processes than cores is fine for a check). Under the causal
# event order every process count must give the sequential tables and per-flow CSV byte for
# byte (two 32-host Clos runs, and a 512-host permutation with 2 and 4 processes); under ns-3's
# order (--order=fast) 2 processes must be deterministic (two runs, the same bytes), complete
# every flow and stay within 2 % of the sequential mean completion time. NCCL-style collectives
# (distributed-collective, RoCE and UET) give the sequential table and per-collective CSV with
# 1, 2 and 4 processes, and so does the main job (rail-allreduce on a Clos, RoCE and UET: its
# table, results and fabric-view CSVs; with faults, the fault log, rank 0's capture and the
# monitor's CSV too), htsim's scenarios (uet-matrix: per-flow CSV and summary) and the
# congestion-control workflow (cc-workload over UET and RoCE, with and without faults: table,
# per-flow, summary, counters, queue CSVs and fault log; the fault labs' monitor and timeline
# CSVs). Then the bad input of a distributed run (more processes than units, monitor and
# timeline delays below the lookahead, an MPI launch of a build without MPI). Prints each
# run's wall time.
#
#   tools/ci/mpi-test.sh [SEQUENTIAL_BUILD_DIR]
#
# SEQUENTIAL_BUILD_DIR (default build): the Debian (non-MPI) build, for the checks that it gives
# the MPI build's sequential bytes on Debian's ns-3 and that its
# programs refuse an MPI launch; skipped if it has no distributed-permutation. Exit status 0
# all pass, 1 otherwise.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seq_build="${1:-$here/build}"
bin_dir="$(bash "$here/tools/ci/build-mpi.sh" | tail -n 1)" || exit 1
program() { # example name: the MPI build's program of it ("" and a FAIL line if missing)
    local p
    p="$(find "$bin_dir" -maxdepth 1 -type f -name "*$1*" | head -n 1)"
    [ -n "$p" ] || echo "mpi-test: FAIL no $1 program in $bin_dir" >&2
    echo "$p"
}
prog="$(program distributed-permutation)"
[ -n "$prog" ] || exit 1
mpirun=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
failures=0

run() { # name, then the command; stdout to $out/name.txt, stderr to $out/name.err
    local name="$1"
    shift
    local t0=$SECONDS
    "$@" >"$out/$name.txt" 2>"$out/$name.err"
    local rc=$?
    echo "mpi-test: $name: exit $rc in $((SECONDS - t0)) s"
    return $rc
}

same() { # a b: the two runs' tables and CSVs are identical
    local ok=1
    # The process count and the partition line differ by design; everything else must not.
    if ! diff <(grep -v '^processes ' "$out/$1.txt") <(grep -v '^processes ' "$out/$2.txt") \
        >"$out/diff.txt"; then
        ok=0
    fi
    if ! cmp -s "$out/$1.csv" "$out/$2.csv"; then
        ok=0
        diff "$out/$1.csv" "$out/$2.csv" | head -n 5 >>"$out/diff.txt"
    fi
    if [ $ok = 1 ]; then
        echo "mpi-test: PASS $2 is identical to $1"
    else
        echo "mpi-test: FAIL $2 differs from $1:"
        head -n 20 "$out/diff.txt"
        failures=$((failures + 1))
    fi
}

close() { # a b: b completed every flow and its mean completion time is within 2 % of a's
    local verdict
    verdict="$(/usr/bin/python3 - "$out/$1.csv" "$out/$2.csv" <<'PY'
import csv, sys
from collections import Counter
def load(p):
    return [(r["src"], r["dst"], int(r["end_ps"]), r["ok"]) for r in csv.DictReader(open(p))]
a, b = load(sys.argv[1]), load(sys.argv[2])
same = sum((Counter(a) & Counter(b)).values())
ok = Counter((r[0], r[1]) for r in a) == Counter((r[0], r[1]) for r in b) and all(
    r[3] == "1" for r in b)
ma = sum(r[2] for r in a) / len(a)
mb = sum(r[2] for r in b) / max(len(b), 1)
rel = (mb - ma) / ma
print(("PASS" if ok and abs(rel) <= 0.02 else "FAIL")
      + f" {len(b)} of {len(a)} flows completed, {same} identical to the flow, "
      + f"mean completion {mb / 1e6:.3f} us against {ma / 1e6:.3f} us ({rel * 100:+.2f} %)")
PY
)"
    echo "mpi-test: $2 against $1: $verdict"
    [[ "$verdict" == PASS* ]] || failures=$((failures + 1))
}

# The causal event order (the default, --order=causal): 1, 2, 3 and 4 processes give the
# sequential tables and per-flow CSV byte for byte, and a second run with 2 processes the same
# bytes again. ns-3's own order (--order=fast) orders simultaneous events by when they were
# scheduled, which differs across processes (see the user guide, "One simulation across
# processes"): its runs must be deterministic and complete the same flows with statistically
# equivalent times.
for scenario in "permutation:--racks=4 --hostsPerRack=8 --spines=4 --bytes=1048576" \
    "incast:--racks=4 --hostsPerRack=4 --spines=2 --bytes=262144 --incast=true"; do
    name="${scenario%%:*}"
    args=(${scenario#*:})
    run "$name-seq" "$prog" "${args[@]}" --fct="$out/$name-seq.csv" || failures=$((failures + 1))
    cat "$out/$name-seq.txt"
    for np in 1 2 3 4; do
        run "$name-np$np" "${mpirun[@]}" -np $np "$prog" "${args[@]}" --fct="$out/$name-np$np.csv" ||
            failures=$((failures + 1))
        same "$name-seq" "$name-np$np"
    done
    run "$name-np2b" "${mpirun[@]}" -np 2 "$prog" "${args[@]}" --fct="$out/$name-np2b.csv" ||
        failures=$((failures + 1))
    same "$name-np2" "$name-np2b"
    run "$name-fast-seq" "$prog" "${args[@]}" --order=fast --fct="$out/$name-fast-seq.csv" ||
        failures=$((failures + 1))
    for again in a b; do
        run "$name-fast-np2$again" "${mpirun[@]}" -np 2 "$prog" "${args[@]}" --order=fast \
            --fct="$out/$name-fast-np2$again.csv" || failures=$((failures + 1))
    done
    same "$name-fast-np2a" "$name-fast-np2b"
    close "$name-fast-seq" "$name-fast-np2a"
done

# At scale: a 512-host permutation of 16 MiB WRITEs (DCQCN, PFC; 19.5 M events, about 1,000
# frames crossing between processes per simulated microsecond) gives the same bytes
# sequentially and with 2 and 4 processes under the causal order.
big=(--racks=32 --hostsPerRack=16 --spines=16 --bytes=16777216 --incast=false)
run big-seq "$prog" "${big[@]}" --fct="$out/big-seq.csv" || failures=$((failures + 1))
cat "$out/big-seq.txt"
for np in 2 4; do
    run "big-np$np" "${mpirun[@]}" -np $np "$prog" "${big[@]}" --fct="$out/big-np$np.csv" ||
        failures=$((failures + 1))
    same big-seq "big-np$np"
done

# Collectives across processes (distributed-collective): NCCL-style AllReduce and AlltoAll
# series over RoCE (DCQCN, PFC) and Ultra Ethernet, on servers of 2 GPUs with NVLink, give the
# sequential table and per-collective CSV byte for byte with 1, 2 and 4 processes (racks split
# between processes; every message to a rank of another process is announced there).
coll_prog="$(program distributed-collective)"
if [ -z "$coll_prog" ]; then
    failures=$((failures + 1))
else
    # (allreduce-roce-ack: ACKs of 66 bytes take one nanosecond at 400 Gb/s, the resolution
    # of these runs: their batches must still be unpacked before they arrive.)
    for scenario in "allreduce-roce:--op=allreduce --transport=roce" \
        "allreduce-roce-ack:--op=allreduce --transport=roce --send-completion=acknowledged" \
        "alltoall-roce:--op=alltoall --transport=roce --maxbytes=4194304" \
        "allreduce-uet:--op=allreduce --transport=uet --send-completion=acknowledged"; do
        name="${scenario%%:*}"
        args=(${scenario#*:})
        run "$name-seq" "$coll_prog" "${args[@]}" --csv="$out/$name-seq.csv" ||
            failures=$((failures + 1))
        cat "$out/$name-seq.txt"
        for np in 1 2 4; do
            run "$name-np$np" "${mpirun[@]}" -np $np "$coll_prog" "${args[@]}" \
                --csv="$out/$name-np$np.csv" || failures=$((failures + 1))
            same "$name-seq" "$name-np$np"
        done
    done
fi

# At scale: a 256-GPU AllReduce of 64 MiB (32 servers of 8 GPUs with NVLink, 8 racks, RoCE,
# DCQCN, PFC; NCCL's tuner picks Tree/LL128) gives the sequential record with 2 and 4 processes.
if [ -n "$coll_prog" ]; then
    su=(--racks=8 --serversPerRack=4 --gpusPerServer=8 --spines=8 --minbytes=64M --maxbytes=64M
        --iters=1)
    run big-collective-seq "$coll_prog" "${su[@]}" --csv="$out/big-collective-seq.csv" ||
        failures=$((failures + 1))
    cat "$out/big-collective-seq.txt"
    for np in 2 4; do
        run "big-collective-np$np" "${mpirun[@]}" -np $np "$coll_prog" "${su[@]}" \
            --csv="$out/big-collective-np$np.csv" || failures=$((failures + 1))
        same big-collective-seq "big-collective-np$np"
    done
fi

# The main job across processes (rail-allreduce): an nccl-tests sweep with a 2 us barrier
# between collectives on a Clos of 2-GPU servers (RoCE with DCQCN and PFC, and Ultra Ethernet)
# gives the sequential table, results, fabric view (switch tiers, NICs, link directions) byte
# for byte with 1, 2 and 4 processes (racks split between processes).
main_prog="$(program rail-allreduce)"
same_outputs() { # a b what suffix...: run b's outputs $out/b-SUFFIX equal run a's
    local a="$1" b="$2" what="$3" ok=1 f
    shift 3
    for f in "$@"; do
        if ! cmp -s "$out/$a-$f" "$out/$b-$f"; then
            ok=0
            echo "mpi-test: $b-$f differs from $a-$f:"
            diff "$out/$a-$f" "$out/$b-$f" | head -n 6
        fi
    done
    if [ $ok = 1 ]; then
        echo "mpi-test: PASS $b is identical to $a ($what)"
    else
        echo "mpi-test: FAIL $b differs from $a"
        failures=$((failures + 1))
    fi
}
same_files() { # a b: every output of rail-allreduce run a is identical to run b's
    same_outputs "$1" "$2" "table, results, fabric, NIC and links CSVs" \
        nccl.txt results.csv fabric.csv nic.csv links.csv
}
if [ -z "$main_prog" ]; then
    failures=$((failures + 1))
else
    for scenario in "main-roce:--transport=roce --send-completion=posted" \
        "main-uet:--transport=uet --send-completion=acknowledged --max-bytes=4MiB"; do
        name="${scenario%%:*}"
        args=(--topology=clos --servers=16 --gpus-per-server=2 --max-bytes=16MiB --barrier=2us
            --order=causal --plot-data ${scenario#*:})
        run "$name-seq" "$main_prog" "${args[@]}" --prefix="$out/$name-seq" ||
            failures=$((failures + 1))
        for np in 1 2 4; do
            run "$name-np$np" "${mpirun[@]}" -np $np "$main_prog" "${args[@]}" \
                --prefix="$out/$name-np$np" || failures=$((failures + 1))
            same_files "$name-seq" "$name-np$np"
        done
    done
    cat "$out/main-roce-seq-nccl.txt"
    # Two rail-optimized scalable units (64 DGX-like servers, 512 GPUs, spines between the
    # SUs): the SuperPOD shape, one SU per process.
    su2=(--servers=64 --max-bytes=1MiB --barrier=2us --send-completion=posted --order=causal
        --plot-data --quiet)
    run main-su2-seq "$main_prog" "${su2[@]}" --prefix="$out/main-su2-seq" ||
        failures=$((failures + 1))
    run main-su2-np2 "${mpirun[@]}" -np 2 "$main_prog" "${su2[@]}" --prefix="$out/main-su2-np2" ||
        failures=$((failures + 1))
    same_files main-su2-seq main-su2-np2
    # Faults across processes: every process applies each fault to its copy of the fabric at
    # the same time (a flapping leaf-spine cable between processes is cut at both ends, routes
    # converge everywhere); the fault log's drop counts are summed at the end. And rank 0's
    # capture (--pcap), written by its process. And the monitor (--monitor, its samples 2 us
    # after each change: every process samples its own nodes, process 0 merges the rows).
    faulty=(--topology=clos --servers=16 --gpus-per-server=2 --spines=2 --max-bytes=4MiB
        --monitor-delay=2us --monitor-interval=5us
        --barrier=2us --order=causal --send-completion=posted --plot-data --pcap
        --convergence-delay=20us
        --fault=link-flap:leaf0-spine1@100us,period=200us,count=3
        --fault=link-degrade:leaf1-spine0@150us,rate=100Gbps
        --fault=ecn-profile:leaf2@100us,kmin=10KB,kmax=40KB,pmax=0.5
        --fault=drop-class:leaf3-spine0@50us,class=cnp,for=500us,prob=0.5)
    run main-faults-seq "$main_prog" "${faulty[@]}" --prefix="$out/main-faults-seq" \
        --monitor="$out/main-faults-seq-monitor.csv" || failures=$((failures + 1))
    for np in 2 4; do
        run "main-faults-np$np" "${mpirun[@]}" -np $np "$main_prog" "${faulty[@]}" \
            --prefix="$out/main-faults-np$np" --monitor="$out/main-faults-np$np-monitor.csv" ||
            failures=$((failures + 1))
        same_outputs main-faults-seq "main-faults-np$np" \
            "table, CSVs, fault log, capture and monitor" \
            nccl.txt results.csv fabric.csv nic.csv links.csv faults.csv 0-0.pcap monitor.csv
    done
fi

# htsim's scenarios across processes (uet-matrix: Ultra Ethernet with NSCC, spraying, trimming
# on a k-ary fat tree): every process posts its own hosts' WRITEs, process 0 gathers the
# outcomes; the per-flow CSV and the summary (fabric and NIC counters added up) are the
# sequential run's with 2 and 4 processes: a k=8 permutation, an incast that trims, a
# permutation over a cut core cable (RTOs) and RCCC.
matrix_prog="$(program uet-matrix)"
if [ -z "$matrix_prog" ]; then
    failures=$((failures + 1))
else
    for scenario in "matrix-perm:--k=8 --pattern=permutation" \
        "matrix-incast:--pattern=incast" \
        "matrix-fail:--k=8 --pattern=permutation --fail-core-link" \
        "matrix-rccc:--pattern=permutation --cc=ns3::RcccCongestionOps"; do
        name="${scenario%%:*}"
        args=(--order=causal ${scenario#*:})
        run "$name-seq" "$matrix_prog" "${args[@]}" --csv="$out/$name-seq.csv" ||
            failures=$((failures + 1))
        grep -E "summary|fabric:" "$out/$name-seq.txt"
        for np in 2 4; do
            run "$name-np$np" "${mpirun[@]}" -np $np "$matrix_prog" "${args[@]}" \
                --csv="$out/$name-np$np.csv" || failures=$((failures + 1))
            # The "wrote FILE" line names each run's own CSV.
            sed -i '/^  wrote /d' "$out/$name-seq.txt" "$out/$name-np$np.txt"
            same "$name-seq" "$name-np$np"
        done
    done
fi

# The congestion-control researcher's workflow across processes (cc-workload on the
# HPCC-lineage Clos, split by leaf groups; UET, and RoCE with per-peer QP numbering): every
# process reads the Poisson source and posts its own hosts' flows; process 0 writes the table
# and the per-flow, summary, counters and queue CSVs, which are the sequential run's with 2 and
# 4 processes (per-flow rows in the sequential completion order, queue samples up to the last
# completion anywhere).
cc_prog="$(program cc-workload)"
same_cc() { # a b: cc-workload's table and every CSV of run a are identical to run b's
    local r
    for r in "$1" "$2"; do
        grep -v '^processes ' "$out/$r.txt" >"$out/$r-table.txt"
    done
    if [ -f "$out/$1-monitor.csv" ]; then
        same_outputs "$1" "$2" \
            "table, per-flow, summary, counters, queues, fault log, monitor, timeline" \
            table.txt fct.csv summary.csv counters.csv queues.csv faults.csv monitor.csv \
            timeline.csv
    else
        same_outputs "$1" "$2" "table, per-flow, summary, counters, queues, fault log" \
            table.txt fct.csv summary.csv counters.csv queues.csv faults.csv
    fi
}
cc_files() { # name: cc-workload's output flags for run name
    echo "--fct=$out/$1-fct.csv --summary=$out/$1-summary.csv --counters=$out/$1-counters.csv" \
        "--queues=$out/$1-queues.csv --fault-log=$out/$1-faults.csv"
}
if [ -z "$cc_prog" ]; then
    failures=$((failures + 1))
else
    for scenario in "cc-websearch:--transport=uet" \
        "cc-hadoop:--transport=uet --cdf=fb-hadoop --load=0.8 --ev-strategy=oblivious" \
        "cc-rccc:--transport=uet --uet-cc=rccc --duration=5ms" \
        "cc-dcqcn:--qp-numbering=per-peer" \
        "cc-hpcc:--qp-numbering=per-peer --cc=hpcc --load=0.7 --duration=5ms" \
        "cc-faults-uet:--transport=uet --duration=6ms --convergence-delay=200us
            --fault=link-down:leaf0-spine1@1ms --fault=link-up:leaf0-spine1@3ms
            --fault=switch-reboot:spine0@4ms,down=500us
            --fault=drop-class:leaf1-spine0@0.5ms,class=ack,for=2ms,prob=0.3
            --fault=link-degrade:leaf2-spine1@2ms,rate=40Gbps
            --fault=ecn-profile:leaf3@1ms,kmin=10KB,kmax=40KB,pmax=0.5" \
        "cc-faults-roce:--qp-numbering=per-peer --duration=4ms
            --ns3::FabricNic::RxDrainRate=100Gbps --fault=nic-stall:gpu5@1ms,for=2ms
            --fault=nic-stall:gpu17@1ms,for=2500us --fault=nic-stall:gpu100@1500us,for=1ms
            --fault=drop-class:leaf1-spine0@0.5ms,class=cnp,for=2ms,prob=0.5
            --fault=pfc-threshold:leaf6@1ms,headroom=20KB
            --fault=ecn-profile:spine1@1ms,kmin=20KB,kmax=80KB,pmax=0.2"; do
        name="${scenario%%:*}"
        args=(--order=causal --quiet ${scenario#*:})
        # The fault labs also run the monitor and the queue timeline (their last samples moved
        # by the lookahead, 1 us).
        monitored() { # run: the monitor and timeline flags of run's name, for the fault labs
            case "$1" in
                cc-faults-*)
                    echo "--monitor=$out/$1-monitor.csv --monitor-delay=1us" \
                        "--timeline=$out/$1-timeline.csv --timeline-delay=1us"
                    ;;
            esac
        }
        run "$name-seq" "$cc_prog" "${args[@]}" $(cc_files "$name-seq") $(monitored "$name-seq") ||
            failures=$((failures + 1))
        grep -E "^workload|^ +all" "$out/$name-seq.txt"
        for np in 2 4; do
            run "$name-np$np" "${mpirun[@]}" -np $np "$cc_prog" "${args[@]}" \
                $(cc_files "$name-np$np") $(monitored "$name-np$np") || failures=$((failures + 1))
            same_cc "$name-seq" "$name-np$np"
        done
    done
fi

refused() { # name, expected message, what it checks, then the command: exit 2 naming it
    local name="$1" message="$2" what="$3"
    shift 3
    run "$name" "$@"
    if grep -q -- "$message" "$out/$name.err"; then
        echo "mpi-test: PASS $what"
    else
        echo "mpi-test: FAIL $what:"
        head -n 5 "$out/$name.err"
        failures=$((failures + 1))
    fi
}

# Bad input: more processes than the fabric has units (4 racks, 8 processes), and an MPI
# launch of the build without MPI.
if [ -n "$main_prog" ]; then
    refused main-no-barrier "barrier=+0ns is invalid across 2 MPI processes" \
        "the main job across processes without a barrier is refused naming --barrier" \
        "${mpirun[@]}" -np 2 "$main_prog" --topology=clos --servers=8 --gpus-per-server=2 \
        --order=causal --send-completion=posted
    refused main-short-barrier "barrier=+1ns is below the lookahead between processes (+1000ns)" \
        "a barrier below the lookahead is refused naming both" \
        "${mpirun[@]}" -np 2 "$main_prog" --topology=clos --servers=8 --gpus-per-server=2 \
        --order=causal --send-completion=posted --barrier=1ns
    refused main-one-su "Systems 2 is more than the 1 units" \
        "the default fabric (one SU) across 2 processes is refused naming both counts" \
        "${mpirun[@]}" -np 2 "$main_prog" --order=causal --send-completion=posted --barrier=2us
fi
if [ -n "$cc_prog" ]; then
    refused cc-roce "QpNumbering=sequential a new QP pair's numbers depend on completions" \
        "cc-workload over RoCE with sequential QP numbers across processes is refused naming why" \
        "${mpirun[@]}" -np 2 "$cc_prog" --order=causal --quiet
    refused cc-timeline \
        "timeline-delay=+0ns across 2 MPI processes is below the lookahead between them (+1000ns)" \
        "cc-workload's timeline across processes without a delay is refused naming both" \
        "${mpirun[@]}" -np 2 "$cc_prog" --order=causal --transport=uet --timeline=t.csv
    refused cc-monitor-delay \
        "Delay (--monitor-delay) +0ns across 2 MPI processes is below the lookahead between them (+1000ns)" \
        "a monitor whose delay is below the lookahead is refused naming both" \
        "${mpirun[@]}" -np 2 "$cc_prog" --order=causal --transport=uet --monitor=m.csv
fi
refused too-many "Systems 8 is more than the 4 units" \
    "8 processes for 4 racks are refused naming both counts" \
    "${mpirun[@]}" -np 8 "$prog" --racks=4 --hostsPerRack=2 --spines=2
seq_prog="$seq_build/examples/distributed-permutation"
if [ -x "$seq_prog" ]; then
    # The sequential build on Debian's ns-3 gives the MPI build's bytes (another ns-3 release).
    run permutation-debian "$seq_prog" --racks=4 --hostsPerRack=8 --spines=4 --bytes=1048576 \
        --fct="$out/permutation-debian.csv" || failures=$((failures + 1))
    same permutation-seq permutation-debian
    if [ -x "$seq_build/examples/distributed-collective" ]; then
        run allreduce-roce-debian "$seq_build/examples/distributed-collective" --op=allreduce \
            --transport=roce --csv="$out/allreduce-roce-debian.csv" || failures=$((failures + 1))
        same allreduce-roce-seq allreduce-roce-debian
    fi
    refused no-mpi "this build has no MPI" \
        "a build without MPI refuses an MPI launch of 2 processes" \
        "${mpirun[@]}" -np 2 "$seq_prog" --racks=2 --hostsPerRack=1 --spines=1
fi
echo "mpi-test: $failures failure(s)"
[ $failures -eq 0 ]
