/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-algorithm.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveAlgorithm");
NS_OBJECT_ENSURE_REGISTERED(CollectiveAlgorithm);

TypeId
CollectiveAlgorithm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveAlgorithm").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

CollectiveAlgorithm::CollectiveAlgorithm() = default;

CollectiveAlgorithm::~CollectiveAlgorithm() = default;

Ptr<CollectiveSchedule>
CollectiveAlgorithm::Build(const CollectiveRequest& request, uint64_t* paddedBytes) const
{
    NS_ABORT_MSG_IF(!request.layout, "CollectiveAlgorithm::Build: the request has no layout");
    NS_ABORT_MSG_IF(!Supports(request.op),
                    "collective algorithm \"" << GetName() << "\" does not implement "
                                              << CollectiveOpName(request.op));
    NS_ABORT_MSG_IF(request.channels == 0,
                    "collective algorithm \"" << GetName() << "\": 0 channels is invalid (>= 1)");
    NS_ABORT_MSG_IF(request.elementSize == 0,
                    "collective algorithm \"" << GetName()
                                              << "\": element size 0 is invalid (>= 1)");
    NS_ABORT_MSG_IF(request.bytes == 0,
                    "collective algorithm \"" << GetName() << "\": size 0 B is invalid (>= 1 "
                                              << "element)");
    uint32_t n = request.layout->GetNRanks();
    NS_ABORT_MSG_IF(request.root >= n,
                    "collective algorithm \"" << GetName() << "\": root " << request.root
                                              << " is not in the communicator (ranks 0.." << n - 1
                                              << ")");
    Ptr<CollectiveSchedule> s = Create<CollectiveSchedule>(n);
    uint64_t padded = DoBuild(request, *s);
    s->Finalize();
    NS_LOG_DEBUG(GetName() << " " << CollectiveOpName(request.op) << " " << request.bytes
                           << " B over " << n << " ranks: " << s->GetNTransfers() << " transfers, "
                           << s->GetNSteps() << " steps");
    if (paddedBytes)
    {
        *paddedBytes = padded;
    }
    return s;
}

uint32_t
CollectiveAlgorithm::Transfer(const CollectiveRequest& request,
                              CollectiveSchedule& schedule,
                              uint32_t src,
                              uint32_t dst,
                              uint32_t channel,
                              uint64_t bytes,
                              uint32_t step,
                              const std::vector<uint32_t>& deps,
                              uint32_t lane)
{
    const CollectiveLayout& layout = *request.layout;
    if (request.pxn && layout.IsCrossRail(src, dst))
    {
        uint32_t relay = layout.FindRank(layout.GetServerIndex(src), layout.GetLocal(dst));
        if (relay != COLLECTIVE_NONE)
        {
            uint32_t atRelay = schedule.AddTransfer(src, relay, channel, bytes, step, deps, lane);
            return schedule
                .AddTransfer(relay, dst, channel, bytes, step, std::vector<uint32_t>{atRelay});
        }
    }
    return schedule.AddTransfer(src, dst, channel, bytes, step, deps, lane);
}

std::vector<std::vector<uint32_t>>
CollectiveAlgorithm::AddRing(const CollectiveRequest& request,
                             CollectiveSchedule& schedule,
                             const std::vector<uint32_t>& ring,
                             RingKind kind,
                             uint32_t channel,
                             uint64_t segmentBytes,
                             uint32_t firstStep,
                             const std::vector<std::vector<uint32_t>>& entryDeps)
{
    size_t n = ring.size();
    std::vector<std::vector<uint32_t>> prev(n);
    if (n <= 1)
    {
        return prev;
    }
    uint32_t steps = static_cast<uint32_t>(kind == RING_ALL_REDUCE ? 2 * (n - 1) : n - 1);
    std::vector<std::vector<uint64_t>> chunks = ChunkSlices(request, segmentBytes);
    std::vector<uint32_t> last(n);
    std::vector<uint32_t> next(n);
    std::vector<uint32_t> deps;
    for (const auto& slices : chunks)
    {
        // One loop iteration: every step, every slice of the step (the slices of step t wait
        // for the same slices of step t-1).
        std::vector<std::vector<uint32_t>> recvd(n, std::vector<uint32_t>(slices.size()));
        for (uint32_t t = 0; t < steps; ++t)
        {
            for (size_t j = 0; j < slices.size(); ++j)
            {
                for (size_t pos = 0; pos < n; ++pos)
                {
                    if (t == 0)
                    {
                        deps = entryDeps.empty() ? std::vector<uint32_t>() : entryDeps[pos];
                    }
                    else
                    {
                        deps.assign(1, recvd[pos][j]);
                    }
                    next[pos] = Transfer(request,
                                         schedule,
                                         ring[pos],
                                         ring[(pos + 1) % n],
                                         channel,
                                         slices[j],
                                         firstStep + t,
                                         deps,
                                         channel);
                }
                for (size_t pos = 0; pos < n; ++pos)
                {
                    recvd[(pos + 1) % n][j] = next[pos];
                }
            }
        }
        for (size_t pos = 0; pos < n; ++pos)
        {
            prev[pos].insert(prev[pos].end(), recvd[pos].begin(), recvd[pos].end());
        }
    }
    return prev;
}

std::vector<std::vector<uint64_t>>
CollectiveAlgorithm::ChunkSlices(const CollectiveRequest& request, uint64_t bytes)
{
    std::vector<std::vector<uint64_t>> out;
    for (uint64_t chunk : Chunks(bytes, request.chunkSize, request.elementSize, request.maxChunks))
    {
        out.push_back(
            Chunks(chunk,
                   (chunk + request.slicesPerChunk - 1) / std::max(1u, request.slicesPerChunk),
                   request.elementSize,
                   std::max(1u, request.slicesPerChunk)));
    }
    return out;
}

uint64_t
CollectiveAlgorithm::SegmentBytes(uint64_t bytes, uint64_t parts, uint32_t elementSize)
{
    uint64_t elements = (bytes + elementSize - 1) / elementSize;
    uint64_t per = std::max<uint64_t>(1, (elements + parts - 1) / parts);
    return per * elementSize;
}

std::vector<uint64_t>
CollectiveAlgorithm::Chunks(uint64_t bytes,
                            uint64_t chunkSize,
                            uint32_t elementSize,
                            uint32_t maxChunks)
{
    NS_ABORT_MSG_IF(maxChunks == 0, "maxChunks 0 is invalid; it must be >= 1");
    uint64_t elements = bytes / elementSize;
    if (chunkSize == 0 || bytes <= chunkSize || elements <= 1)
    {
        return {bytes};
    }
    uint64_t k =
        std::min<uint64_t>({elements, bytes / chunkSize + (bytes % chunkSize != 0), maxChunks});
    std::vector<uint64_t> out(k);
    uint64_t base = elements / k;
    uint64_t extra = elements % k;
    for (uint64_t i = 0; i < k; ++i)
    {
        out[i] = (base + (i < extra ? 1 : 0)) * elementSize;
    }
    return out;
}

} // namespace ns3
