/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a UET endpoint: one {JobID, PIDonFEP} on a fabric endpoint (FEP), the object a
 * script posts operations on and receives messages with.
 */
#ifndef UET_ENDPOINT_H
#define UET_ENDPOINT_H

#include "uet-types.h"

#include "ns3/object.h"

#include <deque>
#include <map>

namespace ns3
{

class UetNic;

/**
 * \ingroup ai-fabric-uet
 * \brief A process's endpoint on a UET NIC port: {JobID, PIDonFEP} on one FEP, with its
 *        resources (Resource Index 0..GetNResources()-1), registered memory and posted
 *        receives; the per-FEP API a script uses like libfabric's fi_write / fi_read /
 *        fi_send / fi_tsend / fi_recv / fi_trecv (UEC 1.0 SES).
 *
 * Initiator side: Post{Write,Read,Send,TaggedSend}() return an id; the completion callback
 * gets a UetCompletion (like a CQ entry) exactly once, when the target's response arrives (or
 * the operation failed). Messages are split at the NIC's Mtu with SOM/EOM and the message
 * offset; one message is at most 2^32 - 1 bytes (the SES request_length field).
 *
 * Target side: WRITE and READ address registered memory by {key, offset} (RegisterMemory;
 * unknown key: RC_BAD_MKEY, beyond the region: RC_AT_OUT_OF_RANGE). SEND and TAGGED_SEND
 * match posted receives of their resource in post order (tagged: (tag & ~ignore) equal);
 * a message with no receive waits in the unexpected list (at most UnexpectedLimit messages,
 * then RC_NO_MATCH) until one is posted; a receive shorter than the message gets
 * RC_TOO_LONG. Every message delivered goes to the delivery callback too.
 *
 * Created by UetNic::CreateEndpoint(); the NIC answers operations for an unknown JobID with
 * RC_BAD_JOB_ID, an unknown PIDonFEP with RC_BAD_PID and a Resource Index beyond the
 * endpoint's with RC_BAD_INDEX.
 */
class UetEndpoint : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetEndpoint();
    ~UetEndpoint() override;

    /// \return the JobID
    uint32_t GetJobId() const;
    /// \return PIDonFEP
    uint16_t GetPidOnFep() const;
    /// \return the NIC port (FEP) index
    uint32_t GetPort() const;
    /// \return the number of resources (Resource Index 0..n-1)
    uint16_t GetNResources() const;
    /// \return the NIC
    Ptr<UetNic> GetNic() const;
    /**
     * \param resource a Resource Index
     * \return the address other endpoints use to reach this one's resource
     */
    UetAddress GetAddress(uint16_t resource = 0) const;

    /**
     * \brief Register memory that WRITE and READ may address.
     * \param key memory key (any 64-bit value; registering a key again replaces its length)
     * \param length bytes (>= 1; aborts otherwise)
     */
    void RegisterMemory(uint64_t key, uint64_t length);

