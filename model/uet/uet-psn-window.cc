/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-psn-window.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Largest MP_RANGE the windows accept, PSNs.
constexpr uint32_t MAX_MP_RANGE = 1u << 20;

void
CheckRange(uint32_t mpRange, const char* who)
{
    NS_ABORT_MSG_IF(mpRange == 0 || mpRange > MAX_MP_RANGE,
                    who << ": MP_RANGE " << mpRange << " is invalid; valid range 1.."
                        << MAX_MP_RANGE << " PSNs");
}

} // namespace

// ---- receiver --------------------------------------------------------------------------------

UetReceiveWindow::UetReceiveWindow(uint32_t startPsn, uint32_t mpRange)
    : m_cack(UetPdsHeader::PsnAdd(startPsn, -1)),
      m_range(mpRange)
{
    CheckRange(mpRange, "UetReceiveWindow");
    m_bits.assign((mpRange + 63) / 64, 0);
}

bool
UetReceiveWindow::Test(uint32_t offset) const
{
    uint32_t i = (m_head + offset) % m_range;
    return (m_bits[i / 64] >> (i % 64)) & 1;
}

void
UetReceiveWindow::Set(uint32_t offset)
{
    uint32_t i = (m_head + offset) % m_range;
    m_bits[i / 64] |= uint64_t(1) << (i % 64);
}

UetReceiveWindow::Verdict
UetReceiveWindow::Receive(uint32_t psn)
{
    int32_t d = UetPdsHeader::PsnDiff(psn, m_cack);
    if (d <= 0)
    {
        return DUPLICATE;
    }
    uint32_t offset = static_cast<uint32_t>(d - 1); // from CACK_PSN + 1
    if (offset >= m_range)
    {
        return OUT_OF_WINDOW;
    }
    if (offset > 0)
    {
        if (Test(offset))
        {
            return DUPLICATE;
        }
        Set(offset);
        ++m_beyond;
        return NEW;
    }
    // In order: advance CACK_PSN over every consecutive PSN already received.
    m_cack = psn;
    m_head = (m_head + 1) % m_range;
    while (m_beyond > 0 && Test(0))
    {
        uint32_t i = m_head;
        m_bits[i / 64] &= ~(uint64_t(1) << (i % 64));
        m_cack = UetPdsHeader::PsnAdd(m_cack, 1);
        m_head = (m_head + 1) % m_range;
        --m_beyond;
    }
    return NEW;
}

uint64_t
UetReceiveWindow::GetSackBitmap() const
{
    if (m_beyond == 0)
    {
        return 0;
    }
    uint64_t bitmap = 0;
    uint32_t n = std::min<uint32_t>(64, m_range);
    for (uint32_t i = 1; i < n; ++i) // bit 0 = CACK_PSN + 1, missing by definition
    {
        if (Test(i))
        {
            bitmap |= uint64_t(1) << i;
        }
    }
    return bitmap;
}

// ---- ACK coalescing --------------------------------------------------------------------------

UetAckCoalescer::UetAckCoalescer(uint32_t trigger, uint32_t minPktAdd)
    : m_trigger(trigger),
      m_minAdd(minPktAdd)
{
    NS_ABORT_MSG_IF(trigger == 0, "UetAckCoalescer: ACK_Gen_Trigger 0 is invalid; it must be >= 1");
}

bool
UetAckCoalescer::OnPacket(uint32_t bytes, bool immediate)
{
    m_count += std::max(m_minAdd, bytes);
    if (immediate || m_count >= m_trigger)
    {
        m_count = 0;
        return true;
    }
    return false;
}

// ---- sender ----------------------------------------------------------------------------------

UetSendWindow::UetSendWindow(uint32_t startPsn, uint32_t mpRange)
    : m_range(mpRange),
      m_una(startPsn),
      m_next(startPsn)
{
    CheckRange(mpRange, "UetSendWindow");
    m_ring.resize(mpRange);
}

uint32_t
UetSendWindow::SendNew(uint64_t cookie, Time now, uint32_t bytes)
{
    NS_ABORT_MSG_IF(!CanSend(),
                    "UetSendWindow::SendNew: PSN " << m_next << " is beyond the window (CACK_PSN + "
                                                   << m_range << ")");
    uint32_t psn = m_next;
    Record& r = m_ring[Slot(psn)];
    r = Record();
    r.cookie = cookie;
    r.bytes = bytes;
    m_inflightBytes += bytes;
    r.firstSent = now;
    r.lastSent = now;
    m_next = UetPdsHeader::PsnAdd(m_next, 1);
    ++m_outstanding;
    return psn;
}

bool
UetSendWindow::IsOutstanding(uint32_t psn) const
{
    int32_t d = UetPdsHeader::PsnDiff(psn, m_una);
    return d >= 0 && uint32_t(d) < m_outstanding;
}

UetSendWindow::Record&
UetSendWindow::Get(uint32_t psn)
{
    NS_ABORT_MSG_IF(!IsOutstanding(psn),
                    "UetSendWindow: PSN " << psn << " is not outstanding (" << m_una << ".."
                                          << UetPdsHeader::PsnAdd(m_next, -1) << ")");
    return m_ring[Slot(psn)];
}

