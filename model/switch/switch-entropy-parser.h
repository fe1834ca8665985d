/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: transport entropy parsers of a switch, chosen by UDP destination port.
 */
#ifndef SWITCH_ENTROPY_PARSER_H
#define SWITCH_ENTROPY_PARSER_H

#include "switch-flow-key.h"

#include "ns3/udp-port-table.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief Reads a transport's flow entropy into a SwitchFlowKey.
 *
 * Called by SwitchFlowKey::Parse() for a UDP packet whose destination port the parser is
 * registered for, after the IPv4 and UDP fields of \p key are filled. It sets key.entropy and
 * key.entropyBytes (the entropy's width on the wire, 1..4 bytes: the bytes entropy-aware
 * load balancers hash, EntropyEcmpLoadBalancer) or leaves them 0 when \p n is too short.
 * It must not read more than \p n bytes. Parsers are plain functions (no state, no virtual
 * call): one runs per packet per hop.
 *
 * \param l4Payload the bytes after the UDP header
 * \param n how many of them are valid; the switch gives at least
 *        min(SwitchFlowKey::L4_PEEK_BYTES, UDP payload) bytes
 * \param key the key being filled
 */
typedef void (*SwitchEntropyParseFn)(const uint8_t* l4Payload, uint32_t n, SwitchFlowKey& key);

/**
 * \ingroup ai-fabric-switch
 * \brief The entropy parsers of one switch, keyed by UDP destination port (no process-wide
 *        registry: each FabricSwitch owns one table, filled by whoever builds it).
 *
 * A transport that carries flow entropy beyond the 5-tuple provides a parser and its helpers
 * (or the user) register it on the switches: RoCEv2 (UDP 4791) the BTH destination QP,
 * RoceEntropyParser, installed by SwitchHelper by default. UdpSourcePortEntropyParser serves
 * transports whose entropy is the UDP source port (Ultra Ethernet, UDP 4793: the entropy value
 * EV is the source port, UEC 1.0). At most MAX_PARSERS ports; the lookup is a scan of a few
 * entries, fast for the one or two transports a fabric carries.
 */
class SwitchEntropyParserTable
{
  public:
    /// Largest number of UDP ports with a parser.
    static constexpr uint32_t MAX_PARSERS = 8;

    /**
     * \brief Register (or replace) the parser of a UDP destination port.
     * \param udpDstPort the port, 1..65535 (aborts on 0)
     * \param parse the parser (aborts if null)
     * Aborts, naming the limit, if MAX_PARSERS other ports already have one.
     */
    void Add(uint16_t udpDstPort, SwitchEntropyParseFn parse);

    /**
     * \brief Unregister the parser of a port.
     * \param udpDstPort the port
     * \return true if it had one
     */
    bool Remove(uint16_t udpDstPort);

    /**
     * \param udpDstPort a UDP destination port
     * \return its parser, or null
     */
    SwitchEntropyParseFn Find(uint16_t udpDstPort) const
    {
        return m_parsers.Find(udpDstPort);
    }

    /// \return number of ports with a parser
    uint32_t GetN() const
    {
        return m_parsers.GetN();
    }

  private:
    UdpPortTable<SwitchEntropyParseFn> m_parsers; //!< parser by UDP destination port
};

/**
 * \ingroup ai-fabric-switch
 * \brief Entropy parser for transports whose flow entropy is the UDP source port, as Ultra
 *        Ethernet's (the entropy value EV is the UDP source port; UET uses UDP destination port
 *        4793): entropy = key.srcPort, 2 bytes wide. Reads no payload byte.
 * \param l4Payload the bytes after the UDP header (unused)
 * \param n how many are valid (unused)
 * \param key the key; its srcPort becomes its entropy
 */
void UdpSourcePortEntropyParser(const uint8_t* l4Payload, uint32_t n, SwitchFlowKey& key);

} // namespace ns3

#endif /* SWITCH_ENTROPY_PARSER_H */
