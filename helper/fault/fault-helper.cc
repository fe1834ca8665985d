/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FaultHelper, part 2 of 2: binding faults to a fabric, applying them, convergence, the log.
 */
#include "fault-helper.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-command-line.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-mpi.h"
#include "ns3/log.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-entropy-parser.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/uet-pds-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FaultHelper");
NS_OBJECT_ENSURE_REGISTERED(FaultHelper);

namespace
{

/// \return "links 3 4 7"
std::string
LinkList(const std::vector<uint32_t>& links)
{
    std::string s = links.size() == 1 ? "link" : "links";
    for (uint32_t l : links)
    {
        s += ' ' + std::to_string(l);
    }
    return s;
}

/**
 * \brief Node names compressed into ranges, in the order of first appearance of each prefix:
 *        {"gpu0", "gpu1", "gpu2", "leaf0", "leaf2"} -> "gpu0..2, leaf0, leaf2".
 * \param names the names (a name without trailing digits is listed as it is)
 * \return the text
 */
std::string
NameRanges(const std::vector<std::string>& names)
{
    std::vector<std::string> prefixes;
    std::map<std::string, std::set<uint64_t>> numbers;
    std::vector<std::string> plain;
    for (const std::string& n : names)
    {
        auto d = n.find_last_not_of("0123456789");
        if (d == std::string::npos || d + 1 == n.size() || n.size() - d - 1 > 9)
        {
            plain.push_back(n);
            continue;
        }
        const std::string prefix = n.substr(0, d + 1);
        if (!numbers.count(prefix))
        {
            prefixes.push_back(prefix);
        }
        numbers[prefix].insert(std::stoull(n.substr(d + 1)));
    }
    std::string out;
    auto add = [&out](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
    for (const std::string& p : prefixes)
    {
        const std::set<uint64_t>& v = numbers[p];
        for (auto it = v.begin(); it != v.end();)
        {
            uint64_t first = *it;
            uint64_t last = first;
            ++it;
            while (it != v.end() && *it == last + 1)
            {
                last = *it++;
            }
            add(p + std::to_string(first) + (last > first ? ".." + std::to_string(last) : ""));
        }
    }
    for (const std::string& n : plain)
    {
        add(n);
    }
    return out;
}

} // namespace

// ---- FaultHelper ---------------------------------------------------------------------------

TypeId
FaultHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FaultHelper")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FaultHelper>()
            .AddAttribute(
                "ConvergenceDelay",
                "Time from a data-plane change (cable cut or restored) to the recomputation "
                "of every forwarding table, >= 0. 0 (default): at once, as "
                "FabricTopologyHelper::SetLinkUp. Production BGP fabrics converge in a few "
                "tens of ms when tuned, 30-300 ms with usual BFD timers.",
                TimeValue(Seconds(0)),
                MakeTimeAccessor(&FaultHelper::SetConvergenceDelay,
                                 &FaultHelper::GetConvergenceDelay),
                MakeFabricTimeChecker("ns3::FaultHelper::ConvergenceDelay", Seconds(0)))
            .AddAttribute("LocalRepair",
                          "true (default): the switches at both ends of a cut cable drop its "
                          "port from their equal-cost sets at once (hardware local repair); "
                          "false: only when routing converges.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FaultHelper::m_localRepair),
                          MakeBooleanChecker())
            .AddTraceSource("FaultApplied",
                            "A fault changed the fabric: simulation time, kind (link-down, "
                            "link-up, link-degrade, link-restore, switch-down, switch-up, "
                            "routes), target (leaf3-spine1, spine0), detail.",
                            MakeTraceSourceAccessor(&FaultHelper::m_appliedTrace),
                            "ns3::FaultHelper::FaultAppliedCallback");
    return tid;
}

FaultHelper::FaultHelper()
    : m_convergenceDelay(Seconds(0)),
      m_localRepair(true)
{
    NS_LOG_FUNCTION(this);
}

FaultHelper::~FaultHelper()
{
    NS_LOG_FUNCTION(this);
}

void
FaultHelper::DoDispose()
{
    m_topology = nullptr;
    m_nodes.clear();
    m_nodeNames.clear();
    m_ends.clear();
    m_bound.clear();
    m_filters.clear();
    Object::DoDispose();
}

