/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: trace sources of a plain member object, declared under its owner's TypeId.
 */
#ifndef MEMBER_TRACE_SOURCE_ACCESSOR_H
#define MEMBER_TRACE_SOURCE_ACCESSOR_H

#include "ns3/trace-source-accessor.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief A trace source that lives in a plain member object of an ns-3 class, for that class's
 *        TypeId (AddTraceSource).
 *
 * ns-3's MakeTraceSourceAccessor takes a data member of the class itself. A class that keeps
 * part of its work in a member object that is not an ns-3 Object (PfcNetDevice's
 * PfcPauseReceiver) uses this instead, so that the trace keeps its name and path under the
 * owner ("/NodeList/.../$ns3::PfcNetDevice/PfcPauseRx") and behaves exactly like a direct
 * one for Config::Connect, TraceConnect and TraceConnectWithoutContext.
 *
 * \tparam T the ns-3 class (deduced)
 * \tparam M the member object's class (deduced)
 * \tparam SOURCE the TracedCallback type (deduced)
 * \param member the member object, e.g. &PfcNetDevice::m_pauseReceiver (the caller needs
 *        access to it, normally T::GetTypeId)
 * \param get the member object's function returning the trace
 * \return the accessor
 */
template <typename T, typename M, typename SOURCE>
Ptr<const TraceSourceAccessor>
MakeMemberTraceSourceAccessor(M T::*member, SOURCE& (M::*get)())
{
    struct Accessor : public TraceSourceAccessor
    {
        /// \param obj an object \return its trace, or null if it is not a T
        SOURCE* Source(ObjectBase* obj) const
        {
            T* p = dynamic_cast<T*>(obj);
            return p == nullptr ? nullptr : &((p->*m_member).*m_get)();
        }

        bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            SOURCE* s = Source(obj);
            if (s != nullptr)
            {
                s->ConnectWithoutContext(cb);
            }
            return s != nullptr;
        }

        bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            SOURCE* s = Source(obj);
            if (s != nullptr)
            {
                s->Connect(cb, context);
            }
            return s != nullptr;
        }

        bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            SOURCE* s = Source(obj);
            if (s != nullptr)
            {
                s->DisconnectWithoutContext(cb);
            }
            return s != nullptr;
        }

        bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            SOURCE* s = Source(obj);
            if (s != nullptr)
            {
                s->Disconnect(cb, context);
            }
            return s != nullptr;
        }

        M T::*m_member;        //!< the member object
        SOURCE& (M::*m_get)(); //!< its trace
    }* accessor = new Accessor();

    accessor->m_member = member;
    accessor->m_get = get;
    return Ptr<const TraceSourceAccessor>(accessor, false);
}

} // namespace ns3

#endif /* MEMBER_TRACE_SOURCE_ACCESSOR_H */
