/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UET Semantic Sublayer (SES): enumerations and the base class of the SES headers.
 */
#ifndef UET_SES_HEADER_H
#define UET_SES_HEADER_H

#include "uet-pds-header.h"

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Base class of the SES headers, with the SES enumerations (UEC 1.0.1 section 3.4.3
 *        "SES header formats"; UET.md; Wireshark packet-uet.c; XDP2 include/uet/ses.h).
 *
 * The SES header follows the PDS header; which one is announced by the PDS next_hdr field
 * (UetPdsHeader::NextHeader): UetSesSmallRequestHeader (1, 20 B), UetSesRequestHeader
 * (standard, 3, 44 B), UetSesResponseHeader (4, 12 B) and UetSesResponseDataHeader (5, 20 B).
 * The medium request (2, 32 B) and the small response with data (6) are not modelled. Reserved
 * bits inside SES fields are written as 0 and ignored when read.
 */
class UetSesHeader : public Header
{
  public:
    /// SES request opcodes, 6 bits (UEC 1.0.1 3.4.3.1; Wireshark, XDP2).
    enum Opcode : uint8_t
    {
        NO_OP = 0x00,              //!< no operation
        WRITE = 0x01,              //!< RMA write
        READ = 0x02,               //!< RMA read (data returns with a response-with-data)
        ATOMIC = 0x03,             //!< non-fetching atomic
        FETCHING_ATOMIC = 0x04,    //!< fetching atomic
        SEND = 0x05,               //!< untagged send
        RENDEZVOUS_SEND = 0x06,    //!< rendezvous send
        DATAGRAM_SEND = 0x07,      //!< datagram send
        DEFERRABLE_SEND = 0x08,    //!< deferrable send
        TAGGED_SEND = 0x09,        //!< tagged send
        RENDEZVOUS_TSEND = 0x0A,   //!< rendezvous tagged send
        DEFERRABLE_TSEND = 0x0B,   //!< deferrable tagged send
        DEFERRABLE_RTR = 0x0C,     //!< deferrable send, ready to restart
        TSEND_ATOMIC = 0x0D,       //!< tagged send atomic
        TSEND_FETCH_ATOMIC = 0x0E, //!< tagged send fetching atomic
        MSG_ERROR = 0x0F,          //!< terminate a message in error
    };

    /// SES response opcodes, 6 bits (UEC 1.0.1 3.4.3.5; Wireshark, XDP2).
    enum ResponseOpcode : uint8_t
    {
        DEFAULT_RESPONSE = 0x00, //!< default response
        RESPONSE = 0x01,         //!< response other than the default
        RESPONSE_W_DATA = 0x02,  //!< response carrying data (READ data)
        NO_RESPONSE = 0x03,      //!< no semantic response
    };