void
FaultHelper::SetConvergenceDelay(Time delay)
{
    FABRIC_INPUT_ERROR_IF(delay.IsStrictlyNegative(),
                          "ns3::FaultHelper::ConvergenceDelay=" << delay.As(Time::MS)
                                                                << " is invalid; it must be >= 0");
    m_convergenceDelay = delay;
}

Time
FaultHelper::GetConvergenceDelay() const
{
    return m_convergenceDelay;
}

void
FaultHelper::Add(const std::string& text)
{
    for (const FaultSpec& s : Parse(text))
    {
        Add(s);
    }
}

void
FaultHelper::Add(const FaultSpec& spec)
{
    FABRIC_INPUT_ERROR_IF(m_installed,
                          "FaultHelper::Add: fault '" << spec.Describe()
                                                      << "' added after Install(); add every "
                                                         "fault before");
    const std::string error = CheckValues(spec);
    FABRIC_INPUT_ERROR_IF(!error.empty(), error);
    m_specs.push_back(spec);
}

const std::vector<FaultSpec>&
FaultHelper::GetFaults() const
{
    return m_specs;
}

Ptr<Node>
FaultHelper::FindNode(const std::string& name, const FaultSpec& spec) const
{
    auto it = m_nodes.find(name);
    if (it == m_nodes.end())
    {
        FABRIC_INPUT_ERROR("fault '" << spec.Describe() << "': no node '" << name
                                     << "' in this fabric; its nodes are "
                                     << NameRanges(m_nodeNames));
    }
    return it->second;
}

