/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-workload-runner.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-mpi.h"
#include "ns3/fabric-note-channel.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-time.h"
#include "ns3/pfc-channel.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <unordered_map>

namespace ns3
{

namespace
{

/// Most links a path may have before GetPath gives up (a routing loop).
constexpr uint32_t MAX_PATH_LINKS = 64;

/// \return the time \p bytes take at \p rate
Time
Tx(uint64_t bytes, DataRate rate)
{
    return BytesTxTime(bytes, rate);
}

} // namespace

FlowWorkloadRunner::FlowWorkloadRunner(Ptr<FabricTopologyHelper> topo, Ptr<FlowSource> source)
    : m_topo(topo),
      m_source(source)
{
    FABRIC_INPUT_ERROR_IF(!topo, "FlowWorkloadRunner: null topology");
    FABRIC_INPUT_ERROR_IF(!source, "FlowWorkloadRunner: null flow source");
}

FlowWorkloadRunner::~FlowWorkloadRunner() = default;

void
FlowWorkloadRunner::SetRecordCallback(RecordCallback cb)
{
    m_recordCb = cb;
}

void
FlowWorkloadRunner::SetFinishedCallback(Callback<void> cb)
{
    m_finishedCb = cb;
}

void
FlowWorkloadRunner::SetArrivalsEndCallback(Callback<void> cb)
{
    m_arrivalsEndCb = cb;
}

void
FlowWorkloadRunner::SetEndDelay(Time delay, Callback<void> lastFinished)
{
    FABRIC_INPUT_ERROR_IF(delay.IsStrictlyNegative(),
                          "FlowWorkloadRunner: end delay " << delay.As(Time::NS)
                                                           << " is invalid; need >= 0");
    FABRIC_INPUT_ERROR_IF(m_started, "FlowWorkloadRunner::SetEndDelay after Start()");
    m_endDelay = delay;
    m_lastFinishedCb = lastFinished;
}

void
FlowWorkloadRunner::MaybeFinished()
{
    if (m_across)
    {
        if (m_exhausted && !m_hasNext && m_localStarted == m_finished)
        {
            ArriveAtEnd();
        }
        return;
    }
    if (!m_exhausted || m_hasNext || GetActive() != 0)
    {
        return;
    }
    if (!m_lastFinishedCb.IsNull())
    {
        Callback<void> cb = m_lastFinishedCb;
        m_lastFinishedCb = Callback<void>();
        cb();
    }
    if (m_end)
    {
        ArriveAtEnd(); // the finished callback runs at the release, m_endDelay from now
    }
    else if (!m_finishedCb.IsNull())
    {
        Callback<void> cb = m_finishedCb;
        m_finishedCb = Callback<void>();
        cb();
    }
}

FlowFctSummary&
FlowWorkloadRunner::GetSummary()
{
    return m_summary;
}

void
FlowWorkloadRunner::SetTransport(const std::string& transport)
{
    FABRIC_INPUT_ERROR_IF(!FabricTransportPlugin::IsRegistered(transport),
                          "FlowWorkloadRunner: transport \""
                              << transport << "\" is invalid; valid are "
                              << FabricTransportPlugin::GetNamesText());
    FABRIC_INPUT_ERROR_IF(m_started, "FlowWorkloadRunner::SetTransport after Start()");
    m_transport = transport;
}

std::string
FlowWorkloadRunner::GetTransport() const
{
    return m_transport;
}

Ptr<FabricMessageService>
FlowWorkloadRunner::GetMessageService() const
{
    return m_service;
}

void
FlowWorkloadRunner::Start()
{
    FABRIC_INPUT_ERROR_IF(m_started, "FlowWorkloadRunner::Start called twice");
    m_started = true;
    FABRIC_INPUT_ERROR_IF(m_topo->GetNRanks() == 0,
                          "FlowWorkloadRunner: the topology has no hosts");
    if (m_transport.empty())
    {
        m_transport = m_topo->GetTransports()[0]->GetName(); // the topology's first
    }
    m_plugin = m_topo->GetTransport(m_transport);
    FabricMessageServiceSetup setup;
    for (uint32_t r = 0; r < m_topo->GetNRanks(); ++r)
    {
        setup.nodes.push_back(m_topo->GetRank(r));
    }
    setup.ports = MakeCallback(&FabricTopologyHelper::GetConnectionPorts, m_topo);
    setup.unloadedRtt = MakeCallback(&FlowWorkloadRunner::GetUnloadedRtt, this);
    m_service = m_plugin->CreateMessageService(setup);
    m_ccName = m_service->GetCongestionControlName();
    m_across = FabricMpi::GetSize() > 1;
    if (m_across)
    {
        const std::string limit = m_service->GetProcessLimit();
        FABRIC_INPUT_ERROR_IF(!limit.empty(),
                              "FlowWorkloadRunner: transport "
                                  << m_transport << " cannot run a flow workload across "
                                  << FabricMpi::GetSize() << " MPI processes: " << limit
                                  << "; run it in one process");
        const Time lookahead = m_topo->GetPartition().GetLookahead();
        FABRIC_INPUT_ERROR_IF(m_endDelay.IsStrictlyPositive() && m_endDelay < lookahead,
                              "FlowWorkloadRunner: end delay "
                                  << m_endDelay.As(Time::NS) << " across " << FabricMpi::GetSize()
                                  << " MPI processes is below the lookahead between them ("
                                  << lookahead.As(Time::NS) << "); give at least that");
        m_end = CreateObject<FabricBarrier>();
        m_end->SetAttribute("Latency",
                            TimeValue(m_endDelay.IsStrictlyPositive() ? m_endDelay : lookahead));
        m_end->SetProcesses(m_topo->GetObject<FabricNoteChannel>(),
                            FabricMpi::GetSize(),
                            FabricMpi::GetSystemId());
    }
    else if (m_endDelay.IsStrictlyPositive())
    {
        // One process: the same barrier, so that the finished callback takes the place it
        // takes across processes among simultaneous events.
        m_end = CreateObject<FabricBarrier>();
        m_end->SetAttribute("Latency", TimeValue(m_endDelay));
        m_end->SetProcesses(nullptr, 1, 0);
    }
    if (m_stopped)
    {
        MaybeFinished(); // stopped before it started: no flow
        return;
    }
    ScheduleNext();
}

void
FlowWorkloadRunner::StopArrivals()
{
    if (m_stopped)
    {
        return;
    }
    m_stopped = true;
    if (m_started)
    {
        ArrivalsEnded();
    }
    m_exhausted = true;
    if (m_hasNext)
    {
        m_nextEvent.Cancel();
        m_hasNext = false;
    }
    if (m_started)
    {
        MaybeFinished();
    }
}

bool
FlowWorkloadRunner::IsStopped() const
{
    return m_stopped;
}

void
FlowWorkloadRunner::ScheduleNext()
{
    std::optional<FlowSpec> f = m_source->Next();
    if (!f)
    {
        ArrivalsEnded();
        MaybeFinished();
        return;
    }
    const uint32_t n = m_topo->GetNRanks();
    FABRIC_INPUT_ERROR_IF(f->src >= n || f->dst >= n,
                          "FlowWorkloadRunner: flow " << f->id << " goes from host " << f->src
                                                      << " to host " << f->dst
                                                      << "; valid hosts are 0.." << n - 1);
    FABRIC_INPUT_ERROR_IF(f->src == f->dst,
                          "FlowWorkloadRunner: flow " << f->id << " goes from host " << f->src
                                                      << " to itself; valid flows join two hosts");
    FABRIC_INPUT_ERROR_IF(f->sizeBytes == 0,
                          "FlowWorkloadRunner: flow " << f->id
                                                      << " has 0 bytes; valid sizes are >= 1");
    FABRIC_INPUT_ERROR_IF(f->sizeBytes > m_plugin->GetMaxMessageBytes(),
                          "FlowWorkloadRunner: flow "
                              << f->id << " has " << f->sizeBytes << " bytes; valid sizes over "
                              << m_plugin->GetDisplayName() << " are 1.."
                              << m_plugin->GetMaxMessageBytes() << " (one message)");
    FABRIC_INPUT_ERROR_IF(f->start < m_lastStart,
                          "FlowWorkloadRunner: flow "
                              << f->id << " starts at " << f->start.As(Time::US)
                              << ", before the flow "
                              << "read before it (" << m_lastStart.As(Time::US)
                              << "); a source must give flows in start order");
    m_lastStart = f->start;
    m_next = *f;
    m_hasNext = true;
    const Time now = Simulator::Now();
    m_nextEvent = Simulator::Schedule(m_next.start > now ? m_next.start - now : Time(0),
                                      &FlowWorkloadRunner::StartFlow,
                                      this);
}

void
FlowWorkloadRunner::ArrivalsEnded()
{
    m_exhausted = true;
    if (!m_across)
    {
        return;
    }
    m_last = Now(); // the end, if every flow finished before it
    if (!m_arrivalsEndCb.IsNull())
    {
        Callback<void> cb = m_arrivalsEndCb;
        m_arrivalsEndCb = Callback<void>();
        cb();
    }
}

void
FlowWorkloadRunner::StartFlow()
{
    NS_ASSERT(m_hasNext);
    m_hasNext = false;
    Active a;
    a.spec = m_next;
    a.index = m_startedFlows;
    ++m_startedFlows;
    if (m_across)
    {
        // Every process runs every start (the source's events are the sequential run's); the
        // source host's process posts the flow.
        if (!FabricMpi::IsLocal(m_topo->GetRank(a.spec.src)))
        {
            ScheduleNext();
            return;
        }
        a.start = Now();
        ++m_localStarted;
    }
    const FlowPath path = GetPath(a.spec.src, a.spec.dst);
    a.ideal = IdealFct(path, a.spec.src, a.spec.dst, a.spec.sizeBytes);
    a.pathRtt = UnloadedRtt(path, a.spec.src, a.spec.dst);
    uint32_t slot;
    if (m_freeSlots.empty())
    {
        slot = static_cast<uint32_t>(m_active.size());
        m_active.push_back(a);
    }
    else
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
        m_active[slot] = a;
    }
    if (!m_across)
    {
        m_maxActive = std::max(m_maxActive, GetActive()); // across processes: Gather()
    }
    m_service->Post(a.spec.src,
                    a.spec.dst,
                    a.spec.sizeBytes,
                    a.pathRtt,
                    MakeCallback(&FlowWorkloadRunner::Completed, this).Bind(slot));
    ScheduleNext();
}

