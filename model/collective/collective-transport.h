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

class CollectiveMessageWindow;
class FabricNoteChannel;

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
 *
 * Across MPI processes (a topology partitioned over ns-3 systems), a rank's messages are sent
 * by the process that simulates the rank's node and arrive in the process of the destination's
 * node. A transport that supports this (SupportsProcesses) announces every message to a rank of
 * another process through the process's FabricNoteChannel (a note that arrives before the
 * message's first packet can), and that process's copy of the transport completes the arrival
 * for the listener registered for the source rank there (SetRankListener: the source's
 * stand-in application, which passes it on to the receiving rank). The source's process hears
 * MessageSent or MessageFailed, never MessageDelivered; the destination's process hears only
 * MessageDelivered. Every process opens every connection in the same order (Connect), so
 * that a connection has the same index, queue pairs and contexts in each.
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
     * \brief Open the connection (src, dst, channel) now rather than at its first message.
     *        The default does nothing (a transport that opens nothing). A run across MPI
     *        processes opens every connection in the same order in every process
     *        (CollectiveCommunicator's PreConnect).
     * \param src source rank (< GetNRanks(); transports abort otherwise)
     * \param dst destination rank (< GetNRanks(), != src)
     * \param channel channel
     */
    virtual void Connect(uint32_t src, uint32_t dst, uint32_t channel);
    /// \return true if this transport can carry messages between MPI processes (false by
    ///         default; RoCE and UET can)
    virtual bool SupportsProcesses() const;
    /**
     * \brief Announce messages to ranks of other MPI processes through \p notes (CollectiveHelper
     *        sets the topology's PfcRemoteExchange). Registers a note handler: every process
     *        calls it for the same transports in the same order.
     * \param notes this process's note channel (not null; aborts otherwise)
     */
    void SetNoteChannel(Ptr<FabricNoteChannel> notes);
    /**
     * \brief The listener of messages from \p rank that arrive here from another process (the
     *        rank's application; CollectiveCommunicator sets it).
     * \param rank a rank (< GetNRanks() once the ranks are set)
     * \param listener the listener (null: none)
     */
    void SetRankListener(uint32_t rank, CollectiveMessageListener* listener);
    /**
     * \param rank a rank
     * \return true if \p rank's node is simulated by this MPI process (every rank in a
     *         sequential run, and in transports that never called SetRankSystems)
     */
    bool IsLocalRank(uint32_t rank) const;

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
     * \brief Record the MPI system of every rank's node (SetRankNodes implementations call it).
     * \param nodes one node per rank
     */
    void SetRankSystems(const std::vector<Ptr<Node>>& nodes);
    /**
     * \brief Add a message of connection \p conn (\p src to \p dst) to its window, as the
     *        source's process. When \p dst is simulated by another MPI process, the window
     *        waits only for the message's completions, and the message is announced to that
     *        process (through the FabricNoteChannel; aborts naming the rank when there is
     *        none), whose copy of the transport adds it (GetAnnouncedWindow). Aborts naming
     *        \p src when this process does not simulate it.
     * \param window the connection's window
     * \param conn the connection's index (the same in every process)
     * \param src the source rank
     * \param dst the destination rank
     * \param bytes the message's length
     * \param parts its parts (>= 1)
     * \param listener notified of its outcome (may be null)
     * \param cookie handed back to the listener
     * \return its sequence number on the connection
     */
    uint32_t AddMessage(CollectiveMessageWindow& window,
                        uint32_t conn,
                        uint32_t src,
                        uint32_t dst,
                        uint64_t bytes,
                        uint64_t parts,
                        CollectiveMessageListener* listener,
                        uint64_t cookie);
    /**
     * \brief Where a message announced by another process goes: the window of connection
     *        \p conn. The default has none (SupportsProcesses() is false).
     * \param conn the connection's index
     * \param[out] src its source rank
     * \return the connection's window, or null when no such connection is open here
     */
    virtual CollectiveMessageWindow* GetAnnouncedWindow(uint32_t conn, uint32_t* src);
    /**
     * \param rank a rank
     * \return its listener for announced messages (SetRankListener), or null
     */
    CollectiveMessageListener* GetRankListener(uint32_t rank) const;
    /**
     * \brief Report a failed connection: fires the Failure trace.
     * \param src source rank
     * \param dst destination rank
     * \param channel channel
     * \param reason what happened
     */
    void NotifyFailure(uint32_t src, uint32_t dst, uint32_t channel, const std::string& reason);

  private:
    /// Announce a message to the process of \p dst (AddMessage): its connection, sequence
    /// number, length, parts and cookie.
    void Announce(uint32_t dst,
                  uint32_t conn,
                  uint32_t seq,
                  uint64_t bytes,
                  uint64_t parts,
                  uint64_t cookie);
    /// A note from another process (an announced message): add it to its window.
    void OnNote(const std::vector<uint8_t>& note);

    HopTypeCallback m_hopType;                               //!< hop kind query
    uint32_t m_nFailures;                                    //!< failed connections
    std::vector<uint32_t> m_rankSystem;                      //!< MPI system of each rank
    std::vector<CollectiveMessageListener*> m_rankListeners; //!< by rank (announced messages)
    Ptr<FabricNoteChannel> m_notes;                          //!< to other processes (or null)
    uint32_t m_noteHandler{0};                               //!< our id at the exchange
    TracedCallback<uint32_t, uint32_t, uint32_t, const std::string&> m_failureTrace; //!< trace
};

} // namespace ns3

#endif /* COLLECTIVE_TRANSPORT_H */
