/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: periodic samples of switch egress queues, per tier, kept as histograms (max and
 * percentiles of queue length) with memory bounded by the buffer size, not the run's length,
 * and optionally streamed as a time series of queue and PFC activity per tier.
 */
#ifndef SWITCH_QUEUE_SAMPLER_H
#define SWITCH_QUEUE_SAMPLER_H

#include "ns3/causal-order-scheduler.h"
#include "ns3/event-id.h"
#include "ns3/fabric-switch.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief Queue-length statistics of one tier: over every sample of every egress port.
 */
struct SwitchQueueStats
{
    uint64_t samples{0}; //!< port samples taken
    uint64_t max{0};     //!< largest queue seen, bytes (exact)
    uint64_t p50{0};     //!< median, bytes (upper edge of its BinBytes histogram bin)
    uint64_t p95{0};     //!< 95th percentile, bytes (bin upper edge)
    uint64_t p99{0};     //!< 99th percentile, bytes (bin upper edge)
    double mean{0};      //!< mean queue, bytes (exact)
};

/**
 * \ingroup ai-fabric-switch
 * \brief Samples the egress queue (all priorities, SharedBufferMmu::GetEgressPortBytes) of
 *        every port of the switches it is given, every Interval, into one histogram per tier
 *        ("leaf", "spine", ...: any names), for the queue figures of congestion-control
 *        studies (max and percentile queue per tier).
 *
 * Percentiles are nearest-rank over the samples, reported as the upper edge of their bin
 * (resolution BinBytes); the max and mean are exact. Memory: one counter per BinBytes up to
 * the largest queue seen. Sampling starts with Start() and stops with Stop() (the event would
 * otherwise keep the simulation running). Start() aborts if no switch was added.
 *
 * Timeline (SetTimelineStream): at every sample, one CSV row per tier, in GetTiers() order,
 *
 *     time_us,tier,queue_max_bytes,queue_sum_bytes,pfc_pause_frames,paused_ports
 *
 * with the time in microseconds (3 decimals: nanoseconds), the largest egress queue of any port
 * of the tier and the sum over its ports (bytes, all priorities), the PFC pause frames (XOFF,
 * non-zero pause time; PfcPortCounters::pauseTx summed over priorities, refreshes included, as
 * FabricTierCounters::pfcPauseTx) the tier's ports sent since the previous row (the first row,
 * at Start(), counts from Start(): 0), and how many of its ports the peer pauses now on at
 * least one priority (PfcPauseReceiver::GetPausedMask). Stop() writes one last row per tier at
 * its own time (possibly that of the last sample), so the rows' pause frames add up to exactly
 * the pause frames the tier sent between Start() and Stop(). Rows are written as they are
 * taken, never stored: memory does not grow with the run. The histograms are the same with
 * and without a timeline (Stop()'s row is not a histogram sample).
 *
 * Across MPI processes each process samples the switches of its own nodes (the others'
 * queues are empty there). A run whose end is decided in another process (FlowWorkloadRunner:
 * the last flow may finish anywhere) holds its samples from Hold() on, keeps those taken
 * before the end (Settle()) and drops the ones taken while the processes agreed on it; Gather()
 * then adds every process's histograms at process 0, which reports what a sequential run
 * reports. A timeline across processes needs its last row at the same instant everywhere,
 * which FlowWorkloadRunner::SetEndDelay gives (Stop() at the release of its end barrier):
 * each process keeps its rows (its own switches) and Gather() writes at process 0, row by row,
 * the largest queue_max_bytes and the sums of the other columns, the rows of a sequential run
 * with the same end delay (where EndHistograms() stops the histograms at the last completion,
 * as Settle() does across processes).
 */
