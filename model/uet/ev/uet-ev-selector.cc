/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-ev-selector.h"

#include "uet-mixed-ev-selector.h"
#include "uet-oblivious-ev-selector.h"
#include "uet-reps-ev-selector.h"
#include "uet-single-ev-selector.h"

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

} // namespace ns3
