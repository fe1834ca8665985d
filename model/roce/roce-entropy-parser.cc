/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-entropy-parser.h"

#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-int-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-wire-header.h"

namespace ns3
{

static_assert(RoceEntropyParser::UDP_PORT == RoceBthHeader::UDP_DST_PORT,
              "RoCEv2 has one UDP destination port");
static_assert(SwitchFlowKey::L4_PEEK_BYTES >= RoceBthHeader::SIZE,
              "switches must give the parser a whole BTH");

void
RoceEntropyParser::Parse(const uint8_t* l4Payload, uint32_t n, SwitchFlowKey& key)
{
    if (n >= RoceBthHeader::SIZE)
    {
        key.entropy = wire::GetU24(l4Payload + 5);
        key.entropyBytes = 3;
    }
}

void
RoceEntropyParser::Install(Ptr<FabricSwitch> sw)
{
    NS_ABORT_MSG_IF(!sw, "RoceEntropyParser::Install given a null switch");
    sw->SetEntropyParser(UDP_PORT, &RoceEntropyParser::Parse);
    sw->SetTelemetryWriter(UDP_PORT, &RoceInt::WriteSwitchHop);
}

FabricPacketClass
RoceEntropyParser::Classify(const uint8_t* t, uint32_t n)
{
    if (n < RoceBthHeader::SIZE)
    {
        return FabricPacketClass::OTHER;
    }
    if (t[0] == RoceOpcode::CNP)
    {
        return FabricPacketClass::CNP;
    }
    if (t[0] != RoceOpcode::ACKNOWLEDGE)
    {
        return FabricPacketClass::OTHER;
    }
    uint32_t aeth = RoceBthHeader::SIZE;
    if (t[4] & RoceInt::BTH_INT_BIT)
    {
        if (n < aeth + RoceInt::HEADER_BYTES)
        {
            return FabricPacketClass::OTHER;
        }
        aeth += RoceInt::StackBytes(t[aeth + 1]);
    }
    if (n < aeth + RoceAethHeader::SIZE)
    {
        return FabricPacketClass::OTHER;
    }
    return RoceAethHeader::IsNakSyndrome(RoceAethHeader::ReadSyndrome(t + aeth))
               ? FabricPacketClass::NAK
               : FabricPacketClass::ACK;
}

void
RoceEntropyParser::Describe(std::ostream& os, const uint8_t* t, uint32_t n)
{
    if (n >= RoceBthHeader::SIZE)
    {
        os << "; BTH " << RoceBthHeader::OpcodeName(t[0]) << " dqpn " << wire::GetU24(t + 5)
           << " psn " << wire::GetU24(t + 9) << ((t[8] & 0x80) ? " ackreq" : "");
    }
}

namespace
{
/// Registers the BTH describer with FabricWireHeader when the library loads.
const bool g_bthDescriberRegistered =
    (FabricWireHeader::SetUdpPayloadDescriber(RoceEntropyParser::UDP_PORT,
                                              &RoceEntropyParser::Describe),
     true);
} // namespace

} // namespace ns3
