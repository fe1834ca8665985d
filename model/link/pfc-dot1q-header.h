/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: IEEE 802.1Q VLAN tag (the part after the TPID).
 */
#ifndef PFC_DOT1Q_HEADER_H
#define PFC_DOT1Q_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief The 802.1Q tag control information and encapsulated EtherType (IEEE 802.1Q-2018 9.6).
 *
 * It follows an EthernetHeader whose length/type field is the TPID 0x8100:
 * \verbatim
   PCP 3 bits | DEI 1 bit | VID 12 bits | inner EtherType 16 bits      (4 bytes)
   \endverbatim
 * PCP carries the frame's priority (0..7) when a PfcNetDevice runs in PCP tagging mode.
 */
class PfcDot1qHeader : public Header
{
  public:
    /// Tag protocol identifier of a customer VLAN tag.
    static constexpr uint16_t TPID = 0x8100;

    PfcDot1qHeader();
    /**
     * \param pcp priority code point, 0..7 (aborts otherwise)
     * \param vid VLAN identifier, 0..4095 (aborts otherwise)
     * \param innerType EtherType of the payload (e.g. 0x0800 for IPv4)
     */
    PfcDot1qHeader(uint8_t pcp, uint16_t vid, uint16_t innerType);

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

    /// \return the priority code point, 0..7
    uint8_t GetPcp() const;
    /// \return the drop eligible indicator
    bool GetDei() const;
    /// \return the VLAN identifier, 0..4095
    uint16_t GetVid() const;
    /// \return the EtherType of the encapsulated payload
    uint16_t GetInnerType() const;

  private:
    uint8_t m_pcp;        //!< priority code point
    bool m_dei;           //!< drop eligible indicator
    uint16_t m_vid;       //!< VLAN id
    uint16_t m_innerType; //!< encapsulated EtherType
};

} // namespace ns3

#endif /* PFC_DOT1Q_HEADER_H */
