/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: InfiniBand Immediate Data extended header (ImmDt).
 */
#ifndef ROCE_IMMDT_HEADER_H
#define ROCE_IMMDT_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief The 4-byte Immediate Data header (IBTA Vol 1 9.3, ImmDt).
 *
 * Present on SEND Last/Only with Immediate and RDMA WRITE Last/Only with Immediate
 * (RoceBthHeader::HasImmDt()); on WRITE Only with Immediate it follows the RETH. The 32-bit
 * value is opaque to the transport and delivered to the responder's completion; it is carried
 * in network byte order. Default 0.
 */
class RoceImmDtHeader : public Header
{
  public:
    /// Serialized size of the ImmDt header in bytes.
    static constexpr uint32_t SIZE = 4;

    /// Construct an ImmDt header with value 0.
    RoceImmDtHeader();
    /**
     * \brief Construct an ImmDt header with the given value.
     * \param immediate any 32-bit value
     */
    explicit RoceImmDtHeader(uint32_t immediate);

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
    /**
     * \brief Write the SIZE wire bytes (same as Serialize; used by the NIC to build all of a
     * packet's headers in one buffer, see FabricWireHeader).
     * \param out destination, at least SIZE bytes
     */
    void Write(uint8_t* out) const;
    /**
     * \brief Read the SIZE wire bytes (same as Deserialize, from a copied-out buffer).
     * \param in source, at least SIZE bytes
     */
    void Read(const uint8_t* in);

    /**
     * \brief Set the immediate data.
     * \param immediate any 32-bit value
     */
    void SetImmediate(uint32_t immediate);
    /// \return the immediate data
    uint32_t GetImmediate() const;

  private:
    uint32_t m_immediate; //!< immediate data
};

} // namespace ns3

#endif /* ROCE_IMMDT_HEADER_H */
