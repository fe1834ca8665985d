/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-helper.h"

#include "ns3/abort.h"
#include "ns3/fabric-mpi.h"
#include "ns3/fabric-nic.h"
#include "ns3/fabric-note-channel.h"
#include "ns3/node.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace ns3
{

namespace
{

/// Hop type from rank locations: same server -> NVLink.
CollectiveHopType
SameServerIsNvLink(std::shared_ptr<const std::vector<CollectiveRankLocation>> locations,
                   uint32_t src,
                   uint32_t dst)
{
    return (*locations)[src].server == (*locations)[dst].server ? CollectiveHopType::NVLINK
                                                                : CollectiveHopType::NETWORK;
}

} // namespace

CollectiveHelper::CollectiveHelper()
    : m_transportTypeSet(false),
      m_nvLinkWithinServer(false),
      m_randomPsn(true),
      m_streamSet(false),
      m_stream(0)
{
    m_appFactory.SetTypeId("ns3::CollectiveApplication");
    m_commFactory.SetTypeId("ns3::CollectiveCommunicator");
    m_transportFactory.SetTypeId("ns3::RoceCollectiveTransport");
}

void
CollectiveHelper::SetRanks(const std::vector<Ptr<Node>>& nodes)
{
    NS_ABORT_MSG_IF(!m_comms.empty(),
                    "CollectiveHelper::SetRanks: communicators were already created");
    NS_ABORT_MSG_IF(nodes.empty(), "CollectiveHelper::SetRanks: 0 ranks is invalid (>= 1)");
    for (uint32_t i = 0; i < nodes.size(); ++i)
    {
        NS_ABORT_MSG_IF(!nodes[i],
                        "CollectiveHelper::SetRanks: the node of rank " << i << " is null");
    }
    m_nodes = nodes;
    m_locations.clear();
}

void
CollectiveHelper::SetNics(const std::vector<Ptr<RoceNic>>& nics)
{
    NS_ABORT_MSG_IF(nics.empty(), "CollectiveHelper::SetNics: 0 ranks is invalid (>= 1)");
    std::vector<Ptr<Node>> nodes;
    for (uint32_t i = 0; i < nics.size(); ++i)
    {
        NS_ABORT_MSG_IF(!nics[i], "CollectiveHelper::SetNics: the NIC of rank " << i << " is null");
        Ptr<Node> node = nics[i]->GetObject<Node>();
        NS_ABORT_MSG_IF(!node,
                        "CollectiveHelper::SetNics: the NIC of rank "
                            << i << " is not aggregated to a node (install it with RoceNicHelper)");
        nodes.push_back(node);
    }
    SetRanks(nodes);
}

void
CollectiveHelper::SetTransportType(const std::string& typeName)
{
    // A transport plug-in's name ("roce", "uet", ...) stands for its collective transport.
    TypeId tid;
    if (FabricTransportPlugin::IsRegistered(typeName))
    {
        tid = FabricTransportPlugin::GetCollectiveTransportTypeIdOf(typeName);
    }
    NS_ABORT_MSG_IF((tid == TypeId() && !TypeId::LookupByNameFailSafe(typeName, &tid)) ||
                        !tid.IsChildOf(CollectiveTransport::GetTypeId()) || !tid.HasConstructor(),
                    "CollectiveHelper::SetTransportType: \""
                        << typeName
                        << "\" is not the TypeId of a CollectiveTransport (e.g. "
                           "ns3::RoceCollectiveTransport, ns3::UetCollectiveTransport), or the "
                           "name of a transport plug-in ("
                        << FabricTransportPlugin::GetNamesText() << ")");
    NS_ABORT_MSG_IF(!m_comms.empty(),
                    "CollectiveHelper::SetTransportType: communicators were already created");
    m_transportFactory.SetTypeId(tid);
    m_transportTypeSet = true;
}

std::string
CollectiveHelper::GetTransportType() const
{
    return m_transportFactory.GetTypeId().GetName();
}

uint32_t
CollectiveHelper::GetNRanks() const
{
    return static_cast<uint32_t>(m_nodes.size());
}

Ptr<RoceNic>
CollectiveHelper::GetNic(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_nodes.size(),
                    "CollectiveHelper::GetNic: rank " << rank << " does not exist (the helper has "
                                                      << m_nodes.size() << " ranks)");
    Ptr<RoceNic> nic = m_nodes[rank]->GetObject<RoceNic>();
    NS_ABORT_MSG_IF(!nic,
                    "CollectiveHelper::GetNic: the node of rank " << rank << " has no RoceNic");
    return nic;
}

