/*
 * SPDX-License-Identifier: GPL-2.0-only
 * ai-fabric: transports' in-band telemetry writers of a switch, chosen by UDP destination port.
 */
#ifndef SWITCH_TELEMETRY_WRITER_H
#define SWITCH_TELEMETRY_WRITER_H

#include "ns3/data-rate.h"
#include "ns3/fabric-frame.h"
#include "ns3/nstime.h"
#include "ns3/udp-port-table.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief What a switch knows of one egress hop for in-band telemetry (HPCC, Li et al. SIGCOMM
 *        2019, section 3.2): queue length, transmitted bytes, timestamp, link rate.
 */
struct SwitchHopTelemetry
{
    uint64_t queueBytes{0}; //!< bytes queued ahead of the packet on its egress priority
    uint64_t txBytes{0};    //!< frame bytes the egress port has transmitted, cumulative
    Time timestamp;         //!< when the packet joins the egress queue
    DataRate linkRate;      //!< egress link rate
};

/// IPv4 flags bit (the reserved flag, RFC 791) a sender sets on the packets whose hops it wants
/// recorded; the switch tests this one byte before anything else.
constexpr uint8_t SWITCH_TELEMETRY_IPV4_FLAG = 0x80;

/**
 * \ingroup ai-fabric-switch
 * \brief Writes a transport's telemetry record of one hop into a frame that asks for it.
 * Called by FabricSwitch (InBandTelemetry true) on egress for an IPv4/UDP frame whose IPv4
 * flags carry SWITCH_TELEMETRY_IPV4_FLAG and whose UDP destination port the writer is
 * registered for. The writer finds its record stack after the UDP header, checks it (and
 * leaves a frame it cannot write alone) and appends \p hop in its own format, rewriting the
 * frame's head in place (FabricFrame::LoadHead / MutableHead). Plain functions: no state.
 * \param frame the frame
 * \param l2Bytes bytes of its L2 header (the IPv4 header follows)
 * \param hop this hop's telemetry
 */
typedef void (*SwitchTelemetryWriteFn)(FabricFrame& frame,
                                       uint32_t l2Bytes,
                                       const SwitchHopTelemetry& hop);

/// The telemetry writers of one switch by UDP destination port (RoCEv2's INT on 4791: RoceInt).
typedef UdpPortTable<SwitchTelemetryWriteFn> SwitchTelemetryWriterTable;

} // namespace ns3

#endif /* SWITCH_TELEMETRY_WRITER_H */
