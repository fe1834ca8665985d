/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "te-load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TeLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(TeLoadBalancer);

TypeId
TeLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TeLoadBalancer")
                            .SetParent<EntropyEcmpLoadBalancer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<TeLoadBalancer>();
    return tid;
}

TeLoadBalancer::TeLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

TeLoadBalancer::~TeLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

void
TeLoadBalancer::DoDispose()
{
    ClearPins();
    EntropyEcmpLoadBalancer::DoDispose();
}

uint64_t
TeLoadBalancer::PairKey(uint32_t srcIp, uint32_t dstIp)
{
    return uint64_t(srcIp) << 32 | dstIp;
}

uint64_t
TeLoadBalancer::PortsKey(const SwitchFlowKey& key)
{
    return uint64_t(key.protocol) << 32 | uint64_t(key.srcPort) << 16 | key.dstPort;
}

uint32_t
TeLoadBalancer::Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now)
{
    if (n > 1 && !(m_flowPins.empty() && m_pairPins.empty()))
    {
        const uint64_t pair = PairKey(key.srcIp, key.dstIp);
        uint32_t pin = UINT32_MAX;
        if (!m_flowPins.empty())
        {
            auto it = m_flowPins.find({pair, PortsKey(key)});
            pin = it == m_flowPins.end() ? UINT32_MAX : it->second;
        }
        if (pin == UINT32_MAX)
        {
            auto it = m_pairPins.find(pair);
            pin = it == m_pairPins.end() ? UINT32_MAX : it->second;
        }
        if (pin != UINT32_MAX)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                if (ports[i] == pin)
                {
                    ++m_te.pinned;
                    return pin;
                }
            }
            ++m_te.stale;
            return EntropyEcmpLoadBalancer::Select(key, ports, n, now);
        }
    }
    m_te.unpinned += n > 1;
    return EntropyEcmpLoadBalancer::Select(key, ports, n, now);
}

void
TeLoadBalancer::PinPair(uint32_t srcIp, uint32_t dstIp, uint32_t port)
{
    m_pairPins[PairKey(srcIp, dstIp)] = port;
}

void
TeLoadBalancer::PinFlow(const SwitchFlowKey& key, uint32_t port)
{
    m_flowPins[{PairKey(key.srcIp, key.dstIp), PortsKey(key)}] = port;
}

void
TeLoadBalancer::ClearPins()
{
    m_pairPins.clear();
    m_flowPins.clear();
}

uint32_t
TeLoadBalancer::GetNPins() const
{
    return static_cast<uint32_t>(m_pairPins.size() + m_flowPins.size());
}

const TeCounters&
TeLoadBalancer::GetTeCounters() const
{
    return m_te;
}

} // namespace ns3
