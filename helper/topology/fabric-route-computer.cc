/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-route-computer.h"

#include "fabric-union-find.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRouteComputer");

NS_OBJECT_ENSURE_REGISTERED(FabricRouteComputer);

TypeId
FabricRouteComputer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricRouteComputer")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<FabricRouteComputer>();
    return tid;
}

FabricRouteComputer::FabricRouteComputer()
    : m_computed(false)
{
}

FabricRouteComputer::~FabricRouteComputer() = default;

void
FabricRouteComputer::DoDispose()
{
    m_tables.clear();
    Object::DoDispose();
}

// ---- graph ---------------------------------------------------------------------------------

uint32_t
FabricRouteComputer::AddSwitch(Ptr<SwitchForwardingTable> table, const std::string& name)
{
    FABRIC_INPUT_ERROR_IF(!table,
                          "FabricRouteComputer::AddSwitch: switch \""
                              << name << "\" has no forwarding table");
    m_tables.push_back(table);
    m_names.push_back(name);
    return static_cast<uint32_t>(m_tables.size() - 1);
}

uint32_t
FabricRouteComputer::AddSwitchLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB)
{
    CheckSwitch(a, "AddSwitchLink");
    CheckSwitch(b, "AddSwitchLink");
    FABRIC_INPUT_ERROR_IF(a == b,
                          "FabricRouteComputer::AddSwitchLink: both ends are switch "
                              << a << " (" << m_names[a]
                              << "); a link joins two different switches");
    m_links.push_back(Link{a, portA, b, portB, false, true});
    return static_cast<uint32_t>(m_links.size() - 1);
}

uint32_t
FabricRouteComputer::AddHostLink(uint32_t sw, uint32_t port, Ipv4Address host)
{
    CheckSwitch(sw, "AddHostLink");
    auto hostIndex = static_cast<uint32_t>(m_hostAddr.size());
    m_links.push_back(Link{sw, port, hostIndex, 0, true, true});
    m_hostAddr.push_back(host.Get());
    m_hostLink.push_back(static_cast<uint32_t>(m_links.size() - 1));
    return m_hostLink.back();
}

uint32_t
FabricRouteComputer::GetNSwitches() const
{
    return static_cast<uint32_t>(m_tables.size());
}

uint32_t
FabricRouteComputer::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

uint32_t
FabricRouteComputer::GetNHosts() const
{
    return static_cast<uint32_t>(m_hostAddr.size());
}

const std::string&
FabricRouteComputer::GetSwitchName(uint32_t sw) const
{
    CheckSwitch(sw, "GetSwitchName");
    return m_names[sw];
}

void
FabricRouteComputer::CheckSwitch(uint32_t sw, const char* what) const
{
    FABRIC_INPUT_ERROR_IF(sw >= m_tables.size(),
                          "FabricRouteComputer::" << what << ": switch " << sw
                                                  << " does not exist (switches 0.."
                                                  << int64_t(m_tables.size()) - 1 << ")");
}

void
FabricRouteComputer::CheckLink(uint32_t link, const char* what) const
{
    FABRIC_INPUT_ERROR_IF(link >= m_links.size(),
                          "FabricRouteComputer::" << what << ": link " << link
                                                  << " does not exist (links 0.."
                                                  << int64_t(m_links.size()) - 1 << ")");
}

void
FabricRouteComputer::CheckComputed(uint32_t sw, const char* what) const
{
    FABRIC_INPUT_ERROR_IF(!m_computed,
                          "FabricRouteComputer::" << what
                                                  << " called before Compute(); compute first");
    FABRIC_INPUT_ERROR_IF(sw >= m_comp.size(),
                          "FabricRouteComputer::"
                              << what << ": switch " << sw
                              << " was added after the last Compute() (switches 0.."
                              << int64_t(m_comp.size()) - 1 << " computed); call Compute() again");
}

// ---- link state ----------------------------------------------------------------------------

void
FabricRouteComputer::SetLinkUp(uint32_t link, bool up)
{
    CheckLink(link, "SetLinkUp");
    m_links[link].up = up;
}

bool
FabricRouteComputer::IsLinkUp(uint32_t link) const
{
    CheckLink(link, "IsLinkUp");
    return m_links[link].up;
}

