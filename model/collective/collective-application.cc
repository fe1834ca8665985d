/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-application.h"

#include "collective-communicator.h"
#include "collective-transport.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveApplication");

namespace
{
/// NVLS operations in flight per connection (rank, channel, kind): an NVLS warp group issues
/// its chunk's multimem instructions before it moves to the next chunk.
constexpr uint32_t NVLS_OPS_IN_FLIGHT = 1;
} // namespace

NS_OBJECT_ENSURE_REGISTERED(CollectiveApplication);

TypeId
CollectiveApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveApplication")
            .SetParent<Application>()
            .SetGroupName("AiFabric")
            .AddConstructor<CollectiveApplication>()
            .AddAttribute(
                "SendCompletion",
                "When a send is complete: Delivery (all of its data arrived at the "
                "peer), Posted (its last piece handed to the transport: an NCCL "
                "kernel's view) or Acknowledged (every piece completed by the "
                "transport). A run across MPI processes needs Posted or "
                "Acknowledged.",
                EnumValue(SEND_AT_DELIVERY),
                compat::MakeEnumAccessor<SendCompletion>(&CollectiveApplication::m_sendCompletion),
                MakeEnumChecker(SEND_AT_DELIVERY,
                                "Delivery",
                                SEND_AT_POST,
                                "Posted",
                                SEND_AT_ACK,
                                "Acknowledged"))
            .AddTraceSource("StepComplete",
                            "A send of this rank completed (SendCompletion says when): collective "
                            "number, step, peer (global rank), bytes.",
                            MakeTraceSourceAccessor(&CollectiveApplication::m_stepTrace),
                            "ns3::CollectiveApplication::StepTracedCallback")
            .AddTraceSource("ReceiveComplete",
                            "A receive of this rank arrived completely: collective number, "
                            "step, peer (global rank), bytes.",
                            MakeTraceSourceAccessor(&CollectiveApplication::m_recvTrace),
                            "ns3::CollectiveApplication::StepTracedCallback");
    return tid;
}

CollectiveApplication::CollectiveApplication()
    : m_commRank(COLLECTIVE_NONE),
      m_globalRank(COLLECTIVE_NONE),
      m_current(COLLECTIVE_NONE),
      m_finished(0),
      m_aborted(false),
      m_bytesSent(0),
      m_bytesReceived(0),
      m_sendsCompleted(0),
      m_recvsCompleted(0),
      m_piecesPosted(0),
      m_sendCompletion(SEND_AT_DELIVERY)
{
}

CollectiveApplication::~CollectiveApplication() = default;

void
CollectiveApplication::DoDispose()
{
    m_runs.clear();
    m_queue.clear();
    if (m_comm)
    {
        // The simulation is over: release the communicator's pending callbacks (they may hold
        // jobs that hold the communicator).
        Ptr<CollectiveCommunicator> comm = m_comm;
        m_comm = nullptr;
        comm->Dispose();
    }
    Application::DoDispose();
}

void
CollectiveApplication::StartApplication()
{
}

void
CollectiveApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_aborted = true;
    for (auto& [seq, run] : m_runs)
    {
        run.failed = true;
    }
}

void
CollectiveApplication::Setup(Ptr<CollectiveCommunicator> comm,
                             uint32_t commRank,
                             uint32_t globalRank)
{
    NS_ABORT_MSG_IF(!comm, "CollectiveApplication::Setup: null communicator");
    m_comm = comm;
    m_commRank = commRank;
    m_globalRank = globalRank;
}

Ptr<CollectiveCommunicator>
CollectiveApplication::GetCommunicator() const
{
    return m_comm;
}

uint32_t
CollectiveApplication::GetCommRank() const
{
    return m_commRank;
}

uint32_t
CollectiveApplication::GetGlobalRank() const
{
    return m_globalRank;
}

uint32_t
CollectiveApplication::PiecesOf(uint64_t bytes, const CollectiveExecution& exec)
{
    return bytes == 0 ? 1 : static_cast<uint32_t>((bytes + exec.pieceBytes - 1) / exec.pieceBytes);
}

bool
CollectiveApplication::IsBusy() const
{
    return m_current != COLLECTIVE_NONE;
}

