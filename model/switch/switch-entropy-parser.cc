/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-entropy-parser.h"

#include "ns3/abort.h"

namespace ns3
{

void
SwitchEntropyParserTable::Add(uint16_t udpDstPort, SwitchEntropyParseFn parse)
{
    NS_ABORT_MSG_IF(udpDstPort == 0,
                    "SwitchEntropyParserTable::Add: UDP port 0 is invalid; valid ports are "
                    "1..65535");
    NS_ABORT_MSG_IF(!parse,
                    "SwitchEntropyParserTable::Add: null parser for UDP port " << udpDstPort);
    NS_ABORT_MSG_IF(!m_parsers.Find(udpDstPort) && m_parsers.GetN() == MAX_PARSERS,
                    "SwitchEntropyParserTable::Add: UDP port "
                        << udpDstPort << " would be parser " << m_parsers.GetN() + 1 << "; at most "
                        << MAX_PARSERS << " ports may have one");
    m_parsers.Set(udpDstPort, parse);
}

bool
SwitchEntropyParserTable::Remove(uint16_t udpDstPort)
{
    return m_parsers.Remove(udpDstPort);
}

void
UdpSourcePortEntropyParser(const uint8_t* l4Payload, uint32_t n, SwitchFlowKey& key)
{
    key.entropy = key.srcPort;
    key.entropyBytes = 2;
}

} // namespace ns3
