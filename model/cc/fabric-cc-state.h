/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: per-flow congestion-control state, shared by a transport flow and its algorithm.
 */
#ifndef FABRIC_CC_STATE_H
#define FABRIC_CC_STATE_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief The congestion-control state of one flow (a RoCE QP, a UET PDC or congestion context),
 *        shaped like ns-3's TcpSocketState: what the transport enforces and what the algorithm
 *        (a FabricCongestionOps) writes, in one traced object.
 *
 * The transport paces its packets at GetRate() (bits/s on the wire: Ethernet framing,
 * preamble and IFG included) and, if GetWindow() is non-zero, keeps at most that many payload
 * bytes in flight. The algorithm sets both through SetRate() / SetWindow(); the rate is always
 * clamped to [1 bit/s, line rate]. GetTargetRate() is the rate the algorithm is heading for
 * (DCQCN's Rt, HPCC's or Swift's target); algorithms without one leave it at the line rate.
 *
 * A receiver-driven algorithm (RCCC) also gates sending on credit: when UsesCredit() is set the
 * transport sends only while GetCredit() > 0 and spends each packet's wire bytes
 * (SpendCredit), reports the bytes it still has to send (SetBacklog) and puts the algorithm's
 * credit target in its requests (FabricCongestionOps::GetCreditTarget).
 *
 * Trace sources: "Rate", "Window", "TargetRate", "Credit".
 */
class FabricCcState : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricCcState();
    ~FabricCcState() override;

    /**
     * \brief Start a flow on a port of rate \p lineRate: rate and target rate at line rate,
     *        no window.
     * \param lineRate the port rate, > 0 (aborts naming the value otherwise)
     */
    void Init(DataRate lineRate);

    /// \return the pacing rate, bits/s, in [1 bit/s, line rate]
    DataRate GetRate() const
    {
        return m_rate;
    }

    /// \return the in-flight window in payload bytes (0 = no window)
    uint64_t GetWindow() const
    {
        return m_window;
    }

    /// \return the line rate given to Init()
    DataRate GetLineRate() const
    {
        return m_lineRate;
    }

    /**
     * \return payload bytes the transport has in flight (sent, neither acknowledged nor
     *         declared lost), as it last reported them (TcpSocketState's m_bytesInFlight);
     *         0 for transports that do not report it
     */
    uint64_t GetBytesInFlight() const
    {
        return m_bytesInFlight;
    }

    /**
     * \brief Report the bytes in flight (the transport calls it before each hook that
     *        depends on them).
     * \param bytes payload bytes
     */
    void SetBytesInFlight(uint64_t bytes)
    {
        m_bytesInFlight = bytes;
        m_reportsBytesInFlight = true;
    }

    /**
     * \return the unloaded RTT of the flow's path as the transport knows it from the topology
     *         (0 = unknown); delay-based algorithms start their base RTT there
     */
    Time GetPathRtt() const
    {
        return m_pathRtt;
    }

    /**
     * \brief Tell the algorithm the unloaded RTT of the flow's path (before its Init).
     * \param rtt the RTT, >= 0 (0 = unknown)
     */
    void SetPathRtt(Time rtt)
    {
        m_pathRtt = rtt;
    }

    /**
     * \return payload bytes of a full packet of the flow (the transport's MTU; RoCE sets its
     *         path MTU), 0 = unknown; window algorithms count their packets in these units
     */
    uint32_t GetMss() const
    {
        return m_mss;
    }

    /**
     * \brief Tell the algorithm the flow's packet payload size (before its Init).
     * \param bytes payload bytes per full packet (0 = unknown)
     */
    void SetMss(uint32_t bytes)
    {
        m_mss = bytes;
    }

    /**
     * \return the packet payload size for window arithmetic: GetMss(), or 4096 bytes (the
     *         RoCE default path MTU) when the transport did not set it
     */
    uint32_t GetMssOrDefault() const
    {
        return m_mss > 0 ? m_mss : 4096;
    }

    /// \return true if the flow sends only on credit (set by a receiver-credit algorithm)
    bool UsesCredit() const
    {
        return m_usesCredit;
    }

    /**
     * \brief Make the transport gate sending on credit (RCCC's Init does it).
     * \param on true: send only while GetCredit() > 0
     */
    void SetUsesCredit(bool on)
    {
        m_usesCredit = on;
    }

    /**
     * \return the credit, bytes on the wire (Ethernet frame with preamble and IFG). It may be
     *         negative: a packet may leave on any positive credit and spends its full size.
     */
    int64_t GetCredit() const
    {
        return m_credit;
    }

    /**
     * \brief Set the credit (the algorithm: grants, speculative credit).
     * \param bytes credit, bytes on the wire
     */
    void SetCredit(int64_t bytes)
    {
        m_credit.Set(bytes);
    }

    /**
     * \brief A packet left on credit (the transport, when UsesCredit()).
     * \param wireBytes its size on the wire, bytes
     */
    void SpendCredit(uint32_t wireBytes)
    {
        m_credit -= static_cast<int64_t>(wireBytes);
    }

    /**
     * \return bytes on the wire the flow still has to send (new packets and retransmissions),
     *         as the transport last reported them (0 if it does not)
     */
    uint64_t GetBacklog() const
    {
        return m_backlog;
    }

    /**
     * \brief Report the backlog (the transport, before asking for the credit target).
     * \param bytes bytes on the wire still to send
     */
    void SetBacklog(uint64_t bytes)
    {
        m_backlog = bytes;
    }

    /// \return true once the transport has reported its bytes in flight
    bool ReportsBytesInFlight() const
    {
        return m_reportsBytesInFlight;
    }

    /// \return the target rate (the line rate unless the algorithm sets one)
    DataRate GetTargetRate() const
    {
        return m_targetRate;
    }

    /**
     * \brief Set the pacing rate, clamped to [1 bit/s, line rate]; a change calls the rate
     *        change callback (the transport re-paces at once).
     * \param rate the new rate
     */
    void SetRate(DataRate rate);
    /**
     * \brief Set the in-flight window.
     * \param bytes payload bytes, 0 = no window
     */
    void SetWindow(uint64_t bytes);
    /**
     * \brief Set the target rate (traced only; the transport does not enforce it).
     * \param rate the target, clamped to the line rate
     */
    void SetTargetRate(DataRate rate);
    /**
     * \brief Set what the transport does when the rate changes.
     * \param cb called after every change of GetRate()
     */
    void SetRateChangeCallback(Callback<void> cb);

  protected:
    void DoDispose() override;

  private:
    DataRate m_lineRate;                //!< port rate
    TracedValue<DataRate> m_rate;       //!< pacing rate
    TracedValue<uint64_t> m_window;     //!< in-flight window, bytes
    TracedValue<DataRate> m_targetRate; //!< target rate
    Callback<void> m_rateChanged;       //!< the transport's re-pacing hook
    uint64_t m_bytesInFlight{0};        //!< reported by the transport
    bool m_reportsBytesInFlight{false}; //!< SetBytesInFlight was called
    Time m_pathRtt;                     //!< unloaded RTT of the path (0 = unknown)
    uint32_t m_mss{0};                  //!< payload bytes per full packet (0 = unknown)
    bool m_usesCredit{false};           //!< sending is gated on credit
    TracedValue<int64_t> m_credit{0};   //!< credit, wire bytes
    uint64_t m_backlog{0};              //!< bytes still to send, reported by the transport
};

} // namespace ns3

#endif /* FABRIC_CC_STATE_H */