FaultHelper::Bound
FaultHelper::Bind(const FaultSpec& spec)
{
    Bound b;
    b.spec = spec;
    b.holder = LINK_HOLD;
    const Time now = Simulator::Now();
    FABRIC_INPUT_ERROR_IF(spec.at < now,
                          "fault '" << spec.Describe() << "' is in the past: the simulation is at "
                                    << FaultSpec::FormatTime(now)
                                    << "; give a time >= " << FaultSpec::FormatTime(now));
    Ptr<Node> a = FindNode(spec.nodeA, spec);
    // The nodes cabled to a, in port order, with their cables.
    std::vector<std::string> neighbours;
    std::vector<Ptr<Node>> peers;
    for (uint32_t d = 0; d < a->GetNDevices(); ++d)
    {
        Ptr<PfcNetDevice> dev = DynamicCast<PfcNetDevice>(a->GetDevice(d));
        Ptr<PfcChannel> ch = dev ? dev->GetPfcChannel() : nullptr;
        if (!ch || ch->GetNDevices() != 2)
        {
            continue;
        }
        Ptr<Node> peer =
            (ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0))->GetNode();
        if (std::find(peers.begin(), peers.end(), peer) == peers.end())
        {
            peers.push_back(peer);
            neighbours.push_back(m_topology->GetNodeName(peer->GetId()));
        }
    }
    if (spec.kind == FaultKind::NIC_STALL)
    {
        b.nic = a->GetObject<FabricNic>();
        if (!b.nic)
        {
            std::vector<std::string> gpus;
            for (const std::string& n : m_nodeNames)
            {
                if (m_nodes.at(n)->GetObject<FabricNic>())
                {
                    gpus.push_back(n);
                }
            }
            FABRIC_INPUT_ERROR("fault '" << spec.Describe() << "': " << spec.nodeA
                                         << " is not a GPU with a NIC; the GPUs are "
                                         << NameRanges(gpus));
        }
        FABRIC_INPUT_ERROR_IF(b.nic->GetRxDrainRate().GetBitRate() == 0,
                              "fault '" << spec.Describe() << "': " << spec.nodeA
                                        << "'s NIC has host-side PFC off "
                                           "(ns3::FabricNic::RxDrainRate is 0 bit/s), so a "
                                           "stalled host has no buffer to fill; set "
                                           "ns3::FabricNic::RxDrainRate > 0 (e.g. the NIC's "
                                           "line rate)");
        return b;
    }
    if (spec.kind == FaultKind::SWITCH_REBOOT || spec.kind == FaultKind::ECN_PROFILE ||
        spec.kind == FaultKind::PFC_THRESHOLD)
    {
        if (!a->GetObject<FabricSwitch>())
        {
            std::vector<std::string> switches;
            for (const std::string& n : m_nodeNames)
            {
                if (m_nodes.at(n)->GetObject<FabricSwitch>())
                {
                    switches.push_back(n);
                }
            }
            FABRIC_INPUT_ERROR("fault '" << spec.Describe() << "': " << spec.nodeA
                                         << " is not a switch; the switches are "
                                         << NameRanges(switches));
        }
        if (spec.kind == FaultKind::PFC_THRESHOLD)
        {
            CheckPfcThreshold(spec, a->GetObject<FabricSwitch>());
        }
        if (spec.kind == FaultKind::ECN_PROFILE || spec.kind == FaultKind::PFC_THRESHOLD)
        {
            b.sw = a->GetObject<FabricSwitch>();
            const uint32_t n = b.sw->GetNPorts();
            FABRIC_INPUT_ERROR_IF(spec.port >= 0 && uint32_t(spec.port) >= n,
                                  "fault '" << spec.Describe() << "': port #" << spec.port
                                            << " does not exist; " << spec.nodeA << " has " << n
                                            << " port" << (n == 1 ? "" : "s") << " (#0..#" << n - 1
                                            << ")");
            for (uint32_t p = 0; p < n; ++p)
            {
                if (spec.port < 0 || uint32_t(spec.port) == p)
                {
                    b.ports.push_back(p);
                }
            }
            return b;
        }
        std::set<uint32_t> links;
        for (Ptr<Node> peer : peers)
        {
            for (uint32_t l : m_topology->FindLinks(a, peer))
            {
                links.insert(l);
            }
        }
        b.links.assign(links.begin(), links.end());
        b.holder = a->GetId();
        return b;
    }
    Ptr<Node> other = FindNode(spec.nodeB, spec);
    std::vector<uint32_t> links = m_topology->FindLinks(a, other);
    FABRIC_INPUT_ERROR_IF(links.empty(),
                          "fault '" << spec.Describe() << "': " << spec.nodeA << " and "
                                    << spec.nodeB << " are not cabled together; " << spec.nodeA
                                    << " is cabled to " << NameRanges(neighbours));
    if (spec.cable >= 0)
    {
        FABRIC_INPUT_ERROR_IF(
            uint32_t(spec.cable) >= links.size(),
            "fault '" << spec.Describe() << "': cable #" << spec.cable << " does not exist; "
                      << spec.nodeA << "-" << spec.nodeB << " has " << links.size() << " cable"
                      << (links.size() == 1 ? "" : "s") << " (#0..#" << links.size() - 1 << ")");
        links = {links[spec.cable]};
    }
    b.links = links;
    return b;
}

