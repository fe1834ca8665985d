/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a UET packet delivery context (PDC): one reliable PSN space in each direction
 * between an initiator and a target FEP, with SYN-based 0-RTT open, ACK/SACK, NACK, RTO and
 * close.
 */
#ifndef UET_PDC_H
#define UET_PDC_H

#include "uet-cc-context.h"
#include "uet-credit-pacer.h"
#include "uet-message-sender.h"
#include "uet-psn-window.h"
#include "uet-ses-reassembly.h"
#include "uet-types.h"

#include "ns3/event-id.h"
#include "ns3/fabric-congestion-ops.h"
#include "ns3/fabric-nic.h"
#include "ns3/uet-ev-selector.h"

#include <deque>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class UetNic;
class UetEndpoint;

/**
 * \ingroup ai-fabric-uet
 * \brief A received UET packet as the NIC parsed it (valid during the call only).
 */
struct UetRxPacket
{
    uint8_t type{0};             //!< PDS type (UetPdsHeader::Type)
    uint8_t nextHeader{0};       //!< next header / control type (prologue bits)
    uint8_t flags{0};            //!< PDS flags
    uint32_t psn{0};             //!< PSN (requests, control), CACK_PSN (ACK), NACK_PSN (NACK)
    uint16_t spdcid{0};          //!< SPDCID
    uint16_t dpdcid{0};          //!< DPDCID (or pdc_info | psn_offset with SYN)
    bool ce{false};              //!< IPv4 ECN was CE
    uint16_t udpSrc{0};          //!< UDP source port (the EV)
    Ipv4Address src;             //!< IPv4 source (the peer FEP)
    const uint8_t* pds{nullptr}; //!< the PDS header
    const uint8_t* ses{nullptr}; //!< the SES header after it (null if none or not read)
    uint32_t payload{0};         //!< payload bytes after the headers
    uint32_t size{0};            //!< IPv4 packet length, bytes
};

/**
 * \ingroup ai-fabric-uet
 * \brief A UET packet delivery context (UEC 1.0 PDS, RUD and ROD): one PSN space per
 *        direction between an initiator FEP and a target FEP, owned by a UetNic.
 *
 * Lifecycle (UET.md "PDC lifecycle"): the initiator opens it 0-RTT: its packets carry SYN and
 * psn_offset (Start_PSN = PSN - psn_offset, Start_PSN random) until the first ACK returns the
 * target's PDCID; the target allocates a PDCID on the first SYN (none free: NACK
 * NO_PDC_AVAIL, the initiator retries with backoff). After PdcIdleTime without work the
 * initiator sends a Close control packet (it takes a PSN and is retransmitted like data); the
 * target ACKs and frees its PDCID, the initiator frees its own on that ACK. A target may ask
 * for the Close (Request-Close) when its pool runs out, and frees the PDC in error if none
 * comes within CloseReqTime; a target PDC that never saw a packet without SYN is reaped after
 * NewPdcTime.
 *
 * Reliability (UET.md "Reliability"): the sender keeps at most MP_RANGE PSNs outstanding
 * (UetSendWindow); the receiver tracks them (UetReceiveWindow) and ACKs as ACK_Gen_Trigger /
 * ACK_Gen_Min_Pkt_Add say, at once for the first packet, AR, RETX, SYN, CE, a hole, a filled
 * hole and a completed message; with a hole the ACK is an ACK_CC carrying the 64-bit SACK
 * bitmap (base CACK_PSN + 1). The sender retransmits on NACK, on inferred loss (a PSN not
 * SACKed while OooThreshold later ones were) and on a per-packet RTO (RtoMin x 2^retries, at
 * most RtoMax). A packet retransmitted RetryLimit times whose RTO expires again closes the
 * PDC in error: every operation on it completes with an error.
 *
 * ROD: the receiver accepts only the next PSN (NACK ROD_OOO otherwise, once per gap) and the
 * sender goes back to the NACKed PSN. READ data returns as requests (SES next header 5) on
 * the reverse PSN space, which starts at the same Start_PSN [model choice: the public sources
 * do not say how the reverse space's start is chosen].
 *
 * Memory: O(MP_RANGE) per PDC plus one entry per message posted and not completed.
 */