class SwitchQueueSampler : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SwitchQueueSampler();
    ~SwitchQueueSampler() override;

    /**
     * \brief Sample every port of a switch into a tier's histogram.
     * \param sw the switch (configured by the time sampling starts; non-null)
     * \param tier the tier's name (a new name adds a tier)
     */
    void AddSwitch(Ptr<FabricSwitch> sw, const std::string& tier);
    /// Take a sample now and every Interval after. Aborts if no switch was added.
    void Start();
    /// Stop sampling; with a timeline stream, write its last rows (see the class text) if
    /// sampling was running.
    void Stop();
    /**
     * \brief Stream the timeline (see the class text) to \p os: writes its header line now,
     *        then the rows of every sample. Call before Start() to have every row.
     * \param os the stream (not owned; must outlive the sampling, i.e. until Stop() or the
     *        end of the run); nullptr stops streaming
     */
    void SetTimelineStream(std::ostream* os);
    /**
     * \brief From now on keep each sample apart (its time, its event's CausalKey and every
     *        port's queue) until Settle() says whether it counts: for a run across MPI
     *        processes whose end is known only some time after it happened. Needs the
     *        CausalOrderScheduler (aborts otherwise, at the next sample); memory grows by one
     *        value per port per sample until Settle(). The timeline's rows are not held
     *        (they go on until Stop()).
     */
    void Hold();
    /// From now on samples are timeline rows only, not histogram samples (the end of the run
    /// in one process when the timeline goes on after it: FlowWorkloadRunner::SetEndDelay).
    void EndHistograms();
    /**
     * \brief Count the held samples taken before the event at \p ts with key \p key (the
     *        end of the run, e.g. the last flow's completion), drop the others, and sample
     *        as before Hold() (sampling itself is not restarted: Stop() ends it).
     * \param ts the end's time, time steps
     * \param key its CausalKey (samples at \p ts count if their key is smaller: created
     *        earlier, or by a smaller context; the seq of keys of two creators is never
     *        compared)
     */
    void Settle(uint64_t ts, const CausalKey& key);
    /**
     * \brief Collective across MPI processes (every process calls it, after the run): add
     *        every process's histograms, sample counts, maxima and sums into process 0's, so
     *        that its GetStats() and WriteCsv() cover the whole fabric, and write the timeline
     *        rows of every process's switches, merged, to process 0's stream. Nothing without
     *        MPI. Aborts naming the tiers if the processes sampled different tiers, or the
     *        counts if they wrote different numbers of timeline rows.
     */
    void Gather();
    /// \return the tiers, in the order first added
    std::vector<std::string> GetTiers() const;
    /**
     * \param tier a tier name
     * \return its statistics (all zero for an unknown tier)
     */
    SwitchQueueStats GetStats(const std::string& tier) const;
    /**
     * \brief Write rows tier,samples,max_bytes,p50_bytes,p95_bytes,p99_bytes,mean_bytes with
     *        a header line.
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;

  protected:
    void DoDispose() override;

  private:
    /// One timeline row of one tier.
    struct Row
    {
        int64_t ns;        //!< its time, ns
        uint64_t queueMax; //!< largest queue of the tier's ports (this process's)
        uint64_t queueSum; //!< their sum, bytes
        uint64_t pauses;   //!< pause frames they sent since the previous row
        uint32_t paused;   //!< ports paused now
    };

    /**
     * \brief Write one timeline row.
     * \param os the stream
     * \param tier the tier's name
     * \param r the row
     */
    static void WriteRow(std::ostream& os, const std::string& tier, const Row& r);

    /// One tier.
    struct Tier
    {
        std::string name;                        //!< its name
        std::vector<Ptr<FabricSwitch>> switches; //!< its switches (this process's)
        std::vector<uint64_t> bins;              //!< samples per BinBytes bin
        uint64_t samples{0};                     //!< samples taken
        uint64_t max{0};                         //!< largest sample
        double sum{0};                           //!< sum of samples
        uint64_t pauseTx{0};                     //!< its ports' pause frames at the last row
    };

    /// A sample taken after Hold(), until Settle().
    struct Held
    {
        uint64_t ts;                 //!< its time, time steps
        CausalKey key;               //!< its event's key
        std::vector<uint64_t> bytes; //!< every port's queue, tier by tier
    };

    /// Take one sample of every port and reschedule.
    void Sample();
    /**
     * \brief Count one port's queue in a tier's histogram.
     * \param t the tier
     * \param q the queue, bytes
     */
    void Count(Tier& t, uint64_t q) const;
    /// Cancel the next sample (no timeline row).
    void Cancel();
    /// \return the pause frames (XOFF) the ports of \p t sent so far
    static uint64_t PauseFramesSent(const Tier& t);
    /// Write one timeline row per tier for now (the stream is set); across processes keep it
    /// for Gather().
    void WriteTimelineRows();
    /// Across processes: merge every process's timeline rows into process 0's stream.
    void GatherTimeline();

    Time m_interval;                   //!< attribute Interval
    uint64_t m_binBytes;               //!< attribute BinBytes
    std::vector<Tier> m_tiers;         //!< tiers
    EventId m_event;                   //!< next sample
    std::ostream* m_timeline{nullptr}; //!< timeline rows go here (not owned; null: none)
    bool m_holding{false};             //!< Hold() called, Settle() not yet
    std::vector<Held> m_held;          //!< samples held
    bool m_histograms{true};           //!< samples count in the histograms (EndHistograms)
    std::vector<Row> m_rows;           //!< across processes: timeline rows, tier by tier
};

} // namespace ns3

#endif /* SWITCH_QUEUE_SAMPLER_H */
