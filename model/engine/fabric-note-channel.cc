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

} // namespace ns3