void
FaultHelper::Install(Ptr<FabricTopologyHelper> topology)
{
    NS_LOG_FUNCTION(this << topology);
    FABRIC_INPUT_ERROR_IF(m_installed, "FaultHelper::Install called twice; call it once");
    FABRIC_INPUT_ERROR_IF(!topology || !topology->IsInstalled(),
                          "FaultHelper::Install needs an installed fabric (call the topology "
                          "helper's Install() first)");
    m_topology = topology;
    auto addNode = [this](Ptr<Node> n) {
        m_nodeNames.push_back(m_topology->GetNodeName(n->GetId()));
        m_nodes[m_nodeNames.back()] = n;
    };
    for (uint32_t r = 0; r < topology->GetNRanks(); ++r)
    {
        addNode(topology->GetRank(r));
    }
    for (uint32_t s = 0; s < topology->GetNNvSwitches(); ++s)
    {
        addNode(topology->GetNvSwitch(s));
    }
    for (uint32_t i = 0; i < topology->GetNLeaves(); ++i)
    {
        addNode(topology->GetLeaf(i));
    }
    for (uint32_t i = 0; i < topology->GetNSpines(); ++i)
    {
        addNode(topology->GetSpine(i));
    }
    for (uint32_t i = 0; i < topology->GetNCores(); ++i)
    {
        addNode(topology->GetCore(i));
    }
    // Every check first: nothing is scheduled unless every fault is valid.
    std::vector<Bound> bound;
    for (const FaultSpec& s : m_specs)
    {
        bound.push_back(Bind(s));
    }
    m_bound = std::move(bound);
    m_installed = true;
    Ptr<FaultHelper> self(this);
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_bound.size(); ++i)
    {
        const FaultSpec& s = m_bound[i].spec;
        const Time at = s.at - now;
        switch (s.kind)
        {
        case FaultKind::LINK_DOWN:
        case FaultKind::LINK_UP:
            Simulator::Schedule(at,
                                &FaultHelper::HoldLinks,
                                self,
                                i,
                                s.kind == FaultKind::LINK_DOWN,
                                std::string(FaultKindName(s.kind)),
                                std::string());
            break;
        case FaultKind::LINK_FLAP:
            for (uint32_t c = 0; c < s.count; ++c)
            {
                const std::string n =
                    "flap " + std::to_string(c + 1) + "/" + std::to_string(s.count);
                const Time start = at + s.period * int64_t(c);
                Simulator::Schedule(start,
                                    &FaultHelper::HoldLinks,
                                    self,
                                    i,
                                    true,
                                    std::string("link-down"),
                                    n);
                Simulator::Schedule(start + s.period / 2,
                                    &FaultHelper::HoldLinks,
                                    self,
                                    i,
                                    false,
                                    std::string("link-up"),
                                    n);
            }
            break;
        case FaultKind::LINK_DEGRADE:
        case FaultKind::LINK_RESTORE:
            for (uint32_t l : m_bound[i].links)
            {
                m_plannedRate.emplace(l,
                                      topology->GetLinkChannel(l)->GetPfcDevice(0)->GetDataRate());
            }
            Simulator::Schedule(at,
                                &FaultHelper::SetRate,
                                self,
                                i,
                                s.kind == FaultKind::LINK_RESTORE || s.restore);
            break;
        case FaultKind::SWITCH_REBOOT:
            Simulator::Schedule(at,
                                &FaultHelper::HoldLinks,
                                self,
                                i,
                                true,
                                std::string("switch-down"),
                                std::string("reboot"));
            Simulator::Schedule(at + s.down,
                                &FaultHelper::HoldLinks,
                                self,
                                i,
                                false,
                                std::string("switch-up"),
                                std::string("reboot"));
            break;
        case FaultKind::NIC_STALL:
            Simulator::Schedule(at, &FaultHelper::SetStall, self, i, true);
            if (!s.duration.IsZero())
            {
                Simulator::Schedule(at + s.duration, &FaultHelper::SetStall, self, i, false);
            }
            break;
        case FaultKind::DROP_CLASS:
            Simulator::Schedule(at, &FaultHelper::SetDropFilters, self, i, true);
            if (!s.duration.IsZero())
            {
                Simulator::Schedule(at + s.duration, &FaultHelper::SetDropFilters, self, i, false);
            }
            break;
        case FaultKind::ECN_PROFILE: {
            Ptr<WredEcnMarker> ecn = m_bound[i].sw->GetEcnMarker();
            const uint32_t id = m_bound[i].sw->GetPort(0)->GetNode()->GetId();
            for (uint32_t p : m_bound[i].ports)
            {
                m_plannedEcn.emplace(std::make_pair(id, p),
                                     EcnProfile{ecn->GetKmin(p), ecn->GetKmax(p), ecn->GetPmax(p)});
            }
            Simulator::Schedule(at, &FaultHelper::SetEcn, self, i);
            break;
        }
        case FaultKind::PFC_THRESHOLD: {
            Ptr<SharedBufferMmu> mmu = m_bound[i].sw->GetMmu();
            const uint32_t id = m_bound[i].sw->GetPort(0)->GetNode()->GetId();
            if (!m_plannedPfc.count(id))
            {
                PfcProfile profile;
                for (uint32_t p = 0; p < m_bound[i].sw->GetNPorts(); ++p)
                {
                    profile.headroom.push_back(mmu->GetHeadroomSize(p));
                }
                UintegerValue xoff;
                DoubleValue alpha;
                mmu->GetAttribute("XoffStaticBytes", xoff);
                mmu->GetAttribute("Alpha", alpha);
                profile.xoff = xoff.Get();
                profile.alpha = alpha.Get();
                m_plannedPfc.emplace(id, profile);
            }
            Simulator::Schedule(at, &FaultHelper::SetPfcThreshold, self, i);
            break;
        }
        default:
            NS_ABORT_MSG("FaultHelper: unhandled fault kind");
        }
    }
}

