/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the messages of one connection of a collective transport, in send order.
 */
#ifndef COLLECTIVE_MESSAGE_WINDOW_H
#define COLLECTIVE_MESSAGE_WINDOW_H

#include "collective-transport.h"

#include "ns3/fabric-ring.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief The messages of one connection of a CollectiveTransport, in send order: what RoCE's
 *        and Ultra Ethernet's collective transports share.
 *
 * A message is sent as one or more parts (RDMA WRITEs with immediate on a connection's QPs,
 * SES WRITEs with header data). Each part arrives at the destination once (PartArrived) and
 * completes at the source once (PartCompleted), in any order. The listener hears
 * MessageDelivered when the last part arrived, MessageSent when the last part completed, or
 * MessageFailed when a part failed (then nothing else of that message). A message is retired
 * from the front of the window when it is delivered and sent, or failed; later messages wait
 * for the ones before them, so the window holds at most the messages in flight.
 *
 * Sequence numbers are 32 bits and wrap (the immediate data and header data carry them);
 * lookups are relative to the oldest pending message, so a window holds fewer than 2^32
 * messages (the transports refuse more).
 */
class CollectiveMessageWindow
{
  public:
    /// What Fail() found: whether the connection failed for the first time, and whom to tell.
    struct Failure
    {
        bool firstOfConnection{false};                //!< the connection's first failure
        CollectiveMessageListener* listener{nullptr}; //!< to tell MessageFailed (may be null)
        uint64_t cookie{0};                           //!< the message's cookie
    };

    /**
     * \brief Add a message.
     * \param bytes its length, bytes
     * \param parts its parts (>= 1)
     * \param listener notified of its outcome (may be null)
     * \param cookie handed back to the listener
     * \param arrivesHere false when the destination is simulated by another MPI process:
     *        its parts arrive there (its copy of the window, AddAnnounced), and this one
     *        waits only for their completions
     * \return its sequence number
     */
    uint32_t Add(uint64_t bytes,
                 uint64_t parts,
                 CollectiveMessageListener* listener,
                 uint64_t cookie,
                 bool arrivesHere = true);
    /**
     * \brief Add a message sent by another MPI process (announced by the source's copy of the
     *        transport): this copy waits only for its parts to arrive, and tells \p listener
     *        MessageDelivered.
     * \param seq its sequence number at the source (must be the next one here; aborts naming
     *        both otherwise: announcements come in order)
     * \param bytes its length, bytes
     * \param parts its parts (>= 1)
     * \param listener notified of its arrival (may be null)
     * \param cookie handed back to the listener
     */
    void AddAnnounced(uint32_t seq,
                      uint64_t bytes,
                      uint64_t parts,
                      CollectiveMessageListener* listener,
                      uint64_t cookie);
    /**
     * \param seq a sequence number
     * \return true if that message is pending and has not failed (its parts still count)
     */
    bool IsLive(uint32_t seq) const;
    /**
     * \brief A part of message \p seq arrived at the destination. When it was the last, adds
     *        the message's bytes to \p delivered, retires what is finished and tells the
     *        listener MessageDelivered. Nothing for a message given up on; aborts for a message
     *        not yet added (across processes: an announcement that came too late).
     * \param seq the message
     * \param[in,out] delivered bytes delivered on the transport
     */
    void PartArrived(uint32_t seq, uint64_t& delivered);
    /**
     * \brief A part of live message \p seq completed at the source (IsLive first). When it was
     *        the last, retires what is finished and tells the listener MessageSent.
     * \param seq the message
     */
    void PartCompleted(uint32_t seq);
    /**
     * \brief A part of live message \p seq failed (IsLive first): the message fails and is
     *        retired with what is finished. The caller reports the connection's first failure
     *        (CollectiveTransport::NotifyFailure) and then tells the listener MessageFailed.
     * \param seq the message
     * \return what to report
     */
    Failure Fail(uint32_t seq);
    /// \return messages pending (not yet retired)
    uint64_t GetPending() const;

  private:
    /// A message in flight.
    struct Message
    {
        uint64_t bytes{0};                            //!< length
        uint64_t partsToArrive{0};                    //!< parts not yet delivered
        uint64_t partsToComplete{0};                  //!< parts not yet completed at the source
        bool failed{false};                           //!< failed
        CollectiveMessageListener* listener{nullptr}; //!< notified of the outcome
        uint64_t cookie{0};                           //!< handed back to the listener
        bool deliveredPending{true};                  //!< MessageDelivered not yet given
        bool sentPending{true};                       //!< MessageSent / MessageFailed not yet given
    };

    /// \return the pending message with that sequence number, or null
    Message* Find(uint32_t seq);
    /// Pop finished messages at the front.
    void Retire();

    uint32_t m_baseSeq{0};         //!< sequence number of m_pending.front()
    uint32_t m_nextSeq{0};         //!< next sequence number
    FabricRing<Message> m_pending; //!< messages by seq - m_baseSeq
    bool m_failed{false};          //!< a failure was reported
};

} // namespace ns3

#endif /* COLLECTIVE_MESSAGE_WINDOW_H */
