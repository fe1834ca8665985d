/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: InfiniBand Base Transport Header (BTH) as carried by RoCEv2.
 */
#ifndef ROCE_BTH_HEADER_H
#define ROCE_BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief The 12-byte InfiniBand Base Transport Header (IBTA Vol 1 section 9.2), the first
 *        header after UDP (destination port 4791) in a RoCEv2 packet (IBTA Vol 1 Annex A17).
 *
 * Layout, most significant bit first:
 * \verbatim
   octet 0      OpCode 8
   octet 1      SE 1 | M 1 | PadCnt 2 | TVer 4
   octets 2-3   P_Key 16
   octet 4      resv8: FECN 1 (bit 7) | BECN 1 (bit 6) | reserved 6
   octets 5-7   DestQP 24
   octet 8      AckReq 1 | reserved 7
   octets 9-11  PSN 24
   \endverbatim
 *
 * The setters check their ranges and abort naming the offending value; Deserialize() accepts
 * any bit pattern (reserved bits are kept and written back unchanged), so that a receiver can
 * decide what to do with a malformed header. Defaults: every field 0 except P_Key 0xFFFF (the
 * default full-membership partition key, IBTA Vol 1 10.9).
 *
 * The class also holds the RC opcode table (IBTA Vol 1 9.2; CNP from Annex A17) with
 * classification helpers, and serial-number arithmetic on 24-bit PSNs (IBTA Vol 1 9.7).
 */
class RoceBthHeader : public Header
{
  public:
    /**
     * \brief Reliable Connection opcodes (IBTA Vol 1 9.2; the upper three bits 000 select the
     *        RC transport) and the RoCEv2 Congestion Notification Packet (Annex A17).
     *
     * Unscoped so that enumerators read both as RoceBthHeader::WRITE_FIRST and, through the
     * namespace-level alias, as RoceOpcode::WRITE_FIRST; they convert to the uint8_t opcode.
     */
    enum RoceOpcode : uint8_t
    {
        SEND_FIRST = 0x00,           //!< SEND First
        SEND_MIDDLE = 0x01,          //!< SEND Middle
        SEND_LAST = 0x02,            //!< SEND Last
        SEND_LAST_WITH_IMM = 0x03,   //!< SEND Last with Immediate
        SEND_ONLY = 0x04,            //!< SEND Only
        SEND_ONLY_WITH_IMM = 0x05,   //!< SEND Only with Immediate
        WRITE_FIRST = 0x06,          //!< RDMA WRITE First
        WRITE_MIDDLE = 0x07,         //!< RDMA WRITE Middle
        WRITE_LAST = 0x08,           //!< RDMA WRITE Last
        WRITE_LAST_WITH_IMM = 0x09,  //!< RDMA WRITE Last with Immediate
        WRITE_ONLY = 0x0A,           //!< RDMA WRITE Only
        WRITE_ONLY_WITH_IMM = 0x0B,  //!< RDMA WRITE Only with Immediate
        READ_REQUEST = 0x0C,         //!< RDMA READ Request
        READ_RESPONSE_FIRST = 0x0D,  //!< RDMA READ Response First
        READ_RESPONSE_MIDDLE = 0x0E, //!< RDMA READ Response Middle
        READ_RESPONSE_LAST = 0x0F,   //!< RDMA READ Response Last
        READ_RESPONSE_ONLY = 0x10,   //!< RDMA READ Response Only
        ACKNOWLEDGE = 0x11,          //!< Acknowledge
        CNP = 0x81,                  //!< RoCEv2 Congestion Notification Packet
    };

    /// Serialized size of the BTH in bytes.
    static constexpr uint32_t SIZE = 12;
    /// UDP destination port of RoCEv2 (IANA "roce", IBTA Vol 1 Annex A17).
    static constexpr uint16_t UDP_DST_PORT = 4791;
    /// Default partition key: the full-member default partition.
    static constexpr uint16_t DEFAULT_PKEY = 0xFFFF;
    /// Number of distinct PSN and QPN values (both fields are 24 bits wide).
    static constexpr uint32_t PSN_MODULUS = 1u << 24;
    /// Largest valid PSN / QPN, 2^24 - 1.
    static constexpr uint32_t MAX_24BIT = PSN_MODULUS - 1;
    /// Bit of the resv8 octet that carries FECN (IBTA Vol 1 9.2, Annex A10).
    static constexpr uint8_t FECN_BIT = 0x80;
    /// Bit of the resv8 octet that carries BECN (IBTA Vol 1 9.2, Annex A10).
    static constexpr uint8_t BECN_BIT = 0x40;

