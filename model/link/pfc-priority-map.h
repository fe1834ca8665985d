/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a port's DSCP -> priority map (which of the 8 PFC priorities an IPv4 frame uses).
 */
#ifndef PFC_PRIORITY_MAP_H
#define PFC_PRIORITY_MAP_H

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-link
 * \brief The DSCP -> priority map of a port: the priority (0..7, the PFC class and transmit
 *        queue) of an untagged IPv4 frame, from the DSCP in its IPv4 header (the DSCP
 *        selector of the IEEE 802.1Qaz application priority table).
 *
 * Default: DSCP d -> priority d >> 3 (the class-selector bits). The text form, the
 * PfcNetDevice attribute DscpPriorityMap, lists entries as "dscp:priority,..."; entries it
 * does not name keep their value. Four bits per DSCP packed in 32 bytes (one read per frame,
 * in the port's receive cache line). A plain member of its port, not an ns-3 Object: the port
 * checks the values it is given (PfcNetDevice::SetDscpPriority).
 */
class PfcPriorityMap
{
  public:
    /// The default map: DSCP d -> priority d >> 3.
    PfcPriorityMap();

    /**
     * \brief The priority of a DSCP (read per frame).
     * \param dscp 0..63 (not checked: a value read from the 6 DSCP bits)
     * \return its priority, 0..7
     */
    uint8_t Get(uint8_t dscp) const
    {
        return static_cast<uint8_t>((m_packed[dscp >> 4] >> ((dscp & 15u) * 4)) & 0xfu);
    }

    /**
     * \brief Set one entry.
     * \param dscp 0..63 (not checked)
     * \param priority 0..7 (not checked)
     */
    void Set(uint8_t dscp, uint8_t priority);

    /**
     * \brief Set the entries a text names.
     * \param map "dscp:priority,..." with dscp 0..63 and priority 0..7 (empty items skipped);
     *        aborts naming the first invalid entry (the entries before it are set)
     */
    void Parse(const std::string& map);

    /// \return the entries that differ from the default, as "dscp:priority,..." in DSCP order
    ///         (empty for the default map)
    std::string ToString() const;

  private:
    std::array<uint64_t, 4> m_packed{}; //!< four bits per DSCP, DSCPs 16k..16k+15 in word k
};

} // namespace ns3

#endif /* PFC_PRIORITY_MAP_H */