void
FlowWorkloadRunner::Completed(uint32_t slot, const FabricMessageResult& result)
{
    Finish(slot, result.ok, result.postTime, result.endTime, result.retransmissions);
}

void
FlowWorkloadRunner::Finish(uint32_t slot, bool ok, Time start, Time end, uint64_t retx)
{
    const Active& a = m_active[slot];
    FlowFctRecord r;
    r.id = a.spec.id;
    r.src = a.spec.src;
    r.dst = a.spec.dst;
    r.sizeBytes = a.spec.sizeBytes;
    r.start = start;
    r.end = end;
    r.ideal = a.ideal;
    r.retransmissions = retx;
    r.ok = ok;
    r.transport = m_transport;
    r.cc = m_ccName;
    ++m_finished;
    m_failed += r.ok ? 0 : 1;
    if (m_across)
    {
        // Held for Gather(), which orders every process's flows as the sequential run does.
        Held h;
        h.record = r;
        h.index = a.index;
        h.start = a.start;
        h.end = Now();
        h.end.local = m_completions++;
        m_last = h.end;
        m_held.push_back(h);
    }
    else
    {
        m_summary.Add(r);
        if (!m_recordCb.IsNull())
        {
            m_recordCb(r);
        }
    }
    m_freeSlots.push_back(slot);
    MaybeFinished();
}

