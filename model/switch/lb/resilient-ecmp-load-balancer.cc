/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "resilient-ecmp-load-balancer.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ResilientEcmpLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(ResilientEcmpLoadBalancer);

TypeId
ResilientEcmpLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ResilientEcmpLoadBalancer")
                            .SetParent<EntropyEcmpLoadBalancer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<ResilientEcmpLoadBalancer>();
    return tid;
}

ResilientEcmpLoadBalancer::ResilientEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

ResilientEcmpLoadBalancer::~ResilientEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
ResilientEcmpLoadBalancer::Weight(uint32_t flowHash, uint32_t port)
{
    // MurmurHash3's 32-bit finalizer over the flow hash and the port (golden-ratio spread).
    uint32_t h = flowHash ^ (port * 0x9E3779B9u);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

uint32_t
ResilientEcmpLoadBalancer::Select(const SwitchFlowKey& key,
                                  const uint32_t* ports,
                                  uint32_t n,
                                  Time now)
{
    NS_ABORT_MSG_IF(n == 0,
                    "ResilientEcmpLoadBalancer::Select: number of candidate ports 0 is invalid; "
                    "it must be >= 1");
    if (n == 1)
    {
        return ports[0];
    }
    const uint32_t h = Hash(key);
    uint32_t best = ports[0];
    uint32_t bestWeight = Weight(h, ports[0]);
    for (uint32_t i = 1; i < n; ++i)
    {
        const uint32_t w = Weight(h, ports[i]);
        if (w > bestWeight)
        {
            best = ports[i];
            bestWeight = w;
        }
    }
    return best;
}

} // namespace ns3
