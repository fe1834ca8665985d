/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-monitor.h"

#include "fabric-latency-probe.h"

#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-command-line.h"
#include "ns3/fabric-health-monitor.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-mpi.h"
#include "ns3/fabric-nic.h"
#include "ns3/fabric-switch.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricMonitor);

namespace
{

/// The Levels names, by FabricMonitorLevel (node, port, queue, qp).
const char* const LEVEL_NAMES[] = {"node", "port", "queue", "qp"};

/// The transport metrics (FabricTransportCounters), in FabricMonitor::Transport's order.
const std::string TRANSPORT_NAMES[] = {"out_of_sequence",
                                       "local_ack_timeout_err",
                                       "packet_seq_err",
                                       "retransmissions",
                                       "np_cnp_sent",
                                       "rp_cnp_handled",
                                       "np_ecn_marked",
                                       "trim_nacks_rx"};

const std::string PAUSE_NS = "pause_ns";                       //!< port, per priority
const std::string PAUSE_CONTINUOUS_NS = "pause_continuous_ns"; //!< port, per priority
const std::string PAUSE_STORM = "pause_storm";                 //!< port, per priority
const std::string PFC_PAUSE_TX = "pfc_pause_tx";               //!< port, per priority
const std::string PFC_PAUSE_RX = "pfc_pause_rx";               //!< port, per priority
const std::string PFC_WATCHDOG = "pfc_watchdog_storms";        //!< port, per priority
const std::string TX_BYTES = "tx_bytes";                       //!< port
const std::string ECN_MARKS = "ecn_marks";                     //!< switch port
const std::string RX_BACKLOG = "rx_backlog_bytes";             //!< NIC port
/// Queue metrics: switch egress, ingress, headroom; NIC transmit queue (index 0).
const std::string SWITCH_QUEUE[] = {"egress_bytes", "ingress_bytes", "headroom_bytes"};
const std::string NIC_TX_QUEUE = "tx_queue_bytes"; //!< NIC port queue
/// Switch buffer gauges.
const std::string BUFFER[] = {"buffer_bytes", "buffer_fraction", "shared_bytes", "shared_fraction"};
const std::string TRIMS = "trims";                   //!< switch
const std::string LOSSLESS_DROPS = "lossless_drops"; //!< switch

/// \return "drop:<reason>" with spaces made '_'
std::string
DropMetric(const std::string& reason)
{
    std::string m = "drop:" + reason;
    std::replace(m.begin(), m.end(), ' ', '_');
    return m;
}

/**
 * \param count the reasons of an enum (its COUNT)
 * \param name reason index -> its name
 * \return the metric names ("drop:<reason>") of the reasons 0..count-1
 */
template <typename NameFn>
std::vector<std::string>
DropNames(size_t count, NameFn name)
{
    std::vector<std::string> v;
    for (size_t r = 0; r < count; ++r)
    {
        v.push_back(DropMetric(name(r)));
    }
    return v;
}

/// \return the metric names of the port drop reasons (PfcDropReason), made once
const std::vector<std::string>&
PortDropNames()
{
    static const std::vector<std::string> names =
        DropNames(size_t(PfcDropReason::COUNT),
                  [](size_t r) { return PfcDropReasonName(PfcDropReason(r)); });
    return names;
}

/// \return the metric names of the NIC drop reasons (FabricNicDropReason), made once
const std::vector<std::string>&
NicDropNames()
{
    static const std::vector<std::string> names =
        DropNames(size_t(FabricNicDropReason::COUNT),
                  [](size_t r) { return FabricNicDropReasonName(FabricNicDropReason(r)); });
    return names;
}

/// \return the bit of a level in the Levels mask
uint8_t
Bit(FabricMonitorLevel level)
{
    return static_cast<uint8_t>(1u << unsigned(level));
}

/// Parse a Levels value into \p mask. \return true if valid
bool
ParseLevels(const std::string& text, uint8_t& mask)
{
    mask = 0;
    std::stringstream ss(text);
    std::string part;
    bool any = false;
    while (std::getline(ss, part, '+'))
    {
        bool found = false;
        for (unsigned i = 0; i < 4; ++i)
        {
            if (part == LEVEL_NAMES[i] && !((mask >> i) & 1u))
            {
                mask |= static_cast<uint8_t>(1u << i);
                found = true;
            }
        }
        if (!found)
        {
            return false;
        }
        any = true;
    }
    return any && (text.empty() || text.back() != '+');
}

} // namespace

