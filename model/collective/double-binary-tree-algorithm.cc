/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "double-binary-tree-algorithm.h"

#include "ns3/abort.h"

#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DoubleBinaryTreeAlgorithm);

namespace
{

/// The number in [lo, hi] (1 <= lo <= hi) with the most trailing zero bits.
uint32_t
MostTrailingZeros(uint32_t lo, uint32_t hi)
{
    uint32_t p = 1;
    while (p <= hi / 2)
    {
        p *= 2;
    }
    for (; p >= 1; p /= 2)
    {
        uint64_t x = (uint64_t(lo) + p - 1) / p * p;
        if (x <= hi)
        {
            return static_cast<uint32_t>(x);
        }
    }
    return lo;
}

/// Root the interval [lo, hi] (lo >= 1) under \p parent; iterative to bound the stack.
void
BuildInterval(uint32_t lo, uint32_t hi, uint32_t parent, std::vector<uint32_t>& parents)
{
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> todo{{lo, hi, parent}};
    while (!todo.empty())
    {
        auto [a, b, up] = todo.back();
        todo.pop_back();
        if (a > b)
        {
            continue;
        }
        uint32_t r = MostTrailingZeros(a, b);
        parents[r] = up;
        if (r > a)
        {
            todo.emplace_back(a, r - 1, r);
        }
        if (r < b)
        {
            todo.emplace_back(r + 1, b, r);
        }
    }
}

} // namespace

TypeId
DoubleBinaryTreeAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DoubleBinaryTreeAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<DoubleBinaryTreeAlgorithm>();
    return tid;
}

std::string
DoubleBinaryTreeAlgorithm::GetName() const
{
    return "tree";
}

bool
DoubleBinaryTreeAlgorithm::Supports(CollectiveOp op) const
{
    return op == CollectiveOp::ALL_REDUCE;
}

std::vector<uint32_t>
DoubleBinaryTreeAlgorithm::TreeParents(uint32_t m)
{
    NS_ABORT_MSG_IF(m == 0, "DoubleBinaryTreeAlgorithm: a tree of 0 positions is invalid");
    std::vector<uint32_t> parents(m, COLLECTIVE_NONE);
    if (m > 1)
    {
        BuildInterval(1, m - 1, 0, parents);
    }
    return parents;
}

uint32_t
DoubleBinaryTreeAlgorithm::ServerAt(uint32_t tree, uint32_t m, uint32_t position)
{
    if (tree == 0)
    {
        return position;
    }
    return m % 2 == 0 ? m - 1 - position : (position + m - 1) % m;
}

uint64_t
DoubleBinaryTreeAlgorithm::DoBuild(const CollectiveRequest& request,
                                   CollectiveSchedule& schedule) const
{
    const CollectiveLayout& layout = *request.layout;
    uint32_t m = layout.GetNServers();
    uint32_t nc = request.channels;
    uint64_t part = SegmentBytes(request.bytes, 2 * uint64_t(nc), request.elementSize);
    std::vector<uint64_t> chunks;
    for (const auto& slices : ChunkSlices(request, part))
    {
        chunks.insert(chunks.end(), slices.begin(), slices.end());
    }
    std::vector<uint32_t> parentPos = TreeParents(m);
    std::vector<std::vector<uint32_t>> childPos(m);
    for (uint32_t p = 0; p < m; ++p)
    {
        if (parentPos[p] != COLLECTIVE_NONE)
        {
            childPos[parentPos[p]].push_back(p);
        }
    }
    // Breadth-first order from the root: parents before children (reverse: children first).
    std::vector<uint32_t> order{0};
    for (size_t i = 0; i < order.size(); ++i)
    {
        for (uint32_t c : childPos[order[i]])
        {
            order.push_back(c);
        }
    }

    std::vector<std::vector<uint32_t>> chain(m); // per position: chain ranks, head first
    std::vector<std::vector<uint32_t>> upAtHead(m);
    std::vector<uint32_t> downAtHead(m);
    std::vector<uint32_t> deps;
    for (uint32_t c = 0; c < nc; ++c)
    {
        for (uint32_t t = 0; t < 2; ++t)
        {
            // Lanes of a rank (NCCL's split tree kernel: one group of warps reduces up, one
            // broadcasts down, each chunk after chunk): up, down to each tree child, down the
            // chain.
            const uint32_t laneUp = (2 * c + t) * 4;
            for (uint32_t p = 0; p < m; ++p)
            {
                const auto& ranks = layout.GetServerRanks(ServerAt(t, m, p));
                uint32_t g = static_cast<uint32_t>(ranks.size());
                uint32_t head = c % g; // both trees of a channel on one NIC: they balance
                chain[p].clear();
                for (uint32_t i = 0; i < g; ++i)
                {
                    chain[p].push_back(ranks[(head + i) % g]);
                }
            }
            for (uint64_t bytes : chunks)
            {
                for (auto& v : upAtHead)
                {
                    v.clear();
                }
                // Up: children before parents.
                for (auto it = order.rbegin(); it != order.rend(); ++it)
                {
                    uint32_t p = *it;
                    const auto& ch = chain[p];
                    uint32_t fromNext = COLLECTIVE_NONE;
                    for (size_t i = ch.size() - 1; i >= 1; --i)
                    {
                        fromNext =
                            Transfer(request,
                                     schedule,
                                     ch[i],
                                     ch[i - 1],
                                     c,
                                     bytes,
                                     0,
                                     fromNext == COLLECTIVE_NONE ? std::vector<uint32_t>()
                                                                 : std::vector<uint32_t>{fromNext},
                                     laneUp);
                    }
                    if (fromNext != COLLECTIVE_NONE)
                    {
                        upAtHead[p].push_back(fromNext);
                    }
                    if (parentPos[p] != COLLECTIVE_NONE)
                    {
                        uint32_t up = parentPos[p];
                        upAtHead[up].push_back(Transfer(request,
                                                        schedule,
                                                        ch[0],
                                                        chain[up][0],
                                                        c,
                                                        bytes,
                                                        1,
                                                        upAtHead[p],
                                                        laneUp));
                    }
                }
                // Down: parents before children.
                for (uint32_t p : order)
                {
                    const auto& ch = chain[p];
                    if (parentPos[p] == COLLECTIVE_NONE)
                    {
                        deps = upAtHead[p];
                    }
                    else
                    {
                        deps.assign(1, downAtHead[p]);
                    }
                    for (size_t k = 0; k < childPos[p].size(); ++k)
                    {
                        uint32_t child = childPos[p][k];
                        downAtHead[child] = Transfer(request,
                                                     schedule,
                                                     ch[0],
                                                     chain[child][0],
                                                     c,
                                                     bytes,
                                                     2,
                                                     deps,
                                                     laneUp + 1 + uint32_t(k));
                    }
                    for (size_t i = 0; i + 1 < ch.size(); ++i)
                    {
                        uint32_t got = Transfer(request,
                                                schedule,
                                                ch[i],
                                                ch[i + 1],
                                                c,
                                                bytes,
                                                3,
                                                deps,
                                                laneUp + 3);
                        deps.assign(1, got);
                    }
                }
            }
        }
    }
    return part * 2 * nc;
}

} // namespace ns3
