/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the RoCEv2 Invariant CRC (ICRC) trailer.
 */
#ifndef ROCE_ICRC_TRAILER_H
#define ROCE_ICRC_TRAILER_H

#include "ns3/packet.h"
#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief The 4-byte Invariant CRC that ends every RoCEv2 packet, after the payload and inside
 *        the UDP datagram (IBTA Vol 1 7.8.1 and Annex A17.3.3).
 *
 * By default the trailer holds 0: the simulator does not spend a CRC per packet, and nothing in
 * the model checks it (Wireshark does not either unless told to). Call Compute() to obtain the
 * real value for a packet and SetIcrc() it when bit-exact traces are wanted.
 *
 * The value is the CRC-32 of IEEE 802.3 (polynomial 0x04C11DB7, reflected, initial value
 * 0xFFFFFFFF, final complement) and is serialized least-significant octet first, like the
 * Ethernet FCS. A network-order reader (e.g. Wireshark's infiniband.invariant.crc field) thus
 * shows the byte-swapped value.
 */
class RoceIcrcTrailer : public Trailer
{
  public:
    /// Serialized size of the ICRC in bytes.
    static constexpr uint32_t SIZE = 4;

    /// Construct an ICRC trailer holding 0.
    RoceIcrcTrailer();
    /**
     * \brief Construct an ICRC trailer holding the given value.
     * \param icrc the CRC value (as returned by Compute())
     */
    explicit RoceIcrcTrailer(uint32_t icrc);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

    /**
     * \brief Set the ICRC value.
     * \param icrc any 32-bit value; Compute() gives the correct one for a packet
     */
    void SetIcrc(uint32_t icrc);
    /// \return the ICRC value (0 unless set or deserialized)
    uint32_t GetIcrc() const;

    /**
     * \brief Compute the ICRC of a RoCEv2 packet over IPv4 (IBTA Vol 1 Annex A17.3.3).
     *
     * The CRC covers, in order: 8 octets of 0xFF (standing for the InfiniBand LRH), the IPv4
     * header with Type of Service, TTL and header checksum replaced by 1s, the UDP header with
     * its checksum replaced by 1s, the BTH with its reserved octet 4 (FECN, BECN, resv6)
     * replaced by 1s, then every following byte (extended headers, payload, pad). The variant
     * fields are masked because switches may change them in flight.
     *
     * \param ipPacketWithoutIcrc the packet from the first byte of the IPv4 header to the last
     *        byte before the ICRC; its IPv4 total length must already count the 4 ICRC bytes
     * \return the ICRC value, ready for SetIcrc()
     *
     * Aborts, naming the offending value, if the packet is not IPv4 (version 4, header length
     * >= 20 B) carrying UDP (protocol 17), is shorter than IPv4 + UDP 8 B + BTH 12 B, or if the
     * IPv4 total length is not the packet size plus 4.
     */
    static uint32_t Compute(Ptr<const Packet> ipPacketWithoutIcrc);
    /**
     * \brief Check the ICRC at the end of a received RoCEv2 packet over IPv4.
     * \param ipPacketWithIcrc the packet from the IPv4 header through the ICRC, no Ethernet
     *        padding (aborts as Compute() does if it is not IPv4/UDP/BTH/ICRC)
     * \return true if its last 4 bytes are the ICRC Compute() gives for the rest
     */
    static bool Verify(Ptr<const Packet> ipPacketWithIcrc);
    /**
     * \brief Overwrite the last 4 bytes of a complete RoCEv2 packet over IPv4 with its correct
     *        ICRC. Typical use: build the packet with a default (0) RoceIcrcTrailer added before
     *        the headers, so that the UDP and IPv4 lengths count it, then call Update().
     * \param ipPacketWithIcrc the packet from the IPv4 header through the ICRC, no Ethernet
     *        padding; its last 4 bytes must be a RoceIcrcTrailer (aborts as Compute() does if
     *        the packet is not IPv4/UDP/BTH/ICRC)
     */
    static void Update(Ptr<Packet> ipPacketWithIcrc);

  private:
    uint32_t m_icrc; //!< the CRC value
};

} // namespace ns3

#endif /* ROCE_ICRC_TRAILER_H */
