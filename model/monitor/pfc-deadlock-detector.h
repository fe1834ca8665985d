/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: PFC deadlock detection (a persistent cycle of paused ports).
 */
#ifndef PFC_DEADLOCK_DETECTOR_H
#define PFC_DEADLOCK_DETECTOR_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricHealthMonitor;
class PfcNetDevice;

/**
 * \ingroup ai-fabric-monitor
 * \brief One port of a PFC deadlock cycle: a node's egress port that the next node of the
 *        cycle pauses.
 */
struct PfcDeadlockHop
{
    uint32_t nodeId{0};     //!< ns-3 id of the node whose port waits
    std::string nodeName;   //!< its name ("leaf1"; "node <id>" without a namer)
    uint32_t port{0};       //!< the port: FabricSwitch port index, else the node's device index
    uint8_t priority{0};    //!< the paused priority, 0..7 (the same on every hop)
    uint32_t peerNodeId{0}; //!< ns-3 id of the node at the cable's other end, which pauses it
};

/**
 * \ingroup ai-fabric-monitor
 * \brief A PFC deadlock: a cycle of egress ports, each paused on one priority by the node the
 *        next hop belongs to, each holding queued bytes of that priority and sending none.
 */
struct PfcDeadlockCycle
{
    uint8_t priority{0};              //!< the priority, 0..7
    Time since;                       //!< first check at which every port of it was stuck
    Time detected;                    //!< when it was declared (since + DetectionTime or more)
    std::vector<PfcDeadlockHop> hops; //!< in wait order, starting at the smallest (node, port)

    /**
     * \return "leaf1:p3 -> spine1:p1 -> leaf2:p2 -> spine0:p1 -> leaf1:p3, priority 3, since
     *         1.2 ms": each port named node:p<port>, the first repeated at the end
     */
    std::string ToString() const;
};

/**
 * \ingroup ai-fabric-monitor
 * \brief Detects PFC deadlocks: a cycle of paused ports that persists, reported as the cycle of
 *        switch ports, and (by default) stops the run with that diagnosis.
 *
 * A PFC deadlock is a cyclic buffer dependency: each switch of a cycle cannot send on one
 * lossless priority because the next one pauses it, and the next one pauses because its own
 * buffer for that ingress is full of packets waiting for the next paused port. Nothing drains
 * the cycle, so the traffic in it stops for good (Hu et al., "Deadlocks in Datacenter Networks:
 * Why Do They Form, and How to Avoid Them", HotNets 2016; Guo et al., "RDMA over Commodity
 * Ethernet at Scale", SIGCOMM 2016). Up-down routing (every path climbs, then descends) has no
 * such cycle; a route that goes down and up again, e.g. a detour left after a failure, can
 * close one.
 *
 * <b>Wait-for graph.</b> At every CheckInterval the detector looks at every port of the nodes
 * it watches (Install(): normally the switches; NICs optional) and, per priority, marks a port
 * <i>stuck</i> when its peer pauses that priority (PfcNetDevice::IsPaused), its transmit queue
 * of that priority holds bytes, and it sent none of that priority since the previous check
 * (PfcPortCounters::txBytes unchanged); the port is stuck <i>since</i> the first check that
 * saw it so. A stuck port of node X cabled to a watched node Y is an edge X -> Y (X waits for
 * Y). A cycle X -> Y -> ... -> X of edges of one priority, every one stuck for at least
 * DetectionTime, is a deadlock. Requiring no transmission filters the transient pause cycles
 * of heavy bidirectional traffic: their ports are paused at every check but send between
 * checks. A deadlock that forms at time T (its last port stops sending) is declared between
 * T + DetectionTime and T + DetectionTime + CheckInterval when DetectionTime is a multiple of
 * CheckInterval (up to one more interval otherwise).
 *
 * <b>Report.</b> Each cycle not already reported at the previous check is counted
 * (GetNDeadlocks(), GetDeadlocks()), fires the Deadlock trace, and is written as one line to
 * the stream (stderr by default, SetStream()):
 *
 *     ai-fabric: PFC DEADLOCK at 12 ms: leaf1:p3 -> spine1:p1 -> ... -> leaf1:p3, priority 3,
 *     since 2 ms
 *
 * With StopOnDeadlock (the default) the simulation is then stopped (Simulator::Stop()), so the
 * program after Simulator::Run() writes its outputs and diagnosis. Attach() registers the
 * detector with a FabricHealthMonitor: a stall diagnosis lists the cycles under "PFC deadlock
 * detector:" (Diagnose()), and the checks stop when the monitored fabric has no pending work.
 *
 * <b>Cost.</b> Nothing per packet. The first PFC pause a watched port receives arms a check;
 * checks repeat while a watched port is paused and end when none is (or, with Attach(), when
 * the fabric has no pending work: the check is then removed from the event queue), so a run
 * that finishes ends at the same time as without the detector. A check costs O(watched ports x
 * 8) plus a depth-first search over the stuck ports.
 *
 * <b>PFC watchdog.</b> A port's PfcWatchdogTimeout (200 ms by default) ends a pause that is
 * refreshed for that long: it resumes the port and ignores pauses for PfcWatchdogRestore,
 * which breaks a deadlock (with lossless drops) before anyone names it. Keep DetectionTime
 * below the watchdog timeout (default 10 ms against 200 ms) to have deadlocks reported; a
 * watchdog at or below DetectionTime breaks the cycle first and shows in the ports'
 * stormsDetected counters instead.
 *
 * <b>Errors.</b> DetectionTime and CheckInterval must be > 0 (the attribute checkers name the
 * value and the range); CheckInterval > DetectionTime is refused at Install() and when a check
 * is armed, naming both values (FABRIC_INPUT_ERROR).
 */