bool
FabricMonitorLevelsAreValid(const std::string& levels)
{
    uint8_t mask = 0;
    return ParseLevels(levels, mask);
}

TypeId
FabricMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricMonitor")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricMonitor>()
            .AddAttribute("Interval",
                          "Time between two samples while the fabric has work, >= 1 ns.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&FabricMonitor::m_interval),
                          MakeFabricTimeChecker("ns3::FabricMonitor::Interval", NanoSeconds(1)))
            .AddAttribute("Delay",
                          "From a change of the fabric's work (work posted on an idle fabric, "
                          "the last operation done) to the sample it starts or ends, >= 0: 0 "
                          "samples at the change (one process only); across MPI processes at "
                          "least the lookahead between them (a sequential run with the same "
                          "Delay writes the same rows).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FabricMonitor::m_delay),
                          MakeFabricTimeChecker("ns3::FabricMonitor::Delay", Time(0)))
            .AddAttribute(
                "StormThreshold",
                "Continuous pause of a priority from which a port's pause_storm "
                "flag is 1 (operations practice: SONiC pfcwd declares a storm after "
                "~100-200 ms), >= 1 ns.",
                TimeValue(MilliSeconds(200)),
                MakeTimeAccessor(&FabricMonitor::m_stormThreshold),
                MakeFabricTimeChecker("ns3::FabricMonitor::StormThreshold", NanoSeconds(1)))
            .AddAttribute(
                "Levels",
                "What to sample, joined by '+': node (switch buffers, drops by reason, host "
                "transport totals), port (PFC pause time and storms, ECN marks, port drops), "
                "queue (per-priority queue bytes), qp (per-QP transport counters).",
                StringValue("node+port+queue+qp"),
                MakeStringAccessor(&FabricMonitor::m_levels),
                MakeFabricChecker<StringValue>(
                    MakeStringChecker(),
                    "ns3::FabricMonitor::Levels",
                    [](const std::string& v) { return FabricMonitorLevelsAreValid(v); },
                    "node, port, queue, qp joined by '+', each at most once",
                    [](const std::string& v) { return "'" + v + "'"; }))
            .AddAttribute("FileName",
                          "The CSV file Install() writes (empty: SetStream() must be called).",
                          StringValue(""),
                          MakeStringAccessor(&FabricMonitor::m_path),
                          MakeStringChecker())
            .AddTraceSource("Sample",
                            "A sample was taken (in every process of a run across processes); "
                            "the argument is its time.",
                            MakeTraceSourceAccessor(&FabricMonitor::m_sampleTrace),
                            "ns3::Time::TracedCallback");
    return tid;
}

FabricMonitor::FabricMonitor()
    : m_interval(MicroSeconds(10)),
      m_delay(0),
      m_stormThreshold(MilliSeconds(200)),
      m_levels("node+port+queue+qp")
{
}

FabricMonitor::~FabricMonitor() = default;

void
FabricMonitor::ReleaseProbe()
{
    m_probe = nullptr;
}

void
FabricMonitor::ReleaseFabric()
{
    if (compat::IsPending(m_event))
    {
        Simulator::Remove(m_event);
    }
    m_running = false;
    m_writer.Flush();
    m_ports.clear();
    m_switches.clear();
    m_hosts.clear();
    m_plugins.clear();
}

void
FabricMonitor::DoDispose()
{
    ReleaseFabric();
    m_writer.SetStream(nullptr);
    m_file.reset();
    m_probe = nullptr;
    m_notes = nullptr;
    m_part.reset();
    m_out = nullptr;
    m_changesAt.clear();
    m_topo = nullptr;
    Object::DoDispose();
}

