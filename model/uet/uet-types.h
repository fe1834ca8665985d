/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the vocabulary of the UET transport's API: addresses, operations, completions,
 * deliveries and counters.
 */
#ifndef UET_TYPES_H
#define UET_TYPES_H

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Where a UET operation goes: a fabric endpoint (FEP, one NIC port address), the job
 *        and the process on it, and the resource index (UEC 1.0 SES addressing:
 *        {JobID, PIDonFEP, Resource Index}).
 */
struct UetAddress
{
    Ipv4Address fep;      //!< the target FEP's IPv4 address
    uint32_t jobId{0};    //!< JobID, 24 bits (0..16777215)
    uint16_t pidOnFep{0}; //!< PIDonFEP, 12 bits (0..4095)
    uint16_t resource{0}; //!< Resource Index, 12 bits (0..4095)
};

/**
 * \ingroup ai-fabric-uet
 * \brief PDS delivery mode of an operation (UEC 1.0 PDS; UET.md "Layers").
 */
enum class UetDeliveryMode : uint8_t
{
    RUD = 0, //!< reliable unordered delivery (the main AI mode)
    ROD,     //!< reliable ordered delivery (one EV)
    RUDI,    //!< reliable unordered delivery for idempotent operations (no PDC)
    UUD,     //!< unreliable unordered delivery (no ACK, no retransmission)
};

/**
 * \param mode a delivery mode
 * \return its name ("RUD", "ROD", "RUDI", "UUD")
 */
const char* UetDeliveryModeName(UetDeliveryMode mode);

/**
 * \ingroup ai-fabric-uet
 * \brief SES operations the model carries (UEC 1.0 SES opcodes WRITE 1, READ 2, SEND 5,
 *        TAGGED_SEND 9).
 */
enum class UetOperation : uint8_t
{
    WRITE = 0,   //!< RMA write to {key, offset}
    READ,        //!< RMA read from {key, offset}; data returns on the PDC's reverse PSN space
    SEND,        //!< two-sided send, matched to a posted receive of the resource
    TAGGED_SEND, //!< two-sided send matched by 64-bit match bits
};

/**
 * \param op an operation
 * \return its name ("WRITE", "READ", "SEND", "TAGGED_SEND")
 */
const char* UetOperationName(UetOperation op);

/**
 * \param op an operation
 * \return its SES opcode (UetSesHeader::Opcode)
 */
uint8_t UetOperationOpcode(UetOperation op);

/**
 * \ingroup ai-fabric-uet
 * \brief An initiator completion, like a libfabric CQ entry (fi_cq_err_entry): what finished,
 *        how much, when, and with which SES return code.
 *
 * Every posted operation completes exactly once: successfully (ok, returnCode RC_OK), with
 * the target's SES return code (ok false, e.g. RC_BAD_JOB_ID, RC_NO_MATCH), or with a
 * transport error (ok false, returnCode RC_NULL, error naming the PDC and the cause: retry
 * limit, target PDC closed).
 */
struct UetCompletion
{
    uint64_t id{0};                             //!< the id Post*() returned
    UetOperation op{UetOperation::WRITE};       //!< operation
    UetDeliveryMode mode{UetDeliveryMode::RUD}; //!< delivery mode it used
    UetAddress target;                          //!< where it went
    uint64_t bytes{0};                          //!< bytes requested
    uint64_t modifiedBytes{0};                  //!< bytes the target reports it wrote / returned
    Time postTime;                              //!< posted
    Time startTime;                             //!< first packet sent
    Time endTime;                               //!< completed (response or error)
    uint8_t returnCode{0};                      //!< SES return code (UetSesHeader::ReturnCode)
    uint32_t retransmissions{0};                //!< its request packets sent again
    bool ok{false};                             //!< returnCode is RC_OK
    std::string error;                          //!< why it failed (empty when ok)

    /// \return endTime - postTime (the operation's completion time, FCT)
    Time GetDuration() const
    {
        return endTime - postTime;
    }
};

/// Initiator completion callback.
typedef Callback<void, const UetCompletion&> UetCompletionCallback;

/**
 * \ingroup ai-fabric-uet
 * \brief A target-side delivery: a WRITE, SEND or TAGGED_SEND arrived completely at an
 *        endpoint (the target's view: a libfabric remote CQ entry / receive completion).
 */
