/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: TIMELY, RTT-gradient rate control.
 */
#ifndef TIMELY_CONGESTION_OPS_H
#define TIMELY_CONGESTION_OPS_H

#include "fabric-congestion-ops.h"

#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief TIMELY (Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter",
 *        SIGCOMM 2015, Algorithm 1): rate control on the gradient of the RTT.
 *
 * Every ACK that carries an RTT sample is a completion event (RoCE ACKs every AckInterval
 * packets, 16 x 4 KB = 64 KB by default, the paper's segment size range 16..64 KB). With
 * new_rtt the sample:
 *
 *     new_rtt_diff = new_rtt - prev_rtt;  prev_rtt = new_rtt
 *     rtt_diff = (1 - Alpha) rtt_diff + Alpha new_rtt_diff      (EWMA)
 *     gradient = rtt_diff / MinRtt
 *     new_rtt < TLow:   rate += Delta
 *     new_rtt > THigh:  rate *= 1 - Beta (1 - THigh / new_rtt)
 *     gradient <= 0:    rate += N Delta, N = HaiFactor once HaiThreshold consecutive events
 *                       had gradient <= 0 (hyperactive increase), else N = 1
 *     otherwise:        rate *= 1 - Beta min(gradient, 1)
 *
 * (The paper's decrease is rate (1 - Beta gradient), which turns negative for gradients above
 * 1 / Beta; the model clips the gradient at 1, so one step cuts at most Beta of the rate.)
 * The first sample only sets prev_rtt. The rate stays in [MinRate, line rate]; the flow starts
 * at line rate. Defaults are the paper's (section 5, 10 Gb/s): Alpha 0.875, Beta 0.8,
 * Delta 10 Mb/s, TLow 50 us, THigh 500 us, MinRtt 20 us, HAI after 5 events with N = 5.
 * The RTT sample is the transport's (first send of the newest acknowledged packet to its ACK;
 * the paper subtracts the segment's serialization time, which at 400 Gb/s is 82 ns per 4 KB
 * packet and is not subtracted here).
 *
 * Trace sources: "Rtt" (each sample), "RttDiff" (the EWMA); the rate is the state's "Rate".
 */
class TimelyCongestionOps : public FabricCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TimelyCongestionOps();
    ~TimelyCongestionOps() override;

    std::string GetName() const override;
    Ptr<FabricCongestionOps> Fork() const override;
    using FabricCongestionOps::Init;
    void Init(Ptr<FabricCcState> state) override;
    /**
     * \brief A completion event: Algorithm 1 on sample.rtt (samples with rtt 0 are ignored).
     * \param sample the ACK
     */
    void OnAck(const FabricCcAckSample& sample) override;
    /// \return true: TIMELY needs RTT samples
    bool WantsRttSamples() const override;

    /// \return the EWMA of the RTT difference, seconds (may be negative)
    double GetRttDiff() const;
    /// \return consecutive completion events with gradient <= 0
    uint32_t GetNegativeGradientCount() const;

  private:
    // attributes
    double m_alpha;          //!< EWMA weight of the new RTT difference, (0, 1]
    double m_beta;           //!< multiplicative decrease factor, (0, 1]
    DataRate m_delta;        //!< additive increase step
    Time m_tLow;             //!< below: additive increase
    Time m_tHigh;            //!< above: decrease by the RTT
    Time m_minRtt;           //!< gradient normalization
    uint32_t m_haiThreshold; //!< events with gradient <= 0 before HAI
    uint32_t m_haiFactor;    //!< HAI multiplier N
    DataRate m_minRate;      //!< rate floor

    // state
    bool m_havePrev{false};           //!< prev_rtt is set
    Time m_prevRtt;                   //!< prev_rtt
    TracedValue<double> m_rttDiff{0}; //!< rtt_diff, seconds
    TracedValue<Time> m_rtt;          //!< last sample
    uint32_t m_negCount{0};           //!< consecutive events with gradient <= 0
};

} // namespace ns3

#endif /* TIMELY_CONGESTION_OPS_H */
