/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of SwitchFlowKey::Parse (the switches' IPv4/UDP packet parser,
 * with the RoCEv2 entropy parser installed).
 */
#include "fuzz-util.h"

#include "ns3/fabric-wire-header.h"
#include "ns3/roce-entropy-parser.h"
#include "ns3/switch-entropy-parser.h"
#include "ns3/switch-flow-key.h"

using namespace ns3;
using namespace ns3::fuzz;

/**
 * \brief Parse the input as a packet starting at its IPv4 header (the input buffer is exactly
 *        the packet, so a read past its end is an AddressSanitizer error). Parse succeeds
 *        exactly for version 4 with 20 <= IHL x 4 <= length; then every field is the one on
 *        the wire, and the entropy is the BTH DestQP exactly when the packet is UDP to 4791 with
 *        a whole BTH.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static SwitchEntropyParserTable parsers;
    if (parsers.GetN() == 0)
    {
        parsers.Add(RoceEntropyParser::UDP_PORT, &RoceEntropyParser::Parse);
    }
    const uint32_t n = static_cast<uint32_t>(size);
    SwitchFlowKey key;
    const bool ok = SwitchFlowKey::Parse(data, n, key, &parsers);
    const uint32_t ihl = n > 0 ? (data[0] & 0x0F) * 4u : 0;
    const bool valid = n >= 20 && (data[0] >> 4) == 4 && ihl >= 20 && ihl <= n;
    FUZZ_CHECK(ok == valid, "Parse returned " << ok << " for " << n << " bytes, IHL " << ihl);
    if (!ok)
    {
        return 0;
    }
    FUZZ_CHECK(key.headerBytes == ihl, "headerBytes " << unsigned(key.headerBytes));
    FUZZ_CHECK(key.totalLength == wire::GetU16(data + 2), "totalLength " << key.totalLength);
    FUZZ_CHECK(key.dscp == (data[1] >> 2) && key.ecn == (data[1] & 3), "DSCP/ECN");
    FUZZ_CHECK(key.ttl == data[8] && key.protocol == data[9], "TTL/protocol");
    FUZZ_CHECK(key.srcIp == wire::GetU32(data + 12) && key.dstIp == wire::GetU32(data + 16),
               "addresses");
    const bool udp = data[9] == 17 && n >= ihl + 8;
    FUZZ_CHECK(key.srcPort == (udp ? wire::GetU16(data + ihl) : 0) &&
                   key.dstPort == (udp ? wire::GetU16(data + ihl + 2) : 0),
               "ports " << key.srcPort << " " << key.dstPort);
    const bool roce = udp && key.dstPort == RoceEntropyParser::UDP_PORT && n >= ihl + 8 + 12;
    FUZZ_CHECK(key.HasEntropy() == roce, "entropy present: " << key.HasEntropy());
    if (roce)
    {
        FUZZ_CHECK(key.entropyBytes == 3 && key.entropy == wire::GetU24(data + ihl + 8 + 5),
                   "entropy " << key.entropy);
    }
    return 0;
}
