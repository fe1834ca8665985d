/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricTopologyHelper, part 2 of 4: Install() builds the planned fabric (nodes, cables,
 * switches, NIC cores and transports, routes). Part 1 (fabric-topology.cc) holds the attributes,
 * the plan and its validation; part 3 (fabric-topology-access.cc) the lookups and connections;
 * part 4 (fabric-topology-export.cc) the summary, exports and link failures.
 */
#include "fabric-aggregate-counters.h"
#include "fabric-topology.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-mpi.h"
#include "ns3/fabric-time.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-remote-exchange.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <unistd.h>
#include <unordered_map>

namespace ns3
{

namespace
{

/// Seconds elapsed since \p start (wall clock).
double
Since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

// ---- build ---------------------------------------------------------------------------------

void
FabricTopologyHelper::MakeLink(FabricLinkTier tier, uint32_t globalA, uint32_t globalB)
{
    NetDeviceContainer d =
        m_tierHelper[size_t(tier)].Install(GlobalNode(globalA), GlobalNode(globalB));
    m_links.push_back(Link{globalA, globalB, d.Get(0)->GetIfIndex(), d.Get(1)->GetIfIndex(), tier});
    m_tierLinks[size_t(tier)]++;
}

uint32_t
FabricTopologyHelper::GetSystemsToUse() const
{
    const uint32_t processes = FabricMpi::GetSize();
    FABRIC_INPUT_ERROR_IF(m_systems != 0 && m_systems != processes,
                          GetInstanceTypeId().GetName()
                              << ": Systems " << m_systems << " but this run has " << processes
                              << " MPI process" << (processes == 1 ? "" : "es")
                              << "; set Systems to 0 (one per process) or start " << m_systems
                              << " processes (mpirun -np " << m_systems
                              << ", in a build with MPI: tools/ai-fabric.sh mpi-build)");
    return processes;
}

std::vector<FabricPartition::Cable>
FabricTopologyHelper::PlanCables() const
{
    const uint32_t nRanks = GetNRanks();
    const uint32_t k = m_portsPerGpu;
    const uint32_t swBase = nRanks + NvSwitchCount();
    std::vector<FabricPartition::Cable> cables;
    cables.reserve(uint64_t(nRanks) * (k + 1) + m_planned.size());
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        for (uint32_t p = 0; p < k; ++p)
        {
            cables.push_back({r,
                              swBase + m_attachLeaf[uint64_t(r) * k + p],
                              FabricLinkTier::GPU_LEAF,
                              m_tierDelay[size_t(FabricLinkTier::GPU_LEAF)]});
        }
        if (m_nvLink)
        {
            cables.push_back({r,
                              nRanks + r / m_gpusPerServer,
                              FabricLinkTier::NVLINK,
                              m_tierDelay[size_t(FabricLinkTier::NVLINK)]});
        }
    }
    for (const auto& l : m_planned)
    {
        cables.push_back({swBase + l.a, swBase + l.b, l.tier, m_tierDelay[size_t(l.tier)]});
    }
    return cables;
}

void
FabricTopologyHelper::ConnectProcesses()
{
    if (!FabricMpi::IsEnabled() || m_partition->GetCrossingCables() == 0)
    {
        return;
    }
    // One exchange per process batches the frames of every cable to another process; it is
    // aggregated to the helper for its counters (GetObject<PfcRemoteExchange>()).
    auto exchange = CreateObject<PfcRemoteExchange>();
    AggregateObject(exchange);
    for (uint32_t s = 0; s < m_partition->GetSystems(); ++s)
    {
        if (m_partition->GetLookahead(s).IsStrictlyPositive())
        {
            exchange->SetLookahead(s, m_partition->GetLookahead(s));
        }
    }
    for (const auto& l : m_links)
    {
        if (m_partition->GetSystem(l.a) != m_partition->GetSystem(l.b))
        {
            DynamicCast<PfcChannel>(GlobalNode(l.a)->GetDevice(l.portA)->GetChannel())
                ->SetRemoteExchange(exchange);
        }
    }
}

const FabricPartition&
FabricTopologyHelper::GetPartition() const
{
    NS_ABORT_MSG_IF(!m_partition,
                    GetInstanceTypeId().GetName() << "::GetPartition called before Install");
    return *m_partition;
}

void
FabricTopologyHelper::Install()
{
    FABRIC_INPUT_ERROR_IF(m_installed,
                          GetInstanceTypeId().GetName()
                              << "::Install called twice; create a new helper for another fabric");
    auto start = std::chrono::steady_clock::now();
    DoConfigure();
    CheckCommon();
    // 0 = the port helper's Mtu; checked now, before anything is built.
    const uint32_t portMtu = m_portMtu != 0 || m_portMtuFromTransport ? GetPortMtu() : 0;
    WarnIgnoredPortDefaults();
    WarnIgnoredPlacement();
    m_tierRate.fill(DataRate(0));
    m_tierDelay.fill(Time(0));
    m_tierLinks.fill(0);
    m_tierRate[size_t(FabricLinkTier::NVLINK)] = m_nvLinkRate;
    m_tierDelay[size_t(FabricLinkTier::NVLINK)] = m_nvLinkDelay;
    m_tierRate[size_t(FabricLinkTier::GPU_LEAF)] = m_gpuLinkRate;
    m_tierDelay[size_t(FabricLinkTier::GPU_LEAF)] = m_gpuLinkDelay;
    m_planned.clear();
    m_nLeaves = 0;
    m_leafOversubscription = 0;
    DoPlan();
    FABRIC_INPUT_ERROR_IF(m_nLeaves == 0,
                          GetInstanceTypeId().GetName() << ": DoPlan did not call SetSwitchCounts");

    const uint32_t nRanks = GetNRanks();
    const uint32_t k = m_portsPerGpu;
    m_attachLeaf.resize(uint64_t(nRanks) * k);
    m_attachPort.assign(uint64_t(nRanks) * k, 0);
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        for (uint32_t p = 0; p < k; ++p)
        {
            uint32_t leaf = DoGetLeafIndex(r / m_gpusPerServer, r % m_gpusPerServer, p);
            FABRIC_INPUT_ERROR_IF(leaf >= m_nLeaves,
                                  GetInstanceTypeId().GetName()
                                      << ": rank " << r << " port " << p << " planned on leaf "
                                      << leaf << " of " << m_nLeaves);
            m_attachLeaf[uint64_t(r) * k + p] = leaf;
        }
    }

