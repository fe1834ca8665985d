/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: Ultra Ethernet Transport (UET) Packet Delivery Sublayer (PDS): the common
 * prologue, the PDS enumerations and the base class of the PDS headers.
 */
#ifndef UET_PDS_HEADER_H
#define UET_PDS_HEADER_H

#include "ns3/header.h"
#include "ns3/packet-class-filter.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Abort unless a value fits in a field of the given width.
 *
 * Used by every UET header setter: the message names the field, the value and the valid range,
 * e.g. "UET SES PIDonFEP 4096 (0x1000) is out of range; valid values are 0..4095 (0xfff)".
 * \param field the field's name as the UEC specification spells it (with its header)
 * \param value the value given
 * \param bits the field's width, 1..64 bits
 */
void UetCheckFieldWidth(const char* field, uint64_t value, unsigned bits);

/**
 * \ingroup ai-fabric-uet
 * \brief The 2-byte prologue shared by every UET PDS header, with the PDS enumerations, and the
 *        base class of the PDS header classes (UEC specification 1.0.1, section 3.5.10 "PDS
 *        header formats").
 *
 * A UET packet is Ethernet / IPv4 / UDP (destination port UDP_DST_PORT = 4793, source port =
 * entropy value EV) / PDS header / SES header (chosen by the prologue's next-header field) /
 * payload. The prologue, most significant bit first:
 * \verbatim
   bits 15..11  type 5           PDS packet type (Type)
   bits 10..7   next_hdr 4       SES header that follows (NextHeader); in a control packet
                                 (type CTRL) the control type (CtrlType) instead
   bits  6..0   flags 7          type-specific flags (FLAG_* constants)
   \endverbatim
 * Sources: UET.md (project facts), Wireshark's packet-uet.c (masks 0xf800 / 0x0780 / 0x007f,
 * which cites UE-Specification-1.0.1) and the XDP2 UET headers (include/uet/pds.h). The
 * encryption (TSS, type 1) header is not modelled: the model leaves the Transport Security
 * Sublayer out.
 *
 * The concrete headers are UetPdsRequestHeader (RUD/ROD, with or without CC state),
 * UetPdsRudiHeader, UetPdsUudHeader, UetPdsAckHeader (ACK, ACK_CC, ACK_CCX), UetPdsNackHeader
 * and UetPdsControlHeader. Each has an object form (setters that check field widths and abort
 * naming the field, Serialize/Deserialize, Print) and static fast-path helpers that write the
 * same bytes into a raw buffer (the frame head) without a header object. A receiver looks at
 * the type first (PeekType(), HeaderSize()) and then reads the right header.
 */
class UetPdsHeader : public Header
{
  public:
    /// PDS packet types, the 5-bit prologue type field (UEC 1.0.1 3.5.10; Wireshark, XDP2).
    enum Type : uint8_t
    {
        RESERVED_TYPE = 0, //!< reserved
        TSS = 1,           //!< encryption header (TSS) follows; not modelled
        RUD_REQ = 2,       //!< reliable unordered delivery request, 12 B
        ROD_REQ = 3,       //!< reliable ordered delivery request, 12 B
        RUDI_REQ = 4,      //!< reliable unordered delivery for idempotent operations request, 8 B
        RUDI_RESP = 5,     //!< RUDI response, 8 B
        UUD_REQ = 6,       //!< unreliable unordered delivery request, 4 B
        ACK = 7,           //!< acknowledgement, 12 B
        ACK_CC = 8,        //!< ACK with SACK bitmap and congestion-control state, 32 B
        ACK_CCX = 9,       //!< ACK with SACK bitmap and extended congestion-control state, 40 B
        NACK = 10,         //!< negative acknowledgement, 16 B
        CTRL = 11,         //!< control packet (the spec's CP), 16 B
        NACK_CCX = 12,     //!< NACK with extended CC state; listed, not modelled
        RUD_CC_REQ = 13,   //!< RUD request with CC state (CCC ID, credit target), 16 B
        ROD_CC_REQ = 14,   //!< ROD request with CC state (CCC ID, credit target), 16 B
    };

    /// SES header following the PDS header: the 4-bit next_hdr field (UEC 1.0.1 3.4; Wireshark).
    enum NextHeader : uint8_t
    {
        NH_NONE = 0,                //!< no SES header
        NH_REQUEST_SMALL = 1,       //!< SES small (optimized) request header, 20 B
        NH_REQUEST_MEDIUM = 2,      //!< SES medium request header, 32 B (not modelled)
        NH_REQUEST_STD = 3,         //!< SES standard request header, 44 B
        NH_RESPONSE = 4,            //!< SES response header, 12 B
        NH_RESPONSE_DATA = 5,       //!< SES response-with-data header, 20 B
        NH_RESPONSE_DATA_SMALL = 6, //!< SES small response-with-data header (not modelled)
    };

