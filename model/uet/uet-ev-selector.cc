/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-ev-selector.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UetEvSelector");
NS_OBJECT_ENSURE_REGISTERED(UetEvSelector);
NS_OBJECT_ENSURE_REGISTERED(UetSingleEvSelector);
NS_OBJECT_ENSURE_REGISTERED(UetObliviousEvSelector);
NS_OBJECT_ENSURE_REGISTERED(UetBitmapEvSelector);
NS_OBJECT_ENSURE_REGISTERED(UetRepsEvSelector);
NS_OBJECT_ENSURE_REGISTERED(UetMixedEvSelector);

const char*
UetEvFeedbackName(UetEvFeedback f)
{
    switch (f)
    {
    case UetEvFeedback::ACK_CLEAN:
        return "ACK_CLEAN";
    case UetEvFeedback::ACK_ECN:
        return "ACK_ECN";
    case UetEvFeedback::NACK:
        return "NACK";
    case UetEvFeedback::TIMEOUT:
        return "TIMEOUT";
    }
    return "unknown";
}

// ------------------------------------------------------------------------------ UetEvSelector

TypeId
UetEvSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetEvSelector")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddAttribute(
                "Evs",
                "Number of entropy values (paths) a PDC sprays over, 1..65536 "
                "(htsim: 128 in its validations, 64 by default).",
                UintegerValue(128),
                MakeUintegerAccessor(&UetEvSelector::m_evs),
                MakeFabricUintegerChecker<uint32_t>("ns3::UetEvSelector::Evs", 1, MAX_EVS));
    return tid;
}

UetEvSelector::UetEvSelector()
    : m_evs(128)
{
}

UetEvSelector::~UetEvSelector() = default;

void
UetEvSelector::DoDispose()
{
    m_rng = nullptr;
    Object::DoDispose();
}

uint16_t
UetEvSelector::NextRetransmitEv()
{
    return NextEv();
}

void
UetEvSelector::Init(Ptr<UniformRandomVariable> rng)
{
    NS_ABORT_MSG_IF(!rng, "UetEvSelector (" << GetName() << "): Init given a null random stream");
    NS_ABORT_MSG_IF(m_evs < 1 || m_evs > MAX_EVS,
                    "ns3::UetEvSelector::Evs=" << m_evs
                                               << " is out of range: valid range 1..65536");
    ClearState();
    m_rng = rng;
}

void
UetEvSelector::ClearState()
{
    m_rng = nullptr;
    m_counters = UetEvSelectorCounters{};
}

uint32_t
UetEvSelector::GetEvs() const
{
    return m_evs;
}

const UetEvSelectorCounters&
UetEvSelector::GetCounters() const
{
    return m_counters;
}

void
UetEvSelector::CountPick()
{
    NS_ABORT_MSG_IF(!m_rng, "UetEvSelector (" << GetName() << "): NextEv before Init");
    ++m_counters.picks;
}

bool
UetEvSelector::AcceptFeedback(uint16_t ev, UetEvFeedback f)
{
    NS_ABORT_MSG_IF(!m_rng, "UetEvSelector (" << GetName() << "): OnFeedback before Init");
    auto kind = static_cast<uint32_t>(f);
    if (ev >= m_evs || kind >= UET_EV_FEEDBACK_KINDS)
    {
        NS_LOG_LOGIC("ignored feedback " << kind << " for EV " << ev << " of " << m_evs);
        ++m_counters.ignored;
        return false;
    }
    ++m_counters.feedback[kind];
    return true;
}

uint16_t
UetEvSelector::RandomEv()
{
    if (m_evs == 1)
    {
        return 0;
    }
    return static_cast<uint16_t>(m_rng->GetInteger(0, m_evs - 1));
}

Ptr<UetEvSelector>
UetEvSelector::CreateByName(const std::string& name)
{
    if (name == "single")
    {
        return CreateObject<UetSingleEvSelector>();
    }
    if (name == "oblivious")
    {
        return CreateObject<UetObliviousEvSelector>();
    }
    if (name == "bitmap")
    {
        return CreateObject<UetBitmapEvSelector>();
    }
    if (name == "reps")
    {
        return CreateObject<UetRepsEvSelector>();
    }
    if (name == "mixed")
    {
        return CreateObject<UetMixedEvSelector>();
    }
    FABRIC_INPUT_ERROR("EV selector \"" << name
                                        << "\" is unknown: valid names are single, oblivious, "
                                           "bitmap, reps, mixed");
    return nullptr;
}

