/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-message-window.h"

#include "ns3/abort.h"

namespace ns3
{

uint32_t
CollectiveMessageWindow::Add(uint64_t bytes,
                             uint64_t parts,
                             CollectiveMessageListener* listener,
                             uint64_t cookie,
                             bool arrivesHere)
{
    Message m;
    m.bytes = bytes;
    m.partsToArrive = arrivesHere ? parts : 0;
    m.partsToComplete = parts;
    m.listener = listener;
    m.cookie = cookie;
    m.deliveredPending = arrivesHere;
    m_pending.PushBack(m);
    return m_nextSeq++;
}

void
CollectiveMessageWindow::AddAnnounced(uint32_t seq,
                                      uint64_t bytes,
                                      uint64_t parts,
                                      CollectiveMessageListener* listener,
                                      uint64_t cookie)
{
    NS_ABORT_MSG_IF(seq != m_nextSeq,
                    "CollectiveMessageWindow: message " << seq << " announced where message "
                                                        << m_nextSeq << " is next");
    Message m;
    m.bytes = bytes;
    m.partsToArrive = parts;
    m.partsToComplete = 0;
    m.listener = listener;
    m.cookie = cookie;
    m.sentPending = false;
    m_pending.PushBack(m);
    m_nextSeq++;
}

CollectiveMessageWindow::Message*
CollectiveMessageWindow::Find(uint32_t seq)
{
    uint32_t i = seq - m_baseSeq; // modulo 2^32, like the immediate / header data
    return i < m_pending.GetSize() ? &m_pending[i] : nullptr;
}

bool
CollectiveMessageWindow::IsLive(uint32_t seq) const
{
    uint32_t i = seq - m_baseSeq;
    return i < m_pending.GetSize() && !m_pending[i].failed;
}

void
CollectiveMessageWindow::Retire()
{
    while (!m_pending.IsEmpty())
    {
        const Message& m = m_pending.Front();
        bool done = m.failed || (m.partsToArrive == 0 && m.partsToComplete == 0);
        if (!done)
        {
            break;
        }
        m_pending.DropFront();
        m_baseSeq++;
    }
}

void
CollectiveMessageWindow::PartArrived(uint32_t seq, uint64_t& delivered)
{
    // Sequence numbers wrap: "not yet added" is the half of the circle from m_nextSeq on.
    NS_ABORT_MSG_IF(uint32_t(seq - m_nextSeq) < (1u << 31),
                    "CollectiveMessageWindow: a part of message "
                        << seq << " arrived before the message was added (" << m_nextSeq
                        << " is next); across MPI processes its announcement came too late");
    Message* m = Find(seq);
    if (!m || m->failed || m->partsToArrive == 0)
    {
        return; // a message already given up on
    }
    if (--m->partsToArrive == 0)
    {
        delivered += m->bytes;
        CollectiveMessageListener* listener = m->deliveredPending ? m->listener : nullptr;
        uint64_t cookie = m->cookie;
        uint64_t bytes = m->bytes;
        m->deliveredPending = false;
        Retire();
        if (listener)
        {
            listener->MessageDelivered(cookie, bytes);
        }
    }
}

void
CollectiveMessageWindow::PartCompleted(uint32_t seq)
{
    Message* m = Find(seq);
    if (--m->partsToComplete == 0)
    {
        CollectiveMessageListener* listener = m->sentPending ? m->listener : nullptr;
        uint64_t cookie = m->cookie;
        m->sentPending = false;
        Retire();
        if (listener)
        {
            listener->MessageSent(cookie);
        }
    }
}

CollectiveMessageWindow::Failure
CollectiveMessageWindow::Fail(uint32_t seq)
{
    Message* m = Find(seq);
    m->failed = true;
    Failure f;
    f.listener = m->sentPending ? m->listener : nullptr;
    f.cookie = m->cookie;
    m->sentPending = false;
    m->deliveredPending = false;
    f.firstOfConnection = !m_failed;
    m_failed = true;
    Retire();
    return f;
}

uint64_t
CollectiveMessageWindow::GetPending() const
{
    return m_pending.GetSize();
}

} // namespace ns3
