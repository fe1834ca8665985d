/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "entropy-ecmp-load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EntropyEcmpLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(EntropyEcmpLoadBalancer);

TypeId
EntropyEcmpLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EntropyEcmpLoadBalancer")
                            .SetParent<EcmpLoadBalancer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<EntropyEcmpLoadBalancer>();
    return tid;
}

EntropyEcmpLoadBalancer::EntropyEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

EntropyEcmpLoadBalancer::~EntropyEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
EntropyEcmpLoadBalancer::PackHashInput(const SwitchFlowKey& key, uint8_t* buffer) const
{
    uint32_t n = EcmpLoadBalancer::PackHashInput(key, buffer);
    if (key.entropyBytes)
    {
        n = PutBigEndian(buffer, n, key.entropy, key.entropyBytes > 4 ? 4 : key.entropyBytes);
    }
    return n;
}

} // namespace ns3