// ---------------------------------------------------------------------------------- UetEvWalk

void
UetEvWalk::Reset(uint32_t n, UniformRandomVariable& rng)
{
    NS_ABORT_MSG_IF(n < 1 || n > UetEvSelector::MAX_EVS,
                    "UetEvWalk: " << n << " EVs is invalid: valid range 1..65536");
    m_n = n;
    m_pos = 0;
    NewRound(rng);
}

void
UetEvWalk::NewRound(UniformRandomVariable& rng)
{
    m_key = m_n == 1 ? 0 : static_cast<uint16_t>(rng.GetInteger(0, m_n - 1));
}

uint16_t
UetEvWalk::Next(UniformRandomVariable& rng)
{
    uint32_t pos = m_pos;
    uint32_t ev;
    if ((m_n & (m_n - 1)) == 0)
    {
        ev = pos ^ m_key; // pos, key < n = 2^k: a permutation of [0, n)
    }
    else
    {
        ev = pos + m_key; // < 2n
        if (ev >= m_n)
        {
            ev -= m_n;
        }
    }
    if (pos + 1 == m_n)
    {
        m_pos = 0;
        NewRound(rng);
    }
    else
    {
        m_pos = static_cast<uint16_t>(pos + 1);
    }
    return static_cast<uint16_t>(ev);
}

// ------------------------------------------------------------------------- UetEvRecycleBuffer

void
UetEvRecycleBuffer::Reset(uint32_t capacity)
{
    NS_ABORT_MSG_IF(capacity < 1 || capacity > MAX_CAPACITY,
                    "UetEvRecycleBuffer: capacity " << capacity << " is invalid: valid range 1..8");
    m_ev.fill(0);
    m_capacity = static_cast<uint8_t>(capacity);
    m_head = 0;
    m_count = 0;
    m_fresh = 0;
    m_cursor = 0;
}

void
UetEvRecycleBuffer::Push(uint16_t ev)
{
    m_ev[m_head] = ev;
    m_fresh |= static_cast<uint8_t>(1u << m_head);
    m_head = static_cast<uint8_t>(m_head + 1 == m_capacity ? 0 : m_head + 1);
    if (m_count < m_capacity)
    {
        ++m_count;
    }
}

bool
UetEvRecycleBuffer::HasFresh() const
{
    return m_fresh != 0;
}

uint32_t
UetEvRecycleBuffer::GetFreshCount() const
{
    uint32_t n = 0;
    for (uint8_t f = m_fresh; f != 0; f &= static_cast<uint8_t>(f - 1))
    {
        ++n;
    }
    return n;
}

uint32_t
UetEvRecycleBuffer::GetCount() const
{
    return m_count;
}

uint32_t
UetEvRecycleBuffer::GetCapacity() const
{
    return m_capacity;
}

uint32_t
UetEvRecycleBuffer::OldestSlot() const
{
    return (m_head + m_capacity - m_count) % m_capacity;
}

uint16_t
UetEvRecycleBuffer::PopFresh()
{
    uint32_t slot = OldestSlot();
    for (uint32_t i = 0; i < m_count; ++i)
    {
        if (m_fresh & (1u << slot))
        {
            m_fresh &= static_cast<uint8_t>(~(1u << slot));
            return m_ev[slot];
        }
        slot = slot + 1 == m_capacity ? 0 : slot + 1;
    }
    NS_ABORT_MSG("UetEvRecycleBuffer: PopFresh with no fresh entry");
    return 0;
}

uint16_t
UetEvRecycleBuffer::NextStored()
{
    NS_ABORT_MSG_IF(m_count == 0, "UetEvRecycleBuffer: NextStored on an empty buffer");
    if (m_cursor >= m_count)
    {
        m_cursor = 0;
    }
    uint32_t slot = (OldestSlot() + m_cursor) % m_capacity;
    m_cursor = static_cast<uint8_t>(m_cursor + 1 == m_count ? 0 : m_cursor + 1);
    m_fresh &= static_cast<uint8_t>(~(1u << slot));
    return m_ev[slot];
}

// ------------------------------------------------------------------------ UetSingleEvSelector

