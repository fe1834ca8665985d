/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_STRICT_PRIORITY_SCHEDULER_H
#define PFC_STRICT_PRIORITY_SCHEDULER_H

#include "pfc-tx-scheduler.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief Strict priority: the highest eligible priority always transmits first.
 *
 * Priority 7 is the highest, 0 the lowest, as for IEEE 802.1Q traffic classes (802.1Q-2018
 * 8.6.8.1, strict priority transmission selection). Lower priorities starve while a higher one
 * is backlogged and unpaused.
 */
class PfcStrictPriorityScheduler : public PfcTxScheduler
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    int Select(uint8_t eligible, const PfcTxQueues& queues) override;
};

} // namespace ns3

#endif /* PFC_STRICT_PRIORITY_SCHEDULER_H */
