/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: protocol headers written as bytes in one buffer operation.
 */
#ifndef FABRIC_WIRE_HEADER_H
#define FABRIC_WIRE_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief A run of already-serialized protocol headers, added to a packet in one operation.
 *
 * The data path writes the headers of a frame as bytes (Ethernet and 802.1Q at the ports;
 * IPv4 + UDP + BTH and its extension headers at the RoCE NIC) and adds them with a single
 * Packet::AddHeader, instead of one AddHeader per protocol; switches replace the Ethernet and
 * IPv4 headers of a forwarded frame the same way. The wire bytes are exactly those the
 * per-protocol ns-3 headers (EthernetHeader, PfcDot1qHeader, Ipv4Header, UdpHeader,
 * RoceBthHeader, ...) produce; readers use Packet::CopyData or those classes' Deserialize.
 * This is a speed measure: each ns-3 header add/remove costs a buffer adjustment, a virtual
 * serialization and metadata bookkeeping (ai-fabric benchmark, doc "Benchmarks").
 *
 * With Packet::EnablePrinting, Print decodes the bytes it holds (Ethernet/802.1Q, IPv4, UDP,
 * and what follows UDP through the describer a transport registered for the UDP destination
 * port: SetUdpPayloadDescriber(), e.g. RoCEv2's BTH), so ASCII traces stay readable. The engine
 * itself knows no transport.
 */
class FabricWireHeader : public Header
{
  public:
    /// Largest run of header bytes, bytes (FabricFrame::HEAD_CAPACITY: Ethernet + 802.1Q and an
    /// Ultra Ethernet packet's IPv4/UDP/PDS/SES headers, or IPv4 with options).
    static constexpr uint32_t MAX_BYTES = 112;

    /**
     * \brief Prints the bytes after a UDP header (a transport's headers) for Print().
     * \param os where to print (append "; NAME fields ..." to the description)
     * \param l4Payload the bytes after the UDP header
     * \param n how many are valid (print nothing if too few)
     */
    typedef void (*UdpPayloadDescriber)(std::ostream& os, const uint8_t* l4Payload, uint32_t n);

    /**
     * \brief Register (or replace, or with null remove) the describer of a UDP destination port.
     *
     * Process-wide, for printing only (never on the data path); transports register theirs
     * once, when the library loads (RoceEntropyParser for 4791).
     * \param udpDstPort the port
     * \param describer the describer, or null to remove it
     */
    static void SetUdpPayloadDescriber(uint16_t udpDstPort, UdpPayloadDescriber describer);
    /**
     * \param udpDstPort a UDP destination port
     * \return its describer, or null
     */
    static UdpPayloadDescriber GetUdpPayloadDescriber(uint16_t udpDstPort);

    /// What the bytes start with (used by Print only).
    enum Kind : uint8_t
    {
        ETHERNET, //!< Ethernet header (optionally 802.1Q-tagged), then maybe L3 bytes
        IPV4      //!< IPv4 header, then maybe UDP and a transport's headers
    };

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricWireHeader() = default;
    /**
     * \param kind what the bytes start with
     * \param bytes the serialized headers
     * \param size number of bytes, 0..MAX_BYTES (aborts otherwise)
     */
    FabricWireHeader(Kind kind, const uint8_t* bytes, uint32_t size);

    /**
     * \brief Replace the bytes held, so that one object serves every packet of a sender
     * (constructing and destroying an ns-3 Header per packet is a visible cost).
     * \param kind what the bytes start with
     * \param bytes the serialized headers
     * \param size number of bytes, 0..MAX_BYTES (aborts otherwise)
     */
    void Set(Kind kind, const uint8_t* bytes, uint32_t size);

    /// \return the header bytes held
    const uint8_t* GetBytes() const
    {
        return m_bytes;
    }

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read GetSerializedSize() bytes (the size given at construction; 0 by default).
     * \param start where to read
     * \return the number of bytes read
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint8_t m_bytes[MAX_BYTES]; //!< the header bytes (first m_size valid)
    uint32_t m_size{0};         //!< number of bytes
    Kind m_kind{ETHERNET};      //!< what the bytes start with
};

/// Big-endian writers and readers for the wire-header builders.
namespace wire
{
/// Write a 16-bit value big-endian. \param p destination \param v value
inline void
PutU16(uint8_t* p, uint16_t v)
{
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}

/// Write the low 24 bits big-endian. \param p destination \param v value
inline void
PutU24(uint8_t* p, uint32_t v)
{
    p[0] = static_cast<uint8_t>(v >> 16);
    p[1] = static_cast<uint8_t>(v >> 8);
    p[2] = static_cast<uint8_t>(v);
}

/// Write a 32-bit value big-endian. \param p destination \param v value
inline void
PutU32(uint8_t* p, uint32_t v)
{
    p[0] = static_cast<uint8_t>(v >> 24);
    p[1] = static_cast<uint8_t>(v >> 16);
    p[2] = static_cast<uint8_t>(v >> 8);
    p[3] = static_cast<uint8_t>(v);
}

/// Write a 64-bit value big-endian. \param p destination (8 bytes) \param v value
inline void
PutU64(uint8_t* p, uint64_t v)
{
    PutU32(p, static_cast<uint32_t>(v >> 32));
    PutU32(p + 4, static_cast<uint32_t>(v));
}

/// \param p source \return the big-endian 16-bit value at p
inline uint16_t
GetU16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

/// \param p source \return the big-endian 24-bit value at p
inline uint32_t
GetU24(const uint8_t* p)
{
    return (uint32_t(p[0]) << 16) | (uint32_t(p[1]) << 8) | p[2];
}

/// \param p source \return the big-endian 32-bit value at p
inline uint32_t
GetU32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

/// \param p source \return the big-endian 64-bit value at p
inline uint64_t
GetU64(const uint8_t* p)
{
    return (uint64_t(GetU32(p)) << 32) | GetU32(p + 4);
}

/**
 * \brief Internet checksum (RFC 1071) of an IPv4 header, with its checksum field taken as 0.
 * \param h the header
 * \param ihlBytes its length, 20..60, a multiple of 4
 * \return the value for bytes 10..11
 */
uint16_t Ipv4HeaderChecksum(const uint8_t* h, uint32_t ihlBytes);

/**
 * \brief Update an Internet checksum for one 16-bit word that changed (RFC 1624, eqn. 3:
 * HC' = ~(~HC + ~m + m')). Gives exactly the value a full recomputation would.
 * \param checksum the checksum field before the change
 * \param oldWord the word before the change
 * \param newWord the word after the change
 * \return the new checksum field
 */
inline uint16_t
UpdateChecksum(uint16_t checksum, uint16_t oldWord, uint16_t newWord)
{
    uint32_t sum = uint32_t(static_cast<uint16_t>(~checksum)) +
                   uint32_t(static_cast<uint16_t>(~oldWord)) + newWord;
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    return static_cast<uint16_t>(~sum);
}
} // namespace wire

} // namespace ns3

#endif /* FABRIC_WIRE_HEADER_H */
