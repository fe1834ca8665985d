/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nvls-engine.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NvlsEngine");
NS_OBJECT_ENSURE_REGISTERED(NvlsEngine);

TypeId
NvlsEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NvlsEngine")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<NvlsEngine>()
            .AddAttribute("PortDataRate",
                          "NVLink data rate of one GPU port per direction (the topologies set "
                          "their NvLinkDataRate; default 370.8 GB/s, NCCL's sm90 model of an "
                          "H100's 18 NVLinks).",
                          DataRateValue(DataRate("2966.4Gbps")),
                          MakeDataRateAccessor(&NvlsEngine::m_portRate),
                          MakeFabricDataRateChecker("ns3::NvlsEngine::PortDataRate"))
            .AddAttribute("Efficiency",
                          "Fraction of PortDataRate multimem traffic sustains, (0, 1] (NCCL "
                          "tuning.cc nvlsEfficiency: Hopper 0.85, Blackwell 0.74).",
                          DoubleValue(0.85),
                          MakeDoubleAccessor(&NvlsEngine::m_efficiency),
                          MakeFabricPositiveDoubleChecker("ns3::NvlsEngine::Efficiency", 1.0))
            .AddAttribute("Latency",
                          "Time from the switch to a member's memory, per operation (two NVLink "
                          "hops of the topologies' 150 ns cables).",
                          TimeValue(NanoSeconds(300)),
                          MakeTimeAccessor(&NvlsEngine::m_latency),
                          MakeFabricTimeChecker("ns3::NvlsEngine::Latency", Time(0)))
            .AddTraceSource("Operation",
                            "A reduce or multicast was booked: multicast?, issuing port, bytes, "
                            "when its data leaves the switch for the last member.",
                            MakeTraceSourceAccessor(&NvlsEngine::m_opTrace),
                            "ns3::NvlsEngine::OperationTracedCallback");
    return tid;
}

NvlsEngine::NvlsEngine()
    : m_portRate("2966.4Gbps"),
      m_efficiency(0.85),
      m_latency(NanoSeconds(300))
{
}

NvlsEngine::~NvlsEngine() = default;

Ptr<NvlsEngine>
NvlsEngine::GetOrCreate(Ptr<Node> nvswitch, uint32_t nPorts)
{
    NS_ABORT_MSG_IF(!nvswitch, "NvlsEngine::GetOrCreate: null NVSwitch node");
    Ptr<NvlsEngine> engine = nvswitch->GetObject<NvlsEngine>();
    if (!engine)
    {
        engine = CreateObject<NvlsEngine>();
        nvswitch->AggregateObject(engine);
    }
    engine->SetNPorts(nPorts);
    return engine;
}

void
NvlsEngine::SetNPorts(uint32_t nPorts)
{
    NS_ABORT_MSG_IF(nPorts == 0, "NvlsEngine: 0 GPU ports is invalid (>= 1)");
    NS_ABORT_MSG_IF(!m_upFree.empty() && m_upFree.size() != nPorts,
                    "NvlsEngine: already set up with " << m_upFree.size() << " GPU ports, not "
                                                       << nPorts);
    if (m_upFree.empty())
    {
        m_upFree.assign(nPorts, Time(0));
        m_downFree.assign(nPorts, Time(0));
        m_upBytes.assign(nPorts, 0);
        m_downBytes.assign(nPorts, 0);
    }
}

uint32_t
NvlsEngine::GetNPorts() const
{
    return static_cast<uint32_t>(m_upFree.size());
}

uint32_t
NvlsEngine::AddGroup(const std::vector<uint32_t>& ports)
{
    NS_ABORT_MSG_IF(ports.empty(), "NvlsEngine::AddGroup: a group needs at least one port");
    std::set<uint32_t> seen;
    for (uint32_t p : ports)
    {
        NS_ABORT_MSG_IF(p >= GetNPorts(),
                        "NvlsEngine::AddGroup: port " << p << " is not a GPU port (0.."
                                                      << int64_t(GetNPorts()) - 1 << ")");
        NS_ABORT_MSG_IF(!seen.insert(p).second,
                        "NvlsEngine::AddGroup: port " << p << " is listed twice");
    }
    m_groups.push_back(ports);
    return static_cast<uint32_t>(m_groups.size() - 1);
}

uint32_t
NvlsEngine::GetNGroups() const
{
    return static_cast<uint32_t>(m_groups.size());
}

