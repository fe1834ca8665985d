/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a UET congestion control context (CCC), shared by the PDCs of one
 * {source, destination, traffic class}.
 */
#ifndef UET_CC_CONTEXT_H
#define UET_CC_CONTEXT_H

#include "ns3/event-id.h"
#include "ns3/fabric-congestion-ops.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FabricNic;
class UetNic;
class UetPdc;

/**
 * \ingroup ai-fabric-uet
 * \brief A congestion control context (CCC, UEC 1.0 section 3.6: congestion management is per
 *        {source FEP, destination FEP, traffic class}): one congestion-control instance, one
 *        window and one pacing clock for every PDC of that pair and class, so that a host
 *        talking to a peer over several PDCs (jobs, RUD and ROD, READ data back) gets one
 *        pair's share of the network, not one per PDC.
 *
 * The UetNic creates a context with the first PDC of a pair (UetNic::AcquireCcContext) and
 * deletes it when the last one leaves: memory follows the open PDCs. The window bounds the sum
 * of the member PDCs' bytes in flight; a rate (if the algorithm sets one) paces their sum.
 *
 * Receiver credit (RCCC, FabricCongestionOps::UsesCredit): the context's credit gates its
 * members' packets; its CCC id and credit target go in their requests (RUD_CC_REQ); grants
 * (Credit control packets, ACK_CC credit) arrive as 24-bit cumulative values and are widened
 * here (OnCreditField). When the context cannot send for want of credit and its target grew
 * (new messages, losses to resend), it asks with a Credit-Request control packet, at most once
 * per CreditRequestInterval; without a grant for RtoMin it asks again, and after RetryLimit
 * unanswered requests its PDCs close in error (a run always ends).
 */
class UetCcContext
{
  public:
    /**
     * \param cc the algorithm instance, Init()ed (not null)
     * \param nic the UET NIC whose PDCs the members are (its core reschedules them on a rate
     *        change)
     * \param key the NIC's key of the context ({port, traffic class, destination})
     * \param cccId its CCC id in requests (RUD_CC_REQ), 0..255
     */
    UetCcContext(Ptr<FabricCongestionOps> cc, UetNic* nic, uint64_t key, uint8_t cccId);
    ~UetCcContext();

    UetCcContext(const UetCcContext&) = delete;
    UetCcContext& operator=(const UetCcContext&) = delete;

    /// \return the algorithm
    const Ptr<FabricCongestionOps>& GetOps() const
    {
        return m_cc;
    }

    /// \return the NIC's key of the context
    uint64_t GetKey() const
    {
        return m_key;
    }

    /// \return its state (rate, window)
    FabricCcState* GetState() const
    {
        return m_state;
    }

    /// \param pdc a PDC that starts using the context
    void Join(UetPdc* pdc);
    /// \param pdc a member that stops using it
    void Leave(UetPdc* pdc);

    /// \return member PDCs
    uint32_t GetMembers() const
    {
        return static_cast<uint32_t>(m_members.size());
    }

    /// \return payload bytes in flight over every member
    uint64_t GetInflightBytes() const;

    /**
     * \brief A member put a packet on the wire (for pacing).
     * \param now when it started
     * \param wireBytes its size on the wire, bytes
     */
    void RecordSend(Time now, uint32_t wireBytes)
    {
        m_lastSendStart = now;
        m_lastWire = wireBytes;
    }

    /**
     * \brief Room opened in the shared window (an ACK, NACK or RTO of one member, or the
     *        algorithm grew the window): every member with something to send is activated.
     */
    void WakeMembers();

    /// \return the earliest time the pair may start its next packet at the paced rate
    Time GetNextSendTime() const;

    /// \return its CCC id
    uint8_t GetCccId() const
    {
        return m_cccId;
    }

    /// \return true if the members send only on credit (RCCC)
    bool UsesCredit() const
    {
        return m_state->UsesCredit();
    }

    /// \return true if credit allows a packet now (always without RCCC)
    bool HasCredit() const
    {
        return !m_state->UsesCredit() || m_state->GetCredit() > 0;
    }

    /**
     * \brief A member sends a request on credit: spends it and returns the credit target to
     *        carry (reported to the algorithm with the backlog after this packet).
     * \param wireBytes the packet's size on the wire, bytes
     * \return the cumulative credit target, bytes
     */
    uint64_t SpendCredit(uint32_t wireBytes);

    /**
     * \brief A grant arrived (Credit control packet, ACK_CC credit): the 24-bit cumulative
     *        field, widened against the last one (more than 2^23 behind: stale, ignored).
     * \param field the credit field
     */
    void OnCreditField(uint32_t field);

    /**
     * \brief Something the context must send may be stuck for want of credit (a message was
     *        posted, a loss was marked): ask the receiver if the target grew.
     */
    void MaybeRequestCredit();

    /// Take the pending Credit-Request timer out of the queue (before the context is freed).
    void Stop();

  private:
    /// \return bytes on the wire the members still have to send (reported to the state)
    uint64_t UpdateBacklog();
    /**
     * \brief Send a Credit-Request if the target grew (or \p retry), subject to the interval.
     * \param retry resend even if the target did not grow (no grant for RtoMin)
     */
    void RequestCredit(bool retry);
    /// The Credit-Request timer: defer, retry or give up.
    void CreditTimer();
    /// \param at when the timer fires (earlier than a pending one: rescheduled)
    void ArmCreditTimer(Time at);
    /// The algorithm changed the rate: every member re-paces.
    void OnRateChange();

    Ptr<FabricCongestionOps> m_cc;   //!< the algorithm
    FabricCcState* m_state;          //!< its state
    UetNic* m_nic;                   //!< the NIC
    FabricNic* m_core;               //!< the NIC core
    uint64_t m_key;                  //!< the NIC's key
    std::vector<UetPdc*> m_members;  //!< PDCs using the context
    Time m_lastSendStart;            //!< last packet's start
    uint32_t m_lastWire{0};          //!< its wire bytes (0: none yet)
    uint8_t m_cccId;                 //!< CCC id
    uint64_t m_granted{0};           //!< cumulative grant, widened
    uint64_t m_advertised{0};        //!< largest credit target sent
    Time m_lastRequest{Time::Min()}; //!< last Credit-Request
    Time m_lastGrant{Time::Min()};   //!< last grant
    uint32_t m_requestRetries{0};    //!< Credit-Requests resent without a grant
    EventId m_creditTimer;           //!< Credit-Request timer
};

} // namespace ns3

#endif /* UET_CC_CONTEXT_H */
