/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: collective messages over Ultra Ethernet (SES WRITE with header data on RUD/ROD
 * PDCs).
 */
#ifndef UET_COLLECTIVE_TRANSPORT_H
#define UET_COLLECTIVE_TRANSPORT_H

#include "uet-endpoint.h"
#include "uet-nic.h"
#include "uet-types.h"

#include "ns3/collective-message-window.h"
#include "ns3/collective-transport.h"

#include <deque>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class UetCollectiveEndpointMux;

/**
 * \ingroup ai-fabric-uet
 * \brief CollectiveTransport over UetNics: each message is an SES WRITE with header data
 *        (immediate data) from the source rank's endpoint to the destination rank's, on the
 *        PDC that the source FEP opens to the destination FEP (RUD by default, or ROD).
 *
 * <b>Ranks and endpoints.</b> Rank i is the UetNic aggregated to node i (SetRankNodes) or the
 * i-th NIC given to SetNics(). Each rank is one process of the job JobId (attribute, default
 * 1): its endpoint on a NIC port (FEP) is {JobID, PIDonFEP} with PIDonFEP = the number of
 * earlier ranks sharing its NIC (0 with one rank per NIC), as UetNicHelper::CreateEndpoints
 * numbers them. Endpoints are created on first use, on the ports the connections use (port 0
 * by default; a topology's PortSelector puts intra-server traffic on the NVLink port). Every
 * transport of a job shares these endpoints, as the communicators of one process share its
 * endpoint in a real job: each transport registers one memory region of its own (a memory key
 * unique to the transport, covering all 2^64 - 1 bytes of the address space), and an internal
 * multiplexer aggregated to the endpoint hands each WRITE's delivery to the transport whose
 * key it names. An endpoint {JobId, PIDonFEP} that someone else created (e.g. with
 * UetNicHelper::CreateEndpoints) is not taken over: opening a connection on it aborts, naming
 * the node, the port and the endpoint (choose another JobId).
 *
 * <b>Messages.</b> A connection is (source rank, destination rank, channel); it is opened on
 * its first message (or by Connect()) and numbers its messages with a 32-bit sequence number.
 * The 64-bit header data of every WRITE carries (connection index << 32 | sequence number),
 * so the target's delivery callback finds the message whatever PDC or order it arrived in
 * (RUD delivers messages unordered). Connections between the same FEPs share the FEPs' PDC
 * (PDCs are per {mode, JobID, destination FEP}, UEC 1.0 PDS), so channels are not separate
 * PDCs; they only pick the port (PortSelector).
 *
 * One SES message carries at most 2^32 - 1 bytes (request_length is 32 bits). A larger message
 * is split into parts of at most MaxMessageBytes (attribute; default and maximum 2^32 - 1), in
 * whole Mtu units of the source NIC when MaxMessageBytes >= Mtu (so every packet but the
 * message's last is full), each part one WRITE at the part's offset, all with the message's
 * header data. A zero-byte message is one zero-byte WRITE (a notification: one packet).
 *
 * <b>Notifications</b> (CollectiveTransport): MessageDelivered once the target has delivered
 * every part (UetEndpoint delivery callback), MessageSent once every part completed
 * successfully at the source (UetCompletion ok), MessageFailed on the first part that
 * completed in error (PDC closed in error after its retry limit, or a target return code),
 * naming the ranks, the channel and the completion's error; each at most once per message.
 * The first failure on a connection also fires the Failure trace (NotifyFailure). Later parts
 * of a failed message are ignored.
 *
 * Cost: O(1) per part (a hash lookup of the operation id at completion, an index into the
 * connection's pending messages at delivery); nothing per packet; one callback object per
 * connection, none per message.
 */
class UetCollectiveTransport : public CollectiveTransport
{
  public:
    /**
     * \brief Port selector: (source rank, destination rank, channel) -> (port of the source
     *        NIC, port of the destination NIC) that the connection uses (UetNic port indices,
     *        i.e. FEPs).
     */
    typedef Callback<std::pair<uint32_t, uint32_t>, uint32_t, uint32_t, uint32_t> PortSelector;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetCollectiveTransport();
    ~UetCollectiveTransport() override;