    // Refuse a plan that cannot fit before building any of it.
    const uint32_t nSwitches = m_nLeaves + m_nSpines + m_nCores;
    const uint32_t nNv = NvSwitchCount();
    const uint32_t nvPorts = m_nvLink ? 1 : 0;
    const uint64_t nNodes = uint64_t(nRanks) + nNv + nSwitches;
    const uint64_t nCables = uint64_t(nRanks) * (k + nvPorts) + m_planned.size();
    m_stats.estimatedBytes = EstimateMemoryBytes(nNodes, nCables, uint64_t(nSwitches) * nRanks * k);
    const uint64_t limit = m_memoryLimit > 0 ? m_memoryLimit : GetAvailableMemoryBytes();
    FABRIC_INPUT_ERROR_IF(
        limit > 0 && m_stats.estimatedBytes > limit,
        GetInstanceTypeId().GetName()
            << ": the planned fabric (" << nNodes << " nodes, " << nCables << " cables, "
            << nSwitches << " scale-out switches x " << nRanks * k
            << " NIC addresses of forwarding entries) needs an estimated "
            << m_stats.estimatedBytes / (1 << 20) << " MiB, more than the " << limit / (1 << 20)
            << " MiB " << (m_memoryLimit > 0 ? "of MemoryLimit" : "available on this machine")
            << "; plan fewer servers or switches (or raise MemoryLimit)");

    // Which MPI process simulates which node: only switch-to-switch cables may cross.
    auto t = std::chrono::steady_clock::now();
    m_partition = std::make_shared<FabricPartition>(static_cast<uint32_t>(nNodes),
                                                    nRanks,
                                                    PlanCables(),
                                                    m_partitionBy,
                                                    GetSystemsToUse(),
                                                    [this](uint32_t i) { return GlobalName(i); });

    // Nodes: GPUs, NVSwitches, then leaves, spines, cores, with consecutive ids.
    for (uint32_t i = 0; i < nNodes; ++i)
    {
        Ptr<Node> node = CreateObject<Node>(m_partition->GetSystem(i));
        (i < nRanks ? m_gpus : (i < nRanks + nNv ? m_nvSwitches : m_switches)).Add(node);
    }
    m_firstNodeId = m_gpus.Get(0)->GetId();
    FABRIC_INPUT_ERROR_IF(m_switches.Get(nSwitches - 1)->GetId() !=
                              m_firstNodeId + nRanks + nNv + nSwitches - 1,
                          GetInstanceTypeId().GetName()
                              << ": node ids are not consecutive (nodes created concurrently?)");
    m_stats.nodesSeconds = Since(t);

