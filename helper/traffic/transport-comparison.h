/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: RoCEv2 and Ultra Ethernet side by side: the same fabric, the same traffic
 * (a training collective, an incast, a permutation, with and without a failed spine link),
 * one row of results per scenario and configuration.
 */
#ifndef TRANSPORT_COMPARISON_H
#define TRANSPORT_COMPARISON_H

#include "fabric-run-counters.h"

#include "ns3/collective-communicator.h"
#include "ns3/fabric-te-controller.h"
#include "ns3/fabric-topology.h"
#include "ns3/fabric-transport-config.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <array>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief One result of TransportComparison: a scenario (one collective size, or one flow
 *        pattern) under one configuration.
 */
struct TransportComparisonRow
{
    std::string scenario;       //!< "allreduce", "alltoall", "incast", "permutation", "...-failure"
    std::string config;         //!< configuration name ("roce-dcqcn", "uet-nscc", ...)
    std::string lb;             //!< switch load balancer's short name (empty: the default)
    double uplinkImbalance{0};  //!< max / mean utilization of the leaf-to-spine cables (run)
    uint64_t bytes{0};          //!< collective size, or bytes per flow
    double busbwGBps{-1};       //!< collective busbw, GB/s (-1 for flow patterns)
    uint32_t flows{0};          //!< flow patterns: connections
    uint32_t completed{0};      //!< flow patterns: connections completed ok
    Time fctMedian;             //!< flow patterns: median FCT
    Time fctP99;                //!< flow patterns: 99th percentile FCT
    Time fctMax;                //!< flow patterns: largest FCT
    uint64_t maxQueueBytes{0};  //!< largest egress port queue sampled on scale-out switches
    uint8_t dataPriority{3};    //!< priority of the configuration's data packets
    FabricRunCounters counters; //!< over the measured interval
    bool ok{false};             //!< completed; UET: every byte posted delivered, nothing failed
    std::string problem;        //!< why not ok (empty when ok)

