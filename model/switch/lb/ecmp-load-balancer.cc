/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ecmp-load-balancer.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/hash.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(EcmpLoadBalancer);

TypeId
EcmpLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcmpLoadBalancer")
                            .SetParent<SwitchLoadBalancer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<EcmpLoadBalancer>();
    return tid;
}

EcmpLoadBalancer::EcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

EcmpLoadBalancer::~EcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
EcmpLoadBalancer::PutBigEndian(uint8_t* buffer, uint32_t offset, uint32_t value, uint32_t bytes)
{
    for (uint32_t i = 0; i < bytes; ++i)
    {
        buffer[offset + i] = static_cast<uint8_t>(value >> (8 * (bytes - 1 - i)));
    }
    return offset + bytes;
}

uint32_t
EcmpLoadBalancer::PackHashInput(const SwitchFlowKey& key, uint8_t* buffer) const
{
    uint32_t n = 0;
    n = PutBigEndian(buffer, n, m_seed, 4);
    n = PutBigEndian(buffer, n, key.srcIp, 4);
    n = PutBigEndian(buffer, n, key.dstIp, 4);
    n = PutBigEndian(buffer, n, key.protocol, 1);
    n = PutBigEndian(buffer, n, key.srcPort, 2);
    n = PutBigEndian(buffer, n, key.dstPort, 2);
    return n;
}

uint32_t
EcmpLoadBalancer::Hash(const SwitchFlowKey& key) const
{
    uint8_t buffer[MAX_HASH_INPUT_BYTES];
    uint32_t size = PackHashInput(key, buffer);
    NS_ABORT_MSG_IF(size > MAX_HASH_INPUT_BYTES,
                    GetInstanceTypeId().GetName()
                        << "::PackHashInput wrote " << size << " bytes; at most "
                        << MAX_HASH_INPUT_BYTES << " fit");
    return Hash32(reinterpret_cast<const char*>(buffer), size);
}

uint32_t
EcmpLoadBalancer::Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now)
{
    NS_ABORT_MSG_IF(n == 0,
                    GetInstanceTypeId().GetName()
                        << "::Select: number of candidate ports 0 is invalid; it must be >= 1");
    if (n == 1)
    {
        return ports[0];
    }
    return ports[Hash(key) % n];
}

} // namespace ns3
