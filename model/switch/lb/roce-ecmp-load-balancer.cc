/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-ecmp-load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceEcmpLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(RoceEcmpLoadBalancer);

TypeId
RoceEcmpLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceEcmpLoadBalancer")
                            .SetParent<EcmpLoadBalancer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceEcmpLoadBalancer>();
    return tid;
}

RoceEcmpLoadBalancer::RoceEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

RoceEcmpLoadBalancer::~RoceEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RoceEcmpLoadBalancer::PackHashInput(const SwitchFlowKey& key, uint8_t* buffer) const
{
    uint32_t n = EcmpLoadBalancer::PackHashInput(key, buffer);
    if (key.hasBth)
    {
        n = PutBigEndian(buffer, n, key.destQp & 0xffffffu, 3);
    }
    return n;
}

} // namespace ns3
