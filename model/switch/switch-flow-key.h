/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the header fields a switch reads from a packet, parsed once per hop.
 */
#ifndef SWITCH_FLOW_KEY_H
#define SWITCH_FLOW_KEY_H

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief Fields of an IPv4 packet that forwarding, load balancing and ECN need.
 *
 * Filled by SwitchFlowKey::Parse() from the first bytes of the packet (no header objects are
 * deserialized): IPv4 addresses, protocol, TTL and ECN; for UDP the ports; for RoCEv2
 * (UDP destination port 4791) the BTH destination QP.
 */
struct SwitchFlowKey
{
    /// UDP destination port of RoCEv2 (IBTA Annex A17).
    static constexpr uint16_t ROCEV2_UDP_PORT = 4791;
    /// Bytes Parse() reads at most: IPv4 20 + UDP 8 + BTH 12.
    static constexpr uint32_t PARSE_BYTES = 40;

    uint32_t srcIp{0};       //!< IPv4 source address (host order)
    uint32_t dstIp{0};       //!< IPv4 destination address (host order)
    uint8_t protocol{0};     //!< IPv4 protocol (17 = UDP)
    uint8_t ttl{0};          //!< IPv4 TTL
    uint8_t ecn{0};          //!< IPv4 ECN field: 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE
    uint8_t dscp{0};         //!< IPv4 DSCP
    uint16_t srcPort{0};     //!< UDP source port (0 if not UDP)
    uint16_t dstPort{0};     //!< UDP destination port (0 if not UDP)
    uint32_t destQp{0};      //!< RoCEv2 BTH destination QP, 24 bits (0 if not RoCEv2)
    bool hasBth{false};      //!< true if the packet is RoCEv2 and the BTH was read
    uint8_t headerBytes{0};  //!< IPv4 header length, bytes (IHL x 4, 20..60)
    uint16_t totalLength{0}; //!< IPv4 total length, bytes
    uint8_t priority{0};     //!< priority the ingress port classified the packet to, 0..7
    uint32_t ingressPort{0}; //!< switch port the packet arrived on

    /**
     * \brief Parse an IPv4 packet (starting at the IPv4 header, options allowed).
     * \param packet the packet
     * \param[out] key the fields
     * \return false if the packet is too short or not IPv4 version 4 (key is then partial)
     */
    static bool Parse(Ptr<const Packet> packet, SwitchFlowKey& key);
    /**
     * \brief Parse IPv4 header bytes already copied out of a packet or frame.
     * \param bytes the packet's first bytes, starting at the IPv4 header
     * \param n how many are valid (PARSE_BYTES + 40 suffice for any IHL)
     * \param[out] key the fields
     * \return false if too short or not IPv4 version 4 (key is then partial)
     */
    static bool Parse(const uint8_t* bytes, uint32_t n, SwitchFlowKey& key);
};

} // namespace ns3

#endif /* SWITCH_FLOW_KEY_H */
