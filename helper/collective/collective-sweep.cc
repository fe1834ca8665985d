/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-sweep.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/collective-application.h"
#include "ns3/fabric-nic.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveSweep");

NS_OBJECT_ENSURE_REGISTERED(CollectiveSweep);

namespace
{
/// Planned::size of nccl-tests' prologue warm-ups.
constexpr uint32_t PROLOGUE = 0xffffffff;
} // namespace

TypeId
CollectiveSweep::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveSweep")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<CollectiveSweep>()
            .AddAttribute("MinBytes",
                          "Smallest size, bytes (nccl-tests -b), >= 1",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&CollectiveSweep::m_minBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("MaxBytes",
                          "Largest size, bytes (nccl-tests -e), >= MinBytes",
                          UintegerValue(1ull << 30),
                          MakeUintegerAccessor(&CollectiveSweep::m_maxBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Factor",
                          "Size multiplier between sizes (nccl-tests -f), >= 1 (1: MinBytes only)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&CollectiveSweep::m_factor),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("WarmupIters",
                          "Warm-ups at the largest then the smallest size before the sweep, "
                          "excluded (nccl-tests -w)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveSweep::m_warmupIters),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WarmupEverySize",
                          "Also run WarmupIters warm-ups before every size (not nccl-tests)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveSweep::m_warmupEverySize),
                          MakeBooleanChecker())
            .AddAttribute("Iters",
                          "Measured iterations per size (nccl-tests -n), >= 1",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveSweep::m_iters),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Barrier",
                          "From a collective's last rank finishing to the next collective's "
                          "start, >= 0 (a host barrier's cost; across MPI processes at least "
                          "the lookahead between them)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CollectiveSweep::SetBarrierLatency,
                                           &CollectiveSweep::GetBarrierLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("IdlePoll",
                          "After the last collective, how often the NICs are checked for "
                          "pending operations before the simulation stops, > 0",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&CollectiveSweep::m_idlePoll),
                          MakeTimeChecker(TimeStep(1)));
    return tid;
}

CollectiveSweep::CollectiveSweep()
    : m_minBytes(1 << 20),
      m_maxBytes(1ull << 30),
      m_factor(4),
      m_warmupIters(1),
      m_warmupEverySize(false),
      m_iters(1),
      m_idlePoll(MicroSeconds(1)),
      m_barrier(CreateObject<FabricBarrier>())
{
}

CollectiveSweep::~CollectiveSweep() = default;

void
CollectiveSweep::SetBarrierLatency(Time latency)
{
    m_barrier->SetAttribute("Latency", TimeValue(latency));
}

Time
CollectiveSweep::GetBarrierLatency() const
{
    return m_barrier->GetLatency();
}

void
CollectiveSweep::SetCommunicator(Ptr<CollectiveCommunicator> comm, CollectiveOp op)
{
    NS_ABORT_MSG_IF(!comm, "CollectiveSweep::SetCommunicator: null communicator");
    m_comm = comm;
    m_op = op;
}

void
CollectiveSweep::SetProcesses(Ptr<FabricNoteChannel> notes, uint32_t processes, uint32_t self)
{
    m_barrier->SetProcesses(notes, processes, self);
}

void
CollectiveSweep::SetSizeStartedCallback(SizeCallback cb)
{
    m_sizeStarted = cb;
}

void
CollectiveSweep::SetSizeFinishedCallback(SizeCallback cb)
{
    m_sizeFinished = cb;
}

std::vector<uint64_t>
CollectiveSweep::GetSizes() const
{
    std::vector<uint64_t> sizes;
    for (uint64_t s = m_minBytes; s <= m_maxBytes; s *= m_factor)
    {
        sizes.push_back(s);
        if (m_factor == 1 || s > m_maxBytes / m_factor)
        {
            break; // the next size would pass MaxBytes (or wrap around)
        }
    }
    return sizes;
}

void
CollectiveSweep::Start()
{
    NS_ABORT_MSG_IF(!m_comm, "CollectiveSweep::Start before SetCommunicator");
    NS_ABORT_MSG_IF(m_started, "CollectiveSweep::Start twice");
    NS_ABORT_MSG_IF(m_minBytes > m_maxBytes,
                    "CollectiveSweep: MinBytes " << m_minBytes << " is above MaxBytes "
                                                 << m_maxBytes);
    m_started = true;
    m_sizes = GetSizes();
    // nccl-tests (TimeTest): warm-up iterations at the largest size, then at the smallest.
    m_prologue.insert(m_prologue.end(), m_warmupIters, m_sizes.back());
    m_prologue.insert(m_prologue.end(), m_warmupIters, m_sizes.front());
    Next();
}

