/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the receiving side of IEEE 802.1Qbb PFC (which priorities the peer pauses).
 */
#ifndef PFC_PAUSE_RECEIVER_H
#define PFC_PAUSE_RECEIVER_H

#include "pfc-header.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <memory>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief Honours the PFC frames a port receives: which of its priorities the peer pauses, until
 *        when, and the PFC watchdog that ends pause storms.
 *
 * IEEE 802.1Qbb clause 36 / IEEE 802.3 Annex 31D: a PFC frame pauses each priority its
 * priority-enable vector lists for time[i] quanta of 512 bit times at this port's rate,
 * replacing the remaining time of an earlier pause; a time of 0 (XON) resumes the priority at
 * once. Priorities outside the enable mask (the port's PfcEnableMask) ignore PFC. A paused
 * priority only stops *starting* frames: the port's transmitter consults the paused set (see
 * Bind()) before it picks the next frame, and a frame already serializing completes.
 *
 * PFC watchdog (operations practice, e.g. SONiC pfcwd, where a queue paused continuously for
 * ~100-200 ms is declared stormed): when a pause arrives for a priority that has been paused
 * continuously (by refreshed pauses, without resuming in between) for at least the watchdog
 * timeout, the receiver declares a storm instead of honouring it: the priority resumes, the
 * storm is counted and traced, and every pause for that priority is ignored for the restore
 * time. The check runs when a pause arrives, so a storm is declared at the first refresh at or
 * after pause start + timeout.
 *
 * A plain member of its port (PfcNetDevice), not an ns-3 Object: the port forwards its
 * attributes (PfcEnableMask, PfcWatchdogTimeout, PfcWatchdogRestore, DataRate) and exposes its
 * trace sources (PfcPauseRx, PfcStorm). Nothing here runs per data frame: the port reads the
 * paused set from a byte of its own (Bind()).
 */
class PfcPauseReceiver
{
  public:
    /// Number of priorities (IEEE 802.1Q).
    static constexpr uint8_t NUM_PRIORITIES = PfcHeader::NUM_PRIORITIES;

    /// What the receiver counted, per priority.
    struct Counters
    {
        std::array<uint64_t, 8> pauseRx{};        //!< non-zero pause times received
        std::array<uint64_t, 8> xonRx{};          //!< XONs (time 0) received
        std::array<uint64_t, 8> pauseIgnored{};   //!< times received for a disabled or stormed
                                                  //!< priority (not acted on)
        std::array<Time, 8> pausedTime{};         //!< total time paused, counted at each resume
        std::array<uint64_t, 8> stormsDetected{}; //!< watchdog storm declarations
    };

    /// Defaults: every priority PFC-enabled, 400 Gb/s, watchdog 200 ms / restore 200 ms.
    PfcPauseReceiver();
    /// Not copyable: events and Bind() refer to this object.
    PfcPauseReceiver(const PfcPauseReceiver&) = delete;
    /// Not copyable. \return *this
    PfcPauseReceiver& operator=(const PfcPauseReceiver&) = delete;

    /**
     * \brief Tie the receiver to its port.
     *
     * The paused set (bit i = priority i paused) is kept in \p pausedMask, a byte of the port
     * that its transmitter reads for every frame (one cache line it touches anyway); only this
     * receiver writes it. \p port's RESUMED member is called after a priority resumed (expiry,
     * XON, storm, PFC disabled), with the byte already updated, so the port restarts its
     * transmitter. A member bound at compile time rather than an ns-3 Callback: a fabric has
     * tens of thousands of ports, and building and assigning a Callback per port costs more
     * than everything else here. Until Bind() is called the receiver keeps the set itself and
     * calls nothing.
     * \tparam T the port's class
     * \tparam RESUMED the member to call, `void T::RESUMED()`
     * \param pausedMask where the paused set lives (must outlive this object; normally a member
     *        of the same port); null aborts
     * \param port the object whose RESUMED runs (not owned; null: nothing is called)
     */
    template <typename T, void (T::*RESUMED)()>
    void Bind(uint8_t* pausedMask, T* port)
    {
        BindMask(pausedMask);
        m_port = port;
        m_resumed = port == nullptr ? nullptr : &CallMember<T, RESUMED>;
    }

    /**
     * \brief Keep the paused set in \p pausedMask, calling nothing on resume (see the other
     *        Bind()).
     * \param pausedMask where the paused set lives (must outlive this object); null aborts
     */
    void Bind(uint8_t* pausedMask)
    {
        BindMask(pausedMask);
        m_port = nullptr;
        m_resumed = nullptr;
    }

    /**
     * \brief Set the rate pause times are measured at (the port's DataRate).
     * \param rate bits/s, > 0 (aborts on 0)
     */
    void SetDataRate(DataRate rate);
    /// \return the rate pause times are measured at
    DataRate GetDataRate() const;

    /**
     * \brief Set the PFC-enabled priorities (the port's PfcEnableMask attribute).
     *
     * A priority that is paused and gets disabled resumes at once.
     * \param mask bit i set = pauses received for priority i are honoured; 0 disables PFC
     */
    void SetEnableMask(uint8_t mask);
    /// \return the PFC-enabled priorities
    uint8_t GetEnableMask() const;

