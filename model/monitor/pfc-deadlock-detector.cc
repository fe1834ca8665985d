/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-deadlock-detector.h"

#include "fabric-health-monitor.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeadlockDetector");
NS_OBJECT_ENSURE_REGISTERED(PfcDeadlockDetector);

std::string
PfcDeadlockCycle::ToString() const
{
    std::ostringstream os;
    for (const auto& h : hops)
    {
        os << h.nodeName << ":p" << h.port << " -> ";
    }
    if (!hops.empty())
    {
        os << hops.front().nodeName << ":p" << hops.front().port;
    }
    os << ", priority " << unsigned(priority) << ", since " << since.As(Time::MS);
    return os.str();
}

TypeId
PfcDeadlockDetector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcDeadlockDetector")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<PfcDeadlockDetector>()
            .AddAttribute(
                "CheckInterval",
                "How often the paused ports are examined while one is paused "
                "(> 0, <= DetectionTime).",
                TimeValue(MilliSeconds(1)),
                MakeTimeAccessor(&PfcDeadlockDetector::m_checkInterval),
                MakeFabricTimeChecker("ns3::PfcDeadlockDetector::CheckInterval", NanoSeconds(1)))
            .AddAttribute(
                "DetectionTime",
                "How long every port of a cycle must stay paused, with queued "
                "bytes and sending nothing, before the cycle is declared a "
                "deadlock (> 0; keep it below the ports' PfcWatchdogTimeout, "
                "200 ms by default, or the watchdog breaks the cycle first).",
                TimeValue(MilliSeconds(10)),
                MakeTimeAccessor(&PfcDeadlockDetector::m_detectionTime),
                MakeFabricTimeChecker("ns3::PfcDeadlockDetector::DetectionTime", NanoSeconds(1)))
            .AddAttribute("StopOnDeadlock",
                          "Stop the simulation (Simulator::Stop) when a deadlock is declared.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcDeadlockDetector::m_stopOnDeadlock),
                          MakeBooleanChecker())
            .AddTraceSource("Deadlock",
                            "A cycle of paused ports persisted for DetectionTime: the cycle.",
                            MakeTraceSourceAccessor(&PfcDeadlockDetector::m_deadlockTrace),
                            "ns3::PfcDeadlockDetector::DeadlockTracedCallback");
    return tid;
}

PfcDeadlockDetector::PfcDeadlockDetector()
    : m_checkInterval(MilliSeconds(1)),
      m_detectionTime(MilliSeconds(10)),
      m_out(&std::cerr)
{
}

PfcDeadlockDetector::~PfcDeadlockDetector() = default;

void
PfcDeadlockDetector::DoDispose()
{
    Disarm();
    for (auto& p : m_ports)
    {
        p.dev->TraceDisconnectWithoutContext("PfcPauseRx",
                                             MakeCallback(&PfcDeadlockDetector::OnPauseRx, this));
    }
    m_ports.clear();
    m_nodes.clear();
    m_nodeOf.clear();
    m_namer = Callback<std::string, uint32_t>();
    Object::DoDispose();
}

void
PfcDeadlockDetector::CheckAttributes() const
{
    FABRIC_INPUT_ERROR_IF(m_checkInterval > m_detectionTime,
                          "ns3::PfcDeadlockDetector::CheckInterval="
                              << m_checkInterval.As(Time::MS)
                              << " is invalid; it must be in (0, DetectionTime="
                              << m_detectionTime.As(Time::MS) << "]");
}

void
PfcDeadlockDetector::Install(NodeContainer nodes)
{
    CheckAttributes();
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

void
PfcDeadlockDetector::Install(Ptr<Node> node)
{
    NS_ABORT_MSG_IF(!node, "PfcDeadlockDetector::Install: null node");
    CheckAttributes();
    if (m_nodeOf.count(node->GetId()) > 0)
    {
        return;
    }
    Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
    WatchedNode w;
    w.id = node->GetId();
    w.first = static_cast<uint32_t>(m_ports.size());
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        Ptr<PfcNetDevice> dev = DynamicCast<PfcNetDevice>(node->GetDevice(d));
        if (!dev || !dev->GetChannel())
        {
            continue;
        }
        Port p;
        p.dev = dev;
        p.node = static_cast<uint32_t>(m_nodes.size());
        int32_t swPort = sw ? sw->GetPortIndex(dev) : -1;
        p.index = swPort >= 0 ? uint32_t(swPort) : d;
        dev->TraceConnectWithoutContext("PfcPauseRx",
                                        MakeCallback(&PfcDeadlockDetector::OnPauseRx, this));
        m_ports.push_back(p);
    }
    w.count = static_cast<uint32_t>(m_ports.size()) - w.first;
    m_nodeOf[w.id] = static_cast<uint32_t>(m_nodes.size());
    m_nodes.push_back(w);
    ResolvePeers();
}

