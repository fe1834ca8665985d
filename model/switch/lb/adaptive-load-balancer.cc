/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "adaptive-load-balancer.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdaptiveLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(AdaptiveLoadBalancer);

TypeId
AdaptiveLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdaptiveLoadBalancer")
            .SetParent<FlowletLoadBalancer>()
            .SetGroupName("AiFabric")
            .AddConstructor<AdaptiveLoadBalancer>()
            .AddAttribute(
                "Granularity",
                "What takes the least-loaded port: every packet (packet; flows "
                "reorder) or every new flowlet (flowlet; see FlowletGap).",
                EnumValue(AdaptiveLoadBalancer::FLOWLET),
                compat::MakeEnumAccessor<Granularity>(&AdaptiveLoadBalancer::m_granularity),
                MakeEnumChecker(AdaptiveLoadBalancer::PACKET,
                                "packet",
                                AdaptiveLoadBalancer::FLOWLET,
                                "flowlet"))
            .AddAttribute(
                "LoadWindow",
                "Window of a port's recent transmissions (>= 1 ns): its load counts "
                "the bytes sent in the current and the previous window.",
                TimeValue(MicroSeconds(2)),
                MakeTimeAccessor(&AdaptiveLoadBalancer::m_window),
                MakeFabricTimeChecker("ns3::AdaptiveLoadBalancer::LoadWindow", NanoSeconds(1)))
            .AddAttribute(
                "LoadWeight",
                "Weight of the recently sent bytes against the queued bytes in a "
                "port's load, 0..1000 (0: queue occupancy alone).",
                DoubleValue(1.0),
                MakeDoubleAccessor(&AdaptiveLoadBalancer::m_weight),
                MakeFabricDoubleChecker("ns3::AdaptiveLoadBalancer::LoadWeight", 0, 1000));
    return tid;
}

AdaptiveLoadBalancer::AdaptiveLoadBalancer()
    : m_granularity(FLOWLET),
      m_window(MicroSeconds(2)),
      m_weight(1.0)
{
    NS_LOG_FUNCTION(this);
}

AdaptiveLoadBalancer::~AdaptiveLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

AdaptiveLoadBalancer::PortLoad&
AdaptiveLoadBalancer::Advance(uint32_t port, int64_t now)
{
    if (port >= m_load.size())
    {
        m_load.resize(port + 1); // grows to the switch's port count, then never again
    }
    PortLoad& l = m_load[port];
    const int64_t w = m_window.GetTimeStep();
    if (now - l.windowStart >= w)
    {
        // One window later the current one becomes the previous; two or more: both are old.
        const int64_t windows = (now - l.windowStart) / w;
        l.previous = windows == 1 ? l.current : 0;
        l.current = 0;
        l.windowStart += windows * w;
    }
    return l;
}

double
AdaptiveLoadBalancer::GetLoad(uint32_t port, Time now)
{
    NS_ABORT_MSG_IF(m_egressBytes.IsNull(),
                    "AdaptiveLoadBalancer: no egress occupancy query; it chooses by queue "
                    "occupancy and runs on a FabricSwitch (which installs it: "
                    "SetEgressBytesCallback)");
    const PortLoad& l = Advance(port, now.GetTimeStep());
    return double(m_egressBytes(port)) + m_weight * double(l.current + l.previous);
}

uint32_t
AdaptiveLoadBalancer::ChoosePath(const SwitchFlowKey&,
                                 uint32_t flowHash,
                                 const uint32_t* ports,
                                 uint32_t n,
                                 uint32_t,
                                 Time now)
{
    // The least load; among equal ones the (flowHash mod ties)-th, so that ties spread flows.
    if (m_loads.size() < n)
    {
        m_loads.resize(n); // grows to the largest ECMP group, then never again
    }
    double best = m_loads[0] = GetLoad(ports[0], now);
    uint32_t ties = 1;
    for (uint32_t i = 1; i < n; ++i)
    {
        const double l = m_loads[i] = GetLoad(ports[i], now);
        if (l < best)
        {
            best = l;
            ties = 1;
        }
        else if (l == best)
        {
            ++ties;
        }
    }
    uint32_t k = flowHash % ties;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_loads[i] == best && k-- == 0)
        {
            return i;
        }
    }
    NS_ASSERT_MSG(false, "unreachable: a least-loaded port exists");
    return 0;
}

void
AdaptiveLoadBalancer::NotifySent(uint32_t port, uint32_t bytes, Time now)
{
    Advance(port, now.GetTimeStep()).current += bytes;
}

uint32_t
AdaptiveLoadBalancer::Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now)
{
    if (m_granularity == FLOWLET || n < 2)
    {
        return FlowletLoadBalancer::Select(key, ports, n, now);
    }
    ++m_counters.decisions;
    const uint32_t i = ChoosePath(key, Hash(key), ports, n, n, now);
    NotifySent(ports[i], key.totalLength, now);
    return ports[i];
}

} // namespace ns3
