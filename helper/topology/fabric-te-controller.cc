/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-te-controller.h"

#include "fabric-topology.h"

#include "ns3/ai-fabric-compat.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/te-load-balancer.h"
#include "ns3/text-fields.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTeController");

NS_OBJECT_ENSURE_REGISTERED(FabricTeController);

namespace
{
/// Key of a (node, port) pair.
uint64_t
PortKey(uint32_t node, uint32_t port)
{
    return uint64_t(node) << 32 | port;
}

/// \return the address as dotted text
std::string
AddressText(Ipv4Address a)
{
    std::ostringstream os;
    os << a;
    return os.str();
}

constexpr double NO_PATH = -std::numeric_limits<double>::infinity();
} // namespace

TypeId
FabricTeController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricTeController")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricTeController>()
            .AddAttribute("RecomputeDelay",
                          "Time from a link going down or up (FabricTopologyHelper's LinkState "
                          "trace) to the new plan, >= 0.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&FabricTeController::m_recomputeDelay),
                          MakeFabricTimeChecker("ns3::FabricTeController::RecomputeDelay", Time(0)))
            .AddAttribute("MaxUtilization",
                          "Fraction of each link's capacity the plan may fill, (0, 1].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&FabricTeController::m_maxUtilization),
                          MakeFabricChecker<DoubleValue>(
                              MakeDoubleChecker<double>(),
                              "ns3::FabricTeController::MaxUtilization",
                              [](const double& u) { return u > 0 && u <= 1; },
                              "(0, 1]",
                              [](const double& u) { return std::to_string(u); }))
            .AddTraceSource("Planned",
                            "A plan was written into the switches.",
                            MakeTraceSourceAccessor(&FabricTeController::m_plannedTrace),
                            "ns3::FabricTeController::PlannedCallback");
    return tid;
}

FabricTeController::FabricTeController()
    : m_recomputeDelay(MilliSeconds(1)),
      m_maxUtilization(1.0)
{
    NS_LOG_FUNCTION(this);
}

FabricTeController::~FabricTeController()
{
    NS_LOG_FUNCTION(this);
}

void
FabricTeController::DoDispose()
{
    m_pending.Cancel();
    m_topology = nullptr;
    m_switchOf.clear();
    Object::DoDispose();
}

void
FabricTeController::SetTopology(Ptr<FabricTopologyHelper> topology)
{
    FABRIC_INPUT_ERROR_IF(!topology,
                          "FabricTeController::SetTopology: the topology is null; pass an "
                          "installed FabricTopologyHelper");
    topology->GetRouteComputer(); // aborts, naming the call, before Install()
    m_topology = topology;
    m_topology->TraceConnectWithoutContext(
        "LinkState",
        MakeCallback(&FabricTeController::LinkStateChanged, this));
    BuildGraph();
}

void
FabricTeController::BuildGraph()
{
    m_portHop.clear();
    m_hostNode.clear();
    m_hostHop.clear();
    m_switchOf.clear();
    for (uint32_t link = 0; link < m_topology->GetNLinks(); ++link)
    {
        Ptr<PfcChannel> ch = m_topology->GetLinkChannel(link);
        for (uint8_t dir = 0; dir < 2; ++dir)
        {
            Ptr<PfcNetDevice> from = ch->GetPfcDevice(dir);
            Ptr<PfcNetDevice> to = ch->GetPfcDevice(1 - dir);
            Ptr<Node> node = from->GetNode();
            const Hop hop{link, dir, to->GetNode()->GetId()};
            Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
            if (sw)
            {
                m_switchOf[node->GetId()] = sw;
                for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
                {
                    if (sw->GetPort(p) == from)
                    {
                        m_portHop[PortKey(node->GetId(), p)] = hop;
                    }
                }
            }
            else if (m_topology->GetNodeType(node) == FabricNodeType::GPU)
            {
                // A GPU's device i is NIC port i (FabricTopologyHelper numbers them so).
                for (uint32_t r = 0; r < m_topology->GetNRanks(); ++r)
                {
                    if (m_topology->GetRank(r) == node)
                    {
                        const uint32_t addr = m_topology->GetAddress(r, from->GetIfIndex()).Get();
                        m_hostNode[addr] = node->GetId();
                        m_hostHop[addr] = hop;
                        break;
                    }
                }
            }
        }
    }
}

