/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: InfiniBand RDMA Extended Transport Header (RETH).
 */
#ifndef ROCE_RETH_HEADER_H
#define ROCE_RETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief The 16-byte RDMA Extended Transport Header (IBTA Vol 1 9.3, RETH).
 *
 * It follows the BTH on RDMA WRITE First, RDMA WRITE Only (with or without immediate) and RDMA
 * READ Request (RoceBthHeader::HasReth()). Layout, network byte order:
 * \verbatim
   octets 0-7    virtual address 64   remote buffer address of the first byte
   octets 8-11   R_Key 32             remote key of the memory region
   octets 12-15  DMA length 32        bytes of the whole RDMA operation, 0..2^31
   \endverbatim
 * All fields default to 0. Deserialize() accepts any value.
 */
class RoceRethHeader : public Header
{
  public:
    /// Serialized size of the RETH in bytes.
    static constexpr uint32_t SIZE = 16;
    /// Largest DMA length: an InfiniBand message carries at most 2^31 bytes (IBTA Vol 1).
    static constexpr uint32_t MAX_DMA_LENGTH = 0x80000000u;

    /// Construct a RETH with address, R_Key and length 0.
    RoceRethHeader();

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
     * \brief Set the remote virtual address of the first byte of the operation.
     * \param va any 64-bit address
     */
    void SetVirtualAddress(uint64_t va);
    /// \return the remote virtual address
    uint64_t GetVirtualAddress() const;
    /**
     * \brief Set the remote key that authorizes access to the remote memory region.
     * \param rkey any 32-bit key
     */
    void SetRKey(uint32_t rkey);
    /// \return the remote key
    uint32_t GetRKey() const;
    /**
     * \brief Set the length of the whole RDMA operation (not of this packet's payload).
     * \param bytes 0..2^31 bytes (aborts otherwise, naming the value)
     */
    void SetDmaLength(uint32_t bytes);
    /// \return the DMA length in bytes
    uint32_t GetDmaLength() const;

  private:
    uint64_t m_va;        //!< remote virtual address
    uint32_t m_rkey;      //!< remote key
    uint32_t m_dmaLength; //!< DMA length, bytes
};

} // namespace ns3

#endif /* ROCE_RETH_HEADER_H */