CollectiveApplication::SendCompletion
CollectiveApplication::GetSendCompletion() const
{
    return m_sendCompletion;
}

bool
CollectiveApplication::IsLocal() const
{
    return !GetNode() || GetNode()->GetSystemId() == Simulator::GetSystemId();
}

uint64_t
CollectiveApplication::GetBytesSent() const
{
    return m_bytesSent;
}

uint64_t
CollectiveApplication::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
CollectiveApplication::GetSendsCompleted() const
{
    return m_sendsCompleted;
}

uint64_t
CollectiveApplication::GetReceivesCompleted() const
{
    return m_recvsCompleted;
}

uint64_t
CollectiveApplication::GetPiecesPosted() const
{
    return m_piecesPosted;
}

void
CollectiveApplication::Enqueue(uint32_t seq)
{
    NS_ABORT_MSG_IF(!m_comm, "CollectiveApplication::Enqueue before Setup");
    if (m_aborted || !IsLocal())
    {
        return; // a stand-in runs nothing: the rank's own process runs it
    }
    m_queue.push_back(seq);
    StartNext();
}

void
CollectiveApplication::Abort()
{
    NS_LOG_FUNCTION(this << m_commRank);
    m_aborted = true;
    m_queue.clear();
    for (auto& [seq, run] : m_runs)
    {
        run.failed = true;
    }
}

CollectiveApplication::Run*
CollectiveApplication::FindRun(uint32_t seq)
{
    auto it = m_runs.find(seq);
    return it == m_runs.end() ? nullptr : &it->second;
}

CollectiveApplication::Run&
CollectiveApplication::GetRun(uint32_t seq)
{
    auto it = m_runs.find(seq);
    if (it != m_runs.end())
    {
        return it->second;
    }
    Run& run = m_runs[seq];
    run.schedule = m_comm->GetSchedule(seq);
    run.exec = m_comm->GetExecution(seq);
    run.program = &run.schedule->GetProgram(m_commRank);
    const auto& p = *run.program;
    run.depsLeft.resize(p.sends.size());
    run.piecesLeft.resize(p.sends.size());
    run.laneBlocked.resize(p.sends.size());
    uint32_t channels = 0;
    for (size_t i = 0; i < p.sends.size(); ++i)
    {
        const auto& s = p.sends[i];
        run.depsLeft[i] = s.depEnd - s.depBegin;
        run.laneBlocked[i] = s.lanePrev != COLLECTIVE_NONE;
        run.piecesLeft[i] = PiecesOf(s.bytes, run.exec);
        channels = std::max(channels, s.channel + 1);
    }
    run.recvLeft.resize(p.recvs.size());
    for (size_t i = 0; i < p.recvs.size(); ++i)
    {
        run.recvLeft[i] = PiecesOf(p.recvs[i].bytes, run.exec);
    }
    run.channelFree.assign(channels, Time(0));
    run.recvDone.assign(p.recvs.size(), false);
    run.conns.resize(p.nConns);
    run.sendsLeft = static_cast<uint32_t>(p.sends.size());
    run.recvsLeft = static_cast<uint32_t>(p.recvs.size());
    run.failed = m_aborted;
    return run;
}

void
CollectiveApplication::StartNext()
{
    if (m_aborted || m_current != COLLECTIVE_NONE || m_queue.empty())
    {
        return;
    }
    uint32_t seq = m_queue.front();
    m_queue.pop_front();
    m_current = seq;
    GetRun(seq);
    NS_LOG_DEBUG("rank " << m_commRank << " starts collective " << seq);
    m_comm->NotifyRankStarted(seq, m_commRank);
    Time base = m_runs[seq].exec.baseLatency;
    if (base.IsZero())
    {
        BeginRun(seq);
    }
    else
    {
        Simulator::Schedule(base, &CollectiveApplication::BeginRun, this, seq);
    }
}

void
CollectiveApplication::BeginRun(uint32_t seq)
{
    Run* run = FindRun(seq);
    if (!run || run->failed)
    {
        return;
    }
    run->started = true;
    for (uint32_t i = 0; i < run->depsLeft.size(); ++i)
    {
        if (run->depsLeft[i] == 0 && !run->laneBlocked[i])
        {
            MakeReady(seq, i);
        }
    }
    MaybeFinish(seq);
}

