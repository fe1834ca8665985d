/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: InfiniBand ACK Extended Transport Header (AETH).
 */
#ifndef ROCE_AETH_HEADER_H
#define ROCE_AETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief The 4-byte ACK Extended Transport Header (IBTA Vol 1 9.3, AETH).
 *
 * It follows the BTH on Acknowledge packets and on RDMA READ Response First, Last and Only
 * (RoceBthHeader::HasAeth()). Layout:
 * \verbatim
   octet 0      syndrome 8:  reserved 1 (0) | type 2 | value 5
                             type 00 = ACK      value = credit count (31 = no credit information)
                             type 01 = RNR NAK  value = RNR timer code
                             type 10 = reserved
                             type 11 = NAK      value = NAK code (NakCode)
   octets 1-3   MSN 24       message sequence number of the last completed request message
   \endverbatim
 * So an ACK syndrome is 0b000xxxxx, an RNR NAK 0b001xxxxx and a NAK 0b011xxxxx. The default is
 * an ACK with credit count 0 and MSN 0. Deserialize() accepts any syndrome, including reserved
 * ones, for which IsAck(), IsNak() and IsRnrNak() are all false.
 */
class RoceAethHeader : public Header
{
  public:
    /// NAK codes carried in the low 5 bits of a NAK syndrome (IBTA Vol 1 9.3, AETH).
    enum NakCode : uint8_t
    {
        NAK_PSN_SEQUENCE_ERROR = 0,       //!< PSN sequence error (go back to the expected PSN)
        NAK_INVALID_REQUEST = 1,          //!< invalid request
        NAK_REMOTE_ACCESS_ERROR = 2,      //!< remote access error (e.g. bad R_Key)
        NAK_REMOTE_OPERATIONAL_ERROR = 3, //!< remote operational error
        NAK_INVALID_RD_REQUEST = 4,       //!< invalid RD request
    };

    /// Serialized size of the AETH in bytes.
    static constexpr uint32_t SIZE = 4;
    /// Credit count value meaning "no credit information" (end-to-end credits not used).
    static constexpr uint8_t CREDIT_INVALID = 31;
    /// Largest valid MSN, 2^24 - 1.
    static constexpr uint32_t MAX_MSN = (1u << 24) - 1;

    /// Construct an ACK with credit count 0 and MSN 0.
    RoceAethHeader();

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
     * \brief Read the SIZE wire bytes (same as Deserialize, from a copied-out buffer).
     * \param in source, at least SIZE bytes
     */
    void Read(const uint8_t* in);

    /**
     * \brief Make this an ACK: syndrome 0b000ccccc.
     * \param credit encoded end-to-end credit count 0..30, or 31 (CREDIT_INVALID) for none;
     *        aborts on larger values, naming the value
     */
    void SetAck(uint8_t credit);
    /**
     * \brief Make this a NAK: syndrome 0b011nnnnn.
     * \param code a NakCode, 0..4 (codes 5..31 are reserved; aborts on them, naming the value)
     */
    void SetNak(uint8_t code);
    /**
     * \brief Make this a receiver-not-ready NAK: syndrome 0b001ttttt.
     * \param timer the 5-bit encoded minimum RNR delay, 0..31 (aborts otherwise)
     */
    void SetRnrNak(uint8_t timer);
    /// \return true if the syndrome is an ACK (0b000xxxxx)
    bool IsAck() const;
    /// \return true if the syndrome is a NAK (0b011xxxxx)
    bool IsNak() const;
    /// \return true if the syndrome is an RNR NAK (0b001xxxxx)
    bool IsRnrNak() const;
    /**
     * \return the NAK code, 0..31 (0..4 defined, see NakCode); aborts if the syndrome is not a
     *         NAK
     */
    uint8_t GetNakCode() const;
    /// \return the credit count, 0..31; aborts if the syndrome is not an ACK
    uint8_t GetCreditCount() const;
    /// \return the RNR timer code, 0..31; aborts if the syndrome is not an RNR NAK
    uint8_t GetRnrTimer() const;
    /**
     * \brief Set the raw syndrome octet (for tests and malformed packets).
     * \param syndrome any 8-bit value
     */
    void SetSyndrome(uint8_t syndrome);
    /// \return the raw syndrome octet
    uint8_t GetSyndrome() const;
    /**
     * \brief Set the message sequence number.
     * \param msn 0..2^24-1 (aborts otherwise, naming the value)
     */
    void SetMsn(uint32_t msn);
    /// \return the message sequence number, 0..2^24-1
    uint32_t GetMsn() const;

    /**
     * \name Object-free access for the per-packet path
     * A RoceAethHeader is an ns-3 Header, and constructing and destroying one calls into ns-3's
     * libraries. The NIC writes and reads the AETH of every ACK with these instead. They
     * write and read the same bits as Write() and Read(), which use them.
     * @{
     */
    /**
     * \brief The syndrome of an ACK, 0b000ccccc.
     * \param credit credit count 0..30, or CREDIT_INVALID (31) for none; aborts on larger
     *        values, naming the value
     * \return the syndrome octet
     */
    static uint8_t AckSyndrome(uint8_t credit);
    /**
     * \brief The syndrome of a NAK, 0b011nnnnn.
     * \param code a NakCode, 0..4; aborts on the reserved codes 5..31 and above, naming the value
     * \return the syndrome octet
     */
    static uint8_t NakSyndrome(uint8_t code);
    /**
     * \param syndrome a syndrome octet
     * \return true if it is a NAK's (0b011xxxxx)
     */
    static bool IsNakSyndrome(uint8_t syndrome);
    /**
     * \param syndrome a syndrome octet
     * \return its 5-bit value, 0..31 (credit count, RNR timer or NAK code by type)
     */
    static uint8_t SyndromeValue(uint8_t syndrome);
    /**
     * \brief Write an AETH's SIZE wire bytes.
     * \param out destination, at least SIZE bytes
     * \param syndrome the syndrome octet (any 8-bit value)
     * \param msn message sequence number, 0..MAX_MSN; aborts otherwise, naming the value
     */
    static void WriteFields(uint8_t* out, uint8_t syndrome, uint32_t msn);
    /**
     * \param in an AETH's SIZE wire bytes
     * \return its syndrome octet
     */
    static uint8_t ReadSyndrome(const uint8_t* in);
    /** @} */

  private:
    /**
     * \brief Abort unless \p msn fits the 24-bit MSN field, naming the value and the range.
     * \param msn message sequence number
     */
    static void CheckMsn(uint32_t msn);

    uint8_t m_syndrome; //!< syndrome octet
    uint32_t m_msn;     //!< message sequence number, 24 bits
};

} // namespace ns3

#endif /* ROCE_AETH_HEADER_H */
