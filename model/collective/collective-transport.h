/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the transport-agnostic message interface collectives run on.
 */
#ifndef COLLECTIVE_TRANSPORT_H
#define COLLECTIVE_TRANSPORT_H

#include "collective-types.h"

#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief Point-to-point messages between ranks, as the collective applications need them;
 *        implemented over RoCEv2 (RoceCollectiveTransport) and later Ultra Ethernet.
 *
 * Ranks are transport ranks (global device indices, 0..GetNRanks()-1). A message is sent on a
 * connection (source, destination, channel); each connection is independent (its own queue
 * pairs or packet delivery contexts), and a transport may open it lazily on first use.
 *
 * Per message the caller gets three notifications, each at most once:
 *  - onDelivered, when the whole message has arrived at the destination (receiver side; for
 *    RDMA, the responder's completion of the WRITE with immediate);
 *  - onSent, when the source's transport has completed the message (every byte acknowledged;
 *    the send buffer may be reused);
 *  - onFailed(reason), instead of onSent, when the transport gave up on the message (for RoCE:
 *    retries exhausted, or flushed because its QP is in the error state). onDelivered may then
 *    never fire. Every failure also fires the transport's Failure trace and failure callback
 *    (once per connection).
 *
 * The transport also says what kind of hop a pair of ranks uses (GetHopType), so collectives
 * can charge the NVLink or the network per-step latency; the default is NETWORK for every
 * pair, and a topology sets a HopTypeCallback.
 */
/**
 * \ingroup ai-fabric-collective
 * \brief Receives the outcome of the messages a CollectiveTransport carries.
 *
 * Implemented by CollectiveApplication: one object serves all its messages, told apart by
 * the 64-bit cookie it gives to CollectiveTransport::Send.
 */
class CollectiveMessageListener
{
  public:
    virtual ~CollectiveMessageListener() = default;
    /**
     * \brief The whole message has arrived at its destination.
     * \param cookie the value given to CollectiveTransport::Send
     * \param bytes the message length in bytes
     */
    virtual void MessageDelivered(uint64_t cookie, uint64_t bytes) = 0;
    /**
     * \brief The message completed at its source (all of it acknowledged).
     * \param cookie the value given to CollectiveTransport::Send
     */
    virtual void MessageSent(uint64_t cookie) = 0;
    /**
     * \brief The message failed (e.g. its QP exhausted its retries).
     * \param cookie the value given to CollectiveTransport::Send
     * \param reason what failed, naming the QP and ranks
     */
    virtual void MessageFailed(uint64_t cookie, const std::string& reason) = 0;
};

class CollectiveTransport : public Object
{
  public:
    /// Hop kind query: (source rank, destination rank) -> hop type.
    typedef Callback<CollectiveHopType, uint32_t, uint32_t> HopTypeCallback;
    /// Failure trace signature: source, destination, channel, reason.
    typedef void (*FailureTracedCallback)(uint32_t src,
                                          uint32_t dst,
                                          uint32_t channel,
                                          const std::string& reason);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    CollectiveTransport();
    ~CollectiveTransport() override;

    /// \return number of ranks this transport connects
    virtual uint32_t GetNRanks() const = 0;

    /**
     * \brief Set the ranks from their nodes: rank i is the NIC of \p nodes[i] for this
     *        transport (e.g. the RoceNic aggregated to it). What a helper calls, whatever the
     *        transport; a transport aborts naming the rank whose node lacks its NIC.
     * \param nodes one node per rank, in rank order (none null)
     */
    virtual void SetRankNodes(const std::vector<Ptr<Node>>& nodes) = 0;
    /**
     * \brief Fix the random streams of this transport (e.g. start PSNs) for reproducibility.
     * \param stream first stream
     * \return streams used (0 by default: the transport draws nothing at random)
     */
    virtual int64_t AssignStreams(int64_t stream);

    /**
     * \brief Send a message.
     *
     * Its outcome goes to \p listener with \p cookie: MessageDelivered once the whole message
     * has arrived at the destination, MessageSent when it completed at the source, or
     * MessageFailed. No callback object is made per message (that was the main cost of small
     * collectives, which send millions of them).
     * \param src source rank (< GetNRanks(); aborts otherwise)
     * \param dst destination rank (< GetNRanks(), != src; aborts otherwise)
     * \param channel channel: messages on different channels use different connections
     * \param bytes message length in bytes (0 allowed: a notification)
     * \param listener receives the notifications; must outlive the message (may be null)
     * \param cookie any value; handed back with every notification of this message
     */
    virtual void Send(uint32_t src,
                      uint32_t dst,
                      uint32_t channel,
                      uint64_t bytes,
                      CollectiveMessageListener* listener,
                      uint64_t cookie) = 0;

    /**
     * \brief Kind of hop from \p src to \p dst (for the per-step software latency).
     * \param src source rank
     * \param dst destination rank
     * \return the HopTypeCallback's answer, or NETWORK when none is set
     */
    CollectiveHopType GetHopType(uint32_t src, uint32_t dst) const;
    /**
     * \brief Set the hop kind query (topologies: same server -> NVLINK).
     * \param cb the callback (null restores "always NETWORK")
     */
    void SetHopTypeCallback(HopTypeCallback cb);

    /// \return number of connections that failed
    uint32_t GetNFailures() const;

  protected:
    void DoDispose() override;
    /**
     * \brief Report a failed connection: fires the Failure trace.
     * \param src source rank
     * \param dst destination rank
     * \param channel channel
     * \param reason what happened
     */
    void NotifyFailure(uint32_t src, uint32_t dst, uint32_t channel, const std::string& reason);

  private:
    HopTypeCallback m_hopType; //!< hop kind query
    uint32_t m_nFailures;      //!< failed connections
    TracedCallback<uint32_t, uint32_t, uint32_t, const std::string&> m_failureTrace; //!< trace
};

} // namespace ns3

#endif /* COLLECTIVE_TRANSPORT_H */
