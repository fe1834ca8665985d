/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_DWRR_SCHEDULER_H
#define PFC_DWRR_SCHEDULER_H

#include "pfc-tx-scheduler.h"

#include <array>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief Deficit weighted round robin across priorities, with optional strict-priority classes.
 *
 * Deficit round robin after Shreedhar and Varghese (SIGCOMM 1995), the "ETS" transmission
 * selection of IEEE 802.1Qaz in practice. Each round a backlogged, unpaused priority i earns
 * Weight[i] x QuantumBytes of credit and sends head frames while its deficit covers their size;
 * an empty queue's deficit is reset to 0; a paused queue neither earns nor loses credit.
 * Long-run byte shares of continuously backlogged priorities are proportional to their weights.
 * Priorities in StrictPriorityMask bypass the round robin and are served first (highest first),
 * the usual setting for CNP/ACK classes.
 */
class PfcDwrrScheduler : public PfcTxScheduler
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcDwrrScheduler();

    int Select(uint8_t eligible, const PfcTxQueues& queues) override;

    /**
     * \brief Set the weight of one priority.
     * \param priority 0..7 (aborts otherwise)
     * \param weight relative weight, >= 1 (aborts on 0)
     */
    void SetWeight(uint8_t priority, uint32_t weight);
    /**
     * \param priority 0..7
     * \return the weight of that priority
     */
    uint32_t GetWeight(uint8_t priority) const;
    /**
     * \param priority 0..7
     * \return the current deficit counter of that priority, bytes
     */
    uint64_t GetDeficit(uint8_t priority) const;

  private:
    /**
     * \brief Parse the "Weights" attribute: eight comma-separated integers >= 1.
     * \param weights e.g. "1,1,1,4,1,1,1,1"; aborts naming the bad entry otherwise
     */
    void SetWeightsString(std::string weights);
    /// \return the weights as "w0,w1,...,w7"
    std::string GetWeightsString() const;

    std::array<uint32_t, 8> m_weight;  //!< weight per priority
    std::array<uint64_t, 8> m_deficit; //!< deficit counter per priority, bytes
    uint32_t m_quantum;                //!< bytes of credit per unit of weight per round
    uint8_t m_strictMask;              //!< priorities served by strict priority
    uint8_t m_current;                 //!< priority holding the round-robin turn
    bool m_turnCredited;               //!< whether m_current got its quantum for this turn
};

} // namespace ns3

#endif /* PFC_DWRR_SCHEDULER_H */
