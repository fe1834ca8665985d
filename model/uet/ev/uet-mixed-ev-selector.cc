/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-mixed-ev-selector.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetMixedEvSelector);

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