    /// Control packet types, carried in the next_hdr bits of a CTRL packet (UEC 1.0.1 3.5.16).
    enum CtrlType : uint8_t
    {
        CTRL_NOOP = 0,       //!< no operation
        CTRL_ACK_REQ = 1,    //!< Request-ACK: ask the target to ACK (payload: message id or 0)
        CTRL_CLEAR = 2,      //!< Clear: the initiator clears up to a PSN (payload: clear PSN)
        CTRL_CLEAR_REQ = 3,  //!< Request-Clear: the target asks for a Clear
        CTRL_CLOSE = 4,      //!< Close: the initiator closes the PDC
        CTRL_CLOSE_REQ = 5,  //!< Request-Close: the target asks for a Close
        CTRL_PROBE = 6,      //!< Probe (payload: SACK bitmap base PSN)
        CTRL_CREDIT = 7,     //!< Credit grant from the target (RCCC; payload: credit)
        CTRL_CREDIT_REQ = 8, //!< Credit request from the initiator (payload: credit target)
    };

    /// NACK codes, the 8-bit nack_code field (UEC 1.0.1 3.5.12.7; Wireshark packet-uet.c).
    enum NackCode : uint8_t
    {
        NACK_TRIMMED = 0x01,              //!< packet was trimmed
        NACK_TRIMMED_LASTHOP = 0x02,      //!< packet was trimmed at the last-hop switch
        NACK_TRIMMED_ACK = 0x03,          //!< an ACK carrying read response data was trimmed
        NACK_NO_PDC_AVAIL = 0x04,         //!< no PDC resource available
        NACK_NO_CCC_AVAIL = 0x05,         //!< no CCC resource available
        NACK_NO_BITMAP = 0x06,            //!< no bitmap / PSN tracking resource available
        NACK_NO_PKT_BUFFER = 0x07,        //!< no packet buffer available
        NACK_NO_GTD_DEL_AVAIL = 0x08,     //!< no guaranteed-delivery response resource
        NACK_NO_SES_MSG_AVAIL = 0x09,     //!< no message tracking state available
        NACK_NO_RESOURCE = 0x0A,          //!< general resource not available
        NACK_PSN_OOR_WINDOW = 0x0B,       //!< PSN outside the tracking window (beyond MPR)
        NACK_ROD_OOO = 0x0D,              //!< a PSN arrived out of order on a ROD PDC
        NACK_INV_DPDCID = 0x0E,           //!< DPDCID not recognized and SYN not set
        NACK_PDC_HDR_MISMATCH = 0x0F,     //!< no SYN, but the packet does not match PDC state
        NACK_CLOSING = 0x10,              //!< the target PDC is closed or closing
        NACK_CLOSING_IN_ERR = 0x11,       //!< timeout at the target during close
        NACK_PKT_NOT_RCVD = 0x12,         //!< ACK requested for a PSN that was not received
        NACK_GTD_DEL_RESP_UNAVAIL = 0x13, //!< duplicate PSN, guaranteed-delivery response lost
        NACK_ACK_WITH_DATA = 0x14,        //!< ACK request for a PSN with read response data
        NACK_INVALID_SYN = 0x15,          //!< SYN with a PSN outside the expected range
        NACK_PDC_MODE_MISMATCH = 0x16,    //!< delivery mode (RUD/ROD) does not match
        NACK_NEW_START_PSN = 0x17,        //!< resend everything with a new start PSN
        NACK_RCVD_SES_PROCG = 0x18,       //!< packet still in SES processing
        NACK_UNEXP_EVENT = 0x19,          //!< unexpected event
        NACK_RCVR_INFER_LOSS = 0x1A,      //!< the receiver inferred a loss
        NACK_EXP_NACK_NORMAL = 0xFD,      //!< experimental, normal
        NACK_EXP_NACK_ERR = 0xFE,         //!< experimental, error
        NACK_EXP_NACK_FATAL = 0xFF,       //!< experimental, fatal
    };

    /// Congestion-control state type of an ACK_CC: the high nibble of its octet 12.
    enum CcType : uint8_t
    {
        CC_NSCC = 0,   //!< NSCC state: service time, RC, rcv_cwnd_pend, rcvd_bytes, ooo_count
        CC_CREDIT = 1, //!< receiver-credit (RCCC) state: credit, ooo_count
    };

    /// The 2-bit REQ field of ACK flags (bits 2..1 of the flags, mask FLAG_ACK_REQ_MASK).
    enum AckRequest : uint8_t
    {
        ACK_REQ_NONE = 0,     //!< no request
        ACK_REQ_CLEAR = 1,    //!< the target asks the initiator to send a Clear
        ACK_REQ_CLOSE = 2,    //!< the target asks the initiator to close the PDC
        ACK_REQ_RESERVED = 3, //!< reserved
    };

