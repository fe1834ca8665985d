/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flowlet-load-balancer.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowletLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(FlowletLoadBalancer);

namespace
{
/// Largest TableSize.
constexpr uint32_t MAX_TABLE = 1u << 24;
/// Port of an unused entry.
constexpr uint32_t NO_PORT = std::numeric_limits<uint32_t>::max();
} // namespace

TypeId
FlowletLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowletLoadBalancer")
            .SetParent<EntropyEcmpLoadBalancer>()
            .SetGroupName("AiFabric")
            .AddConstructor<FlowletLoadBalancer>()
            .AddAttribute(
                "FlowletGap",
                "Idle time that ends a flowlet (> 0): a flow's next packet after a "
                "longer silence may take another port. Above the paths' largest "
                "delay difference it never reorders. The default, 20 us, is the "
                "queueing delay of 1 MB at 400 Gb/s.",
                TimeValue(MicroSeconds(20)),
                MakeTimeAccessor(&FlowletLoadBalancer::SetFlowletGap,
                                 &FlowletLoadBalancer::GetFlowletGap),
                MakeFabricTimeChecker("ns3::FlowletLoadBalancer::FlowletGap", NanoSeconds(1)))
            .AddAttribute("TableSize",
                          "Flowlet table entries, 1..16777216, indexed by the flow hash "
                          "(flows hashed to one entry share it, as in hardware tables).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FlowletLoadBalancer::SetTableSize,
                                               &FlowletLoadBalancer::GetTableSize),
                          MakeFabricUintegerChecker<uint32_t>("ns3::FlowletLoadBalancer::TableSize",
                                                              1,
                                                              1u << 24))
            .AddTraceSource("NewFlowlet",
                            "A flowlet started: flow hash, the entry's previous port "
                            "(4294967295 if none), the new port.",
                            MakeTraceSourceAccessor(&FlowletLoadBalancer::m_flowletTrace),
                            "ns3::FlowletLoadBalancer::NewFlowletCallback");
    return tid;
}

FlowletLoadBalancer::FlowletLoadBalancer()
    : m_gap(MicroSeconds(20)),
      m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
    SetTableSize(4096);
}

FlowletLoadBalancer::~FlowletLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

void
FlowletLoadBalancer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rng = nullptr;
    m_table.clear();
    m_table.shrink_to_fit();
    EntropyEcmpLoadBalancer::DoDispose();
}

void
FlowletLoadBalancer::SetFlowletGap(Time gap)
{
    FABRIC_INPUT_ERROR_IF(gap <= Time(0),
                          "ns3::FlowletLoadBalancer::FlowletGap=" << gap.As(Time::US)
                                                                  << " is invalid; it must be > 0");
    m_gap = gap;
}

Time
FlowletLoadBalancer::GetFlowletGap() const
{
    return m_gap;
}

void
FlowletLoadBalancer::SetTableSize(uint32_t entries)
{
    FABRIC_INPUT_ERROR_IF(entries == 0 || entries > MAX_TABLE,
                          "ns3::FlowletLoadBalancer::TableSize=" << entries
                                                                 << " is invalid; valid range "
                                                                    "is 1..16777216");
    m_table.assign(entries, Entry{0, NO_PORT, 0});
}

uint32_t
FlowletLoadBalancer::GetTableSize() const
{
    return static_cast<uint32_t>(m_table.size());
}

const FlowletCounters&
FlowletLoadBalancer::GetCounters() const
{
    return m_counters;
}

uint32_t
FlowletLoadBalancer::Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now)
{
    NS_ABORT_MSG_IF(n == 0,
                    GetInstanceTypeId().GetName()
                        << "::Select: number of candidate ports 0 is invalid; it must be >= 1");
    if (n == 1)
    {
        NotifySent(ports[0], key.totalLength, now);
        return ports[0];
    }
    ++m_counters.decisions;
    const uint32_t h = Hash(key);
    Entry& e = m_table[h % m_table.size()];
    const int64_t t = now.GetTimeStep();
    const bool same = e.port != NO_PORT && e.position < n && ports[e.position] == e.port &&
                      t - e.lastSeen <= m_gap.GetTimeStep();
    if (!same)
    {
        const bool wasCandidate =
            e.port != NO_PORT && e.position < n && ports[e.position] == e.port;
        const uint32_t i = ChoosePath(key, h, ports, n, wasCandidate ? e.position : n, now);
        NS_ASSERT(i < n);
        ++m_counters.flowlets;
        if (e.port != NO_PORT && e.port != ports[i])
        {
            ++m_counters.pathChanges;
        }
        m_flowletTrace(h, e.port, ports[i]);
        e.port = ports[i];
        e.position = i;
    }
    e.lastSeen = t;
    NotifySent(e.port, key.totalLength, now);
    return e.port;
}

uint32_t
FlowletLoadBalancer::ChoosePath(const SwitchFlowKey&,
                                uint32_t,
                                const uint32_t*,
                                uint32_t n,
                                uint32_t,
                                Time)
{
    return DrawIndex(n);
}

uint32_t
FlowletLoadBalancer::DrawIndex(uint32_t n)
{
    return m_rng->GetInteger(0, n - 1);
}

void
FlowletLoadBalancer::NotifySent(uint32_t, uint32_t, Time)
{
}

int64_t
FlowletLoadBalancer::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
