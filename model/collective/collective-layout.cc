/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-layout.h"

#include "ns3/abort.h"

#include <algorithm>
#include <map>

namespace ns3
{

CollectiveLayout::CollectiveLayout(uint32_t nRanks)
    : m_nRanks(nRanks),
      m_hasLocations(false)
{
    NS_ABORT_MSG_IF(nRanks == 0, "CollectiveLayout: 0 ranks is invalid (>= 1)");
    m_serverOf.resize(nRanks);
    m_localOf.assign(nRanks, 0);
    m_servers.resize(nRanks);
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        m_serverOf[r] = r;
        m_servers[r] = {r};
    }
}

CollectiveLayout::CollectiveLayout(const std::vector<CollectiveRankLocation>& locations)
    : m_nRanks(static_cast<uint32_t>(locations.size())),
      m_hasLocations(true)
{
    NS_ABORT_MSG_IF(locations.empty(), "CollectiveLayout: 0 ranks is invalid (>= 1)");
    std::map<uint32_t, uint32_t> dense;
    for (const auto& l : locations)
    {
        dense.emplace(l.server, 0);
    }
    uint32_t i = 0;
    for (auto& [id, index] : dense)
    {
        index = i++;
    }
    m_servers.resize(dense.size());
    m_serverOf.resize(m_nRanks);
    m_localOf.resize(m_nRanks);
    for (uint32_t r = 0; r < m_nRanks; ++r)
    {
        uint32_t s = dense[locations[r].server];
        m_serverOf[r] = s;
        m_localOf[r] = locations[r].local;
        uint64_t key = (uint64_t(s) << 32) | locations[r].local;
        auto [it, fresh] = m_at.emplace(key, r);
        NS_ABORT_MSG_IF(!fresh,
                        "CollectiveLayout: ranks " << it->second << " and " << r
                                                   << " are both at server " << locations[r].server
                                                   << " local " << locations[r].local);
        m_servers[s].push_back(r);
    }
    for (auto& ranks : m_servers)
    {
        std::sort(ranks.begin(), ranks.end(), [this](uint32_t a, uint32_t b) {
            return m_localOf[a] < m_localOf[b];
        });
    }
}

uint32_t
CollectiveLayout::GetNRanks() const
{
    return m_nRanks;
}

bool
CollectiveLayout::HasLocations() const
{
    return m_hasLocations;
}

uint32_t
CollectiveLayout::GetNServers() const
{
    return static_cast<uint32_t>(m_servers.size());
}

uint32_t
CollectiveLayout::GetServerIndex(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_nRanks,
                    "CollectiveLayout: rank " << rank << " is not in the communicator (ranks 0.."
                                              << m_nRanks - 1 << ")");
    return m_serverOf[rank];
}

uint32_t
CollectiveLayout::GetLocal(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_nRanks,
                    "CollectiveLayout: rank " << rank << " is not in the communicator (ranks 0.."
                                              << m_nRanks - 1 << ")");
    return m_localOf[rank];
}

const std::vector<uint32_t>&
CollectiveLayout::GetServerRanks(uint32_t server) const
{
    NS_ABORT_MSG_IF(server >= m_servers.size(),
                    "CollectiveLayout: server index " << server << " is invalid (0.."
                                                      << m_servers.size() - 1 << ")");
    return m_servers[server];
}

bool
CollectiveLayout::IsUniform() const
{
    for (const auto& s : m_servers)
    {
        if (s.size() != m_servers[0].size())
        {
            return false;
        }
    }
    return true;
}

uint32_t
CollectiveLayout::FindRank(uint32_t server, uint32_t local) const
{
    if (!m_hasLocations)
    {
        return local == 0 && server < m_nRanks ? server : COLLECTIVE_NONE;
    }
    auto it = m_at.find((uint64_t(server) << 32) | local);
    return it == m_at.end() ? COLLECTIVE_NONE : it->second;
}

bool
CollectiveLayout::IsCrossRail(uint32_t a, uint32_t b) const
{
    return m_hasLocations && m_serverOf[a] != m_serverOf[b] && m_localOf[a] != m_localOf[b];
}

std::vector<uint32_t>
CollectiveLayout::GetRing(uint32_t channel, bool railAware) const
{
    std::vector<uint32_t> ring;
    ring.reserve(m_nRanks);
    if (!m_hasLocations)
    {
        for (uint32_t r = 0; r < m_nRanks; ++r)
        {
            ring.push_back(r);
        }
        return ring;
    }
    uint32_t m = GetNServers();
    if (!railAware || !IsUniform())
    {
        for (const auto& s : m_servers)
        {
            ring.insert(ring.end(), s.begin(), s.end());
        }
        return ring;
    }
    uint32_t g = static_cast<uint32_t>(m_servers[0].size());
    if (g == 1)
    {
        for (const auto& s : m_servers)
        {
            ring.push_back(s[0]);
        }
        return ring;
    }
    // Entry positions x_0..x_{m-1}; server s goes from x_s to x_{s+1} (x_m = x_0).
    uint32_t a = channel % g;
    uint32_t b = (channel + 1) % g;
    std::vector<uint32_t> x(m);
    for (uint32_t s = 0; s < m; ++s)
    {
        x[s] = (s % 2 == 0) ? a : b;
    }
    if (m % 2 == 1 && m > 1 && g >= 3)
    {
        x[m - 1] = (channel + 2) % g;
    }
    for (uint32_t s = 0; s < m; ++s)
    {
        uint32_t entry = x[s];
        uint32_t exit = (m == 1) ? (entry + g - 1) % g : x[(s + 1) % m];
        if (exit == entry)
        {
            // Only for g = 2 with an odd server count (last server): leave by the other rank.
            exit = (entry + 1) % g;
        }
        const auto& ranks = m_servers[s];
        ring.push_back(ranks[entry]);
        for (uint32_t k = 1; k < g; ++k)
        {
            uint32_t pos = (entry + k) % g;
            if (pos != exit)
            {
                ring.push_back(ranks[pos]);
            }
        }
        ring.push_back(ranks[exit]);
    }
    return ring;
}

} // namespace ns3