void
FabricMonitor::SetStream(std::ostream* os)
{
    FABRIC_INPUT_ERROR_IF(m_installed, "FabricMonitor::SetStream: call it before Install()");
    m_writer.SetStream(os);
}

void
FabricMonitor::SetLatencyProbe(Ptr<FabricLatencyProbe> probe)
{
    FABRIC_INPUT_ERROR_IF(m_installed, "FabricMonitor::SetLatencyProbe: call it before Install()");
    m_probe = probe;
}

Ptr<FabricLatencyProbe>
FabricMonitor::GetLatencyProbe() const
{
    return m_probe;
}

FabricMonitorWriter&
FabricMonitor::GetWriter()
{
    return m_writer;
}

bool
FabricMonitor::Has(FabricMonitorLevel level) const
{
    return (m_levelMask & Bit(level)) != 0;
}

void
FabricMonitor::AddPort(Ptr<PfcNetDevice> dev,
                       Ptr<FabricSwitch> sw,
                       Ptr<FabricNic> nic,
                       uint32_t index)
{
    Port p;
    p.dev = dev;
    p.sw = sw;
    p.nic = nic;
    p.index = index;
    p.entity.node = dev->GetNode()->GetId();
    p.local = IsLocalNode(p.entity.node);
    p.entity.name = m_topo->GetNodeName(p.entity.node);
    p.entity.port = static_cast<int32_t>(index);
    Ptr<PfcChannel> ch = dev->GetPfcChannel();
    if (ch)
    {
        Ptr<PfcNetDevice> peer =
            ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
        if (peer)
        {
            p.entity.peer = m_topo->GetNodeName(peer->GetNode()->GetId());
        }
    }
    p.drops.resize(size_t(PfcDropReason::COUNT));
    m_ports.push_back(std::move(p));
}