void
CollectiveApplication::MakeReady(uint32_t seq, uint32_t send)
{
    Run& run = m_runs[seq];
    const auto& s = run.program->sends[send];
    Time latency;
    if (s.kind == CollectiveSendKind::TRANSPORT)
    {
        CollectiveHopType hop =
            m_comm->GetTransport()->GetHopType(m_globalRank, m_comm->GetGlobalRank(s.peer));
        latency =
            hop == CollectiveHopType::NVLINK ? run.exec.nvLinkLatency : run.exec.networkLatency;
    }
    if (latency.IsZero())
    {
        SendReady(seq, send);
    }
    else
    {
        Simulator::Schedule(latency, &CollectiveApplication::SendReady, this, seq, send);
    }
}

void
CollectiveApplication::SendReady(uint32_t seq, uint32_t send)
{
    Run* run = FindRun(seq);
    if (!run || run->failed)
    {
        return;
    }
    uint32_t conn = run->program->sends[send].conn;
    run->conns[conn].ready.PushBack(send);
    Pump(seq, *run, conn);
}

void
CollectiveApplication::Pump(uint32_t seq, Run& run, uint32_t connIndex)
{
    Connection& c = run.conns[connIndex];
    const NcclProtocolInfo& proto = GetNcclProtocolInfo(run.exec.protocol);
    while (!run.failed)
    {
        const uint32_t next = c.current != COLLECTIVE_NONE ? c.current
                              : c.ready.IsEmpty()          ? COLLECTIVE_NONE
                                                           : c.ready.Front();
        if (next == COLLECTIVE_NONE ||
            c.inflight >= (run.program->sends[next].kind == CollectiveSendKind::TRANSPORT
                               ? run.exec.slots
                               : NVLS_OPS_IN_FLIGHT))
        {
            return;
        }
        if (c.current == COLLECTIVE_NONE)
        {
            c.current = c.ready.PopFront();
            c.posted = 0;
        }
        uint32_t send = c.current;
        const auto& s = run.program->sends[send];
        uint64_t piece = std::min(run.exec.pieceBytes, s.bytes - c.posted);
        c.posted += piece;
        c.inflight++;
        bool handedOver = c.posted >= s.bytes;
        if (handedOver)
        {
            c.current = COLLECTIVE_NONE;
        }
        uint64_t wire = proto.GetWireBytes(piece);
        Time at = s.kind == CollectiveSendKind::TRANSPORT ? Reserve(run, s.channel, piece)
                                                          : Simulator::Now();
        if (at > Simulator::Now())
        {
            Simulator::Schedule(at - Simulator::Now(),
                                &CollectiveApplication::Post,
                                this,
                                seq,
                                send,
                                wire);
        }
        else
        {
            Post(seq, send, wire);
        }
        if (handedOver && s.laneNext != COLLECTIVE_NONE)
        {
            // The channel's thread block moves on to its next primitive.
            uint32_t next = s.laneNext;
            run.laneBlocked[next] = false;
            if (run.depsLeft[next] == 0 && run.started)
            {
                MakeReady(seq, next);
            }
        }
    }
}

Time
CollectiveApplication::Reserve(Run& run, uint32_t channel, uint64_t data)
{
    Time at = Simulator::Now();
    const double rate = run.exec.channelRate;
    if (rate > 0)
    {
        // A channel is one CUDA block that copies (and reduces) its pieces one after another.
        at = std::max(at, run.channelFree[channel]);
        run.channelFree[channel] = at + Seconds(double(data) / rate);
    }
    return at;
}