// ---- computation ---------------------------------------------------------------------------

uint32_t
FabricRouteComputer::Components(bool onlyUp, std::vector<uint32_t>& comp) const
{
    FabricUnionFind sets(static_cast<uint32_t>(m_tables.size()));
    for (const auto& l : m_links)
    {
        if (!l.host && (l.up || !onlyUp))
        {
            sets.Union(l.a, l.b);
        }
    }
    // Components 0, 1, ... in order of their lowest switch index.
    return sets.Label(comp);
}

const FabricRouteStats&
FabricRouteComputer::Compute()
{
    auto start = std::chrono::steady_clock::now();
    const auto nSw = static_cast<uint32_t>(m_tables.size());
    const auto nHosts = static_cast<uint32_t>(m_hostAddr.size());

    // Hosts in address order (tables are filled in address order, so they grow at their end).
    if (m_byAddress.size() != nHosts)
    {
        m_byAddress.resize(nHosts);
        std::iota(m_byAddress.begin(), m_byAddress.end(), 0u);
        std::stable_sort(m_byAddress.begin(), m_byAddress.end(), [this](uint32_t x, uint32_t y) {
            return m_hostAddr[x] < m_hostAddr[y];
        });
        for (uint32_t i = 1; i < nHosts; ++i)
        {
            uint32_t x = m_byAddress[i - 1];
            uint32_t y = m_byAddress[i];
            FABRIC_INPUT_ERROR_IF(m_hostAddr[x] == m_hostAddr[y],
                                  "FabricRouteComputer::Compute: host "
                                      << Ipv4Address(m_hostAddr[x]) << " is attached twice (links "
                                      << m_hostLink[x] << " and " << m_hostLink[y]
                                      << "); every host address needs its own host link");
        }
    }

    // Switch graph over the links that are up, in compressed-sparse-row form: per switch,
    // (port, neighbour switch).
    std::vector<uint32_t> offset(nSw + 1, 0);
    for (const auto& l : m_links)
    {
        if (!l.host && l.up)
        {
            offset[l.a + 1]++;
            offset[l.b + 1]++;
        }
    }
    for (uint32_t s = 0; s < nSw; ++s)
    {
        offset[s + 1] += offset[s];
    }
    std::vector<std::pair<uint32_t, uint32_t>> adj(offset[nSw]);
    {
        std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
        for (const auto& l : m_links)
        {
            if (!l.host && l.up)
            {
                adj[fill[l.a]++] = {l.portA, l.b};
                adj[fill[l.b]++] = {l.portB, l.a};
            }
        }
    }

    // Connected components (over up links, and over every link for the "by design" view) and
    // each switch's position inside its component.
    const uint32_t nComp = Components(true, m_comp);
    const uint32_t nCompAll = Components(false, m_compAll);
    std::vector<uint32_t> compSize(nComp, 0);
    std::vector<uint32_t> pos(nSw);
    for (uint32_t s = 0; s < nSw; ++s)
    {
        pos[s] = compSize[m_comp[s]]++;
    }

    // Hosts reachable in each component (host link up), in address order; the switches they
    // hang off ("edge" switches) and their index among their component's edge switches.
    std::vector<uint32_t> hostOff(nComp + 1, 0);
    std::vector<uint64_t> hostsAll(nCompAll, 0);
    std::vector<uint8_t> isEdge(nSw, 0);
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        const Link& l = m_links[m_hostLink[h]];
        hostsAll[m_compAll[l.a]]++;
        if (l.up)
        {
            hostOff[m_comp[l.a] + 1]++;
            isEdge[l.a] = 1;
        }
    }
    for (uint32_t c = 0; c < nComp; ++c)
    {
        hostOff[c + 1] += hostOff[c];
    }
    std::vector<uint32_t> hostList(hostOff[nComp]);
    {
        std::vector<uint32_t> fill(hostOff.begin(), hostOff.end() - 1);
        for (uint32_t h : m_byAddress)
        {
            const Link& l = m_links[m_hostLink[h]];
            if (l.up)
            {
                hostList[fill[m_comp[l.a]]++] = h;
            }
        }
    }
    std::vector<uint32_t> edgeOff(nComp + 1, 0);
    std::vector<uint32_t> edgeIndex(nSw, 0);
    for (uint32_t s = 0; s < nSw; ++s)
    {
        if (isEdge[s])
        {
            edgeIndex[s] = edgeOff[m_comp[s] + 1]++;
        }
    }
    for (uint32_t c = 0; c < nComp; ++c)
    {
        edgeOff[c + 1] += edgeOff[c];
    }
    std::vector<uint32_t> edgeList(edgeOff[nComp]);
    for (uint32_t s = 0; s < nSw; ++s)
    {
        if (isEdge[s])
        {
            edgeList[edgeOff[m_comp[s]] + edgeIndex[s]] = s;
        }
    }

    // One BFS per edge switch inside its component: the hop distance of every switch of the
    // component to it, dist[distOff[c] + edge x size(c) + pos(s)].
    constexpr uint16_t INF = std::numeric_limits<uint16_t>::max();
    std::vector<uint64_t> distOff(nComp + 1, 0);
    for (uint32_t c = 0; c < nComp; ++c)
    {
        FABRIC_INPUT_ERROR_IF(compSize[c] >= INF,
                              "FabricRouteComputer::Compute: " << compSize[c]
                                                               << " connected switches exceed the "
                                                               << INF - 1 << " supported");
        distOff[c + 1] = distOff[c] + uint64_t(edgeOff[c + 1] - edgeOff[c]) * compSize[c];
    }
    std::vector<uint16_t> dist(distOff[nComp], INF);
    std::vector<uint32_t> queue;
    queue.reserve(nSw);
    for (uint32_t c = 0; c < nComp; ++c)
    {
        for (uint32_t e = edgeOff[c]; e < edgeOff[c + 1]; ++e)
        {
            uint16_t* d = dist.data() + distOff[c] + uint64_t(e - edgeOff[c]) * compSize[c];
            uint32_t root = edgeList[e];
            queue.clear();
            queue.push_back(root);
            d[pos[root]] = 0;
            for (size_t head = 0; head < queue.size(); ++head)
            {
                uint32_t s = queue[head];
                for (uint32_t i = offset[s]; i < offset[s + 1]; ++i)
                {
                    uint32_t nb = adj[i].second;
                    if (d[pos[nb]] == INF)
                    {
                        d[pos[nb]] = d[pos[s]] + 1;
                        queue.push_back(nb);
                    }
                }
            }
        }
    }

    // Per switch: the equal-cost set toward each edge switch of its component, then one route
    // per reachable host in address order.
    std::vector<std::vector<uint32_t>> toward;
    std::vector<uint32_t> one(1);
    m_stats.routes = 0;
    m_stats.staticRoutes = 0;
    m_stats.unreachable = 0;
    m_stats.forwardingTableBytes = 0;
    for (uint32_t s = 0; s < nSw; ++s)
    {
        const uint32_t c = m_comp[s];
        const uint32_t nEdges = edgeOff[c + 1] - edgeOff[c];
        if (toward.size() < nEdges)
        {
            toward.resize(nEdges);
        }
        for (uint32_t e = 0; e < nEdges; ++e)
        {
            toward[e].clear();
            const uint16_t* d = dist.data() + distOff[c] + uint64_t(e) * compSize[c];
            const uint16_t here = d[pos[s]];
            if (here == 0)
            {
                continue; // s is this edge switch: hosts are routed on their own port
            }
            for (uint32_t i = offset[s]; i < offset[s + 1]; ++i)
            {
                if (d[pos[adj[i].second]] + 1 == here)
                {
                    toward[e].push_back(adj[i].first);
                }
            }
        }
        Ptr<SwitchForwardingTable> table = m_tables[s];
        table->Clear();
        for (uint32_t i = hostOff[c]; i < hostOff[c + 1]; ++i)
        {
            const uint32_t h = hostList[i];
            const Link& l = m_links[m_hostLink[h]];
            Ipv4Address addr(m_hostAddr[h]);
            if (l.a == s)
            {
                one[0] = l.portA;
                table->SetRoute(addr, one);
            }
            else
            {
                table->SetRoute(addr, toward[edgeIndex[l.a]]);
            }
        }
        for (auto it = m_static.lower_bound({s, 0}); it != m_static.end() && it->first.first == s;
             ++it)
        {
            table->SetRoute(Ipv4Address(it->first.second), it->second);
            m_stats.staticRoutes++;
        }
        const uint32_t routed = hostOff[c + 1] - hostOff[c];
        m_stats.routes += routed;
        m_stats.unreachable += hostsAll[m_compAll[s]] - routed;
        table->Freeze();
        m_stats.forwardingTableBytes += table->GetMemoryBytes();
    }

    m_hostUp.resize(nHosts);
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        m_hostUp[h] = m_links[m_hostLink[h]].up;
    }
    m_computed = true;
    m_stats.computations++;
    m_stats.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    NS_LOG_INFO("routes: " << m_stats.routes << " entries over " << nSw << " switches, " << nComp
                           << " components, " << m_stats.unreachable
                           << " unreachable (switch, host) pairs");
    return m_stats;
}

