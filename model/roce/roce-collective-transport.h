/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: collective messages over RoCEv2 RDMA WRITE with immediate.
 */
#ifndef ROCE_COLLECTIVE_TRANSPORT_H
#define ROCE_COLLECTIVE_TRANSPORT_H

#include "roce-nic.h"
#include "roce-qp-connector.h"
#include "roce-queue-pair.h"

#include "ns3/collective-message-window.h"
#include "ns3/collective-transport.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief CollectiveTransport over RoceNics: one set of reliable-connected QPs per connection
 *        (source rank, destination rank, channel), data moved as RDMA WRITE with immediate.
 *
 * Rank i is the i-th NIC given to SetNics()/AddRank(). A connection is opened on its first
 * message (or by Connect()) through the connector, a callback (src, dst, nQps) -> nQps QP
 * pairs (src's QP first). The default connector is a RoceQpConnector between the two NICs'
 * port 0; a topology supplies its own (e.g. FabricTopologyHelper::Connect, which picks
 * the NVLink port inside a server and a scale-out port otherwise). The connector must return
 * fresh, connected QPs: the transport takes over their receive callbacks.
 *
 * QPs per connection (attribute QpsPerConnection, NCCL_IB_QPS_PER_CONNECTION, default 1): a
 * message is split into up to that many parts, in whole path-MTU units, posted on consecutive
 * QPs of the connection (rotating, so that small messages also spread), as NCCL's IB transport
 * does. Each part is one WRITE with immediate; the immediate carries the connection's 32-bit
 * message sequence number so the receiver matches parts to messages whatever QP they took.
 * The responder's receive completions signal arrival (onDelivered after the last part), the
 * requester's work completions signal onSent after the last part is acknowledged.
 *
 * Failure: a work completion other than SUCCESS (retries exhausted on a cut link, or a flush
 * of a QP in the error state) fails its message (onFailed with "QP <qpn> <status>") and, the
 * first time on a connection, fires the Failure trace.
 *
 * Cost: O(1) per message part (a hash lookup of the connection and a ring of pending messages
 * indexed by sequence number); nothing per packet.
 */
class RoceCollectiveTransport : public CollectiveTransport
{
  public:
    /// A connected QP pair: the source rank's QP first.
    typedef std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>> QpPair;
    /// Connector: (source rank, destination rank, number of QPs) -> that many QP pairs.
    typedef Callback<std::vector<QpPair>, uint32_t, uint32_t, uint32_t> Connector;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoceCollectiveTransport();
    ~RoceCollectiveTransport() override;

    /**
     * \brief Set the ranks: rank i is nics[i].
     * \param nics the NICs (none null; aborts naming the index otherwise); replaces earlier ones
     */
    void SetNics(const std::vector<Ptr<RoceNic>>& nics);
    /**
     * \brief Set the ranks from their nodes: rank i is the RoceNic aggregated to nodes[i].
     * \param nodes one node per rank (aborts naming the rank whose node is null or has no
     *        RoceNic)
     */
    void SetRankNodes(const std::vector<Ptr<Node>>& nodes) override;
    /**
     * \brief Add one rank.
     * \param nic its NIC (not null)
     * \return its rank
     */
    uint32_t AddRank(Ptr<RoceNic> nic);
    /**
     * \param rank a rank (< GetNRanks(); aborts otherwise)
     * \return its NIC
     */
    Ptr<RoceNic> GetNic(uint32_t rank) const;
    /**
     * \brief Set the connector (null restores the default: RoceQpConnector on port 0).
     * \param connector the connector
     */
    void SetConnector(Connector connector);
    /**
     * \brief The QP connector of the default connection (e.g. to disable random start PSNs).
     * \return a reference valid for the transport's lifetime
     */
    RoceQpConnector& GetQpConnector();
    /**
     * \brief Open a connection now rather than on its first message (no-op if open).
     * \param src source rank
     * \param dst destination rank (!= src)
     * \param channel channel
     */
    void Connect(uint32_t src, uint32_t dst, uint32_t channel) override;
    /// \return true: messages cross MPI processes (CollectiveTransport's class comment)
    bool SupportsProcesses() const override;
    /**
     * \param src source rank
     * \param dst destination rank
     * \param channel channel
     * \return the connection's QP pairs (empty if it is not open)
     */
    std::vector<QpPair> GetQps(uint32_t src, uint32_t dst, uint32_t channel) const;
    /// \return number of open connections
    uint32_t GetNConnections() const;
    /// \return messages sent (Send calls)
    uint64_t GetMessagesSent() const;
    /// \return payload bytes of all messages sent
    uint64_t GetBytesSent() const;
    /// \return payload bytes of all messages fully delivered
    uint64_t GetBytesDelivered() const;

    /**
     * \brief Fix the random start PSNs of the default connector.
     * \param stream first stream index
     * \return number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream) override;

    uint32_t GetNRanks() const override;
    void Send(uint32_t src,
              uint32_t dst,
              uint32_t channel,
              uint64_t bytes,
              CollectiveMessageListener* listener,
              uint64_t cookie) override;

  protected:
    void DoDispose() override;
    CollectiveMessageWindow* GetAnnouncedWindow(uint32_t conn, uint32_t* src) override;

  private:
    /// One connection.
    struct Connection
    {
        uint32_t src{0};                //!< source rank
        uint32_t dst{0};                //!< destination rank
        uint32_t channel{0};            //!< channel
        std::vector<QpPair> qps;        //!< QP pairs
        uint32_t nextQp{0};             //!< QP of the next message's first part
        CollectiveMessageWindow window; //!< its messages in flight
        /// Per QP: its completion callback, made once (bound to connection and QP index).
        std::vector<RoceQueuePair::CompletionCallback> onComplete;
        /// Per QP: (work request id, message seq) of its parts not yet completed, in post order.
        std::vector<FabricRing<std::pair<uint64_t, uint32_t>>> posted;
    };

    /// \return the connection index, opening it if needed
    uint32_t GetConnection(uint32_t src, uint32_t dst, uint32_t channel);
    /// Default connector.
    std::vector<QpPair> DefaultConnect(uint32_t src, uint32_t dst, uint32_t nQps);
    /// Responder notification of a part.
    void OnReceive(uint32_t conn, const RoceReceiveCompletion& rc);
    /// Requester completion of a part.
    void OnComplete(uint32_t conn, uint32_t qp, const RoceWorkCompletion& wc);

    std::vector<Ptr<RoceNic>> m_nics;                   //!< rank -> NIC
    Connector m_connector;                              //!< user connector (or null)
    RoceQpConnector m_qpConnector;                      //!< default connector
    uint32_t m_qpsPerConnection;                        //!< attribute
    std::vector<Connection> m_conns;                    //!< connections
    std::unordered_map<uint64_t, uint32_t> m_connIndex; //!< (src, dst, channel) -> index
    uint64_t m_messages;                                //!< messages sent
    uint64_t m_bytesSent;                               //!< bytes sent
    uint64_t m_bytesDelivered;                          //!< bytes delivered
};

} // namespace ns3

#endif /* ROCE_COLLECTIVE_TRANSPORT_H */
