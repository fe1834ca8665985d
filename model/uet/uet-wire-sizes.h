/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the byte sizes the UET NIC, its PDCs and its PDC-less flows build packets with.
 */
#ifndef UET_WIRE_SIZES_H
#define UET_WIRE_SIZES_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Byte sizes of the headers a UET packet is built with (UEC 1.0: PDS and SES over
 *        IPv4/UDP port 4793).
 */
namespace uetwire
{
/// IPv4 (no options) + UDP, bytes.
constexpr uint32_t IP_UDP = 28;
/// The most header bytes a UET packet has from IPv4 on: IPv4, UDP, PDS CC request (16), SES
/// standard request (44).
constexpr uint32_t MAX_HEADERS = IP_UDP + 16 + 44;
/// Headroom in front of the IPv4 header for a tagged Ethernet header (14 + 4), bytes.
constexpr uint32_t L2_ROOM = 18;
} // namespace uetwire

} // namespace ns3

#endif /* UET_WIRE_SIZES_H */
