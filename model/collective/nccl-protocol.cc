/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-protocol.h"

#include "ns3/abort.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ns3
{

namespace
{

/// NCCL_STEPS: slots per connection.
constexpr uint32_t STEPS = 8;

/// The three protocols (NCCL device.h defaults): LL 8 lines/thread x 512 threads x 8 steps x
/// 16 B; LL128 120 elements/thread x 640 threads x 8 steps x 8 B; Simple 4 MiB.
const std::array<NcclProtocolInfo, NCCL_NUM_PROTOCOLS> PROTOCOLS = {{
    {NcclProtocol::LL, 16, 8, 8ull * 512 * STEPS * 16, STEPS},
    {NcclProtocol::LL128, 128, 120, 120ull * 640 * STEPS * 8, STEPS},
    {NcclProtocol::SIMPLE, 1, 1, 4ull << 20, STEPS},
}};

} // namespace

const char*
NcclProtocolName(NcclProtocol p)
{
    switch (p)
    {
    case NcclProtocol::LL:
        return "LL";
    case NcclProtocol::LL128:
        return "LL128";
    case NcclProtocol::SIMPLE:
        return "Simple";
    default:
        return "?";
    }
}

bool
NcclProtocolFromName(const std::string& name, NcclProtocol* p)
{
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return std::tolower(c);
    });
    for (uint32_t i = 0; i < NCCL_NUM_PROTOCOLS; ++i)
    {
        std::string n = NcclProtocolName(NcclProtocol(i));
        std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) {
            return std::tolower(c);
        });
        if (n == lower)
        {
            *p = NcclProtocol(i);
            return true;
        }
    }
    return false;
}

uint64_t
NcclProtocolInfo::GetStepBytes() const
{
    return bufferBytes / steps;
}

uint64_t
NcclProtocolInfo::GetStepDataBytes() const
{
    return GetStepBytes() / lineBytes * lineData;
}

uint64_t
NcclProtocolInfo::GetWireBytes(uint64_t dataBytes) const
{
    return (dataBytes + lineData - 1) / lineData * lineBytes;
}

uint64_t
NcclProtocolInfo::GetWireBytes(uint64_t dataBytes, uint64_t pieceBytes) const
{
    uint64_t full = dataBytes / pieceBytes;
    return full * GetWireBytes(pieceBytes) + GetWireBytes(dataBytes - full * pieceBytes);
}

double
NcclProtocolInfo::GetEfficiency() const
{
    return double(lineData) / lineBytes;
}

const NcclProtocolInfo&
GetNcclProtocolInfo(NcclProtocol p)
{
    NS_ABORT_MSG_IF(p >= NcclProtocol::COUNT, "GetNcclProtocolInfo: invalid protocol " << int(p));
    return PROTOCOLS[static_cast<uint32_t>(p)];
}

} // namespace ns3
