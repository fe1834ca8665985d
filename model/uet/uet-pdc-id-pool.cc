/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pdc-id-pool.h"

#include "ns3/abort.h"

namespace ns3
{

UetPdcIdPool::UetPdcIdPool(uint32_t general, uint32_t reserved)
    : m_general(general),
      m_reserved(reserved)
{
    NS_ABORT_MSG_IF(general == 0 || uint64_t(general) + reserved > 65535,
                    "UetPdcIdPool: " << general << " general + " << reserved
                                     << " reserved PDCIDs is invalid; the general pool needs >= 1 "
                                        "and both together at most 65535 (16-bit ids, 0 reserved)");
    for (uint32_t id = 1; id <= general; ++id)
    {
        m_freeGeneral.push_back(static_cast<uint16_t>(id));
    }
    for (uint32_t id = general + 1; id <= general + reserved; ++id)
    {
        m_freeReserved.push_back(static_cast<uint16_t>(id));
    }
    m_allocated.assign(general + reserved + 1, false);
}

uint16_t
UetPdcIdPool::Allocate(bool reserved)
{
    std::deque<uint16_t>& pool = reserved ? m_freeReserved : m_freeGeneral;
    if (pool.empty())
    {
        return 0;
    }
    uint16_t id = pool.front();
    pool.pop_front();
    m_allocated[id] = true;
    ++m_nAllocated;
    return id;
}

void
UetPdcIdPool::Release(uint16_t id)
{
    NS_ABORT_MSG_IF(!IsAllocated(id),
                    "UetPdcIdPool::Release: PDCID " << id << " is not allocated (valid ids 1.."
                                                    << m_general + m_reserved << ")");
    m_allocated[id] = false;
    --m_nAllocated;
    (id <= m_general ? m_freeGeneral : m_freeReserved).push_back(id);
}

bool
UetPdcIdPool::IsAllocated(uint16_t id) const
{
    return id != 0 && id < m_allocated.size() && m_allocated[id];
}

uint32_t
UetPdcIdPool::GetNAllocated() const
{
    return m_nAllocated;
}

uint32_t
UetPdcIdPool::GetGeneralSize() const
{
    return m_general;
}

uint32_t
UetPdcIdPool::GetReservedSize() const
{
    return m_reserved;
}

} // namespace ns3
