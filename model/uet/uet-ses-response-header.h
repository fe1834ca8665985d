/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UET SES response (12 B) and response-with-data (20 B) headers.
 */
#ifndef UET_SES_RESPONSE_HEADER_H
#define UET_SES_RESPONSE_HEADER_H

#include "uet-ses-header.h"

#include "ns3/fabric-wire-header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The fields shared by the SES response headers (UEC 1.0.1 3.4.3.5; UET.md; Wireshark
 *        dissect_ses_resp / dissect_ses_resp_data; XDP2 ses.h).
 *
 * \verbatim
   octet 0       list 2 | opcode 6 (ResponseOpcode)
   octet 1       version 2 | return_code 6 (ReturnCode)
   octets 2-3    message_id 16 (the request's)
   octet 4       (header-specific)
   octets 5-7    JobID 24
   \endverbatim
 */
class UetSesResponseBase : public UetSesHeader
{
  public:
    /// Construct a DEFAULT_RESPONSE with return code RC_OK, every other field 0.
    UetSesResponseBase();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Set the list field (which list the message was delivered to: LIST_EXPECTED,
     *        LIST_OVERFLOW, 2-3 vendor defined).
     * \param list 0..3 (aborts otherwise)
     */
    void SetList(uint8_t list);
    /// \return the list field, 0..3
    uint8_t GetList() const;
    /**
     * \brief Set the response opcode.
     * \param opcode ResponseOpcode, 0..63 (aborts otherwise)
     */
    void SetOpcode(uint8_t opcode);
    /// \return the response opcode, 0..63
    uint8_t GetOpcode() const;
    /**
     * \brief Set the version.
     * \param version 0..3 (aborts otherwise)
     */
    void SetVersion(uint8_t version);
    /// \return the version, 0..3
    uint8_t GetVersion() const;
    /**
     * \brief Set the return code.
     * \param rc ReturnCode, 0..63 (aborts otherwise)
     */
    void SetReturnCode(uint8_t rc);
    /// \return the return code, 0..63
    uint8_t GetReturnCode() const;
    /// \param id message_id of the request answered
    void SetMessageId(uint16_t id);
    /// \return message_id
    uint16_t GetMessageId() const;
    /**
     * \brief Set the JobID.
     * \param jobId 0..2^24-1 (aborts otherwise)
     */
    void SetJobId(uint32_t jobId);
    /// \return the JobID
    uint32_t GetJobId() const;

  protected:
    /**
     * \brief Fast path: write octets 0-3 and 5-7.
     * \param out the header's start
     * \param list list, 2 bits (not checked)
     * \param opcode opcode, 6 bits (not checked)
     * \param version version, 2 bits (not checked)
     * \param returnCode return code, 6 bits (not checked)
     * \param messageId message_id
     * \param jobId JobID, 24 bits (not checked)
     */
    static void WriteCommonFields(uint8_t* out,
                                  uint8_t list,
                                  uint8_t opcode,
                                  uint8_t version,
                                  uint8_t returnCode,
                                  uint16_t messageId,
                                  uint32_t jobId)
    {
        out[0] = static_cast<uint8_t>((list << 6) | (opcode & 0x3F));
        out[1] = static_cast<uint8_t>((version << 6) | (returnCode & 0x3F));
        wire::PutU16(out + 2, messageId);
        wire::PutU24(out + 5, jobId);
    }

    /**
     * \brief Read octets 0-3 and 5-7.
     * \param in the header's start
     */
    void ReadCommon(const uint8_t* in);
    /**
     * \brief Print the common fields.
     * \param os the stream
     */
    void PrintCommon(std::ostream& os) const;

    uint8_t m_list;       //!< list, 2 bits
    uint8_t m_opcode;     //!< response opcode, 6 bits
    uint8_t m_version;    //!< version, 2 bits
    uint8_t m_returnCode; //!< return code, 6 bits
    uint16_t m_messageId; //!< message_id
    uint32_t m_jobId;     //!< JobID, 24 bits
};

/**
 * \ingroup ai-fabric-uet
 * \brief The 12-byte SES response header (PDS next header NH_RESPONSE, 4), carried by a PDS ACK
 *        to complete a request at the initiator.
 *
 * \verbatim
   octets 0-3    list 2 | opcode 6; version 2 | return_code 6; message_id 16
   octet 4       RI generation 8
   octets 5-7    JobID 24
   octets 8-11   modified_length 32 (bytes the target actually wrote / accepted)
   \endverbatim
 * Defaults: DEFAULT_RESPONSE, return code RC_OK, everything else 0.
 */
class UetSesResponseHeader : public UetSesResponseBase
{
  public:
    /// Serialized size, bytes.
    static constexpr uint32_t SIZE = 12;

    /// Construct a DEFAULT_RESPONSE with return code RC_OK, every other field 0.
    UetSesResponseHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return SIZE (12)
    uint32_t GetSerializedSize() const override;
    void Write(uint8_t* out) const override;
    uint32_t Read(const uint8_t* in) override;

    /// \param gen RI generation, 8 bits
    void SetRiGeneration(uint8_t gen);
    /// \return RI generation
    uint8_t GetRiGeneration() const;
    /// \param length modified_length, bytes
    void SetModifiedLength(uint32_t length);
    /// \return modified_length
    uint32_t GetModifiedLength() const;

    /**
     * \brief Fast path: write a response header.
     * \param out destination, at least SIZE bytes
     * \param opcode response opcode, 6 bits (not checked)
     * \param returnCode return code, 6 bits (not checked)
     * \param messageId message_id
     * \param riGeneration RI generation
     * \param jobId JobID, 24 bits (not checked)
     * \param modifiedLength modified_length
     * \param list list, 2 bits (not checked)
     * \param version version, 2 bits (not checked)
     * \return SIZE
     */
    static uint32_t WriteFields(uint8_t* out,
                                uint8_t opcode,
                                uint8_t returnCode,
                                uint16_t messageId,
                                uint8_t riGeneration,
                                uint32_t jobId,
                                uint32_t modifiedLength,
                                uint8_t list = 0,
                                uint8_t version = 0)
    {
        WriteCommonFields(out, list, opcode, version, returnCode, messageId, jobId);
        out[4] = riGeneration;
        wire::PutU32(out + 8, modifiedLength);
        return SIZE;
    }

  private:
    uint8_t m_riGeneration;    //!< RI generation
    uint32_t m_modifiedLength; //!< modified_length
};

/**
 * \ingroup ai-fabric-uet
 * \brief The 20-byte SES response-with-data header (PDS next header NH_RESPONSE_DATA, 5): READ
 *        data returning to the initiator.
 *
 * \verbatim
   octets 0-3    list 2 | opcode 6 (RESPONSE_W_DATA); version 2 | return_code 6; message_id 16
   octet 4       reserved 8
   octets 5-7    JobID 24
   octets 8-9    read_request_message_id 16 (the READ's message id)
   octets 10-11  reserved 2 | payload_length 14 (bytes of data in this packet)
   octets 12-15  modified_length 32
   octets 16-19  message_offset 32 (offset of this packet's data in the READ)
   \endverbatim
 * payload_length is 14 bits as in Wireshark's packet-uet.c (mask 0x3fff); XDP2's ses.h makes
 * it 12 bits with 4 reserved. Defaults: RESPONSE_W_DATA, RC_OK, everything else 0.
 */
class UetSesResponseDataHeader : public UetSesResponseBase
{
  public:
    /// Serialized size, bytes.
    static constexpr uint32_t SIZE = 20;

    /// Construct a RESPONSE_W_DATA with return code RC_OK, every other field 0.
    UetSesResponseDataHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return SIZE (20)
    uint32_t GetSerializedSize() const override;
    void Write(uint8_t* out) const override;
    uint32_t Read(const uint8_t* in) override;

    /// \param id read_request_message_id
    void SetReadRequestMessageId(uint16_t id);
    /// \return read_request_message_id
    uint16_t GetReadRequestMessageId() const;
    /**
     * \brief Set payload_length.
     * \param length bytes, 0..16383 (aborts otherwise)
     */
    void SetPayloadLength(uint16_t length);
    /// \return payload_length
    uint16_t GetPayloadLength() const;
    /// \param length modified_length, bytes
    void SetModifiedLength(uint32_t length);
    /// \return modified_length
    uint32_t GetModifiedLength() const;
    /// \param offset message_offset, bytes
    void SetMessageOffset(uint32_t offset);
    /// \return message_offset
    uint32_t GetMessageOffset() const;

    /**
     * \brief Fast path: write a response-with-data header (opcode RESPONSE_W_DATA).
     * \param out destination, at least SIZE bytes
     * \param returnCode return code, 6 bits (not checked)
     * \param messageId message_id
     * \param jobId JobID, 24 bits (not checked)
     * \param readRequestMessageId read_request_message_id
     * \param payloadLength payload_length, 14 bits (not checked)
     * \param modifiedLength modified_length
     * \param messageOffset message_offset
     * \param list list, 2 bits (not checked)
     * \param version version, 2 bits (not checked)
     * \return SIZE
     */
    static uint32_t WriteFields(uint8_t* out,
                                uint8_t returnCode,
                                uint16_t messageId,
                                uint32_t jobId,
                                uint16_t readRequestMessageId,
                                uint16_t payloadLength,
                                uint32_t modifiedLength,
                                uint32_t messageOffset,
                                uint8_t list = 0,
                                uint8_t version = 0)
    {
        return WriteWithOpcode(out,
                               RESPONSE_W_DATA,
                               returnCode,
                               messageId,
                               jobId,
                               readRequestMessageId,
                               payloadLength,
                               modifiedLength,
                               messageOffset,
                               list,
                               version);
    }

  private:
    /**
     * \brief WriteFields() with any opcode (the object form keeps whatever opcode was set).
     * \param out destination
     * \param opcode opcode
     * \param returnCode return code
     * \param messageId message_id
     * \param jobId JobID
     * \param readRequestMessageId read_request_message_id
     * \param payloadLength payload_length
     * \param modifiedLength modified_length
     * \param messageOffset message_offset
     * \param list list
     * \param version version
     * \return SIZE
     */
    static uint32_t WriteWithOpcode(uint8_t* out,
                                    uint8_t opcode,
                                    uint8_t returnCode,
                                    uint16_t messageId,
                                    uint32_t jobId,
                                    uint16_t readRequestMessageId,
                                    uint16_t payloadLength,
                                    uint32_t modifiedLength,
                                    uint32_t messageOffset,
                                    uint8_t list,
                                    uint8_t version)
    {
        WriteCommonFields(out, list, opcode, version, returnCode, messageId, jobId);
        out[4] = 0;
        wire::PutU16(out + 8, readRequestMessageId);
        wire::PutU16(out + 10, payloadLength & 0x3FFF);
        wire::PutU32(out + 12, modifiedLength);
        wire::PutU32(out + 16, messageOffset);
        return SIZE;
    }

    uint16_t m_readRequestMessageId; //!< read_request_message_id
    uint16_t m_payloadLength;        //!< payload_length, 14 bits
    uint32_t m_modifiedLength;       //!< modified_length
    uint32_t m_messageOffset;        //!< message_offset
};

} // namespace ns3

#endif /* UET_SES_RESPONSE_HEADER_H */
