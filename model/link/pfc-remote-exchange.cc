/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-remote-exchange.h"

#include "pfc-channel.h"
#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/causal-order-scheduler.h"
#include "ns3/fabric-frame-codec.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcRemoteExchange);

namespace
{
/// Append \p v big-endian. \param out buffer \param v value \param bytes its width
void
PutBe(std::vector<uint8_t>& out, uint64_t v, uint32_t bytes)
{
    for (uint32_t i = bytes; i-- > 0;)
    {
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
}

/// \return this process's system id (0 without MPI)
uint32_t
LocalSystem()
{
#ifdef NS3_MPI
    return MpiInterface::GetSystemId();
#else
    return 0;
#endif
}

/// \param p bytes \param bytes width \return the big-endian value at \p p
uint64_t
GetBe(const uint8_t* p, uint32_t bytes)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < bytes; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}
} // namespace

TypeId
PfcRemoteExchange::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcRemoteExchange")
                            .SetParent<FabricNoteChannel>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PfcRemoteExchange>();
    return tid;
}

PfcRemoteExchange::PfcRemoteExchange() = default;

void
PfcRemoteExchange::SetLookahead(uint32_t system, Time lookahead)
{
    NS_ABORT_MSG_IF(!lookahead.IsStrictlyPositive(),
                    "PfcRemoteExchange: lookahead " << lookahead << " for system " << system
                                                    << "; it must be > 0");
    if (system >= m_lookahead.size())
    {
        m_lookahead.resize(system + 1, Time(0));
        m_out.resize(system + 1);
    }
    m_lookahead[system] = lookahead;
    // Under the causal order a batch must be unpacked strictly before its frames arrive: the
    // engine's window is one time step shorter than the cables, so that a batch sent at t is
    // unpacked at t + lookahead (see Flush), before any frame sent at t arrives.
    if (auto* host = dynamic_cast<CausalOrderHost*>(PeekPointer(Simulator::GetImplementation())))
    {
        NS_ABORT_MSG_IF(lookahead <= TimeStep(1),
                        "PfcRemoteExchange: lookahead " << lookahead << " for system " << system
                                                        << " is one time step; the causal "
                                                           "order needs at least two");
        m_bounded = host->BoundLookahead(lookahead - TimeStep(1)) || m_bounded;
    }
}

PfcRemoteExchange::Outbox&
PfcRemoteExchange::OutboxOf(uint32_t system)
{
    NS_ABORT_MSG_IF(system >= m_lookahead.size() || !m_lookahead[system].IsStrictlyPositive(),
                    "PfcRemoteExchange: no lookahead for system " << system);
    Outbox& o = m_out[system];
    if (o.bytes.empty())
    {
        PutBe(o.bytes, LocalSystem(), BATCH_PREFIX_BYTES);
    }
    return o;
}

void
PfcRemoteExchange::Schedule(uint32_t system, const Time& deadline, bool first)
{
    Outbox& o = m_out[system];
    if (first || deadline < o.deadline)
    {
        o.deadline = deadline;
        o.flush.Cancel();
        o.flush = Simulator::Schedule(deadline - Simulator::Now(),
                                      &PfcRemoteExchange::Flush,
                                      this,
                                      system);
    }
}