const std::vector<FaultHelper::PortEnd>&
FaultHelper::Ends(uint32_t link)
{
    auto it = m_ends.find(link);
    if (it != m_ends.end())
    {
        return it->second;
    }
    std::vector<PortEnd> ends;
    Ptr<PfcChannel> ch = m_topology->GetLinkChannel(link);
    for (std::size_t d = 0; d < ch->GetNDevices(); ++d)
    {
        Ptr<PfcNetDevice> dev = ch->GetPfcDevice(d);
        Ptr<FabricSwitch> sw = dev->GetNode()->GetObject<FabricSwitch>();
        for (uint32_t p = 0; sw && p < sw->GetNPorts(); ++p)
        {
            if (sw->GetPort(p) == dev)
            {
                ends.push_back({sw, p});
            }
        }
    }
    return m_ends.emplace(link, std::move(ends)).first->second;
}

void
FaultHelper::SetPorts(uint32_t link, bool up)
{
    for (const PortEnd& e : Ends(link))
    {
        e.sw->SetPortUp(e.port, up);
    }
}

void
FaultHelper::HoldLinks(uint32_t index,
                       bool down,
                       const std::string& kind,
                       const std::string& detail)
{
    const Bound& b = m_bound[index];
    std::vector<std::pair<uint32_t, bool>> changes;
    std::vector<uint32_t> changed;
    uint32_t heldElsewhere = 0;
    for (uint32_t l : b.links)
    {
        std::set<uint32_t>& holders = m_holds[l];
        const bool wasUp = holders.empty();
        if (down)
        {
            holders.insert(b.holder);
        }
        else
        {
            holders.erase(b.holder);
        }
        const bool isUp = holders.empty();
        if (wasUp != isUp)
        {
            changes.emplace_back(l, isUp);
            changed.push_back(l);
        }
        else if (!down && !isUp)
        {
            ++heldElsewhere;
        }
    }
    const bool immediate = m_convergenceDelay.IsZero();
    for (const auto& [l, up] : changes)
    {
        m_topology->GetLinkChannel(l)->SetLinkUp(up);
        if (m_localRepair || immediate)
        {
            SetPorts(l, up);
        }
    }
    std::ostringstream os;
    os << detail << (detail.empty() ? "" : "; ");
    if (changed.empty())
    {
        os << "no cable changed (" << b.links.size() << " already " << (down ? "down" : "up")
           << (heldElsewhere ? " or held down by another fault" : "") << ")";
    }
    else
    {
        os << changed.size() << " cable" << (changed.size() == 1 ? "" : "s")
           << (down ? " down" : " up") << " (" << LinkList(changed) << ")";
        if (heldElsewhere)
        {
            os << "; " << heldElsewhere << " held down by another fault";
        }
    }
    const std::string target = b.spec.GetTarget();
    Log(kind, target, os.str());
    if (changes.empty())
    {
        return;
    }
    if (immediate)
    {
        Converge(std::move(changes), target, kind);
        return;
    }
    Simulator::Schedule(m_convergenceDelay,
                        &FaultHelper::Converge,
                        Ptr<FaultHelper>(this),
                        std::move(changes),
                        target,
                        kind);
}

void
FaultHelper::Converge(std::vector<std::pair<uint32_t, bool>> changes,
                      std::string target,
                      std::string cause)
{
    Ptr<FabricRouteComputer> rc = m_topology->GetRouteComputer();
    const bool ports = !m_localRepair && !m_convergenceDelay.IsZero();
    for (const auto& [l, up] : changes)
    {
        rc->SetLinkUp(l, up);
        if (ports)
        {
            SetPorts(l, up);
        }
    }
    const FabricRouteStats& st = rc->Compute();
    for (const auto& [l, up] : changes)
    {
        m_topology->NotifyLinkState(l, up); // e.g. a FabricTeController plans again
    }
    std::ostringstream os;
    os << "recomputed after " << cause << " at "
       << FaultSpec::FormatTime(Simulator::Now() - m_convergenceDelay) << ": " << st.routes
       << " routes; " << st.unreachable << " unreachable (switch host) pairs";
    Log("routes", target, os.str());
}

