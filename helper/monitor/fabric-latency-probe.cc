/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-latency-probe.h"

#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-health-monitor.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-nic.h"
#include "ns3/flow-source.h"
#include "ns3/flow-workload-runner.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricLatencyProbe);

namespace
{

/// A flow source without flows: the probe's runner only gives the service and ideal FCTs.
class NoFlows : public FlowSource
{
  public:
    std::optional<FlowSpec> Next() override
    {
        return std::nullopt;
    }

    int64_t AssignStreams(int64_t) override
    {
        return 0;
    }
};

/// Largest probe message, bytes.
constexpr uint64_t MAX_PROBE_BYTES = 1 << 20;

} // namespace

TypeId
FabricLatencyProbe::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricLatencyProbe")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricLatencyProbe>()
            .AddAttribute("Size",
                          "Bytes of one probe message, 1..1048576 (Pingmesh: small, e.g. 64).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&FabricLatencyProbe::m_size),
                          MakeFabricUintegerChecker<uint64_t>("ns3::FabricLatencyProbe::Size",
                                                              1,
                                                              MAX_PROBE_BYTES))
            .AddAttribute("Period",
                          "Time between two probes of a pair, >= 1 ns.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&FabricLatencyProbe::m_period),
                          MakeFabricTimeChecker("ns3::FabricLatencyProbe::Period", NanoSeconds(1)))
            .AddAttribute(
                "Pairs",
                "Rank pairs to probe, \"src-dst\" joined by ',' or ';' (e.g. \"0-5,3-7\"); "
                "empty: none.",
                StringValue(""),
                MakeStringAccessor(&FabricLatencyProbe::m_pairs),
                MakeFabricChecker<StringValue>(
                    MakeStringChecker(),
                    "ns3::FabricLatencyProbe::Pairs",
                    [](const std::string& v) {
                        std::vector<std::pair<uint32_t, uint32_t>> p;
                        return FabricLatencyProbe::ParsePairs(v, p);
                    },
                    "rank pairs \"src-dst\" joined by ',' or ';', e.g. \"0-5,3-7\"",
                    [](const std::string& v) { return "'" + v + "'"; }))
            .AddAttribute("Transport",
                          "The transport plug-in the probes use (\"roce\", \"uet\", ...); "
                          "empty: the topology's first.",
                          StringValue(""),
                          MakeStringAccessor(&FabricLatencyProbe::m_transport),
                          MakeStringChecker())
            .AddTraceSource("Probe",
                            "The outcome of every probe.",
                            MakeTraceSourceAccessor(&FabricLatencyProbe::m_probeTrace),
                            "ns3::FabricLatencyProbe::ProbeTracedCallback");
    return tid;
}

FabricLatencyProbe::FabricLatencyProbe()
    : m_size(64),
      m_period(MicroSeconds(100))
{
}

FabricLatencyProbe::~FabricLatencyProbe() = default;

void
FabricLatencyProbe::ReleaseRunner()
{
    m_service = nullptr;
    m_runner.reset();
}

void
FabricLatencyProbe::DoDispose()
{
    if (compat::IsPending(m_event))
    {
        Simulator::Remove(m_event);
    }
    m_ticking = false;
    m_service = nullptr;
    m_runner.reset();
    m_topo = nullptr;
    m_writer = nullptr;
    Object::DoDispose();
}

bool
FabricLatencyProbe::ParsePairs(const std::string& text,
                               std::vector<std::pair<uint32_t, uint32_t>>& pairs)
{
    pairs.clear();
    std::string norm = text;
    for (char& c : norm)
    {
        c = c == ';' ? ',' : c;
    }
    if (norm.empty())
    {
        return true;
    }
    std::stringstream ss(norm);
    std::string part;
    while (std::getline(ss, part, ','))
    {
        const size_t dash = part.find('-');
        if (dash == std::string::npos || dash == 0 || dash + 1 == part.size())
        {
            return false;
        }
        const std::string a = part.substr(0, dash);
        const std::string b = part.substr(dash + 1);
        for (const std::string& n : {a, b})
        {
            if (n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos)
            {
                return false;
            }
        }
        pairs.emplace_back(uint32_t(std::stoul(a)), uint32_t(std::stoul(b)));
    }
    return norm.back() != ',';
}

void
FabricLatencyProbe::AddPair(uint32_t src, uint32_t dst)
{
    FABRIC_INPUT_ERROR_IF(m_topo, "FabricLatencyProbe::AddPair: call it before Install()");
    m_added.emplace_back(src, dst);
}

std::vector<std::pair<uint32_t, uint32_t>>
FabricLatencyProbe::GetPairs() const
{
    std::vector<std::pair<uint32_t, uint32_t>> all = m_added;
    std::vector<std::pair<uint32_t, uint32_t>> more;
    ParsePairs(m_pairs, more); // the checker refused invalid values
    all.insert(all.end(), more.begin(), more.end());
    return all;
}

