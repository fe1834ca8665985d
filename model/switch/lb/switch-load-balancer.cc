/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-load-balancer.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(SwitchLoadBalancer);

TypeId
SwitchLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchLoadBalancer")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddAttribute(
                "Seed",
                "Per-switch hash seed (any 32-bit value); give switches of different "
                "tiers different seeds to avoid hash polarization.",
                UintegerValue(0),
                MakeUintegerAccessor(&SwitchLoadBalancer::SetSeed, &SwitchLoadBalancer::GetSeed),
                MakeUintegerChecker<uint32_t>());
    return tid;
}

SwitchLoadBalancer::SwitchLoadBalancer()
    : m_seed(0)
{
    NS_LOG_FUNCTION(this);
}

SwitchLoadBalancer::~SwitchLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

void
SwitchLoadBalancer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_egressBytes.Nullify();
    Object::DoDispose();
}

void
SwitchLoadBalancer::SetSeed(uint32_t seed)
{
    m_seed = seed;
}

uint32_t
SwitchLoadBalancer::GetSeed() const
{
    return m_seed;
}

void
SwitchLoadBalancer::SetEgressBytesCallback(EgressBytesCallback cb)
{
    m_egressBytes = cb;
}

int64_t
SwitchLoadBalancer::AssignStreams(int64_t stream)
{
    return 0;
}

void
SwitchLoadBalancer::SetFabricInfo(const SwitchFabricInfo&)
{
}

bool
SwitchLoadBalancer::WantsEgressHook() const
{
    return false;
}

void
SwitchLoadBalancer::OnEgress(uint8_t*, const SwitchFlowKey&, uint32_t, uint32_t, Time)
{
}

} // namespace ns3
