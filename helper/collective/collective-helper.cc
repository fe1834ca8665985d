/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-helper.h"

#include "ns3/abort.h"
#include "ns3/node.h"

#include <algorithm>
#include <fstream>
#include <memory>

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
    : m_nvLinkWithinServer(false),
      m_randomPsn(true),
      m_streamSet(false),
      m_stream(0)
{
    m_appFactory.SetTypeId("ns3::CollectiveApplication");
    m_commFactory.SetTypeId("ns3::CollectiveCommunicator");
    m_transportFactory.SetTypeId("ns3::RoceCollectiveTransport");
}

void
CollectiveHelper::SetNics(const std::vector<Ptr<RoceNic>>& nics)
{
    NS_ABORT_MSG_IF(!m_comms.empty(),
                    "CollectiveHelper::SetNics: communicators were already created");
    NS_ABORT_MSG_IF(nics.empty(), "CollectiveHelper::SetNics: 0 ranks is invalid (>= 1)");
    m_nics.clear();
    m_nodes.clear();
    for (uint32_t i = 0; i < nics.size(); ++i)
    {
        NS_ABORT_MSG_IF(!nics[i], "CollectiveHelper::SetNics: the NIC of rank " << i << " is null");
        Ptr<Node> node = nics[i]->GetObject<Node>();
        NS_ABORT_MSG_IF(!node,
                        "CollectiveHelper::SetNics: the NIC of rank "
                            << i << " is not aggregated to a node (install it with RoceNicHelper)");
        m_nics.push_back(nics[i]);
        m_nodes.push_back(node);
    }
    m_locations.clear();
}

uint32_t
CollectiveHelper::GetNRanks() const
{
    return static_cast<uint32_t>(m_nics.size());
}

Ptr<RoceNic>
CollectiveHelper::GetNic(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_nics.size(),
                    "CollectiveHelper: rank " << rank << " does not exist (" << m_nics.size()
                                              << " ranks)");
    return m_nics[rank];
}

void
CollectiveHelper::SetTopology(Ptr<FabricTopologyHelper> topology)
{
    NS_ABORT_MSG_IF(!topology || !topology->IsInstalled(),
                    "CollectiveHelper::SetTopology: the topology is null or not installed "
                    "(call Install() first)");
    std::vector<Ptr<RoceNic>> nics;
    std::vector<CollectiveRankLocation> where;
    for (uint32_t r = 0; r < topology->GetNRanks(); ++r)
    {
        nics.push_back(topology->GetNic(r));
        CollectiveRankLocation loc;
        loc.server = topology->GetServerOf(r);
        loc.local = topology->GetLocalOf(r);
        where.push_back(loc);
    }
    SetNics(nics);
    SetRankLocations(where);
    SetNvLinkWithinServer(true);
    SetConnector(MakeCallback(+[](Ptr<FabricTopologyHelper> t, uint32_t a, uint32_t b, uint32_t n) {
                     return t->Connect(a, b, n);
                 }).Bind(topology));
}

void
CollectiveHelper::SetConnector(RoceCollectiveTransport::Connector connector)
{
    m_connector = connector;
}

void
CollectiveHelper::SetRankLocations(const std::vector<CollectiveRankLocation>& locations)
{
    NS_ABORT_MSG_IF(locations.size() != m_nics.size(),
                    "CollectiveHelper::SetRankLocations: " << locations.size() << " locations for "
                                                           << m_nics.size()
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
    std::vector<uint32_t> all(m_nics.size());
    for (uint32_t i = 0; i < all.size(); ++i)
    {
        all[i] = i;
    }
    return CreateCommunicator(all, name);
}

Ptr<CollectiveCommunicator>
CollectiveHelper::CreateCommunicator(const std::vector<uint32_t>& ranks, const std::string& name)
{
    NS_ABORT_MSG_IF(m_nics.empty(),
                    "CollectiveHelper::CreateCommunicator: no ranks (call SetNics first)");
    std::string n = name.empty() ? "comm" + std::to_string(m_comms.size()) : name;
    NS_ABORT_MSG_IF(ranks.empty(),
                    "CollectiveHelper::CreateCommunicator(" << n
                                                            << "): a communicator of 0 ranks is "
                                                               "invalid (>= 1)");
    std::vector<Ptr<Node>> nodes;
    std::vector<CollectiveRankLocation> locations;
    for (uint32_t r : ranks)
    {
        NS_ABORT_MSG_IF(r >= m_nics.size(),
                        "CollectiveHelper::CreateCommunicator(" << n << "): rank " << r
                                                                << " is not a rank of the fabric "
                                                                   "(ranks 0.."
                                                                << m_nics.size() - 1 << ")");
        nodes.push_back(m_nodes[r]);
        if (!m_locations.empty())
        {
            locations.push_back(m_locations[r]);
        }
    }
    Ptr<RoceCollectiveTransport> transport = m_transportFactory.Create<RoceCollectiveTransport>();
    transport->SetNics(m_nics);
    transport->GetNicHelper().SetRandomStartPsn(m_randomPsn);
    if (m_streamSet)
    {
        transport->AssignStreams(m_stream + int64_t(m_comms.size()));
    }
    if (!m_connector.IsNull())
    {
        transport->SetConnector(m_connector);
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
    m_comms.push_back(comm);
    return comm;
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
        Ptr<RoceCollectiveTransport> t =
            DynamicCast<RoceCollectiveTransport>(m_comms[i]->GetTransport());
        if (t)
        {
            t->AssignStreams(stream + i);
        }
    }
    return static_cast<int64_t>(m_comms.size());
}

} // namespace ns3
