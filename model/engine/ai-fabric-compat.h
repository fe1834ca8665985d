/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: every line that depends on the ns-3 version, in one place.
 */
#ifndef AI_FABRIC_COMPAT_H
#define AI_FABRIC_COMPAT_H

#include "ns3/enum.h"
#include "ns3/event-id.h"

/**
 * \file
 * \ingroup ai-fabric-engine
 * The ns-3 API differences between the releases ai-fabric builds against (ns-3.37, Debian's,
 * through the newest, ns-3.48), behind helpers the rest of the module calls. Nothing else in
 * the module tests the ns-3 version.
 *
 * AI_FABRIC_NS3_VERSION is the ns-3 release as one number, 300 + minor (337 for ns-3.37, 348
 * for ns-3.48; 999 for a development tree). The module's CMakeLists.txt defines it in both
 * build modes (standalone: from find_package(ns3)'s version; in-tree: from ns-3's VERSION
 * file) and exports it to every target that links the module.
 */

#ifndef AI_FABRIC_NS3_VERSION
#error "AI_FABRIC_NS3_VERSION undefined: 300 + ns-3 minor, e.g. 348 (CMakeLists.txt sets it)"
#endif
#if AI_FABRIC_NS3_VERSION < 337
#error "ai-fabric needs ns-3.37 or newer (AI_FABRIC_NS3_VERSION >= 337)"
#endif

namespace ns3
{
/**
 * \ingroup ai-fabric-engine
 * \brief Helpers that hide the ns-3 API differences between releases (see ai-fabric-compat.h).
 */
namespace compat
{

#if AI_FABRIC_NS3_VERSION >= 341
/// What SimulatorImpl::Stop(const Time&) returns: the stop event since ns-3.41, nothing before.
using StopEventId = EventId;
#else
/// What SimulatorImpl::Stop(const Time&) returns: the stop event since ns-3.41, nothing before.
using StopEventId = void;
#endif

/**
 * \brief Turn the stop event scheduled by a SimulatorImpl::Stop(const Time&) override into
 *        that method's return value (`return compat::ToStopEventId(id);` works with both).
 * \param id the event that calls Simulator::Stop()
 * \return \p id (ns-3 >= 3.41), or nothing (older releases)
 */
inline StopEventId
ToStopEventId(const EventId& id)
{
#if AI_FABRIC_NS3_VERSION >= 341
    return id;
#else
    (void)id;
#endif
}

/**
 * \brief Whether an event is scheduled and has neither run nor been cancelled
 *        (EventId::IsPending() since ns-3.42, EventId::IsRunning() before).
 * \param id the event
 * \return true while the event is pending
 */
inline bool
IsPending(const EventId& id)
{
#if AI_FABRIC_NS3_VERSION >= 342
    return id.IsPending();
#else
    return id.IsRunning();
#endif
}

/**
 * \brief The attribute accessor of an enum data member (since ns-3.41 MakeEnumAccessor needs
 *        the enum type as its first template argument).
 * \tparam E the enum type of the member
 * \tparam M the pointer-to-member type (deduced)
 * \param member pointer to the enum data member, e.g. `&SharedBufferMmu::m_mode`
 * \return the accessor, for TypeId::AddAttribute
 */
template <typename E, typename M>
Ptr<const AttributeAccessor>
MakeEnumAccessor(M member)
{
#if AI_FABRIC_NS3_VERSION >= 341
    return ns3::MakeEnumAccessor<E>(member);
#else
    return ns3::MakeEnumAccessor(member);
#endif
}

} // namespace compat
} // namespace ns3

#endif /* AI_FABRIC_COMPAT_H */
