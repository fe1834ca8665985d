/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: production-like monitoring of a fabric (opt-in): periodic samples of the
 * counters operators watch, per node, port, queue and queue pair, as one tidy CSV.
 */
#ifndef FABRIC_MONITOR_H
#define FABRIC_MONITOR_H

#include "fabric-monitor-writer.h"

#include "ns3/event-id.h"
#include "ns3/fabric-note-channel.h"
#include "ns3/fabric-topology.h"
#include "ns3/fabric-transport-plugin.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

class FabricCommandLine;
class FabricLatencyProbe;
class FabricNic;
class FabricSwitch;
class PfcNetDevice;

/**
 * \ingroup ai-fabric-monitor
 * \brief Samples a fabric every Interval the way production telemetry does (SONiC counters,
 *        NVIDIA UFM, Arista telemetry; `ethtool -S` / `rdma statistic` on ConnectX NICs) and
 *        writes one tidy CSV row per observation (FabricMonitorWriter: time_us, level, node,
 *        node_name, port, peer, priority, qp, metric, value).
 *
 * <b>Levels</b> (attribute Levels, any of them joined by '+'):
 *  - <b>node</b>: per switch its buffer (buffer_bytes held in all pools and buffer_fraction of
 *    the MMU's BufferSize; shared_bytes and shared_fraction of the shared pool), trims,
 *    lossless_drops and drop:&lt;reason&gt; (SwitchCounters); per host its NIC core's
 *    drop:&lt;reason&gt; and its transports' counters summed over flows
 *    (FabricTransportPlugin::AddCounters: out_of_sequence, local_ack_timeout_err,
 *    packet_seq_err, retransmissions, np_cnp_sent, rp_cnp_handled, np_ecn_marked,
 *    trim_nacks_rx).
 *  - <b>port</b>: per port of every switch and NIC and per priority, the time the peer paused
 *    it (pause_ns in the interval, from PfcPauseReceiver's pausedTime plus the running part
 *    of a pause), the continuous pause at the sample (pause_continuous_ns: since the pause
 *    began, refreshes included) and the storm flag (pause_storm = 1 while
 *    pause_continuous_ns >= StormThreshold), PFC frames sent and received (pfc_pause_tx,
 *    pfc_pause_rx), PFC watchdog storms (pfc_watchdog_storms); per port tx_bytes, ecn_marks
 *    (switch egress ports), drop:&lt;reason&gt; (PfcDropReason) and, on NIC ports, the host
 *    receive backlog (rx_backlog_bytes).
 *  - <b>queue</b>: per switch (port, priority) the MMU's egress_bytes, ingress_bytes
 *    (reserved + shared in use) and headroom_bytes; per NIC (port, priority) tx_queue_bytes.
 *  - <b>qp</b>: per flow with counters of its own (RoCE QPs:
 *    FabricTransportPlugin::AddFlowCounters) the transport metrics of the node level.
 *
 * Counters are written as their increase over the interval ending at time_us (the first
 * sample is the baseline: the increase since the previous sample, 0 before); gauges (bytes,
 * fractions, pause_continuous_ns, pause_storm) as their value at time_us. A series (one metric
 * of one node, port, priority or QP) gets a row when its value is non-zero or its previous
 * row was: a missing row means 0, and every non-zero run ends with a 0 row, so the file stays
 * small on a quiet fabric and `fillna(0)` after a pivot gives the full series.
 *
 * <b>When it samples.</b> Install() makes it follow the fabric's FabricHealthMonitor: it
 * samples at once when work is posted on an idle fabric and every Interval while work is
 * pending, and takes a last sample when the last operation completes (or the run stalls),
 * then removes its event, so a finished run ends at the same time as without it. Start() and
 * Stop() do the same by hand. Sampling reads counters only: it changes no simulation result
 * (the tests check a monitored run against an unmonitored one).
 *
 * <b>Delay</b> (attribute): with Delay 0 (the default) the samples above are taken at the
 * changes themselves. With Delay D > 0 every sample that a change starts or ends moves D
 * later: the first at the start of work + D, then every Interval, the last at the end of work
 * + D (a change that is undone within D still starts and ends sampling). That is what a run
 * across MPI processes needs: each process hears of another's change a lookahead L later, so
 * with D >= L every process samples its own switches, ports and hosts at the same instants
 * (events of a reserved context, CONTEXT, keyed under CausalOrderScheduler so that they take
 * the same place among simultaneous events as in a sequential run), and Gather() merges the
 * rows at process 0 in the sequential order: a sequential run with the same Delay writes the
 * same bytes. Across processes a stall ends the work of the process that stalls (each health
 * monitor watches its own NICs), and latency probes are refused.
 *
 * <b>Cost.</b> Nothing exists unless a program creates a monitor: no event, no counter, no
 * per-packet work. When on: per sample O(ports x priorities + QPs) reads and the rows
 * written; nothing per packet, no allocation per sample once the QP list has grown.
 *
 * <b>Errors.</b> Out-of-range attributes are refused where they are set, naming the attribute,
 * the value and the valid range (Interval and StormThreshold >= 1 ns; Delay >= 0; Levels a
 * '+'-joined list of node, port, queue, qp). Install() raises an input error for a topology
 * that is not installed, a second Install(), a FileName that cannot be written (naming the
 * path) and, across MPI processes, a Delay below the lookahead between them or a latency
 * probe (naming the values).
 */