TypeId
UetSingleEvSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetSingleEvSelector")
                            .SetParent<UetEvSelector>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetSingleEvSelector>();
    return tid;
}

std::string
UetSingleEvSelector::GetName() const
{
    return "single";
}

Ptr<UetEvSelector>
UetSingleEvSelector::Fork() const
{
    Ptr<UetSingleEvSelector> copy = CopyObject<UetSingleEvSelector>(this);
    copy->ClearState();
    return copy;
}

uint16_t
UetSingleEvSelector::NextEv()
{
    CountPick();
    return 0;
}

void
UetSingleEvSelector::OnFeedback(uint16_t ev, UetEvFeedback f)
{
    AcceptFeedback(ev, f);
}

// --------------------------------------------------------------------- UetObliviousEvSelector

TypeId
UetObliviousEvSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetObliviousEvSelector")
                            .SetParent<UetEvSelector>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetObliviousEvSelector>();
    return tid;
}

std::string
UetObliviousEvSelector::GetName() const
{
    return "oblivious";
}

Ptr<UetEvSelector>
UetObliviousEvSelector::Fork() const
{
    Ptr<UetObliviousEvSelector> copy = CopyObject<UetObliviousEvSelector>(this);
    copy->ClearState();
    return copy;
}

void
UetObliviousEvSelector::Init(Ptr<UniformRandomVariable> rng)
{
    UetEvSelector::Init(rng);
    m_walk.Reset(m_evs, *m_rng);
}

uint16_t
UetObliviousEvSelector::NextEv()
{
    CountPick();
    return m_walk.Next(*m_rng);
}

void
UetObliviousEvSelector::OnFeedback(uint16_t ev, UetEvFeedback f)
{
    AcceptFeedback(ev, f);
}

// ------------------------------------------------------------------------ UetBitmapEvSelector

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

// -------------------------------------------------------------------------- UetRepsEvSelector

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

// ------------------------------------------------------------------------- UetMixedEvSelector

TypeId
UetMixedEvSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetMixedEvSelector")
            .SetParent<UetBitmapEvSelector>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetMixedEvSelector>()
            .AddAttribute("BufferSize",
                          "Recycled EVs kept (EVs whose ACK came back without ECN), 1..8 "
                          "(htsim's mixed strategy keeps an unbounded list).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&UetMixedEvSelector::m_bufferSize),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetMixedEvSelector::BufferSize",
                                                              1,
                                                              UetEvRecycleBuffer::MAX_CAPACITY));
    return tid;
}

UetMixedEvSelector::UetMixedEvSelector()
    : m_bufferSize(8)
{
}

std::string
UetMixedEvSelector::GetName() const
{
    return "mixed";
}

Ptr<UetEvSelector>
UetMixedEvSelector::Fork() const
{
    Ptr<UetMixedEvSelector> copy = CopyObject<UetMixedEvSelector>(this);
    copy->ClearState();
    return copy;
}

void
UetMixedEvSelector::ClearState()
{
    UetBitmapEvSelector::ClearState();
    m_recycle = UetEvRecycleBuffer();
}

void
UetMixedEvSelector::Init(Ptr<UniformRandomVariable> rng)
{
    UetBitmapEvSelector::Init(rng);
    NS_ABORT_MSG_IF(m_bufferSize < 1 || m_bufferSize > UetEvRecycleBuffer::MAX_CAPACITY,
                    "ns3::UetMixedEvSelector::BufferSize=" << m_bufferSize
                                                           << " is out of range: valid range "
                                                              "1..8");
    m_recycle.Reset(m_bufferSize);
}

const UetEvRecycleBuffer&
UetMixedEvSelector::GetBuffer() const
{
    return m_recycle;
}

uint16_t
UetMixedEvSelector::NextEv()
{
    CountPick();
    if (m_recycle.HasFresh())
    {
        ++m_counters.recycled;
        return m_recycle.PopFresh();
    }
    return BitmapPick();
}

void
UetMixedEvSelector::OnFeedback(uint16_t ev, UetEvFeedback f)
{
    if (!AcceptFeedback(ev, f))
    {
        return;
    }
    BitmapFeedback(ev, f);
    if (f == UetEvFeedback::ACK_CLEAN)
    {
        m_recycle.Push(ev);
    }
}

} // namespace ns3
