/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: why a switch dropped, marked or trimmed a packet (one list for the switch and its
 * MMU).
 */
#ifndef SWITCH_REASONS_H
#define SWITCH_REASONS_H

#include "ns3/fabric-reason-counters.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief Why a FabricSwitch dropped a packet: the ids of the switch's drop FabricReasonCounters
 *        (SwitchCounters::drops), of its "Drop" trace and of the MMU's DROP verdicts.
 *
 * The quoted names are those of SwitchDropReasonName(), the counters and traces.
 */
enum class SwitchDropReason : uint8_t
{
    NO_ROUTE = 0,      //!< "no route": the forwarding table has no entry for the destination
    HEADROOM_OVERFLOW, //!< "headroom overflow": lossless packet beyond XOFF headroom
    EGRESS_THRESHOLD,  //!< "egress threshold": lossy packet over the egress dynamic limit
    BUFFER_FULL,       //!< "buffer full": lossy packet found no ingress buffer
    TTL_EXPIRED,       //!< "ttl expired": IPv4 TTL reached 0
    NOT_IPV4,          //!< "not ipv4": an EtherType the switch does not forward
    MALFORMED,         //!< "malformed": too short or not IPv4 version 4
    EGRESS_REFUSED,    //!< "egress refused": the egress port refused the frame (MTU, queue)
    ROUTE_DOWN,        //!< "route down": every equal-cost port to the destination is down
    COUNT              //!< number of reasons (not a reason)
};

/**
 * \ingroup ai-fabric-switch
 * \brief Why a FabricSwitch changed a packet it forwarded: the ids of the switch's mark
 *        FabricReasonCounters (SwitchCounters::marks) and of its "Mark" trace.
 */
enum class SwitchMarkReason : uint8_t
{
    ECN_CE = 0, //!< "ecn ce": WRED set the IPv4 ECN field to CE
    /// "trimmed": the MMU had no room for the packet; it was cut and re-marked TrimDscp (in the
    /// fabric: the egress port is not a last-hop port)
    TRIMMED,
    /// "trimmed last hop": as TRIMMED, on a last-hop port (one facing a host), re-marked
    /// LastHopTrimDscp (SharedBufferMmu::SetLastHopPort)
    TRIMMED_LASTHOP,
    COUNT //!< number of reasons (not a reason)
};

/**
 * \param reason a reason
 * \return its name as used in traces, counters and CSV ("no route", "headroom overflow", ...;
 *         "unknown" for a value that is not a reason)
 */
const char* SwitchDropReasonName(SwitchDropReason reason);

/**
 * \param reason a reason
 * \return its name ("ecn ce", "trimmed", "trimmed last hop"; "unknown" for a value that is not
 *         a reason)
 */
const char* SwitchMarkReasonName(SwitchMarkReason reason);

/// \return counters with every SwitchDropReason declared, id = enum value, all zero
FabricReasonCounters MakeSwitchDropCounters();
/// \return counters with every SwitchMarkReason declared, id = enum value, all zero
FabricReasonCounters MakeSwitchMarkCounters();

} // namespace ns3

#endif /* SWITCH_REASONS_H */
