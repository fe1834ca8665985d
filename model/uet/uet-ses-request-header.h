/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UET SES standard (44 B) and small (20 B) request headers.
 */
#ifndef UET_SES_REQUEST_HEADER_H
#define UET_SES_REQUEST_HEADER_H

#include "uet-ses-header.h"

#include "ns3/fabric-wire-header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief The fields shared by the SES request headers: opcode, version, flags and the
 *        addressing triple {JobID, PIDonFEP, Resource Index} (UEC 1.0.1 3.4.3.1).
 *
 * \verbatim
   octet 0       reserved 2 | opcode 6 (Opcode)
   octet 1       version 2 | DC | IE | REL | HD | EOM | SOM
   octets 2-3    (header-specific)
   octet 4       RI generation 8
   octets 5-7    JobID 24
   octets 8-9    reserved 4 | PIDonFEP 12
   octets 10-11  reserved 4 | Resource Index 12
   \endverbatim
 */
class UetSesRequestBase : public UetSesHeader
{
  public:
    /// Construct with opcode WRITE and every other field 0.
    UetSesRequestBase();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Set the opcode.
     * \param opcode Opcode, 0..63 (aborts otherwise)
     */
    void SetOpcode(uint8_t opcode);
    /// \return the opcode, 0..63
    uint8_t GetOpcode() const;
    /**
     * \brief Set the SES version.
     * \param version 0..3 (aborts otherwise; 0 in UEC 1.0)
     */
    void SetVersion(uint8_t version);
    /// \return the version, 0..3
    uint8_t GetVersion() const;
    /**
     * \brief Set the six flag bits of octet 1 at once (FLAG_DC ... FLAG_SOM).
     * \param flags 0..63 (aborts otherwise)
     */
    void SetFlags(uint8_t flags);
    /// \return the six flag bits
    uint8_t GetFlags() const;
    /// \param dc DC, delivery complete
    void SetDc(bool dc);
    /// \return DC
    bool GetDc() const;
    /// \param ie IE, initiator error
    void SetIe(bool ie);
    /// \return IE
    bool GetIe() const;
    /// \param rel REL, relative addressing (the PIDonFEP is relative to the JobID)
    void SetRel(bool rel);
    /// \return REL
    bool GetRel() const;
    /// \param hd HD, header data present (reserved in the small request)
    void SetHd(bool hd);
    /// \return HD
    bool GetHd() const;
    /// \param eom EOM, the last packet of the message
    void SetEom(bool eom);
    /// \return EOM
    bool GetEom() const;
    /// \param som SOM, the first packet of the message
    void SetSom(bool som);
    /// \return SOM
    bool GetSom() const;
    /// \param gen RI generation, 8 bits
    void SetRiGeneration(uint8_t gen);
    /// \return RI generation
    uint8_t GetRiGeneration() const;
    /**
     * \brief Set the JobID.
     * \param jobId 0..2^24-1 (aborts otherwise)
     */
    void SetJobId(uint32_t jobId);
    /// \return the JobID
    uint32_t GetJobId() const;
    /**
     * \brief Set PIDonFEP, the process on the fabric end point.
     * \param pid 0..4095 (aborts otherwise)
     */
    void SetPidOnFep(uint16_t pid);
    /// \return PIDonFEP
    uint16_t GetPidOnFep() const;
    /**
     * \brief Set the Resource Index.
     * \param ri 0..4095 (aborts otherwise)
     */
    void SetResourceIndex(uint16_t ri);
    /// \return the Resource Index
    uint16_t GetResourceIndex() const;

  protected:
    /**
     * \brief Write octets 0-1 and 4-11.
     * \param out the header's start
     */
    void WriteCommon(uint8_t* out) const;
    /**
     * \brief Read octets 0-1 and 4-11.
     * \param in the header's start
     */
    void ReadCommon(const uint8_t* in);
    /**
     * \brief Print the common fields.
     * \param os the stream
     */
    void PrintCommon(std::ostream& os) const;

    /**
     * \brief Fast path: write octets 0-1 and 4-11.
     * \param out the header's start
     * \param opcode opcode, 6 bits (not checked)
     * \param flags six flag bits (not checked)
     * \param version version, 2 bits (not checked)
     * \param riGeneration RI generation
     * \param jobId JobID, 24 bits (not checked)
     * \param pidOnFep PIDonFEP, 12 bits (not checked)
     * \param resourceIndex Resource Index, 12 bits (not checked)
     */
    static void WriteCommonFields(uint8_t* out,
                                  uint8_t opcode,
                                  uint8_t flags,
                                  uint8_t version,
                                  uint8_t riGeneration,
                                  uint32_t jobId,
                                  uint16_t pidOnFep,
                                  uint16_t resourceIndex)
    {
        out[0] = opcode & 0x3F;
        out[1] = static_cast<uint8_t>((version << 6) | (flags & 0x3F));
        out[4] = riGeneration;
        wire::PutU24(out + 5, jobId);
        wire::PutU16(out + 8, pidOnFep & 0xFFF);
        wire::PutU16(out + 10, resourceIndex & 0xFFF);
    }

