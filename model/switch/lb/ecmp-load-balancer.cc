/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ecmp-load-balancer.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/hash.h"
#include "ns3/log.h"

#include <cstring>

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
    // The common widths as single big-endian stores (the per-packet path packs one key per
    // hop); any width the same bytes.
    switch (bytes)
    {
    case 4:
        wire::PutU32(buffer + offset, value);
        break;
    case 2:
        wire::PutU16(buffer + offset, static_cast<uint16_t>(value));
        break;
    case 1:
        buffer[offset] = static_cast<uint8_t>(value);
        break;
    default:
        for (uint32_t i = 0; i < bytes; ++i)
        {
            buffer[offset + i] = static_cast<uint8_t>(value >> (8 * (bytes - 1 - i)));
        }
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
    return Murmur3Hash32(buffer, size);
}

namespace
{
/// \return \p x rotated left by \p r bits (0 < r < 32)
inline uint32_t
Rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

/// \return one Murmur3 block \p k mixed (before it is folded into the state)
inline uint32_t
MixBlock(uint32_t k)
{
    k *= 0xcc9e2d51u;
    k = Rotl32(k, 15);
    return k * 0x1b873593u;
}
} // namespace

uint32_t
EcmpLoadBalancer::Murmur3Hash32(const uint8_t* data, std::size_t size)
{
    // The algorithm of MurmurHash3_x86_32 (Austin Appleby, public domain) with ns-3's seed and
    // its incremental split (Hash::Function::Murmur3): the blocks, the tail, then the length.
    uint32_t h = 0x8BADF00Du;
    const std::size_t blocks = size / 4;
    for (std::size_t i = 0; i < blocks; ++i)
    {
        uint32_t k;
        std::memcpy(&k, data + 4 * i, 4); // host order, as ns-3's getblock()
        h ^= MixBlock(k);
        h = Rotl32(h, 13);
        h = h * 5 + 0xe6546b64u;
    }
    const uint8_t* tail = data + 4 * blocks;
    uint32_t k = 0;
    switch (size & 3)
    {
    case 3:
        k ^= uint32_t(tail[2]) << 16;
        [[fallthrough]];
    case 2:
        k ^= uint32_t(tail[1]) << 8;
        [[fallthrough]];
    case 1:
        k ^= tail[0];
        h ^= MixBlock(k);
        break;
    default:
        break;
    }
    h ^= static_cast<uint32_t>(size);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
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
