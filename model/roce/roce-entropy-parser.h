/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: what switches and traces read from a RoCEv2 packet beyond its IPv4/UDP headers.
 */
#ifndef ROCE_ENTROPY_PARSER_H
#define ROCE_ENTROPY_PARSER_H

#include "ns3/packet-class-filter.h"
#include "ns3/switch-flow-key.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

class FabricSwitch;

/**
 * \ingroup ai-fabric-roce
 * \brief RoCEv2's hooks into protocol-neutral layers, keyed by its UDP destination port 4791
 *        (IBTA Annex A17): the switch entropy parser that makes E-ECMP hash the BTH
 *        destination QP (its INT writer is RoceInt::WriteSwitchHop), and the FabricWireHeader
 *        describer that prints a BTH in frame descriptions.
 *
 * SwitchHelper registers Parse() on every switch it builds (Install() on others); the
 * describer is registered with FabricWireHeader when the library loads.
 */
class RoceEntropyParser
{
  public:
    /// UDP destination port of RoCEv2 (RoceBthHeader::UDP_DST_PORT).
    static constexpr uint16_t UDP_PORT = 4791;

    /**
     * \brief SwitchEntropyParseFn for RoCEv2: entropy = the BTH destination QP, 24 bits
     *        (3 bytes on the wire, octets 5-7 of the BTH); none if fewer than the 12 BTH bytes
     *        are given.
     * \param l4Payload the bytes after the UDP header (the BTH)
     * \param n how many are valid
     * \param key the key being filled
     */
    static void Parse(const uint8_t* l4Payload, uint32_t n, SwitchFlowKey& key);

    /**
     * \brief Register Parse() and RoCEv2's in-band telemetry writer (RoceInt::WriteSwitchHop)
     *        for UDP port 4791 on a switch (replacing any it had).
     * \param sw the switch (aborts if null)
     */
    static void Install(Ptr<FabricSwitch> sw);

    /**
     * \brief FabricPacketClassifyFn for RoCEv2: CNP for opcode 0x81; for Acknowledge (0x11)
     *        the AETH syndrome (after an in-band telemetry stack if the BTH announces one)
     *        decides: a NAK syndrome (0b011xxxxx) is NAK, anything else (ACK, RNR NAK) ACK;
     *        every other opcode, or fewer bytes than the BTH (and AETH) need, is OTHER.
     * \param l4Payload the bytes after the UDP header (the BTH)
     * \param n how many are valid
     * \return the class
     */
    static FabricPacketClass Classify(const uint8_t* l4Payload, uint32_t n);

    /**
     * \brief FabricWireHeader UDP payload describer: "; BTH <opcode> dqpn <qp> psn <psn>"
     *        (and " ackreq"), nothing if fewer than 12 bytes are given.
     * \param os where to print
     * \param l4Payload the bytes after the UDP header
     * \param n how many are valid
     */
    static void Describe(std::ostream& os, const uint8_t* l4Payload, uint32_t n);
};

} // namespace ns3

#endif /* ROCE_ENTROPY_PARSER_H */
