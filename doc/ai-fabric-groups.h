/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Doxygen groups of the ai-fabric module: one group per folder, each a concern.
 * (Documentation only; not compiled.)
 */

/**
 * \defgroup ai-fabric ai-fabric
 * An ns-3 module for the networks of AI training clusters: PFC Ethernet links, shared-buffer
 * switches, RoCEv2 NICs with pluggable congestion control, rail-optimized and Clos topologies
 * and NCCL-style collectives. Dependencies point down only:
 * collective -> roce / uet (transports) -> nic core + cc -> switch / link -> engine.
 */

/**
 * \defgroup ai-fabric-engine Simulator engine
 * \ingroup ai-fabric
 * model/engine/: the simulator implementation, the O(1) event queue, the frame and reusable
 * event plumbing of the data path. Speed, not protocol.
 */

/**
 * \defgroup ai-fabric-link Link layer
 * \ingroup ai-fabric
 * model/link/, helper/link/: PfcNetDevice and PfcChannel, IEEE 802.1Qbb PFC and 802.1Q
 * headers, the transmit schedulers (strict priority, DWRR) and PfcHelper.
 */

/**
 * \defgroup ai-fabric-switch Switch
 * \ingroup ai-fabric
 * model/switch/, helper/switch/: FabricSwitch with its shared-buffer MMU (accept / drop / trim
 * verdicts), WRED ECN marker, flow key with entropy parsers chosen by UDP port, forwarding
 * table, port liveness and named drop/mark reasons; SwitchHelper and the CSV monitor.
 */

/**
 * \defgroup ai-fabric-lb Load balancing
 * \ingroup ai-fabric-switch
 * model/switch/lb/: the TypeId-selected load-balancing strategies (ECMP, E-ECMP, spray).
 */

/**
 * \defgroup ai-fabric-nic NIC core
 * \ingroup ai-fabric
 * model/nic/: the transport-neutral NIC: ports, the paced (port, priority) egress arbiter,
 * host-side PFC, the IPv4/UDP writer and the receive demultiplexer by UDP destination port.
 */

/**
 * \defgroup ai-fabric-monitor Run health
 * \ingroup ai-fabric
 * model/monitor/: FabricHealthMonitor, which ends a stalled run with a diagnosis (pending
 * operations, paused ports, stuck collectives) and reports lossless drops at the end of a run.
 */

/**
 * \defgroup ai-fabric-roce RoCEv2
 * \ingroup ai-fabric
 * model/roce/, helper/roce/: RoCEv2 headers (BTH, RETH, AETH, ImmDt, CNP, ICRC), reliable
 * connected queue pairs, the RoCE NIC and its collective transport.
 */

/**
 * \defgroup ai-fabric-uet Ultra Ethernet Transport
 * \ingroup ai-fabric
 * model/uet/: Ultra Ethernet Transport (UEC 1.0.1) wire headers: the PDS prologue and the RUD/ROD
 * (with or without CC state), RUDI, UUD, ACK / ACK_CC / ACK_CCX, NACK and control packet
 * headers; the SES standard and small request, response and response-with-data headers; each
 * with static fast-path writers for the frame head. The UET transport (PDS/SES state machines)
 * builds on them.
 */

/**
 * \defgroup ai-fabric-cc Congestion control
 * \ingroup ai-fabric
 * model/cc/: the pluggable congestion-control interface (per-flow state, ACK sample, events,
 * receiver notifier) and its algorithms (DCQCN, None).
 */

/**
 * \defgroup ai-fabric-traffic Traffic
 * \ingroup ai-fabric
 * model/traffic/: transport-less traffic sources for link and switch experiments.
 */

/**
 * \defgroup ai-fabric-transport Transports in helpers
 * \ingroup ai-fabric
 * helper/transport/: FabricTransportPlugin, the one interface through which topology, traffic
 * and collective helpers install and use a transport; RoCEv2 and Ultra Ethernet implement it
 * in helper/roce/ and helper/uet/.
 */

/**
 * \defgroup ai-fabric-topology Topologies
 * \ingroup ai-fabric
 * helper/topology/: rail-optimized, rail-only, Clos and star fabrics, routes and exports.
 */

/**
 * \defgroup ai-fabric-fault Fault injection
 * \ingroup ai-fabric
 * helper/fault/: FaultHelper, scheduled link and switch faults on a built fabric (down, up,
 * flap, degrade, reboot) with routing that converges after a configurable delay, traced and
 * logged as CSV.
 */

/**
 * \defgroup ai-fabric-collective Collectives
 * \ingroup ai-fabric
 * model/collective/, helper/collective/: NCCL-style schedules, algorithms, the per-rank
 * application over a transport-agnostic interface, jobs, and the nccl-tests output format.
 */
