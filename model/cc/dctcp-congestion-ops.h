/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: DCTCP-style window congestion control (for RoCE with ECN echo on ACKs).
 */
#ifndef DCTCP_CONGESTION_OPS_H
#define DCTCP_CONGESTION_OPS_H

#include "fabric-congestion-ops.h"

#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief DCTCP window control (Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010,
 *        section 3.1), as DCTCP-over-RDMA evaluations run it (e.g. the DCTCP baseline of the
 *        HPCC paper, Li et al. SIGCOMM 2019): a window, no slow start, at line rate.
 *
 * The flow's window W (payload bytes, FabricCcState's window, which the RoCE QP enforces on
 * packets in flight) and the congestion estimate alpha, updated from the ECN echo on ACKs
 * (RoceNic CongestionNotification=AckEcho: FabricCcAckSample::ceBytes):
 *
 * - Observation window: once W (as it was when the window began) payload bytes have been
 *   acknowledged, alpha <- (1 - G) alpha + G F with F = CE-echoed bytes / acknowledged bytes
 *   in that window (DCTCP equation 1), and a new observation window starts.
 * - Decrease: an ACK with CE-echoed bytes sets W <- W (1 - alpha / 2) (equation 2), at most
 *   once per window of data: after a decrease the next one waits until W (as it was before the
 *   decrease: the data then in flight) more bytes are acknowledged, so the marks of one
 *   congestion episode cut the window once (TCP's CWR state). alpha is the last completed
 *   observation window's.
 * - Additive increase: every ACK without echo adds Mss x ackedBytes / W: one packet (Mss,
 *   FabricCcState::GetMssOrDefault, RoCE's path MTU) per window of data, i.e. per RTT.
 * - Loss: a NACK halves W (at most once per window of data, as a decrease), a timeout sets W
 *   to MinWindow.
 *
 * W is kept in [MinWindow, MaxWindow]. The rate stays at the line rate (ACK clocking).
 * The initial window is InitialWindow, or when that is 0 one bandwidth-delay product: line
 * rate x the path RTT the transport reports (FabricCcState::GetPathRtt), or x BaseRtt when it
 * reports none (RoCE does not).
 *
 * Trace sources: "Alpha" (alpha after each update); the window is the state's "Window".
 */
class DctcpCongestionOps : public FabricCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DctcpCongestionOps();
    ~DctcpCongestionOps() override;

    std::string GetName() const override;
    Ptr<FabricCongestionOps> Fork() const override;
    using FabricCongestionOps::Init;
    void Init(Ptr<FabricCcState> state) override;
    /**
     * \brief An ACK: alpha and window update (see the class description).
     * \param sample ackedBytes and ceBytes are read; a NACK sample halves the window
     */
    void OnAck(const FabricCcAckSample& sample) override;
    /**
     * \brief NACK: halve the window once per observation window; TIMEOUT: MinWindow. CNPs are
     *        ignored (DCTCP needs the ECN echo on ACKs).
     * \param event the event
     */
    void OnEvent(FabricCcEvent event) override;

    /// \return alpha, in [0, 1]
    double GetAlpha() const;
    /// \return the window as a real number of bytes (the state holds it rounded down)
    double GetCwnd() const;

  private:
    /// Multiply the window by \p factor unless a decrease's window of data is still unacked.
    void Decrease(double factor);
    /// Clamp m_cwnd and write it to the state.
    void Apply();

    // attributes
    double m_g;               //!< alpha gain G, (0, 1]
    double m_initialAlpha;    //!< alpha at start, [0, 1]
    uint64_t m_initialWindow; //!< bytes, 0 = one BDP
    uint64_t m_minWindow;     //!< bytes, >= 1
    uint64_t m_maxWindow;     //!< bytes, 0 = none
    Time m_baseRtt;           //!< RTT for the BDP when the transport knows none

    // state
    double m_cwnd{0};                 //!< window, bytes
    TracedValue<double> m_alpha{1.0}; //!< alpha
    uint64_t m_windowAcked{0};        //!< bytes acked in this observation window
    uint64_t m_windowCe{0};           //!< of those, CE-echoed
    double m_windowSize{0};           //!< bytes that complete this observation window
    double m_cwrBytes{0};             //!< bytes to acknowledge before the next decrease
};

} // namespace ns3

#endif /* DCTCP_CONGESTION_OPS_H */
