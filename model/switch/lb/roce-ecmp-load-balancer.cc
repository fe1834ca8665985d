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
                            .SetParent<EntropyEcmpLoadBalancer>()
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

} // namespace ns3
