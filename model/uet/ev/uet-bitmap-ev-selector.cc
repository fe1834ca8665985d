/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-bitmap-ev-selector.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetBitmapEvSelector);

TypeId
UetBitmapEvSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetBitmapEvSelector")
            .SetParent<UetEvSelector>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetBitmapEvSelector>()
            .AddAttribute(
                "EcnPenalty",
                "Penalty added to an EV whose ACK echoed ECN CE, 0..255 (htsim 1).",
                UintegerValue(1),
                MakeUintegerAccessor(&UetBitmapEvSelector::m_ecnPenalty),
                MakeFabricUintegerChecker<uint8_t>("ns3::UetBitmapEvSelector::EcnPenalty", 0, 255))
            .AddAttribute(
                "NackPenalty",
                "Penalty added to an EV whose packet was NACKed, 0..255 (htsim 4).",
                UintegerValue(4),
                MakeUintegerAccessor(&UetBitmapEvSelector::m_nackPenalty),
                MakeFabricUintegerChecker<uint8_t>("ns3::UetBitmapEvSelector::NackPenalty", 0, 255))
            .AddAttribute(
                "TimeoutPenalty",
                "Penalty added to an EV whose packet timed out, 0..255 (htsim: the "
                "maximum, 15).",
                UintegerValue(15),
                MakeUintegerAccessor(&UetBitmapEvSelector::m_timeoutPenalty),
                MakeFabricUintegerChecker<uint8_t>("ns3::UetBitmapEvSelector::TimeoutPenalty",
                                                   0,
                                                   255))
            .AddAttribute(
                "MaxPenalty",
                "Penalties saturate at this value, 1..255 (htsim 15, a 4-bit "
                "counter): an EV is skipped on at most this many visits in a row.",
                UintegerValue(15),
                MakeUintegerAccessor(&UetBitmapEvSelector::m_maxPenalty),
                MakeFabricUintegerChecker<uint8_t>("ns3::UetBitmapEvSelector::MaxPenalty", 1, 255));
    return tid;
}

UetBitmapEvSelector::UetBitmapEvSelector()
    : m_ecnPenalty(1),
      m_nackPenalty(4),
      m_timeoutPenalty(15),
      m_maxPenalty(15)
{
}

std::string
UetBitmapEvSelector::GetName() const
{
    return "bitmap";
}

Ptr<UetEvSelector>
UetBitmapEvSelector::Fork() const
{
    Ptr<UetBitmapEvSelector> copy = CopyObject<UetBitmapEvSelector>(this);
    copy->ClearState();
    return copy;
}

void
UetBitmapEvSelector::ClearState()
{
    UetEvSelector::ClearState();
    std::vector<uint8_t>().swap(m_penalties);
    m_walk = UetEvWalk();
}

void
UetBitmapEvSelector::Init(Ptr<UniformRandomVariable> rng)
{
    UetEvSelector::Init(rng);
    NS_ABORT_MSG_IF(m_maxPenalty < 1,
                    "ns3::UetBitmapEvSelector::MaxPenalty="
                        << unsigned{m_maxPenalty} << " is out of range: valid range 1..255");
    m_penalties.assign(m_evs, 0);
    m_walk.Reset(m_evs, *m_rng);
}

uint8_t
UetBitmapEvSelector::GetPenalty(uint16_t ev) const
{
    return ev < m_penalties.size() ? m_penalties[ev] : 0;
}

uint16_t
UetBitmapEvSelector::BitmapPick()
{
    // Any 2 Evs - 1 consecutive positions of the walk hold a whole round: every EV is visited.
    const uint32_t maxSkips = 2 * m_evs - 1;
    for (uint32_t skips = 0; skips < maxSkips; ++skips)
    {
        uint16_t ev = m_walk.Next(*m_rng);
        uint8_t& penalty = m_penalties[ev];
        if (penalty == 0)
        {
            return ev;
        }
        --penalty;
        ++m_counters.skipped;
    }
    // Every EV visited was penalised: spray anyway.
    ++m_counters.forced;
    return m_walk.Next(*m_rng);
}

void
UetBitmapEvSelector::BitmapFeedback(uint16_t ev, UetEvFeedback f)
{
    uint32_t add = 0;
    switch (f)
    {
    case UetEvFeedback::ACK_CLEAN:
        return;
    case UetEvFeedback::ACK_ECN:
        add = m_ecnPenalty;
        break;
    case UetEvFeedback::NACK:
        add = m_nackPenalty;
        break;
    case UetEvFeedback::TIMEOUT:
        add = m_timeoutPenalty;
        break;
    }
    if (ev >= m_penalties.size())
    {
        return; // Evs was raised after Init(): the new EVs exist from the next Init()
    }
    uint32_t p = m_penalties[ev] + add;
    m_penalties[ev] = static_cast<uint8_t>(p > m_maxPenalty ? m_maxPenalty : p);
}

uint16_t
UetBitmapEvSelector::NextEv()
{
    CountPick();
    return BitmapPick();
}

void
UetBitmapEvSelector::OnFeedback(uint16_t ev, UetEvFeedback f)
{
    if (AcceptFeedback(ev, f))
    {
        BitmapFeedback(ev, f);
    }
}

} // namespace ns3