    /// \return PFC pause frames on dataPriority
    uint64_t GetDataClassPauses() const;
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Runs the same traffic on the same fabric under several transport configurations and
 *        tabulates the outcome (examples/roce-vs-uet.cc).
 *
 * Every (scenario, configuration) pair is one simulation on a fresh fabric: the topology
 * (TopologyType, default ns3::RailOptimizedTopologyHelper, with the attributes given to
 * SetTopologyAttribute()), set up by a FabricTransportConfig for the configuration, random
 * streams fixed (NICs, switches, collectives), run, counted and destroyed
 * (Simulator::Destroy), so each row is independent of the others and of their order.
 *
 * <b>Configurations</b> (attribute Configurations, comma-separated): "roce-dcqcn" (RoCEv2,
 * DCQCN, PFC), "roce-pfc" (RoCEv2 without congestion control, PFC only), and
 * "uet-<cc>[-<ev>]" with cc none, nscc (rccc, both when the build has RCCC) and ev single,
 * oblivious, bitmap, reps (default) or mixed: Ultra Ethernet, lossy and trimmed, e.g.
 * "uet-nscc" (NSCC with REPS spraying) or "uet-none-single".
 *
 * <b>Scenarios</b> (attribute Scenarios): "allreduce" (a world ring AllReduce of MinBytes to
 * MaxBytes in Factor steps, one warm-up at the first size, one row per size with its busbw),
 * "alltoall" (the same sweep of a pairwise AlltoAll with PXN, NCCL's default on
 * rail-optimized servers: cross-rail blocks cross NVLink first, so the network carries rail
 * traffic, and between scalable units the spines),
 * "incast" (IncastSenders ranks of other servers, 0 = all, each WRITE FlowBytes to rank 0),
 * "permutation" (every rank WRITEs FlowBytes to another rank of another server, a random
 * derangement drawn from the seed, the same for every configuration); each with the suffix
 * "-failure" runs with one leaf-spine cable (leaf 0 to spine 0) failed (Failure "down": cut,
 * routes recomputed) or degraded (Failure "degrade": DegradeFactor x its rate, routes kept)
 * from the start.
 *
 * <b>Load balancers</b> (attribute LoadBalancers, comma-separated SwitchHelper short names,
 * empty by default: the configuration's own): every scenario and configuration runs once per
 * balancer on every switch. With "te" a FabricTeController plans the scenario's flow matrix
 * before the traffic starts (after the failure): each flow at the NIC rate divided by the
 * larger of its source's flows and its destination's; for a collective the inter-server
 * transfers of its schedule (PlanCollective: for the ring AllReduce with one rail-aware ring
 * per rail every GPU to the same-rail GPU of the next server, at the NIC rate; for the
 * AlltoAll every GPU to the same-rail GPU of every other server, at an equal share). Rows then also
 * carry the balancer and the leaf-to-spine utilization imbalance (max / mean), and the table and
 * CSV gain those columns and the out-of-sequence arrivals.
 *
 * A row is ok when its traffic completed, the fabric's health monitor saw no stall and, with
 * UET, every byte posted was completed and delivered and no operation failed.
 */
class TransportComparison : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TransportComparison();
    ~TransportComparison() override;

    /**
     * \brief Set an attribute of the topologies built (e.g. "Servers", "ServersPerSu").
     * \param name attribute name of TopologyType
     * \param value its value
     */
    void SetTopologyAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Check Configurations and Scenarios (aborting with the value and the valid
     *        ones) and run every scenario under every configuration, scenario-major.
     * \return the rows
     */
    std::vector<TransportComparisonRow> Run();
    /**
     * \brief Report the progress of each run on stderr (FabricProgressReporter, at most once a
     *        second of wall-clock time; runs shorter than a second print nothing).
     * \param on true to report (default false)
     * \param name the program name the lines begin with
     */
    void SetProgressReports(bool on, const std::string& name = "roce-vs-uet");
    /**
     * \brief Run one scenario under one configuration (one simulation).
     * \param scenario a scenario name
     * \param config a configuration name
     * \param lb a switch load balancer's short name (SwitchHelper::SetLoadBalancerByName;
     *        "te" also plans the scenario's flow matrix with a FabricTeController), empty
     *        for the configuration's default
     * \return its rows (one per collective size, else one)
     */
    std::vector<TransportComparisonRow> RunOne(const std::string& scenario,
                                               const std::string& config,
                                               const std::string& lb = "");

    /// \return the configurations, in order
    std::vector<std::string> GetConfigurations() const;
    /// \return the scenarios, in order
    std::vector<std::string> GetScenarios() const;
    /// \return the load balancers (LoadBalancers), in order; empty for the default only
    std::vector<std::string> GetLoadBalancers() const;
    /**
     * \brief A FabricTransportConfig for a configuration name: a transport plug-in's preset
     *        (FabricTransportConfig::FromPreset; aborts naming the name and the valid forms
     *        otherwise).
     * \param name e.g. "roce-dcqcn", "roce-pfc", "uet-nscc", "uet-none-single"
     * \param what how to name the value in messages (e.g. "--configs")
     * \return the configuration object (attributes set; not applied)
     */
    static Ptr<FabricTransportConfig> MakeConfig(const std::string& name, const std::string& what);
    /**
     * \brief Plan a collective's communication pattern with \p te: the network transfers of
     *        its schedule at \p bytes (after PXN relaying), summed per rank pair on different
     *        servers, each pair at its bytes x the NIC rate / the larger of its source's and
     *        its destination's inter-server bytes (the pair's max-min share of the NICs).
     * \param topo the installed fabric
     * \param comm the communicator that will run it
     * \param op the collective
     * \param bytes its size, bytes
     * \param te the controller (Plan() is called)
     */
    static void PlanCollective(Ptr<FabricTopologyHelper> topo,
                               Ptr<CollectiveCommunicator> comm,
                               CollectiveOp op,
                               uint64_t bytes,
                               Ptr<FabricTeController> te);
    /**
     * \brief Abort unless \p name is a scenario: allreduce, alltoall, incast, permutation,
     * optionally with "-failure". \param name the name \param what how to name the value in
     * messages
     */
    static void CheckScenario(const std::string& name, const std::string& what);

    /**
     * \brief Print the rows as a table: scenario, configuration, busbw (collectives), median /
     *        p99 / max FCT (flow patterns), PFC pauses, trims, drops, retransmissions, ok;
     *        when rows name load balancers also the balancer, out-of-sequence arrivals and
     *        the leaf-to-spine utilization imbalance.
     * \param os the stream
     * \param rows the rows
     */
    static void WriteTable(std::ostream& os, const std::vector<TransportComparisonRow>& rows);
    /**
     * \brief Write the rows as CSV: scenario,config,transport,bytes,busbw_GBps,flows,
     *        completed,fct_median_us,fct_p99_us,fct_max_us,max_queue_bytes,pfc_pauses,
     *        pfc_pauses_data_class,trims,drops,ecn_marks,retransmissions,timeouts,nacks,
     *        trim_nacks,cnps,uet_bytes_posted,uet_bytes_delivered,ok (busbw empty for flow
     *        patterns, FCTs empty for collectives), and when rows name load balancers
     *        lb,uplink_imbalance,out_of_order.
     * \param os the stream
     * \param rows the rows
     */
    static void WriteCsv(std::ostream& os, const std::vector<TransportComparisonRow>& rows);
    /**
     * \brief What the comparison examples end with: the table on \p os, the CSV to \p csv
     *        if given ("# wrote ..."), and their exit status.
     * \param os the stream
     * \param rows the rows
     * \param csv CSV path, empty for none (aborts naming it, as "--csv=...", if it cannot be
     *        written)
     * \return 0 if every row is ok, else 1
     */
    static int WriteResults(std::ostream& os,
                            const std::vector<TransportComparisonRow>& rows,
                            const std::string& csv);
    /**
     * \brief Describe the fabric and the failure (one line each, '#'-prefixed) and every
     *        configuration (what it sets), from a fabric built and set up once per
     *        configuration (nothing runs).
     * \param os the stream
     */
    void Describe(std::ostream& os);

  private:
    /// \return a topology of TopologyType with the attributes set, not installed
    Ptr<FabricTopologyHelper> MakeTopology() const;
    /// \return the cable Failure applies to (leaf 0 - spine 0); aborts without spines
    uint32_t FailureLink(Ptr<FabricTopologyHelper> topo) const;
    /// Fix every random stream of a fresh fabric (NICs, switches): a row does not depend on
    /// the rows run before it.
    void AssignFixedStreams(Ptr<FabricTopologyHelper> topo,
                            Ptr<FabricTransportPlugin> transport) const;
    /// Fail (Failure "down") or degrade (DegradeFactor) the FailureLink() cable.
    void ApplyFailure(Ptr<FabricTopologyHelper> topo) const;
    /**
     * \brief The allreduce or alltoall scenario: a sweep of the collective, one row per size.
     * \param op CollectiveOp::ALL_REDUCE (ring, Simple) or CollectiveOp::ALL_TO_ALL (pairwise,
     *        PXN)
     * \param topo the installed fabric
     * \param transport its transport (the collectives run on its CollectiveTransport)
     * \param proto the row's scenario, configuration and data priority
     * \param te a controller to plan the collective's pattern with (null: no traffic
     *        engineering)
     * \return the rows (a last one naming the size that did not complete, if any)
     */
    std::vector<TransportComparisonRow> RunCollective(CollectiveOp op,
                                                      Ptr<FabricTopologyHelper> topo,
                                                      Ptr<FabricTransportPlugin> transport,
                                                      const TransportComparisonRow& proto,
                                                      Ptr<FabricTeController> te) const;
    /**
     * \brief The incast or permutation scenario: the flows run to completion, one row.
     * \param base "incast" or "permutation"
     * \param topo the installed fabric
     * \param proto the row's scenario, configuration and data priority
     * \param start the fabric's counters before the run
     * \param te a controller to plan the flows with (null: no traffic engineering)
     * \return the row (FCT percentiles, counters since \p start)
     */
    TransportComparisonRow RunFlows(const std::string& base,
                                    Ptr<FabricTopologyHelper> topo,
                                    const TransportComparisonRow& proto,
                                    const FabricRunCounters& start,
                                    Ptr<FabricTeController> te) const;
    /**
     * \brief Max over mean utilization (bytes sent / rate) of the leaf-to-spine cables that
     *        are up, over the whole run so far.
     * \param topo the fabric
     * \return the ratio (1 = perfectly even; 0 if nothing was sent)
     */
    static double UplinkImbalance(Ptr<FabricTopologyHelper> topo);
    /**
     * \brief The whole run's health: no stall, and where the transport counts bytes (UET)
     *        every byte posted completed and was delivered once, nothing pending.
     * \param topo the fabric after the run
     * \param start the fabric's counters before the run
     * \return the problem in words, empty if none
     */
    std::string CheckRun(Ptr<FabricTopologyHelper> topo, const FabricRunCounters& start) const;

    TypeId m_topoType; //!< attribute TopologyType
    /// SetTopologyAttribute()'s attributes, in call order
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_topoAttributes;
    std::string m_configs;                     //!< attribute Configurations
    std::string m_scenarios;                   //!< attribute Scenarios
    std::string m_lbs;                         //!< attribute LoadBalancers
    uint64_t m_minBytes;                       //!< attribute MinBytes
    uint64_t m_maxBytes;                       //!< attribute MaxBytes
    uint32_t m_factor;                         //!< attribute Factor
    uint32_t m_channels;                       //!< attribute Channels
    uint32_t m_incastSenders;                  //!< attribute IncastSenders
    uint64_t m_flowBytes;                      //!< attribute FlowBytes
    std::string m_failure;                     //!< attribute Failure
    bool m_progress{false};                    //!< SetProgressReports()
    std::string m_progressName{"roce-vs-uet"}; //!< their prefix
    double m_degradeFactor;                    //!< attribute DegradeFactor
    Time m_sample;                             //!< attribute SampleInterval
};

} // namespace ns3

#endif /* TRANSPORT_COMPARISON_H */