void
FabricRouteComputer::SetStaticRoute(uint32_t sw,
                                    Ipv4Address host,
                                    const std::vector<uint32_t>& ports)
{
    CheckSwitch(sw, "SetStaticRoute");
    FABRIC_INPUT_ERROR_IF(std::find(m_hostAddr.begin(), m_hostAddr.end(), host.Get()) ==
                              m_hostAddr.end(),
                          "FabricRouteComputer::SetStaticRoute: " << host
                                                                  << " is not a host address of "
                                                                     "this fabric (no host link)");
    FABRIC_INPUT_ERROR_IF(ports.empty(),
                          "FabricRouteComputer::SetStaticRoute: no port for "
                              << host << " at " << m_names[sw] << "; give at least one");
    for (std::size_t i = 0; i < ports.size(); ++i)
    {
        const uint32_t port = ports[i];
        bool cabled = false;
        for (const auto& l : m_links)
        {
            cabled = cabled || (l.a == sw && l.portA == port) ||
                     (!l.host && l.b == sw && l.portB == port);
        }
        FABRIC_INPUT_ERROR_IF(!cabled,
                              "FabricRouteComputer::SetStaticRoute: port "
                                  << port << " of " << m_names[sw]
                                  << " is not cabled; a static route needs cabled ports");
        FABRIC_INPUT_ERROR_IF(std::find(ports.begin(), ports.begin() + i, port) !=
                                  ports.begin() + i,
                              "FabricRouteComputer::SetStaticRoute: port "
                                  << port << " of " << m_names[sw] << " is listed twice");
    }
    m_static[{sw, host.Get()}] = ports;
}

