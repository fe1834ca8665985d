#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Smoke test of the plot scripts: runs the built examples into a temporary directory, plots
# their outputs, checks that every figure was written (PDF and PNG) and that bad input fails
# with a message naming the file and the column.
#
#   tools/plots/selftest.sh BUILD_DIR        e.g. tools/plots/selftest.sh build
#
# Needs the examples built in BUILD_DIR/examples and Debian's python3-matplotlib and
# python3-pandas (PYTHON=/path/to/python3 to choose the interpreter). Ends with
# "N passed, N failed" and exits non-zero if anything failed.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -d "$1/examples" ]; then
    echo "usage: $0 BUILD_DIR   (BUILD_DIR/examples must hold the built examples)" >&2
    exit 2
fi
examples="$(cd "$1/examples" && pwd)"
plots="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# An interpreter that has matplotlib and pandas: $PYTHON, else Debian's, else python3.
python=""
for p in ${PYTHON:-} /usr/bin/python3 python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c "import matplotlib, pandas" 2>/dev/null; then
        python="$p"
        break
    fi
done
if [ -z "$python" ]; then
    echo "selftest: no python3 with matplotlib and pandas (apt-get install python3-matplotlib" \
         "python3-pandas, or set PYTHON)" >&2
    exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    [ -f "$tmp/log" ] && sed 's/^/    /' "$tmp/log"
    return 0
}

# run NAME CMD...: CMD must succeed.
run() {
    local name="$1"
    shift
    if "$@" >"$tmp/log" 2>&1; then pass "$name"; else fail "$name (exit $?)"; fi
}

# figures NAME DIR STEM...: DIR/STEM.pdf and DIR/STEM.png exist and are a PDF and a PNG.
figures() {
    local name="$1" dir="$2" missing=""
    shift 2
    for stem in "$@"; do
        [ "$(head -c 4 "$dir/$stem.pdf" 2>/dev/null)" = "%PDF" ] || missing+=" $stem.pdf"
        [ "$(head -c 4 "$dir/$stem.png" 2>/dev/null | tail -c 3)" = "PNG" ] ||
            missing+=" $stem.png"
    done
    if [ -z "$missing" ]; then
        pass "$name"
    else
        echo "missing or bad:$missing" >"$tmp/log"
        fail "$name"
    fi
}

# rejects NAME TEXT... -- CMD...: CMD must fail (exit 1) and print every TEXT on stderr.
rejects() {
    local name="$1" texts=() rc=0
    shift
    while [ "$1" != "--" ]; do texts+=("$1"); shift; done
    shift
    "$@" >"$tmp/log" 2>&1 || rc=$?
    if [ "$rc" -ne 1 ]; then echo "expected exit 1, got $rc" >>"$tmp/log"; fail "$name"; return; fi
    for t in "${texts[@]}"; do
        if ! grep -qF -- "$t" "$tmp/log"; then
            echo "no '$t' in the message" >>"$tmp/log"
            fail "$name"
            return
        fi
    done
    pass "$name"
}

# --- switch-incast: lossless vs lossy overlay
run "switch-incast lossless" "$examples/switch-incast" --packets=500 --prefix=lossless
run "switch-incast lossy" "$examples/switch-incast" --packets=500 --lossless=false --prefix=lossy
run "plot_switch_incast" "$python" "$plots/plot_switch_incast.py" lossless lossy \
    --labels "lossless (PFC)" lossy --name incast --out figs
figures "plot_switch_incast figures" figs incast-fct incast-queue incast-pfc
run "plot_switch_incast --fct cdf, one run" "$python" "$plots/plot_switch_incast.py" \
    lossless-flows.csv --fct cdf --out figs
figures "plot_switch_incast cdf figures" figs lossless-fct lossless-queue lossless-pfc

# --- cc-workload
run "cc-workload dcqcn" "$examples/cc-workload" --duration=200us --fct=ccw-dcqcn.csv \
    --timeline=ccw-dcqcn-timeline.csv
run "cc-workload none" "$examples/cc-workload" --duration=200us --cc=none --fct=ccw-none.csv \
    --timeline=ccw-none-timeline.csv
run "plot_fct_slowdown" "$python" "$plots/plot_fct_slowdown.py" ccw-dcqcn.csv ccw-none.csv \
    --bins 5 --out figs --name ccw