void
PfcDeadlockDetector::ResolvePeers()
{
    for (auto& p : m_ports)
    {
        Ptr<PfcChannel> ch = p.dev->GetPfcChannel();
        if (!ch)
        {
            continue;
        }
        Ptr<PfcNetDevice> other =
            ch->GetPfcDevice(0) == p.dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
        if (!other || !other->GetNode())
        {
            continue;
        }
        p.peerId = other->GetNode()->GetId();
        auto it = m_nodeOf.find(p.peerId);
        p.peer = it == m_nodeOf.end() ? NONE : it->second;
    }
}

uint32_t
PfcDeadlockDetector::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

void
PfcDeadlockDetector::SetNodeNamer(Callback<std::string, uint32_t> namer)
{
    m_namer = namer;
}

void
PfcDeadlockDetector::SetStream(std::ostream* os)
{
    m_out = os;
}

void
PfcDeadlockDetector::Attach(Ptr<FabricHealthMonitor> monitor)
{
    NS_ABORT_MSG_IF(!monitor, "PfcDeadlockDetector::Attach: null monitor");
    Ptr<PfcDeadlockDetector> self(this);
    monitor->AddDiagnoser("PFC deadlock detector",
                          MakeCallback(&PfcDeadlockDetector::DiagnoseTo, self));
    monitor->AddBusyCallback(MakeCallback(&PfcDeadlockDetector::OnBusy, self));
    m_idle = monitor->GetPendingOperations() == 0;
}

uint32_t
PfcDeadlockDetector::GetNDeadlocks() const
{
    return static_cast<uint32_t>(m_deadlocks.size());
}

const std::vector<PfcDeadlockCycle>&
PfcDeadlockDetector::GetDeadlocks() const
{
    return m_deadlocks;
}

std::string
PfcDeadlockDetector::NodeName(uint32_t id) const
{
    return m_namer.IsNull() ? "node " + std::to_string(id) : m_namer(id);
}

void
PfcDeadlockDetector::OnPauseRx(uint8_t /* priority */, uint16_t quanta)
{
    if (quanta > 0)
    {
        Arm();
    }
}

void
PfcDeadlockDetector::OnBusy(bool busy)
{
    m_idle = !busy;
    if (m_idle)
    {
        Disarm(); // the next pause after new work re-arms
    }
}

void
PfcDeadlockDetector::Arm()
{
    if (m_armed || m_idle || m_stopped)
    {
        return;
    }
    CheckAttributes();
    m_armed = true;
    m_check = Simulator::Schedule(m_checkInterval, &PfcDeadlockDetector::Check, this);
}

void
PfcDeadlockDetector::Disarm()
{
    if (m_armed)
    {
        // Removed, not cancelled: a cancelled event would still advance the clock to its time.
        Simulator::Remove(m_check);
        m_armed = false;
    }
    for (auto& p : m_ports)
    {
        p.stuck = 0;
    }
    m_active.clear();
}

void
PfcDeadlockDetector::Check()
{
    m_armed = false;
    const Time now = Simulator::Now();
    bool anyPaused = false;
    for (auto& p : m_ports)
    {
        uint8_t paused = 0;
        for (uint8_t q = 0; q < 8; ++q)
        {
            paused |= uint8_t(p.dev->IsPaused(q) << q);
        }
        if (paused == 0 && p.stuck == 0)
        {
            continue;
        }
        anyPaused = anyPaused || paused != 0;
        const PfcPortCounters& c = p.dev->GetCounters();
        for (uint8_t q = 0; q < 8; ++q)
        {
            const uint8_t bit = uint8_t(1u << q);
            const bool stuck = (paused & bit) && !p.dev->GetTxQueue(q).IsEmpty();
            if (!stuck)
            {
                p.stuck &= uint8_t(~bit);
            }
            else if (!(p.stuck & bit) || c.txBytes[q] != p.tx[q])
            {
                p.stuck |= bit; // newly stuck, or it sent something since the last check
                p.since[q] = now;
            }
            p.tx[q] = c.txBytes[q];
        }
    }

    std::set<std::vector<uint64_t>> active;
    for (auto& cycle : FindCycles(m_detectionTime))
    {
        std::vector<uint64_t> key{cycle.priority};
        for (const auto& h : cycle.hops)
        {
            key.push_back((uint64_t(h.nodeId) << 32) | h.port);
        }
        active.insert(key);
        if (m_active.count(key) > 0)
        {
            continue; // declared at an earlier check and still there
        }
        cycle.detected = now;
        NS_LOG_WARN("PFC deadlock: " << cycle.ToString());
        if (m_out)
        {
            *m_out << "ai-fabric: PFC DEADLOCK at " << now.As(Time::MS) << ": " << cycle.ToString()
                   << std::endl;
        }
        m_deadlocks.push_back(cycle);
        m_deadlockTrace(m_deadlocks.back());
        if (m_stopOnDeadlock)
        {
            m_stopped = true;
        }
    }
    m_active = std::move(active);

    if (m_stopped)
    {
        Simulator::Stop();
    }
    else if (anyPaused)
    {
        Arm();
    }
    else
    {
        Disarm(); // nothing paused: the next pause re-arms
    }
}

