/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pairwise-alltoall-algorithm.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PairwiseAlltoAllAlgorithm);

TypeId
PairwiseAlltoAllAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PairwiseAlltoAllAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PairwiseAlltoAllAlgorithm>();
    return tid;
}

std::string
PairwiseAlltoAllAlgorithm::GetName() const
{
    return "pairwise";
}

bool
PairwiseAlltoAllAlgorithm::Supports(CollectiveOp op) const
{
    return op == CollectiveOp::ALL_TO_ALL;
}

uint64_t
PairwiseAlltoAllAlgorithm::DoBuild(const CollectiveRequest& request,
                                   CollectiveSchedule& schedule) const
{
    uint32_t n = request.layout->GetNRanks();
    uint32_t nc = request.channels;
    uint64_t block = SegmentBytes(request.bytes, uint64_t(n) * nc, request.elementSize);
    std::vector<uint32_t> prev(n);
    std::vector<uint32_t> next(n);
    std::vector<uint32_t> deps;
    for (uint32_t c = 0; c < nc; ++c)
    {
        std::fill(prev.begin(), prev.end(), COLLECTIVE_NONE);
        for (uint32_t k = 1; k < n; ++k)
        {
            for (uint32_t r = 0; r < n; ++r)
            {
                uint32_t dst = (r + k) % n;
                deps.clear();
                if (prev[r] != COLLECTIVE_NONE)
                {
                    deps.push_back(prev[r]);
                }
                next[dst] = Transfer(request, schedule, r, dst, c, block, k - 1, deps);
            }
            std::swap(prev, next);
        }
    }
    return block * n * nc;
}

} // namespace ns3
