/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-algorithm.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RingAlgorithm);

TypeId
RingAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RingAlgorithm>();
    return tid;
}

std::string
RingAlgorithm::GetName() const
{
    return "ring";
}

bool
RingAlgorithm::Supports(CollectiveOp op) const
{
    return op == CollectiveOp::ALL_REDUCE || op == CollectiveOp::ALL_GATHER ||
           op == CollectiveOp::REDUCE_SCATTER || op == CollectiveOp::BROADCAST;
}

uint64_t
RingAlgorithm::DoBuild(const CollectiveRequest& request, CollectiveSchedule& schedule) const
{
    const CollectiveLayout& layout = *request.layout;
    uint32_t n = layout.GetNRanks();
    uint32_t nc = request.channels;
    if (request.op == CollectiveOp::BROADCAST)
    {
        uint64_t part = SegmentBytes(request.bytes, nc, request.elementSize);
        std::vector<uint64_t> chunks =
            Chunks(part, request.chunkSize, request.elementSize, request.maxChunks);
        for (uint32_t c = 0; c < nc; ++c)
        {
            std::vector<uint32_t> ring = layout.GetRing(c, request.railAwareRings);
            auto at = std::find(ring.begin(), ring.end(), request.root);
            std::rotate(ring.begin(), at, ring.end());
            std::vector<uint32_t> prev(chunks.size(), COLLECTIVE_NONE);
            std::vector<uint32_t> deps;
            for (uint32_t hop = 0; hop + 1 < n; ++hop)
            {
                for (size_t j = 0; j < chunks.size(); ++j)
                {
                    deps.clear();
                    if (hop > 0)
                    {
                        deps.push_back(prev[j]);
                    }
                    prev[j] = Transfer(request,
                                       schedule,
                                       ring[hop],
                                       ring[hop + 1],
                                       c,
                                       chunks[j],
                                       hop,
                                       deps,
                                       c);
                }
            }
        }
        return part * nc;
    }
    RingKind kind =
        request.op == CollectiveOp::ALL_REDUCE
            ? RING_ALL_REDUCE
            : (request.op == CollectiveOp::ALL_GATHER ? RING_ALL_GATHER : RING_REDUCE_SCATTER);
    uint64_t segment = SegmentBytes(request.bytes, uint64_t(n) * nc, request.elementSize);
    for (uint32_t c = 0; c < nc; ++c)
    {
        AddRing(request,
                schedule,
                layout.GetRing(c, request.railAwareRings),
                kind,
                c,
                segment,
                0,
                {});
    }
    return segment * n * nc;
}

} // namespace ns3
