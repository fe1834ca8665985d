/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UET PDS ACK, ACK_CC and ACK_CCX headers.
 */
#ifndef UET_PDS_ACK_HEADER_H
#define UET_PDS_ACK_HEADER_H

#include "uet-pds-header.h"

#include "ns3/fabric-wire-header.h"

#include <cstring>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The PDS acknowledgement header: ACK (type 7, 12 B), ACK_CC (type 8, 32 B: SACK bitmap
 *        and congestion-control state) and ACK_CCX (type 9, 40 B: SACK bitmap and 16 B of
 *        extended CC state) (UEC 1.0.1 3.5.10.6-3.5.10.8; UET.md; Wireshark packet-uet.c,
 *        dissect_pds_ack / dissect_pds_ack_ext_hdr; XDP2 pds.h).
 *
 * Layout, most significant bit first:
 * \verbatim
   octets 0-1    prologue: type 5 | next_hdr 4 (an SES response may follow) | flags 7
                 flags: reserved 1 | M (0x20) | RETX (0x10) | P (0x08) | REQ 2 (0x06) | reserved 1
   octets 2-3    ack_psn_offset, signed 16: ACK_PSN = CACK_PSN + ack_psn_offset
                 (with P set: the probe's opaque value, GetProbeOpaque())
   octets 4-7    CACK_PSN 32 (cumulative: every PSN up to it has been received)
   octets 8-9    SPDCID 16 (the ACK's sender, i.e. the target's PDC)
   octets 10-11  DPDCID 16
   -- ACK_CC and ACK_CCX only:
   octet 12      cc_type 4 (CcType; ACK_CCX: ccx_type) | cc_flags 4
   octet 13      MPR 8 (maximum PSN range the receiver accepts beyond CACK_PSN)
   octets 14-15  sack_psn_offset 16: SACK base PSN = CACK_PSN + sack_psn_offset
   octets 16-23  SACK bitmap 64 (relative to the SACK base PSN)
   -- ACK_CC only:
   octets 24-31  CC state 64:
                 cc_type NSCC:   service_time 16 | RC 1 | rcv_cwnd_pend 7 | rcvd_bytes 24 |
                                 ooo_count 16
                 cc_type CREDIT: credit 24 | reserved 24 | ooo_count 16
   -- ACK_CCX only:
   octets 24-39  extended CC state, 16 B (opaque to the model)
   \endverbatim
 * Units (UET.md): service_time in 128 ns, rcvd_bytes in 256 B (wraps), credit in bytes. The CC
 * state is held as one 64-bit value; the NSCC and credit accessors are views of it, and
 * ooo_count (the low 16 bits) is shared. sack_psn_offset is kept signed, like the other PSN
 * offsets (Wireshark shows it unsigned: the bytes are the same). The header carries the SACK
 * bitmap as one big-endian 64-bit value; which bit stands for which PSN (relative to the base
 * PSN) is not shown by any public source and is left to the transport to define.
 * Defaults: ACK, NH_NONE, every field 0.
 */
class UetPdsAckHeader : public UetPdsHeader
{
  public:
    /// ACK size, bytes.
    static constexpr uint32_t SIZE = 12;
    /// ACK_CC size, bytes.
    static constexpr uint32_t CC_SIZE = 32;
    /// ACK_CCX size, bytes.
    static constexpr uint32_t CCX_SIZE = 40;
    /// Size of the ACK_CCX extended CC state, bytes.
    static constexpr uint32_t CCX_STATE_SIZE = 16;

    /// Construct an ACK with every field 0.
    UetPdsAckHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return 12 (ACK), 32 (ACK_CC) or 40 (ACK_CCX)
    uint32_t GetSerializedSize() const override;
    void Write(uint8_t* out) const override;
    uint32_t Read(const uint8_t* in) override;

    /// \param type a PDS type \return true for ACK, ACK_CC and ACK_CCX
    static bool IsAckType(uint8_t type)
    {
        return type == ACK || type == ACK_CC || type == ACK_CCX;
    }

    /**
     * \brief Set the PDS type.
     * \param type ACK, ACK_CC or ACK_CCX (aborts otherwise)
     */
    void SetType(uint8_t type);
    /// \param m the M flag: the acknowledged packet arrived ECN-CE marked
    void SetM(bool m);
    /// \return the M flag
    bool GetM() const;
    /// \param retx the RETX flag: the acknowledged packet was a retransmission
    void SetRetx(bool retx);
    /// \return the RETX flag
    bool GetRetx() const;
    /// \param p the P flag: this ACK answers a probe
    void SetP(bool p);
    /// \return the P flag
    bool GetP() const;
    /**
     * \brief Set the REQ field (AckRequest): the target asks for a Clear or a Close.
     * \param req 0..3 (aborts otherwise)
     */
    void SetReq(uint8_t req);
    /// \return the REQ field, 0..3
    uint8_t GetReq() const;
    /// \param offset ack_psn_offset: ACK_PSN = CACK_PSN + offset
    void SetAckPsnOffset(int16_t offset);
    /// \return ack_psn_offset
    int16_t GetAckPsnOffset() const;
    /// \return ACK_PSN = CACK_PSN + ack_psn_offset (modulo 2^32)
    uint32_t GetAckPsn() const;
    /// \param opaque octets 2-3 as the probe opaque value (with P)
    void SetProbeOpaque(uint16_t opaque);
    /// \return octets 2-3 as the probe opaque value
    uint16_t GetProbeOpaque() const;
    /// \param psn CACK_PSN, any 32-bit value
    void SetCackPsn(uint32_t psn);
    /// \return CACK_PSN
    uint32_t GetCackPsn() const;
    /// \param spdcid SPDCID
    void SetSpdcid(uint16_t spdcid);
    /// \return SPDCID
    uint16_t GetSpdcid() const;
    /// \param dpdcid DPDCID
    void SetDpdcid(uint16_t dpdcid);
    /// \return DPDCID
    uint16_t GetDpdcid() const;
    /**
     * \brief Set cc_type (CcType; for ACK_CCX the ccx_type) (ACK_CC / ACK_CCX only).
     * \param ccType 0..15 (aborts otherwise)
     */
    void SetCcType(uint8_t ccType);
    /// \return cc_type, 0..15
    uint8_t GetCcType() const;
    /**
     * \brief Set the 4 cc_flags bits (reserved in UEC 1.0.1).
     * \param ccFlags 0..15 (aborts otherwise)
     */
    void SetCcFlags(uint8_t ccFlags);
    /// \return cc_flags, 0..15
    uint8_t GetCcFlags() const;
    /// \param mpr MPR, maximum PSN range, 8 bits
    void SetMpr(uint8_t mpr);
    /// \return MPR
    uint8_t GetMpr() const;
    /// \param offset sack_psn_offset: SACK base PSN = CACK_PSN + offset
    void SetSackPsnOffset(int16_t offset);
    /// \return sack_psn_offset
    int16_t GetSackPsnOffset() const;
    /// \return the SACK bitmap's base PSN, CACK_PSN + sack_psn_offset (modulo 2^32)
    uint32_t GetSackBasePsn() const;
    /// \param bitmap the 64-bit SACK bitmap
    void SetSackBitmap(uint64_t bitmap);
    /// \return the SACK bitmap
    uint64_t GetSackBitmap() const;
    /// \param state the whole 64-bit CC state of an ACK_CC
    void SetCcState(uint64_t state);
    /// \return the 64-bit CC state
    uint64_t GetCcState() const;
    /// \param serviceTime NSCC service_time, 16 bits, in 128 ns units
    void SetServiceTime(uint16_t serviceTime);
    /// \return NSCC service_time (128 ns units)
    uint16_t GetServiceTime() const;
    /// \param rc NSCC RC bit: restore the saved cwnd
    void SetRc(bool rc);
    /// \return NSCC RC bit
    bool GetRc() const;
    /**
     * \brief Set NSCC rcv_cwnd_pend (the receiver's cwnd penalty).
     * \param pend 0..127 (aborts otherwise)
     */
    void SetRcvCwndPend(uint8_t pend);
    /// \return rcv_cwnd_pend, 0..127
    uint8_t GetRcvCwndPend() const;
    /**
     * \brief Set NSCC rcvd_bytes (bytes received, in 256 B units, wrapping).
     * \param rcvdBytes 0..2^24-1 (aborts otherwise)
     */
    void SetRcvdBytes(uint32_t rcvdBytes);
    /// \return rcvd_bytes, 0..2^24-1 (256 B units)
    uint32_t GetRcvdBytes() const;
    /**
     * \brief Set the credit of a credit (RCCC) CC state.
     * \param credit bytes, 0..2^24-1 (aborts otherwise)
     */
    void SetCredit(uint32_t credit);
    /// \return credit, 0..2^24-1
    uint32_t GetCredit() const;
    /// \param oooCount ooo_count, 16 bits (both CC state kinds)
    void SetOooCount(uint16_t oooCount);
    /// \return ooo_count
    uint16_t GetOooCount() const;
    /// \param state the 16 bytes of ACK_CCX extended CC state (copied)
    void SetCcxState(const uint8_t* state);
    /// \return the 16 bytes of ACK_CCX extended CC state
    const uint8_t* GetCcxState() const;

    /// Unit of the NSCC service_time field, ns (UET.md).
    static constexpr int64_t SERVICE_TIME_UNIT_NS = 128;
    /// Unit of the NSCC rcvd_bytes field, bytes (UET.md).
    static constexpr uint64_t RCVD_BYTES_UNIT = 256;

    /**
     * \brief Pack an NSCC CC state (fields not checked, masked to their widths).
     * \param serviceTime service_time, 16 bits (128 ns units)
     * \param rc RC bit
     * \param rcvCwndPend rcv_cwnd_pend, 7 bits
     * \param rcvdBytes rcvd_bytes, 24 bits (256 B units)
     * \param oooCount ooo_count, 16 bits
     * \return the 64-bit CC state for WriteAckCc()
     */
    static uint64_t PackNsccState(uint16_t serviceTime,
                                  bool rc,
                                  uint8_t rcvCwndPend,
                                  uint32_t rcvdBytes,
                                  uint16_t oooCount)
    {
        return (uint64_t(serviceTime) << 48) | (uint64_t(rc ? 1 : 0) << 47) |
               (uint64_t(rcvCwndPend & 0x7F) << 40) | (uint64_t(rcvdBytes & 0xFFFFFF) << 16) |
               oooCount;
    }

    /**
     * \brief Pack a credit (RCCC) CC state (fields not checked, masked to their widths).
     * \param credit credit, 24 bits (bytes)
     * \param oooCount ooo_count, 16 bits
     * \return the 64-bit CC state for WriteAckCc()
     */
    static uint64_t PackCreditState(uint32_t credit, uint16_t oooCount)
    {
        return (uint64_t(credit & 0xFFFFFF) << 40) | oooCount;
    }

    /**
     * \brief Fast path: write a plain ACK (type ACK).
     * \param out destination, at least SIZE bytes
     * \param nextHeader next header (NH_NONE, or NH_RESPONSE when an SES response follows)
     * \param flags flags (FLAG_M, FLAG_RETX, FLAG_P, REQ << 1; not checked)
     * \param ackPsnOffset ack_psn_offset
     * \param cackPsn CACK_PSN
     * \param spdcid SPDCID
     * \param dpdcid DPDCID
     * \return SIZE
     */
    static uint32_t WriteAck(uint8_t* out,
                             uint8_t nextHeader,
                             uint8_t flags,
                             int16_t ackPsnOffset,
                             uint32_t cackPsn,
                             uint16_t spdcid,
                             uint16_t dpdcid)
    {
        return WriteBase(out, ACK, nextHeader, flags, ackPsnOffset, cackPsn, spdcid, dpdcid);
    }

    /**
     * \brief Fast path: write an ACK_CC.
     * \param out destination, at least CC_SIZE bytes
     * \param nextHeader next header (not checked)
     * \param flags flags (not checked)
     * \param ackPsnOffset ack_psn_offset
     * \param cackPsn CACK_PSN
     * \param spdcid SPDCID
     * \param dpdcid DPDCID
     * \param ccType cc_type (CcType), 4 bits (not checked)
     * \param mpr MPR
     * \param sackPsnOffset sack_psn_offset
     * \param sackBitmap SACK bitmap
     * \param ccState CC state (PackNsccState() or PackCreditState())
     * \param ccFlags cc_flags, 4 bits (not checked)
     * \return CC_SIZE
     */
    static uint32_t WriteAckCc(uint8_t* out,
                               uint8_t nextHeader,
                               uint8_t flags,
                               int16_t ackPsnOffset,
                               uint32_t cackPsn,
                               uint16_t spdcid,
                               uint16_t dpdcid,
                               uint8_t ccType,
                               uint8_t mpr,
                               int16_t sackPsnOffset,
                               uint64_t sackBitmap,
                               uint64_t ccState,
                               uint8_t ccFlags = 0)
    {
        WriteBase(out, ACK_CC, nextHeader, flags, ackPsnOffset, cackPsn, spdcid, dpdcid);
        WriteSack(out, ccType, ccFlags, mpr, sackPsnOffset, sackBitmap);
        wire::PutU64(out + 24, ccState);
        return CC_SIZE;
    }

    /**
     * \brief Fast path: write an ACK_CCX.
     * \param out destination, at least CCX_SIZE bytes
     * \param nextHeader next header (not checked)
     * \param flags flags (not checked)
     * \param ackPsnOffset ack_psn_offset
     * \param cackPsn CACK_PSN
     * \param spdcid SPDCID
     * \param dpdcid DPDCID
     * \param ccxType ccx_type, 4 bits (not checked)
     * \param mpr MPR
     * \param sackPsnOffset sack_psn_offset
     * \param sackBitmap SACK bitmap
     * \param ccxState CCX_STATE_SIZE bytes of extended CC state
     * \param ccFlags cc_flags, 4 bits (not checked)
     * \return CCX_SIZE
     */
    static uint32_t WriteAckCcx(uint8_t* out,
                                uint8_t nextHeader,
                                uint8_t flags,
                                int16_t ackPsnOffset,
                                uint32_t cackPsn,
                                uint16_t spdcid,
                                uint16_t dpdcid,
                                uint8_t ccxType,
                                uint8_t mpr,
                                int16_t sackPsnOffset,
                                uint64_t sackBitmap,
                                const uint8_t* ccxState,
                                uint8_t ccFlags = 0)
    {
        WriteBase(out, ACK_CCX, nextHeader, flags, ackPsnOffset, cackPsn, spdcid, dpdcid);
        WriteSack(out, ccxType, ccFlags, mpr, sackPsnOffset, sackBitmap);
        std::memcpy(out + 24, ccxState, CCX_STATE_SIZE);
        return CCX_SIZE;
    }

    /// \param in an ACK header \return its CACK_PSN (octets 4-7)
    static uint32_t PeekCackPsn(const uint8_t* in)
    {
        return wire::GetU32(in + 4);
    }

  private:
    /**
     * \brief Write octets 0-11, common to the three types.
     * \param out destination
     * \param type ACK, ACK_CC or ACK_CCX
     * \param nextHeader next header
     * \param flags flags
     * \param ackPsnOffset ack_psn_offset
     * \param cackPsn CACK_PSN
     * \param spdcid SPDCID
     * \param dpdcid DPDCID
     * \return SIZE
     */
    static uint32_t WriteBase(uint8_t* out,
                              uint8_t type,
                              uint8_t nextHeader,
                              uint8_t flags,
                              int16_t ackPsnOffset,
                              uint32_t cackPsn,
                              uint16_t spdcid,
                              uint16_t dpdcid)
    {
        WritePrologue(out, type, nextHeader, flags);
        wire::PutU16(out + 2, static_cast<uint16_t>(ackPsnOffset));
        wire::PutU32(out + 4, cackPsn);
        wire::PutU16(out + 8, spdcid);
        wire::PutU16(out + 10, dpdcid);
        return SIZE;
    }

    /**
     * \brief Write octets 12-23 of ACK_CC / ACK_CCX.
     * \param out destination (the header's start)
     * \param ccType cc_type
     * \param ccFlags cc_flags
     * \param mpr MPR
     * \param sackPsnOffset sack_psn_offset
     * \param sackBitmap SACK bitmap
     */
    static void WriteSack(uint8_t* out,
                          uint8_t ccType,
                          uint8_t ccFlags,
                          uint8_t mpr,
                          int16_t sackPsnOffset,
                          uint64_t sackBitmap)
    {
        out[12] = static_cast<uint8_t>((ccType << 4) | (ccFlags & 0xF));
        out[13] = mpr;
        wire::PutU16(out + 14, static_cast<uint16_t>(sackPsnOffset));
        wire::PutU64(out + 16, sackBitmap);
    }

    int16_t m_ackPsnOffset;             //!< ack_psn_offset (or probe opaque)
    uint32_t m_cackPsn;                 //!< CACK_PSN
    uint16_t m_spdcid;                  //!< SPDCID
    uint16_t m_dpdcid;                  //!< DPDCID
    uint8_t m_ccType;                   //!< cc_type, 4 bits
    uint8_t m_ccFlags;                  //!< cc_flags, 4 bits
    uint8_t m_mpr;                      //!< MPR
    int16_t m_sackPsnOffset;            //!< sack_psn_offset
    uint64_t m_sackBitmap;              //!< SACK bitmap
    uint64_t m_ccState;                 //!< ACK_CC CC state
    uint8_t m_ccxState[CCX_STATE_SIZE]; //!< ACK_CCX extended CC state
};

} // namespace ns3

#endif /* UET_PDS_ACK_HEADER_H */
