/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UET PDS RUDI request / response header and UUD request header.
 */
#ifndef UET_PDS_RUDI_HEADER_H
#define UET_PDS_RUDI_HEADER_H

#include "uet-pds-header.h"

#include "ns3/fabric-wire-header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The 8-byte PDS header of a RUDI request (type 4) or RUDI response (type 5) (UEC 1.0.1
 *        3.5.10.4, "RUDI request and response"; UET.md, Wireshark packet-uet.c, XDP2 pds.h).
 *
 * RUDI (reliable unordered delivery for idempotent operations) has no PDC: every packet
 * carries its own id and gets its own response. Layout:
 * \verbatim
   octets 0-1  prologue: type 5 | next_hdr 4 | flags 7
               flags: reserved 1 | M (0x20, responses: ECN-CE echo) | RETX (0x10) | reserved 4
   octets 2-3  reserved 16
   octets 4-7  pkt_id 32
   \endverbatim
 * Defaults: RUDI_REQ, NH_NONE, everything else 0.
 */
class UetPdsRudiHeader : public UetPdsHeader
{
  public:
    /// Serialized size, bytes.
    static constexpr uint32_t SIZE = 8;

    /// Construct a RUDI_REQ with every field 0.
    UetPdsRudiHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return SIZE (8)
    uint32_t GetSerializedSize() const override;
    void Write(uint8_t* out) const override;
    uint32_t Read(const uint8_t* in) override;

    /**
     * \brief Set the PDS type.
     * \param type RUDI_REQ or RUDI_RESP (aborts otherwise)
     */
    void SetType(uint8_t type);
    /// \param m the M flag (RUDI responses: the request was ECN-CE marked)
    void SetM(bool m);
    /// \return the M flag
    bool GetM() const;
    /// \param retx the RETX flag
    void SetRetx(bool retx);
    /// \return the RETX flag
    bool GetRetx() const;
    /// \param reserved octets 2-3 (0 on conforming packets)
    void SetReserved(uint16_t reserved);
    /// \return octets 2-3
    uint16_t GetReserved() const;
    /// \param pktId the RUDI packet id, any 32-bit value
    void SetPktId(uint32_t pktId);
    /// \return the RUDI packet id
    uint32_t GetPktId() const;

    /**
     * \brief Fast path: write a RUDI header (reserved octets 0).
     * \param out destination, at least SIZE bytes
     * \param type RUDI_REQ or RUDI_RESP (not checked)
     * \param nextHeader next header, 0..15 (not checked)
     * \param flags flags (FLAG_M, FLAG_RETX; not checked)
     * \param pktId packet id
     * \return SIZE
     */
    static uint32_t WriteFields(uint8_t* out,
                                uint8_t type,
                                uint8_t nextHeader,
                                uint8_t flags,
                                uint32_t pktId)
    {
        WritePrologue(out, type, nextHeader, flags);
        out[2] = 0;
        out[3] = 0;
        wire::PutU32(out + 4, pktId);
        return SIZE;
    }

  private:
    uint16_t m_reserved; //!< octets 2-3
    uint32_t m_pktId;    //!< pkt_id
};

/**
 * \ingroup ai-fabric-uet
 * \brief The 4-byte PDS header of a UUD request (type 6) (UEC 1.0.1 3.5.10.5; UET.md,
 *        Wireshark packet-uet.c, XDP2 pds.h).
 *
 * Unreliable unordered datagrams: no PDC, no ACK, no retransmission. Layout:
 * \verbatim
   octets 0-1  prologue: type 5 (6) | next_hdr 4 | flags 7 (reserved, 0)
   octets 2-3  reserved 16
   \endverbatim
 */
class UetPdsUudHeader : public UetPdsHeader
{
  public:
    /// Serialized size, bytes.
    static constexpr uint32_t SIZE = 4;

    /// Construct a UUD_REQ with every field 0.
    UetPdsUudHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return SIZE (4)
    uint32_t GetSerializedSize() const override;
    void Write(uint8_t* out) const override;
    uint32_t Read(const uint8_t* in) override;

    /// \param reserved octets 2-3 (0 on conforming packets)
    void SetReserved(uint16_t reserved);
    /// \return octets 2-3
    uint16_t GetReserved() const;

    /**
     * \brief Fast path: write a UUD header (flags and reserved octets 0).
     * \param out destination, at least SIZE bytes
     * \param nextHeader next header, 0..15 (not checked)
     * \return SIZE
     */
    static uint32_t WriteFields(uint8_t* out, uint8_t nextHeader)
    {
        WritePrologue(out, UUD_REQ, nextHeader, 0);
        out[2] = 0;
        out[3] = 0;
        return SIZE;
    }

  private:
    uint16_t m_reserved; //!< octets 2-3
};

} // namespace ns3

#endif /* UET_PDS_RUDI_HEADER_H */
