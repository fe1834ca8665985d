/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the SES target's view of arriving messages (shared by PDCs and by the PDC-less
 * RUDI/UUD receivers).
 */
#ifndef UET_SES_REASSEMBLY_H
#define UET_SES_REASSEMBLY_H

#include "uet-types.h"

#include <cstdint>
#include <deque>
#include <unordered_map>

namespace ns3
{

class UetNic;
class UetEndpoint;

/**
 * \ingroup ai-fabric-uet
 * \brief The SES target of one packet source (a PDC, or a RUDI/UUD initiator): decides what
 *        happens to each arriving message on its first packet (the endpoint for its {JobID,
 *        PIDonFEP}, the Resource Index, the memory key or a matching receive: UetEndpoint::
 *        Admit), counts its payload, and delivers it when request_length bytes have arrived.
 *
 * Packets may arrive in any order (RUD, RUDI, UUD): whichever comes first opens the message;
 * every SES standard request header carries what the decision needs (UEC 1.0 SES standard
 * header: JobID, PIDonFEP, Resource Index, buffer offset, key / match bits, request_length).
 * The caller removes duplicates (PSN or packet-id windows). Messages are keyed by message_id.
 *
 * Memory: one entry per message partly arrived; with a limit (UUD, whose messages may never
 * complete), the oldest entries beyond it are dropped and counted. A message dropped or
 * cleared before it arrived whole is abandoned at its endpoint (UetEndpoint::Abandon).
 */
class UetSesReassembly
{
  public:
    /// What one packet did.
    struct Outcome
    {
        bool complete{false}; //!< the message is complete (or refused): a response is due
        bool read{false};     //!< it was a READ request (one packet)
        uint16_t msgId{0};    //!< its message_id
        uint8_t rc{1};        //!< SES return code (RC_OK, or why it was refused)
        uint32_t jobId{0};    //!< its JobID
        uint64_t bytes{0};    //!< request_length
    };

    /**
     * \param nic the NIC (endpoints, delivery counters)
     * \param port the FEP index
     * \param maxMessages partly arrived messages kept (0: no limit)
     */
    UetSesReassembly(UetNic* nic, uint32_t port, uint32_t maxMessages = 0);

    /**
     * \brief A new (not duplicate) request packet with an SES standard header arrived.
     * \param src the initiator's FEP
     * \param ses the SES standard request header (44 bytes)
     * \param payload payload bytes after it
     * \param now the current time
     * \return what happened
     */
    Outcome Receive(Ipv4Address src, const uint8_t* ses, uint32_t payload, Time now);
    /// Forget every partly arrived message (the source went away): their endpoints abandon
    /// them (UetEndpoint::Abandon), so their receives and unexpected slots are free again.
    void Clear();
    /// \return messages partly arrived
    uint32_t GetNMessages() const;
    /// \return messages dropped incomplete because of the limit
    uint64_t GetNEvicted() const;

  private:
    /// A message partly arrived.
    struct Message
    {
        UetOperation op{UetOperation::WRITE}; //!< operation
        uint8_t rc{1};                        //!< decided on its first packet
        uint64_t bytes{0};                    //!< request_length
        uint64_t received{0};                 //!< payload arrived
        UetEndpoint* ep{nullptr};             //!< the target endpoint (null if refused)
        uint64_t matchId{0};                  //!< UetEndpoint::Admit's handle
        UetDelivery delivery;                 //!< delivered at the end
    };

    /// Tell the endpoint that admitted \p m that it will never arrive whole.
    static void Abandon(const Message& m);

    UetNic* m_nic;                                //!< the NIC
    uint32_t m_port;                              //!< FEP
    uint32_t m_max;                               //!< limit (0 = none)
    std::unordered_map<uint16_t, Message> m_msgs; //!< by message_id
    std::deque<uint16_t> m_order;                 //!< arrival order (with a limit)
    uint64_t m_evicted{0};                        //!< dropped incomplete
};

} // namespace ns3

#endif /* UET_SES_REASSEMBLY_H */
