/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: where the ranks of a communicator live (servers, rails) and the ring orders built
 * from it.
 */
#ifndef COLLECTIVE_LAYOUT_H
#define COLLECTIVE_LAYOUT_H

#include "collective-types.h"

#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief The placement of a communicator's ranks on servers, and the ring orders derived from
 *        it.
 *
 * Without locations (flat) every rank is its own "server" and rings follow the rank order.
 * With locations, servers are numbered densely in increasing server id, and the ranks of a
 * server are kept sorted by local index; a rank's rail is its local index.
 *
 * <b>Rail-aware rings</b> (GetRing with railAware): NCCL on rail-optimized clusters builds
 * rings whose inter-server hops stay on one rail (NCCL_CROSS_NIC=0). Here, when every server
 * holds the same number g of ranks, ring c visits the servers in order and crosses from server
 * s to s+1 between ranks of the same position x_{s+1} (same local index when every server
 * holds the same local indices): inside server s the ring enters at position x_s, visits the
 * other positions in increasing order (cyclically), and leaves at x_{s+1}. The entry positions
 * alternate c mod g, (c+1) mod g; with an odd number of servers the last one uses
 * (c+2) mod g so the ring closes on a rail. Exceptions: g = 1 (every hop is on rail x),
 * one server (no inter-server hop), and g = 2 with an odd number of servers (impossible: the
 * closing hop changes rail; PXN relays it if enabled). With uneven servers the ring visits
 * servers in order, ranks in local order, without the rail guarantee.
 */
class CollectiveLayout : public SimpleRefCount<CollectiveLayout>
{
  public:
    /**
     * \brief A flat layout: no server information.
     * \param nRanks ranks (>= 1; aborts on 0)
     */
    explicit CollectiveLayout(uint32_t nRanks);
    /**
     * \brief A layout from rank locations.
     * \param locations location of each rank (non-empty; aborts if two ranks share a
     *        (server, local) pair, naming both)
     */
    explicit CollectiveLayout(const std::vector<CollectiveRankLocation>& locations);

    /// \return number of ranks
    uint32_t GetNRanks() const;
    /// \return true if ranks have locations
    bool HasLocations() const;
    /// \return number of servers (dense); the rank count when flat
    uint32_t GetNServers() const;
    /**
     * \param rank a rank (< GetNRanks())
     * \return its dense server index
     */
    uint32_t GetServerIndex(uint32_t rank) const;
    /**
     * \param rank a rank
     * \return its local index (rail); 0 when flat
     */
    uint32_t GetLocal(uint32_t rank) const;
    /**
     * \param server dense server index (< GetNServers())
     * \return its ranks sorted by local index
     */
    const std::vector<uint32_t>& GetServerRanks(uint32_t server) const;
    /// \return true if every server holds the same number of ranks
    bool IsUniform() const;
    /**
     * \param server dense server index
     * \param local a local index
     * \return the rank at that place, or COLLECTIVE_NONE
     */
    uint32_t FindRank(uint32_t server, uint32_t local) const;
    /**
     * \param a a rank
     * \param b a rank
     * \return true if both have locations, different servers and different rails
     */
    bool IsCrossRail(uint32_t a, uint32_t b) const;

    /**
     * \brief The ring order of a channel.
     * \param channel channel index
     * \param railAware build the rail-aware order (see the class description); ignored when
     *        flat
     * \return every rank once, in ring order (rank i sends to element i+1)
     */
    std::vector<uint32_t> GetRing(uint32_t channel, bool railAware) const;

  private:
    uint32_t m_nRanks;                            //!< ranks
    bool m_hasLocations;                          //!< locations given
    std::vector<uint32_t> m_serverOf;             //!< rank -> dense server
    std::vector<uint32_t> m_localOf;              //!< rank -> local
    std::vector<std::vector<uint32_t>> m_servers; //!< dense server -> ranks by local
    std::unordered_map<uint64_t, uint32_t> m_at;  //!< (server, local) -> rank
};

} // namespace ns3

#endif /* COLLECTIVE_LAYOUT_H */