figures "plot_fct_slowdown figures" figs ccw-slowdown ccw-cdf
printf 'id,src,dst\n1,0,1\n' >bad-fct.csv
if "$python" "$plots/plot_fct_slowdown.py" bad-fct.csv --out figs >"$tmp/log" 2>&1; then
    fail "plot_fct_slowdown refuses a CSV without its columns"
elif grep -q "bad-fct.csv: missing columns" "$tmp/log"; then
    pass "plot_fct_slowdown refuses a CSV without its columns"
else
    fail "plot_fct_slowdown refuses a CSV without its columns (message)"
fi
run "plot_fabric_timeline" "$python" "$plots/plot_fabric_timeline.py" ccw-dcqcn-timeline.csv \
    ccw-none-timeline.csv --labels DCQCN "no CC" --out figs --name ccw
figures "plot_fabric_timeline figures" figs ccw-timeline
run "plot_fabric_timeline --cumulative, one tier" "$python" "$plots/plot_fabric_timeline.py" \
    ccw-none-timeline.csv --tiers leaf --cumulative --out figs --name ccw-leaf
figures "plot_fabric_timeline cumulative figures" figs ccw-leaf-timeline
# The figure is not blank: a PNG of a few kilobytes at least (an empty canvas is ~1 KB).
if [ "$(stat -c %s figs/ccw-timeline.png 2>/dev/null || echo 0)" -gt 20000 ]; then
    pass "plot_fabric_timeline PNG is not empty"
else
    echo "figs/ccw-timeline.png: $(stat -c %s figs/ccw-timeline.png 2>/dev/null) bytes" >"$tmp/log"
    fail "plot_fabric_timeline PNG is not empty"
fi
cut -d, -f1-4 ccw-none-timeline.csv >cut-timeline.csv
rejects "plot_fabric_timeline missing columns" "cut-timeline.csv" "missing columns" \
    "'pfc_pause_frames'" "'paused_ports'" -- \
    "$python" "$plots/plot_fabric_timeline.py" cut-timeline.csv --out figs
rejects "plot_fabric_timeline unknown tier" "--tiers" "'core'" "leaf, spine" -- \
    "$python" "$plots/plot_fabric_timeline.py" ccw-none-timeline.csv --tiers core --out figs

# --- cc-workload --monitor (FabricMonitor) and its timeline plot
run "cc-workload --monitor" "$examples/cc-workload" --duration=200us --monitor=ccw-mon.csv \
    --monitor-interval=5us --monitor-probes=0-127,64-1
run "plot_fabric_monitor" "$python" "$plots/plot_fabric_monitor.py" ccw-mon.csv --out figs \
    --name ccw
figures "plot_fabric_monitor figures" figs ccw-monitor
run "plot_fabric_monitor --nodes" "$python" "$plots/plot_fabric_monitor.py" ccw-mon.csv \
    --nodes 'leaf*' --name ccw-leaves --out figs
figures "plot_fabric_monitor --nodes figures" figs ccw-leaves-monitor
cut -d, -f1-9 ccw-mon.csv >cut-mon.csv
rejects "plot_fabric_monitor missing column" "cut-mon.csv" "'value'" -- \
    "$python" "$plots/plot_fabric_monitor.py" cut-mon.csv --out figs
run "plot_fabric_monitor --selftest" "$python" "$plots/plot_fabric_monitor.py" --selftest

# --- dcqcn-fairness
run "dcqcn-fairness" "$examples/dcqcn-fairness" --flows=3 --rate=100Gbps --join=500us \
    --prefix=fair
run "plot_dcqcn_fairness" "$python" "$plots/plot_dcqcn_fairness.py" fair --kmin 400KB \
    --kmax 1600000 --out figs
figures "plot_dcqcn_fairness figures" figs fair-goodput fair-rate fair-queue

# --- rail-allreduce (the main job), when the example is built
if [ -x "$examples/rail-allreduce" ]; then
    run "rail-allreduce" "$examples/rail-allreduce" --servers=2 --gpus-per-server=2 \
        --min-bytes=1048576 --max-bytes=4194304 --factor=4 --prefix=ra --plot-data=true
    run "plot_rail_allreduce" "$python" "$plots/plot_rail_allreduce.py" ra --out figs
    figures "plot_rail_allreduce figures" figs ra-busbw ra-time ra-fabric
    # Without the --plot-data files: no bottleneck or caption, utilization over all ports.
    for f in ra-results.csv ra-fabric.csv; do cp "$f" "plain${f#ra}"; done
    run "plot_rail_allreduce without --plot-data" "$python" "$plots/plot_rail_allreduce.py" \
        plain --out figs
    figures "plot_rail_allreduce figures without --plot-data" figs plain-busbw plain-time \
        plain-fabric
