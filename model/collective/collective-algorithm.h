/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: strategy objects that turn a collective request into a CollectiveSchedule.
 */
#ifndef COLLECTIVE_ALGORITHM_H
#define COLLECTIVE_ALGORITHM_H

#include "collective-layout.h"
#include "collective-schedule.h"
#include "collective-types.h"

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief What to build: one collective on a communicator, with the NCCL-like knobs that shape
 *        its schedule.
 */
struct CollectiveRequest
{
    CollectiveOp op{CollectiveOp::ALL_REDUCE}; //!< operation
    uint64_t bytes{0};          //!< size (nccl-tests convention, see CollectiveOp); > 0
    uint32_t root{0};           //!< root rank (Broadcast)
    uint32_t channels{1};       //!< channels (NCCL rings/trees in parallel), >= 1
    uint64_t chunkSize{0};      //!< NCCL chunk (one loop iteration) in bytes; 0 = one chunk
    uint32_t slicesPerChunk{1}; //!< pipelining slices per chunk (NCCL Simple ring: 2), >= 1
    uint32_t maxChunks{64};     //!< most chunks per step segment (bounds the schedule), >= 1
    uint32_t elementSize{4};    //!< bytes per element (padding unit), >= 1
    bool pxn{false};            //!< relay cross-rail sends through NVLink (PXN)
    bool railAwareRings{true};  //!< build rail-aware rings when locations are known
    Ptr<const CollectiveLayout> layout; //!< rank placement (never null)
};

/**
 * \ingroup ai-fabric-collective
 * \brief An algorithm: builds the schedule of a collective (strategy pattern, chosen per
 *        operation by the communicator).
 *
 * Conventions shared by the algorithms:
 *  - <b>Padding</b> (like NCCL's whole-element chunking): a buffer is split into segments of
 *    whole elements; when the element count does not divide, every segment is rounded up to
 *    the next whole element count and the padding is transferred (at most one element per
 *    segment and channel). CollectiveRecord::paddedBytes reports the padded size.
 *  - <b>Channels</b>: the buffer is split evenly over the channels; channel c is an
 *    independent ring (or tree), with its own connections (and QPs) and rail choice.
 *  - <b>Chunks, slices and lanes</b> (NCCL's kernel loop): a step's segment is split into
 *    chunks of at most chunkSize (one loop iteration each) and every chunk into slicesPerChunk
 *    slices; slice j of step t depends only on slice j of step t-1, so slices pipeline across
 *    ranks. Every rank runs a channel's loop in order, like the channel's thread block: for
 *    each chunk, every step, every slice (ring), so a rank starts chunk i+1 once it has sent
 *    its last step of chunk i (the schedule's lanes, CollectiveSchedule). A segment is cut into
 *    at most maxChunks chunks (larger ones when it would take more), so a schedule's size is
 *    bounded by channels x ranks x steps x maxChunks x slicesPerChunk, never by the message
 *    size. With one chunk of one slice every algorithm step is one store-and-forward transfer:
 *    the alpha-beta (Hockney) model, T = steps x (alpha + step bytes / beta).
 *  - <b>PXN</b> (pxn and known locations): a send between different servers and different
 *    rails goes first over NVLink to the rank of the source's server on the destination's
 *    rail, which forwards it over its NIC (NCCL PXN); when that rank is not in the
 *    communicator the send stays direct.
 */