void
FaultHelper::SetRate(uint32_t index, bool restore)
{
    const Bound& b = m_bound[index];
    std::ostringstream os;
    for (uint32_t l : b.links)
    {
        m_topology->SetLinkDataRate(l, restore ? m_plannedRate.at(l) : b.spec.rate);
    }
    if (restore)
    {
        os << "rate back to " << FaultSpec::FormatRate(m_plannedRate.at(b.links[0]));
    }
    else
    {
        os << "rate " << FaultSpec::FormatRate(b.spec.rate) << " (was "
           << FaultSpec::FormatRate(m_plannedRate.at(b.links[0])) << " at install)";
    }
    os << " on " << LinkList(b.links);
    Log(restore ? "link-restore" : "link-degrade", b.spec.GetTarget(), os.str());
}

void
FaultHelper::SetStall(uint32_t index, bool stall)
{
    const Bound& b = m_bound[index];
    Ptr<Node> node = b.nic->GetObject<Node>();
    uint32_t& holds = m_stallHolds[node->GetId()];
    holds = stall ? holds + 1 : holds - 1;
    // Across processes only the GPU's own process drains (and stalls) its NIC; the others
    // keep the hold count, which the log reports.
    const bool local = FabricMpi::IsLocal(node);
    std::ostringstream os;
    if (holds == (stall ? 1u : 0u))
    {
        if (local)
        {
            b.nic->SetRxStalled(stall);
        }
        os << "host drain " << (stall ? "stopped" : "resumed");
    }
    else
    {
        os << "no change (stalled by " << holds << " fault" << (holds == 1 ? "" : "s") << ")";
    }
    uint64_t backlog = 0;
    for (uint32_t p = 0; local && p < b.nic->GetNPorts(); ++p)
    {
        backlog += b.nic->GetRxBacklog(p);
    }
    const std::string head = os.str();
    LogCounted(
        stall ? "nic-stall" : "nic-resume",
        b.spec.GetTarget(),
        backlog,
        [head](uint64_t bytes) { return head + "; host backlog " + std::to_string(bytes) + " B"; });
}

void
FaultHelper::SetDropFilters(uint32_t index, bool on)
{
    Bound& b = m_bound[index];
    const char* cls = FabricPacketClassName(b.spec.packetClass);
    std::ostringstream os;
    if (on)
    {
        for (uint32_t l : b.links)
        {
            Ptr<PfcChannel> ch = m_topology->GetLinkChannel(l);
            for (std::size_t d = 0; d < ch->GetNDevices(); ++d)
            {
                Ptr<PfcNetDevice> dev = ch->GetPfcDevice(d);
                auto filter = CreateObject<PacketClassFilter>();
                filter->AddClassifier(RoceEntropyParser::UDP_PORT, &RoceEntropyParser::Classify);
                filter->AddClassifier(UetPdsHeader::UDP_DST_PORT, &UetPdsHeader::Classify);
                filter->SetDropClass(b.spec.packetClass);
                filter->SetDropProbability(b.spec.probability);
                filter->SetNext(dev->GetReceiveErrorModel());
                dev->SetReceiveErrorModel(filter);
                b.filters.emplace_back(dev, filter);
                m_filters.push_back(filter);
            }
        }
        os << cls << " frames dropped with probability " << b.spec.probability << " on "
           << b.filters.size() << " ports (" << LinkList(b.links) << ")";
        Log("drop-class", b.spec.GetTarget(), os.str());
        return;
    }
    uint64_t drops = 0; // this process's ends (a device of another process drops nothing here)
    for (const auto& [dev, filter] : b.filters)
    {
        drops += filter->GetDrops(b.spec.packetClass);
        // Unlink the filter, wherever it is in the device's chain (a later drop-class on the
        // same cable may have chained it).
        Ptr<ErrorModel> head = dev->GetReceiveErrorModel();
        if (head == filter)
        {
            dev->SetReceiveErrorModel(filter->GetNext());
        }
        else
        {
            for (Ptr<PacketClassFilter> f = DynamicCast<PacketClassFilter>(head); f;
                 f = DynamicCast<PacketClassFilter>(f->GetNext()))
            {
                if (f->GetNext() == filter)
                {
                    f->SetNext(filter->GetNext());
                    break;
                }
            }
        }
    }
    os << " dropped on " << b.filters.size() << " ports (" << LinkList(b.links) << ")";
    b.filters.clear();
    const std::string tail = os.str();
    LogCounted("drop-class-end",
               b.spec.GetTarget(),
               drops,
               [cls = std::string(cls), tail](uint64_t n) {
                   return std::to_string(n) + ' ' + cls + " frame" + (n == 1 ? "" : "s") + tail;
               });
}