void
FabricMonitor::Install(Ptr<FabricTopologyHelper> topo)
{
    FABRIC_INPUT_ERROR_IF(!topo || !topo->IsInstalled(),
                          "FabricMonitor::Install: the topology is not installed");
    FABRIC_INPUT_ERROR_IF(m_installed, "FabricMonitor::Install: installed already");
    FABRIC_INPUT_ERROR_IF(topo->GetObject<FabricMonitor>(),
                          "FabricMonitor::Install: this topology has a monitor already");
    ParseLevels(m_levels, m_levelMask); // the checker refused invalid values
    m_topo = PeekPointer(topo);
    m_installed = true;
    m_processes = FabricMpi::GetSize();
    m_self = FabricMpi::GetSystemId();
    if (m_processes > 1)
    {
        const Time lookahead = topo->GetPartition().GetLookahead();
        FABRIC_INPUT_ERROR_IF(m_delay < lookahead,
                              "FabricMonitor: Delay (--monitor-delay) "
                                  << m_delay.As(Time::NS) << " across " << m_processes
                                  << " MPI processes is below the lookahead "
                                     "between them ("
                                  << lookahead.As(Time::NS) << "); give at least that");
        FABRIC_INPUT_ERROR_IF(m_probe,
                              "FabricMonitor: latency probes run in one process only; this run "
                              "has "
                                  << m_processes << " MPI processes");
        m_notes = PeekPointer(topo->GetObject<FabricNoteChannel>());
        NS_ABORT_MSG_IF(!m_notes, "FabricMonitor: a fabric across processes has no note channel");
        m_handler = m_notes->AddNoteHandler(MakeCallback(&FabricMonitor::OnNote, this));
    }
    m_busy.assign(m_processes, false);
    // Across processes every process writes its rows to memory, and process 0 writes them all
    // to the CSV in Gather().
    std::ostream* out = m_writer.GetStream();
    if (!out && m_self == 0)
    {
        FABRIC_INPUT_ERROR_IF(m_path.empty(),
                              "FabricMonitor::Install: no output (set FileName or SetStream())");
        m_file = std::make_unique<std::ofstream>(m_path);
        FABRIC_INPUT_ERROR_IF(!*m_file,
                              "FabricMonitor: cannot write \"" << m_path << "\" (FileName)");
        out = m_file.get();
    }
    if (m_processes > 1)
    {
        m_out = out;
        m_part = std::make_unique<std::ostringstream>();
        m_writer.SetStream(m_part.get());
    }
    else if (!m_writer.IsOpen())
    {
        m_writer.SetStream(out);
    }
    m_plugins = topo->GetTransports();
    std::vector<Ptr<FabricSwitch>> switches = topo->GetScaleOutSwitches();
    if (topo->HasNvLink())
    {
        for (uint32_t s = 0; s < topo->GetNNvSwitches(); ++s)
        {
            switches.push_back(topo->GetNvSwitch(s)->GetObject<FabricSwitch>());
        }
    }
    for (const Ptr<FabricSwitch>& sw : switches)
    {
        Switch s;
        s.sw = sw;
        s.entity.node = sw->GetPort(0)->GetNode()->GetId();
        s.entity.name = topo->GetNodeName(s.entity.node);
        UintegerValue size;
        sw->GetMmu()->GetAttribute("BufferSize", size);
        s.bufferSize = size.Get();
        s.local = IsLocalNode(s.entity.node);
        m_switches.push_back(std::move(s));
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            AddPort(sw->GetPort(p), sw, nullptr, p);
        }
    }
    NodeContainer gpus = topo->GetGpus();
    for (auto it = gpus.Begin(); it != gpus.End(); ++it)
    {
        Host h;
        h.node = *it;
        h.nic = h.node->GetObject<FabricNic>();
        h.entity.node = h.node->GetId();
        h.local = IsLocalNode(h.entity.node);
        h.entity.name = topo->GetNodeName(h.entity.node);
        h.drops.resize(size_t(FabricNicDropReason::COUNT));
        if (h.nic)
        {
            for (uint32_t p = 0; p < h.nic->GetNPorts(); ++p)
            {
                AddPort(h.nic->GetPort(p), nullptr, h.nic, p);
            }
        }
        m_hosts.push_back(std::move(h));
    }
    // The topology keeps the monitor alive (its health monitor calls it back).
    topo->AggregateObject(this);
    // The event holds a reference: a program may drop the fabric before Simulator::Destroy().
    Simulator::ScheduleDestroy(&FabricMonitor::ReleaseFabric, Ptr<FabricMonitor>(this));
    topo->GetHealthMonitor()->AddBusyCallback(MakeCallback(&FabricMonitor::OnBusy, this));
    if (m_probe)
    {
        // Before the probe's own release, which may free the whole fabric with this monitor.
        Simulator::ScheduleDestroy(&FabricMonitor::ReleaseProbe, this);
        m_probe->Install(topo, &m_writer);
    }
    if (topo->GetHealthMonitor()->GetPendingOperations() > 0)
    {
        // Work was posted before the monitor was installed.
        if (m_delay.IsZero())
        {
            Start();
        }
        else
        {
            // A change at the install time, made in an event of its own so that it is told
            // to the other processes as any other.
            KeyNext(Simulator::Now());
            Simulator::ScheduleWithContext(CONTEXT,
                                           Time(0),
                                           &FabricMonitor::OnLocalChange,
                                           this,
                                           true);
        }
    }
}

void
FabricMonitor::OnBusy(bool busy)
{
    if (!m_delay.IsZero())
    {
        OnLocalChange(busy);
    }
    else if (busy)
    {
        Start();
    }
    else
    {
        Stop();
    }
}

void
FabricMonitor::Start()
{
    FABRIC_INPUT_ERROR_IF(!m_installed, "FabricMonitor::Start: call Install() first");
    if (m_running)
    {
        return;
    }
    m_running = true;
    Tick();
}

void
FabricMonitor::Stop()
{
    if (!m_running)
    {
        return;
    }
    if (compat::IsPending(m_event))
    {
        Simulator::Remove(m_event); // a cancelled event would still advance the clock
    }
    if (Simulator::Now() != m_lastSample)
    {
        Sample();
    }
    m_running = false;
    m_writer.Flush();
}

bool
FabricMonitor::IsRunning() const
{
    return m_running;
}

uint64_t
FabricMonitor::GetSamples() const
{
    return m_samples;
}

