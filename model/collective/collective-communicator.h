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
#include "nccl-tuner.h"

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
 * \brief Where a rank issues its NVLS operations: its server's NvlsEngine, the communicator's
 *        multicast group there and the rank's member index in it.
 */
struct CollectiveNvlsBinding
{
    Ptr<NvlsEngine> engine; //!< the server's engine (null: none)
    uint32_t port{0};       //!< the rank's GPU port on the engine
    uint32_t group{0};      //!< the communicator's group on the engine
    uint32_t member{0};     //!< the rank's index in the group (= in its server's rank list)
};

/**
 * \ingroup ai-fabric-collective
 * \brief A communicator: n ranks (a subset of the transport's ranks, in communicator order),
 *        one CollectiveApplication per rank, a FIFO of collectives, and their results.
 *
 * Create it with CollectiveHelper::CreateCommunicator. Enqueue() adds a collective; every rank
 * runs the communicator's collectives in order (like one NCCL stream). The schedule is built
 * by the operation's CollectiveAlgorithm from the communicator's knobs (attributes below) and
 * cached per (operation, size, root, algorithm, protocol, channels).
 *
 * Algorithm, protocol and channels, per collective and size, as NCCL chooses them: the
 * communicator's NcclTuner (configured from the system by CollectiveHelper, or from the rank
 * layout and H100 defaults) predicts every (algorithm, protocol) with NCCL's tables and takes
 * the fastest, and NCCL's channel count for the size. The attributes Algorithm (NCCL_ALGO),
 * Protocol (NCCL_PROTO) and Channels (NCCL_MIN/MAX_NCHANNELS) force a choice. Schedules: Ring
 * = RingAlgorithm, Tree = DoubleBinaryTreeAlgorithm (AllReduce), NVLS = NvlsAlgorithm and
 * NVLSTree = NvlsTreeAlgorithm (AllReduce; every rank needs its NVSwitch's NvlsEngine,
 * SetNvlsEngine, which CollectiveHelper gives on NVSwitch topologies), Hierarchical (ai-fabric's,
 * forced only) = HierarchicalAllReduceAlgorithm with the ring's protocol and latencies,
 * AlltoAll = PairwiseAlltoAllAlgorithm (NCCL point-to-point, Simple); a forced Tree or
 * Hierarchical applies to AllReduce, the other collectives keep their ring (as NCCL does);
 * SetAlgorithm() installs any CollectiveAlgorithm for an operation instead (timed as a ring).
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
 * locations it does not have, a forced algorithm or protocol that cannot run the collective
 * (naming what can).
 */
class CollectiveCommunicator : public Object
{
  public:
    /// Algorithm choice (attribute Algorithm).
    enum AlgorithmChoice
    {
        ALGORITHM_AUTO = 0,     //!< NCCL's tuner decides per collective and size
        ALGORITHM_RING,         //!< RingAlgorithm
        ALGORITHM_TREE,         //!< DoubleBinaryTreeAlgorithm (AllReduce)
        ALGORITHM_HIERARCHICAL, //!< HierarchicalAllReduceAlgorithm (AllReduce)
        ALGORITHM_NVLS,         //!< NVLink SHARP (AllReduce, NVSwitch)
        ALGORITHM_NVLS_TREE,    //!< NVLS inside nodes, tree across (AllReduce, NVSwitch)
    };

    /// Protocol choice (attribute Protocol).
    enum ProtocolChoice
    {
        PROTOCOL_AUTO = 0, //!< NCCL's tuner decides
        PROTOCOL_LL,       //!< LL
        PROTOCOL_LL128,    //!< LL128
        PROTOCOL_SIMPLE,   //!< Simple
    };