    /// Construct a BTH with every field 0 except P_Key = 0xFFFF.
    RoceBthHeader();

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
     * \brief Write the SIZE wire bytes of a BTH with the given fields and the rest as the
     * default constructor leaves them (SE, MigReq, TVer, FECN and reserved fields 0, the
     * default P_Key): the same bytes as a RoceBthHeader with those Set calls would Write(),
     * without constructing a header object per packet (the RoCE NIC's data path).
     * \param out destination, at least SIZE bytes
     * \param opcode the opcode (RoceOpcode)
     * \param padCnt pad count, 0..3 (not checked)
     * \param destQp destination QP, 24 bits (not checked)
     * \param ackReq the AckReq bit
     * \param psn PSN, 24 bits (not checked)
     * \param becn the BECN bit (set in CNPs)
     */
    static void WriteFields(uint8_t* out,
                            uint8_t opcode,
                            uint8_t padCnt,
                            uint32_t destQp,
                            bool ackReq,
                            uint32_t psn,
                            bool becn = false)
    {
        out[0] = opcode;
        out[1] = static_cast<uint8_t>(padCnt << 4);
        out[2] = static_cast<uint8_t>(DEFAULT_PKEY >> 8);
        out[3] = static_cast<uint8_t>(DEFAULT_PKEY);
        out[4] = becn ? BECN_BIT : 0;
        out[5] = static_cast<uint8_t>(destQp >> 16);
        out[6] = static_cast<uint8_t>(destQp >> 8);
        out[7] = static_cast<uint8_t>(destQp);
        out[8] = ackReq ? 0x80 : 0;
        out[9] = static_cast<uint8_t>(psn >> 16);
        out[10] = static_cast<uint8_t>(psn >> 8);
        out[11] = static_cast<uint8_t>(psn);
    }

    /**
     * \brief Read the SIZE wire bytes (same as Deserialize, from a copied-out buffer).
     * \param in source, at least SIZE bytes
     */
    void Read(const uint8_t* in);

    /**
     * \brief Set the opcode (IBTA Vol 1 9.2).
     * \param opcode any 8-bit value; RoceOpcode lists the RC opcodes and CNP, but UC/UD/RD and
     *        vendor opcodes can be carried too (the helpers classify them as none of theirs)
     */
    void SetOpcode(uint8_t opcode);
    /// \return the 8-bit opcode
    uint8_t GetOpcode() const;
    /**
     * \brief Set the Solicited Event bit (IBTA Vol 1 9.2).
     * \param se true to ask the responder to raise a solicited completion event
     */
    void SetSolicitedEvent(bool se);
    /// \return the Solicited Event bit
    bool GetSolicitedEvent() const;
    /**
     * \brief Set the MigReq bit (IBTA Vol 1 9.2, path migration state).
     * \param m the bit
     */
    void SetMigReq(bool m);
    /// \return the MigReq bit
    bool GetMigReq() const;
    /**
     * \brief Set the pad count: bytes appended to the payload to make it a multiple of 4
     *        (IBTA Vol 1 9.2).
     * \param padCnt 0..3 bytes (aborts otherwise, naming the value)
     */
    void SetPadCnt(uint8_t padCnt);
    /// \return the pad count, 0..3 bytes
    uint8_t GetPadCnt() const;
    /**
     * \brief Set the transport header version (IBTA Vol 1 9.2; 0 for this version).
     * \param tver 0..15 (aborts otherwise)
     */
    void SetTVer(uint8_t tver);
    /// \return the transport header version, 0..15
    uint8_t GetTVer() const;
    /**
     * \brief Set the partition key (IBTA Vol 1 9.2, 10.9).
     * \param pkey any 16-bit value (bit 15 = full membership)
     */
    void SetPKey(uint16_t pkey);
    /// \return the partition key
    uint16_t GetPKey() const;
    /**
     * \brief Set the whole reserved octet 4 (FECN, BECN and six reserved bits), e.g. to build
     *        non-conforming headers in tests.
     * \param resv8 any 8-bit value
     */
    void SetResv8(uint8_t resv8);
    /// \return octet 4 as on the wire: FECN (bit 7), BECN (bit 6), reserved (bits 5..0)
    uint8_t GetResv8() const;
    /**
     * \brief Set or clear FECN, bit 7 of octet 4 (IBTA Vol 1 Annex A10 congestion control;
     *        RoCEv2 signals congestion with IP ECN instead and sends 0 here).
     * \param fecn the bit
     */
    void SetFecn(bool fecn);
    /// \return the FECN bit
    bool GetFecn() const;
    /**
     * \brief Set or clear BECN, bit 6 of octet 4 (IBTA Vol 1 Annex A10).
     * \param becn the bit
     */
    void SetBecn(bool becn);
    /// \return the BECN bit
    bool GetBecn() const;
    /**
     * \brief Set the destination queue pair number (IBTA Vol 1 9.2).
     * \param qpn 0..2^24-1 (aborts otherwise, naming the value)
     */
    void SetDestQp(uint32_t qpn);
    /// \return the destination QP number, 0..2^24-1
    uint32_t GetDestQp() const;
    /**
     * \brief Set the AckReq bit: the requester asks for an acknowledgement of this packet
     *        (IBTA Vol 1 9.2, 9.7).
     * \param ackReq the bit
     */
    void SetAckReq(bool ackReq);
    /// \return the AckReq bit
    bool GetAckReq() const;
    /**
     * \brief Set the 7 reserved bits after AckReq (0 on conforming packets; for tests).
     * \param resv7 0..127 (aborts otherwise)
     */
    void SetResv7(uint8_t resv7);
    /// \return the 7 reserved bits after AckReq, 0..127
    uint8_t GetResv7() const;
    /**
     * \brief Set the packet sequence number (IBTA Vol 1 9.2, 9.7).
     * \param psn 0..2^24-1 (aborts otherwise, naming the value)
     */
    void SetPsn(uint32_t psn);
    /// \return the PSN, 0..2^24-1
    uint32_t GetPsn() const;

    /**
     * \param op an opcode
     * \return true for SEND First, RDMA WRITE First and RDMA READ Response First
     */
    static bool IsFirst(uint8_t op)
    {
        return op == SEND_FIRST || op == WRITE_FIRST || op == READ_RESPONSE_FIRST;
    }

    /**
     * \param op an opcode
     * \return true for SEND Middle, RDMA WRITE Middle and RDMA READ Response Middle
     */
    static bool IsMiddle(uint8_t op)
    {
        return op == SEND_MIDDLE || op == WRITE_MIDDLE || op == READ_RESPONSE_MIDDLE;
    }

    /**
     * \param op an opcode
     * \return true for SEND Last (with or without immediate), RDMA WRITE Last (with or without
     *         immediate) and RDMA READ Response Last
     */
    static bool IsLast(uint8_t op)
    {
        return op == SEND_LAST || op == SEND_LAST_WITH_IMM || op == WRITE_LAST ||
               op == WRITE_LAST_WITH_IMM || op == READ_RESPONSE_LAST;
    }

    /**
     * \param op an opcode
     * \return true for the opcodes named "Only": SEND Only (with or without immediate), RDMA
     *         WRITE Only (with or without immediate) and RDMA READ Response Only. READ Request,
     *         Acknowledge and CNP are single-packet too but are not "Only" opcodes.
     */
    static bool IsOnly(uint8_t op)
    {
        return op == SEND_ONLY || op == SEND_ONLY_WITH_IMM || op == WRITE_ONLY ||
               op == WRITE_ONLY_WITH_IMM || op == READ_RESPONSE_ONLY;
    }

    /**
     * \param op an opcode
     * \return true if a RETH follows the BTH (IBTA Vol 1 9.3, RETH): RDMA WRITE First, RDMA WRITE
     *         Only (with or without immediate) and RDMA READ Request
     */
    static bool HasReth(uint8_t op)
    {
        return op == WRITE_FIRST || op == WRITE_ONLY || op == WRITE_ONLY_WITH_IMM ||
               op == READ_REQUEST;
    }

    /**
     * \param op an opcode
     * \return true if an ImmDt header is present (IBTA Vol 1 9.3, ImmDt): SEND Last/Only with
     *         Immediate and RDMA WRITE Last/Only with Immediate
     */
    static bool HasImmDt(uint8_t op)
    {
        return op == SEND_LAST_WITH_IMM || op == SEND_ONLY_WITH_IMM || op == WRITE_LAST_WITH_IMM ||
               op == WRITE_ONLY_WITH_IMM;
    }

    /**
     * \param op an opcode
     * \return true if an AETH follows the BTH (IBTA Vol 1 9.3, AETH): Acknowledge and RDMA READ
     *         Response First, Last and Only (not Middle)
     */
    static bool HasAeth(uint8_t op)
    {
        return op == ACKNOWLEDGE || op == READ_RESPONSE_FIRST || op == READ_RESPONSE_LAST ||
               op == READ_RESPONSE_ONLY;
    }

    /**
     * \param op an opcode
     * \return true for RDMA READ Response First, Middle, Last and Only
     */
    static bool IsReadResponse(uint8_t op)
    {
        return op >= READ_RESPONSE_FIRST && op <= READ_RESPONSE_ONLY;
    }

    /**
     * \param op an opcode
     * \return true for the RC requester opcodes: every SEND and RDMA WRITE opcode and RDMA READ
     *         Request (0x00..0x0C); false for responses, CNP and non-RC opcodes
     */
    static bool IsRequest(uint8_t op)
    {
        return op <= READ_REQUEST;
    }

    /**
     * \param op an opcode
     * \return the enumerator's name (e.g. "WRITE_FIRST", "CNP"), or "UNKNOWN" for any opcode
     *         not in RoceOpcode; a static string, never null
     */
    static const char* OpcodeName(uint8_t op);

    /**
     * \brief Add in the 24-bit PSN space (IBTA Vol 1 9.7: PSNs wrap modulo 2^24).
     * \param psn a PSN, 0..2^24-1 (aborts otherwise)
     * \param n any increment; only n modulo 2^24 matters
     * \return (psn + n) mod 2^24
     */
    static uint32_t PsnAdd(uint32_t psn, uint32_t n)
    {
        CheckPsn(psn);
        return (psn + n) & MAX_24BIT;
    }

    /**
     * \brief Signed distance a - b on the 24-bit PSN circle.
     * \param a a PSN, 0..2^24-1 (aborts otherwise)
     * \param b a PSN, 0..2^24-1 (aborts otherwise)
     * \return d in [-2^23, 2^23) with (b + d) mod 2^24 == a; e.g. PsnDiff(0, 0xFFFFFF) == 1
     */
    static int32_t PsnDiff(uint32_t a, uint32_t b)
    {
        CheckPsn(a);
        CheckPsn(b);
        uint32_t d = (a - b) & MAX_24BIT;
        // Distances of half the circle or more are negative: [-2^23, 2^23).
        return d >= (PSN_MODULUS >> 1) ? static_cast<int32_t>(d) - static_cast<int32_t>(PSN_MODULUS)
                                       : static_cast<int32_t>(d);
    }

    /**
     * \brief Serial-number order of PSNs: a comes before b within half the PSN space.
     * \param a a PSN, 0..2^24-1 (aborts otherwise)
     * \param b a PSN, 0..2^24-1 (aborts otherwise)
     * \return PsnDiff(a, b) < 0
     */
    static bool PsnLess(uint32_t a, uint32_t b)
    {
        return PsnDiff(a, b) < 0;
    }

  private:
    /**
     * \brief Abort unless a PSN fits in 24 bits (inline check; the message is built out of
     *        line).
     * \param psn the PSN
     */
    static void CheckPsn(uint32_t psn)
    {
        if (psn > MAX_24BIT)
        {
            PsnOutOfRange(psn);
        }
    }

    /**
     * \brief Abort with a message naming an out-of-range PSN.
     * \param psn the PSN, > 2^24-1
     */
    [[noreturn]] static void PsnOutOfRange(uint32_t psn);

    uint8_t m_opcode;  //!< OpCode
    bool m_se;         //!< Solicited Event
    bool m_migReq;     //!< MigReq
    uint8_t m_padCnt;  //!< pad count, 0..3
    uint8_t m_tver;    //!< transport header version, 0..15
    uint16_t m_pkey;   //!< partition key
    uint8_t m_resv8;   //!< octet 4: FECN | BECN | reserved 6
    uint32_t m_destQp; //!< destination QP, 24 bits
    bool m_ackReq;     //!< AckReq
    uint8_t m_resv7;   //!< reserved 7 bits after AckReq
    uint32_t m_psn;    //!< packet sequence number, 24 bits
};

/// The RC/CNP opcode enumeration, usable as RoceOpcode::WRITE_FIRST.
using RoceOpcode = RoceBthHeader::RoceOpcode;

} // namespace ns3

#endif /* ROCE_BTH_HEADER_H */
