/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: destination -> equal-cost egress port set, indexed densely by IPv4 address.
 */
#ifndef SWITCH_FORWARDING_TABLE_H
#define SWITCH_FORWARDING_TABLE_H

#include "ns3/ipv4-address.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief A switch's forwarding table: each destination host address maps to a set of
 *        equal-cost egress ports.
 *
 * Lookup is O(1): entries live in a dense array indexed by (address - lowest address), so
 * hosts should be numbered contiguously (topology helpers do so); the span of addresses is
 * limited to MAX_SPAN entries. Port sets are stored once in a shared pool and deduplicated
 * (all remote hosts behind the same uplinks share one set), so a table costs about 8 bytes
 * per destination plus the distinct sets.
 */
class SwitchForwardingTable : public Object
{
  public:
    /// Largest address span (highest - lowest + 1) a table accepts.
    static constexpr uint32_t MAX_SPAN = 1u << 24;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SwitchForwardingTable();

    /**
     * \brief Set the number of ports routes may name (the switch does this at install).
     * \param nPorts number of switch ports
     */
    void SetNPorts(uint32_t nPorts);

    /**
     * \brief Replace the equal-cost egress set of a destination.
     * \param dst destination host address
     * \param ports switch port indices, non-empty, each < number of ports, no duplicates
     *        (aborts naming the destination and the bad port otherwise)
     */
    void SetRoute(Ipv4Address dst, const std::vector<uint32_t>& ports);
    /**
     * \brief Add one port to a destination's equal-cost set (for building by hand).
     * \param dst destination host address
     * \param port switch port index (< number of ports; aborts otherwise); a port already in
     *        the set is ignored
     */
    void AddRoute(Ipv4Address dst, uint32_t port);

    /**
     * \brief Find the egress set of a destination.
     * \param dstIp destination address in host byte order
     * \param[out] ports first port of the set
     * \param[out] n number of ports in the set
     * \return false if there is no route
     */
    bool Lookup(uint32_t dstIp, const uint32_t*& ports, uint32_t& n) const
    {
        uint32_t idx = dstIp - m_base;
        if (idx >= m_entries.size() || m_entries[idx].count == 0)
        {
            return false;
        }
        ports = m_pool.data() + m_entries[idx].offset;
        n = m_entries[idx].count;
        return true;
    }

    /**
     * \param dst destination
     * \return the egress set (empty if no route)
     */
    std::vector<uint32_t> GetRoute(Ipv4Address dst) const;

    /// \return number of destinations with a route
    uint32_t GetNRoutes() const;

    /**
     * \brief Check that every listed destination has a route.
     * \param dsts the destinations the switch must reach
     * Aborts naming the first destination without a route.
     */
    void CheckComplete(const std::vector<Ipv4Address>& dsts) const;

    /// \return bytes used by the table (entries + port pool), excluding the dedup index
    uint64_t GetMemoryBytes() const;

    /// \brief Drop the build-time dedup index (call when all routes are set, saves memory).
    void Freeze();

    /// \brief Remove every route (the port count stays), e.g. before a route recomputation.
    void Clear();

  private:
    /// One destination.
    struct Entry
    {
        uint32_t offset{0}; //!< first port in m_pool
        uint32_t count{0};  //!< number of ports (0 = no route)
    };

    /// Make room for \p dstIp in the dense array.
    uint32_t Index(uint32_t dstIp);

    uint32_t m_nPorts;                                 //!< ports routes may name
    uint32_t m_base;                                   //!< address of m_entries[0]
    std::vector<Entry> m_entries;                      //!< dense by address
    std::vector<uint32_t> m_pool;                      //!< all port sets back to back
    std::map<std::vector<uint32_t>, uint32_t> m_dedup; //!< set -> offset (build time)
};

} // namespace ns3

#endif /* SWITCH_FORWARDING_TABLE_H */