void
CollectiveHelper::SetTopology(Ptr<FabricTopologyHelper> topology)
{
    NS_ABORT_MSG_IF(!topology || !topology->IsInstalled(),
                    "CollectiveHelper::SetTopology: the topology is null or not installed "
                    "(call Install() first)");
    std::vector<Ptr<Node>> nodes;
    std::vector<CollectiveRankLocation> where;
    for (uint32_t r = 0; r < topology->GetNRanks(); ++r)
    {
        nodes.push_back(topology->GetRank(r));
        CollectiveRankLocation loc;
        loc.server = topology->GetServerOf(r);
        loc.local = topology->GetLocalOf(r);
        where.push_back(loc);
    }
    SetRanks(nodes);
    SetRankLocations(where);
    SetNvLinkWithinServer(true);
    // The connector (RoCE) or port selector (UET) is the topology's, set per transport.
    m_topology = topology;
    SetHealthMonitor(topology->GetHealthMonitor());
    if (!m_transportTypeSet)
    {
        // The topology's first transport (Transports "uet": UET, "roce+uet": RoCE).
        m_transportFactory.SetTypeId(topology->GetTransports()[0]->GetCollectiveTransportTypeId());
    }
}

void
CollectiveHelper::SetHealthMonitor(Ptr<FabricHealthMonitor> monitor)
{
    m_monitor = monitor;
}

void
CollectiveHelper::SetConnector(RoceCollectiveTransport::Connector connector)
{
    m_connector = connector;
}

void
CollectiveHelper::SetRankLocations(const std::vector<CollectiveRankLocation>& locations)
{
    NS_ABORT_MSG_IF(locations.size() != m_nodes.size(),
                    "CollectiveHelper::SetRankLocations: " << locations.size() << " locations for "
                                                           << m_nodes.size()
                                                           << " ranks (call SetNics first)");
    CollectiveLayout check(locations); // aborts on duplicate places
    m_locations = locations;
}

void
CollectiveHelper::SetNvLinkWithinServer(bool enable)
{
    m_nvLinkWithinServer = enable;
}

void
CollectiveHelper::SetHopTypeCallback(CollectiveTransport::HopTypeCallback cb)
{
    m_hopType = cb;
}

void
CollectiveHelper::SetRandomStartPsn(bool random)
{
    m_randomPsn = random;
}

void
CollectiveHelper::SetApplicationAttribute(const std::string& name, const AttributeValue& value)
{
    m_appFactory.Set(name, value);
}

void
CollectiveHelper::SetCommunicatorAttribute(const std::string& name, const AttributeValue& value)
{
    m_commFactory.Set(name, value);
}

void
CollectiveHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transportFactory.Set(name, value);
}

Ptr<CollectiveCommunicator>
CollectiveHelper::CreateWorldCommunicator(const std::string& name)
{
    std::vector<uint32_t> all(m_nodes.size());
    for (uint32_t i = 0; i < all.size(); ++i)
    {
        all[i] = i;
    }
    return CreateCommunicator(all, name);
}

