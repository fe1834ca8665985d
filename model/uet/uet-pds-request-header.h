/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UET PDS RUD/ROD request header, with or without congestion-control state.
 */
#ifndef UET_PDS_REQUEST_HEADER_H
#define UET_PDS_REQUEST_HEADER_H

#include "uet-pds-header.h"

#include "ns3/fabric-wire-header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The PDS header of a RUD or ROD request: 12 bytes (types RUD_REQ 2, ROD_REQ 3) or
 *        16 bytes with the CC state (RUD_CC_REQ 13, ROD_CC_REQ 14) (UEC 1.0.1 3.5.10.2,
 *        "RUD/ROD request"; layout from UET.md, Wireshark packet-uet.c, XDP2 pds.h).
 *
 * Layout, most significant bit first:
 * \verbatim
   octets 0-1    prologue: type 5 | next_hdr 4 | flags 7
                 flags: reserved 2 | RETX (0x10) | AR (0x08) | SYN (0x04) | reserved 2
   octets 2-3    clear_psn_offset, signed 16: Clear_PSN = PSN + clear_psn_offset
   octets 4-7    PSN 32
   octets 8-9    SPDCID 16
   octets 10-11  SYN = 0: DPDCID 16
                 SYN = 1: pdc_info 4 (bit 3 = use a reserved PDC, bits 2..0 reserved) |
                          psn_offset 12: Start_PSN = PSN - psn_offset
   -- RUD_CC_REQ / ROD_CC_REQ only:
   octet 12      CCC ID 8
   octets 13-15  credit_target 24 (bytes; RCCC)
   \endverbatim
 * Octets 10-11 are held as one 16-bit value: SetDpdcid() writes all of it, SetPdcInfo() and
 * SetPsnOffset() their parts, whatever the SYN flag says; the flag only selects which view
 * Print() shows. Defaults: RUD_REQ, next header NH_NONE, every other field 0.
 */
class UetPdsRequestHeader : public UetPdsHeader
{
  public:
    /// Size without CC state, bytes (RUD_REQ, ROD_REQ).
    static constexpr uint32_t SIZE = 12;
    /// Size with CC state, bytes (RUD_CC_REQ, ROD_CC_REQ).
    static constexpr uint32_t CC_SIZE = 16;

    /// Construct a RUD_REQ with every field 0.
    UetPdsRequestHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return 12 for RUD_REQ / ROD_REQ, 16 for RUD_CC_REQ / ROD_CC_REQ
    uint32_t GetSerializedSize() const override;
    void Write(uint8_t* out) const override;
    uint32_t Read(const uint8_t* in) override;

    /**
     * \param type a PDS type
     * \return true for RUD_REQ, ROD_REQ, RUD_CC_REQ and ROD_CC_REQ
     */
    static bool IsRequestType(uint8_t type)
    {
        return type == RUD_REQ || type == ROD_REQ || type == RUD_CC_REQ || type == ROD_CC_REQ;
    }

    /// \param type a PDS type \return true for RUD_CC_REQ and ROD_CC_REQ
    static bool HasCcState(uint8_t type)
    {
        return type == RUD_CC_REQ || type == ROD_CC_REQ;
    }

    /**
     * \brief Set the PDS type.
     * \param type RUD_REQ, ROD_REQ, RUD_CC_REQ or ROD_CC_REQ (aborts otherwise)
     */
    void SetType(uint8_t type);
    /// \param retx the RETX flag: this packet is a retransmission
    void SetRetx(bool retx);
    /// \return the RETX flag
    bool GetRetx() const;
    /// \param ar the AR flag: the initiator asks for an immediate ACK
    void SetAr(bool ar);
    /// \return the AR flag
    bool GetAr() const;
    /// \param syn the SYN flag: the PDC is being established (octets 10-11 = pdc_info|psn_offset)
    void SetSyn(bool syn);
    /// \return the SYN flag
    bool GetSyn() const;
    /// \param offset clear_psn_offset, -32768..32767 (Clear_PSN = PSN + offset)
    void SetClearPsnOffset(int16_t offset);
    /// \return clear_psn_offset
    int16_t GetClearPsnOffset() const;
    /// \return Clear_PSN = PSN + clear_psn_offset (modulo 2^32)
    uint32_t GetClearPsn() const;
    /// \param psn the PSN, any 32-bit value
    void SetPsn(uint32_t psn);
    /// \return the PSN
    uint32_t GetPsn() const;
    /// \param spdcid source PDC identifier, any 16-bit value (0 is reserved by the spec)
    void SetSpdcid(uint16_t spdcid);
    /// \return SPDCID
    uint16_t GetSpdcid() const;
    /// \param dpdcid destination PDC identifier (all 16 bits of octets 10-11)
    void SetDpdcid(uint16_t dpdcid);
    /// \return octets 10-11 as one value (the DPDCID when SYN is clear)
    uint16_t GetDpdcid() const;
    /**
     * \brief Set pdc_info, the top 4 bits of octets 10-11 (meaningful with SYN).
     * \param pdcInfo 0..15 (aborts otherwise); bit 3 = use a reserved PDC
     */
    void SetPdcInfo(uint8_t pdcInfo);
    /// \return pdc_info, 0..15
    uint8_t GetPdcInfo() const;
    /// \param use set or clear pdc_info bit 3, "use reserved PDC" (Wireshark mask 0x80)
    void SetUseReservedPdc(bool use);
    /// \return pdc_info bit 3
    bool GetUseReservedPdc() const;
    /**
     * \brief Set psn_offset, the low 12 bits of octets 10-11 (meaningful with SYN).
     * \param psnOffset 0..4095 (aborts otherwise): Start_PSN = PSN - psn_offset
     */
    void SetPsnOffset(uint16_t psnOffset);
    /// \return psn_offset, 0..4095
    uint16_t GetPsnOffset() const;
    /// \return Start_PSN = PSN - psn_offset (modulo 2^32)
    uint32_t GetStartPsn() const;
    /// \param cccId congestion control context id, 8 bits (written only by the CC types)
    void SetCccId(uint8_t cccId);
    /// \return the CCC id
    uint8_t GetCccId() const;
    /**
     * \brief Set credit_target (written only by the CC types).
     * \param creditTarget bytes of credit wanted, 0..2^24-1 (aborts otherwise)
     */
    void SetCreditTarget(uint32_t creditTarget);
    /// \return credit_target, 0..2^24-1
    uint32_t GetCreditTarget() const;