class UetPdc : public UetMessageSender
{
  public:
    /// Which end of the PDC this is.
    enum Role : uint8_t
    {
        INITIATOR = 0, //!< opened it (sends the requests)
        TARGET,        //!< answers it
    };

    /// PDC states.
    enum State : uint8_t
    {
        CLOSED = 0,  //!< free (its PDCID is in the pool)
        SYN_SENT,    //!< initiator: sending with SYN until the first ACK
        ESTABLISHED, //!< both PDCIDs known
        CLOSING,     //!< initiator: Close sent, waiting for its ACK
    };

    /**
     * \param nic the NIC that owns the PDC
     * \param port NIC port (FEP) index
     * \param localId its PDCID (1..65535)
     */
    UetPdc(UetNic* nic, uint32_t port, uint16_t localId);
    ~UetPdc() override;

    /**
     * \brief Open as initiator.
     * \param mode RUD or ROD
     * \param jobId the JobID it serves
     * \param peer target FEP address
     * \param startPsn Start_PSN
     * \param ev the entropy value (UDP source port) of its packets
     */
    void OpenInitiator(UetDeliveryMode mode,
                       uint32_t jobId,
                       Ipv4Address peer,
                       uint32_t startPsn,
                       uint16_t ev);
    /**
     * \brief Open as target on a SYN.
     * \param mode RUD or ROD (from the request type)
     * \param peer initiator FEP address
     * \param peerId the initiator's PDCID (the SYN's SPDCID)
     * \param startPsn Start_PSN (SYN PSN - psn_offset)
     * \param ev the entropy value of its packets
     */
    void OpenTarget(UetDeliveryMode mode,
                    Ipv4Address peer,
                    uint16_t peerId,
                    uint32_t startPsn,
                    uint16_t ev);

    /**
     * \brief Queue a message for sending (initiator requests; target READ responses).
     * \param m the message (npkts and msgId are set here)
     */
    void Post(UetTxMessage m);

    /// A request (RUD/ROD, with or without CC state) for this PDC arrived. \param rx the packet
    void ReceiveRequest(const UetRxPacket& rx);
    /**
     * \brief A trimmed request for this PDC arrived (UetNic knew it by its DSCP): its PSN is not
     *        marked received and nothing reaches the SES; NACK \p code for it at once, from the
     *        packet's EV, with M if it was CE-marked and RETX echoed.
     * \param rx the packet (headers only)
     * \param code NACK_TRIMMED or NACK_TRIMMED_LASTHOP
     */
    void ReceiveTrimmed(const UetRxPacket& rx, uint8_t code);
    /// An ACK / ACK_CC / ACK_CCX for this PDC arrived. \param rx the packet
    void ReceiveAck(const UetRxPacket& rx);
    /// A NACK for this PDC arrived. \param rx the packet
    void ReceiveNack(const UetRxPacket& rx);
    /// A control packet for this PDC arrived. \param rx the packet
    void ReceiveControl(const UetRxPacket& rx);

    /**
     * \brief Fail every pending operation and free the PDC.
     * \param why the cause, for the completions' error text and the PdcClose trace
     */
    void CloseInError(const std::string& why);

    /// \return its role
    Role GetRole() const
    {
        return m_role;
    }

    /// \return its state
    State GetState() const
    {
        return m_state;
    }

    /// \return its PDCID
    uint16_t GetLocalId() const
    {
        return m_localId;
    }

    /// \return the peer's PDCID (0 until known)
    uint16_t GetPeerId() const
    {
        return m_peerId;
    }

    /// \return the peer FEP address
    Ipv4Address GetPeer() const
    {
        return m_peer;
    }

    /// \return the delivery mode
    UetDeliveryMode GetMode() const
    {
        return m_mode;
    }

    /// \return the JobID it serves (initiator)
    uint32_t GetJobId() const
    {
        return m_jobId;
    }

    /// \return Start_PSN
    uint32_t GetStartPsn() const
    {
        return m_startPsn;
    }

    /// \return the NIC port index
    uint32_t GetPort() const
    {
        return m_port;
    }

    /// \return the send window (PSNs this side sends)
    const UetSendWindow& GetSendWindow() const
    {
        return *m_tx;
    }

