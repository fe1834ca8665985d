/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: transport-less IPv4/UDP bulk traffic on a PfcNetDevice.
 */
#ifndef PFC_BULK_SENDER_H
#define PFC_BULK_SENDER_H

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief Sends a fixed number of IPv4/UDP packets from a PfcNetDevice as fast as the port
 *        allows (line rate, honouring PFC pauses), for link and switch experiments that need
 *        no transport (the role BulkSendApplication plays for TCP).
 *
 * Packets carry real IPv4 (DSCP, ECN, TTL 64, checksum) and UDP headers; the destination MAC
 * is the peer of the port (a switch or a host). The sender keeps Depth frames in the port's
 * queue and tops it up each time the port dequeues a frame of its priority, so it never
 * floods the device queue and reacts to pauses like a NIC. Installing it takes over the port's
 * dequeue callback; use one sender per port.
 */
class PfcBulkSender : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcBulkSender();

    /**
     * \brief Bind to a port and set the flow.
     * \param port the sending port (attached to a cable)
     * \param src source IPv4 address
     * \param dst destination IPv4 address
     */
    void Setup(Ptr<PfcNetDevice> port, Ipv4Address src, Ipv4Address dst);

    /**
     * \brief Start sending at the given absolute time.
     * \param at start time (>= now)
     */
    void Start(Time at);

    /// \return IPv4 bytes handed to the port so far
    uint64_t GetSentBytes() const;
    /// \return packets handed to the port so far
    uint64_t GetSentPackets() const;
    /// \return true once every packet has been handed to the port
    bool IsDone() const;
    /// \return time the first packet was sent
    Time GetStartTime() const;

  protected:
    void DoDispose() override;

  private:
    /// Hand one packet to the port.
    void SendOne();
    /// The port dequeued a frame: top the queue up.
    void OnDequeue(const Ptr<PfcNetDevice>&, uint8_t priority, const Ptr<const Packet>&);
    /// Begin sending.
    void DoStart();

    Ptr<PfcNetDevice> m_port;                    //!< sending port
    Address m_peerMac;                           //!< next hop MAC
    Ipv4Address m_src;                           //!< source address
    Ipv4Address m_dst;                           //!< destination address
    uint32_t m_packetSize;                       //!< attribute PacketSize (IPv4 total length)
    uint64_t m_maxPackets;                       //!< attribute MaxPackets
    uint8_t m_dscp;                              //!< attribute Dscp
    uint8_t m_ecn;                               //!< attribute Ecn
    uint16_t m_srcPort;                          //!< attribute SourcePort
    uint16_t m_dstPort;                          //!< attribute DestinationPort
    uint32_t m_depth;                            //!< attribute Depth
    uint8_t m_priority;                          //!< port priority of the packets
    uint64_t m_sentPackets;                      //!< packets sent
    uint64_t m_sentBytes;                        //!< bytes sent
    Time m_startTime;                            //!< first send
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< packet handed to the port
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Counts IPv4 packets delivered by a PfcNetDevice: bytes, packets, CE marks, first and
 *        last arrival (for goodput and completion times).
 */
class PfcPacketSink : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcPacketSink();

    /**
     * \brief Take over the port's receive callback.
     * \param port the receiving port
     */
    void Setup(Ptr<PfcNetDevice> port);

    /// \return IPv4 bytes received
    uint64_t GetBytes() const;
    /// \return packets received
    uint64_t GetPackets() const;
    /// \return packets that arrived with ECN CE
    uint64_t GetCePackets() const;
    /// \return first arrival time
    Time GetFirst() const;
    /// \return last arrival time
    Time GetLast() const;

  private:
    /// A packet arrived.
    void OnReceive(Ptr<PfcNetDevice>, Ptr<Packet> p, uint16_t protocol, Mac48Address, uint8_t);

    uint64_t m_bytes;                            //!< bytes
    uint64_t m_packets;                          //!< packets
    uint64_t m_ce;                               //!< CE-marked packets
    Time m_first;                                //!< first arrival
    Time m_last;                                 //!< last arrival
    TracedCallback<Ptr<const Packet>> m_rxTrace; //!< packet received
};

} // namespace ns3

#endif /* PFC_BULK_SENDER_H */