uint32_t
NvlsEngine::PortOf(uint32_t group, uint32_t member) const
{
    NS_ABORT_MSG_IF(group >= m_groups.size(),
                    "NvlsEngine: group " << group << " does not exist (" << m_groups.size()
                                         << " groups)");
    NS_ABORT_MSG_IF(member >= m_groups[group].size(),
                    "NvlsEngine: member " << member << " is not in group " << group << " of "
                                          << m_groups[group].size() << " members");
    return m_groups[group][member];
}

Time
NvlsEngine::Duration(uint64_t bytes) const
{
    return Seconds(double(bytes) * 8.0 / (double(m_portRate.GetBitRate()) * m_efficiency));
}

Time
NvlsEngine::Book(Time& free, Time d, Time notBefore)
{
    Time start = std::max(Simulator::Now(), free);
    free = std::max(start + d, notBefore);
    return free;
}

void
NvlsEngine::Reduce(uint32_t group,
                   uint32_t member,
                   uint64_t bytes,
                   NvlsListener* listener,
                   uint64_t cookie)
{
    Operate(group, member, bytes, true, false, listener, cookie);
}

void
NvlsEngine::Multicast(uint32_t group,
                      uint32_t member,
                      uint64_t bytes,
                      NvlsListener* listener,
                      uint64_t cookie)
{
    Operate(group, member, bytes, false, true, listener, cookie);
}

void
NvlsEngine::ReduceMulticast(uint32_t group,
                            uint32_t member,
                            uint64_t bytes,
                            NvlsListener* listener,
                            uint64_t cookie)
{
    Operate(group, member, bytes, true, true, listener, cookie);
}

void
NvlsEngine::Operate(uint32_t group,
                    uint32_t member,
                    uint64_t bytes,
                    bool reduce,
                    bool multicast,
                    NvlsListener* listener,
                    uint64_t cookie)
{
    const uint32_t port = PortOf(group, member);
    NS_ABORT_MSG_IF(bytes == 0, "NvlsEngine: an operation of 0 bytes is invalid (>= 1)");
    const auto& ports = m_groups[group];
    // Up: a reduce reads the bytes from every member, a multicast stores them from the issuer;
    // both stream together, in parallel over the members.
    Time ready = Simulator::Now();
    for (uint32_t p : ports)
    {
        const uint64_t up = (reduce ? bytes : 0) + (multicast && p == port ? bytes : 0);
        if (up > 0)
        {
            ready = std::max(ready, Book(m_upFree[p], Duration(up), Time(0)));
            m_upBytes[p] += up;
        }
    }
    // Down, cut-through (never before the last up byte): the sum to the issuer, the stored
    // bytes to every member. Deliveries in arrival order (ties in member order).
    auto& arrivals = m_arrivals; // reused: no allocation per operation
    arrivals.clear();
    for (uint32_t m = 0; m < ports.size(); ++m)
    {
        const uint64_t down = (reduce && m == member ? bytes : 0) + (multicast ? bytes : 0);
        if (down > 0)
        {
            arrivals.emplace_back(Book(m_downFree[ports[m]], Duration(down), ready), m);
            m_downBytes[ports[m]] += down;
        }
    }
    std::stable_sort(arrivals.begin(), arrivals.end());
    m_nReduces += reduce ? 1 : 0;
    m_nMulticasts += multicast ? 1 : 0;
    m_opTrace(multicast, port, bytes, arrivals.back().first);
    for (const auto& [t, m] : arrivals)
    {
        Simulator::Schedule(t + m_latency - Simulator::Now(),
                            &NvlsListener::NvlsDelivered,
                            listener,
                            cookie,
                            m,
                            bytes);
    }
    Simulator::Schedule(arrivals.back().first + m_latency - Simulator::Now(),
                        &NvlsListener::NvlsCompleted,
                        listener,
                        cookie);
}

uint64_t
NvlsEngine::GetUpBytes(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= GetNPorts(), "NvlsEngine: port " << port << " does not exist");
    return m_upBytes[port];
}

uint64_t
NvlsEngine::GetDownBytes(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= GetNPorts(), "NvlsEngine: port " << port << " does not exist");
    return m_downBytes[port];
}

uint64_t
NvlsEngine::GetNReduces() const
{
    return m_nReduces;
}

uint64_t
NvlsEngine::GetNMulticasts() const
{
    return m_nMulticasts;
}

} // namespace ns3