    // Cables: per rank its scale-out ports then its NVLink port (so device index = NIC port
    // index, leaf ports follow server order and NVSwitch port = local index), then the
    // switch-to-switch cables in plan order.
    t = std::chrono::steady_clock::now();
    for (size_t i = 0; i < m_tierHelper.size(); ++i)
    {
        m_tierHelper[i] = m_portHelper;
        m_tierHelper[i].SetDeviceAttribute("DataRate", DataRateValue(m_tierRate[i]));
        m_tierHelper[i].SetChannelAttribute("Delay", TimeValue(m_tierDelay[i]));
        if (portMtu != 0)
        {
            m_tierHelper[i].SetDeviceAttribute("Mtu", UintegerValue(portMtu));
        }
    }
    const uint32_t swBase = nRanks + nNv;
    m_links.reserve(uint64_t(nRanks) * (k + nvPorts) + m_planned.size());
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        for (uint32_t p = 0; p < k; ++p)
        {
            MakeLink(FabricLinkTier::GPU_LEAF, r, swBase + m_attachLeaf[uint64_t(r) * k + p]);
            m_attachPort[uint64_t(r) * k + p] = m_links.back().portB;
        }
        if (m_nvLink)
        {
            MakeLink(FabricLinkTier::NVLINK, r, nRanks + r / m_gpusPerServer);
        }
    }
    for (const auto& l : m_planned)
    {
        MakeLink(l.tier, swBase + l.a, swBase + l.b);
    }
    m_planned.clear();
    m_planned.shrink_to_fit();
    ConnectProcesses();
    m_stats.linksSeconds = Since(t);

    t = std::chrono::steady_clock::now();
    for (uint32_t s = 0; s < nNv; ++s)
    {
        m_nvSwitchHelper.Install(m_nvSwitches.Get(s));
    }
    // Leaves, spines and cores each with the common helper plus their tier's settings.
    std::array<SwitchHelper, 3> tierSwitchHelper{GetTierSwitchHelper(FabricNodeType::LEAF),
                                                 GetTierSwitchHelper(FabricNodeType::SPINE),
                                                 GetTierSwitchHelper(FabricNodeType::CORE)};
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        const size_t tier = i < m_nLeaves ? 0 : (i < m_nLeaves + m_nSpines ? 1 : 2);
        tierSwitchHelper[tier].Install(m_switches.Get(i));
    }
    // Every switch port cabled to a NIC is a last-hop port: a packet trimmed on its way out
    // gets the MMU's LastHopTrimDscp (UET: NACK TRIMMED_LASTHOP instead of TRIMMED).
    for (const auto& l : m_links)
    {
        if (l.tier == FabricLinkTier::GPU_LEAF || l.tier == FabricLinkTier::NVLINK)
        {
            GlobalNode(l.b)->GetObject<FabricSwitch>()->SetLastHopPort(l.portB, true);
        }
    }
    m_stats.switchesSeconds = Since(t);

    t = std::chrono::steady_clock::now();
    m_nics.resize(nRanks);
    m_uetNics.resize(nRanks);
    m_cores.resize(nRanks);
    const std::vector<Ptr<FabricTransportPlugin>> transports = GetTransports();
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        Ptr<Node> gpu = m_gpus.Get(r);
        Ptr<FabricNic> core = FabricNic::GetOrCreate(gpu);
        for (uint32_t p = 0; p < k + nvPorts; ++p)
        {
            core->AddPort(DynamicCast<PfcNetDevice>(gpu->GetDevice(p)), GetAddress(r, p));
        }
        m_cores[r] = core;
        for (const auto& transport : transports)
        {
            transport->Install(gpu, core);
        }
        m_nics[r] = gpu->GetObject<RoceNic>();
        m_uetNics[r] = gpu->GetObject<UetNic>();
    }
    // A transport refuses, naming the switch, a switch it cannot work with (e.g. UET's trimmed
    // packets too short to recognize): now rather than mid-run. The hosts share their NIC
    // settings, so rank 0 speaks for all.
    for (const auto& transport : transports)
    {
        for (uint32_t i = 0; i < nSwitches && nRanks > 0; ++i)
        {
            transport->CheckSwitch(m_gpus.Get(0),
                                   m_switches.Get(i)->GetObject<FabricSwitch>(),
                                   GetInstanceTypeId().GetName() + ": " + SwitchName(i));
        }
        for (uint32_t sv = 0; sv < nNv && nRanks > 0; ++sv)
        {
            transport->CheckSwitch(m_gpus.Get(0),
                                   m_nvSwitches.Get(sv)->GetObject<FabricSwitch>(),
                                   GetInstanceTypeId().GetName() + ": nvswitch" +
                                       std::to_string(sv));
        }
    }
    m_stats.nicsSeconds = Since(t);

    m_monitor = CreateObject<FabricHealthMonitor>();
    m_monitor->Install(m_gpus);
    if (Ptr<PfcRemoteExchange> exchange = GetObject<PfcRemoteExchange>())
    {
        // Across processes a stall in one stops them all.
        m_monitor->SetProcesses(exchange, FabricMpi::GetSize(), FabricMpi::GetSystemId());
    }
    m_monitor->SetNodeNamer(MakeCallback(&FabricTopologyHelper::GetNodeName, this));

    t = std::chrono::steady_clock::now();
    m_installed = true;
    ComputeRoutes();
    InformLoadBalancers();
    m_stats.routesSeconds = Since(t);
    if (m_deadlockDetection)
    {
        EnableDeadlockDetection();
    }
    DoInstalled();
    m_stats.totalSeconds = Since(start);
}