FlowWorkloadRunner::Point
FlowWorkloadRunner::Now()
{
    CausalOrderScheduler* order = CausalOrderScheduler::GetCurrent();
    NS_ABORT_MSG_IF(!order,
                    "FlowWorkloadRunner: a run across MPI processes needs the causal event "
                    "order (FabricMpi::SelectEngine, --order=causal)");
    Point p;
    p.key = order->GetRunningKey(&p.ts);
    return p;
}

bool
FlowWorkloadRunner::Before(const Point& a, const Point& b)
{
    return std::tie(a.ts, a.key.createdTs, a.key.creator, a.key.seq, a.local) <
           std::tie(b.ts, b.key.createdTs, b.key.creator, b.key.seq, b.local);
}

void
FlowWorkloadRunner::ArriveAtEnd()
{
    if (m_arrived)
    {
        return;
    }
    m_arrived = true;
    m_end->Arrive(true, MakeCallback(&FlowWorkloadRunner::Released, this));
}

void
FlowWorkloadRunner::Released(bool)
{
    if (!m_finishedCb.IsNull())
    {
        Callback<void> cb = m_finishedCb;
        m_finishedCb = Callback<void>();
        cb();
    }
}

std::string
FlowWorkloadRunner::HeldText() const
{
    std::ostringstream os;
    for (const Held& h : m_held)
    {
        const FlowFctRecord& r = h.record;
        os << h.index << ' ' << h.start.ts << ' ' << h.start.key.createdTs << ' ' << h.end.ts << ' '
           << h.end.key.createdTs << ' ' << h.end.key.creator << ' ' << h.end.key.seq << ' '
           << h.end.local << ' ' << r.id << ' ' << r.src << ' ' << r.dst << ' ' << r.sizeBytes
           << ' ' << r.start.GetTimeStep() << ' ' << r.end.GetTimeStep() << ' '
           << r.ideal.GetTimeStep() << ' ' << r.retransmissions << ' ' << r.ok << '\n';
    }
    return os.str();
}

