/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-reps-ev-selector.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UetRepsEvSelector");
NS_OBJECT_ENSURE_REGISTERED(UetRepsEvSelector);

TypeId
UetRepsEvSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetRepsEvSelector")
            .SetParent<UetEvSelector>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetRepsEvSelector>()
            .AddAttribute("BufferSize",
                          "Recycled EVs kept (EVs whose ACK came back without ECN), 1..8 "
                          "(REPS paper and htsim: 8).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&UetRepsEvSelector::m_bufferSize),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetRepsEvSelector::BufferSize",
                                                              1,
                                                              UetEvRecycleBuffer::MAX_CAPACITY))
            .AddAttribute("Freezing",
                          "A failure (TIMEOUT; NACK too with FreezeOnNack) freezes the "
                          "selector to its known-good EVs for FreezeDuration (htsim: on).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UetRepsEvSelector::m_freezing),
                          MakeBooleanChecker())
            .AddAttribute("FreezeOnNack",
                          "A NACK freezes as a TIMEOUT does (htsim: off; with trimming a "
                          "NACK reports congestion, not a failed path).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UetRepsEvSelector::m_freezeOnNack),
                          MakeBooleanChecker())
            .AddAttribute(
                "FreezeDuration",
                "How long a freeze lasts, >= 1 ns (htsim exit_freeze_after: 10 ms).",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&UetRepsEvSelector::m_freezeDuration),
                MakeFabricTimeChecker("ns3::UetRepsEvSelector::FreezeDuration", NanoSeconds(1)))
            .AddAttribute(
                "ExploreAfterFreeze",
                "Random EVs picked after a freeze ends, before recycling again, "
                "0..255 (htsim 16).",
                UintegerValue(16),
                MakeUintegerAccessor(&UetRepsEvSelector::m_exploreAfterFreeze),
                MakeFabricUintegerChecker<uint32_t>("ns3::UetRepsEvSelector::ExploreAfterFreeze",
                                                    0,
                                                    255));
    return tid;
}

UetRepsEvSelector::UetRepsEvSelector()
    : m_bufferSize(8),
      m_freezing(true),
      m_freezeOnNack(false),
      m_freezeDuration(MilliSeconds(10)),
      m_exploreAfterFreeze(16)
{
}

std::string
UetRepsEvSelector::GetName() const
{
    return "reps";
}

Ptr<UetEvSelector>
UetRepsEvSelector::Fork() const
{
    Ptr<UetRepsEvSelector> copy = CopyObject<UetRepsEvSelector>(this);
    copy->ClearState();
    return copy;
}

void
UetRepsEvSelector::ClearState()
{
    UetEvSelector::ClearState();
    m_state = State{};
}

void
UetRepsEvSelector::Init(Ptr<UniformRandomVariable> rng)
{
    UetEvSelector::Init(rng);
    NS_ABORT_MSG_IF(m_bufferSize < 1 || m_bufferSize > UetEvRecycleBuffer::MAX_CAPACITY,
                    "ns3::UetRepsEvSelector::BufferSize=" << m_bufferSize
                                                          << " is out of range: valid range "
                                                             "1..8");
    NS_ABORT_MSG_IF(m_exploreAfterFreeze > 255,
                    "ns3::UetRepsEvSelector::ExploreAfterFreeze="
                        << m_exploreAfterFreeze << " is out of range: valid range 0..255");
    NS_ABORT_MSG_IF(m_freezeDuration < NanoSeconds(1),
                    "ns3::UetRepsEvSelector::FreezeDuration="
                        << FabricFormatTime(m_freezeDuration)
                        << " is out of range: valid range >= 1ns");
    m_state.buffer.Reset(m_bufferSize);
}

bool
UetRepsEvSelector::IsFrozen() const
{
    return m_state.frozen;
}

const UetEvRecycleBuffer&
UetRepsEvSelector::GetBuffer() const
{
    return m_state.buffer;
}

void
UetRepsEvSelector::CheckFreezeEnd()
{
    if (m_state.frozen && Simulator::Now() >= m_state.freezeEnd)
    {
        NS_LOG_LOGIC("REPS freeze ends; exploring " << m_exploreAfterFreeze << " EVs");
        m_state.frozen = false;
        m_state.buffer.Reset(m_bufferSize);
        m_state.exploreLeft = static_cast<uint8_t>(m_exploreAfterFreeze);
    }
}

void
UetRepsEvSelector::MaybeFreeze()
{
    if (m_freezing && !m_state.frozen && m_state.exploreLeft == 0)
    {
        m_state.frozen = true;
        m_state.freezeEnd = Simulator::Now() + m_freezeDuration;
        ++m_counters.freezes;
        NS_LOG_LOGIC("REPS freezes until " << m_state.freezeEnd.As(Time::US) << " on "
                                           << m_state.buffer.GetCount() << " known EVs");
    }
}

uint16_t
UetRepsEvSelector::NextEv()
{
    CountPick();
    CheckFreezeEnd();
    if (m_state.exploreLeft > 0)
    {
        --m_state.exploreLeft;
        ++m_counters.explored;
        return RandomEv();
    }
    if (m_state.frozen)
    {
        if (m_state.buffer.GetCount() == 0)
        {
            ++m_counters.explored; // nothing is known to be good
            return RandomEv();
        }
        ++m_counters.recycled;
        return m_state.buffer.NextStored();
    }
    if (m_state.buffer.HasFresh())
    {
        ++m_counters.recycled;
        return m_state.buffer.PopFresh();
    }
    ++m_counters.explored;
    return RandomEv();
}

uint16_t
UetRepsEvSelector::NextRetransmitEv()
{
    CheckFreezeEnd();
    if (m_state.buffer.GetCount() == 0)
    {
        return NextEv();
    }
    CountPick();
    ++m_counters.recycled;
    return m_state.buffer.NextStored();
}

void
UetRepsEvSelector::OnFeedback(uint16_t ev, UetEvFeedback f)
{
    if (!AcceptFeedback(ev, f))
    {
        return;
    }
    CheckFreezeEnd();
    switch (f)
    {
    case UetEvFeedback::ACK_CLEAN:
        m_state.buffer.Push(ev);
        break;
    case UetEvFeedback::ACK_ECN:
        break;
    case UetEvFeedback::NACK:
        if (m_freezeOnNack)
        {
            MaybeFreeze();
        }
        break;
    case UetEvFeedback::TIMEOUT:
        MaybeFreeze();
        break;
    }
}

} // namespace ns3