void
CollectiveApplication::Post(uint32_t seq, uint32_t send, uint64_t wireBytes)
{
    Run* run = FindRun(seq);
    if (!run || run->failed)
    {
        return;
    }
    const auto& s = run->program->sends[send];
    m_piecesPosted++;
    const uint64_t cookie = (uint64_t(seq) << 32) | send;
    if (s.kind != CollectiveSendKind::TRANSPORT)
    {
        const CollectiveNvlsBinding& b = m_comm->GetNvlsBinding(m_commRank);
        if (s.kind == CollectiveSendKind::NVLS_REDUCE)
        {
            b.engine->Reduce(b.group, b.member, wireBytes, this, cookie);
        }
        else if (s.kind == CollectiveSendKind::NVLS_MULTICAST)
        {
            b.engine->Multicast(b.group, b.member, wireBytes, this, cookie);
        }
        else
        {
            b.engine->ReduceMulticast(b.group, b.member, wireBytes, this, cookie);
        }
        return;
    }
    m_comm->GetTransport()
        ->Send(m_globalRank, m_comm->GetGlobalRank(s.peer), s.channel, wireBytes, this, cookie);
    if (m_sendCompletion == SEND_AT_POST)
    {
        // In an event of its own: completing the send may finish the run, which the Pump()
        // that posted this piece is still working on.
        Simulator::ScheduleNow(&CollectiveApplication::PieceCompleted, this, seq, send);
    }
}

void
CollectiveApplication::MessageDelivered(uint64_t cookie, uint64_t bytes)
{
    PieceArrived(static_cast<uint32_t>(cookie >> 32), static_cast<uint32_t>(cookie), bytes);
}

void
CollectiveApplication::MessageSent(uint64_t cookie)
{
    const auto seq = static_cast<uint32_t>(cookie >> 32);
    const auto send = static_cast<uint32_t>(cookie);
    PieceSent(seq, send);
    if (m_sendCompletion == SEND_AT_ACK)
    {
        PieceCompleted(seq, send);
    }
}

void
CollectiveApplication::MessageFailed(uint64_t cookie, const std::string& reason)
{
    PieceFailed(static_cast<uint32_t>(cookie >> 32), static_cast<uint32_t>(cookie), reason);
}

void
CollectiveApplication::PieceArrived(uint32_t seq, uint32_t send, uint64_t bytes)
{
    Run* run = FindRun(seq);
    if (run ? run->failed : m_aborted)
    {
        return;
    }
    // Without a run here the sender has finished (its sends completed before delivery) or is a
    // stand-in: the arrival still goes to the receiver, from the collective's schedule.
    const auto& program = run ? *run->program : m_comm->GetSchedule(seq)->GetProgram(m_commRank);
    const auto& s = program.sends[send];
    // The receiver first: its dependent sends become ready.
    m_comm->GetApplication(s.peer)->PieceDelivered(seq, s.peerRecv, bytes);
    if (run && m_sendCompletion == SEND_AT_DELIVERY)
    {
        PieceCompleted(seq, send);
    }
}

void
CollectiveApplication::PieceCompleted(uint32_t seq, uint32_t send)
{
    Run* run = FindRun(seq);
    if (!run || run->failed)
    {
        return;
    }
    const auto& s = run->program->sends[send];
    if (--run->piecesLeft[send] == 0)
    {
        run->sendsLeft--;
        m_sendsCompleted++;
        m_bytesSent += s.bytes;
        m_stepTrace(seq, s.step, m_comm->GetGlobalRank(s.peer), s.bytes);
        MaybeFinish(seq);
    }
}

void
CollectiveApplication::NvlsDelivered(uint64_t cookie, uint32_t member, uint64_t bytes)
{
    const uint32_t seq = static_cast<uint32_t>(cookie >> 32);
    Run* run = FindRun(seq);
    if (!run || run->failed)
    {
        return;
    }
    const auto& p = *run->program;
    const auto& s = p.sends[static_cast<uint32_t>(cookie)];
    if (s.kind == CollectiveSendKind::NVLS_REDUCE)
    {
        PieceDelivered(seq, s.peerRecv, bytes);
        return;
    }
    const auto& t = p.targets[p.targetBegin[s.peerRecv] + member];
    m_comm->GetApplication(t.rank)->PieceDelivered(seq, t.recv, bytes);
}

void
CollectiveApplication::NvlsCompleted(uint64_t cookie)
{
    const uint32_t seq = static_cast<uint32_t>(cookie >> 32);
    const uint32_t send = static_cast<uint32_t>(cookie);
    PieceCompleted(seq, send);
    PieceSent(seq, send);
}

void
CollectiveApplication::PieceSent(uint32_t seq, uint32_t send)
{
    Run* run = FindRun(seq);
    if (!run || run->failed)
    {
        return; // finished (the data arrived before this acknowledgement) or failed
    }
    uint32_t conn = run->program->sends[send].conn;
    run->conns[conn].inflight--;
    Pump(seq, *run, conn);
}