std::vector<FlowWorkloadRunner::Held>
FlowWorkloadRunner::ParseHeld(const std::string& text)
{
    std::vector<Held> held;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
    {
        std::istringstream f(line);
        Held h;
        FlowFctRecord& r = h.record;
        int64_t start = 0;
        int64_t end = 0;
        int64_t ideal = 0;
        f >> h.index >> h.start.ts >> h.start.key.createdTs >> h.end.ts >> h.end.key.createdTs >>
            h.end.key.creator >> h.end.key.seq >> h.end.local >> r.id >> r.src >> r.dst >>
            r.sizeBytes >> start >> end >> ideal >> r.retransmissions >> r.ok;
        NS_ABORT_MSG_IF(!f, "FlowWorkloadRunner::Gather: a malformed record '" << line << "'");
        r.start = TimeStep(start);
        r.end = TimeStep(end);
        r.ideal = TimeStep(ideal);
        held.push_back(h);
    }
    std::sort(held.begin(), held.end(), [](const Held& a, const Held& b) {
        return Before(a.end, b.end);
    });
    return held;
}

void
FlowWorkloadRunner::Gather()
{
    if (!m_across)
    {
        return;
    }
    // Where the run ended: the latest of every process's last completion (or the arrivals'
    // end), field by field. Keys of two creators never need their seq.
    const uint64_t ts = FabricMpi::MaxEach({m_last.ts})[0];
    const bool atTs = m_last.ts == ts;
    const uint64_t created = FabricMpi::MaxEach({atTs ? m_last.key.createdTs : 0})[0];
    const bool atCreated = atTs && m_last.key.createdTs == created;
    const uint64_t creator = FabricMpi::MaxEach({atCreated ? m_last.key.creator : 0})[0];
    m_last = Point();
    m_last.ts = ts;
    m_last.key.createdTs = created;
    m_last.key.creator = static_cast<uint32_t>(creator);

    m_connections = FabricMpi::Sum(m_service->GetConnections());
    const std::string all = FabricMpi::Gather(HeldText());
    m_held.clear();
    m_held.shrink_to_fit();
    if (FabricMpi::GetSystemId() != 0)
    {
        return;
    }
    std::vector<Held> flows = ParseHeld(all);
    // The most flows in flight: at each start (in start order), the flows started so far less
    // those whose completion ran before it (a node's event at the start's time and creation
    // time runs first: starts run outside any node).
    std::vector<const Held*> byStart;
    for (const Held& h : flows)
    {
        byStart.push_back(&h);
    }
    std::sort(byStart.begin(), byStart.end(), [](const Held* a, const Held* b) {
        return a->index < b->index;
    });
    std::size_t ended = 0;
    m_maxActive = 0;
    for (const Held* s : byStart)
    {
        while (ended < flows.size() &&
               std::tie(flows[ended].end.ts, flows[ended].end.key.createdTs) <=
                   std::tie(s->start.ts, s->start.key.createdTs))
        {
            ++ended;
        }
        m_maxActive = std::max<uint64_t>(m_maxActive, s->index + 1 - ended);
    }
    m_finished = 0;
    m_failed = 0;
    for (Held& h : flows)
    {
        h.record.transport = m_transport;
        h.record.cc = m_ccName;
        ++m_finished;
        m_failed += h.record.ok ? 0 : 1;
        m_summary.Add(h.record);
        if (!m_recordCb.IsNull())
        {
            m_recordCb(h.record);
        }
    }
}