void
FabricTopologyHelper::InformLoadBalancers()
{
    const uint32_t nRanks = GetNRanks();
    const uint32_t nSw = m_switches.GetN();
    const uint32_t swBase = nRanks + m_nvSwitches.GetN();
    std::vector<uint32_t> leafOf(nSw, SwitchFabricInfo::NOT_A_LEAF);
    std::unordered_map<uint32_t, uint32_t> leafIndex; // node id -> leaf index
    for (uint32_t i = 0; i < GetNLeaves(); ++i)
    {
        leafIndex[GetLeaf(i)->GetId()] = i;
    }
    for (uint32_t s = 0; s < nSw; ++s)
    {
        auto it = leafIndex.find(m_switches.Get(s)->GetId());
        if (it != leafIndex.end())
        {
            leafOf[s] = it->second;
        }
    }
    auto ips = std::make_shared<std::unordered_map<uint32_t, uint32_t>>();
    std::vector<std::vector<bool>> hostPort(nSw);
    for (uint32_t s = 0; s < nSw; ++s)
    {
        hostPort[s].assign(m_switches.Get(s)->GetObject<FabricSwitch>()->GetNPorts(), false);
    }
    for (const auto& l : m_links)
    {
        if (l.tier == FabricLinkTier::GPU_LEAF)
        {
            const uint32_t s = l.b - swBase;
            hostPort[s][l.portB] = true;
            (*ips)[GetAddress(l.a, l.portA).Get()] = leafOf[s];
        }
    }
    for (uint32_t s = 0; s < nSw; ++s)
    {
        Ptr<FabricSwitch> sw = m_switches.Get(s)->GetObject<FabricSwitch>();
        SwitchFabricInfo info;
        info.leaf = leafOf[s];
        info.leaves = GetNLeaves();
        info.hostPort = hostPort[s];
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            info.rates.push_back(sw->GetPort(p)->GetDataRate());
        }
        info.leafOfIp = ips;
        sw->GetLoadBalancer()->SetFabricInfo(info);
    }
}

void
FabricTopologyHelper::DoInstalled()
{
}

FabricAggregateCounters
FabricTopologyHelper::GetAggregateCounters() const
{
    CheckInstalled("GetAggregateCounters");
    FabricAggregateCounters sums;
    auto addPorts = [](FabricTierCounters& c, Ptr<Node> node) {
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            if (auto port = DynamicCast<PfcNetDevice>(node->GetDevice(d)))
            {
                c.AddPort(*port);
            }
        }
    };
    FabricTierCounters& hosts = sums.tiers[size_t(FabricNodeType::GPU)];
    const std::vector<Ptr<FabricTransportPlugin>> transports = GetTransports();
    for (uint32_t r = 0; r < m_gpus.GetN(); ++r)
    {
        hosts.nodes++;
        addPorts(hosts, m_gpus.Get(r));
        FabricTransportCounters t;
        for (const auto& transport : transports)
        {
            transport->AddCounters(m_gpus.Get(r), t);
        }
        hosts.AddNic(*m_cores[r], t);
    }
    auto addSwitch = [&addPorts](FabricTierCounters& c, Ptr<Node> node) {
        c.nodes++;
        addPorts(c, node);
        c.AddSwitch(*node->GetObject<FabricSwitch>());
    };
    for (uint32_t s = 0; s < m_nvSwitches.GetN(); ++s)
    {
        addSwitch(sums.tiers[size_t(FabricNodeType::NVSWITCH)], m_nvSwitches.Get(s));
    }
    for (uint32_t i = 0; i < m_switches.GetN(); ++i)
    {
        const FabricNodeType type = i < m_nLeaves               ? FabricNodeType::LEAF
                                    : i < m_nLeaves + m_nSpines ? FabricNodeType::SPINE
                                                                : FabricNodeType::CORE;
        addSwitch(sums.tiers[size_t(type)], m_switches.Get(i));
    }
    for (const auto& tier : sums.tiers)
    {
        sums.total.Add(tier);
    }
    return sums;
}

