/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: IEEE 802.1Qbb Priority-based Flow Control frame body.
 */
#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief The MAC Control body of an IEEE 802.1Qbb Priority-based Flow Control (PFC) frame.
 *
 * Layout after the Ethernet header (EtherType 0x8808, destination 01:80:C2:00:00:01), as
 * defined by IEEE 802.1Qbb clause 36 / IEEE 802.3 Annex 31D:
 *
 * \verbatim
   offset 0  MAC Control opcode      16 bits  0x0101 (PFC)
   offset 2  priority-enable vector  16 bits  bit i (of the low 8) set = time[i] is valid
   offset 4  time[0] .. time[7]      8 x 16 bits, pause duration in quanta
   \endverbatim
 *
 * One quantum is 512 bit times at the receiving port's rate (1.28 ns at 400 Gb/s); the
 * largest value, 65535 quanta, is 83.9 us at 400 Gb/s. A time of 0 for an enabled priority is
 * an XON (resume). The serialized size is 20 bytes; the device pads the frame to the 64-byte
 * Ethernet minimum. Deserialization accepts any opcode so that the device can count unknown
 * MAC Control opcodes as drops; check GetOpcode() == PFC_OPCODE before acting on a frame.
 */
class PfcHeader : public Header
{
  public:
    /// EtherType of MAC Control frames (IEEE 802.3 clause 31).
    static constexpr uint16_t MAC_CONTROL_ETHERTYPE = 0x8808;
    /// MAC Control opcode of a PFC frame (IEEE 802.1Qbb).
    static constexpr uint16_t PFC_OPCODE = 0x0101;
    /// Number of priorities a PFC frame can address.
    static constexpr uint8_t NUM_PRIORITIES = 8;
    /// Bit times per pause quantum.
    static constexpr uint32_t BITS_PER_QUANTUM = 512;
    /// Serialized size of the PFC body in bytes.
    static constexpr uint32_t SIZE = 20;

    /**
     * \brief The reserved multicast destination of MAC Control frames, 01:80:C2:00:00:01.
     * \return the address
     */
    static Mac48Address GetPfcDestination();

    /**
     * \brief Duration of a pause time at a port's rate: quanta x 512 bit times (IEEE 802.1Qbb
     *        clause 36 / IEEE 802.3 Annex 31D), rounded to the nearest picosecond.
     *
     * 1.28 ns per quantum at 400 Gb/s; 65535 quanta are 83.886 us at 400 Gb/s.
     * \param quanta pause time, 0..65535 (0 = XON, a zero duration)
     * \param rate the rate of the port that honours or sends the pause, > 0 bit/s (not checked
     *        here: devices validate their rate)
     * \return the duration
     */
    static Time QuantaToTime(uint16_t quanta, const DataRate& rate);

    /// Construct an empty PFC frame (opcode 0x0101, no priority enabled).
    PfcHeader();

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
     * \brief Set the pause time of one priority and mark it enabled in the vector.
     * \param priority the priority, 0..7 (aborts otherwise, naming the value)
     * \param quanta pause time in quanta of 512 bit times; 0 means XON (resume)
     */
    void SetPauseQuanta(uint8_t priority, uint16_t quanta);
    /**
     * \param priority the priority, 0..7 (aborts otherwise)
     * \return the pause time of that priority in quanta (meaningful only if enabled)
     */
    uint16_t GetPauseQuanta(uint8_t priority) const;
    /**
     * \param priority the priority, 0..7 (aborts otherwise)
     * \return true if the frame's priority-enable vector lists that priority
     */
    bool IsPriorityEnabled(uint8_t priority) const;
    /**
     * \return the 16-bit priority-enable vector (bit i = priority i; the high octet is reserved
     *         and always 0 on frames this class builds)
     */
    uint16_t GetEnableVector() const;
    /**
     * \brief Set the raw enable vector (for tests of malformed frames); times are unchanged.
     * \param vector the 16-bit vector as it goes on the wire
     */
    void SetEnableVector(uint16_t vector);
    /// \return the MAC Control opcode (0x0101 for PFC)
    uint16_t GetOpcode() const;
    /**
     * \brief Override the opcode (used to build non-PFC MAC Control frames in tests).
     * \param opcode the 16-bit opcode
     */
    void SetOpcode(uint16_t opcode);

  private:
    uint16_t m_opcode;                               //!< MAC Control opcode
    uint16_t m_enableVector;                         //!< priority-enable vector
    std::array<uint16_t, NUM_PRIORITIES> m_quanta{}; //!< pause time per priority, quanta
};

} // namespace ns3

#endif /* PFC_HEADER_H */