CausalKey
FlowWorkloadRunner::GetEnd(uint64_t* ts) const
{
    *ts = m_last.ts;
    return m_last.key;
}

uint64_t
FlowWorkloadRunner::GetStarted() const
{
    return m_startedFlows;
}

uint64_t
FlowWorkloadRunner::GetFinished() const
{
    return m_finished;
}

uint64_t
FlowWorkloadRunner::GetActive() const
{
    return m_startedFlows - m_finished;
}

uint64_t
FlowWorkloadRunner::GetMaxActive() const
{
    return m_maxActive;
}

uint64_t
FlowWorkloadRunner::GetQpPairs() const
{
    if (m_across)
    {
        return m_connections; // Gather()'s sum over the processes
    }
    return m_service ? m_service->GetConnections() : 0;
}

bool
FlowWorkloadRunner::AllCompleted() const
{
    if (m_across)
    {
        return m_started && m_exhausted && !m_hasNext && m_finished == m_startedFlows &&
               m_failed == 0; // after Gather(), at process 0
    }
    return m_started && m_exhausted && !m_hasNext && GetActive() == 0 && m_failed == 0;
}

FlowPath
FlowWorkloadRunner::GetPath(uint32_t src, uint32_t dst) const
{
    // The transport's ports (UET endpoints sit on port 0); before Start() the topology's.
    const auto ports =
        m_service ? m_service->GetPorts(src, dst) : m_topo->GetConnectionPorts(src, dst, 0);
    Ptr<FabricNic> srcNic = m_topo->GetRank(src)->GetObject<FabricNic>();
    Ptr<FabricNic> dstNic = m_topo->GetRank(dst)->GetObject<FabricNic>();
    FABRIC_INPUT_ERROR_IF(!srcNic || !dstNic,
                          "FlowWorkloadRunner::GetPath: rank " << (srcNic ? dst : src)
                                                               << " has no NIC");
    const uint32_t dstIp = dstNic->GetAddress(ports.second).Get();
    Ptr<Node> dstNode = m_topo->GetRank(dst);
    FlowPath path;
    Ptr<PfcNetDevice> dev = srcNic->GetPort(ports.first);
    for (uint32_t hop = 0; hop < MAX_PATH_LINKS; ++hop)
    {
        Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(dev->GetChannel());
        FABRIC_INPUT_ERROR_IF(!ch,
                              "FlowWorkloadRunner::GetPath: a device of node "
                                  << dev->GetNode()->GetId() << " on the path from rank " << src
                                  << " to rank " << dst << " is not cabled");
        path.rates.push_back(dev->GetDataRate());
        path.delays.push_back(ch->GetDelay());
        Ptr<NetDevice> peer = ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
        Ptr<Node> node = peer->GetNode();
        if (node == dstNode)
        {
            return path;
        }
        Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
        FABRIC_INPUT_ERROR_IF(!sw,
                              "FlowWorkloadRunner::GetPath: the path from rank "
                                  << src << " to rank " << dst << " reaches node " << node->GetId()
                                  << ", neither a switch nor the destination");
        const uint32_t* out = nullptr;
        uint32_t n = 0;
        FABRIC_INPUT_ERROR_IF(!sw->GetForwardingTable()->Lookup(dstIp, out, n) || n == 0,
                              "FlowWorkloadRunner::GetPath: switch node "
                                  << node->GetId() << " has no route to rank " << dst);
        TimeValue delay;
        sw->GetAttribute("ProcessingDelay", delay);
        path.switching += delay.Get();
        dev = sw->GetPort(out[0]);
    }
    FABRIC_INPUT_ERROR("FlowWorkloadRunner::GetPath: the path from rank "
                       << src << " to rank " << dst << " does not end within " << MAX_PATH_LINKS
                       << " links (a routing loop?)");
}

