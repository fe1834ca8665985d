/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-schedule.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

CollectiveSchedule::CollectiveSchedule(uint32_t nRanks)
    : m_nRanks(nRanks),
      m_programs(nRanks),
      m_connIndex(nRanks),
      m_laneLast(nRanks),
      m_nTransfers(0),
      m_totalBytes(0),
      m_nSteps(0),
      m_finalized(false)
{
    NS_ABORT_MSG_IF(nRanks == 0, "CollectiveSchedule: 0 ranks is invalid (>= 1)");
}

uint32_t
CollectiveSchedule::AddTransfer(uint32_t src,
                                uint32_t dst,
                                uint32_t channel,
                                uint64_t bytes,
                                uint32_t step,
                                std::initializer_list<uint32_t> deps)
{
    std::vector<uint32_t> d;
    d.reserve(deps.size());
    for (uint32_t x : deps)
    {
        if (x != COLLECTIVE_NONE)
        {
            d.push_back(x);
        }
    }
    return AddTransfer(src, dst, channel, bytes, step, d);
}

uint32_t
CollectiveSchedule::AddTransfer(uint32_t src,
                                uint32_t dst,
                                uint32_t channel,
                                uint64_t bytes,
                                uint32_t step,
                                const std::vector<uint32_t>& deps,
                                uint32_t lane)
{
    NS_ABORT_MSG_IF(m_finalized, "CollectiveSchedule::AddTransfer after Finalize()");
    NS_ABORT_MSG_IF(src >= m_nRanks || dst >= m_nRanks,
                    "CollectiveSchedule::AddTransfer: rank " << (src >= m_nRanks ? src : dst)
                                                             << " is not in the communicator "
                                                                "(ranks 0.."
                                                             << m_nRanks - 1 << ")");
    NS_ABORT_MSG_IF(src == dst,
                    "CollectiveSchedule::AddTransfer: rank " << src << " cannot send to itself");
    Send s;
    s.peer = dst;
    s.channel = channel;
    s.bytes = bytes;
    s.peerRecv = static_cast<uint32_t>(m_programs[dst].recvs.size());
    s.step = step;
    s.kind = CollectiveSendKind::TRANSPORT;
    AddSend(src, s, dst, deps, lane);
    return AddRecv(dst, src, channel, bytes, step, CollectiveSendKind::TRANSPORT);
}

uint32_t
CollectiveSchedule::AddNvlsReduce(uint32_t rank,
                                  uint32_t channel,
                                  uint64_t bytes,
                                  uint32_t step,
                                  const std::vector<uint32_t>& deps,
                                  uint32_t lane)
{
    NS_ABORT_MSG_IF(m_finalized, "CollectiveSchedule::AddNvlsReduce after Finalize()");
    NS_ABORT_MSG_IF(rank >= m_nRanks,
                    "CollectiveSchedule::AddNvlsReduce: rank " << rank
                                                               << " is not in the communicator");
    NS_ABORT_MSG_IF(bytes == 0, "CollectiveSchedule::AddNvlsReduce: 0 bytes is invalid (> 0)");
    Send s;
    s.peer = rank;
    s.channel = channel;
    s.bytes = bytes;
    s.peerRecv = static_cast<uint32_t>(m_programs[rank].recvs.size());
    s.step = step;
    s.kind = CollectiveSendKind::NVLS_REDUCE;
    AddSend(rank, s, m_nRanks, deps, lane);
    return AddRecv(rank, rank, channel, bytes, step, CollectiveSendKind::NVLS_REDUCE);
}

std::vector<uint32_t>
CollectiveSchedule::AddNvlsMulticast(uint32_t rank,
                                     const std::vector<uint32_t>& members,
                                     uint32_t channel,
                                     uint64_t bytes,
                                     uint32_t step,
                                     const std::vector<uint32_t>& deps,
                                     uint32_t lane)
{
    return AddGroupSend(CollectiveSendKind::NVLS_MULTICAST,
                        rank,
                        members,
                        channel,
                        bytes,
                        step,
                        deps,
                        lane);
}

std::vector<uint32_t>
CollectiveSchedule::AddNvlsReduceMulticast(uint32_t rank,
                                           const std::vector<uint32_t>& members,
                                           uint32_t channel,
                                           uint64_t bytes,
                                           uint32_t step,
                                           const std::vector<uint32_t>& deps,
                                           uint32_t lane)
{
    return AddGroupSend(CollectiveSendKind::NVLS_REDUCE_MULTICAST,
                        rank,
                        members,
                        channel,
                        bytes,
                        step,
                        deps,
                        lane);
}

