/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-pause-receiver.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcPauseReceiver");

PfcPauseReceiver::PfcPauseReceiver()
    : m_pausedMask(&m_ownPausedMask),
      m_rate(400000000000ull), // 400 Gb/s
      m_watchdogTimeout(MilliSeconds(200)),
      m_watchdogRestore(MilliSeconds(200))
{
}

void
PfcPauseReceiver::BindMask(uint8_t* pausedMask)
{
    NS_ABORT_MSG_IF(pausedMask == nullptr, "PfcPauseReceiver::Bind given a null paused mask");
    *pausedMask = *m_pausedMask;
    m_pausedMask = pausedMask;
}

void
PfcPauseReceiver::SetDataRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "PfcPauseReceiver DataRate " << rate << " is invalid; it must be > 0 bit/s");
    m_rate = rate;
}

DataRate
PfcPauseReceiver::GetDataRate() const
{
    return m_rate;
}

void
PfcPauseReceiver::SetEnableMask(uint8_t mask)
{
    m_enableMask = mask;
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (!((mask >> p) & 1u) && IsPaused(p))
        {
            ResumeNow(p);
        }
    }
}

uint8_t
PfcPauseReceiver::GetEnableMask() const
{
    return m_enableMask;
}

void
PfcPauseReceiver::SetWatchdogTimeout(Time timeout)
{
    NS_ABORT_MSG_IF(timeout.IsStrictlyNegative(),
                    "PfcWatchdogTimeout " << timeout << " is invalid; it must be >= 0");
    m_watchdogTimeout = timeout;
}

Time
PfcPauseReceiver::GetWatchdogTimeout() const
{
    return m_watchdogTimeout;
}

void
PfcPauseReceiver::SetWatchdogRestore(Time restore)
{
    NS_ABORT_MSG_IF(restore.IsStrictlyNegative(),
                    "PfcWatchdogRestore " << restore << " is invalid; it must be >= 0");
    m_watchdogRestore = restore;
}

Time
PfcPauseReceiver::GetWatchdogRestore() const
{
    return m_watchdogRestore;
}

void
PfcPauseReceiver::Receive(const PfcHeader& pfc)
{
    if (!m_state)
    {
        m_state = std::make_unique<State>();
    }
    State& st = *m_state;
    Time now = Simulator::Now();
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (!pfc.IsPriorityEnabled(p))
        {
            continue;
        }
        uint16_t quanta = pfc.GetPauseQuanta(p);
        m_pauseRxTrace(p, quanta);
        (quanta == 0 ? st.counters.xonRx[p] : st.counters.pauseRx[p])++;
        if (!((m_enableMask >> p) & 1u) || now < st.stormUntil[p])
        {
            st.counters.pauseIgnored[p]++;
            continue;
        }
        if (quanta == 0)
        {
            ResumeNow(p);
            continue;
        }
        if (!IsPaused(p))
        {
            st.pauseStart[p] = now;
            *m_pausedMask |= static_cast<uint8_t>(1u << p);
        }
        else if (!m_watchdogTimeout.IsZero() && now - st.pauseStart[p] >= m_watchdogTimeout)
        {
            NS_LOG_WARN("PFC storm on priority " << unsigned(p) << ": paused for "
                                                 << (now - st.pauseStart[p]).As(Time::MS));
            st.counters.stormsDetected[p]++;
            m_stormTrace(p);
            st.stormUntil[p] = now + m_watchdogRestore;
            ResumeNow(p);
            continue;
        }
        st.pausedUntil[p] = now + PfcHeader::QuantaToTime(quanta, m_rate);
        st.resumeEvent[p].Cancel();
        st.resumeEvent[p] =
            Simulator::Schedule(st.pausedUntil[p] - now, &PfcPauseReceiver::Resume, this, p);
    }
}

void
PfcPauseReceiver::ResumeNow(uint8_t priority)
{
    if (m_state)
    {
        m_state->resumeEvent[priority].Cancel();
    }
    Resume(priority);
}

void
PfcPauseReceiver::Resume(uint8_t priority)
{
    if (!IsPaused(priority))
    {
        return; // a priority is paused only by a PFC frame, which allocated m_state
    }
    Time now = Simulator::Now();
    *m_pausedMask &= static_cast<uint8_t>(~(1u << priority));
    m_state->counters.pausedTime[priority] += now - m_state->pauseStart[priority];
    m_state->pausedUntil[priority] = now;
    if (m_resumed != nullptr)
    {
        m_resumed(m_port);
    }
}

Time
PfcPauseReceiver::GetPausedUntil(uint8_t priority) const
{
    return IsPaused(priority) ? m_state->pausedUntil[priority] : Simulator::Now();
}

bool
PfcPauseReceiver::IsInStormRestore(uint8_t priority) const
{
    return m_state && Simulator::Now() < m_state->stormUntil[priority];
}

void
PfcPauseReceiver::Dispose()
{
    if (m_state)
    {
        for (auto& e : m_state->resumeEvent)
        {
            e.Cancel();
        }
    }
    m_port = nullptr;
    m_resumed = nullptr;
}

} // namespace ns3
