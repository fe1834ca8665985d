/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: latency probes between chosen hosts (an RDMA pingmesh), reported against the
 * path's unloaded latency.
 */
#ifndef FABRIC_LATENCY_PROBE_H
#define FABRIC_LATENCY_PROBE_H

#include "fabric-monitor-writer.h"

#include "ns3/event-id.h"
#include "ns3/fabric-topology.h"
#include "ns3/fabric-transport-plugin.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FlowWorkloadRunner;

/**
 * \ingroup ai-fabric-monitor
 * \brief The outcome of one latency probe (FabricLatencyProbe's Probe trace).
 */
struct FabricProbeResult
{
    uint32_t src{0}; //!< source rank
    uint32_t dst{0}; //!< destination rank
    Time sent;       //!< when it was posted
    Time latency;    //!< from post to completion (the sender learns the outcome)
    Time baseline;   //!< the path's unloaded latency for the probe's size (see the class)
    bool ok{false};  //!< delivered and acknowledged
};

/**
 * \ingroup ai-fabric-monitor
 * \brief Latency probes between chosen host pairs: every Period each pair sends one small
 *        message (Size bytes) over the fabric's transport, as operators' ping meshes do over
 *        RDMA (Guo et al., "Pingmesh", SIGCOMM 2015: a probe per server pair and period, its
 *        latency compared with the pair's normal latency to tell a network problem from a
 *        host one).
 *
 * A probe is one message of the transport's FabricMessageService (RoCEv2: an RDMA WRITE on a
 * QP pair of the probe's own; Ultra Ethernet: an SES WRITE) in the transport's data priority,
 * so it queues, is paused and marked like the data it measures. Its latency is from the post
 * to the completion the sender sees: the one-way trip of the data and the acknowledgement's
 * way back (an RDMA pingmesh's RTT). Its baseline is the analytical latency of the same
 * message alone on the idle fabric (FlowWorkloadRunner::GetIdealFct: serialization of every
 * frame at each link's rate, propagation and switch processing delay along the path, and the
 * acknowledgement's way back), so an unloaded probe has a ratio of exactly 1; the ratio
 * latency / baseline is the probe's slowdown.
 *
 * One probe per pair is in flight at a time: a pair whose previous probe has not completed
 * skips the round (counted, GetSkipped()); the slow probe's own latency shows the problem.
 * Probes follow the fabric's work like FabricMonitor: they start when work is posted on an
 * idle fabric, and a round is only sent while work other than probes is pending, so probes
 * never keep a finished run alive.
 *
 * Rows (level "probe", FabricMonitorWriter) at each completion: probe_latency_ns,
 * probe_baseline_ns, probe_ratio and, for a failed probe, probe_failed = 1; node = the
 * source host, port = its NIC port, peer = the destination host.
 *
 * <b>Errors.</b> Pairs must be "a-b" rank pairs joined by ',' or ';' (refused where set,
 * naming the value); Install() raises an input error naming a pair whose rank is not in the
 * fabric or whose ranks are equal, and a Transport the hosts do not carry.
 */
class FabricLatencyProbe : public Object
{
  public:
    /// Probe trace signature: the outcome of one probe.
    typedef void (*ProbeTracedCallback)(const FabricProbeResult& result);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricLatencyProbe();
    ~FabricLatencyProbe() override;

    /**
     * \brief Probe from rank \p src to rank \p dst (as well as the Pairs attribute's).
     * \param src source rank
     * \param dst destination rank (!= src; checked by Install())
     */
    void AddPair(uint32_t src, uint32_t dst);
    /// \return the pairs: those of AddPair() then those of Pairs
    std::vector<std::pair<uint32_t, uint32_t>> GetPairs() const;

    /**
     * \brief Check the pairs, create the transport's message service and follow the fabric's
     *        health monitor (see the class text). The probe is aggregated to the topology,
     *        which keeps it alive: one probe object per topology (it probes every pair).
     * \param topo an installed topology without a probe (an input error otherwise)
     * \param writer where the rows go (not owned; null: the trace only)
     */
    void Install(Ptr<FabricTopologyHelper> topo, FabricMonitorWriter* writer);
    /**
     * \param src source rank of an installed pair
     * \param dst destination rank
     * \return the unloaded latency of a probe from \p src to \p dst (see the class text)
     */
    Time GetBaseline(uint32_t src, uint32_t dst) const;

    /// \return probes sent
    uint64_t GetSent() const;
    /// \return probes completed (successfully or not)
    uint64_t GetCompleted() const;
    /// \return rounds a pair skipped because its previous probe was still in flight
    uint64_t GetSkipped() const;

    /**
     * \param text a Pairs value
     * \param[out] pairs the pairs
     * \return true if \p text is "a-b" rank pairs joined by ',' or ';' (or empty)
     */
    static bool ParsePairs(const std::string& text,
                           std::vector<std::pair<uint32_t, uint32_t>>& pairs);

  protected:
    void DoDispose() override;
    /// At Simulator::Destroy(): drop the runner and its message service, which hold the
    /// fabric this probe is aggregated to (a reference cycle otherwise).
    void ReleaseRunner();

  private:
    /// One probed pair.
    struct Pair
    {
        uint32_t src{0};            //!< source rank
        uint32_t dst{0};            //!< destination rank
        Time baseline;              //!< unloaded latency
        FabricMonitorEntity entity; //!< source host, its port, destination name
        bool inFlight{false};       //!< a probe is on its way
    };

    /// Send a round if other work is pending; schedule the next.
    void Tick();
    /// Start ticking (at once, in its own event) unless already.
    void Arm();
    /// The fabric's health monitor says work started or ended. \param busy it
    void OnBusy(bool busy);
    /// A probe completed. \param pair its pair index \param r its outcome
    void Done(uint32_t pair, const FabricMessageResult& r);
    /// \return true if work other than the probes is pending on the fabric
    bool OtherWorkPending() const;

    uint64_t m_size;                                    //!< attribute Size, bytes
    Time m_period;                                      //!< attribute Period
    std::string m_pairs;                                //!< attribute Pairs
    std::string m_transport;                            //!< attribute Transport
    std::vector<std::pair<uint32_t, uint32_t>> m_added; //!< AddPair()
    std::vector<Pair> m_probes;                         //!< installed pairs
    /// the fabric (not owned: this object is aggregated to it, so a Ptr would be a cycle)
    FabricTopologyHelper* m_topo{nullptr};
    std::unique_ptr<FlowWorkloadRunner> m_runner;          //!< service and ideal latencies
    Ptr<FabricMessageService> m_service;                   //!< the transport's messages
    FabricMonitorWriter* m_writer{nullptr};                //!< rows (not owned)
    EventId m_event;                                       //!< next round
    bool m_ticking{false};                                 //!< rounds scheduled
    uint64_t m_inFlight{0};                                //!< probes in flight
    uint64_t m_sent{0};                                    //!< probes sent
    uint64_t m_completed{0};                               //!< probes completed
    uint64_t m_skipped{0};                                 //!< rounds skipped by a pair
    TracedCallback<const FabricProbeResult&> m_probeTrace; //!< every outcome
};

} // namespace ns3

#endif /* FABRIC_LATENCY_PROBE_H */