    /**
     * \brief Set the watchdog timeout (the port's PfcWatchdogTimeout attribute).
     * \param timeout continuous pause after which a further pause declares a storm, >= 0;
     *        0 disables the watchdog (aborts if negative)
     */
    void SetWatchdogTimeout(Time timeout);
    /// \return the watchdog timeout (0 = off)
    Time GetWatchdogTimeout() const;
    /**
     * \brief Set how long pauses are ignored after a storm (the port's PfcWatchdogRestore).
     * \param restore duration, >= 0 (aborts if negative)
     */
    void SetWatchdogRestore(Time restore);
    /// \return how long pauses are ignored after a storm
    Time GetWatchdogRestore() const;

    /**
     * \brief Act on the body of a received PFC frame (opcode already checked by the port).
     *
     * For each listed priority, in priority order: trace PfcPauseRx and count the time (pause
     * or XON); then, unless the priority is disabled or in its post-storm restore time
     * (counted as ignored): XON resumes it; a pause either declares a storm (watchdog, see the
     * class) or (re)starts the priority's pause for QuantaToTime(time) from now.
     * \param pfc the PFC body
     */
    void Receive(const PfcHeader& pfc);

    /**
     * \param priority 0..7 (not checked)
     * \return true if the peer currently pauses that priority
     */
    bool IsPaused(uint8_t priority) const
    {
        return (*m_pausedMask >> priority) & 1u;
    }

    /// \return the paused set, bit i = priority i
    uint8_t GetPausedMask() const
    {
        return *m_pausedMask;
    }

    /**
     * \param priority 0..7 (not checked)
     * \return when the current pause of that priority ends (now if not paused)
     */
    Time GetPausedUntil(uint8_t priority) const;

    /**
     * \brief When the current continuous pause of a priority began: the pause that found the
     *        priority running; refreshes while it is paused continue it, a resume (expiry,
     *        XON, storm, PFC disabled) ends it. What the watchdog measures, and what monitors
     *        add to the counted pausedTime for a pause still running (FabricMonitor).
     * \param priority 0..7 (not checked)
     * \return the start of the pause; meaningful only while IsPaused(priority)
     */
    Time GetPauseStart(uint8_t priority) const
    {
        return m_state ? m_state->pauseStart[priority] : Time();
    }

    /**
     * \param priority 0..7 (not checked)
     * \return true if pauses for that priority are being ignored after a storm
     */
    bool IsInStormRestore(uint8_t priority) const;

    /// \return the counters (pausedTime covers finished pauses only)
    const Counters& GetCounters() const
    {
        static const Counters none;
        return m_state ? m_state->counters : none;
    }

    /**
     * \brief Cancel the pending expiries and forget the port (the port's DoDispose).
     * The paused set is left as it is.
     */
    void Dispose();

    /// \return the PfcPauseRx trace: priority, quanta (0 = XON), for every listed priority
    TracedCallback<uint8_t, uint16_t>& GetPauseRxTrace()
    {
        return m_pauseRxTrace;
    }

    /// \return the PfcStorm trace: priority, when the watchdog declares a storm
    TracedCallback<uint8_t>& GetStormTrace()
    {
        return m_stormTrace;
    }

  private:
    /**
     * \brief Call a port's member.
     * \tparam T the port's class
     * \tparam RESUMED the member
     * \param port the port, a T
     */
    template <typename T, void (T::*RESUMED)()>
    static void CallMember(void* port)
    {
        (static_cast<T*>(port)->*RESUMED)();
    }

    /// Move the paused set to \p pausedMask (Bind). \param pausedMask non-null (aborts)
    void BindMask(uint8_t* pausedMask);
    /// End a priority's pause, if it is paused: count it, clear the bit, call the port.
    /// \param priority 0..7
    void Resume(uint8_t priority);
    /// Cancel a priority's expiry and resume it. \param priority 0..7
    void ResumeNow(uint8_t priority);

    uint8_t* m_pausedMask;             //!< the paused set (see Bind())
    uint8_t m_ownPausedMask{0};        //!< the paused set until Bind()
    uint8_t m_enableMask{0xff};        //!< PFC-enabled priorities
    void* m_port{nullptr};             //!< the port (Bind)
    void (*m_resumed)(void*){nullptr}; //!< calls the port after a resume
    DataRate m_rate;                   //!< rate of a pause quantum
    Time m_watchdogTimeout;            //!< storm detection (0 = off)
    Time m_watchdogRestore;            //!< pauses ignored this long after a storm

    /// What the PFC frames received have set (~700 B): allocated at the first one, so that the
    /// many ports that never receive one carry only a pointer.
    struct State
    {
        std::array<Time, NUM_PRIORITIES> pausedUntil;    //!< end of each pause
        std::array<Time, NUM_PRIORITIES> pauseStart;     //!< start of each continuous pause
        std::array<Time, NUM_PRIORITIES> stormUntil;     //!< pauses ignored until then
        std::array<EventId, NUM_PRIORITIES> resumeEvent; //!< expiry of each pause
        Counters counters;                               //!< what happened
    };

    std::unique_ptr<State> m_state; //!< null until the first PFC frame (see State)
    TracedCallback<uint8_t, uint16_t> m_pauseRxTrace; //!< PFC time received, per priority
    TracedCallback<uint8_t> m_stormTrace;             //!< watchdog storm, per priority
};

} // namespace ns3

#endif /* PFC_PAUSE_RECEIVER_H */