uint32_t
CollectiveSweep::Warmups() const
{
    return m_warmupEverySize ? m_warmupIters : 0;
}

void
CollectiveSweep::Next()
{
    Planned p;
    uint64_t bytes = 0;
    if (!m_prologue.empty())
    {
        bytes = m_prologue.front();
        p.size = PROLOGUE;
    }
    else if (m_index >= m_sizes.size())
    {
        WaitIdle();
        return;
    }
    else
    {
        bytes = m_sizes[m_index];
        p.size = static_cast<uint32_t>(m_index);
        p.measured = m_iter >= Warmups();
        if (p.measured && m_iter == Warmups() && !m_sizeStarted.IsNull())
        {
            m_sizeStarted(bytes);
        }
    }
    p.seq = m_comm->Enqueue(m_op, bytes, 0, MakeCallback(&CollectiveSweep::Done, this));
    m_planned.push_back(p);
    if (m_comm->GetNLocalRanks() == 0)
    {
        // Every rank runs in other processes: this one's part is done.
        m_barrier->Arrive(true, MakeCallback(&CollectiveSweep::Released, this));
    }
}

void
CollectiveSweep::Done(const CollectiveRecord& rec)
{
    if (rec.failed)
    {
        std::cerr << "collective failed at rank " << rec.failedRank << " step " << rec.failedStep
                  << ": " << rec.reason << "\n";
    }
    m_barrier->Arrive(!rec.failed, MakeCallback(&CollectiveSweep::Released, this));
}

void
CollectiveSweep::Released(bool ok)
{
    if (!ok)
    {
        // A collective failed somewhere: every process stops (across processes the failing
        // one's communicator stops only its own).
        m_failed = true;
        Simulator::Stop();
        return;
    }
    if (!m_prologue.empty())
    {
        m_prologue.pop_front();
    }
    else if (++m_iter == Warmups() + m_iters)
    {
        if (!m_sizeFinished.IsNull())
        {
            m_sizeFinished(m_sizes[m_index]);
        }
        m_iter = 0;
        ++m_index;
    }
    Next();
}

void
CollectiveSweep::WaitIdle()
{
    // A collective completes when its data has arrived, an ACK before the sender's transport
    // completes its last operations: a finished run leaves nothing pending.
    for (uint32_t r = 0; r < m_comm->GetSize(); ++r)
    {
        Ptr<CollectiveApplication> app = m_comm->GetApplication(r);
        if (app->IsLocal() && app->GetNode()->GetObject<FabricNic>()->GetPendingOperations() > 0)
        {
            Simulator::Schedule(m_idlePoll, &CollectiveSweep::WaitIdle, this);
            return;
        }
    }
    m_barrier->Arrive(true, MakeCallback(&CollectiveSweep::Stopped, this));
}

void
CollectiveSweep::Stopped(bool /* ok */)
{
    Simulator::Stop();
}

uint32_t
CollectiveSweep::GetSizesDone() const
{
    return static_cast<uint32_t>(m_index);
}

bool
CollectiveSweep::HasFailed() const
{
    return m_failed;
}

std::vector<CollectiveSweep::SizeResult>
CollectiveSweep::GetResults(const std::vector<CollectiveRecord>& records) const
{
    std::map<uint32_t, const CollectiveRecord*> bySeq;
    for (const auto& r : records)
    {
        if (r.communicator == m_comm->GetName())
        {
            bySeq[r.seq] = &r;
        }
    }
    std::vector<SizeResult> results(m_sizes.size());
    std::vector<uint32_t> completed(m_sizes.size(), 0);
    for (const Planned& p : m_planned)
    {
        auto it = bySeq.find(p.seq);
        if (!p.measured || it == bySeq.end() || !it->second->completed)
        {
            continue;
        }
        const CollectiveRecord& rec = *it->second;
        SizeResult& sr = results[p.size];
        sr.time += rec.GetDuration();
        sr.algorithm = rec.algorithm;
        sr.protocol = rec.protocol;
        sr.channels = rec.channels;
        ++completed[p.size];
    }
    std::vector<SizeResult> done;
    for (std::size_t i = 0; i < m_sizes.size(); ++i)
    {
        if (completed[i] == m_iters)
        {
            SizeResult sr = results[i];
            sr.bytes = m_sizes[i];
            sr.time = sr.time / int64_t(m_iters);
            sr.predictedUs = m_comm->Choose(m_op, m_sizes[i]).predictedUs; // what it ran
            done.push_back(sr);
        }
    }
    return done;
}

void
CollectiveSweep::DoDispose()
{
    m_comm = nullptr;
    m_barrier = nullptr;
    m_sizeStarted = SizeCallback();
    m_sizeFinished = SizeCallback();
    Object::DoDispose();
}

} // namespace ns3
