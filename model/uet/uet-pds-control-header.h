/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UET PDS control packet header.
 */
#ifndef UET_PDS_CONTROL_HEADER_H
#define UET_PDS_CONTROL_HEADER_H

#include "uet-pds-header.h"

#include "ns3/fabric-wire-header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The 16-byte PDS control packet header (type CTRL, 11; the spec's "CP") (UEC 1.0.1
 *        3.5.10.10 and the control types of 3.5.16; UET.md; Wireshark packet-uet.c
 *        dissect_pds_ctl; XDP2 pds.h).
 *
 * Layout, most significant bit first:
 * \verbatim
   octets 0-1    prologue: type 5 (11) | ctl_type 4 (CtrlType, in the next_hdr bits) | flags 7
                 flags: reserved 2 | RETX (0x10) | AR (0x08) | SYN (0x04) | reserved 2
   octets 2-3    probe_opaque 16 (Probe; reserved otherwise)
   octets 4-7    PSN 32
   octets 8-9    SPDCID 16
   octets 10-11  DPDCID 16 (SYN = 1: pdc_info 4 | psn_offset 12, as in a request)
   octets 12-15  payload 32: ACK_REQ: message id or 0; CLEAR / CLEAR_REQ: clear PSN;
                 PROBE: SACK bitmap base PSN; CREDIT: credit; CREDIT_REQ: credit target;
                 others: 0
   \endverbatim
 * A control packet carries no SES header. Defaults: CTRL_NOOP, every field 0.
 */
class UetPdsControlHeader : public UetPdsHeader
{
  public:
    /// Serialized size, bytes.
    static constexpr uint32_t SIZE = 16;

    /// Construct a CTRL_NOOP control packet with every field 0.
    UetPdsControlHeader();

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

    /**
     * \brief Set the control type (the prologue's next_hdr bits).
     * \param ctlType CtrlType, 0..15 (aborts otherwise; 9..15 are reserved but carried)
     */
    void SetCtrlType(uint8_t ctlType);
    /// \return the control type, 0..15
    uint8_t GetCtrlType() const;
    /// \param retx the RETX flag
    void SetRetx(bool retx);
    /// \return the RETX flag
    bool GetRetx() const;
    /// \param ar the AR flag: the target must ACK this control packet
    void SetAr(bool ar);
    /// \return the AR flag
    bool GetAr() const;
    /// \param syn the SYN flag: the PDC is being established
    void SetSyn(bool syn);
    /// \return the SYN flag
    bool GetSyn() const;
    /// \param opaque probe_opaque (octets 2-3)
    void SetProbeOpaque(uint16_t opaque);
    /// \return probe_opaque
    uint16_t GetProbeOpaque() const;
    /// \param psn the PSN, any 32-bit value
    void SetPsn(uint32_t psn);
    /// \return the PSN
    uint32_t GetPsn() const;
    /// \param spdcid SPDCID
    void SetSpdcid(uint16_t spdcid);
    /// \return SPDCID
    uint16_t GetSpdcid() const;
    /// \param dpdcid all 16 bits of octets 10-11 (the DPDCID without SYN)
    void SetDpdcid(uint16_t dpdcid);
    /// \return octets 10-11
    uint16_t GetDpdcid() const;
    /**
     * \brief Set pdc_info, the top 4 bits of octets 10-11 (with SYN).
     * \param pdcInfo 0..15 (aborts otherwise)
     */
    void SetPdcInfo(uint8_t pdcInfo);
    /// \return pdc_info, 0..15
    uint8_t GetPdcInfo() const;
    /**
     * \brief Set psn_offset, the low 12 bits of octets 10-11 (with SYN).
     * \param psnOffset 0..4095 (aborts otherwise)
     */
    void SetPsnOffset(uint16_t psnOffset);
    /// \return psn_offset, 0..4095
    uint16_t GetPsnOffset() const;
    /// \param payload the 32-bit payload (meaning per control type)
    void SetPayload(uint32_t payload);
    /// \return the payload
    uint32_t GetPayload() const;

    /**
     * \brief Fast path: write a control packet header.
     * \param out destination, at least SIZE bytes
     * \param ctlType control type (CtrlType), 0..15 (not checked)
     * \param flags flags (FLAG_RETX, FLAG_AR, FLAG_SYN; not checked)
     * \param probeOpaque probe_opaque (0 unless a probe)
     * \param psn PSN
     * \param spdcid SPDCID
     * \param dpdcid DPDCID (or UetPdsRequestHeader::SynField() with SYN)
     * \param payload payload
     * \return SIZE
     */
    static uint32_t WriteFields(uint8_t* out,
                                uint8_t ctlType,
                                uint8_t flags,
                                uint16_t probeOpaque,
                                uint32_t psn,
                                uint16_t spdcid,
                                uint16_t dpdcid,
                                uint32_t payload)
    {
        WritePrologue(out, CTRL, ctlType, flags);
        wire::PutU16(out + 2, probeOpaque);
        wire::PutU32(out + 4, psn);
        wire::PutU16(out + 8, spdcid);
        wire::PutU16(out + 10, dpdcid);
        wire::PutU32(out + 12, payload);
        return SIZE;
    }

  private:
    uint16_t m_probeOpaque; //!< probe_opaque / reserved
    uint32_t m_psn;         //!< PSN
    uint16_t m_spdcid;      //!< SPDCID
    uint16_t m_dpdcid;      //!< DPDCID, or pdc_info | psn_offset with SYN
    uint32_t m_payload;     //!< payload
};

} // namespace ns3

#endif /* UET_PDS_CONTROL_HEADER_H */