    /**
     * \brief RMA write (fi_write): \p bytes to {target, key, offset}.
     * \param target where (a FEP address, JobID, PIDonFEP, Resource Index)
     * \param key the target's memory key
     * \param offset byte offset in that memory
     * \param bytes 0..2^32-1 (aborts otherwise, naming the value)
     * \param cb completion (may be null)
     * \param mode RUD (default), ROD, RUDI or UUD (UUD completes when its packets are sent)
     * \return the operation id (counts up from 1 per NIC)
     */
    uint64_t PostWrite(const UetAddress& target,
                       uint64_t key,
                       uint64_t offset,
                       uint64_t bytes,
                       UetCompletionCallback cb,
                       UetDeliveryMode mode = UetDeliveryMode::RUD);
    /**
     * \brief RMA write with header data (fi_writedata): the target's delivery carries it.
     * \param target where
     * \param key memory key
     * \param offset byte offset
     * \param bytes 0..2^32-1
     * \param headerData 64-bit header data (SES HD)
     * \param cb completion (may be null)
     * \param mode delivery mode
     * \return the operation id
     */
    uint64_t PostWriteWithData(const UetAddress& target,
                               uint64_t key,
                               uint64_t offset,
                               uint64_t bytes,
                               uint64_t headerData,
                               UetCompletionCallback cb,
                               UetDeliveryMode mode = UetDeliveryMode::RUD);
    /**
     * \brief RMA read (fi_read): \p bytes from {target, key, offset}; the data returns on the
     *        PDC's reverse PSN space and the operation completes when it has all arrived.
     * \param target where
     * \param key memory key
     * \param offset byte offset
     * \param bytes 0..2^32-1
     * \param cb completion (may be null)
     * \param mode RUD or ROD (aborts otherwise: READ needs a PDC for its data)
     * \return the operation id
     */
    uint64_t PostRead(const UetAddress& target,
                      uint64_t key,
                      uint64_t offset,
                      uint64_t bytes,
                      UetCompletionCallback cb,
                      UetDeliveryMode mode = UetDeliveryMode::RUD);
    /**
     * \brief Send (fi_send), matched to a receive posted on the target resource.
     * \param target where
     * \param bytes 0..2^32-1
     * \param cb completion (may be null)
     * \param mode RUD, ROD or UUD
     * \return the operation id
     */
    uint64_t PostSend(const UetAddress& target,
                      uint64_t bytes,
                      UetCompletionCallback cb,
                      UetDeliveryMode mode = UetDeliveryMode::RUD);
    /**
     * \brief Tagged send (fi_tsend) with 64-bit match bits.
     * \param target where
     * \param tag match bits
     * \param bytes 0..2^32-1
     * \param cb completion (may be null)
     * \param mode RUD, ROD or UUD
     * \return the operation id
     */
    uint64_t PostTaggedSend(const UetAddress& target,
                            uint64_t tag,
                            uint64_t bytes,
                            UetCompletionCallback cb,
                            UetDeliveryMode mode = UetDeliveryMode::RUD);

    /**
     * \brief Post a receive for untagged sends on a resource (fi_recv).
     * \param resource Resource Index (< GetNResources(); aborts otherwise)
     * \param bytes buffer length
     * \param cb called once with the matched message's delivery (may be null)
     * \return the receive id (UetDelivery::receiveId)
     */
    uint64_t PostReceive(uint16_t resource, uint64_t bytes, UetDeliveryCallback cb);
    /**
     * \brief Post a receive for tagged sends (fi_trecv).
     * \param resource Resource Index (< GetNResources(); aborts otherwise)
     * \param tag match bits
     * \param ignore bits of the tag that do not have to match
     * \param bytes buffer length
     * \param cb called once with the matched message's delivery (may be null)
     * \return the receive id
     */
    uint64_t PostTaggedReceive(uint16_t resource,
                               uint64_t tag,
                               uint64_t ignore,
                               uint64_t bytes,
                               UetDeliveryCallback cb);
    /**
     * \brief Set the callback that sees every message delivered to this endpoint (WRITE,
     *        SEND, TAGGED_SEND), after the receive's own callback.
     * \param cb the callback (null: none)
     */
    void SetDeliveryCallback(UetDeliveryCallback cb);
    /// \return receives posted and not matched
    uint32_t GetNPostedReceives() const;
    /// \return messages in the unexpected list (arrived or arriving, no receive yet)
    uint32_t GetNUnexpected() const;