    /// \return the receive window (PSNs the peer sends)
    const UetReceiveWindow& GetReceiveWindow() const
    {
        return *m_rx;
    }

    /// \return "node N PDC L -> a.b.c.d PDC R" (node of the NIC)
    std::string GetLabel() const;

    /**
     * \brief One line for a stall diagnosis: label, state, PSNs, pending operations.
     * \param os the stream
     */
    void Describe(std::ostream& os) const;

    /// \return the congestion-control state (rate, window)
    Ptr<FabricCcState> GetCcState() const;

    /// \return payload bytes this PDC has in flight (its send window's count)
    uint64_t GetInflightBytes() const;

    /**
     * \return bytes on the wire this PDC still has to send: packets never sent and packets
     *         marked lost, each with its headers (receiver credit asks for them)
     */
    uint64_t GetBacklogWireBytes() const;

    /// \return true if a control packet can reach the peer's PDC (its PDCID is known)
    bool CanSendControl() const
    {
        return m_state == ESTABLISHED && m_peerId != 0;
    }

    /**
     * \brief Send a Credit-Request control packet (RCCC, the sender side).
     * \param target the cumulative credit target, 24 bits
     */
    void SendCreditRequest(uint32_t target);
    /**
     * \brief Send a Credit control packet (RCCC, the receiver's pacer).
     * \param credit the cumulative credit granted, 24 bits
     */
    void SendCredit(uint32_t credit);

    /// \return the PDC's congestion-control algorithm instance (null before it opens)
    Ptr<FabricCongestionOps> GetCongestionOps() const
    {
        return m_cc;
    }

    // FabricNicFlow
    bool HasPacketToSend() const override;
    Time GetNextSendTime() const override;
    FabricFrame BuildNextPacket(const Time& now) override;

    /// Cookie flag of the Close control packet in the send window.
    static constexpr uint64_t CLOSE_COOKIE = uint64_t(1) << 63;

  private:
    /// Reset every per-connection field (open, close).
    void Reset();
    /// \return the UDP source port of EV index \p index (index 0 = the PDC's own EV)
    uint16_t EvPort(uint16_t index) const;
    /// Tell the EV selector (if the PDC sprays) what became of a packet sent on EV \p index.
    void EvFeedback(uint16_t index, UetEvFeedback f);
    /// Common part of the two Open functions.
    void Open(Role role, UetDeliveryMode mode, Ipv4Address peer, uint32_t startPsn, uint16_t ev);
    /// Send an ACK now for the packet \p psn (flags; the SES response of \p rsp if given),
    /// which arrived \p serviceTime ago (reported in ACK_CC when the CC wants it).
    void SendAck(uint32_t psn,
                 uint8_t reqFlags,
                 bool ce,
                 const UetSesReassembly::Outcome* rsp,
                 Time serviceTime = Time(0));
    /**
     * \brief Send a NACK.
     * \param code NACK code
     * \param psn NACK_PSN
     * \param flags PDS flags (M, RETX)
     * \param ev its UDP source port: the EV of the packet it answers (echoed; the PDC's EV
     *        while one EV carries all of a PDC's packets)
     */
    void SendNack(uint8_t code, uint32_t psn, uint8_t flags, uint16_t ev);
    /// Send a control packet (not through the send window); \p opaque goes in octets 2-3
    /// (probe_opaque; Credit-Request: the CCC id).
    void SendControl(uint8_t ctlType, uint32_t psn, uint32_t payload, uint16_t opaque = 0);
    /// READ response data arrived at the initiator.
    void ProcessReadData(const UetRxPacket& rx);
    /// Arm or move the RTO timer.
    void ArmRto();
    /// The RTO timer fired.
    void RtoExpired();
    /// Start the idle timer if nothing is pending (initiator).
    void MaybeIdle();
    /// The idle timer fired: send Close if still idle.
    void IdleExpired();
    /// Queue the Close control packet (initiator).
    void StartClose();
    /// Free the PDC (state CLOSED, PDCID back to the pool). \param error closed in error
    void Finish(bool error, const std::string& why);
    /// Wake the arbiter if there is something to send.
    void Wake();
    /// Wake every PDC of the congestion control context (after an ACK, NACK or RTO).
    void WakeContext();
    /**
     * \brief A credit_target arrived from the peer (receiver credit): join the sender's
     *        context and tell the port's pacer.
     * \param cccId the sender's CCC id
     * \param field credit_target, 24 bits
     * \param requeue queue the context even if its target did not grow (a trim: the sender
     *        must resend)
     */
    void OnCreditTarget(uint8_t cccId, uint32_t field, bool requeue);
    /// Leave the receiver credit context (the PDC closes).
    void ReleaseCreditContext();
    /// The Close request timer (target) fired.
    void CloseReqExpired();
    /// The New_PDC_Time timer (target) fired.
    void NewPdcExpired();
    /// The ACK timer fired: ACK what arrived if nothing came for AckDelay.
    void AckTimerExpired();