    /**
     * \brief Parse an algorithm choice, case-insensitively: auto, ring, tree, hierarchical,
     *        nvls, nvlstree (the Algorithm attribute's values).
     * \param name the name
     * \param[out] choice the choice
     * \return false when \p name is none of them
     */
    static bool ParseAlgorithm(const std::string& name, AlgorithmChoice* choice);
    /**
     * \brief Parse a protocol choice, case-insensitively: auto, ll, ll128, simple.
     * \param name the name
     * \param[out] choice the choice
     * \return false when \p name is none of them
     */
    static bool ParseProtocol(const std::string& name, ProtocolChoice* choice);

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
    /**
     * \return the ranks this MPI process simulates (GetSize() in a sequential run). In a run
     *         across processes each process runs and records its own ranks only: a record's
     *         start is its first local rank's start and its end its last local rank's finish
     *         (CollectiveHelper::GatherRecords merges them at process 0).
     */
    uint32_t GetNLocalRanks() const;
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
     * \param bytes a size (the tuner's choice depends on it)
     * \return the algorithm Enqueue() would use for it
     */
    Ptr<CollectiveAlgorithm> GetAlgorithm(CollectiveOp op, uint64_t bytes) const;
    /// \return the tuner (its attributes: GPU architecture, CPU vendor, LL128, ...)
    Ptr<NcclTuner> GetTuner() const;
    /**
     * \brief Configure the tuner with \p system (CollectiveHelper does this from the
     *        topology; otherwise the first collective configures it from DefaultSystem()).
     * \param system the system (nRanks must equal GetSize())
     */
    void ConfigureTuner(const NcclSystem& system);
    /**
     * \brief The system NCCL would see when nothing better is known: the communicator's ranks
     *        and servers (from the rank locations), NVLink between ranks of a server when the
     *        transport says so, and NcclSystem's defaults for the bandwidths (DGX H100).
     * \return the system
     */
    NcclSystem DefaultSystem() const;
    /**
     * \brief The unloaded wire time of a hop: what a message pays in the simulated fabric
     *        itself (cables and switch processing) before any software step latency.
     *
     * NCCL's per-hop latencies (tuning.cc hwLatencies) are end-to-end step times measured on
     * real systems, the wire and the switches included; since the simulator pays those
     * itself, the executor charges NCCL's latency minus this (at least 0). CollectiveHelper
     * sets it from the topology (NVLink: two NVLink cables and the NVSwitch; network: two
     * GPU-leaf cables and the leaf); without it nothing is subtracted.
     * \param hop the hop kind
     * \param wire the unloaded time (>= 0; aborts otherwise)
     */
    void SetHopWireLatency(CollectiveHopType hop, Time wire);
    /**
     * \param hop the hop kind
     * \return the unloaded wire time set for it (0 by default)
     */
    Time GetHopWireLatency(CollectiveHopType hop) const;

    /**
     * \brief Give a rank its NVSwitch's NVLS engine (CollectiveHelper does this on NVSwitch
     *        topologies); NVLS and NVLSTree need every rank to have one.
     * \param commRank a communicator rank (< GetSize(); aborts otherwise)
     * \param engine its server's engine (not null)
     * \param port its GPU port on the engine (< engine->GetNPorts(); aborts otherwise)
     */
    void SetNvlsEngine(uint32_t commRank, Ptr<NvlsEngine> engine, uint32_t port);
    /// \return true if every rank has an NVLS engine (SetNvlsEngine)
    bool HasNvlsEngines() const;
    /**
     * \brief A rank's NVLS binding; the first call makes one multicast group per server on its
     *        engine (members: the server's ranks by local index, CollectiveLayout order).
     * \param commRank a communicator rank
     * \return the binding; aborts when the rank has no engine or a server's ranks have
     *         different engines
     */
    const CollectiveNvlsBinding& GetNvlsBinding(uint32_t commRank);

    /**
     * \brief How a collective of \p op and \p bytes would run (algorithm, protocol, channels,
     *        latencies, GPU-side caps, NCCL's predicted time), after the forcing attributes.
     * \param op the operation
     * \param bytes size (validated as for Enqueue)
     * \return the execution; aborts naming the forced value and what is allowed when it cannot
     *         run the collective
     */
    CollectiveExecution Choose(CollectiveOp op, uint64_t bytes);

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
    /**
     * \param seq a collective that is queued or running (aborts otherwise)
     * \return how it runs
     */
    const CollectiveExecution& GetExecution(uint32_t seq) const;

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
        CollectiveExecution exec;               //!< how it runs
        CollectiveRecord record;                //!< its record so far
        uint32_t started{0};                    //!< ranks that started
        uint32_t done{0};                       //!< ranks that finished
        DoneCallback callback;                  //!< completion callback
        EventId timeout;                        //!< watchdog
    };

