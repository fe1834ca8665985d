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
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (m_ports[i] == udpDstPort)
        {
            m_parsers[i] = parse;
            return;
        }
    }
    NS_ABORT_MSG_IF(m_n == MAX_PARSERS,
                    "SwitchEntropyParserTable::Add: UDP port "
                        << udpDstPort << " would be parser " << m_n + 1 << "; at most "
                        << MAX_PARSERS << " ports may have one");
    m_ports[m_n] = udpDstPort;
    m_parsers[m_n] = parse;
    ++m_n;
}

bool
SwitchEntropyParserTable::Remove(uint16_t udpDstPort)
{
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (m_ports[i] == udpDstPort)
        {
            --m_n;
            m_ports[i] = m_ports[m_n];
            m_parsers[i] = m_parsers[m_n];
            m_ports[m_n] = 0;
            m_parsers[m_n] = nullptr;
            return true;
        }
    }
    return false;
}

void
UdpSourcePortEntropyParser(const uint8_t* l4Payload, uint32_t n, SwitchFlowKey& key)
{
    key.entropy = key.srcPort;
    key.entropyBytes = 2;
}

} // namespace ns3
