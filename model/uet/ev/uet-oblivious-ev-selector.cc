/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-oblivious-ev-selector.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetObliviousEvSelector);

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

} // namespace ns3