void
PfcRemoteExchange::Send(FabricFrame& frame, const Ptr<PfcNetDevice>& dst, const Time& rxTime)
{
    const uint32_t system = dst->GetNode()->GetSystemId();
    Outbox& o = OutboxOf(system);
    const size_t before = o.bytes.size();
    CausalOrderScheduler* causal = Causal();
    const CausalKey key = causal ? causal->DrawKey() : CausalKey();
    // Events outside any node are numbered by each process on its own: a frame they send to
    // another process would take a different place among its simultaneous events than in the
    // sequential run.
    NS_ABORT_MSG_IF(causal && key.creator == CausalOrderScheduler::NO_CONTEXT,
                    "PfcRemoteExchange: a frame to node "
                        << dst->GetNode()->GetId() << " (MPI system " << system
                        << ") crosses processes from an event outside any node's context; under "
                           "the causal order, start work in the sending node's context "
                           "(Simulator::ScheduleWithContext(node->GetId(), ...) or an ns-3 "
                           "application)");
    NS_ABORT_MSG_IF(causal && rxTime - Simulator::Now() <= m_lookahead[system],
                    "PfcRemoteExchange: a frame of "
                        << frame.GetSize() << " B to system " << system
                        << " takes no time step to serialize; under the causal order frames "
                           "between processes need at least one (Time::SetResolution finer)");
    const uint32_t encoded = AppendRecord(o.bytes, dst, rxTime, key, frame);
    NS_ABORT_MSG_IF(BATCH_PREFIX_BYTES + RECORD_PREFIX_BYTES + encoded > MAX_BATCH_BYTES,
                    "PfcRemoteExchange: a frame of "
                        << frame.GetSize() << " B whose bytes after its headers are not zero "
                        << "needs " << BATCH_PREFIX_BYTES + RECORD_PREFIX_BYTES + encoded
                        << " B between processes; ns-3's MPI messages carry at most "
                        << MAX_BATCH_BYTES << " B of frames");
    frame = FabricFrame();
    m_frames++;
    if (o.bytes.size() > MAX_BATCH_BYTES)
    {
        // The new record does not fit: send the batch before it, then start a new one with it.
        std::vector<uint8_t> record(o.bytes.begin() + before, o.bytes.end());
        o.bytes.resize(before);
        Flush(system);
        PutBe(o.bytes, LocalSystem(), BATCH_PREFIX_BYTES);
        o.bytes.insert(o.bytes.end(), record.begin(), record.end());
    }
    // The destination runs up to (earliest pending event) + its lookahead between
    // synchronizations: the batch must leave strictly before rx - lookahead. Under the causal
    // order it is also unpacked strictly before rx (see the class comment).
    const Time margin = TimeStep(causal && !m_bounded ? 2 : 1);
    const Time deadline = std::max(Simulator::Now(), rxTime - m_lookahead[system] - margin);
    const bool first = o.bytes.size() == BATCH_PREFIX_BYTES + RECORD_PREFIX_BYTES + encoded;
    if (first)
    {
        o.anchorNode = dst->GetNode()->GetId();
        o.anchorDevice = dst->GetIfIndex();
    }
    Schedule(system, deadline, first);
}

void
PfcRemoteExchange::AddReceivingPort(const Ptr<PfcNetDevice>& port)
{
    const uint32_t system = port->GetNode()->GetSystemId();
    if (system >= m_out.size())
    {
        m_lookahead.resize(system + 1, Time(0));
        m_out.resize(system + 1);
    }
    if (m_out[system].portNode == UINT32_MAX)
    {
        m_out[system].portNode = port->GetNode()->GetId();
        m_out[system].portDevice = port->GetIfIndex();
    }
}

uint32_t
PfcRemoteExchange::AddNoteHandler(NoteHandler handler)
{
    NS_ABORT_MSG_IF(handler.IsNull(), "PfcRemoteExchange::AddNoteHandler: null handler");
    m_noteHandlers.push_back(handler);
    return static_cast<uint32_t>(m_noteHandlers.size() - 1);
}