uint64_t
FabricMonitor::GetRows() const
{
    return m_writer.GetRows();
}

void
FabricMonitor::Tick()
{
    if (Simulator::Now() != m_lastSample)
    {
        Sample();
    }
    ScheduleTick();
}

void
FabricMonitor::ScheduleTick()
{
    if (!m_delay.IsZero())
    {
        KeyNext(Simulator::Now());
    }
    m_event = Simulator::Schedule(m_interval, &FabricMonitor::Tick, this);
}

void
FabricMonitor::Sample()
{
    m_lastSample = Simulator::Now();
    ++m_samples;
    m_sampleTrace(m_lastSample);
    // Across processes each process samples its own nodes (the others' counters do not move
    // here), their rows tagged with their place in the sample (Place, Gather).
    if (Has(FabricMonitorLevel::PORT) || Has(FabricMonitorLevel::QUEUE))
    {
        for (std::size_t i = 0; i < m_ports.size(); ++i)
        {
            if (m_ports[i].local)
            {
                Place(0, i);
                SamplePort(m_ports[i]);
            }
        }
    }
    if (Has(FabricMonitorLevel::NODE))
    {
        for (std::size_t i = 0; i < m_switches.size(); ++i)
        {
            if (m_switches[i].local)
            {
                Place(1, i);
                SampleSwitch(m_switches[i]);
            }
        }
    }
    if (Has(FabricMonitorLevel::NODE) || Has(FabricMonitorLevel::QP))
    {
        for (std::size_t i = 0; i < m_hosts.size(); ++i)
        {
            if (m_hosts[i].local)
            {
                Place(2, i);
                SampleHost(m_hosts[i]);
            }
        }
    }
}

void
FabricMonitor::Delta(Counter& c,
                     uint64_t now,
                     FabricMonitorLevel level,
                     const FabricMonitorEntity& e,
                     int priority,
                     int64_t qp,
                     const std::string& metric)
{
    const uint64_t value = now - c.last;
    c.last = now;
    if (value != 0 || c.nz)
    {
        m_writer.Row(m_lastSample, level, e, priority, qp, metric, value);
    }
    c.nz = value != 0;
}

void
FabricMonitor::Level(Gauge& g,
                     uint64_t value,
                     FabricMonitorLevel level,
                     const FabricMonitorEntity& e,
                     int priority,
                     int64_t qp,
                     const std::string& metric)
{
    if (value != 0 || g.nz)
    {
        m_writer.Row(m_lastSample, level, e, priority, qp, metric, value);
    }
    g.nz = value != 0;
}

void
FabricMonitor::LevelReal(Gauge& g,
                         double value,
                         FabricMonitorLevel level,
                         const FabricMonitorEntity& e,
                         int priority,
                         const std::string& metric)
{
    if (value != 0 || g.nz)
    {
        m_writer.RowReal(m_lastSample, level, e, priority, -1, metric, value);
    }
    g.nz = value != 0;
}

