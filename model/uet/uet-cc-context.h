/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a UET congestion control context (CCC), shared by the PDCs of one
 * {source, destination, traffic class}.
 */
#ifndef UET_CC_CONTEXT_H
#define UET_CC_CONTEXT_H

#include "ns3/fabric-congestion-ops.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FabricNic;
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
 */
class UetCcContext
{
  public:
    /**
     * \param cc the algorithm instance, Init()ed (not null)
     * \param core the NIC core whose flows the members are (rescheduled on a rate change)
     * \param key the NIC's key of the context ({port, traffic class, destination})
     */
    UetCcContext(Ptr<FabricCongestionOps> cc, FabricNic* core, uint64_t key);
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

  private:
    /// The algorithm changed the rate: every member re-paces.
    void OnRateChange();

    Ptr<FabricCongestionOps> m_cc;  //!< the algorithm
    FabricCcState* m_state;         //!< its state
    FabricNic* m_core;              //!< the NIC core
    uint64_t m_key;                 //!< the NIC's key
    std::vector<UetPdc*> m_members; //!< PDCs using the context
    Time m_lastSendStart;           //!< last packet's start
    uint32_t m_lastWire{0};         //!< its wire bytes (0: none yet)
};

} // namespace ns3

#endif /* UET_CC_CONTEXT_H */