class FabricMonitor : public Object
{
  public:
    /// Context of the sampling events when Delay > 0: no node has it.
    static constexpr uint32_t CONTEXT = 0xfffffffd;
    /// Bytes of a note that tells the other processes of a change: time 8, key 8 + 4 + 8,
    /// process 4, its count of changes 4, busy 1.
    static constexpr uint32_t NOTE_BYTES = 37;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricMonitor();
    ~FabricMonitor() override;

    /**
     * \brief Write the rows to \p os instead of FileName (before Install()).
     * \param os the stream (not owned; must outlive the sampling)
     */
    void SetStream(std::ostream* os);
    /**
     * \brief Run latency probes (FabricLatencyProbe) whose rows go to the same CSV; Install()
     *        installs them. Before Install().
     * \param probe the probe (its Pairs set)
     */
    void SetLatencyProbe(Ptr<FabricLatencyProbe> probe);
    /// \return the latency probe (null if none)
    Ptr<FabricLatencyProbe> GetLatencyProbe() const;

    /**
     * \brief Watch every switch (scale-out and NVSwitch), every NIC port and every host of an
     *        installed topology; open FileName (unless SetStream() was called); follow the
     *        fabric's health monitor (see the class text); install the latency probe. The
     *        monitor is aggregated to the topology, which keeps it alive (the caller need not
     *        hold it; topo->GetObject<FabricMonitor>() finds it): one monitor per topology.
     * \param topo an installed topology without a monitor (an input error otherwise)
     */
    void Install(Ptr<FabricTopologyHelper> topo);
    /// Sample now and every Interval until Stop() (nothing if already sampling).
    void Start();
    /// Take a last sample now (unless one was taken at this time) and stop sampling.
    void Stop();
    /// \return true while sampling
    bool IsRunning() const;
    /// \return samples taken
    uint64_t GetSamples() const;
    /// \return rows written (probe rows included)
    uint64_t GetRows() const;
    /// \return the row writer (shared with the latency probe)
    FabricMonitorWriter& GetWriter();
    /**
     * \brief Across MPI processes: write every process's rows to FileName (or the stream of
     *        SetStream()) of process 0, in the order of a sequential run with the same Delay.
     *        Collective: every process calls it once, after Simulator::Run() and before
     *        Simulator::Destroy(). In a run of
     *        one process it only flushes. Until then each process keeps its rows in memory
     *        (about 60 bytes a row).
     */
    void Gather();

    /**
     * \brief Register the monitoring flags of the examples: --monitor=FILE (an output, checked
     *        writable), and the attribute shortcuts --monitor-interval (Interval),
     *        --monitor-delay (Delay),
     *        --monitor-levels (Levels), --monitor-storm-threshold (StormThreshold),
     *        --monitor-probes (ns3::FabricLatencyProbe::Pairs), --monitor-probe-size and
     *        --monitor-probe-period.
     * \param cmd the command line
     * \param path the variable --monitor sets (empty: no monitor)
     */
    static void AddCommandLine(FabricCommandLine& cmd, std::string& path);
    /**
     * \brief The examples' hook: nothing when \p path is empty; else a monitor (with a
     *        latency probe when ns3::FabricLatencyProbe::Pairs is set) writing to \p path,
     *        installed on \p topo.
     * \param topo an installed topology
     * \param path the CSV file ("" = monitoring off)
     * \return the monitor, or null when off
     */
    static Ptr<FabricMonitor> InstallIfEnabled(Ptr<FabricTopologyHelper> topo,
                                               const std::string& path);

  protected:
    void DoDispose() override;
    /// At Simulator::Destroy(): drop the probe, aggregated to the same fabric as this monitor
    /// (a Ptr between members of one aggregate is a reference cycle otherwise).
    void ReleaseProbe();
    /// At Simulator::Destroy(): drop the references to the fabric's ports, switches, hosts
    /// and transports, so that the fabric can be freed (and its traces' files closed) while
    /// the topology keeps this monitor.
    void ReleaseFabric();

