/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-message-sender.h"

#include "uet-nic.h"
#include "uet-ses-header.h"
#include "uet-ses-request-header.h"
#include "uet-ses-response-header.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

namespace
{
using Ses = UetSesHeader;
} // namespace

UetMessageSender::UetMessageSender(UetNic* nic, uint32_t port)
    : m_nic(nic),
      m_core(nic->GetCorePtr()),
      m_port(port)
{
}

void
UetMessageSender::OnRttSample(Time rtt)
{
    // RFC 6298 section 2: SRTT and RTTVAR; RTO = SRTT + 4 RTTVAR, at least RtoMin.
    if (m_srtt.IsZero())
    {
        m_srtt = rtt;
        m_rttvar = rtt / 2;
    }
    else
    {
        Time diff = m_srtt > rtt ? m_srtt - rtt : rtt - m_srtt;
        m_rttvar = (m_rttvar * 3 + diff) / 4;
        m_srtt = (m_srtt * 7 + rtt) / 8;
    }
    m_rtoBase = std::min(std::max(m_nic->GetRtoMin(), m_srtt + m_rttvar * 4), m_nic->GetRtoMax());
}

void
UetMessageSender::Unschedule(EventId& event)
{
    if (compat::IsPending(event))
    {
        Simulator::Remove(event); // not Cancel: a cancelled event would still move the clock
    }
}

void
UetMessageSender::ResetMessages()
{
    m_srtt = Time(0);
    m_rttvar = Time(0);
    m_rtoBase = Time(0);
    m_msgs.clear();
    m_completed.clear();
    m_baseSeq = 0;
    m_sendIdx = 0;
    m_pendingOps = 0;
}

void
UetMessageSender::Enqueue(UetTxMessage m)
{
    uint64_t mtu = m_nic->GetMtu();
    bool readRequest = m.op == UetOperation::READ && !m.readResponse;
    m.npkts = readRequest || m.bytes == 0 ? 1 : static_cast<uint32_t>((m.bytes + mtu - 1) / mtu);
    if (!m.readResponse)
    {
        m.msgId = static_cast<uint16_t>(m_baseSeq + m_msgs.size());
        m_pendingOps++;
    }
    m_msgs.push_back(std::move(m));
}

uint64_t
UetMessageSender::TakeNewPacket()
{
    UetTxMessage& m = m_msgs[m_sendIdx];
    uint32_t k = m.nextPkt++;
    uint64_t cookie = (uint64_t(m_baseSeq + m_sendIdx) << 32) | k;
    while (m_sendIdx < m_msgs.size() && m_msgs[m_sendIdx].nextPkt >= m_msgs[m_sendIdx].npkts)
    {
        m_sendIdx++;
    }
    return cookie;
}

uint32_t
UetMessageSender::WriteSes(uint8_t* out, UetTxMessage& m, uint32_t k, Time now)
{
    if (!m.started)
    {
        m.started = true;
        m.startTime = now;
    }
    uint32_t payload = PayloadOf(m, k);
    uint64_t offsetInMsg = uint64_t(k) * m_nic->GetMtu();
    if (m.readResponse)
    {
        return UetSesResponseDataHeader::WriteFields(out,
                                                     Ses::RC_OK,
                                                     m.msgId,
                                                     m.target.jobId,
                                                     m.msgId,
                                                     static_cast<uint16_t>(payload),
                                                     static_cast<uint32_t>(m.bytes),
                                                     static_cast<uint32_t>(offsetInMsg));
    }
    bool last = k + 1 == m.npkts;
    uint8_t sesFlags = (k == 0 ? Ses::FLAG_SOM : 0) | (last ? Ses::FLAG_EOM : 0) |
                       (m.hasHeaderData ? Ses::FLAG_HD : 0);
    uint64_t hd = k == 0
                      ? m.headerData
                      : UetSesRequestHeader::PackLengthOffset(static_cast<uint16_t>(payload),
                                                              static_cast<uint32_t>(offsetInMsg));
    return UetSesRequestHeader::WriteFields(out,
                                            UetOperationOpcode(m.op),
                                            sesFlags,
                                            m.msgId,
                                            0,
                                            m.target.jobId,
                                            m.target.pidOnFep,
                                            m.target.resource,
                                            m.offset,
                                            m.initiator,
                                            m.key,
                                            hd,
                                            static_cast<uint32_t>(m.bytes));
}

void
UetMessageSender::FailAll(const std::string& error)
{
    for (auto& m : m_msgs)
    {
        Complete(m, false, Ses::RC_NULL, error);
    }
}

std::vector<std::pair<UetCompletion, UetCompletionCallback>>
UetMessageSender::TakeCompleted()
{
    std::vector<std::pair<UetCompletion, UetCompletionCallback>> done;
    done.swap(m_completed);
    return done;
}

