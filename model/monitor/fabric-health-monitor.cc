/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-health-monitor.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricHealthMonitor");
NS_OBJECT_ENSURE_REGISTERED(FabricHealthMonitor);

TypeId
FabricHealthMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricHealthMonitor")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricHealthMonitor>()
            .AddAttribute(
                "StallTime",
                "Simulated time without any frame delivered to a transport, while "
                "operations are pending, after which the run is declared stalled, "
                "diagnosed and stopped (> 0; longer than a PFC watchdog recovery and "
                "the transports' retry timeouts).",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&FabricHealthMonitor::m_stallTime),
                MakeFabricTimeChecker("ns3::FabricHealthMonitor::StallTime", NanoSeconds(1)))
            .AddAttribute(
                "CheckInterval",
                "How often progress is checked while operations are pending (> 0, "
                "<= StallTime); a stall is detected within StallTime + this.",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&FabricHealthMonitor::m_checkInterval),
                MakeFabricTimeChecker("ns3::FabricHealthMonitor::CheckInterval", NanoSeconds(1)))
            .AddAttribute(
                "MaxDiagnosisLines",
                "Most lines per section of a diagnosis (pending operations, paused "
                "ports); the rest is counted (>= 1).",
                UintegerValue(40),
                MakeUintegerAccessor(&FabricHealthMonitor::m_maxLines),
                MakeFabricUintegerChecker<uint32_t>("ns3::FabricHealthMonitor::MaxDiagnosisLines",
                                                    1))
            .AddTraceSource("Stalled",
                            "No progress for StallTime with work pending: the time without "
                            "progress and the diagnosis (the simulation is stopped).",
                            MakeTraceSourceAccessor(&FabricHealthMonitor::m_stalledTrace),
                            "ns3::FabricHealthMonitor::StalledTracedCallback");
    return tid;
}

FabricHealthMonitor::FabricHealthMonitor()
    : m_stallTime(Seconds(1)),
      m_checkInterval(MilliSeconds(10)),
      m_out(&std::cerr)
{
}

FabricHealthMonitor::~FabricHealthMonitor() = default;

void
FabricHealthMonitor::DoDispose()
{
    if (m_armed)
    {
        Simulator::Remove(m_check); // a cancelled event would still advance the clock
        m_armed = false;
    }
    for (auto& nic : m_nics)
    {
        nic->SetWorkCallback(Callback<void, int64_t>());
    }
    m_nics.clear();
    m_diagnosers.clear();
    m_busyCallbacks.clear();
    m_namer = Callback<std::string, uint32_t>();
    m_notes = nullptr;
    Object::DoDispose();
}

void
FabricHealthMonitor::AddNic(Ptr<FabricNic> nic)
{
    NS_ABORT_MSG_IF(!nic, "FabricHealthMonitor::AddNic: null NIC");
    nic->SetWorkCallback(MakeCallback(&FabricHealthMonitor::OnWork, this));
    m_nics.push_back(nic);
    uint64_t pending = nic->GetPendingOperations();
    if (pending > 0)
    {
        OnWork(int64_t(pending));
    }
}

void
FabricHealthMonitor::Install(NodeContainer nodes)
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<FabricNic> nic = (*it)->GetObject<FabricNic>();
        if (nic)
        {
            AddNic(nic);
        }
    }
}

uint32_t
FabricHealthMonitor::GetNNics() const
{
    return static_cast<uint32_t>(m_nics.size());
}

void
FabricHealthMonitor::AddDiagnoser(const std::string& name, Callback<void, std::ostream&> cb)
{
    NS_ABORT_MSG_IF(cb.IsNull(), "FabricHealthMonitor::AddDiagnoser: null callback for " << name);
    m_diagnosers.emplace_back(name, cb);
}

void
FabricHealthMonitor::SetNodeNamer(Callback<std::string, uint32_t> namer)
{
    m_namer = namer;
}

uint64_t
FabricHealthMonitor::GetPendingOperations() const
{
    uint64_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += nic->GetPendingOperations();
    }
    return n;
}

bool
FabricHealthMonitor::IsStalled() const
{
    return m_stalled;
}

uint64_t
FabricHealthMonitor::DeliveredFrames() const
{
    uint64_t n = 0;
    for (const auto& nic : m_nics)
    {
        n += nic->GetDeliveredFrames();
    }
    return n;
}

std::string
FabricHealthMonitor::NodeName(uint32_t id) const
{
    return m_namer.IsNull() ? "node " + std::to_string(id) : m_namer(id);
}