void
PfcRemoteExchange::SendNote(uint32_t system, uint32_t handler, const std::vector<uint8_t>& note)
{
    NS_ABORT_MSG_IF(note.size() > MAX_NOTE_BYTES,
                    "PfcRemoteExchange::SendNote: a note of " << note.size() << " B (at most "
                                                              << MAX_NOTE_BYTES << ")");
    if (system < m_out.size() && !m_out[system].bytes.empty() &&
        m_out[system].bytes.size() + RECORD_PREFIX_BYTES + 4 + note.size() > MAX_BATCH_BYTES)
    {
        Flush(system);
    }
    Outbox& o = OutboxOf(system);
    const bool first = o.bytes.size() == BATCH_PREFIX_BYTES;
    PutBe(o.bytes, static_cast<uint64_t>(Simulator::Now().GetTimeStep()), 8);
    PutBe(o.bytes, handler, 4);
    PutBe(o.bytes, NOTE_DEVICE, 4);
    o.bytes.insert(o.bytes.end(), RECORD_PREFIX_BYTES - 16, 0); // no causal key
    PutBe(o.bytes, note.size(), 4);
    o.bytes.insert(o.bytes.end(), note.begin(), note.end());
    m_notes++;
    if (first)
    {
        // ns-3 hands a message to the MpiReceiver of the device it names: any port of the
        // destination at the end of a cable from another process.
        NS_ABORT_MSG_IF(o.portNode == UINT32_MAX,
                        "PfcRemoteExchange::SendNote: system "
                            << system << " has no port on a cable from another process");
        o.anchorNode = o.portNode;
        o.anchorDevice = o.portDevice;
    }
    Schedule(system, Simulator::Now(), first);
}

uint64_t
PfcRemoteExchange::GetNotesSent() const
{
    return m_notes;
}

uint32_t
PfcRemoteExchange::AppendRecord(std::vector<uint8_t>& out,
                                const Ptr<PfcNetDevice>& dst,
                                const Time& rxTime,
                                const CausalKey& key,
                                const FabricFrame& frame)
{
    PutBe(out, static_cast<uint64_t>(rxTime.GetTimeStep()), 8);
    PutBe(out, dst->GetNode()->GetId(), 4);
    PutBe(out, dst->GetIfIndex(), 4);
    PutBe(out, key.createdTs, 8);
    PutBe(out, key.creator, 4);
    PutBe(out, key.seq, 8);
    return FabricFrameCodec::EncodeTo(frame, out);
}

CausalOrderScheduler*
PfcRemoteExchange::Causal()
{
    if (!m_causalLooked)
    {
        // Called inside events only: the engine and its scheduler are in place.
        m_causal = CausalOrderScheduler::GetCurrent();
        m_causalLooked = true;
    }
    return m_causal;
}

void
PfcRemoteExchange::Flush(uint32_t system)
{
    Outbox& o = m_out[system];
    o.flush.Cancel();
    if (o.bytes.empty())
    {
        return;
    }
#ifdef NS3_MPI
    // The batch is unpacked at the first instant the destination cannot have simulated yet:
    // batches leave in time order, so they are unpacked in the order they were sent, and each
    // frame's arrival is later (Send's deadline), so every cable's frames stay in order.
    Ptr<Packet> batch = Create<Packet>(o.bytes.data(), static_cast<uint32_t>(o.bytes.size()));
    // With the engine's window bounded one step below the cables (SetLookahead), t + lookahead
    // is already beyond what the destination may have simulated.
    MpiInterface::SendPacket(batch,
                             Simulator::Now() + m_lookahead[system] + TimeStep(m_bounded ? 0 : 1),
                             o.anchorNode,
                             o.anchorDevice);
    m_messages++;
    o.bytes.clear();
#else
    NS_FATAL_ERROR("PfcRemoteExchange: sending to system " << system << " without MPI");
#endif
}

void
PfcRemoteExchange::Receive(Ptr<Packet> batch)
{
    // Every batch of this instant was scheduled at the synchronization before it: an event
    // scheduled now, at delay 0, runs after all of them.
    if (m_received.empty())
    {
        Simulator::ScheduleNow(&PfcRemoteExchange::Unpack, this);
    }
    m_received.push_back(batch);
}

