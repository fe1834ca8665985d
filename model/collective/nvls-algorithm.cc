/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nvls-algorithm.h"

#include "collective-layout.h"
#include "double-binary-tree-algorithm.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NvlsAlgorithm);
NS_OBJECT_ENSURE_REGISTERED(NvlsTreeAlgorithm);

TypeId
NvlsAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NvlsAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<NvlsAlgorithm>();
    return tid;
}

std::string
NvlsAlgorithm::GetName() const
{
    return "nvls";
}

bool
NvlsAlgorithm::Supports(CollectiveOp op) const
{
    return op == CollectiveOp::ALL_REDUCE;
}

uint64_t
NvlsAlgorithm::DoBuild(const CollectiveRequest& request, CollectiveSchedule& schedule) const
{
    const CollectiveLayout& layout = *request.layout;
    NS_ABORT_MSG_IF(!layout.HasLocations() || layout.GetNServers() != 1,
                    "NvlsAlgorithm: NVLS runs on the GPUs of one NVSwitch server; this "
                    "communicator has "
                        << (layout.HasLocations() ? std::to_string(layout.GetNServers())
                                                  : std::string("no known"))
                        << " servers (across servers use NVLSTree)");
    const std::vector<uint32_t>& members = layout.GetServerRanks(0);
    const uint32_t n = static_cast<uint32_t>(members.size());
    NS_ABORT_MSG_IF(n < 2, "NvlsAlgorithm: NVLS needs at least 2 GPUs on the server, not " << n);
    const uint32_t nc = request.channels;
    const uint64_t part = SegmentBytes(request.bytes, uint64_t(nc) * n, request.elementSize);
    const std::vector<uint64_t> chunks =
        Chunks(part, request.chunkSize, request.elementSize, request.maxChunks);
    for (uint32_t c = 0; c < nc; ++c)
    {
        for (uint64_t bytes : chunks)
        {
            for (uint32_t head : members)
            {
                schedule.AddNvlsReduceMulticast(head, members, c, bytes, 0, {});
            }
        }
    }
    return part * nc * n;
}

TypeId
NvlsTreeAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NvlsTreeAlgorithm")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<NvlsTreeAlgorithm>();
    return tid;
}

std::string
NvlsTreeAlgorithm::GetName() const
{
    return "nvlstree";
}

bool
NvlsTreeAlgorithm::Supports(CollectiveOp op) const
{
    return op == CollectiveOp::ALL_REDUCE;
}

uint64_t
NvlsTreeAlgorithm::DoBuild(const CollectiveRequest& request, CollectiveSchedule& schedule) const
{
    const CollectiveLayout& layout = *request.layout;
    const uint32_t m = layout.GetNServers();
    NS_ABORT_MSG_IF(!layout.HasLocations() || !layout.IsUniform() || m < 2,
                    "NvlsTreeAlgorithm: NVLSTree needs rank locations, at least 2 servers and "
                    "the same number of ranks on each (this communicator: "
                        << (layout.HasLocations() ? std::to_string(m) : std::string("unknown"))
                        << " servers" << (layout.IsUniform() ? "" : ", uneven") << ")");
    const uint32_t g = static_cast<uint32_t>(layout.GetServerRanks(0).size());
    NS_ABORT_MSG_IF(g < 2, "NvlsTreeAlgorithm: NVLS needs at least 2 GPUs per server, not " << g);
    const uint32_t nc = request.channels;
    const uint64_t part = SegmentBytes(request.bytes, uint64_t(nc) * g, request.elementSize);
    const std::vector<uint64_t> chunks =
        Chunks(part, request.chunkSize, request.elementSize, request.maxChunks);

    std::vector<uint32_t> parent = DoubleBinaryTreeAlgorithm::TreeParents(m);
    std::vector<std::vector<uint32_t>> children(m);
    for (uint32_t p = 0; p < m; ++p)
    {
        if (parent[p] != COLLECTIVE_NONE)
        {
            children[parent[p]].push_back(p);
        }
    }
    std::vector<uint32_t> order{0}; // breadth first from the root
    for (size_t i = 0; i < order.size(); ++i)
    {
        for (uint32_t ch : children[order[i]])
        {
            order.push_back(ch);
        }
    }
    std::vector<std::vector<uint32_t>> upAt(m);
    std::vector<uint32_t> downAt(m, COLLECTIVE_NONE);
    std::vector<uint32_t> deps;
    for (uint32_t c = 0; c < nc; ++c)
    {
        const uint32_t tree = c % 2;
        for (uint32_t h = 0; h < g; ++h)
        {
            auto groupAt = [&](uint32_t p) -> const std::vector<uint32_t>& {
                return layout.GetServerRanks(DoubleBinaryTreeAlgorithm::ServerAt(tree, m, p));
            };
            for (uint64_t bytes : chunks)
            {
                for (auto& v : upAt)
                {
                    v.clear();
                }
                std::vector<uint32_t> rootDeps;
                for (auto it = order.rbegin(); it != order.rend(); ++it)
                {
                    const uint32_t p = *it;
                    const uint32_t head = groupAt(p)[h];
                    deps = upAt[p];
                    deps.push_back(schedule.AddNvlsReduce(head, c, bytes, 0, {}));
                    if (parent[p] == COLLECTIVE_NONE)
                    {
                        rootDeps = deps;
                        continue;
                    }
                    upAt[parent[p]].push_back(Transfer(request,
                                                       schedule,
                                                       head,
                                                       groupAt(parent[p])[h],
                                                       c,
                                                       bytes,
                                                       1,
                                                       deps));
                }
                for (uint32_t p : order)
                {
                    const std::vector<uint32_t>& group = groupAt(p);
                    const uint32_t head = group[h];
                    if (parent[p] == COLLECTIVE_NONE)
                    {
                        deps = rootDeps;
                    }
                    else
                    {
                        deps.assign(1, downAt[p]);
                    }
                    schedule.AddNvlsMulticast(head, group, c, bytes, 3, deps);
                    for (uint32_t child : children[p])
                    {
                        downAt[child] =
                            Transfer(request, schedule, head, groupAt(child)[h], c, bytes, 2, deps);
                    }
                }
            }
        }
    }
    return part * nc * g;
}

} // namespace ns3
