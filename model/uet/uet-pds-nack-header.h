/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UET PDS NACK header.
 */
#ifndef UET_PDS_NACK_HEADER_H
#define UET_PDS_NACK_HEADER_H

#include "uet-pds-header.h"

#include "ns3/fabric-wire-header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The 16-byte PDS negative acknowledgement (type NACK, 10) (UEC 1.0.1 3.5.10.9 and the
 *        NACK code table 3.5.12.7; UET.md; Wireshark packet-uet.c dissect_pds_nack; XDP2 pds.h).
 *
 * Layout, most significant bit first:
 * \verbatim
   octets 0-1    prologue: type 5 | next_hdr 4 | flags 7
                 flags: reserved 1 | M (0x20) | RETX (0x10) | NT (0x08) | reserved 3
   octet 2       nack_code 8 (NackCode)
   octet 3       vendor_code 8
   octets 4-7    NACK_PSN 32 (NT = NT_RUDI: the RUDI pkt_id instead)
   octets 8-9    SPDCID 16
   octets 10-11  DPDCID 16
   octets 12-15  payload 32 (code-specific; Wireshark: "max received PSN + 1")
   \endverbatim
 * A trim NACK (TRIMMED, TRIMMED_LASTHOP) carries M if the trimmed packet was CE-marked; the
 * initiator maps each code to drop, retransmit that PSN, or close the PDC. NACK_CCX (type 12)
 * is not modelled. Defaults: NACK, NH_NONE, code TRIMMED, everything else 0.
 */
class UetPdsNackHeader : public UetPdsHeader
{
  public:
    /// Serialized size, bytes.
    static constexpr uint32_t SIZE = 16;

    /// Construct a NACK with code TRIMMED and every other field 0.
    UetPdsNackHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return SIZE (16)
    uint32_t GetSerializedSize() const override;
    void Write(uint8_t* out) const override;
    uint32_t Read(const uint8_t* in) override;

    /// \param m the M flag: the NACKed packet was ECN-CE marked
    void SetM(bool m);
    /// \return the M flag
    bool GetM() const;
    /// \param retx the RETX flag: the NACKed packet was a retransmission
    void SetRetx(bool retx);
    /// \return the RETX flag
    bool GetRetx() const;
    /// \param nt the NT flag (NackType): true = NACK of a RUDI packet
    void SetNt(bool nt);
    /// \return the NT flag
    bool GetNt() const;
    /// \param code the NACK code (NackCode; any 8-bit value, unknown ones are kept)
    void SetNackCode(uint8_t code);
    /// \return the NACK code
    uint8_t GetNackCode() const;
    /// \param code the vendor code, 8 bits
    void SetVendorCode(uint8_t code);
    /// \return the vendor code
    uint8_t GetVendorCode() const;
    /// \param psn NACK_PSN (or RUDI pkt_id with NT), any 32-bit value
    void SetNackPsn(uint32_t psn);
    /// \return NACK_PSN
    uint32_t GetNackPsn() const;
    /// \param spdcid SPDCID
    void SetSpdcid(uint16_t spdcid);
    /// \return SPDCID
    uint16_t GetSpdcid() const;
    /// \param dpdcid DPDCID
    void SetDpdcid(uint16_t dpdcid);
    /// \return DPDCID
    uint16_t GetDpdcid() const;
    /// \param payload the 32-bit code-specific payload
    void SetPayload(uint32_t payload);
    /// \return the payload
    uint32_t GetPayload() const;

    /**
     * \brief Fast path: write a NACK.
     * \param out destination, at least SIZE bytes
     * \param nextHeader next header (not checked)
     * \param flags flags (FLAG_M, FLAG_RETX, FLAG_NT; not checked)
     * \param nackCode NACK code
     * \param vendorCode vendor code
     * \param nackPsn NACK_PSN
     * \param spdcid SPDCID
     * \param dpdcid DPDCID
     * \param payload payload
     * \return SIZE
     */
    static uint32_t WriteFields(uint8_t* out,
                                uint8_t nextHeader,
                                uint8_t flags,
                                uint8_t nackCode,
                                uint8_t vendorCode,
                                uint32_t nackPsn,
                                uint16_t spdcid,
                                uint16_t dpdcid,
                                uint32_t payload)
    {
        WritePrologue(out, NACK, nextHeader, flags);
        out[2] = nackCode;
        out[3] = vendorCode;
        wire::PutU32(out + 4, nackPsn);
        wire::PutU16(out + 8, spdcid);
        wire::PutU16(out + 10, dpdcid);
        wire::PutU32(out + 12, payload);
        return SIZE;
    }

    /// \param in a NACK header \return its NACK code (octet 2)
    static uint8_t PeekNackCode(const uint8_t* in)
    {
        return in[2];
    }

    /// \param in a NACK header \return its NACK_PSN (octets 4-7)
    static uint32_t PeekNackPsn(const uint8_t* in)
    {
        return wire::GetU32(in + 4);
    }

  private:
    uint8_t m_nackCode;   //!< nack_code
    uint8_t m_vendorCode; //!< vendor_code
    uint32_t m_nackPsn;   //!< NACK_PSN
    uint16_t m_spdcid;    //!< SPDCID
    uint16_t m_dpdcid;    //!< DPDCID
    uint32_t m_payload;   //!< payload
};

} // namespace ns3

#endif /* UET_PDS_NACK_HEADER_H */
