/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the initiator side of UET's PDC-less delivery modes, RUDI and UUD.
 */
#ifndef UET_PDCLESS_FLOW_H
#define UET_PDCLESS_FLOW_H

#include "uet-message-sender.h"
#include "uet-pdc.h"
#include "uet-psn-window.h"

#include "ns3/event-id.h"

#include <optional>
#include <ostream>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The initiator side of the PDC-less modes to one {JobID, destination FEP} (UEC 1.0
 *        PDS; UET.md "Layers"):
 *  - RUDI (reliable unordered delivery for idempotent operations): no PDC and no handshake;
 *    every packet carries a 32-bit packet id (counting from 0 per {JobID, destination}) and is
 *    answered by its own RUDI_RESP carrying the SES response; unanswered packets are resent
 *    after their RTO (RtoMin x 2^retries) or a NACK, and a packet that exhausts RetryLimit
 *    fails its operation, whose other packets are given up with it (other operations go on:
 *    there is no PDC to close). At most MpRange packets are unanswered at a time.
 *  - UUD (unreliable unordered datagrams): packets leave at line rate, nothing is answered or
 *    resent; an operation completes locally when its last packet has left (the target
 *    delivers only messages that arrive whole; the fabric's losses show in the NICs' UUD
 *    counters).
 *
 * The RUDI target keeps, per {initiator FEP, JobID}, a window of MpRange packet ids so a
 * packet resent because its response was lost is answered again but not counted twice [model
 * choice: it needs no other per-packet state at the target].
 */
class UetPdclessFlow : public UetMessageSender
{
  public:
    /**
     * \param nic the NIC
     * \param port FEP index
     * \param mode RUDI or UUD
     * \param jobId the JobID
     * \param peer the destination FEP
     * \param ev the EV (UDP source port)
     */
    UetPdclessFlow(UetNic* nic,
                   uint32_t port,
                   UetDeliveryMode mode,
                   uint32_t jobId,
                   Ipv4Address peer,
                   uint16_t ev);
    ~UetPdclessFlow() override;

    /**
     * \brief Queue an operation.
     * \param m the message
     */
    void Post(UetTxMessage m);
    /// A RUDI_RESP for this flow arrived. \param rx the packet
    void ReceiveResponse(const UetRxPacket& rx);
    /// A RUDI NACK for this flow arrived. \param rx the packet
    void ReceiveNack(const UetRxPacket& rx);
    /// One line for a stall diagnosis. \param os the stream
    void Describe(std::ostream& os) const;

    /// \return the delivery mode (RUDI or UUD)
    UetDeliveryMode GetMode() const
    {
        return m_mode;
    }

    // FabricNicFlow
    bool HasPacketToSend() const override;
    Time GetNextSendTime() const override;
    FabricFrame BuildNextPacket(const Time& now) override;

  private:
    /// Arm the RTO timer at the oldest unanswered packet's deadline.
    void ArmRto();
    /// The RTO timer fired.
    void RtoExpired();
    /// Give up on a packet id and on every other packet of its message in flight: the
    /// operation fails, the window moves on.
    void Abandon(uint32_t pktId, const std::string& why);
    /// Pop answered packet ids at the front of the window.
    void Advance();

    uint32_t m_jobId;                  //!< JobID
    Ipv4Address m_peer;                //!< destination FEP
    uint16_t m_ev;                     //!< UDP source port
    std::optional<UetSendWindow> m_tx; //!< RUDI: unanswered packet ids
    EventId m_rtoEvent;                //!< RUDI RTO timer
    EventId m_flushEvent;              //!< UUD: completions handed out as an event
};

} // namespace ns3

#endif /* UET_PDCLESS_FLOW_H */