void
PfcRemoteExchange::Unpack()
{
    std::vector<std::pair<uint32_t, std::vector<uint8_t>>> batches;
    batches.reserve(m_received.size());
    for (const auto& p : m_received)
    {
        std::vector<uint8_t> in(p->GetSize());
        p->CopyData(in.data(), static_cast<uint32_t>(in.size()));
        NS_ABORT_MSG_IF(in.size() < BATCH_PREFIX_BYTES,
                        "PfcRemoteExchange: a batch of " << in.size() << " B");
        batches.emplace_back(static_cast<uint32_t>(GetBe(in.data(), BATCH_PREFIX_BYTES)),
                             std::move(in));
    }
    m_received.clear();
    // MPI keeps each sender's order; the senders' order is made the same in every run.
    std::stable_sort(batches.begin(), batches.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    for (const auto& [source, in] : batches)
    {
        UnpackBatch(in);
    }
}

void
PfcRemoteExchange::UnpackBatch(const std::vector<uint8_t>& in)
{
    size_t at = BATCH_PREFIX_BYTES;
    while (at < in.size())
    {
        NS_ABORT_MSG_IF(at + RECORD_PREFIX_BYTES + 4 > in.size(),
                        "PfcRemoteExchange: a batch of " << in.size()
                                                         << " B ends inside a record at " << at);
        const uint8_t* r = in.data() + at;
        const Time rx = TimeStep(static_cast<int64_t>(GetBe(r, 8)));
        const auto node = static_cast<uint32_t>(GetBe(r + 8, 4));
        const auto device = static_cast<uint32_t>(GetBe(r + 12, 4));
        if (device == NOTE_DEVICE)
        {
            const auto len = static_cast<uint32_t>(GetBe(r + RECORD_PREFIX_BYTES, 4));
            NS_ABORT_MSG_IF(
                at + RECORD_PREFIX_BYTES + 4 + len > in.size() || node >= m_noteHandlers.size(),
                "PfcRemoteExchange: a note of " << len << " B for handler " << node << " at " << at
                                                << " of a " << in.size() << " B batch ("
                                                << m_noteHandlers.size() << " handlers here)");
            const uint8_t* body = r + RECORD_PREFIX_BYTES + 4;
            m_noteHandlers[node](std::vector<uint8_t>(body, body + len));
            at += RECORD_PREFIX_BYTES + 4 + len;
            continue;
        }
        NS_ABORT_MSG_IF(at + RECORD_PREFIX_BYTES + FabricFrameCodec::PREFIX_BYTES > in.size(),
                        "PfcRemoteExchange: a batch of " << in.size()
                                                         << " B ends inside a record at " << at);
        CausalKey key;
        key.createdTs = GetBe(r + 16, 8);
        key.creator = static_cast<uint32_t>(GetBe(r + 24, 4));
        key.seq = GetBe(r + 28, 8);
        const uint32_t bytes = FabricFrameCodec::GetEncodedBytes(r + RECORD_PREFIX_BYTES);
        NS_ABORT_MSG_IF(at + RECORD_PREFIX_BYTES + bytes > in.size(),
                        "PfcRemoteExchange: a record of " << bytes << " B at " << at
                                                          << " overruns the " << in.size()
                                                          << " B batch");
        FabricFrame frame = FabricFrameCodec::Decode(r + RECORD_PREFIX_BYTES, bytes);
        Ptr<PfcNetDevice> dev =
            DynamicCast<PfcNetDevice>(NodeList::GetNode(node)->GetDevice(device));
        NS_ABORT_MSG_IF(!dev || !dev->GetPfcChannel(),
                        "PfcRemoteExchange: node " << node << " device " << device
                                                   << " is not a cabled PfcNetDevice");
        if (CausalOrderScheduler* causal = Causal())
        {
            causal->SetNextKey(key); // the arrival gets the sender's key, not one of ours
        }
        dev->GetPfcChannel()->InjectRemote(dev, frame, rx);
        at += RECORD_PREFIX_BYTES + bytes;
    }
}

uint64_t
PfcRemoteExchange::GetFramesSent() const
{
    return m_frames;
}

uint64_t
PfcRemoteExchange::GetMessagesSent() const
{
    return m_messages;
}

void
PfcRemoteExchange::DoDispose()
{
    for (auto& o : m_out)
    {
        o.flush.Cancel();
        o.bytes.clear();
    }
    m_noteHandlers.clear();
    FabricNoteChannel::DoDispose();
}

} // namespace ns3
