/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hierarchical-allreduce-algorithm.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(HierarchicalAllReduceAlgorithm);

TypeId
HierarchicalAllReduceAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HierarchicalAllReduceAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<HierarchicalAllReduceAlgorithm>();
    return tid;
}

std::string
HierarchicalAllReduceAlgorithm::GetName() const
{
    return "hierarchical";
}

bool
HierarchicalAllReduceAlgorithm::Supports(CollectiveOp op) const
{
    return op == CollectiveOp::ALL_REDUCE;
}

uint64_t
HierarchicalAllReduceAlgorithm::DoBuild(const CollectiveRequest& request,
                                        CollectiveSchedule& schedule) const
{
    const CollectiveLayout& layout = *request.layout;
    NS_ABORT_MSG_IF(!layout.HasLocations(),
                    "hierarchical AllReduce needs rank locations (server, local); set them with "
                    "CollectiveHelper::SetRankLocations");
    uint32_t m = layout.GetNServers();
    uint32_t g = static_cast<uint32_t>(layout.GetServerRanks(0).size());
    for (uint32_t s = 1; s < m; ++s)
    {
        NS_ABORT_MSG_IF(layout.GetServerRanks(s).size() != g,
                        "hierarchical AllReduce needs the same number of ranks on every server: "
                        "server index "
                            << s << " has " << layout.GetServerRanks(s).size()
                            << ", server index 0 has " << g);
    }
    uint32_t n = layout.GetNRanks();
    uint32_t nc = request.channels;
    uint64_t seg1 = SegmentBytes(request.bytes, uint64_t(g) * nc, request.elementSize);
    uint64_t seg2 = SegmentBytes(seg1, m, request.elementSize);
    uint32_t phase2Step = g - 1;
    uint32_t phase3Step = phase2Step + 2 * (m - 1);
    std::vector<std::vector<uint32_t>> done(n); // per rank: receives ending the last phase
    std::vector<std::vector<uint32_t>> entry;
    for (uint32_t c = 0; c < nc; ++c)
    {
        for (auto& v : done)
        {
            v.clear();
        }
        // Phase 1: reduce-scatter inside every server.
        std::vector<std::vector<uint32_t>> serverRing(m);
        for (uint32_t s = 0; s < m; ++s)
        {
            const auto& ranks = layout.GetServerRanks(s);
            for (uint32_t i = 0; i < g; ++i)
            {
                serverRing[s].push_back(ranks[(c + i) % g]);
            }
            auto exit =
                AddRing(request, schedule, serverRing[s], RING_REDUCE_SCATTER, c, seg1, 0, {});
            for (uint32_t i = 0; i < g; ++i)
            {
                done[serverRing[s][i]] = exit[i];
            }
        }
        // Phase 2: one AllReduce ring per position (rail) across servers.
        if (m > 1)
        {
            for (uint32_t q = 0; q < g; ++q)
            {
                std::vector<uint32_t> ring;
                for (uint32_t s = 0; s < m; ++s)
                {
                    ring.push_back(layout.GetServerRanks(s)[q]);
                }
                entry.clear();
                for (uint32_t r : ring)
                {
                    entry.push_back(done[r]);
                }
                auto exit =
                    AddRing(request, schedule, ring, RING_ALL_REDUCE, c, seg2, phase2Step, entry);
                for (uint32_t i = 0; i < m; ++i)
                {
                    done[ring[i]] = exit[i];
                }
            }
        }
        // Phase 3: all-gather inside every server.
        for (uint32_t s = 0; s < m; ++s)
        {
            entry.clear();
            for (uint32_t r : serverRing[s])
            {
                entry.push_back(done[r]);
            }
            AddRing(request, schedule, serverRing[s], RING_ALL_GATHER, c, seg1, phase3Step, entry);
        }
    }
    return std::max(seg1, seg2 * m) * g * nc;
}

} // namespace ns3
