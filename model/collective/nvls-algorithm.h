/*
 * SPDX-License-Identifier: GPL-2.0-only
 * ai-fabric: NCCL's NVLS and NVLSTree AllReduce (NVLink SHARP on NVSwitch servers).
 */
#ifndef NVLS_ALGORITHM_H
#define NVLS_ALGORITHM_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief NCCL's NVLS AllReduce inside one NVSwitch server (NCCL 2.17+, NCCL_ALGO=NVLS): the
 *        NVSwitch reduces and multicasts (NvlsEngine), the GPUs only issue multimem
 *        instructions.
 * The buffer is split over the channels and, in every channel, over the server's n GPUs (NCCL:
 * each GPU heads one part, nHeads = n); every part is cut into chunks (NCCL's nvlsChunkSize,
 * 128 KiB, smaller for small buffers: NcclTuner::GetChunkBytes). Per chunk, the GPU that heads
 * the part reduces it over the server's group and stores the sum to every GPU, element by
 * element as NVLS's kernel does (multimem.ld_reduce then multimem.st: one fused
 * NvlsEngine::ReduceMulticast, step 0). Each GPU's NVLink then carries S (1 + 1/n) bytes per
 * direction. The communicator must be one server's ranks with
 * locations (NVLS across servers needs CollNet, not modelled: NVLSTree runs there); aborts
 * naming what is wrong otherwise.
 */
class NvlsAlgorithm : public CollectiveAlgorithm
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

/**
 * \ingroup ai-fabric-collective
 * \brief NCCL's NVLSTree AllReduce across NVSwitch servers (NCCL 2.18+, NCCL_ALGO=NVLSTree):
 *        NVLS inside every server, a tree across servers.
 * The buffer is split over the channels and every channel over the g GPUs of a server (each
 * GPU heads one part and sends it through its own NIC, so the tree of head h joins the GPUs of
 * local index h: one rail); parts are cut into chunks (NcclTuner::GetChunkBytes: 128 KiB,
 * 64 KiB from 4 servers on, smaller for small buffers). Trees: the double binary tree's shapes
 * (DoubleBinaryTreeAlgorithm::TreeParents and ServerAt), channel c on tree c mod 2, so a NIC
 * that is interior in one tree is a leaf of the other. Per chunk and head: the head reduces its
 * server's part (NVLS reduce, step 0), waits for its tree children's partial sums, sends the
 * sum to its parent's head (step 1); the root's head, and every other head once its parent's
 * result arrives (step 2), multicasts the result to its server's GPUs (step 3) and forwards it
 * to its children. Needs rank locations, the same number (>= 2) of ranks on every server and
 * at least two servers; aborts naming what is wrong otherwise.
 */
class NvlsTreeAlgorithm : public CollectiveAlgorithm
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

#endif /* NVLS_ALGORITHM_H */