    /// NACK type, the NT flag of a NACK (XDP2 pds.h).
    enum NackType : uint8_t
    {
        NT_RUD_ROD = 0, //!< NACK of a RUD/ROD request: the PSN field is a PSN
        NT_RUDI = 1,    //!< NACK of a RUDI request: the PSN field is the RUDI packet id
    };

    /// UDP destination port of UET (IANA "uet", UEC 1.0.1 3.5.2).
    static constexpr uint16_t UDP_DST_PORT = 4793;
    /// Size of the prologue, bytes.
    static constexpr uint32_t PROLOGUE_SIZE = 2;
    /// Largest PDS header, bytes (ACK_CCX).
    static constexpr uint32_t MAX_SIZE = 40;

    /// Request / control flag RETX: this is a retransmission (0x10 of the 7 flag bits).
    static constexpr uint8_t FLAG_RETX = 0x10;
    /// Request / control flag AR: ACK requested (0x08).
    static constexpr uint8_t FLAG_AR = 0x08;
    /// Request / control flag SYN: PDC being established; DPDCID replaced by pdc_info and
    /// psn_offset (0x04).
    static constexpr uint8_t FLAG_SYN = 0x04;
    /// ACK / NACK / RUDI response flag M: the acknowledged packet was ECN-CE marked (0x20).
    static constexpr uint8_t FLAG_M = 0x20;
    /// ACK flag P: the ACK answers a probe; ack_psn_offset carries the probe's opaque (0x08).
    static constexpr uint8_t FLAG_P = 0x08;
    /// NACK flag NT: NACK type (NackType) (0x08).
    static constexpr uint8_t FLAG_NT = 0x08;
    /// ACK REQ field mask within the flags (two bits, values AckRequest << 1).
    static constexpr uint8_t FLAG_ACK_REQ_MASK = 0x06;
    /// Largest flags value (7 bits).
    static constexpr uint8_t FLAGS_MAX = 0x7F;

    /// Construct a prologue of type RESERVED_TYPE, next header NH_NONE, no flags.
    UetPdsHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Write the SIZE bytes of this header (same as Serialize, into a raw buffer).
     * \param out destination, at least GetSerializedSize() bytes
     */
    virtual void Write(uint8_t* out) const = 0;
    /**
     * \brief Read this header from a raw buffer (same as Deserialize).
     * \param in source, at least HeaderSize(PeekType(in)) bytes; its type must be one of this
     *        class's types (aborts otherwise, naming the type)
     * \return the number of bytes read
     */
    virtual uint32_t Read(const uint8_t* in) = 0;

    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \return the PDS type (Type), 0..31
    uint8_t GetType() const;
    /**
     * \brief Set the 4-bit next-header field (NextHeader; in a control packet the control type).
     * \param nextHeader 0..15 (aborts otherwise)
     */
    void SetNextHeader(uint8_t nextHeader);
    /// \return the next-header field, 0..15
    uint8_t GetNextHeader() const;
    /**
     * \brief Set all 7 flag bits at once (the meaning of each bit depends on the type).
     * \param flags 0..127 (aborts otherwise)
     */
    void SetFlags(uint8_t flags);
    /// \return the 7 flag bits
    uint8_t GetFlags() const;

    /**
     * \brief Write the 2-byte prologue.
     * \param out destination, at least 2 bytes
     * \param type PDS type, 0..31 (not checked)
     * \param nextHeader next header or control type, 0..15 (not checked)
     * \param flags flags, 0..127 (not checked)
     */
    static void WritePrologue(uint8_t* out, uint8_t type, uint8_t nextHeader, uint8_t flags)
    {
        uint16_t v =
            static_cast<uint16_t>((type << 11) | ((nextHeader & 0xF) << 7) | (flags & 0x7F));
        out[0] = static_cast<uint8_t>(v >> 8);
        out[1] = static_cast<uint8_t>(v);
    }

    /// \param in a PDS header \return its type (Type), 0..31
    static uint8_t PeekType(const uint8_t* in)
    {
        return in[0] >> 3;
    }

    /// \param in a PDS header \return its next-header field (or control type), 0..15
    static uint8_t PeekNextHeader(const uint8_t* in)
    {
        return static_cast<uint8_t>(((in[0] & 0x7) << 1) | (in[1] >> 7));
    }

    /// \param in a PDS header \return its 7 flag bits
    static uint8_t PeekFlags(const uint8_t* in)
    {
        return in[1] & 0x7F;
    }

    /**
     * \param type a PDS type
     * \return the size in bytes of a PDS header of that type: 12 (RUD_REQ, ROD_REQ, ACK),
     *         16 (RUD_CC_REQ, ROD_CC_REQ, NACK, CTRL), 8 (RUDI), 4 (UUD), 32 (ACK_CC),
     *         40 (ACK_CCX); 0 for types the model does not decode (reserved, TSS, NACK_CCX and
     *         15..31)
     */
    static uint32_t HeaderSize(uint8_t type);

