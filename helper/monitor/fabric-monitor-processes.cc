/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: FabricMonitor across MPI processes (Delay > 0): the processes' changes of work,
 * the keyed sampling instants, and the merge of every process's rows at process 0.
 */
#include "fabric-monitor.h"

#include "ns3/causal-order-scheduler.h"
#include "ns3/fabric-mpi.h"
#include "ns3/node-list.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace ns3
{

bool
FabricMonitor::IsLocalNode(uint32_t node) const
{
    return m_processes == 1 || FabricMpi::IsLocal(NodeList::GetNode(node));
}

void
FabricMonitor::KeyNext(Time created)
{
    if (CausalOrderScheduler* causal = CausalOrderScheduler::GetCurrent())
    {
        CausalKey key;
        key.createdTs = static_cast<uint64_t>(created.GetTimeStep());
        key.creator = CONTEXT;
        key.seq = 0;
        causal->SetNextKey(key); // the same place in every process and in a sequential run
    }
}

void
FabricMonitor::OnLocalChange(bool busy)
{
    Change c;
    if (CausalOrderScheduler* causal = CausalOrderScheduler::GetCurrent())
    {
        uint64_t ts = 0;
        const CausalKey key = causal->GetRunningKey(&ts);
        c.createdTs = key.createdTs;
        c.creator = key.creator;
        c.seq = key.seq;
    }
    c.process = m_self;
    c.order = m_changes++;
    c.busy = busy;
    const Time now = Simulator::Now();
    if (m_processes > 1)
    {
        FabricNoteWriter w(NOTE_BYTES);
        w.WriteU64(static_cast<uint64_t>(now.GetTimeStep()));
        w.WriteU64(c.createdTs);
        w.WriteU32(c.creator);
        w.WriteU64(c.seq);
        w.WriteU32(c.process);
        w.WriteU32(c.order);
        w.WriteU8(c.busy ? 1 : 0);
        m_notes->SendNoteToOthers(m_processes, m_self, m_handler, w.Finish());
    }
    Record(now, c);
}

void
FabricMonitor::OnNote(const std::vector<uint8_t>& note)
{
    FabricNoteReader r(note, NOTE_BYTES, "FabricMonitor: a change note");
    const Time t = TimeStep(r.ReadU64());
    Change c;
    c.createdTs = r.ReadU64();
    c.creator = r.ReadU32();
    c.seq = r.ReadU64();
    c.process = r.ReadU32();
    c.order = r.ReadU32();
    c.busy = r.ReadU8() != 0;
    NS_ABORT_MSG_IF(c.process >= m_processes,
                    "FabricMonitor: a change note from process " << c.process << " of "
                                                                 << m_processes);
    Record(t, c);
}

void
FabricMonitor::Record(Time t, const Change& c)
{
    auto [it, fresh] = m_changesAt.try_emplace(t.GetTimeStep());
    it->second.push_back(c);
    if (!fresh)
    {
        return;
    }
    const Time due = t + m_delay;
    NS_ABORT_MSG_IF(due < Simulator::Now(),
                    "FabricMonitor: a change at "
                        << t.As(Time::NS) << " is due at " << due.As(Time::NS) << " (Delay "
                        << m_delay.As(Time::NS) << "), but this process heard of it at "
                        << Simulator::Now().As(Time::NS)
                        << "; give a Delay of at least the lookahead "
                           "between processes");
    KeyNext(t);
    Simulator::ScheduleWithContext(CONTEXT,
                                   due - Simulator::Now(),
                                   &FabricMonitor::Evaluate,
                                   this,
                                   t.GetTimeStep());
}

void
FabricMonitor::Evaluate(int64_t t)
{
    auto it = m_changesAt.find(t);
    std::vector<Change> changes = std::move(it->second);
    m_changesAt.erase(it);
    // The order in which a sequential run made them: by the key of the event that made each
    // (one process's changes of one event keep their order).
    std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        return std::tie(a.createdTs, a.creator, a.seq, a.process, a.order) <
               std::tie(b.createdTs, b.creator, b.seq, b.process, b.order);
    });
    for (const Change& c : changes)
    {
        if (m_busy[c.process] == c.busy)
        {
            continue;
        }
        m_busy[c.process] = c.busy;
        if (c.busy && ++m_busyProcesses == 1)
        {
            Start();
        }
        else if (!c.busy && --m_busyProcesses == 0)
        {
            Stop();
        }
    }
}

void
FabricMonitor::Place(uint32_t section, std::size_t index)
{
    if (m_part)
    {
        m_writer.SetKey(std::to_string(m_samples) + ' ' + std::to_string(section) + ' ' +
                        std::to_string(index) + '|');
    }
}

void
FabricMonitor::Gather()
{
    m_writer.Flush();
    if (m_processes == 1)
    {
        return;
    }
    const std::string all = FabricMpi::Gather(m_part->str());
    m_part->str("");
    if (m_self != 0 || !m_out)
    {
        return;
    }

    // Every row is "sample section index|row" (the header lines are not): put them in the
    // order of a sequential run (an entity's rows are in one process, in their order).
    struct Line
    {
        uint64_t sample;    //!< sample number
        uint32_t section;   //!< ports, switches, hosts
        uint64_t index;     //!< entity index
        std::size_t begin;  //!< the row's first byte in all
        std::size_t length; //!< its bytes, newline included
    };

    std::vector<Line> lines;
    std::size_t pos = 0;
    while (pos < all.size())
    {
        std::size_t end = all.find('\n', pos);
        end = end == std::string::npos ? all.size() : end + 1;
        const std::size_t bar = all.find('|', pos);
        if (bar != std::string::npos && bar < end)
        {
            Line l{};
            std::istringstream key(all.substr(pos, bar - pos));
            key >> l.sample >> l.section >> l.index;
            l.begin = bar + 1;
            l.length = end - bar - 1;
            lines.push_back(l);
        }
        pos = end;
    }
    std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
        return std::tie(a.sample, a.section, a.index) < std::tie(b.sample, b.section, b.index);
    });
    *m_out << FabricMonitorWriter::GetHeader() << '\n';
    for (const Line& l : lines)
    {
        m_out->write(all.data() + l.begin, static_cast<std::streamsize>(l.length));
    }
    m_out->flush();
}

} // namespace ns3