class PfcDeadlockDetector : public Object
{
  public:
    /// Deadlock trace signature: the cycle.
    typedef void (*DeadlockTracedCallback)(const PfcDeadlockCycle& cycle);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcDeadlockDetector();
    ~PfcDeadlockDetector() override;

    /**
     * \brief Watch every PfcNetDevice of the given nodes (cabled ones; other devices are
     *        ignored). A port whose peer node is not watched is never an edge. Nodes already
     *        watched are skipped. Checks CheckInterval <= DetectionTime first (an input
     *        error naming both otherwise), even for an empty container.
     * \param nodes the nodes (switches, optionally NIC hosts)
     */
    void Install(NodeContainer nodes);
    /**
     * \brief Watch one node (see Install(NodeContainer)).
     * \param node the node (aborts if null)
     */
    void Install(Ptr<Node> node);
    /// \return the number of watched ports
    uint32_t GetNPorts() const;

    /**
     * \brief Name nodes in reports ("leaf3") instead of "node <id>".
     * \param namer node id -> name (a null callback restores "node <id>")
     */
    void SetNodeNamer(Callback<std::string, uint32_t> namer);
    /**
     * \brief Where the one-line report of each deadlock goes (default std::cerr).
     * \param os the stream (not owned; must outlive the run), or nullptr for none
     */
    void SetStream(std::ostream* os);
    /**
     * \brief Register with a health monitor: its stall diagnosis gets a "PFC deadlock
     *        detector:" section (Diagnose()), and checks stop while the fabric has no pending
     *        work (FabricHealthMonitor::AddBusyCallback). The monitor keeps a reference.
     * \param monitor the monitor (aborts if null)
     */
    void Attach(Ptr<FabricHealthMonitor> monitor);

    /// \return the number of deadlocks declared so far
    uint32_t GetNDeadlocks() const;
    /// \return the deadlocks declared so far, in order
    const std::vector<PfcDeadlockCycle>& GetDeadlocks() const;
    /**
     * \brief The cycles of stuck ports now, whatever their age (for diagnoses; reads the state
     *        of the last check).
     * \return the cycles (since = when their last port became stuck; detected = now)
     */
    std::vector<PfcDeadlockCycle> GetCurrentCycles() const;
    /**
     * \brief Write the deadlocks declared, else the current cycles of stuck ports, else a
     *        line saying there is none (a FabricHealthMonitor diagnoser).
     * \param os the stream
     */
    void Diagnose(std::ostream& os) const;

  protected:
    void DoDispose() override;

  private:
    /// Value of a node index that is not watched.
    static constexpr uint32_t NONE = 0xffffffffu;

    /// One watched port.
    struct Port
    {
        Ptr<PfcNetDevice> dev;        //!< the device
        uint32_t node{0};             //!< index of its node in m_nodes
        uint32_t index{0};            //!< its port index (names)
        uint32_t peer{NONE};          //!< index of the peer node in m_nodes, or NONE
        uint32_t peerId{0};           //!< ns-3 id of the peer node
        uint8_t stuck{0};             //!< bit q: stuck on priority q
        std::array<uint64_t, 8> tx{}; //!< txBytes per priority at the last check
        std::array<Time, 8> since{};  //!< per priority: stuck since
    };

    /// One watched node: its ports are m_ports[first, first + count).
    struct WatchedNode
    {
        uint32_t id{0};    //!< ns-3 node id
        uint32_t first{0}; //!< first port
        uint32_t count{0}; //!< ports
    };

    /// Abort unless 0 < CheckInterval <= DetectionTime.
    void CheckAttributes() const;
    /// Resolve every port's peer node (after nodes were added).
    void ResolvePeers();
    /// A watched port received PFC time for a priority: arm on a pause.
    void OnPauseRx(uint8_t priority, uint16_t quanta);
    /// The monitored fabric has pending work (true) or none (false).
    void OnBusy(bool busy);
    /// Schedule a check unless one is pending (or the detector is idle or done).
    void Arm();
    /// Remove a pending check from the event queue.
    void Disarm();
    /// The periodic check.
    void Check();
    /**
     * \brief The cycles of stuck ports, each port stuck at least \p minAge.
     * \param minAge the age
     * \return the cycles, canonical (see PfcDeadlockCycle::hops), in search order
     */
    std::vector<PfcDeadlockCycle> FindCycles(Time minAge) const;
    /// \return the name of a node
    std::string NodeName(uint32_t id) const;
    /// A diagnoser for the health monitor. \param os the stream
    void DiagnoseTo(std::ostream& os);

    Time m_checkInterval;                                    //!< attribute CheckInterval
    Time m_detectionTime;                                    //!< attribute DetectionTime
    bool m_stopOnDeadlock{true};                             //!< attribute StopOnDeadlock
    std::vector<WatchedNode> m_nodes;                        //!< watched nodes
    std::vector<Port> m_ports;                               //!< watched ports, node by node
    std::unordered_map<uint32_t, uint32_t> m_nodeOf;         //!< ns-3 node id -> index in m_nodes
    Callback<std::string, uint32_t> m_namer;                 //!< node names
    std::ostream* m_out;                                     //!< where deadlocks are written
    EventId m_check;                                         //!< the pending check
    bool m_armed{false};                                     //!< a check is pending
    bool m_idle{false};                                      //!< the attached monitor has no work
    bool m_stopped{false};                                   //!< a deadlock stopped the simulation
    std::set<std::vector<uint64_t>> m_active;                //!< cycles declared and still present
    std::vector<PfcDeadlockCycle> m_deadlocks;               //!< declared so far
    TracedCallback<const PfcDeadlockCycle&> m_deadlockTrace; //!< trace Deadlock
};

} // namespace ns3

#endif /* PFC_DEADLOCK_DETECTOR_H */
