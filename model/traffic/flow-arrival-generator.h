/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: Poisson flow arrivals for a target load of the host links, sizes from a CDF.
 */
#ifndef FLOW_ARRIVAL_GENERATOR_H
#define FLOW_ARRIVAL_GENERATOR_H

#include "flow-size-cdf.h"
#include "flow-source.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief Open-loop flow arrivals, the workload of data-center congestion-control studies
 *        (DCTCP, HPCC, ...): every host starts flows as a Poisson process whose rate offers a
 *        target load L of its link, sizes drawn from a FlowSizeCdf, destinations drawn at
 *        random or from a fixed permutation.
 *
 * With N hosts (indices 0..N-1), host link rate R (bits/s) and mean flow size S (bytes,
 * FlowSizeCdf::GetMean()), each host starts flows at rate
 *
 *     lambda = L * R / (8 * S)   flows per second,
 *
 * so that it sends L * R bits/s on average; the N independent processes are generated as one
 * Poisson process of rate N * lambda whose every arrival picks its source uniformly among the
 * hosts (the superposition of Poisson processes is a Poisson process, and each arrival belongs
 * to host i with probability 1/N). Inter-arrival times are exponential (ExponentialRandomVariable
 * of mean 1 / (N * lambda)); the first flow starts one inter-arrival after StartTime, and flows
 * start while their start time is before StopTime. An arrival's start time is StartTime plus
 * the sum of the inter-arrival times (kept in double-precision seconds, not accumulated in
 * rounded Time steps), rounded to the nearest Time step.
 *
 * Destinations (PairMode): Random draws each flow's destination uniformly among the N - 1
 * other hosts, so every host also receives L * R on average; Permutation draws one
 * derangement at the first Next() (every host sends to one other host and receives from one,
 * HtsimConnectionMatrix::Permutation's draw) and sends all of a host's flows to its partner.
 *
 * Per arrival the draws are, in this order: inter-arrival time, source, destination (Random
 * only), size. Random streams (AssignStreams, 3): arrivals, hosts (sources, destinations and
 * the permutation), sizes; changing the stream of one leaves the others' draws unchanged.
 *
 * Flow ids are FirstFlowId, FirstFlowId + 1, ... in start order. Configuration (attributes,
 * SetFlowSizeCdf, SetNHosts) is read at the first Next() and cannot change afterwards; the
 * first Next() aborts, naming the value, if no CDF was set, fewer than 2 hosts were set, the
 * StopTime is not after the StartTime, or the CDF's mean is below 1 byte. Out-of-range
 * attributes (Load outside (0, 1], HostLinkRate 0) abort when set.
 */
class FlowArrivalGenerator : public FlowSource
{
  public:
    /// How destinations are chosen.
    enum PairMode
    {
        PAIR_RANDOM,      //!< uniform among the other hosts, per flow
        PAIR_PERMUTATION, //!< a fixed random derangement, drawn once
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FlowArrivalGenerator();
    ~FlowArrivalGenerator() override;

    /**
     * \brief Set the flow-size distribution (before the first Next()).
     * \param cdf the distribution (aborts if empty)
     */
    void SetFlowSizeCdf(const FlowSizeCdf& cdf);
    /// \return the flow-size distribution
    const FlowSizeCdf& GetFlowSizeCdf() const;
    /**
     * \brief Set the number of hosts; flows go between host indices 0..n-1 (before the first
     *        Next()).
     * \param n the hosts, >= 2 (aborts naming it otherwise)
     */
    void SetNHosts(uint32_t n);
    /// \return the number of hosts (0 until set)
    uint32_t GetNHosts() const;

    /**
     * \return the arrival rate of one host, lambda = Load * HostLinkRate / (8 * mean size),
     *         in flows per second (aborts if no CDF was set)
     */
    double GetPerHostArrivalRate() const;
    /// \return the arrival rate of all hosts, N * lambda, flows per second
    double GetArrivalRate() const;
    /**
     * \return the destination of each host in Permutation mode (drawn at the first Next();
     *         empty before it, and in Random mode)
     */
    const std::vector<uint32_t>& GetPermutation() const;

    /**
     * \brief The next arrival, in start order; the first call reads the configuration.
     * \return the flow, or std::nullopt once the next arrival would start at or after StopTime
     */
    std::optional<FlowSpec> Next() override;
    /**
     * \brief Use fixed streams: \p stream for the arrivals, + 1 for the hosts, + 2 for the
     *        sizes.
     * \param stream the first stream
     * \return 3
     */
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    /// Check the configuration and draw the permutation (first Next()).
    void Start();

    // Attributes.
    double m_load;       //!< target load of each host link, (0, 1]
    DataRate m_rate;     //!< host link rate, bits/s
    Time m_startTime;    //!< arrivals begin after it
    Time m_stopTime;     //!< no flow starts at or after it
    PairMode m_pairMode; //!< destination choice
    uint64_t m_firstId;  //!< id of the first flow

    FlowSizeCdf m_cdf;                           //!< flow sizes
    uint32_t m_nHosts{0};                        //!< hosts
    Ptr<ExponentialRandomVariable> m_arrivalRng; //!< inter-arrival times
    Ptr<UniformRandomVariable> m_hostRng;        //!< sources, destinations, permutation
    Ptr<UniformRandomVariable> m_sizeRng;        //!< sizes
    std::vector<uint32_t> m_permutation;         //!< destination per host (Permutation)
    bool m_started{false};                       //!< Start() done
    bool m_done{false};                          //!< StopTime reached
    double m_meanInterArrival{0};                //!< 1 / (N lambda), seconds
    double m_clock{0};                           //!< seconds since StartTime of the last arrival
    uint64_t m_nextId{0};                        //!< id of the next flow
};

} // namespace ns3

#endif /* FLOW_ARRIVAL_GENERATOR_H */
