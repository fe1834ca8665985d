/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-pause-generator.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

PfcPauseGenerator::PfcPauseGenerator()
    : m_rate(400000000000ull), // 400 Gb/s
      m_refreshInterval(0)
{
}

void
PfcPauseGenerator::SetDataRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "PfcPauseGenerator DataRate " << rate << " is invalid; it must be > 0 bit/s");
    m_rate = rate;
}

DataRate
PfcPauseGenerator::GetDataRate() const
{
    return m_rate;
}

void
PfcPauseGenerator::SetEnableMask(uint8_t mask)
{
    m_enableMask = mask;
}

uint8_t
PfcPauseGenerator::GetEnableMask() const
{
    return m_enableMask;
}

void
PfcPauseGenerator::SetPauseQuanta(uint16_t quanta)
{
    NS_ABORT_MSG_IF(quanta == 0, "PauseQuanta 0 is invalid; valid range is 1..65535 quanta");
    m_pauseQuanta = quanta;
}

uint16_t
PfcPauseGenerator::GetPauseQuanta() const
{
    return m_pauseQuanta;
}

void
PfcPauseGenerator::SetRefreshInterval(Time interval)
{
    NS_ABORT_MSG_IF(interval.IsStrictlyNegative(),
                    "PauseRefreshInterval " << interval << " is invalid; it must be >= 0");
    m_refreshInterval = interval;
}

Time
PfcPauseGenerator::GetRefreshInterval() const
{
    return m_refreshInterval;
}

Time
PfcPauseGenerator::GetEffectiveRefreshInterval() const
{
    return m_refreshInterval.IsZero() ? PfcHeader::QuantaToTime(m_pauseQuanta, m_rate) / 2
                                      : m_refreshInterval;
}

void
PfcPauseGenerator::SetXoff(uint8_t priority, bool xoff)
{
    NS_ABORT_MSG_IF(priority >= NUM_PRIORITIES,
                    "PFC XOFF/XON: priority " << unsigned(priority)
                                              << " is invalid; valid priorities are 0..7");
    NS_ABORT_MSG_IF(!((m_enableMask >> priority) & 1u),
                    "PFC XOFF/XON on priority "
                        << unsigned(priority) << " but PFC is not enabled for it (PfcEnableMask 0x"
                        << std::hex << unsigned(m_enableMask) << std::dec << ")");
    if (IsXoff(priority) == xoff)
    {
        return;
    }
    if (xoff)
    {
        m_xoffMask |= static_cast<uint8_t>(1u << priority);
        Send(priority, m_pauseQuanta);
        m_refreshEvent[priority] = Simulator::Schedule(GetEffectiveRefreshInterval(),
                                                       &PfcPauseGenerator::Refresh,
                                                       this,
                                                       priority);
    }
    else
    {
        m_xoffMask &= static_cast<uint8_t>(~(1u << priority));
        m_refreshEvent[priority].Cancel();
        Send(priority, 0);
    }
}

void
PfcPauseGenerator::Refresh(uint8_t priority)
{
    if (!IsXoff(priority))
    {
        return;
    }
    Send(priority, m_pauseQuanta);
    m_refreshEvent[priority] = Simulator::Schedule(GetEffectiveRefreshInterval(),
                                                   &PfcPauseGenerator::Refresh,
                                                   this,
                                                   priority);
}

void
PfcPauseGenerator::Send(uint8_t priority, uint16_t quanta)
{
    if (m_send == nullptr)
    {
        return;
    }
    PfcHeader pfc;
    pfc.SetPauseQuanta(priority, quanta);
    m_send(m_port, pfc);
}

void
PfcPauseGenerator::Dispose()
{
    for (auto& e : m_refreshEvent)
    {
        e.Cancel();
    }
    m_port = nullptr;
    m_send = nullptr;
}

} // namespace ns3
