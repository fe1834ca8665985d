/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: hierarchical (2D) AllReduce: NVLink reduce-scatter, per-rail inter-server
 * AllReduce, NVLink all-gather.
 */
#ifndef HIERARCHICAL_ALLREDUCE_ALGORITHM_H
#define HIERARCHICAL_ALLREDUCE_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief Hierarchical AllReduce over m servers of g ranks each (as in Horovod/NCCL "2D"
 *        AllReduce and REFERENCE "Collectives").
 *
 * Per channel c:
 *  1. inside each server, a ring reduce-scatter over the g ranks (ring starting at position
 *     c mod g), leaving each rank with S/(g C) reduced bytes;
 *  2. for each position q, a ring AllReduce of those S/(g C) bytes across the m servers among
 *     the ranks at position q of every server: one ring per rail, so every inter-server byte
 *     stays on its rail when every server holds the same local indices;
 *  3. inside each server, a ring all-gather of the S/(g C) pieces.
 * A rank starts phase 2 when its phase-1 result has arrived, and phase 3 when its phase-2
 * result has; phases of different ranks overlap. Uncontended time ~ 2(g-1)/g S/B_nvlink +
 * 2(m-1)/m (S/g)/B_nic plus 2(g-1) NVLink and 2(m-1) network step latencies. Steps: phase 1
 * 0..g-2, phase 2 g-1..g-2+2(m-1), phase 3 after.
 *
 * Requires rank locations with the same number of ranks on every server (aborts otherwise,
 * naming the counts).
 */
class HierarchicalAllReduceAlgorithm : public CollectiveAlgorithm
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

#endif /* HIERARCHICAL_ALLREDUCE_ALGORITHM_H */
