/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the reserved body of a RoCEv2 Congestion Notification Packet (CNP).
 */
#ifndef ROCE_CNP_HEADER_H
#define ROCE_CNP_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief The 16 reserved bytes that follow the BTH of a RoCEv2 CNP (IBTA Vol 1 Annex A17,
 *        congestion notification; BTH opcode 0x81, RoceBthHeader::CNP).
 *
 * A CNP is Ethernet / IPv4 / UDP 4791 / BTH (opcode 0x81, DestQP = the QP to slow down) /
 * these 16 bytes / ICRC. The bytes are reserved: a header constructed here is all zeros, which is
 * what a notification point sends. Deserialize() accepts any content and keeps it, so that a
 * header read from the wire and serialized again (e.g. by a forwarding element) is unchanged;
 * IsAllZero() tells whether the received bytes were conforming.
 */
class RoceCnpHeader : public Header
{
  public:
    /// Serialized size of the CNP body in bytes.
    static constexpr uint32_t SIZE = 16;

    /// Construct a CNP body of 16 zero bytes.
    RoceCnpHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \return true if all 16 reserved bytes are 0 (always so unless deserialized otherwise)
    bool IsAllZero() const;
    /// \return the 16 reserved bytes as last deserialized (zeros for a new header)
    const std::array<uint8_t, SIZE>& GetReserved() const;

  private:
    std::array<uint8_t, SIZE> m_reserved{}; //!< the reserved bytes
};

} // namespace ns3

#endif /* ROCE_CNP_HEADER_H */