uint32_t
UetSendWindow::OnAck(uint32_t cackPsn,
                     uint32_t sackBase,
                     uint64_t bitmap,
                     std::vector<std::pair<uint32_t, Record>>* acked)
{
    uint32_t n = 0;
    // Cumulative: everything up to and including CACK_PSN (bounded by what was sent). In 64
    // bits: a CACK_PSN 2^31 - 1 ahead of the oldest PSN (a stale or forged ACK) made the
    // 32-bit PsnDiff + 1 overflow (undefined behaviour).
    int64_t upto = int64_t(UetPdsHeader::PsnDiff(cackPsn, m_una)) + 1;
    upto = std::min<int64_t>(upto, m_outstanding);
    for (int64_t i = 0; i < upto; ++i)
    {
        Record& r = m_ring[m_headSlot];
        if (!r.sacked)
        {
            if (!r.lost)
            {
                m_inflightBytes -= r.bytes;
            }
            if (acked)
            {
                acked->emplace_back(m_una, r);
            }
            ++n;
        }
        if (r.lost)
        {
            --m_lostCount;
            m_lostBytes -= r.bytes;
        }
        m_headSlot = (m_headSlot + 1) % m_range;
        m_una = UetPdsHeader::PsnAdd(m_una, 1);
        --m_outstanding;
    }
    // Selective: the bits of the bitmap that fall on outstanding PSNs.
    for (uint32_t i = 0; bitmap != 0 && i < 64; ++i)
    {
        if (!((bitmap >> i) & 1))
        {
            continue;
        }
        uint32_t psn = UetPdsHeader::PsnAdd(sackBase, i);
        if (!IsOutstanding(psn))
        {
            continue;
        }
        Record& r = m_ring[Slot(psn)];
        if (r.sacked)
        {
            continue;
        }
        r.sacked = true;
        if (r.lost)
        {
            r.lost = false;
            --m_lostCount;
            m_lostBytes -= r.bytes;
        }
        else
        {
            m_inflightBytes -= r.bytes;
        }
        if (acked)
        {
            acked->emplace_back(psn, r);
        }
        ++n;
    }
    return n;
}

uint32_t
UetSendWindow::SackedAfter(uint32_t k) const
{
    const Record& r = m_ring[(m_headSlot + k) % m_range];
    uint32_t n = 0;
    for (uint32_t j = k + 1; j < m_outstanding; ++j)
    {
        const Record& s = m_ring[(m_headSlot + j) % m_range];
        n += (s.sacked && s.lastSent > r.lastSent) ? 1 : 0;
    }
    return n;
}

uint32_t
UetSendWindow::InferLosses(uint32_t threshold, Time sentBefore, std::vector<uint32_t>* out)
{
    NS_ABORT_MSG_IF(threshold == 0, "UetSendWindow::InferLosses: threshold 0 is invalid (>= 1)");
    // Walk from the newest: a PSN not SACKed with >= threshold SACKed PSNs after it is lost.
    uint32_t later = 0;
    uint32_t marked = 0;
    for (uint32_t k = m_outstanding; k-- > 0;)
    {
        Record& r = m_ring[(m_headSlot + k) % m_range];
        if (r.sacked)
        {
            ++later;
        }
        else if (later >= threshold && !r.lost && r.lastSent < sentBefore &&
                 (r.retx == 0 || SackedAfter(k) >= threshold))
        {
            r.lost = true;
            ++m_lostCount;
            m_lostBytes += r.bytes;
            m_inflightBytes -= r.bytes;
            ++marked;
            if (out)
            {
                out->push_back(UetPdsHeader::PsnAdd(m_una, k));
            }
        }
    }
    return marked;
}

bool
UetSendWindow::MarkLost(uint32_t psn)
{
    if (!IsOutstanding(psn))
    {
        return false;
    }
    Record& r = m_ring[Slot(psn)];
    if (r.sacked || r.lost)
    {
        return false;
    }
    r.lost = true;
    ++m_lostCount;
    m_lostBytes += r.bytes;
    m_inflightBytes -= r.bytes;
    return true;
}

bool
UetSendWindow::NextLost(uint32_t* psn) const
{
    if (m_lostCount == 0)
    {
        return false;
    }
    for (uint32_t k = 0; k < m_outstanding; ++k)
    {
        if (m_ring[(m_headSlot + k) % m_range].lost)
        {
            *psn = UetPdsHeader::PsnAdd(m_una, k);
            return true;
        }
    }
    return false;
}

UetSendWindow::Record&
UetSendWindow::Retransmit(uint32_t psn, Time now)
{
    Record& r = Get(psn);
    NS_ABORT_MSG_IF(!r.lost, "UetSendWindow::Retransmit: PSN " << psn << " is not marked lost");
    r.lost = false;
    --m_lostCount;
    m_lostBytes -= r.bytes;
    m_inflightBytes += r.bytes;
    r.retx++;
    r.lastSent = now;
    return r;
}

bool
UetSendWindow::OldestInFlight(uint32_t* psn) const
{
    bool found = false;
    Time oldest;
    for (uint32_t k = 0; k < m_outstanding; ++k)
    {
        const Record& r = m_ring[(m_headSlot + k) % m_range];
        if (r.sacked || r.lost)
        {
            continue;
        }
        if (!found || r.lastSent < oldest)
        {
            found = true;
            oldest = r.lastSent;
            *psn = UetPdsHeader::PsnAdd(m_una, k);
        }
    }
    return found;
}

} // namespace ns3