    // ---- used by UetNic / UetPdc ----------------------------------------------------------
    /**
     * \brief Bind to a NIC (UetNic::CreateEndpoint).
     * \param nic the NIC
     * \param port FEP index
     * \param jobId JobID
     * \param pid PIDonFEP
     * \param resources number of resources
     */
    void Bind(UetNic* nic, uint32_t port, uint32_t jobId, uint16_t pid, uint16_t resources);
    /**
     * \brief Decide, on a message's first arriving packet, what happens to it (SES target).
     * \param op the operation
     * \param resource Resource Index
     * \param key memory key or match bits
     * \param offset buffer offset
     * \param bytes request_length
     * \param[out] matchId the match handle to give Deliver()
     * \return the SES return code (RC_OK, RC_BAD_INDEX, RC_BAD_MKEY, RC_AT_OUT_OF_RANGE,
     *         RC_NO_MATCH, RC_TOO_LONG)
     */
    uint8_t Admit(UetOperation op,
                  uint16_t resource,
                  uint64_t key,
                  uint64_t offset,
                  uint64_t bytes,
                  uint64_t* matchId);
    /**
     * \brief A message admitted with Admit() has fully arrived: deliver it.
     * \param matchId Admit()'s handle
     * \param d the delivery (receiveId, unexpected set here)
     */
    void Deliver(uint64_t matchId, UetDelivery d);
    /**
     * \brief A message admitted with Admit() will never arrive whole (a UUD message dropped
     *        by UudReassemblyLimit, or one whose PDC closed): forget it. The receive bound to
     *        it, if any, is posted again with its id and place in post order (it takes the
     *        oldest unexpected message that matches, as a new receive would).
     * \param matchId Admit()'s handle (nothing happens for 0 or an unknown handle)
     */
    void Abandon(uint64_t matchId);

  protected:
    void DoDispose() override;

  private:
    /// A posted receive.
    struct Receive
    {
        uint64_t id{0};         //!< receive id
        uint16_t resource{0};   //!< Resource Index
        bool tagged{false};     //!< tagged receive
        uint64_t tag{0};        //!< match bits
        uint64_t ignore{0};     //!< ignore bits
        uint64_t bytes{0};      //!< buffer length
        UetDeliveryCallback cb; //!< completion
    };

    /// A message with no receive (yet), or a matched one on its way.
    struct Pending
    {
        uint64_t id{0};         //!< match handle
        uint16_t resource{0};   //!< Resource Index
        bool tagged{false};     //!< TAGGED_SEND
        uint64_t tag{0};        //!< match bits
        uint64_t bytes{0};      //!< message length
        bool matched{false};    //!< a receive is bound
        Receive receive;        //!< the bound receive
        bool unexpected{false}; //!< arrived before its receive
        bool arrived{false};    //!< fully arrived (unexpected, waiting for a receive)
        UetDelivery delivery;   //!< what arrived
    };

    /// Common part of the Post* functions.
    uint64_t Post(UetOperation op,
                  const UetAddress& target,
                  uint64_t key,
                  uint64_t offset,
                  uint64_t bytes,
                  uint64_t headerData,
                  bool hasHeaderData,
                  UetCompletionCallback cb,
                  UetDeliveryMode mode);
    /// Post a receive (tagged or not).
    uint64_t PostRecv(Receive r);
    /// Give a receive (its id set) to the oldest matching unexpected message, else queue it.
    void Offer(Receive r);
    /// \return true if receive \p r matches a message (tagged, tag)
    static bool Matches(const Receive& r, uint16_t resource, bool tagged, uint64_t tag);
    /// Hand a delivery to the receive's callback and the endpoint's.
    void Notify(const Receive& r, UetDelivery d);

    UetNic* m_nic{nullptr};             //!< the NIC
    uint32_t m_port{0};                 //!< FEP index
    uint32_t m_jobId{0};                //!< JobID
    uint16_t m_pid{0};                  //!< PIDonFEP
    uint16_t m_resources{1};            //!< resources
    uint32_t m_unexpectedLimit;         //!< attribute
    std::map<uint64_t, uint64_t> m_mrs; //!< memory key -> length
    std::deque<Receive> m_receives;     //!< posted, unmatched receives, in post order
    std::deque<Pending> m_pending;      //!< unexpected / matched-in-flight messages
    uint64_t m_nextReceiveId{1};        //!< next receive id
    uint64_t m_nextMatchId{1};          //!< next match handle
    UetDeliveryCallback m_deliveryCb;   //!< sees every delivery
};

} // namespace ns3

#endif /* UET_ENDPOINT_H */