void
FabricMonitor::SamplePort(Port& p)
{
    const Time now = m_lastSample;
    if (Has(FabricMonitorLevel::PORT))
    {
        constexpr auto L = FabricMonitorLevel::PORT;
        const PfcPortCounters& c = p.dev->GetCounters();
        const PfcPauseReceiver& rx = p.dev->GetPauseReceiver();
        uint64_t txBytes = 0;
        for (uint8_t q = 0; q < 8; ++q)
        {
            const bool paused = rx.IsPaused(q);
            const Time running = paused ? now - rx.GetPauseStart(q) : Time(0);
            const uint64_t pausedNs = uint64_t((c.pausedTime[q] + running).GetNanoSeconds());
            Delta(p.pause[q], pausedNs, L, p.entity, q, -1, PAUSE_NS);
            Level(p.continuous[q],
                  uint64_t(running.GetNanoSeconds()),
                  L,
                  p.entity,
                  q,
                  -1,
                  PAUSE_CONTINUOUS_NS);
            Level(p.storm[q],
                  paused && running >= m_stormThreshold ? 1 : 0,
                  L,
                  p.entity,
                  q,
                  -1,
                  PAUSE_STORM);
            Delta(p.pfcTx[q], c.pauseTx[q], L, p.entity, q, -1, PFC_PAUSE_TX);
            Delta(p.pfcRx[q], c.pauseRx[q], L, p.entity, q, -1, PFC_PAUSE_RX);
            Delta(p.watchdog[q], c.stormsDetected[q], L, p.entity, q, -1, PFC_WATCHDOG);
            txBytes += c.txBytes[q];
        }
        Delta(p.txBytes, txBytes, L, p.entity, -1, -1, TX_BYTES);
        if (p.sw)
        {
            Delta(p.ecn, p.sw->GetCounters().ecnMarks[p.index], L, p.entity, -1, -1, ECN_MARKS);
        }
        for (size_t r = 0; r < p.drops.size(); ++r)
        {
            Delta(p.drops[r], c.drops[r], L, p.entity, -1, -1, PortDropNames()[r]);
        }
        if (p.nic)
        {
            Level(p.rxBacklog, p.nic->GetRxBacklog(p.index), L, p.entity, -1, -1, RX_BACKLOG);
        }
    }
    if (Has(FabricMonitorLevel::QUEUE))
    {
        constexpr auto L = FabricMonitorLevel::QUEUE;
        for (uint8_t q = 0; q < 8; ++q)
        {
            if (p.sw)
            {
                Ptr<SharedBufferMmu> mmu = p.sw->GetMmu();
                Level(p.queue[0][q],
                      mmu->GetEgressBytes(p.index, q),
                      L,
                      p.entity,
                      q,
                      -1,
                      SWITCH_QUEUE[0]);
                Level(p.queue[1][q],
                      mmu->GetReservedUsed(p.index, q) + mmu->GetIngressSharedUsed(p.index, q),
                      L,
                      p.entity,
                      q,
                      -1,
                      SWITCH_QUEUE[1]);
                Level(p.queue[2][q],
                      mmu->GetHeadroomUsed(p.index, q),
                      L,
                      p.entity,
                      q,
                      -1,
                      SWITCH_QUEUE[2]);
            }
            else
            {
                Level(p.queue[0][q],
                      p.dev->GetTxQueue(q).GetNBytes(),
                      L,
                      p.entity,
                      q,
                      -1,
                      NIC_TX_QUEUE);
            }
        }
    }
}

void
FabricMonitor::SampleSwitch(Switch& s)
{
    constexpr auto L = FabricMonitorLevel::NODE;
    Ptr<SharedBufferMmu> mmu = s.sw->GetMmu();
    const uint64_t held = mmu->GetBytesHeld();
    const uint64_t shared = mmu->GetSharedUsed();
    const uint64_t pool = mmu->GetSharedPoolSize();
    Level(s.buffer[0], held, L, s.entity, -1, -1, BUFFER[0]);
    LevelReal(s.buffer[1],
              s.bufferSize ? double(held) / double(s.bufferSize) : 0,
              L,
              s.entity,
              -1,
              BUFFER[1]);
    Level(s.buffer[2], shared, L, s.entity, -1, -1, BUFFER[2]);
    LevelReal(s.buffer[3], pool ? double(shared) / double(pool) : 0, L, s.entity, -1, BUFFER[3]);
    const SwitchCounters& c = s.sw->GetCounters();
    Delta(s.trims, c.GetTrims(), L, s.entity, -1, -1, TRIMS);
    uint64_t lossless = 0;
    for (uint64_t n : c.losslessDrops)
    {
        lossless += n;
    }
    Delta(s.lossless, lossless, L, s.entity, -1, -1, LOSSLESS_DROPS);
    while (s.drops.size() < c.drops.GetN()) // reasons may be declared after Install
    {
        s.dropName.push_back(DropMetric(c.drops.GetName(uint32_t(s.drops.size()))));
        s.drops.emplace_back();
    }
    for (size_t r = 0; r < s.drops.size(); ++r)
    {
        Delta(s.drops[r], c.drops[r], L, s.entity, -1, -1, s.dropName[r]);
    }
}

