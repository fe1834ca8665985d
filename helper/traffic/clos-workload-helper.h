/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a congestion-control experiment in one object: a two-tier Clos of plain hosts,
 * a Poisson flow workload from a flow-size CDF, and the FlowWorkloadRunner that records FCT
 * slowdowns (the HPCC-lineage evaluation setup by default).
 */
#ifndef CLOS_WORKLOAD_HELPER_H
#define CLOS_WORKLOAD_HELPER_H

#include "flow-workload-runner.h"

#include "ns3/clos-topology-helper.h"
#include "ns3/data-rate.h"
#include "ns3/flow-arrival-generator.h"
#include "ns3/object.h"
#include "ns3/queue-size.h"
#include "ns3/switch-queue-sampler.h"
#include "ns3/wred-ecn-marker.h"

#include <iosfwd>
#include <memory>
#include <string>

namespace ns3
{

class FlowSource;

/**
 * \ingroup ai-fabric-traffic
 * \brief Builds the congestion-control researcher's standard experiment: Poisson flows drawn
 *        from a flow-size CDF at a target load, over RoCEv2 or Ultra Ethernet on a two-tier Clos
 *        of plain hosts
 *        (one NIC each, no NVLink), with per-flow FCT records and the slowdown summary.
 *
 * The defaults are the HPCC-lineage evaluation setup (Li et al., SIGCOMM 2019, and the
 * simulators derived from it): 128 hosts (8 leaves x 16) at 25 Gb/s, 2 spines at 100 Gb/s
 * (2:1), 1 us links, 4 MB shared switch buffers with dynamic threshold alpha 1/8, 1024-byte
 * payloads, PFC on, ECN Kmin 100 KB / Kmax 400 KB / Pmax 0.2 per 25 Gb/s scaled with the port
 * rate, DCQCN with g 1/256, a 900 us rate-increase timer, AI 50 Mb/s, HAI 100 Mb/s, an ACK per
 * packet, WebSearch at 50 % load for 10 ms of arrivals; ECN marks decided on dequeue and switch
 * ports sized for the NICs' packets (ClosTopologyHelper PortMtuFromTransport), as those
 * simulators do.
 *
 * Leaves and spines share BufferSize, Kmin, Kmax and Pmax unless SpineBufferSize, SpineKmin,
 * SpineKmax or SpinePmax give the spines their own (FabricTopologyHelper tier settings).
 *
 * Load: a fraction of each host's share of its leaf's uplinks (LoadBase "fabric": host rate /
 * oversubscription, 12.5 Gb/s at 2:1, the setup's ~590 WebSearch flows in 10 ms) or of the
 * host link (LoadBase "host").
 *
 * Transport "uet" runs the same flows over Ultra Ethernet instead (FabricTransportConfig:
 * UetNics with Mtu payload bytes per packet, UetCongestionControl, EvStrategy, the lossy
 * trimmed data class with BDP-sized queues and ECN; Kmin/Kmax/Pmax and DcqcnPreset then apply
 * to no traffic), so RoCE and UET can be compared on the same workload.
 *
 * Install() sets the DcqcnCongestionOps defaults of the chosen preset (Config::SetDefault),
 * builds the Clos (ClosTopologyHelper: its switch and NIC helpers are reachable through
 * GetTopology() before Install for anything not covered here), the generator and the runner;
 * Start() starts the flows. Install() raises an input error (FABRIC_INPUT_ERROR), naming the
 * attribute and its valid range, for a zero leaf, host or spine count, a load outside (0, 1],
 * Kmin > Kmax, an unknown workload, congestion control, preset or load base, an Mtu the
 * transport cannot use, and for a FlowFile that cannot be read, is malformed or names a host
 * the fabric does not have (with the file and the line).
 *
 * FlowFile replays a flow list instead of the Poisson workload: one flow per line,
 * "<src> <dst> <size_bytes> <start_ns>" (FlowList's format; tools/flowtxt_to_flowlist.py
 * converts the HPCC-lineage flow.txt), hosts 0..Leaves x HostsPerLeaf - 1; Workload, Load,
 * LoadBase and Duration then do not apply. The file is checked whole at Install, then read
 * line by line during the run (FlowListReader).
 */
class ClosWorkloadHelper : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ClosWorkloadHelper();
    ~ClosWorkloadHelper() override;

