/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-transport.h"

#include "collective-message-window.h"

#include "ns3/abort.h"
#include "ns3/fabric-note-channel.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveTransport");
NS_OBJECT_ENSURE_REGISTERED(CollectiveTransport);

TypeId
CollectiveTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveTransport")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddTraceSource("Failure",
                            "A connection failed: source rank, destination rank, channel, "
                            "reason.",
                            MakeTraceSourceAccessor(&CollectiveTransport::m_failureTrace),
                            "ns3::CollectiveTransport::FailureTracedCallback");
    return tid;
}

CollectiveTransport::CollectiveTransport()
    : m_nFailures(0)
{
}

CollectiveTransport::~CollectiveTransport() = default;

void
CollectiveTransport::DoDispose()
{
    m_hopType.Nullify();
    m_rankListeners.clear();
    m_notes = nullptr;
    Object::DoDispose();
}

void
CollectiveTransport::Connect(uint32_t src, uint32_t dst, uint32_t channel)
{
}

bool
CollectiveTransport::SupportsProcesses() const
{
    return false;
}

void
CollectiveTransport::SetNoteChannel(Ptr<FabricNoteChannel> notes)
{
    NS_ABORT_MSG_IF(!notes, GetInstanceTypeId().GetName() << "::SetNoteChannel: null");
    m_notes = notes;
    m_noteHandler = notes->AddNoteHandler(MakeCallback(&CollectiveTransport::OnNote, this));
}

void
CollectiveTransport::SetRankListener(uint32_t rank, CollectiveMessageListener* listener)
{
    if (rank >= m_rankListeners.size())
    {
        m_rankListeners.resize(rank + 1, nullptr);
    }
    m_rankListeners[rank] = listener;
}

CollectiveMessageListener*
CollectiveTransport::GetRankListener(uint32_t rank) const
{
    return rank < m_rankListeners.size() ? m_rankListeners[rank] : nullptr;
}

void
CollectiveTransport::SetRankSystems(const std::vector<Ptr<Node>>& nodes)
{
    m_rankSystem.clear();
    for (const auto& node : nodes)
    {
        m_rankSystem.push_back(node->GetSystemId());
    }
}

bool
CollectiveTransport::IsLocalRank(uint32_t rank) const
{
    return rank >= m_rankSystem.size() || m_rankSystem[rank] == Simulator::GetSystemId();
}

namespace
{
/// Bytes of an announced message's note: connection 4, sequence 4, bytes 8, parts 8, cookie 8.
constexpr uint32_t ANNOUNCE_BYTES = 32;
} // namespace

void
CollectiveTransport::Announce(uint32_t dst,
                              uint32_t conn,
                              uint32_t seq,
                              uint64_t bytes,
                              uint64_t parts,
                              uint64_t cookie)
{
    NS_ABORT_MSG_IF(!m_notes,
                    GetInstanceTypeId().GetName()
                        << ": rank " << dst << " is simulated by MPI process " << m_rankSystem[dst]
                        << ", and this transport has no FabricNoteChannel to reach it "
                           "(CollectiveHelper::SetTopology gives it the topology's)");
    FabricNoteWriter w(ANNOUNCE_BYTES);
    w.WriteU32(conn);
    w.WriteU32(seq);
    w.WriteU64(bytes);
    w.WriteU64(parts);
    w.WriteU64(cookie);
    m_notes->SendNote(m_rankSystem[dst], m_noteHandler, w.Finish());
}

void
CollectiveTransport::OnNote(const std::vector<uint8_t>& note)
{
    FabricNoteReader r(note,
                       ANNOUNCE_BYTES,
                       GetInstanceTypeId().GetName() + ": an announced message");
    const uint32_t conn = r.ReadU32();
    const uint32_t seq = r.ReadU32();
    const uint64_t bytes = r.ReadU64();
    const uint64_t parts = r.ReadU64();
    const uint64_t cookie = r.ReadU64();
    uint32_t src = 0;
    CollectiveMessageWindow* window = GetAnnouncedWindow(conn, &src);
    NS_ABORT_MSG_IF(!window,
                    GetInstanceTypeId().GetName()
                        << ": another MPI process announced a message on connection " << conn
                        << ", which is not open here"
                        << (SupportsProcesses() ? " (every process must open every connection in "
                                                  "the same order: CollectiveCommunicator's "
                                                  "PreConnect)"
                                                : " (this transport cannot carry messages "
                                                  "between processes)"));
    window->AddAnnounced(seq, bytes, parts, GetRankListener(src), cookie);
}

CollectiveMessageWindow*
CollectiveTransport::GetAnnouncedWindow(uint32_t conn, uint32_t* src)
{
    return nullptr;
}

uint32_t
CollectiveTransport::AddMessage(CollectiveMessageWindow& window,
                                uint32_t conn,
                                uint32_t src,
                                uint32_t dst,
                                uint64_t bytes,
                                uint64_t parts,
                                CollectiveMessageListener* listener,
                                uint64_t cookie)
{
    NS_ABORT_MSG_IF(!IsLocalRank(src),
                    GetInstanceTypeId().GetName()
                        << ": rank " << src
                        << " sends in a process that does not simulate it (MPI process "
                        << Simulator::GetSystemId() << ")");
    const bool here = IsLocalRank(dst);
    const uint32_t seq = window.Add(bytes, parts, listener, cookie, here);
    if (!here)
    {
        Announce(dst, conn, seq, bytes, parts, cookie);
    }
    return seq;
}

CollectiveHopType
CollectiveTransport::GetHopType(uint32_t src, uint32_t dst) const
{
    return m_hopType.IsNull() ? CollectiveHopType::NETWORK : m_hopType(src, dst);
}

void
CollectiveTransport::SetHopTypeCallback(HopTypeCallback cb)
{
    m_hopType = cb;
}

uint32_t
CollectiveTransport::GetNFailures() const
{
    return m_nFailures;
}

void
CollectiveTransport::NotifyFailure(uint32_t src,
                                   uint32_t dst,
                                   uint32_t channel,
                                   const std::string& reason)
{
    NS_LOG_WARN("connection " << src << "->" << dst << " channel " << channel
                              << " failed: " << reason);
    m_nFailures++;
    m_failureTrace(src, dst, channel, reason);
}

int64_t
CollectiveTransport::AssignStreams(int64_t stream)
{
    return 0;
}

} // namespace ns3