class CollectiveAlgorithm : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    CollectiveAlgorithm();
    ~CollectiveAlgorithm() override;

    /// \return the algorithm's short name ("ring", "tree", "hierarchical", "pairwise")
    virtual std::string GetName() const = 0;
    /**
     * \param op an operation
     * \return true if Build() accepts it
     */
    virtual bool Supports(CollectiveOp op) const = 0;
    /**
     * \brief Build the schedule.
     * \param request the request (validated by the caller: bytes > 0 and a multiple of the
     *        element size, root < ranks, channels >= 1); aborts naming the algorithm when the
     *        operation or the layout is not supported
     * \param[out] paddedBytes the size after padding (see the class description)
     * \return the finalized schedule
     */
    Ptr<CollectiveSchedule> Build(const CollectiveRequest& request, uint64_t* paddedBytes) const;

  protected:
    /**
     * \brief Build the schedule (subclasses).
     * \param request the request
     * \param schedule an empty schedule sized for the communicator
     * \return the size after padding
     */
    virtual uint64_t DoBuild(const CollectiveRequest& request,
                             CollectiveSchedule& schedule) const = 0;

    /**
     * \brief Add one logical transfer, relayed through NVLink if PXN applies.
     * \param request the request (PXN flag and layout)
     * \param schedule the schedule
     * \param src source rank
     * \param dst destination rank
     * \param channel channel
     * \param bytes bytes
     * \param step algorithm step
     * \param deps receives at \p src the send waits for
     * \param lane the send's lane at \p src (COLLECTIVE_NONE: none); a PXN relay's second hop
     *        has none
     * \return the receive index at \p dst
     */
    static uint32_t Transfer(const CollectiveRequest& request,
                             CollectiveSchedule& schedule,
                             uint32_t src,
                             uint32_t dst,
                             uint32_t channel,
                             uint64_t bytes,
                             uint32_t step,
                             const std::vector<uint32_t>& deps,
                             uint32_t lane = COLLECTIVE_NONE);

    /// What a ring phase computes.
    enum RingKind
    {
        RING_REDUCE_SCATTER, //!< n-1 steps, reduce
        RING_ALL_GATHER,     //!< n-1 steps, copy
        RING_ALL_REDUCE,     //!< 2(n-1) steps: reduce-scatter then all-gather
    };

    /**
     * \brief Add the steps of one ring phase on one channel.
     *
     * Each ring position sends one segment per step to the next position, chunk by chunk and
     * slice by slice; the send of step t > 0 waits for the receive of step t-1 (per slice).
     * Every position's sends are one lane (lane id = channel): for each chunk, every step, every
     * slice.
     * \param request the request
     * \param schedule the schedule
     * \param ring ranks in ring order (size n >= 1; n = 1 adds nothing)
     * \param kind phase kind
     * \param channel channel
     * \param segmentBytes bytes of one segment (one step's transfer per position)
     * \param firstStep step number of the phase's first step
     * \param entryDeps per ring position: receives every first-step send there waits for (may
     *        be empty: no dependencies)
     * \return per ring position: the receives of the phase's last step there (one per slice;
     *         empty when n = 1)
     */
    static std::vector<std::vector<uint32_t>> AddRing(
        const CollectiveRequest& request,
        CollectiveSchedule& schedule,
        const std::vector<uint32_t>& ring,
        RingKind kind,
        uint32_t channel,
        uint64_t segmentBytes,
        uint32_t firstStep,
        const std::vector<std::vector<uint32_t>>& entryDeps);

    /**
     * \brief Bytes of one of \p parts equal segments of \p bytes, in whole elements, rounded up
     *        (the padding rule).
     * \param bytes total bytes
     * \param parts number of segments (>= 1)
     * \param elementSize element size (>= 1)
     * \return ceil(ceil(bytes / elementSize) / parts) x elementSize (>= one element)
     */
    static uint64_t SegmentBytes(uint64_t bytes, uint64_t parts, uint32_t elementSize);
    /**
     * \brief Split \p bytes into pipelining chunks of whole elements.
     * \param bytes bytes to split
     * \param chunkSize maximum chunk (0 = one chunk)
     * \param elementSize element size
     * \param maxChunks most chunks (>= 1): when \p bytes would need more chunks of
     *        \p chunkSize, it is cut into \p maxChunks larger ones
     * \return chunk sizes (at least one, at most \p maxChunks; near-equal, each <=
     *         max(chunkSize, one element) unless capped by \p maxChunks)
     */
    static std::vector<uint64_t> Chunks(uint64_t bytes,
                                        uint64_t chunkSize,
                                        uint32_t elementSize,
                                        uint32_t maxChunks);
    /**
     * \brief Split \p bytes into NCCL chunks and every chunk into slices (whole elements).
     * \param request the request (chunkSize, slicesPerChunk, elementSize, maxChunks)
     * \param bytes bytes to split
     * \return per chunk, its slices' sizes (each chunk has at least one slice)
     */
    static std::vector<std::vector<uint64_t>> ChunkSlices(const CollectiveRequest& request,
                                                          uint64_t bytes);
};

} // namespace ns3

#endif /* COLLECTIVE_ALGORITHM_H */
