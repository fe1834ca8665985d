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

class SwitchEntropyParserTable;

/**
 * \ingroup ai-fabric-switch
 * \brief Fields of an IPv4 packet that forwarding, load balancing and ECN need.
 *
 * Filled by SwitchFlowKey::Parse() from the first bytes of the packet (no header objects are
 * deserialized): IPv4 addresses, protocol, TTL, DSCP and ECN; for UDP the ports; and, when the
 * switch has an entropy parser for the UDP destination port (SwitchEntropyParserTable), the
 * transport's flow entropy (e.g. the RoCEv2 BTH destination QP that E-ECMP hashes, installed
 * by the RoCE module: RoceEntropyParser). The key itself knows no transport.
 */
struct SwitchFlowKey
{
    /// Bytes after the UDP header an entropy parser may read (enough for a RoCEv2 BTH).
    static constexpr uint32_t L4_PEEK_BYTES = 12;
    /// Bytes Parse() reads at most without IPv4 options: IPv4 20 + UDP 8 + L4_PEEK_BYTES.
    static constexpr uint32_t PARSE_BYTES = 20 + 8 + L4_PEEK_BYTES;

    uint32_t srcIp{0};       //!< IPv4 source address (host order)
    uint32_t dstIp{0};       //!< IPv4 destination address (host order)
    uint8_t protocol{0};     //!< IPv4 protocol (17 = UDP)
    uint8_t ttl{0};          //!< IPv4 TTL
    uint8_t ecn{0};          //!< IPv4 ECN field: 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE
    uint8_t dscp{0};         //!< IPv4 DSCP
    uint16_t srcPort{0};     //!< UDP source port (0 if not UDP)
    uint16_t dstPort{0};     //!< UDP destination port (0 if not UDP)
    uint32_t entropy{0};     //!< transport flow entropy, entropyBytes wide (0 if none)
    uint8_t entropyBytes{0}; //!< width of entropy on the wire, 0..4 bytes; 0 = no entropy
    uint8_t headerBytes{0};  //!< IPv4 header length, bytes (IHL x 4, 20..60)
    uint16_t totalLength{0}; //!< IPv4 total length, bytes
    uint8_t priority{0};     //!< priority the ingress port classified the packet to, 0..7
    uint32_t ingressPort{0}; //!< switch port the packet arrived on

    /// \return true if an entropy parser filled entropy (entropyBytes > 0)
    bool HasEntropy() const
    {
        return entropyBytes != 0;
    }

    /**
     * \brief Parse an IPv4 packet (starting at the IPv4 header, options allowed).
     * \param packet the packet
     * \param[out] key the fields
     * \param parsers entropy parsers by UDP destination port (null: no entropy is read)
     * \return false if the packet is too short or not IPv4 version 4 (key is then partial)
     */
    static bool Parse(Ptr<const Packet> packet,
                      SwitchFlowKey& key,
                      const SwitchEntropyParserTable* parsers = nullptr);
    /**
     * \brief Parse IPv4 header bytes already copied out of a packet or frame.
     * \param bytes the packet's first bytes, starting at the IPv4 header
     * \param n how many are valid (PARSE_BYTES + 40 suffice for any IHL)
     * \param[out] key the fields; entropy and entropyBytes are 0 unless the packet is UDP and
     *        \p parsers has a parser for its destination port, which is given the bytes after
     *        the UDP header (n - IHL - 8 of them)
     * \param parsers entropy parsers by UDP destination port (null: no entropy is read)
     * \return false if too short or not IPv4 version 4 (key is then partial)
     */
    static bool Parse(const uint8_t* bytes,
                      uint32_t n,
                      SwitchFlowKey& key,
                      const SwitchEntropyParserTable* parsers = nullptr);
};

} // namespace ns3

#endif /* SWITCH_FLOW_KEY_H */
