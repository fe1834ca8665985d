/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-congestion-ops.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceNoneCongestionOps);

TypeId
RoceNoneCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceNoneCongestionOps")
                            .SetParent<FabricNoneCongestionOps>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceNoneCongestionOps>();
    return tid;
}

Ptr<FabricCongestionOps>
RoceNoneCongestionOps::Fork() const
{
    return CopyObject<RoceNoneCongestionOps>(this);
}

} // namespace ns3