    /**
     * \brief Set the ranks: rank i is nics[i] (ranks sharing a NIC get PIDonFEP 0, 1, ... in
     *        rank order).
     * \param nics the NICs (none null; aborts naming the index otherwise); replaces earlier
     *        ones; aborts if connections are open already
     */
    void SetNics(const std::vector<Ptr<UetNic>>& nics);
    /**
     * \brief Set the ranks from their nodes: rank i is the UetNic aggregated to nodes[i].
     * \param nodes one node per rank (aborts naming the rank whose node is null or has no
     *        UetNic)
     */
    void SetRankNodes(const std::vector<Ptr<Node>>& nodes) override;
    /**
     * \param rank a rank (< GetNRanks(); aborts otherwise)
     * \return its NIC
     */
    Ptr<UetNic> GetNic(uint32_t rank) const;
    /**
     * \param rank a rank (< GetNRanks(); aborts otherwise)
     * \return its PIDonFEP, 0..4095 (its index among the ranks sharing its NIC)
     */
    uint16_t GetPidOnFep(uint32_t rank) const;
    /**
     * \param rank a rank (< GetNRanks(); aborts otherwise)
     * \param port a port of its NIC
     * \return its endpoint on that port, or null if no connection used it yet
     */
    Ptr<UetEndpoint> GetEndpoint(uint32_t rank, uint32_t port = 0) const;
    /// \return the memory key of this transport's region (unique per transport)
    uint64_t GetMemoryKey() const;
    /**
     * \brief Set how connections pick their ports (null: port 0 on both sides). Set it before
     *        the first connection opens (aborts otherwise).
     * \param selector the selector; it must return ports that exist on both NICs (the
     *        transport aborts naming the connection and the port otherwise)
     */
    void SetPortSelector(PortSelector selector);
    /**
     * \brief Open a connection now rather than on its first message (no-op if open).
     * \param src source rank
     * \param dst destination rank (!= src)
     * \param channel channel (< 65536)
     */
    void Connect(uint32_t src, uint32_t dst, uint32_t channel) override;
    /// \return true: messages cross MPI processes (CollectiveTransport's class comment)
    bool SupportsProcesses() const override;
    /**
     * \param src source rank
     * \param dst destination rank
     * \param channel channel
     * \return the connection's (source port, destination port), or (UINT32_MAX, UINT32_MAX)
     *         if it is not open
     */
    std::pair<uint32_t, uint32_t> GetPorts(uint32_t src, uint32_t dst, uint32_t channel) const;
    /// \return number of open connections
    uint32_t GetNConnections() const;
    /// \return messages sent (Send calls)
    uint64_t GetMessagesSent() const;
    /// \return SES WRITEs posted (message parts; > GetMessagesSent() when messages were split)
    uint64_t GetPartsPosted() const;
    /// \return payload bytes of all messages sent
    uint64_t GetBytesSent() const;
    /// \return payload bytes of all messages fully delivered
    uint64_t GetBytesDelivered() const;
    /// \return the delivery mode of new WRITEs (DeliveryMode attribute: RUD or ROD)
    UetDeliveryMode GetDeliveryMode() const;