Ptr<CollectiveCommunicator>
CollectiveHelper::CreateCommunicator(const std::vector<uint32_t>& ranks, const std::string& name)
{
    NS_ABORT_MSG_IF(m_nodes.empty(),
                    "CollectiveHelper::CreateCommunicator: no ranks (call SetRanks or SetNics "
                    "first)");
    std::string n = name.empty() ? "comm" + std::to_string(m_comms.size()) : name;
    NS_ABORT_MSG_IF(ranks.empty(),
                    "CollectiveHelper::CreateCommunicator(" << n
                                                            << "): a communicator of 0 ranks is "
                                                               "invalid (>= 1)");
    std::vector<Ptr<Node>> nodes;
    std::vector<CollectiveRankLocation> locations;
    for (uint32_t r : ranks)
    {
        NS_ABORT_MSG_IF(r >= m_nodes.size(),
                        "CollectiveHelper::CreateCommunicator(" << n << "): rank " << r
                                                                << " is not a rank of the fabric "
                                                                   "(ranks 0.."
                                                                << m_nodes.size() - 1 << ")");
        nodes.push_back(m_nodes[r]);
        if (!m_locations.empty())
        {
            locations.push_back(m_locations[r]);
        }
    }
    Ptr<CollectiveTransport> transport = m_transportFactory.Create<CollectiveTransport>();
    transport->SetRankNodes(m_nodes);
    if (m_topology && m_topology->GetObject<FabricNoteChannel>())
    {
        // The topology spans MPI processes: messages to ranks of others are announced there.
        transport->SetNoteChannel(m_topology->GetObject<FabricNoteChannel>());
    }
    Ptr<RoceCollectiveTransport> roce = DynamicCast<RoceCollectiveTransport>(transport);
    NS_ABORT_MSG_IF(!roce && !m_connector.IsNull(),
                    "CollectiveHelper: a QP connector (SetConnector) was set but the transport "
                        << transport->GetInstanceTypeId().GetName()
                        << " is not RoCE; connectors apply to ns3::RoceCollectiveTransport");
    if (roce)
    {
        roce->GetQpConnector().SetRandomStartPsn(m_randomPsn);
        if (!m_connector.IsNull())
        {
            roce->SetConnector(m_connector);
        }
        else if (m_topology)
        {
            roce->SetConnector(
                MakeCallback(+[](Ptr<FabricTopologyHelper> t, uint32_t a, uint32_t b, uint32_t n) {
                    return t->Connect(a, b, n);
                }).Bind(m_topology));
        }
    }
    Ptr<UetCollectiveTransport> uet = DynamicCast<UetCollectiveTransport>(transport);
    if (uet && m_topology)
    {
        uet->SetPortSelector(
            MakeCallback(+[](Ptr<FabricTopologyHelper> t, uint32_t a, uint32_t b, uint32_t ch) {
                return t->GetConnectionPorts(a, b, ch);
            }).Bind(m_topology));
    }
    if (m_streamSet)
    {
        transport->AssignStreams(m_stream + int64_t(m_comms.size()));
    }
    if (!m_hopType.IsNull())
    {
        transport->SetHopTypeCallback(m_hopType);
    }
    else if (m_nvLinkWithinServer && !m_locations.empty())
    {
        auto locs = std::make_shared<const std::vector<CollectiveRankLocation>>(m_locations);
        transport->SetHopTypeCallback(MakeBoundCallback(&SameServerIsNvLink, locs));
    }
    Ptr<CollectiveCommunicator> comm = m_commFactory.Create<CollectiveCommunicator>();
    comm->Setup(n, transport, ranks, nodes, locations, m_appFactory);
    if (m_topology)
    {
        // The fabric's own share of NCCL's per-hop latencies: cables and switch processing.
        auto processing = [](Ptr<Node> node) {
            TimeValue d;
            node->GetObject<FabricSwitch>()->GetAttribute("ProcessingDelay", d);
            return d.Get();
        };
        comm->SetHopWireLatency(CollectiveHopType::NETWORK,
                                2 * m_topology->GetLinkDelay(FabricLinkTier::GPU_LEAF) +
                                    processing(m_topology->GetLeaf(0)));
        if (m_topology->HasNvLink())
        {
            comm->SetHopWireLatency(CollectiveHopType::NVLINK,
                                    2 * m_topology->GetLinkDelay(FabricLinkTier::NVLINK) +
                                        processing(m_topology->GetNvSwitch(0)));
        }
    }
    if (m_topology && m_topology->HasNvLink())
    {
        // Every NVSwitch reduces and multicasts (NVLS) at the topology's NVLink rate.
        for (uint32_t i = 0; i < ranks.size(); ++i)
        {
            Ptr<NvlsEngine> engine =
                NvlsEngine::GetOrCreate(m_topology->GetNvSwitch(m_topology->GetServerOf(ranks[i])),
                                        m_topology->GetGpusPerServer());
            engine->SetAttribute("PortDataRate",
                                 DataRateValue(m_topology->GetLinkRate(FabricLinkTier::NVLINK)));
            comm->SetNvlsEngine(i, engine, m_topology->GetLocalOf(ranks[i]));
        }
    }
    comm->ConfigureTuner(TunerSystem(comm));
    if (m_monitor)
    {
        m_monitor->AddDiagnoser("communicator " + n,
                                MakeCallback(&CollectiveCommunicator::DescribePending, comm));
    }
    m_comms.push_back(comm);
    return comm;
}