uint64_t
UetMessageSender::GetPendingBytes() const
{
    uint64_t n = 0;
    for (const auto& m : m_msgs)
    {
        n += (!m.done && !m.readResponse) ? m.bytes : 0;
    }
    return n;
}

uint32_t
UetMessageSender::PayloadOf(const UetTxMessage& m, uint32_t k) const
{
    if (m.op == UetOperation::READ && !m.readResponse)
    {
        return 0; // the READ request carries no data
    }
    uint64_t mtu = m_nic->GetMtu();
    uint64_t at = uint64_t(k) * mtu;
    return at >= m.bytes ? 0 : static_cast<uint32_t>(std::min(mtu, m.bytes - at));
}

void
UetMessageSender::GetUnsent(uint64_t* pkts, uint64_t* bytes) const
{
    uint64_t n = 0;
    uint64_t b = 0;
    uint64_t mtu = m_nic->GetMtu();
    for (size_t i = m_sendIdx; i < m_msgs.size(); ++i)
    {
        const UetTxMessage& m = m_msgs[i];
        if (m.nextPkt >= m.npkts)
        {
            continue;
        }
        n += m.npkts - m.nextPkt;
        bool data = !(m.op == UetOperation::READ && !m.readResponse);
        uint64_t at = uint64_t(m.nextPkt) * mtu;
        b += data && at < m.bytes ? m.bytes - at : 0;
    }
    *pkts = n;
    *bytes = b;
}

Time
UetMessageSender::Rto(uint32_t retx) const
{
    Time rto = m_rtoBase.IsZero() ? m_nic->GetRtoMin() : m_rtoBase;
    Time max = m_nic->GetRtoMax();
    for (uint32_t i = 0; i < retx && rto < max; ++i)
    {
        rto = rto * 2;
    }
    return std::min(rto, max);
}

UetTxMessage*
UetMessageSender::FindTx(uint32_t seq)
{
    uint32_t i = seq - m_baseSeq;
    return i < m_msgs.size() ? &m_msgs[i] : nullptr;
}

UetTxMessage*
UetMessageSender::FindTxByMsgId(uint16_t msgId)
{
    uint32_t seq = m_baseSeq + static_cast<uint16_t>(msgId - static_cast<uint16_t>(m_baseSeq));
    UetTxMessage* m = FindTx(seq);
    return (m && !m->readResponse && m->msgId == msgId) ? m : nullptr;
}

void
UetMessageSender::Complete(UetTxMessage& m, bool ok, uint8_t rc, const std::string& error)
{
    if (m.done)
    {
        return;
    }
    m.done = true;
    if (m.readResponse)
    {
        return;
    }
    m_pendingOps--;
    UetCompletion c;
    c.id = m.opId;
    c.op = m.op;
    c.mode = m_mode;
    c.target = m.target;
    c.bytes = m.bytes;
    c.modifiedBytes = m.op == UetOperation::READ ? m.readReceived : m.modified;
    c.postTime = m.postTime;
    c.startTime = m.started ? m.startTime : m_core->Now();
    c.endTime = m_core->Now();
    c.returnCode = rc;
    c.retransmissions = m.retransmissions;
    c.ok = ok;
    c.error = error;
    m_completed.emplace_back(std::move(c), m.cb);
    m.cb = UetCompletionCallback();
}

void
UetMessageSender::MaybeComplete(UetTxMessage& m)
{
    if (m.done || m.ackedPkts < m.npkts)
    {
        return;
    }
    if (m.readResponse)
    {
        m.done = true;
        return;
    }
    if (m.returnCode != Ses::RC_OK)
    {
        std::ostringstream why;
        why << "target " << m.target.fep << " returned " << Ses::ReturnCodeName(m.returnCode);
        Complete(m, false, m.returnCode, why.str());
        return;
    }
    if (m.op == UetOperation::READ && m.readReceived < m.bytes)
    {
        return; // the data is still coming
    }
    Complete(m, true, Ses::RC_OK, "");
}

void
UetMessageSender::Retire()
{
    while (!m_msgs.empty() && m_msgs.front().done)
    {
        m_msgs.pop_front();
        m_baseSeq++;
        if (m_sendIdx > 0)
        {
            m_sendIdx--;
        }
    }
}

void
UetMessageSender::Flush()
{
    if (m_completed.empty())
    {
        return;
    }
    std::vector<std::pair<UetCompletion, UetCompletionCallback>> done;
    done.swap(m_completed);
    for (const auto& [c, cb] : done)
    {
        m_nic->NotifyCompletion(c, cb);
    }
}

} // namespace ns3
