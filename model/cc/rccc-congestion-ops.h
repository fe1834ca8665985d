/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: RCCC, Ultra Ethernet's receiver-credit congestion control (sender side).
 */
#ifndef RCCC_CONGESTION_OPS_H
#define RCCC_CONGESTION_OPS_H

#include "fabric-congestion-ops.h"

#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-cc
 * \brief RCCC, the Ultra Ethernet receiver-credit congestion control (UEC 1.0 section 3.6.14;
 *        UET.md "RCCC"), sender side: the flow sends only while it holds credit, and the
 *        receiver's NIC grants credit at a little less than its line rate, round-robin over
 *        the senders that ask (the receiver side is the transport's: UetCreditPacer).
 *
 * Credit is counted in bytes on the wire (a packet's Ethernet frame with preamble and IFG), so
 * that the receiver's pacer, granting at CreditRate x line rate, admits that fraction of its
 * link's time. A packet may leave on any positive credit and spends its full size (the credit
 * may go negative, as in UEC's htsim).
 *
 * A new flow starts speculating with SpeculativeCredit (default MaxWindow) of credit nobody
 * granted, so a short transfer needs no round trip. The first acknowledgement or grant ends the
 * speculation: credit left over then is dropped (a negative credit, an overdraft, stays).
 *
 * The credit target (UET credit_target) is cumulative: the credit granted so far, G, plus what
 * the flow still needs:
 *   need = min(backlog, MaxWindow [, window + Mtu when a window algorithm runs beside]) - credit,
 * at least Mtu while speculating with a backlog, and never negative; target = G + need. The
 * transport sends it in every request (RUD_CC_REQ) and in a Credit-Request control packet when
 * it cannot send for want of credit. Grants arrive as the receiver's cumulative credit G' > G:
 * credit += G' - G.
 *
 * RCCC runs alone or beside a sender algorithm (SenderCc, e.g. NsccCongestionOps: "NSCC and
 * RCCC together", sending needs both): that algorithm shares the flow's state (its window
 * bounds the bytes in flight, RCCC's credit bounds the bytes sent) and receives every hook.
 * With credit on (FabricCcState::UsesCredit), NSCC does not cut its window for last-hop trims
 * (the receiver's pacer owns the last hop).
 *
 * Defaults: MaxWindow 0 = 1.5 x line rate x BaseRtt (UEC htsim's initRccc; set BaseRtt to the
 * fabric's largest unloaded RTT, as for NSCC).
 *
 * Trace sources: "Granted" (cumulative credit granted, bytes), "CreditTarget" (the last target
 * computed, bytes); the credit itself is the state's "Credit".
 */
class RcccCongestionOps : public FabricCongestionOps
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RcccCongestionOps();
    ~RcccCongestionOps() override;

    /// \return "RCCC", or "RCCC+<sender algorithm>" (e.g. "RCCC+NSCC")
    std::string GetName() const override;
    Ptr<FabricCongestionOps> Fork() const override;
    /**
     * \brief Start with speculative credit and turn on credit gating; Init the SenderCc (if
     *        any) on the same state. Aborts naming the value and range if SpeculativeCredit
     *        exceeds MaxWindow.
     * \param state the flow's state
     */
    void Init(Ptr<FabricCcState> state) override;
    using FabricCongestionOps::Init; // Init(DataRate)
    /**
     * \brief An acknowledgement or NACK: ends the speculation; passed to the SenderCc.
     * \param sample what it tells
     */
    void OnAck(const FabricCcAckSample& sample) override;
    /**
     * \brief Passed to the SenderCc.
     * \param event what happened
     */
    void OnEvent(FabricCcEvent event) override;
    /**
     * \brief Passed to the SenderCc (the transport spends the credit itself).
     * \param bytes payload bytes
     */
    void OnBytesSent(uint32_t bytes) override;
    /**
     * \brief A grant: ends the speculation, then credit += cumulativeBytes - granted so far.
     * \param cumulativeBytes the receiver's cumulative grant (ignored unless above the last)
     */
    void OnCredit(uint64_t cumulativeBytes) override;
    /// \return granted so far + what the flow still needs (see the class description)
    uint64_t GetCreditTarget() override;
    /// \return true
    bool UsesCredit() const override;
    /// \return the SenderCc's (false alone)
    bool WantsRttSamples() const override;
    /// \return the SenderCc's (false alone)
    bool WantsReceiverState() const override;

    /**
     * \param lineRate a port's rate
     * \return MaxWindow at that rate: the attribute, or 1.5 x lineRate x BaseRtt (before Init
     *         too; a receiver sizes its idle credit with it)
     */
    uint64_t ComputeMaxWindow(DataRate lineRate) const;

    /// \return the largest credit the flow asks for, bytes on the wire (after Init)
    uint64_t GetMaxWindow() const
    {
        return m_maxWnd;
    }

    /// \return cumulative credit granted, bytes
    uint64_t GetGranted() const
    {
        return m_granted;
    }

    /// \return true until the first acknowledgement or grant
    bool IsSpeculating() const
    {
        return m_speculating;
    }

    /// \return the algorithm running beside RCCC (null: none)
    Ptr<FabricCongestionOps> GetSenderCc() const
    {
        return m_sender;
    }

  protected:
    void DoDispose() override;

  private:
    /// End the speculation: unspent speculative credit is dropped.
    void StopSpeculating();

    Time m_baseRtt;                     //!< BaseRtt attribute
    uint64_t m_maxWndAttr{0};           //!< MaxWindow attribute (0 = computed)
    uint64_t m_specAttr{0};             //!< SpeculativeCredit attribute (0 = MaxWindow)
    uint32_t m_mtu{4096};               //!< Mtu attribute
    Ptr<FabricCongestionOps> m_sender;  //!< SenderCc (prototype, then this flow's instance)
    uint64_t m_maxWnd{0};               //!< MaxWindow in effect
    bool m_speculating{true};           //!< no feedback yet
    TracedValue<uint64_t> m_granted{0}; //!< cumulative grant
    TracedValue<uint64_t> m_target{0};  //!< last credit target
};

} // namespace ns3

#endif /* RCCC_CONGESTION_OPS_H */