NcclSystem
CollectiveHelper::TunerSystem(Ptr<CollectiveCommunicator> comm) const
{
    NcclSystem sys = comm->DefaultSystem();
    const uint32_t ppn = sys.nRanks / sys.nNodes;
    if (m_topology)
    {
        sys.nvlink = sys.nvswitch = m_topology->GetNNvSwitches() > 0;
        if (sys.nvlink)
        {
            sys.intraBw = m_topology->GetLinkRate(FabricLinkTier::NVLINK).GetBitRate() / 8e9;
        }
        sys.nicBw = m_topology->GetLinkRate(FabricLinkTier::GPU_LEAF).GetBitRate() / 8e9;
        sys.nicsPerNode = ppn * m_topology->GetNicPortsPerGpu();
    }
    else
    {
        Ptr<FabricNic> nic = comm->GetApplication(0)->GetNode()->GetObject<FabricNic>();
        if (nic && nic->GetNPorts() > 0)
        {
            sys.nicBw = nic->GetPort(0)->GetDataRate().GetBitRate() / 8e9;
        }
        sys.nicsPerNode = ppn;
    }
    return sys;
}

Ptr<CollectiveJob>
CollectiveHelper::CreateJob(const std::string& name)
{
    Ptr<CollectiveJob> job = CreateObject<CollectiveJob>();
    job->SetName(name.empty() ? "job" + std::to_string(m_jobs.size()) : name);
    m_jobs.push_back(job);
    return job;
}

std::vector<std::vector<uint32_t>>
CollectiveHelper::TensorParallelGroups(uint32_t nRanks, uint32_t tp)
{
    NS_ABORT_MSG_IF(tp == 0 || nRanks == 0 || nRanks % tp != 0,
                    "CollectiveHelper::TensorParallelGroups: tensor-parallel size "
                        << tp << " must be >= 1 and divide the rank count " << nRanks);
    std::vector<std::vector<uint32_t>> groups(nRanks / tp);
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        groups[r / tp].push_back(r);
    }
    return groups;
}

std::vector<std::vector<uint32_t>>
CollectiveHelper::DataParallelGroups(uint32_t nRanks, uint32_t tp)
{
    NS_ABORT_MSG_IF(tp == 0 || nRanks == 0 || nRanks % tp != 0,
                    "CollectiveHelper::DataParallelGroups: tensor-parallel size "
                        << tp << " must be >= 1 and divide the rank count " << nRanks);
    std::vector<std::vector<uint32_t>> groups(tp);
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        groups[r % tp].push_back(r);
    }
    return groups;
}

const std::vector<Ptr<CollectiveCommunicator>>&
CollectiveHelper::GetCommunicators() const
{
    return m_comms;
}

const std::vector<Ptr<CollectiveJob>>&
CollectiveHelper::GetJobs() const
{
    return m_jobs;
}