bool
FabricRouteComputer::RemoveStaticRoute(uint32_t sw, Ipv4Address host)
{
    CheckSwitch(sw, "RemoveStaticRoute");
    return m_static.erase({sw, host.Get()}) > 0;
}

void
FabricRouteComputer::ClearStaticRoutes()
{
    m_static.clear();
}

uint32_t
FabricRouteComputer::GetNStaticRoutes() const
{
    return static_cast<uint32_t>(m_static.size());
}

std::vector<uint32_t>
FabricRouteComputer::GetStaticRoute(uint32_t sw, Ipv4Address host) const
{
    CheckSwitch(sw, "GetStaticRoute");
    auto it = m_static.find({sw, host.Get()});
    return it == m_static.end() ? std::vector<uint32_t>() : it->second;
}

const FabricRouteStats&
FabricRouteComputer::GetStats() const
{
    return m_stats;
}

bool
FabricRouteComputer::IsConnected(uint32_t a, uint32_t b) const
{
    CheckSwitch(a, "IsConnected");
    CheckSwitch(b, "IsConnected");
    CheckComputed(std::max(a, b), "IsConnected");
    return m_comp[a] == m_comp[b];
}

std::vector<Ipv4Address>
FabricRouteComputer::GetUnreachable(uint32_t sw) const
{
    CheckSwitch(sw, "GetUnreachable");
    CheckComputed(sw, "GetUnreachable");
    std::vector<Ipv4Address> lost;
    for (uint32_t h : m_byAddress)
    {
        uint32_t at = m_links[m_hostLink[h]].a;
        if (m_compAll[at] == m_compAll[sw] && (!m_hostUp[h] || m_comp[at] != m_comp[sw]))
        {
            lost.emplace_back(m_hostAddr[h]);
        }
    }
    return lost;
}

} // namespace ns3
