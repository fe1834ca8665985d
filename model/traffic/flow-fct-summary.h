/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: flow completion time records and their summary per flow-size bucket (FCT
 * slowdown median / p95 / p99), the congestion-control researcher's standard figures.
 */
#ifndef FLOW_FCT_SUMMARY_H
#define FLOW_FCT_SUMMARY_H

#include "ns3/nstime.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief One finished flow: what it was, when it ran, how long it took against the time it
 *        would take alone on an idle fabric.
 *
 * The ideal FCT is computed from the flow's path, not measured (FlowWorkloadRunner): every
 * packet with its headers serialized at the path's bottleneck rate, the last packet's
 * store-and-forward over the other links, the propagation and switching delays there and
 * back, and the acknowledgement's serialization back; an unloaded flow's slowdown is 1.
 */
struct FlowFctRecord
{
    uint64_t id{0};              //!< flow id (FlowSpec::id)
    uint32_t src{0};             //!< source host
    uint32_t dst{0};             //!< destination host
    uint64_t sizeBytes{0};       //!< flow size, payload bytes
    Time start;                  //!< when the flow was posted
    Time end;                    //!< when it completed at the sender
    Time ideal;                  //!< its FCT alone on the idle fabric (> 0)
    uint64_t retransmissions{0}; //!< packets the transport sent again
    bool ok{false};              //!< completed successfully
    std::string transport;       //!< "roce" or "uet"
    std::string cc;              //!< congestion control name ("DCQCN", "None", ...)

    /// \return end - start
    Time GetFct() const
    {
        return end - start;
    }

    /// \return FCT / ideal FCT (>= 1 up to the model's rounding; 0 when ideal is 0)
    double GetSlowdown() const;
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Slowdown and FCT statistics of one flow-size bucket.
 */
struct FlowFctBucketStats
{
    uint64_t loBytes{0};      //!< smallest size in the bucket (inclusive), bytes
    uint64_t hiBytes{0};      //!< largest size (inclusive), bytes; UINT64_MAX for the last
    uint64_t flows{0};        //!< flows that completed successfully in the bucket
    double medianSlowdown{0}; //!< nearest-rank 50th percentile of slowdown
    double p95Slowdown{0};    //!< 95th percentile
    double p99Slowdown{0};    //!< 99th percentile
    double meanSlowdown{0};   //!< mean slowdown
    Time meanFct;             //!< mean FCT
    Time p99Fct;              //!< 99th percentile FCT
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Collects finished flows (Add) and summarises them per flow-size bucket and overall:
 *        nearest-rank percentiles of the slowdown (the p-th is the ceil(p/100 x n)-th
 *        smallest), mean and p99 FCT, goodput, failures.
 *
 * Memory: 24 bytes per successful flow (its size, slowdown and FCT, for exact percentiles); the
 * records themselves are not kept (stream them with WriteRecordCsv).
 *
 * Buckets: by default the edges 10 KB, 100 KB, 1 MB, 10 MB (decimal) give five buckets
 * [1, 10000], [10001, 100000], ..., [10000001, max]; SetBucketEdges sets others.
 */
class FlowFctSummary
{
  public:
    FlowFctSummary();

    /**
     * \brief Set the bucket edges: bucket i holds sizes in (edge[i-1], edge[i]], the last one
     *        everything above the last edge.
     * \param edges upper bounds in bytes, strictly increasing, each >= 1 (aborts naming the
     *        first bad value otherwise); empty: one bucket
     * Call before the first Add (aborts otherwise).
     */
    void SetBucketEdges(const std::vector<uint64_t>& edges);
    /// \return the bucket edges
    const std::vector<uint64_t>& GetBucketEdges() const;

    /**
     * \brief Count a finished flow.
     * \param r the record (its ideal must be > 0 when ok; aborts naming the flow otherwise)
     */
    void Add(const FlowFctRecord& r);

    /// \return flows added
    uint64_t GetFlows() const;
    /// \return flows that failed (ok false)
    uint64_t GetFailed() const;
    /// \return payload bytes of the successful flows
    uint64_t GetBytes() const;
    /// \return earliest start of an added flow (0 if none)
    Time GetFirstStart() const;
    /// \return latest end of an added flow (0 if none)
    Time GetLastEnd() const;
    /// \return payload bits of successful flows / (last end - first start), bits/s (0 if none)
    double GetGoodputBps() const;

    /// \return per-bucket statistics, in bucket order
    std::vector<FlowFctBucketStats> GetBuckets() const;
    /// \return statistics over every successful flow (loBytes 1, hiBytes UINT64_MAX)
    FlowFctBucketStats GetOverall() const;

    /**
     * \brief Write the summary CSV: a header row, then one row per bucket and a last row
     *        "all": bucket,lo_bytes,hi_bytes,flows,median_slowdown,p95_slowdown,
     *        p99_slowdown,mean_slowdown,mean_fct_us,p99_fct_us. A bucket without a flow
     *        (flows 0) has blank statistics (NaN to pandas), never 0.
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;

    /**
     * \brief Write the per-flow CSV header: id,src,dst,size_bytes,start_us,end_us,fct_us,
     *        ideal_fct_us,slowdown,retransmissions,ok,transport,cc.
     * \param os the stream
     */
    static void WriteRecordCsvHeader(std::ostream& os);
    /**
     * \brief Write one flow as a CSV row (times in microseconds with 6 decimals: exact to the
     *        picosecond; slowdown with 6 decimals).
     * \param os the stream
     * \param r the flow
     */
    static void WriteRecordCsv(std::ostream& os, const FlowFctRecord& r);

  private:
    /// One successful flow, as the statistics need it.
    struct Sample
    {
        uint64_t size;   //!< bytes
        double slowdown; //!< FCT / ideal
        int64_t fctPs;   //!< FCT, ps
    };

    /// \return statistics over the samples with size in [lo, hi]
    FlowFctBucketStats Stats(uint64_t lo, uint64_t hi) const;

    std::vector<uint64_t> m_edges; //!< bucket upper bounds
    std::vector<Sample> m_samples; //!< successful flows
    uint64_t m_flows{0};           //!< flows added
    uint64_t m_failed{0};          //!< failed flows
    uint64_t m_bytes{0};           //!< payload bytes of successful flows
    Time m_firstStart;             //!< earliest start
    Time m_lastEnd;                //!< latest end
};

} // namespace ns3

#endif /* FLOW_FCT_SUMMARY_H */