void
FabricHealthMonitor::OnWork(int64_t delta)
{
    m_pending = delta < 0 && uint64_t(-delta) > m_pending ? 0 : m_pending + delta;
    if (m_pending > 0)
    {
        Arm();
    }
    else if (m_armed)
    {
        // Idle: remove the check (a cancelled event would still advance the clock to its
        // time, so a finished run would end up to CheckInterval later).
        Simulator::Remove(m_check);
        m_armed = false;
    }
    NotifyBusy();
}

void
FabricHealthMonitor::AddBusyCallback(Callback<void, bool> cb)
{
    m_busyCallbacks.push_back(cb);
}

void
FabricHealthMonitor::NotifyBusy()
{
    const bool busy = m_pending > 0 && !m_stalled;
    if (busy == m_busyNotified)
    {
        return;
    }
    m_busyNotified = busy;
    for (const auto& cb : m_busyCallbacks)
    {
        cb(busy);
    }
}

void
FabricHealthMonitor::Arm()
{
    if (m_armed || m_stalled)
    {
        return;
    }
    NS_ABORT_MSG_IF(!m_stallTime.IsStrictlyPositive(),
                    "FabricHealthMonitor StallTime=" << m_stallTime.As(Time::MS)
                                                     << " is invalid; it must be > 0");
    NS_ABORT_MSG_IF(!m_checkInterval.IsStrictlyPositive() || m_checkInterval > m_stallTime,
                    "FabricHealthMonitor CheckInterval=" << m_checkInterval.As(Time::MS)
                                                         << " is invalid; it must be in (0, "
                                                            "StallTime="
                                                         << m_stallTime.As(Time::MS) << "]");
    m_armed = true;
    m_lastDelivered = DeliveredFrames();
    m_lastProgress = Simulator::Now();
    m_check = Simulator::Schedule(m_checkInterval, &FabricHealthMonitor::Check, this);
}

void
FabricHealthMonitor::SetProcesses(Ptr<FabricNoteChannel> notes, uint32_t processes, uint32_t self)
{
    NS_ABORT_MSG_IF(!notes, "FabricHealthMonitor::SetProcesses: null note channel");
    NS_ABORT_MSG_IF(processes < 2 || self >= processes,
                    "FabricHealthMonitor::SetProcesses: process "
                        << self << " of " << processes
                        << " (need 2 or more processes, self below)");
    m_notes = notes;
    m_processes = processes;
    m_self = self;
    m_noteHandler = notes->AddNoteHandler(MakeCallback(&FabricHealthMonitor::OnRemoteStall, this));
}

void
FabricHealthMonitor::OnRemoteStall(const std::vector<uint8_t>& note)
{
    NS_ABORT_MSG_IF(note.size() != 4,
                    "FabricHealthMonitor: a stall note of " << note.size() << " B (expected 4)");
    const uint32_t from = wire::GetU32(note.data());
    if (m_stalled)
    {
        return; // stalled here too: already stopped, with its own diagnosis
    }
    m_stalled = true;
    std::ostringstream d;
    d << "ai-fabric: STALLED in MPI process " << from << " (its diagnosis is on its stderr); "
      << "process " << m_self << " stopped at " << Simulator::Now().As(Time::MS) << "\n";
    m_diagnosis = d.str();
    *m_out << m_diagnosis << std::flush;
    if (m_armed)
    {
        Simulator::Remove(m_check); // a cancelled event would still advance the clock
        m_armed = false;
    }
    Simulator::Stop();
}

void
FabricHealthMonitor::Check()
{
    m_armed = false;
    // The transports' own count is the truth (the notifications only arm and disarm).
    uint64_t pending = GetPendingOperations();
    m_pending = pending;
    if (pending == 0)
    {
        NotifyBusy();
        return; // idle: the next posted operation re-arms
    }
    uint64_t delivered = DeliveredFrames();
    Time now = Simulator::Now();
    if (delivered != m_lastDelivered)
    {
        m_lastDelivered = delivered;
        m_lastProgress = now;
    }
    else if (now - m_lastProgress >= m_stallTime)
    {
        m_stalled = true;
        std::ostringstream d;
        d << "ai-fabric: STALLED at " << now.As(Time::MS)
          << ": no frame delivered to any transport for " << (now - m_lastProgress).As(Time::MS)
          << " (StallTime " << m_stallTime.As(Time::MS) << ") with " << GetPendingOperations()
          << " operations pending; simulation stopped\n";
        Diagnose(d);
        m_diagnosis = d.str();
        *m_out << m_diagnosis << std::flush;
        m_stalledTrace(now - m_lastProgress, m_diagnosis);
        NotifyBusy();
        Simulator::Stop();
        if (m_notes)
        {
            // The other processes would wait on this one's frames forever: stop them too.
            std::vector<uint8_t> note(4);
            wire::PutU32(note.data(), m_self);
            m_notes->SendNoteToOthers(m_processes, m_self, m_noteHandler, note);
        }
        return;
    }
    m_armed = true;
    m_check = Simulator::Schedule(m_checkInterval, &FabricHealthMonitor::Check, this);
}