    /// Cache key: op, bytes, root, channels, chunk, most chunks, element size, pxn, rail-aware,
    /// algorithm, protocol.
    typedef std::tuple<int,
                       uint64_t,
                       uint32_t,
                       uint32_t,
                       uint64_t,
                       uint32_t,
                       uint32_t,
                       bool,
                       bool,
                       const CollectiveAlgorithm*,
                       int>
        CacheKey;
    /// Cache entry: schedule and padded size.
    typedef std::pair<Ptr<const CollectiveSchedule>, uint64_t> CacheEntry;

    /// Open every connection of \p schedule (PreConnect): ranks in order, sends in order.
    void ConnectAll(const CollectiveSchedule& schedule);
    /// Abort on an invalid size or root.
    void Validate(CollectiveOp op, uint64_t bytes, uint32_t root) const;
    /**
     * \brief Build (or fetch) the schedule of a chosen execution.
     * \param op the operation
     * \param bytes the size
     * \param root the root
     * \param exec the execution (algorithm, protocol, channels)
     * \param[out] paddedBytes size after padding (may be null)
     * \return the schedule
     */
    Ptr<const CollectiveSchedule> BuildFor(CollectiveOp op,
                                           uint64_t bytes,
                                           uint32_t root,
                                           const CollectiveExecution& exec,
                                           uint64_t* paddedBytes);
    /// \return the schedule builder for \p op under \p exec
    Ptr<CollectiveAlgorithm> BuilderFor(CollectiveOp op, const CollectiveExecution& exec) const;
    /// \return the pipelining chunk NCCL uses for \p exec (enqueue.cc), bytes
    uint64_t ProtocolChunk(uint64_t bytes, const CollectiveExecution& exec) const;
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
    /// The default schedule builders by TypeId uid, created on first use.
    mutable std::map<uint16_t, Ptr<CollectiveAlgorithm>> m_builders;
    std::vector<CollectiveNvlsBinding> m_nvls; //!< per comm rank (empty: no NVLS engines)
    std::array<Time, 2> m_hopWire{};           //!< unloaded wire time per CollectiveHopType
    bool m_nvlsGrouped{false};                 //!< the NVLS groups exist
    Ptr<NcclTuner> m_tuner;                    //!< NCCL's tuning model
    std::map<uint32_t, Active> m_active;       //!< by collective number
    std::vector<CollectiveRecord> m_records;   //!< finished
    std::map<CacheKey, CacheEntry> m_cache;    //!< schedules
    std::deque<CacheKey> m_cacheOrder;         //!< insertion order
    uint32_t m_nextSeq;                        //!< next collective number
    bool m_failed;                             //!< a collective failed

    uint32_t m_channels;         //!< attribute Channels
    uint64_t m_chunkSize;        //!< attribute ChunkSize
    uint32_t m_maxChunks;        //!< attribute MaxChunksPerStep
    uint32_t m_elementSize;      //!< attribute ElementSize
    bool m_pxn;                  //!< attribute Pxn
    bool m_railAware;            //!< attribute RailAwareRings
    AlgorithmChoice m_algorithm; //!< attribute Algorithm
    ProtocolChoice m_protocol;   //!< attribute Protocol
    Time m_timeout;              //!< attribute Timeout
    bool m_stopOnFailure;        //!< attribute StopOnFailure
    uint32_t m_cacheSize;        //!< attribute ScheduleCacheSize
    bool m_preConnect;           //!< attribute PreConnect
    bool m_rankContext;          //!< attribute RankContext
    uint32_t m_nLocal;           //!< ranks simulated by this MPI process (all sequentially)

    TracedCallback<const CollectiveRecord&> m_completeTrace; //!< completed
    TracedCallback<const CollectiveRecord&> m_failedTrace;   //!< failed
};

} // namespace ns3

#endif /* COLLECTIVE_COMMUNICATOR_H */