    /// \return the Clos (configure it further before Install)
    Ptr<ClosTopologyHelper> GetTopology() const;
    /// Build the fabric, the workload and the runner. Call once.
    void Install();
    /// Start the flows (after Install, before Simulator::Run()).
    void Start();
    /**
     * \brief Collective across MPI processes (every process calls it, after the run): the
     *        runner's flows (FlowWorkloadRunner::Gather) and the queue sampler's histograms
     *        (held samples settled at the last flow's completion, then added up) reach process
     *        0, whose runner, summary and GetQueueSampler() then report the sequential run's
     *        figures. Nothing in a run of one process. The fabric's counters are gathered
     *        apart (FabricAggregateCounters::Gather).
     */
    void Gather();
    /// \return the runner (valid after Install)
    FlowWorkloadRunner& GetRunner();
    /// \return the workload generator (valid after Install; null with FlowFile)
    Ptr<FlowArrivalGenerator> GetGenerator() const;
    /**
     * \brief The number of flows the run will start, known before it starts: the flows of
     *        FlowFile, or the Poisson generator's mean (hosts x arrival rate x Duration).
     * \return the count (valid after Install)
     */
    double GetExpectedFlows() const;
    /// \return the rate the load is a fraction of, per host (valid after Install)
    DataRate GetLoadBaseRate() const;
    /// \return the queue sampler of the leaves ("leaf") and spines ("spine"), running from
    ///         Start() until the last flow finished (valid after Install)
    Ptr<SwitchQueueSampler> GetQueueSampler() const;
    /**
     * \brief Stream the queue sampler's timeline (SwitchQueueSampler::SetTimelineStream: one
     *        CSV row per tier, "leaf" then "spine", every sample Interval, 10 us by default,
     *        from Start() until the last flow finished, plus a last row then; with
     *        TimelineDelay, until that long after it) to \p os. May be called before or after
     *        Install (not after Start, or early rows are missing). Across MPI processes the
     *        rows are written at Gather(), and TimelineDelay must be at least the lookahead.
     * \param os the stream (not owned; must outlive Simulator::Run()); nullptr: none
     */
    void SetTimelineStream(std::ostream* os);

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Check a flow-list file whole (format, order, hosts < \p hosts); an input error
     *        naming the file and the line otherwise.
     * \param path the file
     * \param hosts hosts of the fabric
     * \return the number of flows
     */
    static uint64_t CheckFlowFile(const std::string& path, uint32_t hosts);

    Ptr<ClosTopologyHelper> m_clos;               //!< the fabric
    Ptr<FlowArrivalGenerator> m_generator;        //!< the flows (Poisson)
    Ptr<FlowSource> m_source;                     //!< the flows the runner runs
    double m_expectedFlows{0};                    //!< GetExpectedFlows()
    std::string m_flowFile;                       //!< attribute FlowFile
    std::unique_ptr<FlowWorkloadRunner> m_runner; //!< runs them
    Ptr<SwitchQueueSampler> m_queues;             //!< switch queue statistics
    std::ostream* m_timeline{nullptr};            //!< queue/PFC timeline sink (not owned)
    uint32_t m_leaves;                            //!< attribute Leaves
    uint32_t m_hostsPerLeaf;                      //!< attribute HostsPerLeaf
    uint32_t m_spines;                            //!< attribute Spines
    DataRate m_hostRate;                          //!< attribute HostLinkDataRate
    DataRate m_fabricRate;                        //!< attribute FabricLinkDataRate
    Time m_delay;                                 //!< attribute LinkDelay
    uint32_t m_mtu;                               //!< attribute Mtu
    uint64_t m_buffer;                            //!< attribute BufferSize
    double m_alpha;                               //!< attribute Alpha
    QueueSize m_kmin;                             //!< attribute Kmin
    QueueSize m_kmax;                             //!< attribute Kmax
    double m_pmax;                                //!< attribute Pmax
    uint64_t m_spineBuffer;                       //!< attribute SpineBufferSize
    QueueSize m_spineKmin;                        //!< attribute SpineKmin
    QueueSize m_spineKmax;                        //!< attribute SpineKmax
    double m_spinePmax;                           //!< attribute SpinePmax
    WredEcnMarker::MarkingPoint m_markingPoint;   //!< attribute EcnMarkingPoint
    std::string m_cc;                             //!< attribute CongestionControl
    std::string m_transport;                      //!< attribute Transport
    std::string m_uetCc;                          //!< attribute UetCongestionControl
    std::string m_evStrategy;                     //!< attribute EvStrategy
    std::string m_loadBalancer;                   //!< attribute LoadBalancer
    std::string m_preset;                         //!< attribute DcqcnPreset
    std::string m_workload;                       //!< attribute Workload
    double m_load;                                //!< attribute Load
    std::string m_loadBase;                       //!< attribute LoadBase
    Time m_duration;                              //!< attribute Duration
    Time m_timelineDelay;                         //!< attribute TimelineDelay
    DataRate m_loadBaseRate;                      //!< computed by Install
};

} // namespace ns3

#endif /* CLOS_WORKLOAD_HELPER_H */
