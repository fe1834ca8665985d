/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-reasons.h"

namespace ns3
{

namespace
{
/// Names of SwitchDropReason, in enum order.
constexpr const char* DROP_NAMES[] = {
    "no route",
    "headroom overflow",
    "egress threshold",
    "buffer full",
    "ttl expired",
    "not ipv4",
    "malformed",
    "egress refused",
    "route down",
};
static_assert(sizeof(DROP_NAMES) / sizeof(DROP_NAMES[0]) == size_t(SwitchDropReason::COUNT),
              "one name per SwitchDropReason");

/// Names of SwitchMarkReason, in enum order.
constexpr const char* MARK_NAMES[] = {
    "ecn ce",
    "trimmed",
    "trimmed last hop",
};
static_assert(sizeof(MARK_NAMES) / sizeof(MARK_NAMES[0]) == size_t(SwitchMarkReason::COUNT),
              "one name per SwitchMarkReason");
} // namespace

const char*
SwitchDropReasonName(SwitchDropReason reason)
{
    return reason < SwitchDropReason::COUNT ? DROP_NAMES[size_t(reason)] : "unknown";
}

const char*
SwitchMarkReasonName(SwitchMarkReason reason)
{
    return reason < SwitchMarkReason::COUNT ? MARK_NAMES[size_t(reason)] : "unknown";
}

namespace
{
/**
 * \brief Counters declaring \p names, in order.
 * \tparam N number of names
 * \param names the names
 * \return the counters
 */
template <std::size_t N>
FabricReasonCounters
Declare(const char* const (&names)[N])
{
    FabricReasonCounters counters;
    for (const char* name : names)
    {
        counters.AddReason(name);
    }
    return counters;
}
} // namespace

FabricReasonCounters
MakeSwitchDropCounters()
{
    static const FabricReasonCounters prototype = Declare(DROP_NAMES); // names shared by copies
    return prototype;
}

FabricReasonCounters
MakeSwitchMarkCounters()
{
    static const FabricReasonCounters prototype = Declare(MARK_NAMES);
    return prototype;
}

} // namespace ns3