    /**
     * \brief Fix the random streams (Start_PSNs, EVs) of the ranks' NICs: each distinct NIC,
     *        in the order of its first rank, gets one stream (UetNic::AssignStreams).
     * \param stream first stream
     * \return streams used (the number of distinct NICs)
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
        uint32_t src{0};                  //!< source rank
        uint32_t dst{0};                  //!< destination rank
        uint32_t channel{0};              //!< channel
        uint32_t srcPort{0};              //!< source NIC port (FEP)
        uint32_t dstPort{0};              //!< destination NIC port (FEP)
        Ptr<UetEndpoint> ep;              //!< the source rank's endpoint on srcPort
        UetAddress target;                //!< the destination rank's endpoint on dstPort
        uint64_t mtu{0};                  //!< the source NIC's Mtu (whole-MTU parts)
        CollectiveMessageWindow window;   //!< its messages in flight
        UetCompletionCallback onComplete; //!< completion callback, made once
        std::unordered_map<uint64_t, uint32_t> posted; //!< operation id -> message seq
    };

    /// \return the connection index, opening it if needed
    uint32_t GetConnection(uint32_t src, uint32_t dst, uint32_t channel);
    /// \return the endpoint of \p rank on \p port, created and registered if needed
    Ptr<UetEndpoint> EndpointOf(uint32_t rank, uint32_t port);
    /// Target side: a WRITE of this transport arrived.
    void OnDelivery(const UetDelivery& d);
    /// Source side: a part completed.
    void OnComplete(uint32_t conn, const UetCompletion& c);
    /// Leave every endpoint's multiplexer (dispose, destruction).
    void Unregister();
    /// Set the DeliveryMode attribute ("RUD" or "ROD"; aborts for RUDI and UUD).
    void SetDeliveryModeName(std::string name);
    /// \return the DeliveryMode attribute's value
    std::string GetDeliveryModeName() const;

    std::vector<Ptr<UetNic>> m_nics;                    //!< rank -> NIC
    std::vector<uint16_t> m_pids;                       //!< rank -> PIDonFEP
    PortSelector m_portSelector;                        //!< ports of a connection (or null)
    uint32_t m_jobId;                                   //!< attribute JobId
    UetDeliveryMode m_mode;                             //!< attribute DeliveryMode
    uint64_t m_maxMessageBytes;                         //!< attribute MaxMessageBytes
    uint64_t m_key;                                     //!< this transport's memory key
    std::map<uint64_t, Ptr<UetEndpoint>> m_endpoints;   //!< (rank << 32 | port) -> endpoint
    std::vector<Ptr<UetCollectiveEndpointMux>> m_muxes; //!< multiplexers registered with
    UetDeliveryCallback m_onDelivery;                   //!< OnDelivery, made once
    std::vector<Connection> m_conns;                    //!< connections
    std::unordered_map<uint64_t, uint32_t> m_connIndex; //!< (src, dst, channel) -> index
    uint64_t m_messages;                                //!< messages sent
    uint64_t m_parts;                                   //!< WRITEs posted
    uint64_t m_bytesSent;                               //!< bytes sent
    uint64_t m_bytesDelivered;                          //!< bytes delivered
};

/**
 * \ingroup ai-fabric-uet
 * \brief Internal to UetCollectiveTransport: aggregated to a UetEndpoint that collective
 *        transports share, it is the endpoint's delivery callback and hands each WRITE's
 *        delivery to the transport registered under the WRITE's memory key.
 */
class UetCollectiveEndpointMux : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetCollectiveEndpointMux();
    ~UetCollectiveEndpointMux() override;

    /**
     * \brief Hand the deliveries of WRITEs to \p key to \p cb.
     * \param key a memory key (one per transport; registering it again replaces the callback)
     * \param cb the transport's delivery handler
     */
    void Register(uint64_t key, UetDeliveryCallback cb);
    /**
     * \brief Stop handing deliveries to \p key (no-op if not registered).
     * \param key the memory key
     */
    void Unregister(uint64_t key);
    /**
     * \brief The endpoint's delivery callback: find the transport by the memory key; a
     *        delivery nobody registered for (a SEND, or a WRITE of a disposed transport) is
     *        ignored.
     * \param d the delivery
     */
    void Deliver(const UetDelivery& d);

  protected:
    void DoDispose() override;

  private:
    std::unordered_map<uint64_t, UetDeliveryCallback> m_handlers; //!< key -> transport
};

} // namespace ns3

#endif /* UET_COLLECTIVE_TRANSPORT_H */
