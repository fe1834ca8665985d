/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: fabric-wide sums of the switch, port and NIC counters, per node type.
 */
#ifndef FABRIC_AGGREGATE_COUNTERS_H
#define FABRIC_AGGREGATE_COUNTERS_H

#include "fabric-topology.h"

#include "ns3/fabric-nic.h"
#include "ns3/fabric-reason-counters.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-transport-plugin.h"
#include "ns3/nstime.h"
#include "ns3/pfc-net-device.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief Sums of the counters of a set of nodes (one node type of a fabric, or all of them).
 *
 * PFC: pfcPauseTx counts PFC frames sent with a non-zero pause time, refreshes included
 * (PfcPortCounters::pauseTx, every port and priority), while xoffDecisions counts the MMU's
 * XOFF decisions (SwitchCounters::xoffSent): one decision is one pause frame plus one per
 * PauseRefreshInterval while it holds, so pfcPauseTx >= xoffDecisions on switches. pausedTime
 * is the time the nodes' ports were paused by their peers, summed over ports and priorities
 * (PfcPortCounters::pausedTime: pauses that ended, or were cut short, by the time of reading).
 */
struct FabricTierCounters
{
    uint32_t nodes{0};         //!< nodes summed
    uint64_t pfcPauseTx{0};    //!< PFC frames sent with a non-zero time (XOFF and refreshes)
    uint64_t pfcXonTx{0};      //!< PFC frames sent with time 0 (XON)
    uint64_t pfcPauseRx{0};    //!< non-zero PFC times received
    uint64_t pfcXonRx{0};      //!< PFC XONs received
    uint64_t xoffDecisions{0}; //!< switch MMU XOFF decisions (per ingress port, priority)
    uint64_t xonDecisions{0};  //!< switch MMU XON decisions
    Time pausedTime{0};        //!< time the nodes' ports were paused by the peer, summed
    uint64_t pfcStorms{0};     //!< PFC watchdog storm declarations
    uint64_t forwarded{0};     //!< packets switches sent to an egress port
    uint64_t ecnMarks{0};      //!< packets switches marked CE
    uint64_t trims{0};         //!< packets switches trimmed (fabric and last hop)
    uint64_t cnpTx{0};         //!< CNPs the RoCE NICs sent (as notification point)
    uint64_t cnpRx{0};         //!< CNPs the RoCE NICs received (as reaction point)
    uint64_t ceRx{0};          //!< CE-marked data packets the RoCE NICs received
    uint64_t losslessDrops{0}; //!< switch drops of lossless-priority packets, any reason
    /// Switch drops per SwitchDropReason ("no route", "headroom overflow", ...).
    FabricReasonCounters switchDrops{MakeSwitchDropCounters()};
    /// Port drops per PfcDropReason ("queue full", "link down", ...).
    std::array<uint64_t, size_t(PfcDropReason::COUNT)> portDrops{};
    /// NIC core drops per FabricNicDropReason ("unknown flow", ...).
    std::array<uint64_t, size_t(FabricNicDropReason::COUNT)> nicDrops{};

    /**
     * \brief Add one switch's counters (not its ports': AddPort).
     * \param sw the switch
     */
    void AddSwitch(const FabricSwitch& sw);
    /**
     * \brief Add one port's counters.
     * \param port the port
     */
    void AddPort(const PfcNetDevice& port);
    /**
     * \brief Add a NIC core's drops and its transports' CNPs and CE marks.
     * \param core the host's NIC core
     * \param transports the host's transport counters (FabricTransportPlugin::AddCounters)
     */
    void AddNic(const FabricNic& core, const FabricTransportCounters& transports);
    /**
     * \brief Add another sum.
     * \param other the sum to add
     */
    void Add(const FabricTierCounters& other);

    /// \return every switch drop, all reasons
    uint64_t GetSwitchDrops() const;
    /// \return every port drop, all reasons
    uint64_t GetPortDrops() const;
    /// \return every NIC drop, all reasons
    uint64_t GetNicDrops() const;

    /**
     * \brief The counters as (name, value) rows, in a fixed order: nodes, pfc_pause_tx,
     *        pfc_xon_tx, pfc_pause_rx, pfc_xon_rx, xoff_decisions, xon_decisions,
     *        paused_time_ns, pfc_storms, forwarded, ecn_marks, trims, cnp_tx, cnp_rx, ce_rx,
     *        lossless_drops, then switch_drop:&lt;reason&gt;, port_drop:&lt;reason&gt;,
     *        nic_drop:&lt;reason&gt; for every reason (spaces in reason names become '_').
     * \return the rows
     */
    std::vector<std::pair<std::string, uint64_t>> GetRows() const;
};

/**
 * \ingroup ai-fabric-topology
 * \brief Fabric-wide counters in one call (FabricTopologyHelper::GetAggregateCounters()): the
 *        sums per node type (host = a GPU or plain host with its NIC ports, nvswitch, leaf,
 *        spine, core) and in total.
 */
struct FabricAggregateCounters
{
    /// Per node type, indexed by FabricNodeType.
    std::array<FabricTierCounters, size_t(FabricNodeType::COUNT)> tiers;
    FabricTierCounters total; //!< every node

    /**
     * \param type a node type (< FabricNodeType::COUNT)
     * \return its sums
     */
    const FabricTierCounters& Get(FabricNodeType type) const;

    /**
     * \param type a node type
     * \return its name in Print(): "host" for GPU nodes, else FabricNodeTypeName()
     */
    static const char* GetTierName(FabricNodeType type);

    /**
     * \brief Write CSV: a header "tier,counter,value", then the rows of every node type that
     *        has nodes (in FabricNodeType order), then those of "total".
     * \param os the stream
     */
    void Print(std::ostream& os) const;

    /**
     * \brief Collective across MPI processes (every process calls it, at the same point):
     *        every counter becomes its sum over the processes, in every process, so that a
     *        run split across processes reports the sequential run's sums. Node counts are
     *        kept (every process builds every node; only its own nodes count anything).
     *        Nothing without MPI.
     */
    void Gather();
};

} // namespace ns3

#endif /* FABRIC_AGGREGATE_COUNTERS_H */
