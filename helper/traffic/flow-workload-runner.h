/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: runs a flow workload (a FlowSource: Poisson arrivals from a flow-size CDF, an
 * incast, a flow list) over the RoCEv2 or Ultra Ethernet NICs of an installed topology, with
 * memory bounded by the flows in flight, and records each flow's FCT against its ideal FCT.
 */
#ifndef FLOW_WORKLOAD_RUNNER_H
#define FLOW_WORKLOAD_RUNNER_H

#include "ns3/callback.h"
#include "ns3/causal-order-scheduler.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/fabric-barrier.h"
#include "ns3/fabric-topology.h"
#include "ns3/fabric-transport-plugin.h"
#include "ns3/flow-fct-summary.h"
#include "ns3/flow-source.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief The unloaded path between two hosts, hop by hop, as a packet crosses it.
 */
struct FlowPath
{
    std::vector<DataRate> rates; //!< each link's rate, source side first
    std::vector<Time> delays;    //!< each link's propagation delay
    Time switching;              //!< the switches' forwarding delays, summed
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Runs the flows of a FlowSource between the hosts (ranks) of an installed topology as
 *        RDMA WRITEs over RoCEv2 or SES WRITEs over Ultra Ethernet, pulling them lazily: at
 *        most one flow is read ahead of the simulation clock, and the state kept is that of
 *        the flows in flight.
 *
 * Transport (SetTransport): any FabricTransportPlugin the ranks carry, by its name; by
 * default the topology's first (FabricTopologyHelper::GetTransports). The runner knows no
 * transport: each flow is one message of the plug-in's FabricMessageService (Post), which
 * also gives the flow's packet format (for the ideal FCT) and NIC ports (for its path).
 * RoCEv2 (RoceTransportPlugin): one RDMA WRITE on a pooled QP pair of the host pair, renewed
 * between flows so that every flow starts at line rate as on a new connection (the
 * HPCC-lineage simulators' one QP per flow). Ultra Ethernet (UetTransportPlugin): one SES
 * WRITE from a per-rank endpoint (its FlowJobId and FlowDeliveryMode attributes), of at most
 * 2^32 - 1 bytes (larger aborts naming the flow); flows between the same pair share its PDC.
 * The NICs learn each peer's unloaded path RTT (GetUnloadedRtt) when the transport uses it.
 *
 * Each completion is passed to the record callback (e.g. a CSV writer) and counted in a
 * FlowFctSummary; retransmissions are the flow's own (RoCE: its requester QP's, UET: its
 * message's packets sent again).
 *
 * Ideal FCT (FlowFctRecord::ideal), from the path (GetPath: the first equal-cost port at each
 * switch) and the transport's packet format: with n = ceil(size / Mtu) packets of Mtu payload
 * (the last one shorter), each with H bytes beyond the payload on the wire (RoCE: 82 B of
 * Ethernet/802.1Q/IPv4/UDP/BTH/ICRC/FCS/preamble/gap, the first packet also 16 B of RETH;
 * UET: 122 B of Ethernet/IPv4/UDP/PDS/SES standard header/FCS/preamble/gap, or the NIC's
 * HeaderModelBytes), W bytes on the wire in all, and the ACK that completes the flow (RoCE
 * 86 B, UET 90 B: PDS ACK + SES response),
 *   ideal = sum over links before the bottleneck b of (first packet - 12 B) x 8 / rate
 *         + (W - 12 B) x 8 / rate_b + sum over links after b of (last packet - 12 B) x 8 / rate
 *         + sum over links of (ACK - 12 B) x 8 / rate + 2 x (propagation + switching)
 * (a frame is received when its last bit arrives, 12 B of inter-frame gap before the next
 * may start): the FCT of the flow alone, so an unloaded flow's slowdown is 1.
 *
 * Across MPI processes (FabricMpi::GetSize() > 1; the engine must follow CausalOrderScheduler,
 * FabricMpi::SelectEngine's causal order): every process reads the source and runs every
 * flow's start event, so that the flows and their events are the sequential run's, but posts
 * only the flows whose source host is its own. Its finished flows are held (with the keys of
 * their start and completion events) until Gather(), which gives process 0 every flow in the
 * order a sequential run finishes them: the record callback, the summary, GetFinished(),
 * GetMaxActive() and AllCompleted() then answer as in the sequential run (in the other
 * processes, for their own flows). When a process's own flows are done and the source is
 * exhausted it arrives at a FabricBarrier (Latency: the partition's lookahead, or the end
 * delay of SetEndDelay); the finished callback runs at the barrier's release in every process,
 * that long after the last flow finished, and GetEnd() then tells where the last flow finished
 * (e.g. for SwitchQueueSampler::Settle). A transport whose GetProcessLimit() is not empty (RoCE's
 * pooled QP pairs) is refused at Start(), naming why.
 *
 * Start() aborts, naming the value, when the topology's hosts carry no NIC of the transport,
 * a flow's host is not a rank of the topology, a flow goes from a host to itself, or the
 * source's start times decrease.
 */
class FlowWorkloadRunner
{
  public:
    /// Called with every finished flow.
    using RecordCallback = Callback<void, const FlowFctRecord&>;

    /**
     * \param topo an installed topology whose ranks carry RoceNics (flow host i = rank i)
     * \param source the flows, in non-decreasing start order (absolute times)
     */
    FlowWorkloadRunner(Ptr<FabricTopologyHelper> topo, Ptr<FlowSource> source);
    ~FlowWorkloadRunner();

    /// \param cb called with every finished flow (its record is not kept otherwise)
    void SetRecordCallback(RecordCallback cb);
    /// \param cb called once, when the source is exhausted and the last flow finished (e.g.
    ///        to stop periodic monitors that would otherwise keep the simulation running)
    void SetFinishedCallback(Callback<void> cb);
    /**
     * \param cb across MPI processes, called in every process when the source is exhausted
     *        (the last flow started): from then on the run may end in any process, which the
     *        others learn a lookahead later (e.g. SwitchQueueSampler::Hold). Not called in a
     *        run of one process.
     */
    void SetArrivalsEndCallback(Callback<void> cb);
    /**
     * \brief Run the finished callback \p delay after the last flow finished instead of at
     *        once (before Start()): monitors that sample up to the end (SwitchQueueSampler's
     *        timeline) then take their last sample that much later, at the same instant in a
     *        run of one process and across MPI processes (where the finished callback runs
     *        at the release of a FabricBarrier whose Latency is \p delay, or the lookahead
     *        when it is 0).
     * \param delay >= 0; across processes 0 or at least the lookahead between them (an input
     *        error naming both at Start() otherwise)
     * \param lastFinished in a run of one process, called at the last flow's completion
     *        (when the delay starts; e.g. SwitchQueueSampler::EndHistograms); may be null
     */
    void SetEndDelay(Time delay, Callback<void> lastFinished);
    /// \return the summary, to set bucket edges before Start() and read after the run
    FlowFctSummary& GetSummary();

    /**
     * \brief Choose the transport (before Start()).
     * \param transport a transport plug-in's name ("roce", "uet", ...; aborts naming the value
     *        and the valid names otherwise; Start() aborts if the ranks do not carry its NIC);
     *        unset: the topology's first transport (FabricTopologyHelper::GetTransports)
     */
    void SetTransport(const std::string& transport);
    /// \return the transport's name (after Start(); before it, the choice or "")
    std::string GetTransport() const;
    /// \return the transport's message service (after Start(); null before)
    Ptr<FabricMessageService> GetMessageService() const;

    /// Read the first flow and schedule it. Call once, before Simulator::Run().
    void Start();
    /**
     * \brief Start no more flows: the flow read ahead (due later) is dropped, the source is
     *        not read again, and the flows in flight run to completion; the finished
     *        callback follows the last of them (at once if none is in flight). For
     *        background traffic that lasts as long as a foreground job, e.g. called from a
     *        collective's completion callback. Calling it again does nothing; before Start()
     *        no flow will start.
     */
    void StopArrivals();
    /// \return true once StopArrivals() was called
    bool IsStopped() const;

    /**
     * \brief Collective across MPI processes (every process calls it, after the run): process
     *        0 gets every process's finished flows in the sequential run's order (record
     *        callback and summary), their counts and the most flows in flight at once; every
     *        process learns where the last flow finished (GetEnd()). Nothing in a run of one
     *        process.
     */
    void Gather();
    /**
     * \brief Where the last flow finished: its completion event's time and CausalKey (after
     *        Gather(), across MPI processes; the arrivals' end when no flow ran).
     * \param[out] ts its time, time steps
     * \return its key
     */
    CausalKey GetEnd(uint64_t* ts) const;

    /// \return flows started
    uint64_t GetStarted() const;
    /// \return flows finished (successfully or not; across MPI processes before Gather(), this
    ///         process's own)
    uint64_t GetFinished() const;
    /// \return flows in flight now (across MPI processes: GetStarted() - GetFinished())
    uint64_t GetActive() const;
    /// \return the largest number of flows in flight at once
    uint64_t GetMaxActive() const;
    /// \return connections the transport opened (RoCE QP pairs: the pool size; 0 with UET;
    ///         across MPI processes, every process's after Gather())
    uint64_t GetQpPairs() const;
    /// \return true when the source is exhausted (or StopArrivals() was called) and every
    ///         flow started finished successfully
    bool AllCompleted() const;

    /**
     * \brief The unloaded path of a flow from rank \p src to rank \p dst.
     * \param src source rank
     * \param dst destination rank (!= src)
     * \return the links and delays (aborts, naming the node, when the path does not reach
     *         \p dst within 64 links)
     */
    FlowPath GetPath(uint32_t src, uint32_t dst) const;
    /**
     * \brief The ideal FCT of a flow (see the class text).
     * \param src source rank
     * \param dst destination rank
     * \param bytes flow size, >= 1
     * \return the FCT of the flow alone on the idle fabric
     */
    Time GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const;
    /**
     * \brief The unloaded RTT of the path from \p src to \p dst: the ideal FCT of a
     *        one-packet flow of Mtu payload (its first bit out to its ACK's last bit in).
     *        Every flow's congestion control is told it (RoCE: RoceNic::RenewCongestionControl;
     *        UET: UetNic::SetPathRttFunction; FabricCcState::GetPathRtt), as the HPCC-lineage
     *        simulators give each flow its pair's base RTT: HPCC's T, DCTCP's initial window,
     *        Swift's and NSCC's base delay follow the path instead of their BaseRtt
     *        attributes.
     * \param src source rank
     * \param dst destination rank (!= src)
     * \return the RTT (8.7 us host-leaf-spine-leaf-host in the reference 25/100 Gb/s Clos)
     */
    Time GetUnloadedRtt(uint32_t src, uint32_t dst) const;

  private:
    /// Where an event stands in the run's order (CausalOrderScheduler's key and time).
    struct Point
    {
        uint64_t ts{0};    //!< time, time steps
        CausalKey key;     //!< the event's key
        uint64_t local{0}; //!< order within the event (completions of one event), per process
    };

    /// A flow in flight.
    struct Active
    {
        FlowSpec spec;     //!< the flow
        Time ideal;        //!< its ideal FCT
        Time pathRtt;      //!< its path's unloaded RTT
        uint64_t index{0}; //!< its start's place among the starts (0, 1, ...)
        Point start;       //!< its start event (across processes)
    };

    /// A finished flow held until Gather() (across processes).
    struct Held
    {
        FlowFctRecord record; //!< the flow
        uint64_t index{0};    //!< Active::index
        Point start;          //!< Active::start
        Point end;            //!< its completion event
    };

    /// \return the running event's Point (across processes; aborts without the causal order)
    Point Now();
    /// \return true if \p a runs before \p b
    static bool Before(const Point& a, const Point& b);
    /// \return the held flows as text, one per line
    std::string HeldText() const;
    /**
     * \param text every process's HeldText()
     * \return the flows, in their completion order
     */
    static std::vector<Held> ParseHeld(const std::string& text);
    /// Across processes: this process's flows are done and no more will start.
    void ArriveAtEnd();
    /// Across processes: every process's flows are done (the barrier's release).
    void Released(bool);
    /// The source is exhausted (or StopArrivals): no more flows will start.
    void ArrivalsEnded();

    /**
     * \param path the path from \p src to \p dst (GetPath)
     * \param src source rank
     * \param dst destination rank
     * \param bytes flow size, >= 1
     * \return the ideal FCT (see the class text)
     */
    Time IdealFct(const FlowPath& path, uint32_t src, uint32_t dst, uint64_t bytes) const;
    /**
     * \param path the path from \p src to \p dst (GetPath)
     * \param src source rank
     * \param dst destination rank
     * \return the unloaded RTT (GetUnloadedRtt)
     */
    Time UnloadedRtt(const FlowPath& path, uint32_t src, uint32_t dst) const;

    /**
     * \param src source rank
     * \param dst destination rank
     * \return the packet format of a flow from \p src to \p dst over the transport
     */
    FabricPacketFormat Format(uint32_t src, uint32_t dst) const;

    /// Schedule the next flow of the source, if any.
    void ScheduleNext();
    /// Start the pending flow.
    void StartFlow();
    /// Call the finished callback if the source is exhausted and nothing is in flight.
    void MaybeFinished();
    /// The message of the flow in slot \p slot finished with \p result.
    void Completed(uint32_t slot, const FabricMessageResult& result);
    /**
     * \brief Record a finished flow and free its slot.
     * \param slot its slot
     * \param ok completed successfully
     * \param start posted
     * \param end completed
     * \param retx its retransmissions
     */
    void Finish(uint32_t slot, bool ok, Time start, Time end, uint64_t retx);

    Ptr<FabricTopologyHelper> m_topo;    //!< the fabric
    Ptr<FlowSource> m_source;            //!< the flows
    RecordCallback m_recordCb;           //!< finished flows go here
    Callback<void> m_finishedCb;         //!< called when everything finished
    FlowFctSummary m_summary;            //!< statistics
    FlowSpec m_next;                     //!< the flow scheduled next
    bool m_hasNext{false};               //!< m_next is valid
    bool m_exhausted{false};             //!< the source has no more flows
    bool m_started{false};               //!< Start() called
    bool m_stopped{false};               //!< StopArrivals() called
    EventId m_nextEvent;                 //!< start of the flow read ahead
    Time m_lastStart;                    //!< start time of the last flow read
    std::vector<Active> m_active;        //!< flows in flight, by slot
    std::vector<uint32_t> m_freeSlots;   //!< unused slots of m_active
    uint64_t m_startedFlows{0};          //!< flows started
    uint64_t m_finished{0};              //!< flows finished
    uint64_t m_failed{0};                //!< flows failed
    uint64_t m_maxActive{0};             //!< most in flight at once
    std::string m_ccName;                //!< the NICs' congestion control name
    std::string m_transport;             //!< "roce", "uet" or "" (choose at Start)
    Ptr<FabricTransportPlugin> m_plugin; //!< the transport (after Start)
    Ptr<FabricMessageService> m_service; //!< its messages (after Start)
    bool m_across{false};                //!< run across MPI processes (Start)
    Callback<void> m_arrivalsEndCb;      //!< SetArrivalsEndCallback
    Time m_endDelay;                     //!< SetEndDelay
    Callback<void> m_lastFinishedCb;     //!< SetEndDelay
    Ptr<FabricBarrier> m_end;            //!< across processes: every process's flows done
    bool m_arrived{false};               //!< arrived at m_end
    uint64_t m_localStarted{0};          //!< flows this process posted (across processes)
    std::vector<Held> m_held;            //!< finished flows until Gather (across processes)
    uint64_t m_completions{0};           //!< completions so far in this process
    uint64_t m_connections{0};           //!< every process's connections (Gather)
    Point m_last;                        //!< the last flow's completion (GetEnd)
};

} // namespace ns3

#endif /* FLOW_WORKLOAD_RUNNER_H */