void
FabricTopologyHelper::ComputeRoutes()
{
    const uint32_t nRanks = GetNRanks();
    const uint32_t nSw = m_switches.GetN();
    const uint32_t nNv = m_nvSwitches.GetN();
    const uint32_t swBase = nRanks + nNv;

    // Route computer switches: the scale-out switches by index, then the NVSwitches by server.
    m_routes = CreateObject<FabricRouteComputer>();
    for (uint32_t s = 0; s < nSw; ++s)
    {
        m_routes->AddSwitch(m_switches.Get(s)->GetObject<FabricSwitch>()->GetForwardingTable(),
                            SwitchName(s));
    }
    for (uint32_t server = 0; server < nNv; ++server)
    {
        m_routes->AddSwitch(
            m_nvSwitches.Get(server)->GetObject<FabricSwitch>()->GetForwardingTable(),
            "nvswitch" + std::to_string(server));
    }
    // Every cable, in order, so that route computer link i is cable i: NIC ports are hosts
    // (GPU device index = NIC port index), switch-to-switch cables are switch links.
    for (const auto& l : m_links)
    {
        switch (l.tier)
        {
        case FabricLinkTier::GPU_LEAF:
            m_routes->AddHostLink(l.b - swBase, l.portB, GetAddress(l.a, l.portA));
            break;
        case FabricLinkTier::NVLINK:
            m_routes->AddHostLink(nSw + (l.b - nRanks), l.portB, GetAddress(l.a, l.portA));
            break;
        default:
            m_routes->AddSwitchLink(l.a - swBase, l.portA, l.b - swBase, l.portB);
            break;
        }
    }
    const FabricRouteStats& st = m_routes->Compute();

    if (DoRequiresFullReach())
    {
        // Every leaf with GPUs must reach every other such leaf: all in the first one's
        // component.
        std::vector<bool> hasHosts(m_nLeaves, false);
        for (uint32_t leaf : m_attachLeaf)
        {
            hasHosts[leaf] = true;
        }
        uint32_t first = 0;
        while (!hasHosts[first])
        {
            ++first;
        }
        for (uint32_t b = first + 1; b < m_nLeaves; ++b)
        {
            FABRIC_INPUT_ERROR_IF(hasHosts[b] && !m_routes->IsConnected(first, b),
                                  GetInstanceTypeId().GetName()
                                      << ": " << SwitchName(first) << " cannot reach "
                                      << SwitchName(b) << " (the planned fabric is disconnected)");
        }
    }
    m_stats.routes = st.routes;
    m_stats.forwardingTableBytes = st.forwardingTableBytes;
}

uint64_t
FabricTopologyHelper::EstimateMemoryBytes(uint64_t nNodes,
                                          uint64_t nCables,
                                          uint64_t nForwardingEntries)
{
    constexpr uint64_t BASE = 18ull << 20;
    constexpr uint64_t PER_CABLE = 20ull << 10;
    constexpr uint64_t PER_NODE = 4ull << 10;
    constexpr uint64_t PER_ENTRY = 8;
    return BASE + PER_CABLE * nCables + PER_NODE * nNodes + PER_ENTRY * nForwardingEntries;
}

uint64_t
FabricTopologyHelper::GetAvailableMemoryBytes()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
    {
        if (key == "MemAvailable:")
        {
            return kib * 1024;
        }
    }
    long pages = sysconf(_SC_PHYS_PAGES);
    long pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
}

bool
FabricTopologyHelper::IsInstalled() const
{
    return m_installed;
}

void
FabricTopologyHelper::DoCheckConnect(uint32_t rankA, uint32_t rankB) const
{
}

bool
FabricTopologyHelper::DoRequiresFullReach() const
{
    return true;
}
} // namespace ns3
