/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a communicator (NCCL ncclComm_t): a group of ranks that run collectives together.
 */
#ifndef COLLECTIVE_COMMUNICATOR_H
#define COLLECTIVE_COMMUNICATOR_H

#include "collective-algorithm.h"
#include "collective-application.h"
#include "collective-layout.h"
#include "collective-transport.h"
#include "collective-types.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief A communicator: n ranks (a subset of the transport's ranks, in communicator order),
 *        one CollectiveApplication per rank, a FIFO of collectives, and their results.
 *
 * Create it with CollectiveHelper::CreateCommunicator. Enqueue() adds a collective; every rank
 * runs the communicator's collectives in order (like one NCCL stream). The schedule is built
 * by the operation's CollectiveAlgorithm from the communicator's knobs (attributes below) and
 * cached per (operation, size, root).
 *
 * Algorithms by default: AllReduce per the AllReduceAlgorithm attribute (ring, double binary
 * tree, hierarchical), AllGather/ReduceScatter/Broadcast ring, AlltoAll pairwise;
 * SetAlgorithm() installs any CollectiveAlgorithm instead.
 *
 * Results: one CollectiveRecord per collective, in completion order (GetRecords, the
 * CollectiveComplete trace, the per-collective callback). A failure (a transport error
 * reported by a rank, or the Timeout watchdog) records the collective as failed with the
 * reporting rank, step and peer, fires CollectiveFailed, aborts every rank of the
 * communicator, records the collectives still queued as failed ("aborted"), and with
 * StopOnFailure calls Simulator::Stop() so the simulation ends.
 *
 * Bad input aborts at once naming the value: a communicator of 0 ranks, a rank that is not a
 * transport rank or appears twice, a size of 0 or not a multiple of ElementSize, a root that is
 * not in the communicator, an algorithm that does not implement the operation or needs rank
 * locations it does not have.
 */
class CollectiveCommunicator : public Object
{
  public:
    /// AllReduce algorithm choice.
    enum AllReduceAlgorithmType
    {
        ALLREDUCE_RING = 0,     //!< RingAlgorithm
        ALLREDUCE_TREE,         //!< DoubleBinaryTreeAlgorithm
        ALLREDUCE_HIERARCHICAL, //!< HierarchicalAllReduceAlgorithm
    };