    /// SES return codes, 6 bits (UEC 1.0.1 3.4.3.5; Wireshark, XDP2).
    enum ReturnCode : uint8_t
    {
        RC_NULL = 0x00,                 //!< null
        RC_OK = 0x01,                   //!< success
        RC_BAD_GENERATION = 0x02,       //!< generation does not match the target index
        RC_DISABLED = 0x03,             //!< target resource disabled
        RC_DISABLED_GEN = 0x04,         //!< disabled, and index generation supported
        RC_NO_MATCH = 0x05,             //!< message could not be matched; dropped
        RC_UNSUPPORTED_OP = 0x06,       //!< unsupported operation
        RC_UNSUPPORTED_SIZE = 0x07,     //!< message larger than supported
        RC_AT_INVALID = 0x08,           //!< invalid address translation context
        RC_AT_PERM = 0x09,              //!< address translation permission failure
        RC_AT_ATS_ERROR = 0x0A,         //!< ATS translation request error
        RC_AT_NO_TRANS = 0x0B,          //!< no translation
        RC_AT_OUT_OF_RANGE = 0x0C,      //!< virtual address out of range
        RC_HOST_POISONED = 0x0D,        //!< host read poisoned
        RC_HOST_UNSUCCESS_CMPL = 0x0E,  //!< host read unsuccessful completion
        RC_AMO_UNSUPPORTED_OP = 0x0F,   //!< unsupported atomic operation
        RC_AMO_UNSUPPORTED_DT = 0x10,   //!< unsupported atomic datatype
        RC_AMO_UNSUPPORTED_SIZE = 0x11, //!< atomic size not a multiple of the datatype
        RC_AMO_UNALIGNED = 0x12,        //!< atomic address unaligned
        RC_AMO_FP_NAN = 0x13,           //!< atomic produced a NaN
        RC_AMO_FP_UNDERFLOW = 0x14,     //!< atomic underflow
        RC_AMO_FP_OVERFLOW = 0x15,      //!< atomic overflow
        RC_AMO_FP_INEXACT = 0x16,       //!< atomic inexact
        RC_PERM_VIOLATION = 0x17,       //!< permission violation
        RC_OP_VIOLATION = 0x18,         //!< operation violation
        RC_BAD_INDEX = 0x19,            //!< unconfigured index
        RC_BAD_PID = 0x1A,              //!< PID not found
        RC_BAD_JOB_ID = 0x1B,           //!< JobID not found at the target
        RC_BAD_MKEY = 0x1C,             //!< memory key maps to no buffer
        RC_BAD_ADDR = 0x1D,             //!< invalid address
        RC_CANCELLED = 0x1E,            //!< the target cancelled the message
        RC_UNDELIVERABLE = 0x1F,        //!< message could not be delivered
        RC_UNCOR = 0x20,                //!< uncorrectable error
        RC_UNCOR_TRNSNT = 0x21,         //!< uncorrectable transient error
        RC_TOO_LONG = 0x22,             //!< message longer than the buffer
        RC_INITIATOR_ERR = 0x23,        //!< initiator error echoed
        RC_DROPPED = 0x24,              //!< dropped for another reason
    };

    /// Request flag DC, delivery complete (octet 1 bit 5).
    static constexpr uint8_t FLAG_DC = 0x20;
    /// Request flag IE, initiator error (octet 1 bit 4).
    static constexpr uint8_t FLAG_IE = 0x10;
    /// Request flag REL, relative addressing (octet 1 bit 3).
    static constexpr uint8_t FLAG_REL = 0x08;
    /// Request flag HD, header data present (octet 1 bit 2; reserved in the small request).
    static constexpr uint8_t FLAG_HD = 0x04;
    /// Request flag EOM, end of message (octet 1 bit 1).
    static constexpr uint8_t FLAG_EOM = 0x02;
    /// Request flag SOM, start of message (octet 1 bit 0).
    static constexpr uint8_t FLAG_SOM = 0x01;
    /// Response "list" value: delivered to the expected list (XDP2 ses.h).
    static constexpr uint8_t LIST_EXPECTED = 0;
    /// Response "list" value: delivered to the overflow (unexpected) list (XDP2 ses.h).
    static constexpr uint8_t LIST_OVERFLOW = 1;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Write this header's GetSerializedSize() bytes into a raw buffer (= Serialize).
     * \param out destination
     */
    virtual void Write(uint8_t* out) const = 0;
    /**
     * \brief Read this header from a raw buffer (= Deserialize).
     * \param in source, at least GetSerializedSize() bytes
     * \return the number of bytes read
     */
    virtual uint32_t Read(const uint8_t* in) = 0;

    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param op a request opcode \return its name ("WRITE", ...) or "UNKNOWN"; never null
    static const char* OpcodeName(uint8_t op);
    /// \param op a response opcode \return its name ("RESPONSE", ...) or "UNKNOWN"
    static const char* ResponseOpcodeName(uint8_t op);
    /// \param rc a return code \return its name ("OK", "NO_MATCH", ...) or "UNKNOWN"
    static const char* ReturnCodeName(uint8_t rc);

    /// Largest SES header, bytes.
    static constexpr uint32_t MAX_SIZE = 44;
};

/// The SES request opcode enumeration, usable as UetSesOpcode::WRITE.
using UetSesOpcode = UetSesHeader::Opcode;
/// The SES return code enumeration, usable as UetSesReturnCode::RC_OK.
using UetSesReturnCode = UetSesHeader::ReturnCode;

} // namespace ns3

#endif /* UET_SES_HEADER_H */