    uint8_t m_opcode;         //!< opcode, 6 bits
    uint8_t m_version;        //!< version, 2 bits
    uint8_t m_flags;          //!< DC IE REL HD EOM SOM
    uint8_t m_riGeneration;   //!< RI generation
    uint32_t m_jobId;         //!< JobID, 24 bits
    uint16_t m_pidOnFep;      //!< PIDonFEP, 12 bits
    uint16_t m_resourceIndex; //!< Resource Index, 12 bits
};

/**
 * \ingroup ai-fabric-uet
 * \brief The 44-byte SES standard request header (PDS next header NH_REQUEST_STD, 3)
 *        (UEC 1.0.1 3.4.3.1, standard header; UET.md; Wireshark dissect_ses_std_req; XDP2).
 *
 * \verbatim
   octets 0-1    reserved 2 | opcode 6; version 2 | DC | IE | REL | HD | EOM | SOM
   octets 2-3    message_id 16
   octets 4-11   RI generation 8 | JobID 24; rsvd 4 | PIDonFEP 12; rsvd 4 | Resource Index 12
   octets 12-19  buffer_offset 64 (bytes; restart token for deferrable sends)
   octets 20-23  initiator 32 (the initiator's id, e.g. its rank / PIDonFEP)
   octets 24-31  memory key / match bits 64
   octets 32-39  SOM = 1: header_data 64
                 SOM = 0: reserved 18 | payload_length 14 (bytes in this packet) |
                          message_offset 32 (bytes from the start of the message)
   octets 40-43  request_length 32 (bytes of the whole message)
   \endverbatim
 * Octets 32-39 are held as one 64-bit value (SetHeaderData()); SetPayloadLength() and
 * SetMessageOffset() write their parts of it. Defaults: WRITE, everything else 0.
 */
class UetSesRequestHeader : public UetSesRequestBase
{
  public:
    /// Serialized size, bytes.
    static constexpr uint32_t SIZE = 44;

    /// Construct a standard WRITE request with every other field 0.
    UetSesRequestHeader();

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return SIZE (44)
    uint32_t GetSerializedSize() const override;
    void Write(uint8_t* out) const override;
    uint32_t Read(const uint8_t* in) override;

    /// \param id message_id, 16 bits
    void SetMessageId(uint16_t id);
    /// \return message_id
    uint16_t GetMessageId() const;
    /// \param offset buffer_offset, bytes
    void SetBufferOffset(uint64_t offset);
    /// \return buffer_offset
    uint64_t GetBufferOffset() const;
    /// \param initiator the initiator field, 32 bits
    void SetInitiator(uint32_t initiator);
    /// \return the initiator field
    uint32_t GetInitiator() const;
    /// \param key the memory key / match bits, 64 bits
    void SetMemoryKey(uint64_t key);
    /// \return the memory key / match bits
    uint64_t GetMemoryKey() const;
    /// \param data octets 32-39 as header_data (SOM = 1)
    void SetHeaderData(uint64_t data);
    /// \return octets 32-39 as one value
    uint64_t GetHeaderData() const;
    /**
     * \brief Set payload_length, bits 45..32 of octets 32-39 (SOM = 0).
     * \param length bytes, 0..16383 (aborts otherwise)
     */
    void SetPayloadLength(uint16_t length);
    /// \return payload_length, 0..16383
    uint16_t GetPayloadLength() const;
    /// \param offset message_offset, the low 32 bits of octets 32-39 (SOM = 0)
    void SetMessageOffset(uint32_t offset);
    /// \return message_offset
    uint32_t GetMessageOffset() const;
    /// \param length request_length, bytes of the whole message
    void SetRequestLength(uint32_t length);
    /// \return request_length
    uint32_t GetRequestLength() const;

    /**
     * \brief Pack octets 32-39 of a packet that is not the first of its message.
     * \param payloadLength payload_length, 14 bits (not checked)
     * \param messageOffset message_offset
     * \return the value for WriteFields()' headerData argument
     */
    static uint64_t PackLengthOffset(uint16_t payloadLength, uint32_t messageOffset)
    {
        return (uint64_t(payloadLength & 0x3FFF) << 32) | messageOffset;
    }

