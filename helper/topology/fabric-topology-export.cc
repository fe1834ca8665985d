/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricTopologyHelper, part 4 of 4: the summary (counts, rates, memory estimate), the CSV
 * and dot exports, and cable failures and degradations.
 */
#include "fabric-aggregate-counters.h"
#include "fabric-topology.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-time.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/pfc-channel.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <unistd.h>

namespace ns3
{

namespace
{

/// A delay as "150 ns", "1 us".
std::string
FormatDelay(Time t)
{
    std::ostringstream os;
    os << std::setprecision(4);
    double ns = t.ToDouble(Time::NS);
    if (ns >= 1000)
    {
        os << ns / 1000 << " us";
    }
    else
    {
        os << ns << " ns";
    }
    return os.str();
}

} // namespace

// ---- summary and export --------------------------------------------------------------------

uint64_t
FabricTopologyHelper::GetNLinks(FabricLinkTier tier) const
{
    FABRIC_INPUT_ERROR_IF(tier >= FabricLinkTier::COUNT,
                          GetInstanceTypeId().GetName() << "::GetNLinks: invalid tier");
    return m_tierLinks[size_t(tier)];
}

DataRate
FabricTopologyHelper::GetLinkRate(FabricLinkTier tier) const
{
    FABRIC_INPUT_ERROR_IF(tier >= FabricLinkTier::COUNT,
                          GetInstanceTypeId().GetName() << "::GetLinkRate: invalid tier");
    return m_tierLinks[size_t(tier)] > 0 ? m_tierRate[size_t(tier)] : DataRate(0);
}

Time
FabricTopologyHelper::GetLinkDelay(FabricLinkTier tier) const
{
    FABRIC_INPUT_ERROR_IF(tier >= FabricLinkTier::COUNT,
                          GetInstanceTypeId().GetName() << "::GetLinkDelay: invalid tier");
    return m_tierLinks[size_t(tier)] > 0 ? m_tierDelay[size_t(tier)] : Time(0);
}

Time
FabricTopologyHelper::GetMaxUnloadedRtt(uint32_t dataFrameBytes, uint32_t ackFrameBytes) const
{
    CheckInstalled("GetMaxUnloadedRtt");
    // A frame reaches the next hop (preamble + frame) x 8 / rate after it starts, plus the
    // cable's delay (PfcNetDevice); switches add their ProcessingDelay, NICs nothing.
    int64_t ps = 0;
    uint32_t cables = 0;
    for (FabricLinkTier tier :
         {FabricLinkTier::GPU_LEAF, FabricLinkTier::LEAF_SPINE, FabricLinkTier::SPINE_CORE})
    {
        if (GetNLinks(tier) == 0)
        {
            continue;
        }
        ps +=
            2 * CableRoundTrip(GetLinkRate(tier), GetLinkDelay(tier), dataFrameBytes, ackFrameBytes)
                    .GetPicoSeconds(); // up and down
        cables += 2;
    }
    TimeValue latency;
    GetLeaf(0)->GetObject<FabricSwitch>()->GetAttribute("ProcessingDelay", latency);
    ps += latency.Get().GetPicoSeconds() * 2 * (cables - 1);
    return PicoSeconds(ps);
}

Time
FabricTopologyHelper::CableRoundTrip(DataRate rate,
                                     Time delay,
                                     uint32_t dataFrameBytes,
                                     uint32_t ackFrameBytes)
{
    // A frame reaches the next hop (preamble + frame) x 8 / rate after it starts, plus the
    // cable's delay (PfcNetDevice): a data frame one way, its ACK the other.
    return BytesTxTime(PfcNetDevice::PREAMBLE_BYTES + dataFrameBytes, rate) +
           BytesTxTime(PfcNetDevice::PREAMBLE_BYTES + ackFrameBytes, rate) + 2 * delay;
}

uint64_t
FabricTopologyHelper::GetBisectionBandwidth() const
{
    uint64_t best = std::numeric_limits<uint64_t>::max();
    for (auto tier :
         {FabricLinkTier::GPU_LEAF, FabricLinkTier::LEAF_SPINE, FabricLinkTier::SPINE_CORE})
    {
        uint64_t n = m_tierLinks[size_t(tier)];
        if (n > 0)
        {
            best = std::min<uint64_t>(best, n * m_tierRate[size_t(tier)].GetBitRate() / 2);
        }
    }
    return best == std::numeric_limits<uint64_t>::max() ? 0 : best;
}

double
FabricTopologyHelper::GetOversubscription() const
{
    return m_leafOversubscription;
}

void
FabricTopologyHelper::Print(std::ostream& os) const
{
    os << GetKindName() << " fabric: " << GetNRanks() << " GPUs = " << m_servers << " servers x "
       << m_gpusPerServer << " GPUs, " << m_portsPerGpu << " NIC port(s) per GPU"
       << (m_installed ? "" : " (not installed)") << "\n";
    DoPrintShape(os);
    os << "  switches: " << (m_installed ? m_nvSwitches.GetN() : 0) << " NVSwitch, " << m_nLeaves
       << " leaf, " << m_nSpines << " spine";
    if (m_nCores > 0)
    {
        os << ", " << m_nCores << " core";
    }
    os << " (" << m_nLeaves + m_nSpines + m_nCores << " scale-out)\n";
    os << "  links:";
    bool first = true;
    for (size_t i = 0; i < size_t(FabricLinkTier::COUNT); ++i)
    {
        if (m_tierLinks[i] == 0)
        {
            continue;
        }
        os << (first ? " " : ", ") << m_tierLinks[i] << " " << FabricLinkTierName(FabricLinkTier(i))
           << " @ " << FabricFormatRate(m_tierRate[i].GetBitRate()) << " "
           << FormatDelay(m_tierDelay[i]);
        first = false;
    }
    os << (first ? " none\n" : "\n");
    uint64_t bisection = GetBisectionBandwidth();
    os << "  bisection bandwidth: " << FabricFormatRate(double(bisection)) << " (" << bisection
       << " bit/s)\n";
    double o = GetOversubscription();
    os << "  oversubscription: ";
    if (o > 0)
    {
        os << std::setprecision(4) << o << ":1 (leaf down/up bandwidth, all slots filled)\n";
    }
    else
    {
        os << "n/a (no leaf uplinks)\n";
    }
}

std::ostream&
operator<<(std::ostream& os, const FabricTopologyHelper& topology)
{
    topology.Print(os);
    return os;
}

void
FabricTopologyHelper::WriteLinksCsv(const std::string& path) const
{
    CheckInstalled("WriteLinksCsv");
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out,
                          GetInstanceTypeId().GetName()
                              << "::WriteLinksCsv: cannot open \"" << path << "\" for writing");
    out << "node_a,type_a,port_a,node_b,type_b,port_b,rate_bps,delay_ns\n";
    for (const auto& l : m_links)
    {
        out << GlobalName(l.a) << "," << FabricNodeTypeName(GlobalType(l.a)) << "," << l.portA
            << "," << GlobalName(l.b) << "," << FabricNodeTypeName(GlobalType(l.b)) << ","
            << l.portB << "," << m_tierRate[size_t(l.tier)].GetBitRate() << ","
            << m_tierDelay[size_t(l.tier)].ToDouble(Time::NS) << "\n";
    }
    FABRIC_INPUT_ERROR_IF(!out,
                          GetInstanceTypeId().GetName()
                              << "::WriteLinksCsv: write to \"" << path << "\" failed");
}

