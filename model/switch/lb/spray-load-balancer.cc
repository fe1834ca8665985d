/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "spray-load-balancer.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SprayLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(SprayLoadBalancer);

TypeId
SprayLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SprayLoadBalancer")
                            .SetParent<SwitchLoadBalancer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<SprayLoadBalancer>();
    return tid;
}

SprayLoadBalancer::SprayLoadBalancer()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

SprayLoadBalancer::~SprayLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

void
SprayLoadBalancer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rng = nullptr;
    SwitchLoadBalancer::DoDispose();
}

uint32_t
SprayLoadBalancer::Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now)
{
    NS_ABORT_MSG_IF(n == 0,
                    "SprayLoadBalancer::Select: number of candidate ports 0 is invalid; it must "
                    "be >= 1");
    if (n == 1)
    {
        return ports[0];
    }
    return ports[m_rng->GetInteger(0, n - 1)];
}

int64_t
SprayLoadBalancer::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
