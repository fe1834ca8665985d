/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-strict-priority-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcStrictPriorityScheduler);

TypeId
PfcStrictPriorityScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcStrictPriorityScheduler")
                            .SetParent<PfcTxScheduler>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PfcStrictPriorityScheduler>();
    return tid;
}

int
PfcStrictPriorityScheduler::Select(uint8_t eligible, const PfcTxQueues& queues)
{
    return eligible ? HighestPriority(eligible) : NONE;
}

} // namespace ns3