void
FabricMonitor::Transport(std::array<Counter, TRANSPORT_METRICS>& series,
                         const FabricTransportCounters& c,
                         FabricMonitorLevel level,
                         const FabricMonitorEntity& e,
                         int priority,
                         int64_t qp)
{
    const uint64_t values[TRANSPORT_METRICS] = {c.outOfOrder,
                                                c.timeouts,
                                                c.nacks,
                                                c.retransmissions,
                                                c.cnpsTx,
                                                c.cnpsRx,
                                                c.ceRx,
                                                c.trimNacks};
    for (size_t i = 0; i < TRANSPORT_METRICS; ++i)
    {
        Delta(series[i], values[i], level, e, priority, qp, TRANSPORT_NAMES[i]);
    }
}

void
FabricMonitor::SampleHost(Host& h)
{
    if (Has(FabricMonitorLevel::NODE))
    {
        constexpr auto L = FabricMonitorLevel::NODE;
        if (h.nic)
        {
            const auto& drops = h.nic->GetDrops();
            for (size_t r = 0; r < h.drops.size(); ++r)
            {
                Delta(h.drops[r], drops[r], L, h.entity, -1, -1, NicDropNames()[r]);
            }
        }
        FabricTransportCounters total;
        for (const Ptr<FabricTransportPlugin>& plugin : m_plugins)
        {
            plugin->AddCounters(h.node, total);
        }
        Transport(h.metric, total, L, h.entity, -1, -1);
    }
    if (Has(FabricMonitorLevel::QP))
    {
        m_flowScratch.clear();
        for (const Ptr<FabricTransportPlugin>& plugin : m_plugins)
        {
            plugin->AddFlowCounters(h.node, m_flowScratch);
        }
        if (h.flows.size() < m_flowScratch.size())
        {
            h.flows.resize(m_flowScratch.size());
        }
        FabricMonitorEntity e = h.entity;
        for (size_t i = 0; i < m_flowScratch.size(); ++i)
        {
            const FabricFlowCounters& f = m_flowScratch[i];
            e.port = static_cast<int32_t>(f.port);
            Transport(h.flows[i].metric,
                      f.counters,
                      FabricMonitorLevel::QP,
                      e,
                      f.priority,
                      static_cast<int64_t>(f.id));
        }
    }
}

void
FabricMonitor::AddCommandLine(FabricCommandLine& cmd, std::string& path)
{
    cmd.AddOutput("monitor",
                  "Production-like monitoring: write per node, port, queue and QP samples "
                  "(time_us,level,node,node_name,port,peer,priority,qp,metric,value; PFC "
                  "pause time and storms, buffer, ECN/CNP, drops by reason, OOS, local ACK "
                  "timeouts, latency probes) to this CSV file (tools/plots/"
                  "plot_fabric_monitor.py plots it)",
                  path);
    cmd.AddAttribute("monitor-interval", "ns3::FabricMonitor::Interval");
    cmd.AddAttribute("monitor-delay", "ns3::FabricMonitor::Delay");
    cmd.AddAttribute("monitor-levels", "ns3::FabricMonitor::Levels");
    cmd.AddAttribute("monitor-storm-threshold", "ns3::FabricMonitor::StormThreshold");
    cmd.AddAttribute("monitor-probes", "ns3::FabricLatencyProbe::Pairs");
    cmd.AddAttribute("monitor-probe-size", "ns3::FabricLatencyProbe::Size");
    cmd.AddAttribute("monitor-probe-period", "ns3::FabricLatencyProbe::Period");
}

Ptr<FabricMonitor>
FabricMonitor::InstallIfEnabled(Ptr<FabricTopologyHelper> topo, const std::string& path)
{
    if (path.empty())
    {
        return nullptr;
    }
    Ptr<FabricMonitor> monitor = CreateObject<FabricMonitor>();
    monitor->SetAttribute("FileName", StringValue(path));
    Ptr<FabricLatencyProbe> probe = CreateObject<FabricLatencyProbe>();
    if (!probe->GetPairs().empty())
    {
        monitor->SetLatencyProbe(probe);
    }
    monitor->Install(topo);
    return monitor;
}

} // namespace ns3
