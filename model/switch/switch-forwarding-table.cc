/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-forwarding-table.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SwitchForwardingTable);

TypeId
SwitchForwardingTable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchForwardingTable")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<SwitchForwardingTable>();
    return tid;
}

SwitchForwardingTable::SwitchForwardingTable()
    : m_nPorts(0),
      m_base(0)
{
}

void
SwitchForwardingTable::SetNPorts(uint32_t nPorts)
{
    m_nPorts = nPorts;
}

uint32_t
SwitchForwardingTable::Index(uint32_t dstIp)
{
    if (m_entries.empty())
    {
        m_base = dstIp;
        m_entries.resize(1);
        return 0;
    }
    if (dstIp < m_base)
    {
        uint32_t shift = m_base - dstIp;
        NS_ABORT_MSG_IF(uint64_t(shift) + m_entries.size() > MAX_SPAN,
                        "SwitchForwardingTable: destination "
                            << Ipv4Address(dstIp) << " makes the address span exceed " << MAX_SPAN
                            << "; number hosts contiguously");
        m_entries.insert(m_entries.begin(), shift, Entry{});
        m_base = dstIp;
        return 0;
    }
    uint32_t idx = dstIp - m_base;
    if (idx >= m_entries.size())
    {
        NS_ABORT_MSG_IF(idx >= MAX_SPAN,
                        "SwitchForwardingTable: destination "
                            << Ipv4Address(dstIp) << " makes the address span exceed " << MAX_SPAN
                            << "; number hosts contiguously");
        m_entries.resize(idx + 1);
    }
    return idx;
}

void
SwitchForwardingTable::SetRoute(Ipv4Address dst, const std::vector<uint32_t>& ports)
{
    NS_ABORT_MSG_IF(ports.empty(), "SwitchForwardingTable: empty port set for " << dst);
    std::vector<uint32_t> sorted(ports);
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i)
    {
        NS_ABORT_MSG_IF(sorted[i] >= m_nPorts,
                        "SwitchForwardingTable: route to " << dst << " names port " << sorted[i]
                                                           << " but the switch has ports 0.."
                                                           << int64_t(m_nPorts) - 1);
        NS_ABORT_MSG_IF(i > 0 && sorted[i] == sorted[i - 1],
                        "SwitchForwardingTable: route to " << dst << " lists port " << sorted[i]
                                                           << " twice");
    }
    NS_ABORT_MSG_IF(sorted.size() > 0xffff,
                    "SwitchForwardingTable: " << sorted.size() << " ports for " << dst);
    auto it = m_dedup.find(sorted);
    uint32_t offset;
    if (it != m_dedup.end())
    {
        offset = it->second;
    }
    else
    {
        offset = static_cast<uint32_t>(m_pool.size());
        m_pool.insert(m_pool.end(), sorted.begin(), sorted.end());
        m_dedup.emplace(sorted, offset);
    }
    uint32_t idx = Index(dst.Get());
    m_entries[idx].offset = offset;
    m_entries[idx].count = static_cast<uint32_t>(sorted.size());
}

void
SwitchForwardingTable::AddRoute(Ipv4Address dst, uint32_t port)
{
    std::vector<uint32_t> ports = GetRoute(dst);
    if (std::find(ports.begin(), ports.end(), port) != ports.end())
    {
        return;
    }
    ports.push_back(port);
    SetRoute(dst, ports);
}

std::vector<uint32_t>
SwitchForwardingTable::GetRoute(Ipv4Address dst) const
{
    const uint32_t* ports = nullptr;
    uint32_t n = 0;
    if (!Lookup(dst.Get(), ports, n))
    {
        return {};
    }
    return std::vector<uint32_t>(ports, ports + n);
}

uint32_t
SwitchForwardingTable::GetNRoutes() const
{
    uint32_t n = 0;
    for (const auto& e : m_entries)
    {
        n += e.count > 0;
    }
    return n;
}

void
SwitchForwardingTable::CheckComplete(const std::vector<Ipv4Address>& dsts) const
{
    for (const auto& d : dsts)
    {
        const uint32_t* ports = nullptr;
        uint32_t n = 0;
        NS_ABORT_MSG_IF(!Lookup(d.Get(), ports, n),
                        "SwitchForwardingTable: no route to destination " << d);
    }
}

uint64_t
SwitchForwardingTable::GetMemoryBytes() const
{
    return m_entries.capacity() * sizeof(Entry) + m_pool.capacity() * sizeof(uint32_t);
}

void
SwitchForwardingTable::Freeze()
{
    m_dedup.clear();
    m_entries.shrink_to_fit();
    m_pool.shrink_to_fit();
}

void
SwitchForwardingTable::Clear()
{
    m_base = 0;
    m_entries.clear();
    m_pool.clear();
    m_dedup.clear();
}

} // namespace ns3
