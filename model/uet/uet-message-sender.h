/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the send side shared by every UET sender: a queue of SES messages cut into
 * packets, their completions, and the SES header of each packet.
 */
#ifndef UET_MESSAGE_SENDER_H
#define UET_MESSAGE_SENDER_H

#include "uet-types.h"

#include "ns3/event-id.h"
#include "ns3/fabric-nic.h"

#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class UetNic;

/**
 * \ingroup ai-fabric-uet
 * \brief A message on a sender's queue: an initiator's SES request (WRITE, READ request,
 *        SEND, TAGGED_SEND), or a target's READ response data.
 */
struct UetTxMessage
{
    uint64_t opId{0};                     //!< Post*() id (initiator)
    UetOperation op{UetOperation::WRITE}; //!< operation
    bool readResponse{false};             //!< target: READ data going back to the initiator
    uint16_t msgId{0};                    //!< SES message_id (READ response: the READ's)
    UetAddress target;                    //!< where it goes
    uint32_t initiator{0};                //!< SES initiator field (the initiator's PIDonFEP)
    uint64_t key{0};                      //!< memory key / match bits
    uint64_t offset{0};                   //!< buffer offset
    uint64_t headerData{0};               //!< header data (SES HD)
    bool hasHeaderData{false};            //!< HD set
    uint64_t bytes{0};                    //!< message length (READ: bytes to read)
    uint32_t npkts{1};                    //!< packets carrying it
    uint32_t nextPkt{0};                  //!< next packet index to send for the first time
    uint32_t ackedPkts{0};                //!< packets acknowledged (or, UUD, sent)
    uint64_t readReceived{0};             //!< initiator READ: data bytes arrived
    uint8_t returnCode{1};                //!< SES return code (RC_OK unless a response said)
    uint64_t modified{0};                 //!< modified_length reported by the target
    bool done{false};                     //!< completed (or failed)
    UetCompletionCallback cb;             //!< initiator completion
    Time postTime;                        //!< posted
    Time startTime;                       //!< first packet sent
    bool started{false};                  //!< first packet sent
    uint32_t retransmissions{0};          //!< its packets sent again
};

/**
 * \ingroup ai-fabric-uet
 * \brief The send side every UET sender shares (UetPdc for RUD/ROD, UetPdclessFlow for RUDI
 *        and UUD): a FIFO of messages cut into Mtu packets (a READ request is one packet
 *        without payload), identified in packet records by (message sequence number, packet
 *        index), the SES header each packet carries (standard request with SOM/EOM, HD and
 *        the message offset; or response-with-data for READ data), and the completions,
 *        handed out by Flush() once the sender's state is consistent again.
 *
 * A message completes when all its packets are acknowledged and its target's response (if
 * any) says RC_OK (a READ also waits for its data); a response with another code completes it
 * in error. Memory: one entry per message posted and not yet retired.
 */
class UetMessageSender : public FabricNicFlow
{
  public:
    /// \return operations (initiator messages) posted and not completed
    uint32_t GetPendingOperations() const
    {
        return m_pendingOps;
    }

    /// \return payload bytes of the pending operations
    uint64_t GetPendingBytes() const;

  protected:
    /**
     * \param nic the NIC that owns the sender
     * \param port its NIC port (FEP) index
     */
    UetMessageSender(UetNic* nic, uint32_t port);

    /// Forget every message (the sender is reused).
    void ResetMessages();
    /**
     * \brief Append a message (npkts set here; msgId too unless it is a READ response).
     * \param m the message
     */
    void Enqueue(UetTxMessage m);

    /// \return true if a message has packets not yet sent once
    bool HasNewPacket() const
    {
        return m_sendIdx < m_msgs.size();
    }

    /**
     * \brief Take the next packet never sent (HasNewPacket() must be true).
     * \return its cookie: (message sequence number << 32) | packet index
     */
    uint64_t TakeNewPacket();
    /**
     * \brief Write the SES header of a packet.
     * \param out where (room for 44 bytes)
     * \param m its message
     * \param k its packet index
     * \param now the send time (the message's start time if it is its first packet)
     * \return bytes written (44, or 20 for READ data)
     */
    uint32_t WriteSes(uint8_t* out, UetTxMessage& m, uint32_t k, Time now);
    /// \return payload bytes of packet \p k of \p m
    uint32_t PayloadOf(const UetTxMessage& m, uint32_t k) const;
    /**
     * \brief What is left to send for the first time (for a receiver-credit request; walks
     *        the queued messages).
     * \param[out] pkts packets never sent
     * \param[out] bytes their payload bytes
     */
    void GetUnsent(uint64_t* pkts, uint64_t* bytes) const;
    /**
     * \param retx retransmissions of the packet so far
     * \return its RTO: the base RTO (max(RtoMin, SRTT + 4 RTTVAR), RFC 6298; RtoMin before the
     *         first sample) x 2^retx, at most RtoMax
     */
    Time Rto(uint32_t retx) const;

    /// \return the smoothed RTT (RFC 6298 SRTT; 0 before the first sample)
    Time GetSrtt() const
    {
        return m_srtt;
    }

    /**
     * \brief A round-trip sample of a packet sent once (Karn's rule: never one resent).
     * \param rtt the sample
     */
    void OnRttSample(Time rtt);
    /**
     * \brief Take a pending event out of the queue (Simulator::Remove), so a finished run
     *        ends when its last packet does, not when an idle timer would have fired.
     * \param event the event (nothing happens if it is not pending)
     */
    static void Unschedule(EventId& event);
    /// \return the message with sequence number \p seq, or null if retired
    UetTxMessage* FindTx(uint32_t seq);
    /// \return the initiator message whose SES message id is \p msgId, or null
    UetTxMessage* FindTxByMsgId(uint16_t msgId);
    /**
     * \brief Complete a message (its completion is handed out by Flush()).
     * \param m the message
     * \param ok success
     * \param rc SES return code
     * \param error why it failed (empty if ok)
     */
    void Complete(UetTxMessage& m, bool ok, uint8_t rc, const std::string& error);
    /// Complete \p m if every packet is acknowledged (and a READ's data arrived).
    void MaybeComplete(UetTxMessage& m);
    /// Complete every message in error. \param error the reason
    void FailAll(const std::string& error);
    /// Pop finished messages at the front.
    void Retire();
    /// Hand out the decided completions (the last thing an entry point does).
    void Flush();
    /// \return completions decided and not handed out (moved out; for Finish-like paths)
    std::vector<std::pair<UetCompletion, UetCompletionCallback>> TakeCompleted();

    UetNic* m_nic;                                //!< owner
    FabricNic* m_core;                            //!< the NIC core
    uint32_t m_port;                              //!< FEP index
    UetDeliveryMode m_mode{UetDeliveryMode::RUD}; //!< delivery mode
    std::deque<UetTxMessage> m_msgs;              //!< messages, by seq - m_baseSeq
    uint32_t m_baseSeq{0};                        //!< seq of m_msgs.front()
    uint32_t m_sendIdx{0};                        //!< index of the first message with new packets
    uint32_t m_pendingOps{0};                     //!< initiator messages not completed

  private:
    Time m_srtt;    //!< smoothed RTT (0: no sample yet)
    Time m_rttvar;  //!< RTT variation
    Time m_rtoBase; //!< RTO of a packet sent once (0: RtoMin)
    /// Completions decided and not yet handed out.
    std::vector<std::pair<UetCompletion, UetCompletionCallback>> m_completed;
};

} // namespace ns3

#endif /* UET_MESSAGE_SENDER_H */