void
FabricLatencyProbe::Install(Ptr<FabricTopologyHelper> topo, FabricMonitorWriter* writer)
{
    FABRIC_INPUT_ERROR_IF(!topo || !topo->IsInstalled(),
                          "FabricLatencyProbe::Install: the topology is not installed");
    FABRIC_INPUT_ERROR_IF(m_topo, "FabricLatencyProbe::Install: installed already");
    FABRIC_INPUT_ERROR_IF(topo->GetObject<FabricLatencyProbe>(),
                          "FabricLatencyProbe::Install: this topology has a probe already");
    const uint32_t ranks = topo->GetNRanks();
    for (const auto& [src, dst] : GetPairs())
    {
        FABRIC_INPUT_ERROR_IF(src >= ranks || dst >= ranks,
                              "FabricLatencyProbe: pair " << src << "-" << dst << " names rank "
                                                          << (src >= ranks ? src : dst)
                                                          << "; the fabric has ranks 0.."
                                                          << ranks - 1);
        FABRIC_INPUT_ERROR_IF(src == dst,
                              "FabricLatencyProbe: pair " << src << "-" << dst
                                                          << " probes a rank from itself");
    }
    m_topo = PeekPointer(topo);
    m_writer = writer;
    m_runner = std::make_unique<FlowWorkloadRunner>(topo, CreateObject<NoFlows>());
    if (!m_transport.empty())
    {
        m_runner->SetTransport(m_transport);
    }
    m_runner->Start(); // creates the message service; no flow
    m_service = m_runner->GetMessageService();
    Simulator::ScheduleDestroy(&FabricLatencyProbe::ReleaseRunner, this);
    for (const auto& [src, dst] : GetPairs())
    {
        Pair p;
        p.src = src;
        p.dst = dst;
        p.baseline = m_runner->GetIdealFct(src, dst, m_size);
        Ptr<Node> node = topo->GetRank(src);
        p.entity.node = node->GetId();
        p.entity.name = topo->GetNodeName(p.entity.node);
        p.entity.port = static_cast<int32_t>(m_service->GetPorts(src, dst).first);
        p.entity.peer = topo->GetNodeName(topo->GetRank(dst)->GetId());
        m_probes.push_back(p);
    }
    if (m_probes.empty())
    {
        return;
    }
    // The topology keeps the probe alive (its health monitor calls it back).
    topo->AggregateObject(this);
    topo->GetHealthMonitor()->AddBusyCallback(MakeCallback(&FabricLatencyProbe::OnBusy, this));
    if (OtherWorkPending())
    {
        Arm();
    }
}

Time
FabricLatencyProbe::GetBaseline(uint32_t src, uint32_t dst) const
{
    FABRIC_INPUT_ERROR_IF(!m_runner, "FabricLatencyProbe::GetBaseline: call Install() first");
    return m_runner->GetIdealFct(src, dst, m_size);
}

bool
FabricLatencyProbe::OtherWorkPending() const
{
    return m_topo->GetHealthMonitor()->GetPendingOperations() > m_inFlight;
}

void
FabricLatencyProbe::OnBusy(bool busy)
{
    if (busy)
    {
        Arm();
    }
}

void
FabricLatencyProbe::Arm()
{
    if (m_ticking)
    {
        return;
    }
    m_ticking = true;
    // In an event of its own: the busy callback runs inside another component's post.
    m_event = Simulator::ScheduleNow(&FabricLatencyProbe::Tick, this);
}

void
FabricLatencyProbe::Tick()
{
    if (!OtherWorkPending())
    {
        m_ticking = false; // only probes (or nothing) pending: rounds resume with new work
        return;
    }
    for (uint32_t i = 0; i < m_probes.size(); ++i)
    {
        Pair& p = m_probes[i];
        if (p.inFlight)
        {
            ++m_skipped;
            continue;
        }
        p.inFlight = true;
        ++m_inFlight;
        ++m_sent;
        m_service->Post(p.src,
                        p.dst,
                        m_size,
                        m_runner->GetUnloadedRtt(p.src, p.dst),
                        MakeCallback(&FabricLatencyProbe::Done, this).Bind(i));
    }
    m_event = Simulator::Schedule(m_period, &FabricLatencyProbe::Tick, this);
}

void
FabricLatencyProbe::Done(uint32_t pair, const FabricMessageResult& r)
{
    Pair& p = m_probes[pair];
    p.inFlight = false;
    --m_inFlight;
    ++m_completed;
    FabricProbeResult res;
    res.src = p.src;
    res.dst = p.dst;
    res.sent = r.postTime;
    res.latency = r.endTime - r.postTime;
    res.baseline = p.baseline;
    res.ok = r.ok;
    m_probeTrace(res);
    if (!m_ticking && OtherWorkPending())
    {
        Arm(); // work was posted while only probes were pending: no busy change announced it
    }
    if (m_writer)
    {
        const Time now = Simulator::Now();
        constexpr auto L = FabricMonitorLevel::PROBE;
        m_writer->Row(now,
                      L,
                      p.entity,
                      -1,
                      -1,
                      "probe_latency_ns",
                      uint64_t(res.latency.GetNanoSeconds()));
        m_writer->Row(now,
                      L,
                      p.entity,
                      -1,
                      -1,
                      "probe_baseline_ns",
                      uint64_t(res.baseline.GetNanoSeconds()));
        m_writer->RowReal(now,
                          L,
                          p.entity,
                          -1,
                          -1,
                          "probe_ratio",
                          res.latency.GetSeconds() / res.baseline.GetSeconds());
        if (!res.ok)
        {
            m_writer->Row(now, L, p.entity, -1, -1, "probe_failed", 1);
        }
    }
}

uint64_t
FabricLatencyProbe::GetSent() const
{
    return m_sent;
}

uint64_t
FabricLatencyProbe::GetCompleted() const
{
    return m_completed;
}

uint64_t
FabricLatencyProbe::GetSkipped() const
{
    return m_skipped;
}

} // namespace ns3
