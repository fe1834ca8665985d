/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a port's receive filter that drops one class of transport packets (ACKs, NAKs,
 * CNPs), classified by transport-provided functions keyed by UDP destination port.
 */
#ifndef PACKET_CLASS_FILTER_H
#define PACKET_CLASS_FILTER_H

#include "ns3/error-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/udp-port-table.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief Transport-neutral classes of the packets a transport sends besides its data.
 */
enum class FabricPacketClass : uint8_t
{
    OTHER = 0, //!< data, requests, anything not below (never dropped by a class filter)
    ACK,       //!< a positive acknowledgement (RoCE: Acknowledge with an ACK syndrome)
    NAK,       //!< a negative acknowledgement (RoCE: Acknowledge with a NAK syndrome)
    CNP,       //!< a congestion notification (RoCEv2 CNP, opcode 0x81)
    COUNT      //!< number of classes (not a class)
};

/**
 * \param c a class (not COUNT; aborts otherwise)
 * \return its name: "other", "ack", "nak", "cnp"
 */
const char* FabricPacketClassName(FabricPacketClass c);

/**
 * \ingroup ai-fabric-link
 * \brief Classifies a transport's packet from the bytes after its UDP header. Provided by the
 *        transport (RoCEv2: RoceEntropyParser::Classify, UDP 4791); plain functions, no state.
 * \param l4Payload the bytes after the UDP header
 * \param n how many of them are valid (it must not read more)
 * \return the packet's class (OTHER when \p n is too short to say)
 */
typedef FabricPacketClass (*FabricPacketClassifyFn)(const uint8_t* l4Payload, uint32_t n);

/**
 * \ingroup ai-fabric-link
 * \brief A receive filter for a PfcNetDevice (its ReceiveErrorModel) that drops the frames of
 *        one packet class (FabricPacketClass) with a probability: the "loss of a packet
 *        class" fault (FaultHelper drop-class).
 *
 * The filter reads a received frame's Ethernet (optionally 802.1Q), IPv4 and UDP headers and,
 * for a UDP destination port with a registered classifier (AddClassifier(), no process-wide
 * registry: whoever installs the filter registers the transports it knows), asks it for the
 * class. A frame of the dropped class is dropped with probability DropProbability: the port
 * counts it as an "rx error" drop (PfcDropReason::RX_ERROR, so the port's counter columns do
 * not change), the filter counts it per class (GetDrops()) and fires its "Drop" trace with the
 * class, its own drop reason. Frames of other classes, of other transports and non-IPv4 frames
 * (PFC) pass. A receive error model the port had before can be chained (SetNext()): a frame
 * it corrupts is dropped too.
 *
 * Cost: nothing on ports without it (PfcNetDevice tests its ReceiveErrorModel pointer for
 * every frame already); on a filtered port, each frame's head is written into its packet and
 * read (the frame leaves the fast path there).
 */
class PacketClassFilter : public ErrorModel
{
  public:
    /// Drop trace signature: the frame, its class.
    typedef void (*DropTracedCallback)(Ptr<const Packet>, FabricPacketClass);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PacketClassFilter();
    ~PacketClassFilter() override;

    /**
     * \brief Register (or replace) the classifier of a UDP destination port.
     * \param udpDstPort the port, 1..65535 (aborts on 0)
     * \param classify the classifier (aborts if null)
     */
    void AddClassifier(uint16_t udpDstPort, FabricPacketClassifyFn classify);
    /**
     * \brief Set the class dropped.
     * \param c ACK, NAK or CNP (aborts on OTHER or COUNT, naming the value)
     */
    void SetDropClass(FabricPacketClass c);
    /// \return the class dropped (ACK by default)
    FabricPacketClass GetDropClass() const;
    /**
     * \brief Set the probability that a frame of the dropped class is dropped.
     * \param p in (0, 1] (aborts otherwise, naming the value)
     */
    void SetDropProbability(double p);
    /// \return the DropProbability attribute
    double GetDropProbability() const;
    /**
     * \brief Chain the receive error model the port had before (null: none).
     * \param next an error model consulted for the frames the filter does not drop
     */
    void SetNext(Ptr<ErrorModel> next);
    /// \return the chained error model (null: none)
    Ptr<ErrorModel> GetNext() const;
    /**
     * \brief Classify a whole Ethernet frame (header to FCS) as the filter does.
     * \param frame the frame
     * \return its class (OTHER for non-IPv4, non-UDP or unregistered UDP ports)
     */
    FabricPacketClass Classify(Ptr<const Packet> frame) const;
    /**
     * \param c a class (< COUNT; aborts otherwise)
     * \return frames of that class dropped so far
     */
    uint64_t GetDrops(FabricPacketClass c) const;
    /**
     * \param c a class (< COUNT; aborts otherwise)
     * \return frames of that class seen so far (dropped or not)
     */
    uint64_t GetSeen(FabricPacketClass c) const;
    /**
     * \brief Assign a fixed random stream to the drop draws.
     * \param stream stream index
     * \return 1
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    /// Bytes of a frame read to classify it: Ethernet + 802.1Q + IPv4 with options + UDP +
    /// what a classifier reads (RoCE: BTH, an in-band telemetry stack, AETH).
    static constexpr uint32_t PEEK_BYTES = 256;

    UdpPortTable<FabricPacketClassifyFn> m_classifiers; //!< classifier by UDP destination port
    FabricPacketClass m_class{FabricPacketClass::ACK};  //!< class dropped
    double m_probability{1.0};                          //!< attribute DropProbability
    Ptr<ErrorModel> m_next;                             //!< chained model (may be null)
    Ptr<UniformRandomVariable> m_uniform;               //!< drop draws (when p < 1)
    std::array<uint64_t, size_t(FabricPacketClass::COUNT)> m_drops{}; //!< by class
    std::array<uint64_t, size_t(FabricPacketClass::COUNT)> m_seen{};  //!< by class
    TracedCallback<Ptr<const Packet>, FabricPacketClass> m_dropTrace; //!< Drop
};

} // namespace ns3

#endif /* PACKET_CLASS_FILTER_H */