  private:
    /// A counter series: last cumulative value, whether its last row was non-zero.
    struct Counter
    {
        uint64_t last{0}; //!< cumulative value at the previous sample
        bool nz{false};   //!< the previous row was non-zero
    };

    /// A gauge series: whether its last row was non-zero.
    struct Gauge
    {
        bool nz{false}; //!< the previous row was non-zero
    };

    /// One port of a switch or NIC.
    struct Port
    {
        Ptr<PfcNetDevice> dev;                       //!< the port
        bool local{true};                            //!< its node is in this process
        FabricMonitorEntity entity;                  //!< node, port index, peer
        Ptr<FabricSwitch> sw;                        //!< its switch (null: a NIC port)
        Ptr<FabricNic> nic;                          //!< its NIC core (null: a switch port)
        uint32_t index{0};                           //!< port index on the switch / NIC
        std::array<Counter, 8> pause{};              //!< pause_ns (cumulative ns)
        std::array<Gauge, 8> continuous{};           //!< pause_continuous_ns
        std::array<Gauge, 8> storm{};                //!< pause_storm
        std::array<Counter, 8> pfcTx{};              //!< pfc_pause_tx
        std::array<Counter, 8> pfcRx{};              //!< pfc_pause_rx
        std::array<Counter, 8> watchdog{};           //!< pfc_watchdog_storms
        Counter txBytes;                             //!< tx_bytes
        Counter ecn;                                 //!< ecn_marks
        std::vector<Counter> drops;                  //!< drop:<reason> (PfcDropReason)
        Gauge rxBacklog;                             //!< rx_backlog_bytes
        std::array<std::array<Gauge, 8>, 3> queue{}; //!< egress, ingress, headroom / tx queue
    };

    /// One switch.
    struct Switch
    {
        Ptr<FabricSwitch> sw;              //!< the switch
        bool local{true};                  //!< it is in this process
        FabricMonitorEntity entity;        //!< its node
        uint64_t bufferSize{0};            //!< its MMU's BufferSize, bytes
        std::array<Gauge, 4> buffer{};     //!< buffer_bytes/_fraction, shared_bytes/_fraction
        Counter trims;                     //!< trims
        Counter lossless;                  //!< lossless_drops
        std::vector<Counter> drops;        //!< drop:<reason> (SwitchDropReason, as declared)
        std::vector<std::string> dropName; //!< their metric names
    };

    /// Transport metrics (FabricTransportCounters fields), node and QP level.
    static constexpr std::size_t TRANSPORT_METRICS = 8;

    /// One flow of a host (a QP).
    struct Flow
    {
        uint32_t id{0};                                  //!< QPN
        std::array<Counter, TRANSPORT_METRICS> metric{}; //!< transport metrics
    };

    /// One host.
    struct Host
    {
        Ptr<Node> node;                                  //!< the host
        bool local{true};                                //!< it is in this process
        Ptr<FabricNic> nic;                              //!< its NIC core
        FabricMonitorEntity entity;                      //!< its node
        std::vector<Counter> drops;                      //!< drop:<reason> (FabricNicDropReason)
        std::array<Counter, TRANSPORT_METRICS> metric{}; //!< transport metrics, all flows
        std::vector<Flow> flows;                         //!< per flow, in the plug-ins' order
    };

    /// A change of one process's work (its health monitor's busy flag), Delay > 0.
    struct Change
    {
        uint64_t createdTs{0}; //!< key of the event that made it (CausalKey; 0 without)
        uint32_t creator{0};   //!< its creator (CausalKey)
        uint64_t seq{0};       //!< its sequence number (CausalKey)
        uint32_t process{0};   //!< the process whose work changed
        uint32_t order{0};     //!< that process's count of changes before this one
        bool busy{false};      //!< work pending after the change
    };