std::vector<uint32_t>
CollectiveSchedule::AddGroupSend(CollectiveSendKind kind,
                                 uint32_t rank,
                                 const std::vector<uint32_t>& members,
                                 uint32_t channel,
                                 uint64_t bytes,
                                 uint32_t step,
                                 const std::vector<uint32_t>& deps,
                                 uint32_t lane)
{
    NS_ABORT_MSG_IF(m_finalized, "CollectiveSchedule::AddNvlsMulticast after Finalize()");
    NS_ABORT_MSG_IF(rank >= m_nRanks || bytes == 0 ||
                        std::find(members.begin(), members.end(), rank) == members.end(),
                    "CollectiveSchedule::AddNvlsMulticast: rank "
                        << rank << " must be in the communicator and among the " << members.size()
                        << " members, with > 0 bytes (" << bytes << ")");
    Program& p = m_programs[rank];
    Send s;
    s.peer = rank;
    s.channel = channel;
    s.bytes = bytes;
    s.peerRecv = static_cast<uint32_t>(p.targetBegin.size() - 1);
    s.step = step;
    s.kind = kind;
    AddSend(rank, s, m_nRanks + 1, deps, lane);
    std::vector<uint32_t> recvs;
    recvs.reserve(members.size());
    for (uint32_t m : members)
    {
        NS_ABORT_MSG_IF(m >= m_nRanks,
                        "CollectiveSchedule::AddNvlsMulticast: member " << m
                                                                        << " is not in the "
                                                                           "communicator");
        recvs.push_back(AddRecv(m, rank, channel, bytes, step, kind));
        p.targets.push_back(Target{m, recvs.back()});
    }
    p.targetBegin.push_back(static_cast<uint32_t>(p.targets.size()));
    return recvs;
}

uint32_t
CollectiveSchedule::AddSend(uint32_t src,
                            Send s,
                            uint32_t connPeer,
                            const std::vector<uint32_t>& deps,
                            uint32_t lane)
{
    Program& sp = m_programs[src];
    uint64_t key = (uint64_t(connPeer) << 32) | s.channel;
    auto it = m_connIndex[src].find(key);
    if (it == m_connIndex[src].end())
    {
        it = m_connIndex[src].emplace(key, sp.nConns++).first;
    }
    s.conn = it->second;
    s.depBegin = static_cast<uint32_t>(sp.deps.size());
    for (uint32_t d : deps)
    {
        NS_ABORT_MSG_IF(d >= sp.recvs.size(),
                        "CollectiveSchedule: dependency "
                            << d << " of rank " << src << " is not one of its " << sp.recvs.size()
                            << " receives");
        sp.deps.push_back(d);
    }
    s.depEnd = static_cast<uint32_t>(sp.deps.size());
    s.lanePrev = COLLECTIVE_NONE;
    s.laneNext = COLLECTIVE_NONE;
    uint32_t index = static_cast<uint32_t>(sp.sends.size());
    if (lane != COLLECTIVE_NONE)
    {
        auto [at, fresh] = m_laneLast[src].emplace(lane, index);
        if (!fresh)
        {
            s.lanePrev = at->second;
            sp.sends[at->second].laneNext = index;
            at->second = index;
        }
    }
    sp.sends.push_back(s);
    sp.bytesSent += s.bytes;
    m_nSteps = std::max(m_nSteps, s.step + 1);
    return index;
}

uint32_t
CollectiveSchedule::AddRecv(uint32_t dst,
                            uint32_t src,
                            uint32_t channel,
                            uint64_t bytes,
                            uint32_t step,
                            CollectiveSendKind kind)
{
    Program& dp = m_programs[dst];
    Recv r;
    r.peer = src;
    r.channel = channel;
    r.bytes = bytes;
    r.step = step;
    r.dependentBegin = 0;
    r.dependentEnd = 0;
    r.kind = kind;
    dp.recvs.push_back(r);
    dp.bytesReceived += bytes;
    m_nTransfers++;
    m_totalBytes += bytes;
    return static_cast<uint32_t>(dp.recvs.size() - 1);
}

void
CollectiveSchedule::Finalize()
{
    if (m_finalized)
    {
        return;
    }
    for (Program& p : m_programs)
    {
        // Counting sort of (recv -> dependent sends).
        std::vector<uint32_t> count(p.recvs.size() + 1, 0);
        for (uint32_t d : p.deps)
        {
            count[d + 1]++;
        }
        for (size_t i = 1; i < count.size(); ++i)
        {
            count[i] += count[i - 1];
        }
        for (size_t i = 0; i < p.recvs.size(); ++i)
        {
            p.recvs[i].dependentBegin = count[i];
            p.recvs[i].dependentEnd = count[i + 1];
        }
        p.dependents.assign(p.deps.size(), 0);
        std::vector<uint32_t> fill(count.begin(), count.end() - 1);
        for (uint32_t s = 0; s < p.sends.size(); ++s)
        {
            for (uint32_t k = p.sends[s].depBegin; k < p.sends[s].depEnd; ++k)
            {
                p.dependents[fill[p.deps[k]]++] = s;
            }
        }
    }
    m_connIndex.clear();
    m_connIndex.shrink_to_fit();
    m_laneLast.clear();
    m_laneLast.shrink_to_fit();
    m_finalized = true;
}

uint32_t
CollectiveSchedule::GetNRanks() const
{
    return m_nRanks;
}

const CollectiveSchedule::Program&
CollectiveSchedule::GetProgram(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_nRanks,
                    "CollectiveSchedule: rank " << rank << " is not in the communicator (ranks 0.."
                                                << m_nRanks - 1 << ")");
    return m_programs[rank];
}

uint64_t
CollectiveSchedule::GetNTransfers() const
{
    return m_nTransfers;
}

uint64_t
CollectiveSchedule::GetTotalBytes() const
{
    return m_totalBytes;
}

uint32_t
CollectiveSchedule::GetNSteps() const
{
    return m_nSteps;
}

} // namespace ns3