    /**
     * \param nextHeader a next-header value
     * \return the size in bytes of the SES header it announces: 0 (none), 20 (small request),
     *         32 (medium request), 44 (standard request), 12 (response), 20 (response with
     *         data); 0 for values the model does not decode
     */
    static uint32_t SesHeaderSize(uint8_t nextHeader);

    /// \param type a PDS type \return its name ("RUD_REQ", ...) or "UNKNOWN"; never null
    static const char* TypeName(uint8_t type);
    /**
     * \brief The packet class of a UET packet for a PacketClassFilter (a
     *        FabricPacketClassifyFn for UDP port UDP_DST_PORT): ACK, ACK_CC and ACK_CCX are
     *        FabricPacketClass::ACK, NACK and NACK_CCX are FabricPacketClass::NAK, anything
     *        else (requests, RUDI responses, control packets) is OTHER. UET has no CNP: NSCC
     *        reads ECN from the ACKs (UEC 1.0.1 3.6), so a "cnp" filter drops nothing here.
     * \param pds the bytes after the UDP header (the PDS header first)
     * \param n how many there are (fewer than PROLOGUE_SIZE: OTHER)
     * \return the class
     */
    static FabricPacketClass Classify(const uint8_t* pds, uint32_t n);
    /// \param nh a next-header value \return its name ("REQUEST_STD", ...) or "UNKNOWN"
    static const char* NextHeaderName(uint8_t nh);
    /// \param ctl a control type \return its name ("CLOSE", ...) or "UNKNOWN"
    static const char* CtrlTypeName(uint8_t ctl);
    /// \param code a NACK code \return its name ("TRIMMED", ...) or "UNKNOWN"
    static const char* NackCodeName(uint8_t code);

    /**
     * \brief Signed distance a - b on the 32-bit PSN circle (UEC PSNs use serial arithmetic).
     * \param a a PSN
     * \param b a PSN
     * \return d in [-2^31, 2^31) with b + d == a modulo 2^32
     */
    static int32_t PsnDiff(uint32_t a, uint32_t b)
    {
        return static_cast<int32_t>(a - b);
    }

    /**
     * \param a a PSN
     * \param b a PSN
     * \return true if a comes before b (PsnDiff(a, b) < 0)
     */
    static bool PsnLess(uint32_t a, uint32_t b)
    {
        return PsnDiff(a, b) < 0;
    }

    /**
     * \param a a PSN
     * \param n a signed step
     * \return a + n modulo 2^32
     */
    static uint32_t PsnAdd(uint32_t a, int64_t n)
    {
        return static_cast<uint32_t>(a + static_cast<uint32_t>(n));
    }

  protected:
    /**
     * \brief Set the type after checking that the derived class accepts it.
     * \param type the PDS type
     * \param ok whether the derived class accepts it
     * \param what the derived class's name, for the message
     */
    void SetTypeChecked(uint8_t type, bool ok, const char* what);
    /**
     * \brief Read the prologue from a raw buffer, checking that the derived class accepts it.
     * \param in the header
     * \param ok whether the derived class accepts type PeekType(in)
     * \param what the derived class's name, for the message
     */
    void ReadPrologue(const uint8_t* in, bool ok, const char* what);
    /**
     * \brief Print "PDS TYPE nh=... flags=0x.." for the derived classes.
     * \param os the stream
     * \param nhIsCtrl print the next-header field as a control type
     */
    void PrintPrologue(std::ostream& os, bool nhIsCtrl) const;

    /**
     * \brief Set or clear flag bits.
     * \param bit the bit mask (FLAG_*)
     * \param on set (true) or clear (false)
     */
    void SetFlagBit(uint8_t bit, bool on)
    {
        m_flags = on ? (m_flags | bit) : (m_flags & ~bit);
    }

    /// \param bit a flag mask (FLAG_*) \return whether any of its bits is set
    bool GetFlagBit(uint8_t bit) const
    {
        return (m_flags & bit) != 0;
    }

    uint8_t m_type;       //!< PDS type, 5 bits
    uint8_t m_nextHeader; //!< next header / control type, 4 bits
    uint8_t m_flags;      //!< flags, 7 bits
};

/// The PDS type enumeration, usable as UetPdsType::RUD_REQ.
using UetPdsType = UetPdsHeader::Type;
/// The NACK code enumeration, usable as UetNackCode::NACK_TRIMMED.
using UetNackCode = UetPdsHeader::NackCode;
/// The control type enumeration, usable as UetCtrlType::CTRL_CLOSE.
using UetCtrlType = UetPdsHeader::CtrlType;

} // namespace ns3

#endif /* UET_PDS_HEADER_H */
