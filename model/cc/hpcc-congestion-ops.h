/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: HPCC, window control from in-band network telemetry.
 */
#ifndef HPCC_CONGESTION_OPS_H
#define HPCC_CONGESTION_OPS_H

#include "fabric-congestion-ops.h"

#include "ns3/traced-value.h"

#include <array>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief HPCC (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019,
 *        Algorithm 1 and section 3.3): a window from the per-hop in-band telemetry (INT)
 *        the switches write into data packets and the receiver echoes on ACKs.
 *
 * Per ACK with telemetry (FabricCcAckSample::hops, nHops > 0), against the previous ACK's
 * telemetry L (MeasureInflight):
 *
 *     for each hop i:  txRate_i = (txBytes_i - L_i.txBytes) x 8 / (ts_i - L_i.ts)    bits/s
 *                      u_i = min(qlen_i, L_i.qlen) x 8 / (B_i T) + txRate_i / B_i
 *     u = max_i u_i,   tau = (ts - L.ts) of that hop, clamped to T
 *     U = (1 - tau / T) U + (tau / T) u
 *
 * with B_i the hop's link rate (bits/s) and T the base RTT; then (ComputeWind)
 *
 *     U >= Eta or incStage >= MaxStage:  W = Wc / (U / Eta) + W_AI
 *     otherwise:                         W = Wc + W_AI
 *
 * The reference window Wc takes the value of W (and incStage is reset to 0, or incremented
 * after an additive step) once per RTT: on the first ACK whose cumulative acknowledged
 * bytes pass the bytes sent when Wc was last updated (the paper's ack.seq > lastUpdateSeq;
 * the model counts bytes with OnBytesSent and ackedBytes, retransmissions included). The
 * first ACK with telemetry (or the first after the number of hops changed) only stores it.
 * The window is enforced as an in-flight limit of W payload bytes and the pacing rate is
 * R = W / T (bits/s: W x 8 / T), both clamped to [MinWindow, line rate x T].
 *
 * T: the transport's unloaded path RTT (FabricCcState::GetPathRtt) when it reports one,
 * else the BaseRtt attribute. W starts at one BDP (line rate x T). W_AI: the AdditiveIncrease
 * attribute; 0 derives it as the paper's (1 - Eta) x BDP / ExpectedFlows.
 *
 * Defaults: Eta 0.95, MaxStage 5 (paper); AdditiveIncrease 80 bytes, the additive step of
 * the HPCC authors' simulator configuration at 100 Gb/s (a 50 Mb/s rate increase over a
 * ~13 us RTT); BaseRtt 10 us (a few switch hops at 100-400 Gb/s, used only when the
 * transport reports no path RTT). NACKs and timeouts do not change the window (HPCC relies on
 * PFC and go-back-N; the paper's algorithm reacts to telemetry only).
 *
 * Trace sources: "Window" (W, bytes), "Utilization" (U), "ReferenceWindow" (Wc, bytes);
 * rate and window on the state.
 */
class HpccCongestionOps : public FabricCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    HpccCongestionOps();
    ~HpccCongestionOps() override;

    /// Most hops of telemetry kept per ACK (the paper's INT stack: 5 hops).
    static constexpr uint32_t MAX_HOPS = 5;

    std::string GetName() const override;
    Ptr<FabricCongestionOps> Fork() const override;
    using FabricCongestionOps::Init;
    /**
     * \brief Start the flow at one BDP; aborts if MinWindow exceeds the BDP.
     * \param state the flow's state
     */
    void Init(Ptr<FabricCcState> state) override;
    /**
     * \brief An ACK: MeasureInflight and ComputeWind (see the class description); samples
     *        without telemetry only count the acknowledged bytes.
     * \param sample the ACK (ackedBytes, hops, nHops)
     */
    void OnAck(const FabricCcAckSample& sample) override;
    /**
     * \brief Count the bytes sent (the paper's snd_nxt, for the once-per-RTT Wc update).
     * \param bytes payload bytes of the packet
     */
    void OnBytesSent(uint32_t bytes) override;

    /// \return the window W, bytes
    double GetW() const;
    /// \return the reference window Wc, bytes
    double GetWc() const;
    /// \return the normalized inflight bytes U (EWMA)
    double GetU() const;
    /// \return the additive-increase stage counter
    uint32_t GetIncStage() const;
    /// \return the base RTT T in use (after Init)
    Time GetBaseRtt() const;
    /// \return the additive increment W_AI in use, bytes (after Init)
    double GetAdditiveIncrease() const;
    /// \return the hops of the last telemetry received (0: none yet)
    uint32_t GetNHops() const;

  private:
    /**
     * \brief Algorithm 1's MeasureInflight.
     * \param sample the ACK with telemetry, nHops equal to the stored hops
     */
    void MeasureInflight(const FabricCcAckSample& sample);
    /**
     * \brief Algorithm 1's ComputeWind, then apply W.
     * \param updateWc true: this ACK updates Wc and incStage
     */
    void ComputeWind(bool updateWc);
    /// Clamp W, write window and rate to the state.
    void Apply();

    // attributes
    double m_eta;          //!< target utilization
    uint32_t m_maxStage;   //!< additive steps before a multiplicative one
    uint64_t m_wai;        //!< additive increment, bytes (0 = derived)
    uint32_t m_nFlows;     //!< expected concurrent flows (derives W_AI)
    Time m_baseRttAttr;    //!< T when the transport reports no path RTT
    uint64_t m_minWindow;  //!< smallest window, bytes
    uint64_t m_initWindow; //!< initial window, bytes (0 = one BDP)

    // state
    Time m_t;                                            //!< base RTT T in use
    double m_waiBytes{0};                                //!< W_AI in use, bytes
    double m_maxW{0};                                    //!< line rate x T, bytes
    TracedValue<double> m_w{0};                          //!< window W, bytes
    TracedValue<double> m_wc{0};                         //!< reference window Wc, bytes
    TracedValue<double> m_u{0};                          //!< normalized inflight U
    uint32_t m_incStage{0};                              //!< additive-increase stage
    uint64_t m_sentBytes{0};                             //!< payload bytes sent so far
    uint64_t m_ackedBytes{0};                            //!< payload bytes acknowledged so far
    uint64_t m_lastUpdateSeq{0};                         //!< m_sentBytes at the last Wc update
    std::array<FabricCcHopTelemetry, MAX_HOPS> m_last{}; //!< previous ACK's telemetry
    uint32_t m_lastHops{0};                              //!< hops in m_last (0: none yet)
};

} // namespace ns3

#endif /* HPCC_CONGESTION_OPS_H */