void
CollectiveApplication::PieceFailed(uint32_t seq, uint32_t send, const std::string& reason)
{
    Run* run = FindRun(seq);
    if (!run || run->failed)
    {
        return;
    }
    run->failed = true;
    const auto& s = run->program->sends[send];
    NS_LOG_WARN("rank " << m_commRank << " collective " << seq << " step " << s.step << " to rank "
                        << s.peer << " failed: " << reason);
    m_comm->NotifyFailure(seq, m_commRank, s.step, s.peer, reason);
}

void
CollectiveApplication::PieceDelivered(uint32_t seq, uint32_t recv, uint64_t bytes)
{
    if (m_aborted)
    {
        return;
    }
    NS_ABORT_MSG_IF(!IsLocal(),
                    "rank " << m_commRank << " of communicator " << m_comm->GetName()
                            << " is simulated by MPI process " << GetNode()->GetSystemId()
                            << ", but data for it arrived in process " << Simulator::GetSystemId());
    NS_ABORT_MSG_IF(seq < m_finished,
                    "rank " << m_commRank << " of communicator " << m_comm->GetName()
                            << " received data for collective " << seq
                            << ", which it has already finished");
    Run& run = GetRun(seq);
    if (run.failed)
    {
        return;
    }
    const auto& p = *run.program;
    NS_ABORT_MSG_IF(recv >= p.recvs.size(), "rank " << m_commRank << " has no receive " << recv);
    const auto& r = p.recvs[recv];
    NS_ABORT_MSG_IF(run.recvDone[recv] ||
                        bytes > GetNcclProtocolInfo(run.exec.protocol)
                                    .GetWireBytes(std::min(r.bytes, run.exec.pieceBytes)),
                    "rank " << m_commRank << " of communicator " << m_comm->GetName()
                            << " received more than the " << r.bytes
                            << " bytes prescribed for step " << r.step << " from rank " << r.peer);
    if (--run.recvLeft[recv] > 0)
    {
        return;
    }
    run.recvDone[recv] = true;
    run.recvsLeft--;
    m_recvsCompleted++;
    m_bytesReceived += r.bytes;
    m_recvTrace(seq, r.step, m_comm->GetGlobalRank(r.peer), r.bytes);
    for (uint32_t k = r.dependentBegin; k < r.dependentEnd; ++k)
    {
        uint32_t send = p.dependents[k];
        if (--run.depsLeft[send] == 0 && run.started && !run.laneBlocked[send])
        {
            MakeReady(seq, send);
        }
    }
    MaybeFinish(seq);
}

void
CollectiveApplication::MaybeFinish(uint32_t seq)
{
    Run* run = FindRun(seq);
    if (!run || run->failed || !run->started || run->sendsLeft > 0 || run->recvsLeft > 0)
    {
        return;
    }
    NS_LOG_DEBUG("rank " << m_commRank << " finished collective " << seq);
    m_runs.erase(seq);
    m_current = COLLECTIVE_NONE;
    m_finished = seq + 1;
    m_comm->NotifyRankComplete(seq, m_commRank);
    StartNext();
}

bool
CollectiveApplication::GetFirstPendingStep(uint32_t seq, uint32_t* step, uint32_t* peer) const
{
    auto it = m_runs.find(seq);
    if (it == m_runs.end())
    {
        return false;
    }
    const Run& run = it->second;
    const auto& p = *run.program;
    for (size_t i = 0; i < p.recvs.size(); ++i)
    {
        if (!run.recvDone[i])
        {
            *step = p.recvs[i].step;
            *peer = p.recvs[i].peer;
            return true;
        }
    }
    for (size_t i = 0; i < p.sends.size(); ++i)
    {
        if (run.piecesLeft[i] > 0)
        {
            *step = p.sends[i].step;
            *peer = p.sends[i].peer;
            return true;
        }
    }
    if (!run.started && (!p.sends.empty() || !p.recvs.empty()))
    {
        *step = 0;
        *peer = COLLECTIVE_NONE;
        return true;
    }
    return false;
}

} // namespace ns3
