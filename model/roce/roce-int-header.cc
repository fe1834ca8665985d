/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-int-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-wire-header.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace ns3
{

namespace
{
/// Rates with a code: code i+1 is RATES[i], bits/s.
constexpr uint64_t RATES[] = {1000000000ull,
                              10000000000ull,
                              25000000000ull,
                              40000000000ull,
                              50000000000ull,
                              100000000000ull,
                              200000000000ull,
                              400000000000ull,
                              800000000000ull,
                              1600000000000ull};
constexpr uint32_t N_RATES = sizeof(RATES) / sizeof(RATES[0]);
} // namespace

uint8_t
RoceInt::RateCode(uint64_t bps)
{
    for (uint32_t i = 0; i < N_RATES; ++i)
    {
        if (RATES[i] == bps)
        {
            return static_cast<uint8_t>(i + 1);
        }
    }
    return 0;
}

uint64_t
RoceInt::CodeRate(uint8_t code)
{
    return code >= 1 && code <= N_RATES ? RATES[code - 1] : 0;
}

std::string
RoceInt::ValidRates()
{
    std::ostringstream os;
    for (uint32_t i = 0; i < N_RATES; ++i)
    {
        os << (i ? ", " : "") << RATES[i] / 1000000000ull << "Gbps";
    }
    return os.str();
}

void
RoceInt::InitStack(uint8_t* p, uint32_t capacity)
{
    NS_ABORT_MSG_IF(capacity > MAX_HOPS,
                    "RoCE INT stack capacity " << capacity << " is out of range 0.." << MAX_HOPS);
    std::memset(p, 0, StackBytes(capacity));
    p[1] = static_cast<uint8_t>(capacity);
}

uint64_t
RoceInt::EncodeHop(const FabricCcHopTelemetry& hop)
{
    uint64_t bps = hop.linkRate.GetBitRate();
    uint8_t code = RateCode(bps);
    FABRIC_INPUT_ERROR_IF(code == 0,
                          "RoCE INT: link rate " << bps
                                                 << " bit/s has no INT rate code; valid rates "
                                                 << ValidRates());
    uint64_t ts = uint64_t(hop.timestamp.GetNanoSeconds()) % TS_MODULO;
    uint64_t tx = (hop.txBytes / BYTE_UNIT) & ((1ull << 20) - 1);
    uint64_t q = std::min<uint64_t>(hop.queueBytes / BYTE_UNIT, 65535);
    return (uint64_t(code) << 60) | (ts << 36) | (tx << 16) | q;
}

FabricCcHopTelemetry
RoceInt::DecodeHop(uint64_t record)
{
    FabricCcHopTelemetry hop;
    hop.linkRate = DataRate(CodeRate(static_cast<uint8_t>(record >> 60)));
    hop.timestamp = NanoSeconds(int64_t((record >> 36) & (TS_MODULO - 1)));
    hop.txBytes = ((record >> 16) & ((1ull << 20) - 1)) * BYTE_UNIT;
    hop.queueBytes = (record & 0xffff) * BYTE_UNIT;
    return hop;
}

void
RoceInt::WriteSwitchHop(FabricFrame& frame, uint32_t l2Bytes, const SwitchHopTelemetry& hop)
{
    // IPv4 without options, UDP, BTH, then the INT stack.
    constexpr uint32_t STACK_OFFSET = 20 + 8 + 12;
    frame.LoadHead(l2Bytes + STACK_OFFSET + MAX_BYTES);
    if (frame.GetHeadBytes() < l2Bytes + STACK_OFFSET + HEADER_BYTES)
    {
        return;
    }
    const uint8_t* head = frame.GetHead() + l2Bytes;
    uint32_t cap = GetCapacity(head + STACK_OFFSET);
    if ((head[0] & 0x0f) != 5 || !(head[20 + 8 + 4] & BTH_INT_BIT) || cap > MAX_HOPS)
    {
        return; // not an INT stack a switch can write
    }
    uint8_t* h = frame.MutableHead(l2Bytes + STACK_OFFSET + StackBytes(cap));
    if (!h)
    {
        return;
    }
    FabricCcHopTelemetry record;
    record.queueBytes = hop.queueBytes;
    record.txBytes = hop.txBytes;
    record.timestamp = hop.timestamp;
    record.linkRate = hop.linkRate;
    AppendHop(h + l2Bytes + STACK_OFFSET, record);
}

bool
RoceInt::AppendHop(uint8_t* p, const FabricCcHopTelemetry& hop)
{
    uint32_t n = GetNHops(p);
    if (n >= GetCapacity(p))
    {
        p[0] |= 0x80;
        return false;
    }
    uint64_t r = EncodeHop(hop);
    uint8_t* q = p + HEADER_BYTES + n * HOP_BYTES;
    wire::PutU32(q, static_cast<uint32_t>(r >> 32));
    wire::PutU32(q + 4, static_cast<uint32_t>(r));
    p[0] = static_cast<uint8_t>((p[0] & 0xf0) | (n + 1));
    return true;
}

FabricCcHopTelemetry
RoceInt::ReadHop(const uint8_t* p, uint32_t i)
{
    const uint8_t* q = p + HEADER_BYTES + i * HOP_BYTES;
    uint64_t r = (uint64_t(wire::GetU32(q)) << 32) | wire::GetU32(q + 4);
    return DecodeHop(r);
}

FabricCcHopTelemetry
RoceInt::Unwrap(const FabricCcHopTelemetry& decoded, const FabricCcHopTelemetry& previous)
{
    FabricCcHopTelemetry out = decoded;
    uint64_t prevTs = uint64_t(previous.timestamp.GetNanoSeconds());
    uint64_t dts =
        (uint64_t(decoded.timestamp.GetNanoSeconds()) + TS_MODULO - prevTs % TS_MODULO) % TS_MODULO;
    out.timestamp = NanoSeconds(int64_t(prevTs + dts));
    uint64_t dtx = (decoded.txBytes + TX_MODULO - previous.txBytes % TX_MODULO) % TX_MODULO;
    out.txBytes = previous.txBytes + dtx;
    return out;
}

} // namespace ns3
