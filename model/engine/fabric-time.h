/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: exact serialization times without floating point.
 */
#ifndef FABRIC_TIME_H
#define FABRIC_TIME_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief Time to put \p bytes on a link of \p rate, rounded to the nearest picosecond.
 *
 * Same value as DataRate::CalculateBytesTxTime up to rounding, but computed in integer
 * arithmetic (128-bit intermediate) because it runs for every frame: the double-to-Time
 * conversion of the ns-3 call was a measurable share of the data path.
 * \param bytes number of bytes (any uint64_t)
 * \param rate link rate, > 0 bit/s (not checked here: devices validate their rate)
 * \return the serialization time
 */
inline Time
BytesTxTime(uint64_t bytes, const DataRate& rate)
{
    // __uint128_t, not "unsigned __int128": the same type, without a -Wpedantic warning
    __uint128_t bits = static_cast<__uint128_t>(bytes) * 8u * 1000000000000ull;
    uint64_t bps = rate.GetBitRate();
    uint64_t ps = static_cast<uint64_t>((bits + bps / 2) / bps);
    return Time::FromInteger(ps, Time::PS);
}

} // namespace ns3

#endif /* FABRIC_TIME_H */