    /**
     * \brief Compose octets 10-11 of a SYN request.
     * \param pdcInfo pdc_info, 0..15 (not checked)
     * \param psnOffset psn_offset, 0..4095 (not checked)
     * \return (pdcInfo << 12) | psnOffset, for WriteFields()' dpdcid argument
     */
    static uint16_t SynField(uint8_t pdcInfo, uint16_t psnOffset)
    {
        return static_cast<uint16_t>(((pdcInfo & 0xF) << 12) | (psnOffset & 0xFFF));
    }

    /**
     * \brief Fast path: write a request header without a header object; the same bytes as a
     * UetPdsRequestHeader with those fields would Write().
     * \param out destination, at least 12 (16 for the CC types) bytes
     * \param type RUD_REQ, ROD_REQ, RUD_CC_REQ or ROD_CC_REQ (not checked)
     * \param nextHeader next header, 0..15 (not checked)
     * \param flags flags, 0..127 (FLAG_RETX | FLAG_AR | FLAG_SYN; not checked)
     * \param clearPsnOffset clear_psn_offset
     * \param psn PSN
     * \param spdcid SPDCID
     * \param dpdcid DPDCID, or SynField() when SYN is set
     * \param cccId CCC id (CC types only)
     * \param creditTarget credit_target, 24 bits (CC types only; not checked)
     * \return bytes written: 12, or 16 for the CC types
     */
    static uint32_t WriteFields(uint8_t* out,
                                uint8_t type,
                                uint8_t nextHeader,
                                uint8_t flags,
                                int16_t clearPsnOffset,
                                uint32_t psn,
                                uint16_t spdcid,
                                uint16_t dpdcid,
                                uint8_t cccId = 0,
                                uint32_t creditTarget = 0)
    {
        WritePrologue(out, type, nextHeader, flags);
        wire::PutU16(out + 2, static_cast<uint16_t>(clearPsnOffset));
        wire::PutU32(out + 4, psn);
        wire::PutU16(out + 8, spdcid);
        wire::PutU16(out + 10, dpdcid);
        if (!HasCcState(type))
        {
            return SIZE;
        }
        out[12] = cccId;
        wire::PutU24(out + 13, creditTarget);
        return CC_SIZE;
    }

    /// \param in a request (or control) header \return its PSN (octets 4-7)
    static uint32_t PeekPsn(const uint8_t* in)
    {
        return wire::GetU32(in + 4);
    }

    /// \param in a request, ACK, NACK or control header \return its SPDCID (octets 8-9)
    static uint16_t PeekSpdcid(const uint8_t* in)
    {
        return wire::GetU16(in + 8);
    }

    /// \param in a request, ACK, NACK or control header \return octets 10-11 (DPDCID)
    static uint16_t PeekDpdcid(const uint8_t* in)
    {
        return wire::GetU16(in + 10);
    }

  private:
    int16_t m_clearPsnOffset; //!< clear_psn_offset
    uint32_t m_psn;           //!< PSN
    uint16_t m_spdcid;        //!< SPDCID
    uint16_t m_dpdcid;        //!< DPDCID, or pdc_info | psn_offset with SYN
    uint8_t m_cccId;          //!< CCC id (CC types)
    uint32_t m_creditTarget;  //!< credit_target, 24 bits (CC types)
};

} // namespace ns3

#endif /* UET_PDS_REQUEST_HEADER_H */