const std::vector<Ptr<PacketClassFilter>>&
FaultHelper::GetPacketClassFilters() const
{
    return m_filters;
}

void
FaultHelper::Log(const std::string& kind, const std::string& target, const std::string& detail)
{
    NS_ASSERT_MSG(detail.find(',') == std::string::npos, "a fault log detail holds a comma");
    FaultEvent e{Simulator::Now(), kind, target, detail};
    NS_LOG_INFO(FaultSpec::FormatTime(e.time) << ' ' << kind << ' ' << target << ": " << detail);
    m_events.push_back(e);
    m_appliedTrace(e.time, e.kind, e.target, e.detail);
}

void
FaultHelper::LogCounted(const std::string& kind,
                        const std::string& target,
                        uint64_t count,
                        std::function<std::string(uint64_t)> detail)
{
    m_counted.push_back({m_events.size(), count, std::move(detail)});
    Log(kind, target, m_counted.back().detail(count));
}

void
FaultHelper::Gather()
{
    std::vector<uint64_t> counts;
    counts.reserve(m_counted.size());
    for (const CountedRow& r : m_counted)
    {
        counts.push_back(r.count);
    }
    // Every process logged the same rows (it applied every fault): the same count of them.
    counts = FabricMpi::SumEach(counts);
    for (std::size_t i = 0; i < m_counted.size(); ++i)
    {
        m_events[m_counted[i].row].detail = m_counted[i].detail(counts[i]);
    }
}

const std::vector<FaultEvent>&
FaultHelper::GetEvents() const
{
    return m_events;
}

void
FaultHelper::Print(std::ostream& os) const
{
    for (const FaultSpec& s : m_specs)
    {
        os << "fault: " << s.Describe() << '\n';
    }
    if (!m_specs.empty() && !m_convergenceDelay.IsZero())
    {
        os << "fault: routes converge " << FaultSpec::FormatTime(m_convergenceDelay)
           << " after each change (local repair " << (m_localRepair ? "on" : "off") << ")\n";
    }
}

void
FaultHelper::WriteCsv(std::ostream& os) const
{
    os << "time_ns,kind,target,detail\n";
    for (const FaultEvent& e : m_events)
    {
        std::ostringstream t;
        t << std::setprecision(15) << e.time.ToDouble(Time::NS);
        os << t.str() << ',' << e.kind << ',' << e.target << ',' << e.detail << '\n';
    }
}

void
FaultHelper::WriteCsv(const std::string& path) const
{
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out,
                          "FaultHelper::WriteCsv: cannot open \"" << path << "\" for writing");
    WriteCsv(out);
    FABRIC_INPUT_ERROR_IF(!out, "FaultHelper::WriteCsv: write to \"" << path << "\" failed");
}

void
FaultHelper::AddCommandLine(FabricCommandLine& cmd, std::vector<std::string>& specs)
{
    cmd.AddList("fault",
                "Inject a fault (repeatable): " + GetSyntaxHelp(),
                specs,
                [](const std::string& text) -> std::string {
                    std::vector<FaultSpec> parsed;
                    std::string error;
                    return TryParse(text, parsed, error) ? std::string()
                                                         : "--fault=" + text + ": " + error;
                });
    cmd.AddAttribute("convergence-delay", "ns3::FaultHelper::ConvergenceDelay");
}

} // namespace ns3
