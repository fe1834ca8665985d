/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-barrier.h"

#include "causal-order-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricBarrier");

NS_OBJECT_ENSURE_REGISTERED(FabricBarrier);

TypeId
FabricBarrier::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricBarrier")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricBarrier>()
            .AddAttribute("Latency",
                          "From the last arrival to the release, >= 0 (0: release inside the "
                          "last arrival, one process only; across MPI processes at least the "
                          "lookahead between them)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FabricBarrier::m_latency),
                          MakeTimeChecker(Time(0)));
    return tid;
}

FabricBarrier::FabricBarrier() = default;

FabricBarrier::~FabricBarrier() = default;

void
FabricBarrier::SetProcesses(Ptr<FabricNoteChannel> notes, uint32_t processes, uint32_t self)
{
    NS_ABORT_MSG_IF(processes == 0 || self >= processes,
                    "FabricBarrier::SetProcesses: process " << self << " of " << processes
                                                            << " (need 0 <= self < processes)");
    NS_ABORT_MSG_IF(processes > 1 && !notes,
                    "FabricBarrier::SetProcesses: " << processes
                                                    << " processes and no FabricNoteChannel (a "
                                                       "topology split across processes has "
                                                       "one)");
    NS_ABORT_MSG_IF(m_nextRound > 0, "FabricBarrier::SetProcesses after the first Arrive()");
    m_processes = processes;
    m_self = self;
    if (processes > 1)
    {
        m_notes = notes;
        m_handler = notes->AddNoteHandler(MakeCallback(&FabricBarrier::OnNote, this));
    }
}

Time
FabricBarrier::GetLatency() const
{
    return m_latency;
}

uint32_t
FabricBarrier::GetRoundsReleased() const
{
    return m_released;
}

void
FabricBarrier::Arrive(bool ok, ReleaseCallback release)
{
    NS_ABORT_MSG_IF(release.IsNull(), "FabricBarrier::Arrive: null release");
    NS_ABORT_MSG_IF(m_processes > 1 && !m_latency.IsStrictlyPositive(),
                    "FabricBarrier: Latency 0 across " << m_processes
                                                       << " MPI processes; it must be at least "
                                                          "the lookahead between them");
    const uint32_t round = m_nextRound++;
    Round& r = m_rounds[round];
    r.release = release;
    r.selfArrived = true;
    if (m_processes > 1)
    {
        FabricNoteWriter w(NOTE_BYTES);
        w.WriteU32(round);
        w.WriteU32(ok ? 1 : 0);
        w.WriteU64(static_cast<uint64_t>(Simulator::Now().GetTimeStep()));
        m_notes->SendNoteToOthers(m_processes, m_self, m_handler, w.Finish());
    }
    Count(round, ok, Simulator::Now());
}

void
FabricBarrier::OnNote(const std::vector<uint8_t>& note)
{
    FabricNoteReader r(note, NOTE_BYTES, "FabricBarrier: an arrival note");
    const uint32_t round = r.ReadU32();
    const bool ok = r.ReadU32() != 0;
    const Time at = TimeStep(static_cast<int64_t>(r.ReadU64()));
    NS_ABORT_MSG_IF(round < m_released,
                    "FabricBarrier: an arrival at round " << round << ", which was released");
    Count(round, ok, at);
}

void
FabricBarrier::Count(uint32_t round, bool ok, Time at)
{
    Round& r = m_rounds[round];
    r.ok = r.ok && ok;
    r.last = r.arrived == 0 ? at : Max(r.last, at);
    NS_ABORT_MSG_IF(++r.arrived > m_processes,
                    "FabricBarrier: round " << round << " has " << r.arrived << " arrivals, "
                                            << m_processes << " processes");
    if (r.arrived == m_processes && r.selfArrived)
    {
        ScheduleRelease(round);
    }
}

void
FabricBarrier::ScheduleRelease(uint32_t round)
{
    Round& r = m_rounds[round];
    NS_LOG_FUNCTION(this << round << r.last);
    if (m_latency.IsZero())
    {
        Release(round); // one process: inside the last arrival
        return;
    }
    const Time due = r.last + m_latency;
    NS_ABORT_MSG_IF(due < Simulator::Now(),
                    "FabricBarrier: round "
                        << round << " is due at " << due.As(Time::NS) << " (last arrival "
                        << r.last.As(Time::NS) << " + Latency " << m_latency.As(Time::NS)
                        << "), but this process heard of it at " << Simulator::Now().As(Time::NS)
                        << "; give a Latency of at least the lookahead "
                           "between processes");
    if (CausalOrderScheduler* causal = CausalOrderScheduler::GetCurrent())
    {
        CausalKey key;
        key.createdTs = static_cast<uint64_t>(r.last.GetTimeStep());
        key.creator = CONTEXT;
        key.seq = round;
        causal->SetNextKey(key); // the same place in every process, whoever heard last
    }
    Simulator::ScheduleWithContext(CONTEXT,
                                   due - Simulator::Now(),
                                   &FabricBarrier::Release,
                                   this,
                                   round);
}

void
FabricBarrier::Release(uint32_t round)
{
    auto it = m_rounds.find(round);
    Round r = std::move(it->second);
    m_rounds.erase(it);
    ++m_released;
    r.release(r.ok);
}

void
FabricBarrier::DoDispose()
{
    m_notes = nullptr;
    m_rounds.clear();
    Object::DoDispose();
}

} // namespace ns3
