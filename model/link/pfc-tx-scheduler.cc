/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-tx-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcTxScheduler);

TypeId
PfcTxScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcTxScheduler").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

PfcTxScheduler::~PfcTxScheduler() = default;

} // namespace ns3
