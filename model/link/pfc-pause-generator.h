/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the sending side of IEEE 802.1Qbb PFC (XOFF/XON towards the peer, with refresh).
 */
#ifndef PFC_PAUSE_GENERATOR_H
#define PFC_PAUSE_GENERATOR_H

#include "pfc-header.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief Decides the PFC frames a port sends: XOFF/XON per priority on its owner's request,
 *        and the refresh of each XOFF before the peer's pause expires.
 *
 * The owner of a port (a switch MMU whose ingress crossed its XOFF threshold, a NIC that cannot
 * drain) asks for XOFF or XON on a priority with SetXoff(). XOFF sends a PFC frame pausing that
 * priority for PauseQuanta quanta of 512 bit times and, while it holds, re-sends it every
 * refresh interval, so that the peer never resumes by expiry while congestion persists (IEEE
 * 802.1Qbb clause 36: a pause lasts only its time; a sender refreshes it before it expires).
 * XON sends a PFC frame with time 0 and stops the refresh. Asking for the current state sends
 * nothing. Each priority is handled alone (one PFC frame per request, listing only that priority).
 *
 * The frames are handed to the port (Bind(): PfcNetDevice::SendPfcFrame(), which frames them,
 * counts and traces them and sends them ahead of data). A plain member of
 * its port, not an ns-3 Object: the port forwards its attributes (PauseQuanta,
 * PauseRefreshInterval, PfcEnableMask, DataRate). Nothing here runs per data frame.
 */
class PfcPauseGenerator
{
  public:
    /// Number of priorities (IEEE 802.1Q).
    static constexpr uint8_t NUM_PRIORITIES = PfcHeader::NUM_PRIORITIES;

    /// Defaults: every priority PFC-enabled, 400 Gb/s, 65535 quanta, automatic refresh.
    PfcPauseGenerator();
    /// Not copyable: scheduled refreshes refer to this object.
    PfcPauseGenerator(const PfcPauseGenerator&) = delete;
    /// Not copyable. \return *this
    PfcPauseGenerator& operator=(const PfcPauseGenerator&) = delete;

    /**
     * \brief Set where PFC frames go: \p port's SEND member (PfcNetDevice::SendPfcFrame).
     *
     * Bound at compile time rather than through an ns-3 Callback, which costs more to build
     * and assign per port than everything else here (see PfcPauseReceiver::Bind). Until a
     * port is set, requests change the XOFF state and schedule refreshes but send nothing.
     * \tparam T the port's class
     * \tparam SEND the member to call, `void T::SEND(const PfcHeader&)`
     * \param port the object whose SEND runs (not owned; null: nothing is sent)
     */
    template <typename T, void (T::*SEND)(const PfcHeader&)>
    void Bind(T* port)
    {
        m_port = port;
        m_send = port == nullptr ? nullptr : &CallMember<T, SEND>;
    }

    /**
     * \brief Set the rate pause times are measured at (the port's DataRate).
     * \param rate bits/s, > 0 (aborts on 0)
     */
    void SetDataRate(DataRate rate);
    /// \return the rate pause times are measured at
    DataRate GetDataRate() const;

    /**
     * \brief Set the priorities that may be paused (the port's PfcEnableMask attribute).
     * \param mask bit i set = SetXoff() may pause priority i
     */
    void SetEnableMask(uint8_t mask);
    /// \return the priorities that may be paused
    uint8_t GetEnableMask() const;

    /**
     * \brief Set the pause time XOFF frames carry (the port's PauseQuanta attribute).
     * \param quanta 1..65535 quanta of 512 bit times (aborts on 0, which would be an XON)
     */
    void SetPauseQuanta(uint16_t quanta);
    /// \return the pause time XOFF frames carry, quanta
    uint16_t GetPauseQuanta() const;

    /**
     * \brief Set how often an XOFF is re-sent while it holds (the port's PauseRefreshInterval).
     * \param interval > 0, or 0 for half the pause time of PauseQuanta at DataRate (aborts if
     *        negative)
     */
    void SetRefreshInterval(Time interval);
    /// \return the configured refresh interval (0 = automatic)
    Time GetRefreshInterval() const;
    /**
     * \return the interval actually used: the configured one, or if it is 0 half of
     *         PfcHeader::QuantaToTime(PauseQuanta, DataRate)
     */
    Time GetEffectiveRefreshInterval() const;

    /**
     * \brief The owner's PFC state of one priority towards the peer.
     *
     * true, from XON: send a PFC frame pausing \p priority for PauseQuanta and schedule its
     * refresh after GetEffectiveRefreshInterval(); false, from XOFF: cancel the refresh and
     * send an XON (time 0). Repeating the current state sends nothing.
     * \param priority 0..7, enabled in the enable mask (aborts otherwise, naming the value)
     * \param xoff true = pause the peer, false = resume it
     */
    void SetXoff(uint8_t priority, bool xoff);

    /**
     * \param priority 0..7 (not checked)
     * \return true if the peer is held in XOFF on that priority
     */
    bool IsXoff(uint8_t priority) const
    {
        return (m_xoffMask >> priority) & 1u;
    }

    /// \return the priorities held in XOFF, bit i = priority i
    uint8_t GetXoffMask() const
    {
        return m_xoffMask;
    }

    /**
     * \brief Cancel the pending refreshes and forget the port (the port's DoDispose).
     * The XOFF state is left as it is.
     */
    void Dispose();

  private:
    /**
     * \brief Call a port's member.
     * \tparam T the port's class
     * \tparam SEND the member
     * \param port the port, a T
     * \param pfc the PFC body to send
     */
    template <typename T, void (T::*SEND)(const PfcHeader&)>
    static void CallMember(void* port, const PfcHeader& pfc)
    {
        (static_cast<T*>(port)->*SEND)(pfc);
    }

    /// Re-send the XOFF of a priority while it holds, and schedule the next refresh.
    /// \param priority 0..7
    void Refresh(uint8_t priority);
    /// Send a PFC frame for one priority. \param priority 0..7 \param quanta its time
    void Send(uint8_t priority, uint16_t quanta);

    uint8_t m_enableMask{0xff};                         //!< priorities that may be paused
    uint8_t m_xoffMask{0};                              //!< priorities held in XOFF
    uint16_t m_pauseQuanta{0xffff};                     //!< time of XOFF frames, quanta
    DataRate m_rate;                                    //!< rate of a pause quantum
    Time m_refreshInterval;                             //!< XOFF refresh period (0 = auto)
    void* m_port{nullptr};                              //!< the port (Bind)
    void (*m_send)(void*, const PfcHeader&){nullptr};   //!< calls the port's SEND
    std::array<EventId, NUM_PRIORITIES> m_refreshEvent; //!< next refresh per priority
};

} // namespace ns3

#endif /* PFC_PAUSE_GENERATOR_H */