void
FabricHealthMonitor::Diagnose(std::ostream& os) const
{
    os << "pending operations (node: flow):\n";
    uint64_t lines = 0;
    uint64_t more = 0;
    for (const auto& nic : m_nics)
    {
        Ptr<Node> node = nic->GetObject<Node>();
        std::string prefix = "  " + NodeName(node ? node->GetId() : 0) + ": ";
        std::ostringstream part;
        uint32_t n = nic->DescribePending(part, prefix);
        if (lines < m_maxLines)
        {
            os << part.str();
            lines += n;
        }
        else
        {
            more += n;
        }
    }
    if (more > 0)
    {
        os << "  ... and " << more << " more\n";
    }

    os << "PFC state of the ports (paused by the peer: cannot send; XOFF: pausing the peer):\n";
    lines = 0;
    more = 0;
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        Ptr<Node> node = *it;
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<PfcNetDevice> dev = DynamicCast<PfcNetDevice>(node->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            std::ostringstream line;
            for (uint8_t p = 0; p < 8; ++p)
            {
                if (dev->IsPaused(p))
                {
                    line << " priority " << unsigned(p) << " paused by the peer until "
                         << dev->GetPausedUntil(p).As(Time::US) << " ("
                         << dev->GetCounters().pauseRx[p] << " pauses received);";
                }
                if (dev->IsXoff(p))
                {
                    line << " priority " << unsigned(p) << " XOFF sent ("
                         << dev->GetCounters().pauseTx[p] << " pause frames sent);";
                }
            }
            if (line.str().empty())
            {
                continue;
            }
            if (lines++ >= m_maxLines)
            {
                ++more;
                continue;
            }
            os << "  " << NodeName(node->GetId()) << " port " << d << ":" << line.str() << "\n";
        }
    }
    if (lines == 0)
    {
        os << "  no port is paused or pausing\n";
    }
    if (more > 0)
    {
        os << "  ... and " << more << " more ports\n";
    }
    for (const auto& [name, cb] : m_diagnosers)
    {
        os << name << ":\n";
        cb(os);
    }
}

uint64_t
FabricHealthMonitor::CountLosslessDrops()
{
    uint64_t n = 0;
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        Ptr<FabricSwitch> sw = (*it)->GetObject<FabricSwitch>();
        if (sw)
        {
            for (uint64_t d : sw->GetCounters().losslessDrops)
            {
                n += d;
            }
        }
    }
    return n;
}

bool
FabricHealthMonitor::ReportEndOfRun(std::ostream& os) const
{
    bool healthy = true;
    if (CountLosslessDrops() > 0)
    {
        healthy = false;
        os << "ai-fabric: WARNING: " << CountLosslessDrops()
           << " packets were DROPPED in lossless (PFC) priorities; a lossless fabric must not "
              "drop (check HeadroomBytes, the PFC thresholds and the cabling):\n";
        for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
        {
            Ptr<FabricSwitch> sw = (*it)->GetObject<FabricSwitch>();
            if (!sw)
            {
                continue;
            }
            const SwitchCounters& c = sw->GetCounters();
            uint64_t lost = 0;
            for (uint64_t d : c.losslessDrops)
            {
                lost += d;
            }
            if (lost == 0)
            {
                continue;
            }
            for (uint8_t p = 0; p < 8; ++p)
            {
                if (c.losslessDrops[p] > 0)
                {
                    os << "  " << NodeName((*it)->GetId()) << " priority " << unsigned(p) << ": "
                       << c.losslessDrops[p] << " dropped\n";
                }
            }
            os << "  " << NodeName((*it)->GetId()) << " drops by reason (all priorities):";
            for (uint32_t r = 0; r < uint32_t(SwitchDropReason::COUNT); ++r)
            {
                if (c.drops[r] > 0)
                {
                    os << " " << SwitchDropReasonName(SwitchDropReason(r)) << " " << c.drops[r]
                       << ";";
                }
            }
            os << "\n";
        }
    }
    if (m_stalled)
    {
        healthy = false;
        os << "ai-fabric: WARNING: the run stalled; outputs cover the time before the stall.\n"
           << m_diagnosis;
    }
    else if (uint64_t pending = GetPendingOperations(); pending > 0)
    {
        healthy = false;
        os << "ai-fabric: WARNING: the simulation ended at " << Simulator::Now().As(Time::MS)
           << " with " << pending << " operations still pending:\n";
        Diagnose(os);
    }
    return healthy;
}

} // namespace ns3
