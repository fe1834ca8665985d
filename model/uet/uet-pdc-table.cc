/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pdc-table.h"

#include "uet-pds-header.h"

#include <cstdlib>

namespace ns3
{

void
UetPdcTable::Init(UetNic* nic, uint32_t port, uint32_t general, uint32_t reserved)
{
    m_nic = nic;
    m_port = port;
    m_pool = std::make_unique<UetPdcIdPool>(general, reserved);
}

UetPdc*
UetPdcTable::FindInitiator(UetDeliveryMode mode, uint32_t jobId, uint32_t dstBits) const
{
    auto it = m_initiator.find(InitiatorKey(mode, jobId, dstBits));
    return it == m_initiator.end() ? nullptr : Get(it->second);
}

UetPdc*
UetPdcTable::FindTarget(uint32_t srcBits, uint16_t spdcid) const
{
    auto it = m_target.find(TargetKey(srcBits, spdcid));
    return it == m_target.end() ? nullptr : Get(it->second);
}

uint16_t
UetPdcTable::Allocate(bool reserved)
{
    return m_pool->Allocate(reserved && m_pool->GetReservedSize() > 0);
}

UetPdc*
UetPdcTable::Slot(uint16_t id)
{
    if (m_pdcs.size() <= id)
    {
        m_pdcs.resize(id + 1);
    }
    if (!m_pdcs[id])
    {
        m_pdcs[id] = std::make_unique<UetPdc>(m_nic, m_port, id);
    }
    return m_pdcs[id].get();
}

UetPdc*
UetPdcTable::OpenInitiator(uint16_t id,
                           UetDeliveryMode mode,
                           uint32_t jobId,
                           Ipv4Address dst,
                           uint32_t startPsn,
                           uint16_t ev)
{
    UetPdc* pdc = Slot(id);
    pdc->OpenInitiator(mode, jobId, dst, startPsn, ev);
    m_initiator[InitiatorKey(mode, jobId, dst.Get())] = id;
    return pdc;
}

UetPdc*
UetPdcTable::OpenTarget(uint16_t id,
                        UetDeliveryMode mode,
                        Ipv4Address src,
                        uint16_t spdcid,
                        uint32_t startPsn,
                        uint16_t ev)
{
    UetPdc* pdc = Slot(id);
    pdc->OpenTarget(mode, src, spdcid, startPsn, ev);
    m_target[TargetKey(src.Get(), spdcid)] = id;
    return pdc;
}

void
UetPdcTable::Forget(const UetPdc& pdc)
{
    auto& index = pdc.GetRole() == UetPdc::INITIATOR ? m_initiator : m_target;
    auto it = index.find(pdc.GetRole() == UetPdc::INITIATOR
                             ? InitiatorKey(pdc.GetMode(), pdc.GetJobId(), pdc.GetPeer().Get())
                             : TargetKey(pdc.GetPeer().Get(), pdc.GetPeerId()));
    if (it != index.end() && it->second == pdc.GetLocalId())
    {
        index.erase(it);
    }
}

void
UetPdcTable::Release(const UetPdc& pdc)
{
    Forget(pdc);
    m_pool->Release(pdc.GetLocalId());
}

uint32_t
UetPdcTable::NextStartPsn(uint32_t drawn)
{
    uint32_t psn = drawn;
    // (|PsnDiff| in 64 bits: std::abs of INT32_MIN, two Start_PSNs 2^31 apart, is undefined.)
    if (m_started &&
        std::abs(int64_t(UetPdsHeader::PsnDiff(psn, m_lastStartPsn))) < (int64_t(1) << 16))
    {
        psn = UetPdsHeader::PsnAdd(m_lastStartPsn, 1 << 17);
    }
    m_lastStartPsn = psn;
    m_started = true;
    return psn;
}

void
UetPdcTable::RequestCloseTargets()
{
    for (auto& p : m_pdcs)
    {
        if (p && p->GetState() != UetPdc::CLOSED && p->GetRole() == UetPdc::TARGET)
        {
            p->RequestClose();
        }
    }
}

void
UetPdcTable::DescribePending(std::ostream& os) const
{
    for (const auto& pdc : m_pdcs)
    {
        if (pdc && pdc->GetState() != UetPdc::CLOSED && pdc->GetPendingOperations() > 0)
        {
            pdc->Describe(os);
            os << "\n";
        }
    }
}

} // namespace ns3