void
FabricTopologyHelper::WriteDot(const std::string& path) const
{
    CheckInstalled("WriteDot");
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out,
                          GetInstanceTypeId().GetName()
                              << "::WriteDot: cannot open \"" << path << "\" for writing");
    static const char* shapes[] = {"box", "hexagon", "ellipse", "ellipse", "ellipse"};
    static const char* colors[] = {"palegreen", "khaki", "lightblue", "lightsalmon", "plum"};
    out << "graph fabric {\n  graph [overlap=false];\n  node [style=filled];\n";
    uint32_t total = GetNRanks() + m_nvSwitches.GetN() + m_switches.GetN();
    for (uint32_t i = 0; i < total; ++i)
    {
        auto type = size_t(GlobalType(i));
        out << "  \"" << GlobalName(i) << "\" [shape=" << shapes[type]
            << ", fillcolor=" << colors[type] << "];\n";
    }
    for (const auto& l : m_links)
    {
        out << "  \"" << GlobalName(l.a) << "\" -- \"" << GlobalName(l.b) << "\" [label=\""
            << FabricFormatRate(m_tierRate[size_t(l.tier)].GetBitRate()) << "\", taillabel=\""
            << l.portA << "\", headlabel=\"" << l.portB << "\"];\n";
    }
    out << "}\n";
    FABRIC_INPUT_ERROR_IF(!out,
                          GetInstanceTypeId().GetName()
                              << "::WriteDot: write to \"" << path << "\" failed");
}

// ---- links and failures --------------------------------------------------------------------

uint32_t
FabricTopologyHelper::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