Time
FlowWorkloadRunner::GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    return IdealFct(GetPath(src, dst), src, dst, bytes);
}

Time
FlowWorkloadRunner::GetUnloadedRtt(uint32_t src, uint32_t dst) const
{
    return UnloadedRtt(GetPath(src, dst), src, dst);
}

Time
FlowWorkloadRunner::UnloadedRtt(const FlowPath& path, uint32_t src, uint32_t dst) const
{
    return IdealFct(path, src, dst, Format(src, dst).mtu);
}

FabricPacketFormat
FlowWorkloadRunner::Format(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_IF(!m_service, "FlowWorkloadRunner: the ideal FCT needs Start() first");
    return m_service->GetPacketFormat(src, dst);
}

Time
FlowWorkloadRunner::IdealFct(const FlowPath& path, uint32_t src, uint32_t dst, uint64_t bytes) const
{
    // Store-and-forward of n packets over links 1..L: the last bit of the last packet arrives
    // after the heaviest monotone path through the (packet, link) grid, each cell weighing
    // that packet's serialization on that link (a packet leaves a link when its last bit
    // arrives and the link has sent the packet before it). Middle packets are all alike, so
    // the heaviest path takes the first packet down to a link lo, the middle ones across
    // links lo..hi (all but one of them on the slowest of those links), and the last packet
    // from hi down to L. Each link's share is summed in bytes and timed once (exact to the
    // picosecond's rounding of that one division), less the inter-frame gap the last bit
    // does not wait for.
    const FabricPacketFormat f = Format(src, dst);
    const uint64_t mtu = f.mtu;
    const uint64_t n = (bytes + mtu - 1) / mtu;
    const uint64_t first = std::min(bytes, mtu) + f.perPacket + f.firstExtra;
    const uint64_t middle = mtu + f.perPacket;
    const uint64_t last = (bytes - (n - 1) * mtu) + f.perPacket;
    const std::size_t links = path.rates.size();
    const uint64_t gap = PfcNetDevice::IFG_BYTES;
    std::vector<uint64_t> share(links);
    auto timeOf = [&]() {
        Time t;
        for (std::size_t l = 0; l < links; ++l)
        {
            t += Tx(share[l] - gap, path.rates[l]);
        }
        return t;
    };
    Time data;
    if (n == 1)
    {
        std::fill(share.begin(), share.end(), first);
        data = timeOf();
    }
    for (std::size_t lo = 0; n >= 2 && lo < links; ++lo)
    {
        // Two packets: the first down to lo, the last from lo on (no middle: hi = lo).
        const std::size_t hiEnd = n == 2 ? lo + 1 : links;
        for (std::size_t hi = lo; hi < hiEnd; ++hi)
        {
            std::size_t slow = lo;
            for (std::size_t l = lo + 1; l <= hi; ++l)
            {
                slow = path.rates[l] < path.rates[slow] ? l : slow;
            }
            for (std::size_t l = 0; l < links; ++l)
            {
                share[l] = (l <= lo ? first : 0) + (l >= hi ? last : 0);
                if (n >= 3)
                {
                    share[l] +=
                        (l >= lo && l <= hi ? middle : 0) + (l == slow ? (n - 3) * middle : 0);
                }
            }
            data = std::max(data, timeOf());
        }
    }
    Time t = data + 2 * path.switching;
    for (std::size_t l = 0; l < links; ++l)
    {
        t += Tx(f.ack - gap, path.rates[l]) + 2 * path.delays[l];
    }
    return t;
}

} // namespace ns3
