/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: ECMP, a seeded hash of the 5-tuple picks the egress port.
 */
#ifndef ECMP_LOAD_BALANCER_H
#define ECMP_LOAD_BALANCER_H

#include "switch-load-balancer.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Equal-cost multi-path: every packet of a flow takes the port chosen by a hash of
 *        (Seed, source IP, destination IP, protocol, source port, destination port).
 *
 * The fields are packed big-endian into a small stack buffer and hashed with ns-3's Hash32()
 * (Murmur3); the port is ports[hash % n]. Per-packet cost is one 17-byte hash, with no
 * allocation. Packets of one flow never reorder; different seeds on different switches give
 * independent choices (no hash polarization across tiers). Subclasses append more fields by
 * overriding PackHashInput() (see EntropyEcmpLoadBalancer).
 */
class EcmpLoadBalancer : public SwitchLoadBalancer
{
  public:
    /// Capacity of the hash input buffer, bytes; PackHashInput() must stay within it.
    static constexpr uint32_t MAX_HASH_INPUT_BYTES = 64;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    EcmpLoadBalancer();
    ~EcmpLoadBalancer() override;

    /**
     * \brief Choose ports[Hash(key) % n] (ports[0] without hashing when n == 1).
     * \param key the packet's parsed fields
     * \param ports candidate switch-port indices
     * \param n number of candidates, >= 1 (aborts on 0)
     * \param now current simulation time (unused)
     * \return one element of \p ports
     */
    uint32_t Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now) override;

    /**
     * \brief The flow hash this balancer uses (depends on the seed and the packed fields).
     * \param key the packet's parsed fields
     * \return 32-bit Murmur3 hash
     */
    uint32_t Hash(const SwitchFlowKey& key) const;

    /**
     * \brief ns-3's default 32-bit hash, computed inline: bit-identical to
     *        `ns3::Hash32(buffer, size)` (Murmur3 x86_32 as ns-3 runs it: seed 0x8BADF00D,
     *        4-byte blocks read in host byte order, length mixed in at the end) without its hasher
     *        object, virtual calls and reset (the per-packet ECMP cost).
     * \param data the bytes
     * \param size how many, any length
     * \return the hash
     */
    static uint32_t Murmur3Hash32(const uint8_t* data, std::size_t size);

  protected:
    /**
     * \brief Pack the hashed fields into \p buffer.
     *
     * The base packs Seed (4 B), srcIp (4 B), dstIp (4 B), protocol (1 B), srcPort (2 B) and
     * dstPort (2 B), big-endian: 17 bytes. Overrides call the base and append after it.
     * \param key the packet's parsed fields
     * \param buffer destination, MAX_HASH_INPUT_BYTES bytes
     * \return number of bytes written (<= MAX_HASH_INPUT_BYTES)
     */
    virtual uint32_t PackHashInput(const SwitchFlowKey& key, uint8_t* buffer) const;

    /**
     * \brief Write \p value big-endian as \p bytes bytes at \p buffer + \p offset.
     * \param buffer destination
     * \param offset first byte to write
     * \param value the value (its low \p bytes bytes are written)
     * \param bytes 1..4
     * \return offset + bytes
     */
    static uint32_t PutBigEndian(uint8_t* buffer, uint32_t offset, uint32_t value, uint32_t bytes);
};

} // namespace ns3

#endif /* ECMP_LOAD_BALANCER_H */