struct UetDelivery
{
    UetOperation op{UetOperation::WRITE}; //!< operation
    Ipv4Address initiatorFep;             //!< the initiator's FEP address
    uint32_t initiator{0};                //!< the SES initiator field (the initiator's PIDonFEP)
    uint32_t jobId{0};                    //!< JobID
    uint16_t pidOnFep{0};                 //!< PIDonFEP of the target endpoint
    uint16_t resource{0};                 //!< Resource Index
    uint64_t bytes{0};                    //!< message length, bytes
    uint64_t key{0};                      //!< WRITE: memory key; TAGGED_SEND: match bits
    uint64_t offset{0};                   //!< WRITE: buffer offset, bytes
    uint64_t headerData{0};               //!< header_data (immediate data) when hasHeaderData
    bool hasHeaderData{false};            //!< the initiator sent header data (SES HD flag)
    uint64_t receiveId{0};                //!< SEND/TAGGED_SEND: the matched posted receive's id
    bool unexpected{false};               //!< it arrived before its receive was posted
    uint8_t returnCode{1};                //!< RC_OK, or RC_TOO_LONG for a receive too short
    Time firstTime;                       //!< first packet arrived
    Time endTime;                         //!< last packet arrived
};

/// Target delivery callback.
typedef Callback<void, const UetDelivery&> UetDeliveryCallback;

/**
 * \ingroup ai-fabric-uet
 * \brief Counters of a UetNic (all ports, all PDCs): operations, bytes and packets.
 *
 * Conservation, checked by the tests: bytesPosted = bytesCompleted + bytesFailed + the bytes
 * of the operations still pending (UetNic::GetPendingBytes()).
 */
struct UetNicCounters
{
    uint64_t opsPosted{0};           //!< operations posted
    uint64_t opsCompleted{0};        //!< operations completed successfully
    uint64_t opsFailed{0};           //!< operations completed in error
    uint64_t bytesPosted{0};         //!< bytes of the posted operations
    uint64_t bytesCompleted{0};      //!< bytes of the successful ones
    uint64_t bytesFailed{0};         //!< bytes of the failed ones
    uint64_t bytesDelivered{0};      //!< target side: bytes of messages delivered to endpoints
    uint64_t messagesDelivered{0};   //!< target side: messages delivered
    uint64_t dataPacketsSent{0};     //!< request packets sent (incl. retransmissions, READ data)
    uint64_t payloadBytesSent{0};    //!< payload bytes of those
    uint64_t retransmissions{0};     //!< request packets sent again
    uint64_t rtoExpirations{0};      //!< per-packet retransmission timeouts
    uint64_t dataPacketsReceived{0}; //!< new request packets accepted (duplicates excluded)
    uint64_t duplicatesReceived{0};  //!< duplicate request packets (re-ACKed, not delivered)
    /// New request packets that arrived ahead of the next expected PSN (reordered by the
    /// fabric, e.g. sprayed, or after a loss); ROD drops them, RUD and RUDI deliver them.
    uint64_t outOfOrderReceived{0};
    uint64_t acksSent{0};           //!< ACK / ACK_CC sent
    uint64_t acksReceived{0};       //!< ACK / ACK_CC received
    uint64_t nacksSent{0};          //!< NACKs sent
    uint64_t nacksReceived{0};      //!< NACKs received
    uint64_t ceReceived{0};         //!< ECN CE-marked request packets received
    uint64_t pdcsOpened{0};         //!< PDCs opened (initiator and target)
    uint64_t pdcsClosed{0};         //!< PDCs closed normally
    uint64_t pdcsClosedInError{0};  //!< PDCs closed in error
    uint64_t uudPacketsSent{0};     //!< UUD packets sent (never retransmitted)
    uint64_t uudPacketsReceived{0}; //!< UUD packets received (the fabric's losses are the
                                    //!< difference, summed over the NICs)
    uint64_t rudiResponses{0};      //!< RUDI responses received
    /// Trimmed request packets received (a switch cut them; their DSCP is UetNic TrimmedDscp
    /// or TrimmedLastHopDscp): not delivered, answered with NACK TRIMMED / TRIMMED_LASTHOP
    /// (RUD, ROD, RUDI) or counted lost (UUD). Includes trimmedLastHopReceived.
    uint64_t trimmedReceived{0};
    uint64_t trimmedLastHopReceived{0}; //!< of trimmedReceived: trimmed at the last hop
    uint64_t trimmedMalformed{0};   //!< trimmed packets too short for their UET headers (dropped
                                    //!< as the NIC core's "malformed"; TrimSize too small)
    uint64_t uudTrimmed{0};         //!< UUD packets that arrived trimmed (lost: no NACK in UUD)
    uint64_t trimNacksSent{0};      //!< NACK TRIMMED / TRIMMED_LASTHOP sent (part of nacksSent)
    uint64_t trimNacksReceived{0};  //!< NACK TRIMMED / TRIMMED_LASTHOP received (part of
                                    //!< nacksReceived)
    uint64_t creditsSent{0};        //!< Credit control packets sent (RCCC receiver pacer)
    uint64_t creditsReceived{0};    //!< Credit control packets received
    uint64_t creditRequestsSent{0}; //!< Credit-Request control packets sent
    uint64_t creditRequestsReceived{0}; //!< Credit-Request control packets received
};

} // namespace ns3

#endif /* UET_TYPES_H */
