/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-note-channel.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricNoteChannel);

TypeId
FabricNoteChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricNoteChannel").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

void
FabricNoteChannel::SendNoteToOthers(uint32_t processes,
                                    uint32_t self,
                                    uint32_t handler,
                                    const std::vector<uint8_t>& note)
{
    for (uint32_t p = 0; p < processes; ++p)
    {
        if (p != self)
        {
            SendNote(p, handler, note);
        }
    }
}

} // namespace ns3