std::vector<CollectiveRecord>
CollectiveHelper::GetRecords() const
{
    std::vector<CollectiveRecord> all;
    for (const auto& c : m_comms)
    {
        const auto& r = c->GetRecords();
        all.insert(all.end(), r.begin(), r.end());
    }
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return a.end < b.end;
    });
    return all;
}

std::vector<CollectiveRecord>
CollectiveHelper::GatherRecords() const
{
    if (!FabricMpi::IsEnabled())
    {
        return GetRecords();
    }
    // Each process's share, one line per record: communicator, number, start, end (time
    // steps), completed, failed, and how many of the communicator's ranks it simulates.
    std::ostringstream mine;
    for (uint32_t c = 0; c < m_comms.size(); ++c)
    {
        for (const auto& r : m_comms[c]->GetRecords())
        {
            mine << c << ' ' << r.seq << ' ' << r.start.GetTimeStep() << ' ' << r.end.GetTimeStep()
                 << ' ' << r.completed << ' ' << r.failed << ' ' << m_comms[c]->GetNLocalRanks()
                 << '\n';
        }
    }
    const std::string all = FabricMpi::Gather(mine.str());
    if (FabricMpi::GetSystemId() != 0)
    {
        return {};
    }

    // Process 0's records are the base (names, sizes, choices); the others bring times.
    struct Merge
    {
        CollectiveRecord record;
        uint32_t ranks{0};
        bool completed{true};
    };

    std::map<std::pair<uint32_t, uint32_t>, Merge> merged;
    for (uint32_t c = 0; c < m_comms.size(); ++c)
    {
        for (const auto& r : m_comms[c]->GetRecords())
        {
            merged[{c, r.seq}].record = r;
        }
    }
    std::istringstream in(all);
    uint32_t c = 0;
    uint32_t seq = 0;
    int64_t start = 0;
    int64_t end = 0;
    bool completed = false;
    bool failed = false;
    uint32_t ranks = 0;
    while (in >> c >> seq >> start >> end >> completed >> failed >> ranks)
    {
        auto it = merged.find({c, seq});
        NS_ABORT_MSG_IF(it == merged.end(),
                        "CollectiveHelper::GatherRecords: collective "
                            << seq << " of communicator " << m_comms[c]->GetName()
                            << " has no record at MPI process 0 (process 0 must simulate one of "
                               "each communicator's ranks)");
        Merge& m = it->second;
        m.record.start = std::min(m.record.start, TimeStep(start));
        m.record.end = std::max(m.record.end, TimeStep(end));
        m.record.failed = m.record.failed || failed;
        m.completed = m.completed && completed;
        m.ranks += ranks;
    }
    std::vector<CollectiveRecord> out;
    for (auto& [key, m] : merged)
    {
        CollectiveRecord& r = m.record;
        r.completed = m.completed && !r.failed && m.ranks == r.nRanks;
        r.ComputeBandwidths();
        if (!r.completed)
        {
            r.algBw = r.busBw = 0;
        }
        out.push_back(r);
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.end < b.end;
    });
    return out;
}

void
CollectiveHelper::WriteCsv(const std::string& path) const
{
    std::ofstream out(path);
    NS_ABORT_MSG_IF(!out, "CollectiveHelper::WriteCsv: cannot write " << path);
    CollectiveRecord::WriteCsvHeader(out);
    for (const auto& r : GetRecords())
    {
        r.WriteCsvRow(out);
    }
    NS_ABORT_MSG_IF(!out, "CollectiveHelper::WriteCsv: error writing " << path);
}

int64_t
CollectiveHelper::AssignStreams(int64_t stream)
{
    m_streamSet = true;
    m_stream = stream;
    for (uint32_t i = 0; i < m_comms.size(); ++i)
    {
        m_comms[i]->GetTransport()->AssignStreams(stream + i);
    }
    return static_cast<int64_t>(m_comms.size());
}

} // namespace ns3