    /// Per-collective completion (or failure) callback.
    typedef Callback<void, const CollectiveRecord&> DoneCallback;
    /// Record trace signature.
    typedef void (*RecordTracedCallback)(const CollectiveRecord& record);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Largest collective size the model supports, bytes (1 PiB: its times stay far inside
    /// ns-3's 64-bit nanosecond clock even at 1 Gb/s); larger sizes are refused.
    static constexpr uint64_t MAX_BYTES = 1ull << 50;

    CollectiveCommunicator();
    ~CollectiveCommunicator() override;

    /**
     * \brief Set the communicator up (CollectiveHelper does this).
     * \param name name used in records
     * \param transport the transport (its ranks are the global ranks)
     * \param globalRanks transport rank of each communicator rank (non-empty, distinct, each <
     *        transport->GetNRanks(); aborts naming the offender)
     * \param nodes node of each communicator rank (same size)
     * \param locations location of each communicator rank, or empty (no server information)
     * \param appFactory factory of the CollectiveApplications (TypeId and attributes)
     */
    void Setup(const std::string& name,
               Ptr<CollectiveTransport> transport,
               const std::vector<uint32_t>& globalRanks,
               const std::vector<Ptr<Node>>& nodes,
               const std::vector<CollectiveRankLocation>& locations,
               const ObjectFactory& appFactory);

    /// \return the name
    std::string GetName() const;
    /// \return number of ranks
    uint32_t GetSize() const;
    /**
     * \param commRank a communicator rank (< GetSize(); aborts otherwise)
     * \return its transport (global) rank
     */
    uint32_t GetGlobalRank(uint32_t commRank) const;
    /// \return transport rank of every communicator rank
    const std::vector<uint32_t>& GetGlobalRanks() const;
    /**
     * \param commRank a communicator rank (< GetSize(); aborts otherwise)
     * \return its application
     */
    Ptr<CollectiveApplication> GetApplication(uint32_t commRank) const;
    /// \return the transport
    Ptr<CollectiveTransport> GetTransport() const;
    /// \return the rank layout
    Ptr<const CollectiveLayout> GetLayout() const;

    /**
     * \brief Use \p algorithm for \p op (overrides the defaults).
     * \param op an operation
     * \param algorithm an algorithm that Supports(op) (aborts otherwise)
     */
    void SetAlgorithm(CollectiveOp op, Ptr<CollectiveAlgorithm> algorithm);
    /**
     * \param op an operation
     * \return the algorithm used for it
     */
    Ptr<CollectiveAlgorithm> GetAlgorithm(CollectiveOp op) const;

    /**
     * \brief Enqueue a collective; every rank starts it when it has finished the previous one.
     * \param op the operation
     * \param bytes size in bytes (nccl-tests convention, see CollectiveOp): > 0 and a multiple
     *        of ElementSize
     * \param root root rank for Broadcast (< GetSize()); ignored otherwise
     * \param done called once when it completes or fails (may be null)
     * \return its collective number
     */
    uint32_t Enqueue(CollectiveOp op,
                     uint64_t bytes,
                     uint32_t root = 0,
                     DoneCallback done = DoneCallback());

    /**
     * \brief Build (or fetch from the cache) the schedule Enqueue would run.
     * \param op the operation
     * \param bytes size in bytes (validated as for Enqueue)
     * \param root root rank
     * \param[out] paddedBytes size after padding (may be null)
     * \return the schedule
     */
    Ptr<const CollectiveSchedule> BuildSchedule(CollectiveOp op,
                                                uint64_t bytes,
                                                uint32_t root = 0,
                                                uint64_t* paddedBytes = nullptr);
    /**
     * \param seq a collective that is queued or running (aborts otherwise)
     * \return its schedule
     */
    Ptr<const CollectiveSchedule> GetSchedule(uint32_t seq) const;

    /// \return records of finished (completed or failed) collectives, in finishing order
    const std::vector<CollectiveRecord>& GetRecords() const;
    /// \return collectives enqueued so far
    uint32_t GetNEnqueued() const;
    /// \return true once a collective failed
    bool HasFailed() const;
    /// \return the ElementSize attribute, bytes
    uint32_t GetElementSize() const;

    // ---- used by CollectiveApplication ------------------------------------------------------
    /**
     * \brief A rank started collective \p seq.
     * \param seq collective number
     * \param commRank the rank
     */
    void NotifyRankStarted(uint32_t seq, uint32_t commRank);
    /**
     * \brief A rank finished collective \p seq.
     * \param seq collective number
     * \param commRank the rank
     */
    void NotifyRankComplete(uint32_t seq, uint32_t commRank);
    /**
     * \brief A rank's transfer failed.
     * \param seq collective number
     * \param commRank the reporting rank
     * \param step algorithm step of the transfer (or COLLECTIVE_NONE)
     * \param peer communicator rank of its peer (or COLLECTIVE_NONE)
     * \param reason what happened
     */
    void NotifyFailure(uint32_t seq,
                       uint32_t commRank,
                       uint32_t step,
                       uint32_t peer,
                       const std::string& reason);

    /**
     * \brief Describe the unfinished collectives for a stall diagnosis
     *        (FabricHealthMonitor::AddDiagnoser): per collective its number, operation, size,
     *        enqueue time and how many ranks started and finished it; per stuck rank (at most
     *        16) the global rank, the step and peer it waits for.
     * \param os the stream; one line per collective ("  none" if all finished)
     */
    void DescribePending(std::ostream& os) const;

  protected:
    void DoDispose() override;

  private:
    /// A collective enqueued and not finished.
    struct Active
    {
        Ptr<const CollectiveSchedule> schedule; //!< its schedule
        CollectiveRecord record;                //!< its record so far
        uint32_t started{0};                    //!< ranks that started
        uint32_t done{0};                       //!< ranks that finished
        DoneCallback callback;                  //!< completion callback
        EventId timeout;                        //!< watchdog
    };

    /// Cache key: op, bytes, root, channels, chunk, most chunks, element size, pxn, rail-aware,
    /// algorithm.
    typedef std::tuple<int,
                       uint64_t,
                       uint32_t,
                       uint32_t,
                       uint64_t,
                       uint32_t,
                       uint32_t,
                       bool,
                       bool,
                       const CollectiveAlgorithm*>
        CacheKey;
    /// Cache entry: schedule and padded size.
    typedef std::pair<Ptr<const CollectiveSchedule>, uint64_t> CacheEntry;

    /// Abort on an invalid size or root.
    void Validate(CollectiveOp op, uint64_t bytes, uint32_t root) const;
    /// The Timeout watchdog fired.
    void OnTimeout(uint32_t seq);
    /// Finish a collective: record, trace, callback.
    void Finish(uint32_t seq);

    std::string m_name;                             //!< name
    Ptr<CollectiveTransport> m_transport;           //!< transport
    std::vector<uint32_t> m_globalRanks;            //!< comm rank -> transport rank
    std::vector<Ptr<CollectiveApplication>> m_apps; //!< comm rank -> application
    Ptr<const CollectiveLayout> m_layout;           //!< placement
    std::array<Ptr<CollectiveAlgorithm>, size_t(CollectiveOp::COUNT)> m_algorithms; //!< set
    mutable std::array<Ptr<CollectiveAlgorithm>, 3> m_allReduceDefaults; //!< lazily created
    mutable Ptr<CollectiveAlgorithm> m_ringDefault;                      //!< lazily created
    mutable Ptr<CollectiveAlgorithm> m_alltoallDefault;                  //!< lazily created
    std::map<uint32_t, Active> m_active;                                 //!< by collective number
    std::vector<CollectiveRecord> m_records;                             //!< finished
    std::map<CacheKey, CacheEntry> m_cache;                              //!< schedules
    std::deque<CacheKey> m_cacheOrder;                                   //!< insertion order
    uint32_t m_nextSeq;                                                  //!< next collective number
    bool m_failed;                                                       //!< a collective failed

    uint32_t m_channels;                //!< attribute Channels
    uint64_t m_chunkSize;               //!< attribute ChunkSize
    uint32_t m_maxChunks;               //!< attribute MaxChunksPerStep
    uint32_t m_elementSize;             //!< attribute ElementSize
    bool m_pxn;                         //!< attribute Pxn
    bool m_railAware;                   //!< attribute RailAwareRings
    AllReduceAlgorithmType m_allReduce; //!< attribute AllReduceAlgorithm
    Time m_timeout;                     //!< attribute Timeout
    bool m_stopOnFailure;               //!< attribute StopOnFailure
    uint32_t m_cacheSize;               //!< attribute ScheduleCacheSize

    TracedCallback<const CollectiveRecord&> m_completeTrace; //!< completed
    TracedCallback<const CollectiveRecord&> m_failedTrace;   //!< failed
};

} // namespace ns3

#endif /* COLLECTIVE_COMMUNICATOR_H */