void
FabricTopologyHelper::CheckLink(uint32_t link, const char* what) const
{
    CheckInstalled(what);
    FABRIC_INPUT_ERROR_IF(link >= m_links.size(),
                          GetInstanceTypeId().GetName()
                              << "::" << what << ": link " << link << " does not exist (links 0.."
                              << int64_t(m_links.size()) - 1 << ")");
}

std::vector<uint32_t>
FabricTopologyHelper::FindLinks(Ptr<const Node> a, Ptr<const Node> b) const
{
    GetNodeType(a); // aborts unless installed and part of this fabric
    GetNodeType(b);
    uint32_t ga = a->GetId() - m_firstNodeId;
    uint32_t gb = b->GetId() - m_firstNodeId;
    std::vector<uint32_t> found;
    for (uint32_t i = 0; i < m_links.size(); ++i)
    {
        const Link& l = m_links[i];
        if ((l.a == ga && l.b == gb) || (l.a == gb && l.b == ga))
        {
            found.push_back(i);
        }
    }
    return found;
}

Ptr<PfcChannel>
FabricTopologyHelper::GetLinkChannel(uint32_t link) const
{
    CheckLink(link, "GetLinkChannel");
    const Link& l = m_links[link];
    return DynamicCast<PfcNetDevice>(GlobalNode(l.a)->GetDevice(l.portA))->GetPfcChannel();
}

uint64_t
FabricTopologyHelper::GetLinkTxBytes(uint32_t link, Ptr<const Node> from) const
{
    Ptr<PfcChannel> ch = GetLinkChannel(link);
    for (std::size_t d = 0; d < ch->GetNDevices(); ++d)
    {
        Ptr<PfcNetDevice> dev = ch->GetPfcDevice(d);
        if (dev->GetNode() == from)
        {
            uint64_t bytes = 0;
            for (uint64_t b : dev->GetCounters().txBytes)
            {
                bytes += b;
            }
            return bytes;
        }
    }
    FABRIC_INPUT_ERROR(GetInstanceTypeId().GetName()
                       << "::GetLinkTxBytes: link " << link << " does not end at "
                       << (from ? GetNodeName(from->GetId()) : std::string("a null node"))
                       << "; its ends are " << GetNodeName(ch->GetPfcDevice(0)->GetNode()->GetId())
                       << " and " << GetNodeName(ch->GetPfcDevice(1)->GetNode()->GetId()));
    return 0;
}

Ptr<FabricRouteComputer>
FabricTopologyHelper::GetRouteComputer() const
{
    CheckInstalled("GetRouteComputer");
    return m_routes;
}

const FabricRouteStats&
FabricTopologyHelper::SetLinkUp(uint32_t link, bool up)
{
    CheckLink(link, "SetLinkUp");
    Ptr<PfcChannel> channel = GetLinkChannel(link);
    channel->SetLinkUp(up);
    // The switches at either end see their port's liveness (load balancing skips a down port
    // at once, before and beside the recomputed routes).
    for (std::size_t d = 0; d < channel->GetNDevices(); ++d)
    {
        Ptr<PfcNetDevice> dev = channel->GetPfcDevice(d);
        Ptr<FabricSwitch> sw = dev->GetNode()->GetObject<FabricSwitch>();
        for (uint32_t p = 0; sw && p < sw->GetNPorts(); ++p)
        {
            if (sw->GetPort(p) == dev)
            {
                sw->SetPortUp(p, up);
            }
        }
    }
    m_routes->SetLinkUp(link, up);
    m_routes->Compute();
    m_linkStateTrace(link, up);
    return m_routes->GetStats();
}

void
FabricTopologyHelper::NotifyLinkState(uint32_t link, bool up)
{
    CheckLink(link, "NotifyLinkState");
    m_linkStateTrace(link, up);
}

void
FabricTopologyHelper::SetLinkDataRate(uint32_t link, DataRate rate)
{
    CheckLink(link, "SetLinkDataRate");
    FABRIC_INPUT_ERROR_IF(rate.GetBitRate() == 0,
                          GetInstanceTypeId().GetName()
                              << "::SetLinkDataRate: link " << link << " rate " << rate
                              << " is invalid; it must be > 0 bit/s (use SetLinkUp(" << link
                              << ", false) to cut the cable)");
    Ptr<PfcChannel> channel = GetLinkChannel(link);
    for (std::size_t d = 0; d < channel->GetNDevices(); ++d)
    {
        channel->GetPfcDevice(d)->SetDataRate(rate);
    }
    InformLoadBalancers(); // balancers that measure utilization (CONGA's DRE) see the new rate
}

const FabricBuildStats&
FabricTopologyHelper::GetBuildStats() const
{
    return m_stats;
}

} // namespace ns3
