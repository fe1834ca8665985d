/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: ring collectives (NCCL's ring algorithm) and the pipelined-chain Broadcast.
 */
#ifndef RING_ALGORITHM_H
#define RING_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief NCCL's ring algorithm: AllReduce (reduce-scatter then all-gather), AllGather,
 *        ReduceScatter, and Broadcast as a pipelined chain along the ring.
 *
 * Over n ranks and C channels (NCCL, and REFERENCE "Collectives"): channel c uses ring order
 * CollectiveLayout::GetRing(c) (rail-aware by default when locations are known). Per channel:
 *  - AllReduce: 2(n-1) steps, each moving S/(n C) bytes from every rank to its successor;
 *  - AllGather, ReduceScatter: n-1 steps of S/(n C) bytes (S = the full output / input);
 *  - Broadcast: the ring starting at the root is a chain of n-1 hops; the channel's S/C bytes
 *    are cut into chunks (ChunkSize) that pipeline down the chain. Step number = hop index.
 * With chunk pipelining off, the ring's completion time on an uncontended fabric is the
 * alpha-beta formula of REFERENCE: AllReduce 2(n-1) alpha + 2(n-1)/n S/B, AllGather and
 * ReduceScatter (n-1) alpha + (n-1)/n S/B; the Broadcast chain takes
 * (n-1) alpha + (n-2+k) (S/C/k)/(B/C) with k chunks per channel.
 */
class RingAlgorithm : public CollectiveAlgorithm
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

#endif /* RING_ALGORITHM_H */
