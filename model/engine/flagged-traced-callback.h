/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a TracedCallback that reports whether it has sinks in a bit of its owner.
 */
#ifndef FLAGGED_TRACED_CALLBACK_H
#define FLAGGED_TRACED_CALLBACK_H

#include "ns3/abort.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief An ns-3 TracedCallback that keeps one bit of its owner's mask set while it has sinks.
 *
 * A device checks its per-frame traces for sinks on every frame; a TracedCallback answers from
 * its own list head (24 bytes each), so nine traces spread over four cache lines that a frame
 * touches for nothing when, as usual, no sink is connected. With this class the owner tests
 * one word it keeps in its hot cache line instead.
 *
 * It is a TracedCallback in every other respect: declare the trace source with
 * MakeTraceSourceAccessor as usual (the accessor connects through this type, so the bit
 * follows Config::Connect, TraceConnect, pcap helpers and direct connections alike), fire it
 * with operator(). Bind() once, in the owner's constructor, before anything connects.
 *
 * \tparam Ts the trace's argument types, as for TracedCallback
 */
template <typename... Ts>
class FlaggedTracedCallback : public TracedCallback<Ts...>
{
  public:
    /**
     * \brief Tie the trace to a bit of its owner's mask.
     * \param mask the owner's mask word (must outlive this object, normally a member of the
     *        same owner)
     * \param bit the bit (a single set bit) kept set while the trace has a sink
     *
     * Aborts if \p mask is null or \p bit is not a single bit.
     */
    void Bind(uint32_t* mask, uint32_t bit)
    {
        NS_ABORT_MSG_IF(mask == nullptr, "FlaggedTracedCallback::Bind given a null mask");
        NS_ABORT_MSG_IF(bit == 0 || (bit & (bit - 1)) != 0,
                        "FlaggedTracedCallback::Bind: bit 0x" << std::hex << bit << std::dec
                                                              << " must be a single set bit");
        m_mask = mask;
        m_bit = bit;
        Update();
    }

    /**
     * \brief Connect a sink (see TracedCallback::ConnectWithoutContext); sets the bit.
     * \param callback the sink
     */
    void ConnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::ConnectWithoutContext(callback);
        Update();
    }

    /**
     * \brief Connect a sink with a context (see TracedCallback::Connect); sets the bit.
     * \param callback the sink
     * \param path the context given to the sink
     */
    void Connect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Connect(callback, path);
        Update();
    }

    /**
     * \brief Disconnect a sink; clears the bit when none is left.
     * \param callback the sink
     */
    void DisconnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::DisconnectWithoutContext(callback);
        Update();
    }

    /**
     * \brief Disconnect a sink connected with a context; clears the bit when none is left.
     * \param callback the sink
     * \param path its context
     */
    void Disconnect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Disconnect(callback, path);
        Update();
    }

  private:
    /// Make the owner's bit say whether this trace has a sink.
    void Update()
    {
        if (m_mask == nullptr)
        {
            return;
        }
        if (this->IsEmpty())
        {
            *m_mask &= ~m_bit;
        }
        else
        {
            *m_mask |= m_bit;
        }
    }

    uint32_t* m_mask{nullptr}; //!< the owner's mask
    uint32_t m_bit{0};         //!< this trace's bit in it
};

} // namespace ns3

#endif /* FLAGGED_TRACED_CALLBACK_H */