void
FabricTeController::Add(FabricTeDemand d, const std::string& what)
{
    FABRIC_INPUT_ERROR_IF(!m_topology,
                          "FabricTeController::" << what
                                                 << ": call SetTopology() first (the controller "
                                                    "checks demands against the fabric)");
    for (Ipv4Address a : {d.src, d.dst})
    {
        FABRIC_INPUT_ERROR_IF(m_hostNode.find(a.Get()) == m_hostNode.end(),
                              "FabricTeController::"
                                  << what << ": address " << a
                                  << " is not a NIC port of this fabric (valid: the addresses "
                                     "FabricTopologyHelper::GetAddress gives)");
    }
    FABRIC_INPUT_ERROR_IF(d.src == d.dst,
                          "FabricTeController::" << what << ": source and destination are both "
                                                 << d.src << "; a demand needs two hosts");
    FABRIC_INPUT_ERROR_IF(d.rateBps <= 0,
                          "FabricTeController::" << what << ": rate " << d.rateBps << " bit/s from "
                                                 << d.src << " to " << d.dst
                                                 << " is invalid; it must be > 0");
    m_demands.push_back(std::move(d));
}

void
FabricTeController::AddDemand(Ipv4Address src, Ipv4Address dst, DataRate rate)
{
    FabricTeDemand d;
    d.src = src;
    d.dst = dst;
    d.rateBps = double(rate.GetBitRate());
    Add(d, "AddDemand");
}

void
FabricTeController::AddDemand(uint32_t srcRank, uint32_t dstRank, DataRate rate, uint32_t index)
{
    FABRIC_INPUT_ERROR_IF(!m_topology, "FabricTeController::AddDemand: call SetTopology() first");
    const auto ports = m_topology->GetConnectionPorts(srcRank, dstRank, index);
    FABRIC_INPUT_ERROR_IF(m_topology->GetServerOf(srcRank) == m_topology->GetServerOf(dstRank),
                          "FabricTeController::AddDemand: ranks "
                              << srcRank << " and " << dstRank
                              << " share a server (NVLink); a demand crosses the scale-out "
                                 "fabric");
    AddDemand(m_topology->GetAddress(srcRank, ports.first),
              m_topology->GetAddress(dstRank, ports.second),
              rate);
}

void
FabricTeController::AddFlowDemand(const SwitchFlowKey& key, DataRate rate)
{
    FabricTeDemand d;
    d.src = Ipv4Address(key.srcIp);
    d.dst = Ipv4Address(key.dstIp);
    d.rateBps = double(rate.GetBitRate());
    d.flow = true;
    d.key = key;
    Add(d, "AddFlowDemand");
}

uint32_t
FabricTeController::ReadDemandsCsv(const std::string& path)
{
    std::ifstream in(path);
    FABRIC_INPUT_ERROR_IF(!in, "FabricTeController::ReadDemandsCsv: cannot read '" << path << "'");
    std::string line;
    uint32_t lineNo = 0;
    uint32_t read = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        if (line.empty() || line[0] == '#' || (lineNo == 1 && !std::isdigit(line[0])))
        {
            continue;
        }
        const std::vector<std::string> f = text::Split(line, ',');
        uint64_t src = 0;
        uint64_t dst = 0;
        uint64_t rate = 0;
        const uint64_t ranks = m_topology ? m_topology->GetNRanks() : 0;
        FABRIC_INPUT_ERROR_IF(
            f.size() != 3 || ranks == 0 ||
                text::ParseWhole(f[0], 0, ranks - 1, src) != text::WholeVerdict::OK ||
                text::ParseWhole(f[1], 0, ranks - 1, dst) != text::WholeVerdict::OK ||
                text::ParseWhole(f[2], 1, UINT64_MAX, rate) != text::WholeVerdict::OK,
            "FabricTeController::ReadDemandsCsv: "
                << path << " line " << lineNo << " '" << text::Printable(line)
                << "' is invalid; expected src_rank,dst_rank,"
                   "rate_bps with ranks 0.."
                << (ranks ? ranks - 1 : 0) << " and a rate >= 1 bit/s");
        AddDemand(uint32_t(src), uint32_t(dst), DataRate(rate));
        ++read;
    }
    return read;
}

