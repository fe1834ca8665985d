/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: an nccl-tests-style sweep of one collective over sizes.
 */
#ifndef COLLECTIVE_SWEEP_H
#define COLLECTIVE_SWEEP_H

#include "ns3/collective-communicator.h"
#include "ns3/fabric-barrier.h"
#include "ns3/object.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-helper
 * \brief Runs an nccl-tests-style sweep of one collective (all_reduce_perf -b MinBytes -e
 *        MaxBytes -f Factor -w WarmupIters -n Iters) on a communicator, one collective at a
 *        time, then stops the simulation once the NICs are idle.
 *
 * Order, as nccl-tests' TimeTest: WarmupIters warm-ups at the largest size, then at the
 * smallest (excluded), then per size WarmupIters more when WarmupEverySize (not nccl-tests:
 * steadier congestion-control state per size) and Iters measured iterations. Each collective
 * starts when the previous one has finished at every rank, plus Barrier (a FabricBarrier: a
 * host barrier's cost; 0 starts it in the completion callback of the previous one). A size's
 * time is the mean duration of its measured iterations (CollectiveRecord: first rank's start
 * to last rank's end). The size callbacks bracket the measured iterations (a fabric view's
 * snapshots): started at the first one's start, finished at the release after the last.
 *
 * Across MPI processes (SetProcesses() with more than one): every process runs the same sweep
 * on its copy of the communicator (which must have RankContext and what CollectiveCommunicator
 * asks of a communicator across processes), the barrier's notes tell every process when the
 * last rank finished, and Barrier must be at least the lookahead between processes. The
 * results then come from GetResults() with the records gathered at process 0
 * (CollectiveHelper::GatherRecords), the same as a sequential run with the same Barrier under
 * the causal event order (FabricMpi::SelectEngine).
 */
class CollectiveSweep : public Object
{
  public:
    /// The result of one size.
    struct SizeResult
    {
        uint64_t bytes{0};     //!< size, bytes
        Time time;             //!< mean duration of its measured iterations
        std::string algorithm; //!< schedule ("ring", "tree", ...)
        std::string protocol;  //!< "LL", "LL128", "Simple"
        uint32_t channels{0};  //!< channels
        double predictedUs{0}; //!< NCCL's predicted time of the size, us
    };

    /// Called with a size (bytes) at the edges of its measured iterations.
    typedef Callback<void, uint64_t> SizeCallback;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CollectiveSweep();
    ~CollectiveSweep() override;

    /**
     * \brief The communicator and collective to sweep.
     * \param comm the communicator (not null)
     * \param op the collective
     */
    void SetCommunicator(Ptr<CollectiveCommunicator> comm, CollectiveOp op);

    /**
     * \brief Run across MPI processes (FabricBarrier::SetProcesses): call in every process at
     *        the same point of the set-up, before Start().
     * \param notes the topology's note channel (null with one process)
     * \param processes FabricMpi::GetSize()
     * \param self FabricMpi::GetSystemId()
     */
    void SetProcesses(Ptr<FabricNoteChannel> notes, uint32_t processes, uint32_t self);

    /// \param cb called at the start of a size's measured iterations (may be null)
    void SetSizeStartedCallback(SizeCallback cb);
    /// \param cb called at the release after a size's last measured iteration (may be null)
    void SetSizeFinishedCallback(SizeCallback cb);

    /**
     * \return the sizes: MinBytes, x Factor, up to MaxBytes (Factor 1: MinBytes only)
     */
    std::vector<uint64_t> GetSizes() const;

    /// \brief Enqueue the first collective (call before Simulator::Run()).
    void Start();

    /// \return sizes whose measured iterations have finished
    uint32_t GetSizesDone() const;
    /// \return true once a collective of the sweep failed anywhere (the sweep then stops)
    bool HasFailed() const;

    /**
     * \brief The per-size results, from the sweep's records.
     * \param records the communicator's records: GetRecords() in a sequential run,
     *        CollectiveHelper::GatherRecords() at process 0 across processes (records of other
     *        communicators are skipped)
     * \return one result per size whose measured iterations all completed, in size order
     */
    std::vector<SizeResult> GetResults(const std::vector<CollectiveRecord>& records) const;

  protected:
    void DoDispose() override;

  private:
    /// What a collective of the sweep is.
    struct Planned
    {
        uint32_t seq{0};      //!< its collective number
        uint32_t size{0};     //!< index into the sizes (prologue warm-ups: none)
        bool measured{false}; //!< counts towards its size's time
    };

    /// \param latency the Barrier attribute: the barrier's Latency
    void SetBarrierLatency(Time latency);
    /// \return the Barrier attribute
    Time GetBarrierLatency() const;
    /// Enqueue the next collective, or wait for idle NICs after the last.
    void Next();
    /// \brief A collective finished in this process (its local ranks).
    /// \param rec its record (local)
    void Done(const CollectiveRecord& rec);
    /// \brief The barrier after a collective released.
    /// \param ok false if it failed somewhere
    void Released(bool ok);
    /// Poll this process's NICs until none has an operation pending, then arrive at the last
    /// round, whose release stops the simulation.
    void WaitIdle();
    /// \brief The last round released: stop.
    /// \param ok unused
    void Stopped(bool ok);
    /// \return warm-ups per size beyond the prologue
    uint32_t Warmups() const;

    // attributes
    uint64_t m_minBytes;
    uint64_t m_maxBytes;
    uint32_t m_factor;
    uint32_t m_warmupIters;
    bool m_warmupEverySize;
    uint32_t m_iters;
    Time m_idlePoll;

    Ptr<CollectiveCommunicator> m_comm;
    CollectiveOp m_op{CollectiveOp::ALL_REDUCE};
    Ptr<FabricBarrier> m_barrier;
    SizeCallback m_sizeStarted;
    SizeCallback m_sizeFinished;
    std::vector<uint64_t> m_sizes;
    std::deque<uint64_t> m_prologue; //!< nccl-tests' warm-up sizes still to run
    std::size_t m_index{0};          //!< current size
    uint32_t m_iter{0};              //!< iteration of the current size
    std::vector<Planned> m_planned;  //!< every collective enqueued
    bool m_failed{false};
    bool m_started{false};
};

} // namespace ns3

#endif /* COLLECTIVE_SWEEP_H */