std::vector<PfcDeadlockCycle>
PfcDeadlockDetector::FindCycles(Time minAge) const
{
    std::vector<PfcDeadlockCycle> cycles;
    const Time now = Simulator::Now();
    uint8_t prios = 0;
    for (const auto& p : m_ports)
    {
        prios |= p.stuck;
    }
    const auto nNodes = static_cast<uint32_t>(m_nodes.size());
    std::vector<uint8_t> color(nNodes);

    // One depth-first search per priority over the stuck ports old enough: every back edge
    // closes a cycle, read off the stack of (node, port taken).
    struct Frame
    {
        uint32_t node; //!< node index
        uint32_t next; //!< next of its ports to try
        uint32_t via;  //!< the port taken out of it (while a child is explored)
    };

    std::vector<Frame> stack;
    for (uint8_t q = 0; q < 8; ++q)
    {
        const uint8_t bit = uint8_t(1u << q);
        if (!(prios & bit))
        {
            continue;
        }
        auto usable = [&](const Port& p) {
            return (p.stuck & bit) && p.peer != NONE && now - p.since[q] >= minAge;
        };
        std::fill(color.begin(), color.end(), 0); // 0 unseen, 1 on the stack, 2 done
        for (uint32_t root = 0; root < nNodes; ++root)
        {
            if (color[root] != 0)
            {
                continue;
            }
            stack.push_back({root, m_nodes[root].first, NONE});
            color[root] = 1;
            while (!stack.empty())
            {
                Frame& f = stack.back();
                const WatchedNode& w = m_nodes[f.node];
                if (f.next == w.first + w.count)
                {
                    color[f.node] = 2;
                    stack.pop_back();
                    continue;
                }
                const uint32_t pi = f.next++;
                const Port& p = m_ports[pi];
                if (!usable(p))
                {
                    continue;
                }
                f.via = pi;
                if (color[p.peer] == 0)
                {
                    color[p.peer] = 1;
                    stack.push_back({p.peer, m_nodes[p.peer].first, NONE});
                    continue;
                }
                if (color[p.peer] != 1)
                {
                    continue;
                }
                // Back edge: the cycle is the stack from p.peer's frame to the top.
                PfcDeadlockCycle c;
                c.priority = q;
                c.detected = now;
                size_t start = stack.size();
                while (stack[start - 1].node != p.peer)
                {
                    --start;
                }
                --start;
                for (size_t i = start; i < stack.size(); ++i)
                {
                    const Port& hp = m_ports[stack[i].via];
                    PfcDeadlockHop h;
                    h.nodeId = m_nodes[hp.node].id;
                    h.nodeName = NodeName(h.nodeId);
                    h.port = hp.index;
                    h.priority = q;
                    h.peerNodeId = hp.peerId;
                    c.since = std::max(c.since, hp.since[q]);
                    c.hops.push_back(h);
                }
                auto first = std::min_element(c.hops.begin(),
                                              c.hops.end(),
                                              [](const PfcDeadlockHop& a, const PfcDeadlockHop& b) {
                                                  return a.nodeId != b.nodeId ? a.nodeId < b.nodeId
                                                                              : a.port < b.port;
                                              });
                std::rotate(c.hops.begin(), first, c.hops.end());
                cycles.push_back(std::move(c));
            }
        }
    }
    return cycles;
}

std::vector<PfcDeadlockCycle>
PfcDeadlockDetector::GetCurrentCycles() const
{
    return FindCycles(Time(0));
}

void
PfcDeadlockDetector::Diagnose(std::ostream& os) const
{
    if (!m_deadlocks.empty())
    {
        for (const auto& c : m_deadlocks)
        {
            os << "  deadlock declared at " << c.detected.As(Time::MS) << ": " << c.ToString()
               << "\n";
        }
        return;
    }
    auto current = GetCurrentCycles();
    for (const auto& c : current)
    {
        os << "  cycle of paused ports (not yet " << m_detectionTime.As(Time::MS)
           << " old): " << c.ToString() << "\n";
    }
    if (current.empty())
    {
        os << "  no cycle of paused ports (" << m_ports.size() << " ports watched)\n";
    }
}

void
PfcDeadlockDetector::DiagnoseTo(std::ostream& os)
{
    Diagnose(os);
}

} // namespace ns3