void
FabricTeController::ClearDemands()
{
    m_demands.clear();
}

uint32_t
FabricTeController::GetNDemands() const
{
    return static_cast<uint32_t>(m_demands.size());
}

double
FabricTeController::Widest(uint32_t node, uint32_t dst, uint32_t& port)
{
    port = UINT32_MAX;
    auto memo = m_memo.find(node);
    if (memo != m_memo.end())
    {
        port = memo->second.second;
        return memo->second.first;
    }
    m_memo[node] = {NO_PATH, UINT32_MAX}; // in progress: a loop finds no path
    double best = NO_PATH;
    auto sw = m_switchOf.find(node);
    const uint32_t* ports = nullptr;
    uint32_t n = 0;
    if (sw != m_switchOf.end() && sw->second->GetForwardingTable()->Lookup(dst, ports, n))
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            auto h = m_portHop.find(PortKey(node, ports[i]));
            if (h == m_portHop.end() || !sw->second->IsPortUp(ports[i]))
            {
                continue;
            }
            const Hop& hop = h->second;
            const uint32_t d = 2 * hop.link + hop.dir;
            double room = m_plan.capacityBps[d] * m_maxUtilization - m_plan.loadBps[d];
            if (m_plan.capacityBps[d] <= 0)
            {
                continue;
            }
            if (hop.next != m_hostNode[dst])
            {
                uint32_t unused;
                room = std::min(room, Widest(hop.next, dst, unused));
            }
            if (room > best)
            {
                best = room;
                port = ports[i];
            }
        }
    }
    m_memo[node] = {best, port};
    return best;
}

