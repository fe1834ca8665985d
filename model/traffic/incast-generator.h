/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: N-to-1 incast flows, synchronized or jittered, once or periodically.
 */
#ifndef INCAST_GENERATOR_H
#define INCAST_GENERATOR_H

#include "flow-size-cdf.h"
#include "flow-source.h"

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief An incast: N senders each start one flow to the same receiver, in Rounds rounds
 *        Period apart (the partition-aggregate pattern of DCTCP's evaluation; the N-to-1
 *        scenario of congestion-control tests).
 *
 * Round k (0..Rounds-1) begins at StartTime + k * Period. Each sender's flow in it starts at
 * the round's beginning plus a jitter drawn uniformly in [0, Jitter) (floor of u * Jitter in
 * Time steps; Jitter 0: all senders start together). Sizes are FlowSize bytes, or drawn from
 * a FlowSizeCdf if one is set (SetFlowSizeCdf). Within a round the flows come out of Next()
 * in start order (equal starts in sender order), ids FirstFlowId, FirstFlowId + 1, ... in
 * that order.
 *
 * Per round the draws are, sender by sender in SetSenders() order: jitter (if Jitter > 0),
 * then size (if a CDF is set). Random streams (AssignStreams, 2): jitter, sizes.
 *
 * Configuration is read at the first Next(), which aborts, naming the values, if no sender
 * was set, the receiver is one of the senders (a flow to itself), a sender is listed twice,
 * Rounds > 1 with Period 0, or Jitter > Period with Rounds > 1 (rounds would overlap and
 * flows come out of start order). Out-of-range attributes abort when set.
 */
class IncastGenerator : public FlowSource
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    IncastGenerator();
    ~IncastGenerator() override;

    /**
     * \brief Set the senders (host indices), before the first Next().
     * \param senders the senders, N >= 1, distinct (aborts naming the value otherwise)
     */
    void SetSenders(const std::vector<uint32_t>& senders);
    /// \return the senders
    const std::vector<uint32_t>& GetSenders() const;
    /**
     * \brief Set the receiver (host index), before the first Next(); default 0.
     * \param receiver the receiver, not one of the senders
     */
    void SetReceiver(uint32_t receiver);
    /// \return the receiver
    uint32_t GetReceiver() const;
    /**
     * \brief Draw every flow's size from \p cdf instead of using FlowSize (before the first
     *        Next()).
     * \param cdf the distribution (aborts if empty)
     */
    void SetFlowSizeCdf(const FlowSizeCdf& cdf);

    /**
     * \brief The next flow, in start order; the first call reads the configuration.
     * \return the flow, or std::nullopt after the last round
     */
    std::optional<FlowSpec> Next() override;
    /**
     * \brief Use fixed streams: \p stream for the jitter, + 1 for the sizes.
     * \param stream the first stream
     * \return 2
     */
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    /// Check the configuration (first Next()).
    void Start();
    /// Draw round m_round into m_roundFlows.
    void DrawRound();

    // Attributes.
    uint64_t m_flowSize; //!< bytes per flow without a CDF
    Time m_startTime;    //!< start of round 0
    Time m_jitter;       //!< start jitter bound
    Time m_period;       //!< time between rounds
    uint32_t m_rounds;   //!< number of rounds
    uint64_t m_firstId;  //!< id of the first flow

    std::vector<uint32_t> m_senders;        //!< senders
    uint32_t m_receiver{0};                 //!< receiver
    FlowSizeCdf m_cdf;                      //!< sizes (if not empty)
    Ptr<UniformRandomVariable> m_jitterRng; //!< start jitter
    Ptr<UniformRandomVariable> m_sizeRng;   //!< sizes
    bool m_started{false};                  //!< Start() done
    uint32_t m_round{0};                    //!< next round to draw
    std::vector<FlowSpec> m_roundFlows;     //!< the current round, in start order
    std::size_t m_roundNext{0};             //!< next flow of m_roundFlows
    uint64_t m_nextId{0};                   //!< id of the next flow
};

} // namespace ns3

#endif /* INCAST_GENERATOR_H */
