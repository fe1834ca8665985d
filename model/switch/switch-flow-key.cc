/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-flow-key.h"

#include "switch-entropy-parser.h"

namespace ns3
{

bool
SwitchFlowKey::Parse(Ptr<const Packet> packet,
                     SwitchFlowKey& key,
                     const SwitchEntropyParserTable* parsers)
{
    uint8_t b[PARSE_BYTES + 40]; // room for IPv4 options (IHL up to 15 words)
    uint32_t n = packet->CopyData(b, sizeof(b));
    return Parse(b, n, key, parsers);
}

bool
SwitchFlowKey::Parse(const uint8_t* b,
                     uint32_t n,
                     SwitchFlowKey& key,
                     const SwitchEntropyParserTable* parsers)
{
    if (n < 20 || (b[0] >> 4) != 4)
    {
        return false;
    }
    uint32_t ihl = (b[0] & 0x0f) * 4u;
    if (ihl < 20 || n < ihl)
    {
        return false;
    }
    key.headerBytes = static_cast<uint8_t>(ihl);
    key.totalLength = static_cast<uint16_t>((b[2] << 8) | b[3]);
    key.dscp = b[1] >> 2;
    key.ecn = b[1] & 0x03;
    key.ttl = b[8];
    key.protocol = b[9];
    key.srcIp = (uint32_t(b[12]) << 24) | (uint32_t(b[13]) << 16) | (uint32_t(b[14]) << 8) | b[15];
    key.dstIp = (uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) | b[19];
    key.srcPort = 0;
    key.dstPort = 0;
    key.entropy = 0;
    key.entropyBytes = 0;
    if (key.protocol == 17 && n >= ihl + 8)
    {
        const uint8_t* u = b + ihl;
        key.srcPort = static_cast<uint16_t>((u[0] << 8) | u[1]);
        key.dstPort = static_cast<uint16_t>((u[2] << 8) | u[3]);
        if (parsers)
        {
            if (SwitchEntropyParseFn parse = parsers->Find(key.dstPort))
            {
                parse(u + 8, n - ihl - 8, key);
            }
        }
    }
    return true;
}

} // namespace ns3
