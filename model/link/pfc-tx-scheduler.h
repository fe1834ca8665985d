/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: transmit scheduler interface for the priority queues of a PfcNetDevice.
 */
#ifndef PFC_TX_SCHEDULER_H
#define PFC_TX_SCHEDULER_H

#include "pfc-tx-queue.h"

#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief Chooses which priority queue of a PfcNetDevice transmits next.
 *
 * The device calls Select() whenever the transmitter becomes free and at least one priority is
 * eligible, i.e. its queue is non-empty and it is not paused by PFC. Implementations only pick
 * a queue; the device dequeues from it. Subclass this to add a discipline (the role
 * TcpCongestionOps plays for TCP); the device holds one instance per port, selected with its
 * "TxScheduler" attribute.
 */
class PfcTxScheduler : public Object
{
  public:
    /// Value of Select() when no priority can transmit.
    static constexpr int NONE = -1;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~PfcTxScheduler() override;

    /**
     * \brief Pick the next priority to transmit.
     * \param eligible bit i set = priority i has a frame queued and is not paused; never 0
     * \param queues the device's eight queues, indexed by priority (head frames may be peeked)
     * \return a priority whose bit is set in \p eligible, or NONE
     */
    virtual int Select(uint8_t eligible, const PfcTxQueues& queues) = 0;

    /**
     * \brief Highest set bit of a mask (the highest priority in it): strict priority's choice.
     * \param mask non-zero 8-bit mask
     * \return index of the highest set bit, 0..7
     */
    static int HighestPriority(uint8_t mask)
    {
        return 31 - __builtin_clz(static_cast<unsigned>(mask));
    }
};

} // namespace ns3

#endif /* PFC_TX_SCHEDULER_H */
