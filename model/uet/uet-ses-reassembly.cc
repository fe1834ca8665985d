/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-ses-reassembly.h"

#include "uet-endpoint.h"
#include "uet-nic.h"
#include "uet-ses-header.h"

#include "ns3/fabric-wire-header.h"

#include <algorithm>
#include <vector>

namespace ns3
{

namespace
{
using Ses = UetSesHeader;

/// The operation of an SES request opcode; false if the model does not carry it.
bool
OperationOf(uint8_t opcode, UetOperation* op)
{
    switch (opcode)
    {
    case Ses::WRITE:
        *op = UetOperation::WRITE;
        return true;
    case Ses::READ:
        *op = UetOperation::READ;
        return true;
    case Ses::SEND:
        *op = UetOperation::SEND;
        return true;
    case Ses::TAGGED_SEND:
        *op = UetOperation::TAGGED_SEND;
        return true;
    default:
        return false;
    }
}
} // namespace

UetSesReassembly::UetSesReassembly(UetNic* nic, uint32_t port, uint32_t maxMessages)
    : m_nic(nic),
      m_port(port),
      m_max(maxMessages)
{
}

void
UetSesReassembly::Abandon(const Message& m)
{
    if (m.ep && m.matchId != 0)
    {
        m.ep->Abandon(m.matchId);
    }
}

void
UetSesReassembly::Clear()
{
    // Oldest first (match handles grow), so receives given back go to messages in order.
    std::vector<const Message*> admitted;
    for (const auto& [id, m] : m_msgs)
    {
        admitted.push_back(&m);
    }
    std::sort(admitted.begin(), admitted.end(), [](const Message* a, const Message* b) {
        return a->matchId < b->matchId;
    });
    for (const Message* m : admitted)
    {
        Abandon(*m);
    }
    m_msgs.clear();
    m_order.clear();
}

uint32_t
UetSesReassembly::GetNMessages() const
{
    return static_cast<uint32_t>(m_msgs.size());
}

uint64_t
UetSesReassembly::GetNEvicted() const
{
    return m_evicted;
}

UetSesReassembly::Outcome
UetSesReassembly::Receive(Ipv4Address src, const uint8_t* s, uint32_t payload, Time now)
{
    Outcome out;
    uint8_t opcode = s[0] & 0x3F;
    uint8_t sesFlags = s[1] & 0x3F;
    out.msgId = wire::GetU16(s + 2);
    auto it = m_msgs.find(out.msgId);
    if (it == m_msgs.end())
    {
        // The message's first packet to arrive (any of them): the SES decides.
        Message m;
        uint32_t jobId = wire::GetU24(s + 5);
        uint16_t pid = wire::GetU16(s + 8) & 0xFFF;
        uint16_t ri = wire::GetU16(s + 10) & 0xFFF;
        uint64_t bufferOffset = wire::GetU64(s + 12);
        uint64_t key = wire::GetU64(s + 24);
        m.bytes = wire::GetU32(s + 40);
        UetDelivery& d = m.delivery;
        d.initiatorFep = src;
        d.initiator = wire::GetU32(s + 20);
        d.jobId = jobId;
        d.pidOnFep = pid;
        d.resource = ri;
        d.bytes = m.bytes;
        d.key = key;
        d.offset = bufferOffset;
        d.firstTime = now;
        if (!OperationOf(opcode, &m.op))
        {
            m.rc = Ses::RC_UNSUPPORTED_OP;
        }
        else
        {
            d.op = m.op;
            m.rc = m_nic->FindTarget(m_port, jobId, pid, &m.ep);
            if (m.rc == Ses::RC_OK)
            {
                m.rc = m.ep->Admit(m.op, ri, key, bufferOffset, m.bytes, &m.matchId);
            }
        }
        it = m_msgs.emplace(out.msgId, std::move(m)).first;
        if (m_max > 0)
        {
            // Forget the ids of messages that completed; compact if a long-lived one keeps
            // them queued behind it, so the list stays O(limit).
            while (!m_order.empty() && m_msgs.count(m_order.front()) == 0)
            {
                m_order.pop_front();
            }
            if (m_order.size() > 4 * size_t(m_max))
            {
                std::deque<uint16_t> live;
                for (uint16_t id : m_order)
                {
                    if (m_msgs.count(id) > 0)
                    {
                        live.push_back(id);
                    }
                }
                m_order.swap(live);
            }
            m_order.push_back(out.msgId);
            while (m_msgs.size() > m_max && !m_order.empty())
            {
                // The oldest partly arrived message will not complete (UUD lost a packet):
                // its endpoint forgets it too (else its receive, or its unexpected slot,
                // stayed taken for ever).
                auto victim = m_msgs.find(m_order.front());
                if (victim != m_msgs.end())
                {
                    Abandon(victim->second);
                    m_msgs.erase(victim);
                    m_evicted++;
                }
                m_order.pop_front();
            }
            it = m_msgs.find(out.msgId);
            if (it == m_msgs.end())
            {
                return out;
            }
        }
    }
    Message& m = it->second;
    out.jobId = m.delivery.jobId;
    out.bytes = m.bytes;
    out.rc = m.rc;
    if ((sesFlags & Ses::FLAG_SOM) && (sesFlags & Ses::FLAG_HD))
    {
        m.delivery.headerData = wire::GetU64(s + 32);
        m.delivery.hasHeaderData = true;
    }
    if (m.op == UetOperation::READ)
    {
        out.read = true;
        out.complete = true;
        m_msgs.erase(it);
        return out;
    }
    m.received += payload;
    if (m.received < m.bytes)
    {
        return out;
    }
    out.complete = true;
    Message done = std::move(m);
    m_msgs.erase(it);
    if (done.ep && (done.rc == Ses::RC_OK || done.matchId != 0))
    {
        done.delivery.endTime = now;
        done.delivery.returnCode = done.rc;
        done.ep->Deliver(done.matchId, done.delivery);
    }
    return out;
}

} // namespace ns3