  public:
    /**
     * \brief Target: ask the initiator to close this PDC (Request-Close) if it is idle; it is
     *        freed in error if no Close comes within CloseReqTime.
     * \return true if the request was sent
     */
    bool RequestClose();
    /// Initiator: the target asked for a Close: close as soon as idle.
    void CloseRequested();

  private:
    uint16_t m_localId;                      //!< PDCID
    Role m_role{INITIATOR};                  //!< role
    State m_state{CLOSED};                   //!< state
    uint32_t m_jobId{0};                     //!< JobID (initiator key)
    Ipv4Address m_peer;                      //!< peer FEP
    uint32_t m_peerIpBits{0};                //!< peer address, host order
    uint16_t m_peerId{0};                    //!< peer PDCID (0 = unknown)
    uint32_t m_startPsn{0};                  //!< Start_PSN
    uint16_t m_ev{0};                        //!< UDP source port
    uint16_t m_ackEv{0};                     //!< EV of ACKs: the last request packet's
    uint8_t m_priority{0};                   //!< data priority
    uint8_t m_ctlPriority{0};                //!< control priority
    std::optional<UetSendWindow> m_tx;       //!< this side's PSNs
    std::optional<UetReceiveWindow> m_rx;    //!< the peer's PSNs
    std::optional<UetAckCoalescer> m_ackGen; //!< ACK generation
    bool m_firstRx{true};                    //!< no packet received yet
    bool m_rodNackSent{false};               //!< ROD: a NACK for the current gap was sent
    std::optional<UetSesReassembly> m_ses;   //!< arriving messages (SES target)
    bool m_closeQueued{false};               //!< the Close packet waits to be sent
    bool m_closeWanted{false};               //!< the target asked for a Close
    uint32_t m_noPdcRetries{0};              //!< NO_PDC_AVAIL retries in a row
    Time m_holdUntil;                        //!< no sending before (NO_PDC_AVAIL backoff)
    bool m_sawNonSyn{false};                 //!< target: a packet without SYN arrived
    EventId m_rtoEvent;                      //!< RTO timer
    Time m_rtoAt;                            //!< when m_rtoEvent fires
    EventId m_idleEvent;                     //!< idle timer (initiator)
    EventId m_closeReqEvent;                 //!< Close_REQ_Time timer (target)
    EventId m_ackEvent;                      //!< quiet-period ACK timer
    Time m_lastRx;                           //!< last request packet received
    uint32_t m_lastRxPsn{0};                 //!< its PSN
    EventId m_newPdcEvent;                   //!< New_PDC_Time timer (target)
    Ptr<FabricCongestionOps> m_cc;           //!< congestion control (sender side)
    Ptr<UetEvSelector> m_evSel;              //!< EV selector (RUD initiator; null: one EV)
    UetCcContext* m_ccc{nullptr};            //!< shared congestion control context
    FabricCcState* m_ccState{nullptr};       //!< its state
    UetCreditContext* m_creditCtx{nullptr};  //!< receiver credit context of the peer's CCC
    uint64_t m_rxBytes{0};                   //!< payload bytes received (rcvd_bytes)
    std::vector<std::pair<uint32_t, UetSendWindow::Record>> m_acked; //!< OnAck scratch
    std::vector<uint32_t> m_inferred; //!< InferLosses scratch (PSNs inferred lost)
};

} // namespace ns3

#endif /* UET_PDC_H */
