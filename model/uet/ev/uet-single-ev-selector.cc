/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-single-ev-selector.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetSingleEvSelector);

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

} // namespace ns3