    /// Take one sample of every level and schedule the next.
    void Tick();
    /// Schedule the next Tick() one Interval from now (keyed when Delay > 0).
    void ScheduleTick();
    /// Delay > 0: this process's work changed now. \param busy work pending after it
    void OnLocalChange(bool busy);
    /**
     * \brief Delay > 0: keep a change of time \p t and schedule its evaluation at t + Delay.
     * \param t when it happened
     * \param c the change
     */
    void Record(Time t, const Change& c);
    /// Delay > 0: apply the changes of time \p t in event order; start or stop sampling when
    /// the fabric's work starts or ends. \param t their time, ns-3 time steps
    void Evaluate(int64_t t);
    /// A change note from another process. \param note its bytes
    void OnNote(const std::vector<uint8_t>& note);
    /// Set the CausalKey of the next event scheduled (Delay > 0, causal order only).
    /// \param created the creating time of the key
    static void KeyNext(Time created);
    /// Whether the rows of an entity are written here. \param node its node id \return true
    /// if the node is in this process
    bool IsLocalNode(uint32_t node) const;
    /**
     * \brief Across processes: tag the rows that follow with their place in a sequential
     *        run's sample (Gather() sorts by it).
     * \param section 0 ports, 1 switches, 2 hosts
     * \param index the entity's index in its list
     */
    void Place(uint32_t section, std::size_t index);
    /// Take one sample of every level enabled.
    void Sample();
    /// Sample one port (port and queue levels). \param p the port
    void SamplePort(Port& p);
    /// Sample one switch (node level). \param s the switch
    void SampleSwitch(Switch& s);
    /// Sample one host (node and qp levels). \param h the host
    void SampleHost(Host& h);
    /// The fabric's health monitor says work started (true) or ended (false). \param busy it
    void OnBusy(bool busy);
    /// Add a port to watch. \param dev the port \param sw its switch \param nic its NIC core
    /// \param index its index there
    void AddPort(Ptr<PfcNetDevice> dev, Ptr<FabricSwitch> sw, Ptr<FabricNic> nic, uint32_t index);
    /**
     * \brief Write a counter's increase since the last sample, if non-zero or its previous
     *        row was.
     */
    void Delta(Counter& c,
               uint64_t now,
               FabricMonitorLevel level,
               const FabricMonitorEntity& e,
               int priority,
               int64_t qp,
               const std::string& metric);
    /// Write a gauge's value, if non-zero or its previous row was.
    void Level(Gauge& g,
               uint64_t value,
               FabricMonitorLevel level,
               const FabricMonitorEntity& e,
               int priority,
               int64_t qp,
               const std::string& metric);
    /// Write a real gauge's value, if non-zero or its previous row was.
    void LevelReal(Gauge& g,
                   double value,
                   FabricMonitorLevel level,
                   const FabricMonitorEntity& e,
                   int priority,
                   const std::string& metric);
    /// Write the transport metrics of \p c into \p series.
    void Transport(std::array<Counter, TRANSPORT_METRICS>& series,
                   const FabricTransportCounters& c,
                   FabricMonitorLevel level,
                   const FabricMonitorEntity& e,
                   int priority,
                   int64_t qp);
    /// \return true if \p level is in Levels
    bool Has(FabricMonitorLevel level) const;

    Time m_interval;        //!< attribute Interval
    Time m_delay;           //!< attribute Delay
    Time m_stormThreshold;  //!< attribute StormThreshold
    std::string m_levels;   //!< attribute Levels
    std::string m_path;     //!< attribute FileName
    uint8_t m_levelMask{0}; //!< Levels as bits (1 << level)
    /// the fabric after Install (not owned: this object is aggregated to it, so a Ptr would
    /// be a cycle)
    FabricTopologyHelper* m_topo{nullptr};
    std::vector<Ptr<FabricTransportPlugin>> m_plugins; //!< its transports
    std::vector<Port> m_ports;                         //!< every port watched
    std::vector<Switch> m_switches;                    //!< every switch watched
    std::vector<Host> m_hosts;                         //!< every host watched
    std::vector<FabricFlowCounters> m_flowScratch;     //!< AddFlowCounters' list, reused
    std::unique_ptr<std::ofstream> m_file;             //!< FileName, when opened
    FabricMonitorWriter m_writer;                      //!< the CSV
    Ptr<FabricLatencyProbe> m_probe;                   //!< latency probes (null: none)
    EventId m_event;                                   //!< next sample
    bool m_running{false};                             //!< sampling
    bool m_installed{false};                           //!< Install() done
    Time m_lastSample{-1};                             //!< time of the last sample
    uint64_t m_samples{0};                             //!< samples taken
    TracedCallback<Time> m_sampleTrace;                //!< trace source Sample
    /// across processes (else null); not owned: aggregated to the same topology as this
    /// monitor, so a Ptr would be a reference cycle
    FabricNoteChannel* m_notes{nullptr};
    uint32_t m_handler{0};                              //!< our note handler's id
    uint32_t m_processes{1};                            //!< processes of the run
    uint32_t m_self{0};                                 //!< this process's system id
    uint32_t m_changes{0};                              //!< this process's changes so far
    std::vector<bool> m_busy;                           //!< per process: work pending
    uint32_t m_busyProcesses{0};                        //!< processes with work pending
    std::map<int64_t, std::vector<Change>> m_changesAt; //!< changes not yet evaluated
    std::unique_ptr<std::ostringstream> m_part;         //!< across processes: this one's rows
    std::ostream* m_out{nullptr};                       //!< across processes: process 0's CSV
};

/**
 * \param levels a Levels value
 * \return true if it is a '+'-joined list of node, port, queue, qp (each at most once)
 */
bool FabricMonitorLevelsAreValid(const std::string& levels);

} // namespace ns3

#endif /* FABRIC_MONITOR_H */