const FabricTePlan&
FabricTeController::Plan()
{
    FABRIC_INPUT_ERROR_IF(!m_topology, "FabricTeController::Plan: call SetTopology() first");
    m_pending.Cancel();
    const uint32_t nLinks = m_topology->GetNLinks();
    FabricTePlan plan;
    plan.at = Simulator::Now();
    plan.number = m_plan.number + 1;
    plan.loadBps.assign(2 * size_t(nLinks), 0.0);
    plan.capacityBps.assign(2 * size_t(nLinks), 0.0);
    for (uint32_t link = 0; link < nLinks; ++link)
    {
        Ptr<PfcChannel> ch = m_topology->GetLinkChannel(link);
        for (uint8_t dir = 0; dir < 2; ++dir)
        {
            plan.capacityBps[2 * link + dir] =
                ch->IsLinkUp() ? double(ch->GetPfcDevice(dir)->GetDataRate().GetBitRate()) : 0;
        }
    }
    m_plan = std::move(plan);
    for (auto& [node, sw] : m_switchOf)
    {
        if (Ptr<TeLoadBalancer> lb = DynamicCast<TeLoadBalancer>(sw->GetLoadBalancer()))
        {
            lb->ClearPins();
        }
    }
    std::vector<FabricTeDemand> order = m_demands;
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.rateBps > b.rateBps;
    });
    for (FabricTeDemand& d : order)
    {
        d.links.clear();
        d.nodes.clear();
        const Hop first = m_hostHop[d.src.Get()];
        const uint32_t dst = d.dst.Get();
        const uint32_t firstDir = 2 * first.link + first.dir;
        m_memo.clear();
        uint32_t port = UINT32_MAX;
        double room = Widest(first.next, dst, port);
        room = std::min(room,
                        m_plan.capacityBps[firstDir] * m_maxUtilization - m_plan.loadBps[firstDir]);
        d.routed = room != NO_PATH && m_plan.capacityBps[firstDir] > 0;
        if (!d.routed)
        {
            ++m_plan.unreachable;
            std::cerr << "FabricTeController: no path from " << d.src << " to " << d.dst
                      << " (plan " << m_plan.number << "); the demand is not pinned\n";
            m_plan.demands.push_back(d);
            continue;
        }
        d.headroomBps = room;
        d.met = room >= d.rateBps;
        if (!d.met)
        {
            ++m_plan.unmet;
            std::cerr << "FabricTeController: demand " << d.src << " -> " << d.dst << " of "
                      << d.rateBps / 1e9 << " Gb/s exceeds the widest path's spare "
                      << std::max(0.0, room) / 1e9 << " Gb/s (plan " << m_plan.number
                      << "); routed best effort\n";
        }
        // Walk the chosen ports, adding the load and pinning where there was a choice.
        d.nodes.push_back(m_hostNode[d.src.Get()]);
        d.links.push_back(first.link);
        m_plan.loadBps[firstDir] += d.rateBps;
        uint32_t node = first.next;
        while (node != m_hostNode[dst])
        {
            d.nodes.push_back(node);
            uint32_t out = m_memo[node].second;
            Ptr<FabricSwitch> sw = m_switchOf[node];
            const uint32_t* ports = nullptr;
            uint32_t n = 0;
            sw->GetForwardingTable()->Lookup(dst, ports, n);
            if (n > 1)
            {
                Ptr<TeLoadBalancer> lb = DynamicCast<TeLoadBalancer>(sw->GetLoadBalancer());
                FABRIC_INPUT_ERROR_IF(
                    !lb,
                    "FabricTeController::Plan: switch "
                        << m_topology->GetNodeName(node) << " runs "
                        << sw->GetLoadBalancer()->GetInstanceTypeId().GetName()
                        << "; pinned paths need ns3::TeLoadBalancer there "
                           "(--lb=te, SwitchHelper::SetLoadBalancerByName(\"te\"))");
                if (d.flow)
                {
                    lb->PinFlow(d.key, out);
                }
                else
                {
                    lb->PinPair(d.src.Get(), dst, out);
                }
                ++m_plan.pins;
            }
            const Hop& hop = m_portHop[PortKey(node, out)];
            d.links.push_back(hop.link);
            m_plan.loadBps[2 * hop.link + hop.dir] += d.rateBps;
            node = hop.next;
        }
        d.nodes.push_back(node);
        m_plan.demands.push_back(d);
    }
    m_memo.clear();
    for (size_t i = 0; i < m_plan.loadBps.size(); ++i)
    {
        if (m_plan.capacityBps[i] > 0)
        {
            m_plan.maxUtilization =
                std::max(m_plan.maxUtilization, m_plan.loadBps[i] / m_plan.capacityBps[i]);
        }
    }
    NS_LOG_INFO("plan " << m_plan.number << ": " << m_plan.demands.size() << " demands, "
                        << m_plan.pins << " pins, max utilization " << m_plan.maxUtilization
                        << ", unmet " << m_plan.unmet);
    m_plannedTrace(m_plan);
    return m_plan;
}

const FabricTePlan&
FabricTeController::GetPlan() const
{
    return m_plan;
}

void
FabricTeController::LinkStateChanged(uint32_t, bool)
{
    if (!compat::IsPending(m_pending))
    {
        m_pending = Simulator::Schedule(m_recomputeDelay, [this]() { Plan(); });
    }
}

void
FabricTeController::WritePlanCsv(const std::string& path) const
{
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out, "FabricTeController::WritePlanCsv: cannot write '" << path << "'");
    out << "plan,time_ns,src,dst,rate_bps,headroom_bps,met,path\n";
    for (const auto& d : m_plan.demands)
    {
        out << m_plan.number << ',' << m_plan.at.GetNanoSeconds() << ',' << AddressText(d.src)
            << ',' << AddressText(d.dst) << ',' << uint64_t(d.rateBps) << ','
            << int64_t(std::max(-1e18, d.routed ? d.headroomBps : 0.0)) << ',' << (d.met ? 1 : 0)
            << ',';
        for (size_t i = 0; i < d.nodes.size(); ++i)
        {
            out << (i ? ">" : "") << m_topology->GetNodeName(d.nodes[i]);
        }
        out << '\n';
    }
}

} // namespace ns3
