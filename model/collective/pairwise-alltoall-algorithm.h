/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: pairwise-exchange AlltoAll (MoE token dispatch/combine).
 */
#ifndef PAIRWISE_ALLTOALL_ALGORITHM_H
#define PAIRWISE_ALLTOALL_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief Pairwise-exchange AlltoAll: in step k = 1..n-1 rank r sends its block for rank
 *        (r + k) mod n and receives the block of rank (r - k) mod n; step k + 1 starts when the
 *        block of step k has arrived. Every step is a permutation, so an uncontended fabric
 *        gives the alpha-beta time (n-1) alpha + (n-1)/n S/B (REFERENCE "Collectives"), S being
 *        the per-rank send buffer (a block is S/n; the own block is a local copy).
 *
 * Channels split every block; with PXN a cross-rail block goes through the NVLink relay (see
 * CollectiveAlgorithm). Step numbers are k - 1. ChunkSize is not used (a block is one
 * transfer; the application still moves it in StepSize pieces through its slots).
 */
class PairwiseAlltoAllAlgorithm : public CollectiveAlgorithm
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    bool Supports(CollectiveOp op) const override;

  protected:
    uint64_t DoBuild(const CollectiveRequest& request, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* PAIRWISE_ALLTOALL_ALGORITHM_H */