else
    echo "SKIP rail-allreduce: $examples/rail-allreduce not built"
fi

# --- dcqcn-incast (cc=none vs dcqcn), when the example is built
if [ -x "$examples/dcqcn-incast" ]; then
    run "dcqcn-incast cc=none" "$examples/dcqcn-incast" --senders=4 --bytes=1000000 --cc=none \
        --prefix=incast-none
    run "dcqcn-incast cc=dcqcn" "$examples/dcqcn-incast" --senders=4 --bytes=1000000 \
        --cc=dcqcn --prefix=incast-dcqcn
    run "plot_dcqcn_incast" "$python" "$plots/plot_dcqcn_incast.py" incast-none incast-dcqcn \
        --name cc --out figs
    figures "plot_dcqcn_incast figures" figs cc-summary cc-fct cc-queue
else
    echo "SKIP dcqcn-incast: $examples/dcqcn-incast not built"
fi

# --- roce-vs-uet (RoCEv2 vs Ultra Ethernet), when the example is built: a tiny fabric
if [ -x "$examples/roce-vs-uet" ]; then
    run "roce-vs-uet" "$examples/roce-vs-uet" --servers=2 --servers-per-su=1 --spines=1 \
        --max-bytes=4194304 --flow-bytes=1000000 --csv=rvu.csv
    run "plot_roce_vs_uet" "$python" "$plots/plot_roce_vs_uet.py" rvu.csv --out figs
    figures "plot_roce_vs_uet figures" figs rvu-busbw rvu-fct rvu-activity
    cut -d, -f1-12 rvu.csv >rvu-cut.csv
    rejects "plot_roce_vs_uet missing column" "rvu-cut.csv" "'pfc_pauses_data_class'" -- \
        "$python" "$plots/plot_roce_vs_uet.py" rvu-cut.csv --out figs
else
    echo "SKIP roce-vs-uet: $examples/roce-vs-uet not built"
fi

# --- lb-compare (the load-balancing tiers), when the example is built: two seeds, two tiers
if [ -x "$examples/lb-compare" ]; then
    for seed in 1 2; do
        run "lb-compare seed $seed" "$examples/lb-compare" --seed=$seed --lbs=ecmp,te \
            --configs=roce-dcqcn --failures=none,degrade --flow-bytes=1000000 \
            --bytes=4194304 --csv=lbc-$seed.csv
    done
    run "plot_lb_compare" "$python" "$plots/plot_lb_compare.py" lbc-1.csv lbc-2.csv \
        --name lbc --out figs
    figures "plot_lb_compare figures" figs lbc-tiers lbc-fabric
    cut -d, -f1-24 lbc-1.csv >lbc-cut.csv
    rejects "plot_lb_compare missing column" "lbc-cut.csv" "'uplink_imbalance'" -- \
        "$python" "$plots/plot_lb_compare.py" lbc-cut.csv --out figs
else
    echo "SKIP lb-compare: $examples/lb-compare not built"
fi

# --- bad input: exit 1, message names the file and the column
rejects "missing input file" "nothere-flows.csv" -- \
    "$python" "$plots/plot_switch_incast.py" nothere --out figs
cut -d, -f1-4 fair-rates.csv >cut-rates.csv
cp fair-queue.csv cut-queue.csv
rejects "missing column" "cut-rates.csv" "'alpha'" -- \
    "$python" "$plots/plot_dcqcn_fairness.py" cut --out figs
sed '3s/^[^,]*,/x,/' lossless-flows.csv >nan-flows.csv
cp lossless-switch.csv nan-switch.csv
rejects "malformed value" "nan-flows.csv" "line 3" "'sender'" -- \
    "$python" "$plots/plot_switch_incast.py" nan --out figs
printf 'cc,senders\nnone,4\n' >short-summary.csv
rejects "missing summary columns" "short-summary.csv" "'pfc_pauses'" -- \
    "$python" "$plots/plot_dcqcn_incast.py" short --no-queue --out figs

echo "plots selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
