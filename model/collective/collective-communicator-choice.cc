/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: how a communicator's collectives run (CollectiveCommunicator, part 2): NCCL's
 * tuner and the forcing attributes (Algorithm, Protocol, Channels, ChunkSize).
 */
#include "collective-communicator.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ns3
{

bool
CollectiveCommunicator::ParseAlgorithm(const std::string& name, AlgorithmChoice* choice)
{
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    static const std::pair<const char*, AlgorithmChoice> names[] = {
        {"auto", ALGORITHM_AUTO},
        {"ring", ALGORITHM_RING},
        {"tree", ALGORITHM_TREE},
        {"hierarchical", ALGORITHM_HIERARCHICAL},
        {"nvls", ALGORITHM_NVLS},
        {"nvlstree", ALGORITHM_NVLS_TREE},
    };
    for (const auto& [text, value] : names)
    {
        if (n == text)
        {
            *choice = value;
            return true;
        }
    }
    return false;
}

bool
CollectiveCommunicator::ParseProtocol(const std::string& name, ProtocolChoice* choice)
{
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    if (n == "auto")
    {
        *choice = PROTOCOL_AUTO;
        return true;
    }
    NcclProtocol p;
    if (!NcclProtocolFromName(n, &p))
    {
        return false;
    }
    *choice = ProtocolChoice(uint32_t(PROTOCOL_LL) + uint32_t(p));
    return true;
}

NcclSystem
CollectiveCommunicator::DefaultSystem() const
{
    NcclSystem sys;
    sys.nRanks = GetSize();
    bool nvlink = true;
    if (m_layout->HasLocations())
    {
        uint32_t server0 = m_layout->GetServerIndex(0);
        for (uint32_t r = 1; r < GetSize(); ++r)
        {
            if (m_layout->GetServerIndex(r) == server0)
            {
                nvlink = m_transport->GetHopType(m_globalRanks[0], m_globalRanks[r]) ==
                         CollectiveHopType::NVLINK;
                break;
            }
        }
    }
    std::set<uint32_t> servers;
    for (uint32_t r = 0; r < GetSize(); ++r)
    {
        servers.insert(m_layout->HasLocations() ? m_layout->GetServerIndex(r) : r);
    }
    sys.nNodes = static_cast<uint32_t>(servers.size());
    sys.nvlink = nvlink;
    sys.nvswitch = nvlink && HasNvlsEngines();
    sys.uniform = m_layout->IsUniform();
    sys.nicsPerNode = std::max(1u, sys.nRanks / sys.nNodes);
    return sys;
}

void
CollectiveCommunicator::ConfigureTuner(const NcclSystem& system)
{
    NS_ABORT_MSG_IF(system.nRanks != GetSize(),
                    "communicator " << m_name << ": tuner system of " << system.nRanks
                                    << " ranks for a communicator of " << GetSize());
    GetTuner()->Configure(system);
}

CollectiveExecution
CollectiveCommunicator::Choose(CollectiveOp op, uint64_t bytes)
{
    Validate(op, bytes, 0);
    Ptr<NcclTuner> tuner = GetTuner();
    if (!tuner->IsConfigured())
    {
        tuner->Configure(DefaultSystem());
    }
    uint32_t algorithms = ~0u;
    const bool allReduce = op == CollectiveOp::ALL_REDUCE;
    switch (m_algorithm)
    {
    case ALGORITHM_AUTO:
        break;
    case ALGORITHM_RING:
    case ALGORITHM_HIERARCHICAL:
        algorithms = 1u << uint32_t(NcclAlgorithm::RING);
        break;
    case ALGORITHM_TREE:
        algorithms = 1u << uint32_t(allReduce ? NcclAlgorithm::TREE : NcclAlgorithm::RING);
        break;
    case ALGORITHM_NVLS:
        algorithms = 1u << uint32_t(NcclAlgorithm::NVLS);
        break;
    case ALGORITHM_NVLS_TREE:
        algorithms = 1u << uint32_t(NcclAlgorithm::NVLS_TREE);
        break;
    }
    if (m_algorithms[size_t(op)])
    {
        algorithms = 1u << uint32_t(NcclAlgorithm::RING); // a custom schedule, timed as a ring
    }
    uint32_t protocols =
        m_protocol == PROTOCOL_AUTO ? ~0u : 1u << (uint32_t(m_protocol) - uint32_t(PROTOCOL_LL));
    NcclChoice choice = tuner->Select(op, bytes, algorithms, protocols);
    CollectiveExecution e;
    e.algorithm = choice.algorithm;
    e.protocol = choice.protocol;
    e.channels = m_channels ? m_channels : choice.channels;
    e.predictedUs = choice.predictedUs;
    const NcclProtocolInfo& info = GetNcclProtocolInfo(e.protocol);
    e.pieceBytes = info.GetStepDataBytes();
    if (e.algorithm == NcclAlgorithm::NVLS || e.algorithm == NcclAlgorithm::NVLS_TREE)
    {
        // An NVLS step is one chunk (a multimem operation per chunk and head).
        e.pieceBytes = ProtocolChunk(bytes, e);
    }
    e.slots = info.steps;
    e.baseLatency = tuner->GetBaseLatency(e.algorithm, e.protocol);
    // NCCL's step latencies include the wire, which the simulated fabric adds by itself.
    auto software = [&](CollectiveHopType hop) {
        return std::max(Time(0),
                        tuner->GetHopLatency(e.algorithm, e.protocol, hop) -
                            m_hopWire[size_t(hop)]);
    };
    e.nvLinkLatency = software(CollectiveHopType::NVLINK);
    e.networkLatency = software(CollectiveHopType::NETWORK);
    e.channelRate = tuner->GetChannelRateCap(e.algorithm, e.protocol);
    const double rankRate = tuner->GetRankRateCap(e.algorithm, e.protocol);
    if (rankRate > 0)
    {
        const double share = rankRate / e.channels;
        e.channelRate = e.channelRate > 0 ? std::min(e.channelRate, share) : share;
    }
    e.algorithmName = BuilderFor(op, e)->GetName();
    return e;
}

uint64_t
CollectiveCommunicator::ProtocolChunk(uint64_t bytes, const CollectiveExecution& exec) const
{
    if (m_chunkSize > 0)
    {
        return m_chunkSize;
    }
    return m_tuner->GetChunkBytes(exec.algorithm, exec.protocol, bytes, exec.channels);
}

} // namespace ns3
