/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a training job: compute phases and collectives on communicators, iterated.
 */
#ifndef COLLECTIVE_JOB_H
#define COLLECTIVE_JOB_H

#include "collective-communicator.h"
#include "collective-types.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief A simple training-job model: a program of compute phases and collectives, run
 *        Iterations times.
 *
 * The program is a list of items executed in order on one global timeline (all ranks compute
 * in lock step; the network is what differs):
 *  - AddCompute(d): the GPUs compute for d (no traffic);
 *  - AddCollective(comm, op, bytes, async): enqueue a collective on a communicator; a blocking
 *    one waits for its completion, an async one overlaps what follows (like a collective on a
 *    separate CUDA stream, e.g. bucketed gradient AllReduce during the backward pass);
 *  - AddWait(): wait for every async collective issued so far.
 * The end of an iteration waits for every async collective. AddTrainingIteration() appends the
 * classic data-parallel iteration: forward compute; backward compute in B equal slices, each
 * followed by an async AllReduce of its gradient bucket (PyTorch DDP bucketing); wait;
 * optimizer compute.
 *
 * Several jobs (on their own or shared communicators) run concurrently on one fabric. A failed
 * collective stops the job (HasFailed()).
 */
class CollectiveJob : public Object
{
  public:
    /// Iteration trace: iteration index, start time, end time.
    typedef void (*IterationTracedCallback)(uint32_t iteration, Time start, Time end);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    CollectiveJob();
    ~CollectiveJob() override;

    /**
     * \param name job name (reports)
     */
    void SetName(const std::string& name);
    /// \return the name
    std::string GetName() const;

    /**
     * \brief Append a compute phase.
     * \param duration compute time (>= 0; aborts if negative)
     */
    void AddCompute(Time duration);
    /**
     * \brief Append a collective.
     * \param comm the communicator (not null)
     * \param op the operation
     * \param bytes size (validated by the communicator when issued)
     * \param async true: do not wait for it
     * \param root Broadcast root
     */
    void AddCollective(Ptr<CollectiveCommunicator> comm,
                       CollectiveOp op,
                       uint64_t bytes,
                       bool async = false,
                       uint32_t root = 0);
    /// Append a wait for all async collectives issued so far.
    void AddWait();
    /**
     * \brief Append one data-parallel training iteration.
     * \param dataParallel communicator of the gradient AllReduce (not null)
     * \param forward forward-pass compute time
     * \param backward backward-pass compute time, split evenly over the buckets
     * \param gradientBytes gradient bytes per iteration, split over the buckets in whole
     *        elements of the communicator (> 0)
     * \param buckets gradient buckets (>= 1; PyTorch DDP default bucket: 25 MB)
     * \param optimizer optimizer-step compute time
     */
    void AddTrainingIteration(Ptr<CollectiveCommunicator> dataParallel,
                              Time forward,
                              Time backward,
                              uint64_t gradientBytes,
                              uint32_t buckets,
                              Time optimizer);

    /**
     * \brief Start the job.
     * \param delay time from now (>= 0)
     */
    void Start(Time delay = Time(0));

    /// \return true once every iteration finished
    bool IsFinished() const;
    /// \return true if a collective of the job failed
    bool HasFailed() const;
    /// \return finished iterations as (start, end)
    const std::vector<std::pair<Time, Time>>& GetIterations() const;
    /// \return compute time of one pass through the program (sum of compute items)
    Time GetComputeTimePerIteration() const;

  protected:
    void DoDispose() override;

  private:
    /// A program item.
    struct Item
    {
        enum Kind
        {
            COMPUTE,
            COLLECTIVE,
            WAIT
        } kind; //!< kind

        Time duration;                    //!< COMPUTE
        Ptr<CollectiveCommunicator> comm; //!< COLLECTIVE
        CollectiveOp op;                  //!< COLLECTIVE
        uint64_t bytes;                   //!< COLLECTIVE
        bool async;                       //!< COLLECTIVE
        uint32_t root;                    //!< COLLECTIVE
    };

    /// Run items until one blocks.
    void Step();
    /// A collective finished.
    void OnCollectiveDone(bool async, const CollectiveRecord& record);

    std::string m_name;                               //!< name
    std::vector<Item> m_items;                        //!< program
    uint32_t m_iterations;                            //!< attribute Iterations
    uint32_t m_iteration;                             //!< current iteration
    size_t m_pc;                                      //!< next item
    uint32_t m_outstanding;                           //!< async collectives in flight
    bool m_waitingAsync;                              //!< blocked on async collectives
    bool m_started;                                   //!< Start() called
    bool m_finished;                                  //!< all iterations done
    bool m_failed;                                    //!< a collective failed
    Time m_iterationStart;                            //!< start of the current iteration
    std::vector<std::pair<Time, Time>> m_done;        //!< finished iterations
    TracedCallback<uint32_t, Time, Time> m_iterTrace; //!< iteration finished
};

} // namespace ns3

#endif /* COLLECTIVE_JOB_H */