    /**
     * \brief Fast path: write a standard request header.
     * \param out destination, at least SIZE bytes
     * \param opcode opcode, 6 bits (not checked)
     * \param flags DC|IE|REL|HD|EOM|SOM, 6 bits (not checked)
     * \param messageId message_id
     * \param riGeneration RI generation
     * \param jobId JobID, 24 bits (not checked)
     * \param pidOnFep PIDonFEP, 12 bits (not checked)
     * \param resourceIndex Resource Index, 12 bits (not checked)
     * \param bufferOffset buffer_offset
     * \param initiator initiator
     * \param memoryKey memory key / match bits
     * \param headerData header_data (SOM), or PackLengthOffset() (not SOM)
     * \param requestLength request_length
     * \param version version, 2 bits (not checked)
     * \return SIZE
     */
    static uint32_t WriteFields(uint8_t* out,
                                uint8_t opcode,
                                uint8_t flags,
                                uint16_t messageId,
                                uint8_t riGeneration,
                                uint32_t jobId,
                                uint16_t pidOnFep,
                                uint16_t resourceIndex,
                                uint64_t bufferOffset,
                                uint32_t initiator,
                                uint64_t memoryKey,
                                uint64_t headerData,
                                uint32_t requestLength,
                                uint8_t version = 0)
    {
        WriteCommonFields(out,
                          opcode,
                          flags,
                          version,
                          riGeneration,
                          jobId,
                          pidOnFep,
                          resourceIndex);
        wire::PutU16(out + 2, messageId);
        wire::PutU64(out + 12, bufferOffset);
        wire::PutU32(out + 20, initiator);
        wire::PutU64(out + 24, memoryKey);
        wire::PutU64(out + 32, headerData);
        wire::PutU32(out + 40, requestLength);
        return SIZE;
    }

  private:
    uint16_t m_messageId;     //!< message_id
    uint64_t m_bufferOffset;  //!< buffer_offset
    uint32_t m_initiator;     //!< initiator
    uint64_t m_memoryKey;     //!< memory key / match bits
    uint64_t m_headerData;    //!< header_data, or payload_length | message_offset
    uint32_t m_requestLength; //!< request_length
};

/**
 * \ingroup ai-fabric-uet
 * \brief The 20-byte SES small ("optimized") request header for single-packet messages (PDS
 *        next header NH_REQUEST_SMALL, 1) (UEC 1.0.1 3.4.3.2; Wireshark dissect_ses_small_req).
 *
 * \verbatim
   octets 0-1    reserved 2 | opcode 6; version 2 | DC | IE | REL | reserved (HD) | EOM | SOM
   octets 2-3    reserved 2 | request_length 14 (bytes)
   octets 4-11   RI generation 8 | JobID 24; rsvd 4 | PIDonFEP 12; rsvd 4 | Resource Index 12
   octets 12-19  buffer_offset 64
   \endverbatim
 * No message id, initiator or memory key: a message that fits one packet (SOM and EOM both
 * set) to a non-matching (e.g. WRITE) target. Octets 2-3 follow Wireshark's packet-uet.c; XDP2
 * puts a message_id there instead (see the module documentation).
 * Defaults: WRITE with SOM and EOM set, everything else 0.
 */
class UetSesSmallRequestHeader : public UetSesRequestBase
{
  public:
    /// Serialized size, bytes.
    static constexpr uint32_t SIZE = 20;

    /// Construct a small WRITE request with SOM and EOM set, every other field 0.
    UetSesSmallRequestHeader();

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

    /**
     * \brief Set request_length.
     * \param length bytes, 0..16383 (aborts otherwise)
     */
    void SetRequestLength(uint16_t length);
    /// \return request_length, 0..16383
    uint16_t GetRequestLength() const;
    /// \param offset buffer_offset, bytes
    void SetBufferOffset(uint64_t offset);
    /// \return buffer_offset
    uint64_t GetBufferOffset() const;

    /**
     * \brief Fast path: write a small request header.
     * \param out destination, at least SIZE bytes
     * \param opcode opcode, 6 bits (not checked)
     * \param flags six flag bits (normally FLAG_SOM | FLAG_EOM; not checked)
     * \param requestLength request_length, 14 bits (not checked)
     * \param riGeneration RI generation
     * \param jobId JobID, 24 bits (not checked)
     * \param pidOnFep PIDonFEP, 12 bits (not checked)
     * \param resourceIndex Resource Index, 12 bits (not checked)
     * \param bufferOffset buffer_offset
     * \param version version, 2 bits (not checked)
     * \return SIZE
     */
    static uint32_t WriteFields(uint8_t* out,
                                uint8_t opcode,
                                uint8_t flags,
                                uint16_t requestLength,
                                uint8_t riGeneration,
                                uint32_t jobId,
                                uint16_t pidOnFep,
                                uint16_t resourceIndex,
                                uint64_t bufferOffset,
                                uint8_t version = 0)
    {
        WriteCommonFields(out,
                          opcode,
                          flags,
                          version,
                          riGeneration,
                          jobId,
                          pidOnFep,
                          resourceIndex);
        wire::PutU16(out + 2, requestLength & 0x3FFF);
        wire::PutU64(out + 12, bufferOffset);
        return SIZE;
    }

  private:
    uint16_t m_requestLength; //!< request_length, 14 bits
    uint64_t m_bufferOffset;  //!< buffer_offset
};

} // namespace ns3

#endif /* UET_SES_REQUEST_HEADER_H */
