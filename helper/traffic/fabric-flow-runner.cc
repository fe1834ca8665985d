/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-flow-runner.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <set>

namespace ns3
{

FabricFlowRunner::FabricFlowRunner(Ptr<FabricTopologyHelper> topo,
                                   const HtsimConnectionMatrix& matrix,
                                   const std::vector<uint32_t>& ranks,
                                   uint32_t jobId)
    : m_topo(topo),
      m_matrix(matrix),
      m_ranks(ranks),
      m_uet(false)
{
    FABRIC_INPUT_ERROR_IF(!topo || !topo->IsInstalled(),
                          "FabricFlowRunner: the topology is null or not installed");
    FABRIC_INPUT_ERROR_IF(matrix.GetNNodes() > ranks.size(),
                          "FabricFlowRunner: the matrix has "
                              << matrix.GetNNodes() << " nodes but only " << ranks.size()
                              << " ranks are given; valid is Nodes <= " << ranks.size());
    std::set<uint32_t> seen;
    for (uint32_t r : ranks)
    {
        FABRIC_INPUT_ERROR_IF(r >= topo->GetNRanks(),
                              "FabricFlowRunner: rank " << r
                                                        << " does not exist; valid ranks are 0.."
                                                        << topo->GetNRanks() - 1);
        FABRIC_INPUT_ERROR_IF(!seen.insert(r).second,
                              "FabricFlowRunner: rank "
                                  << r << " is given twice; ranks must be distinct");
    }
    // The topology's first transport carries the flows (Transports "roce+uet": RoCE).
    m_transport = topo->GetTransports()[0];
    m_uet = DynamicCast<UetTransportPlugin>(m_transport) != nullptr;
    if (m_uet)
    {
        std::vector<Ptr<Node>> nodes;
        for (uint32_t r : ranks)
        {
            nodes.push_back(topo->GetRank(r));
        }
        m_uetRunner = std::make_unique<UetMatrixRunner>(matrix,
                                                        DynamicCast<UetTransportPlugin>(m_transport)
                                                            ->GetNicHelper()
                                                            .CreateEndpoints(nodes, jobId));
        return;
    }
    const auto& conns = matrix.GetConnections();
    m_roceFlows.resize(conns.size());
    for (uint32_t i = 0; i < conns.size(); ++i)
    {
        UetFlowRecord& f = m_roceFlows[i];
        f.id = conns[i].id != 0 ? conns[i].id : i + 1;
        f.src = conns[i].src;
        f.dst = conns[i].dst;
        f.bytes = conns[i].bytes;
        f.start = conns[i].start;
    }
}

FabricFlowRunner::~FabricFlowRunner() = default;

void
FabricFlowRunner::Start()
{
    FABRIC_INPUT_ERROR_IF(m_started, "FabricFlowRunner::Start called twice");
    m_started = true;
    if (m_uet)
    {
        m_uetRunner->Start();
        return;
    }
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_roceFlows.size(); ++i)
    {
        UetFlowRecord& f = m_roceFlows[i];
        m_qps.push_back(m_topo->Connect(m_ranks[f.src], m_ranks[f.dst], 1)[0].first);
        f.start += now;
        Simulator::Schedule(f.start - now, &FabricFlowRunner::PostRoce, this, i);
    }
}

void
FabricFlowRunner::PostRoce(uint32_t i)
{
    m_qps[i]->PostWrite(m_roceFlows[i].bytes,
                        0,
                        1,
                        MakeCallback(&FabricFlowRunner::RoceCompleted, this).Bind(i));
}

void
FabricFlowRunner::RoceCompleted(uint32_t i, const RoceWorkCompletion& wc)
{
    UetFlowRecord& f = m_roceFlows[i];
    f.done = true;
    f.ok = wc.status == RoceWcStatus::SUCCESS;
    f.error = f.ok ? "" : RoceWcStatusName(wc.status);
    f.end = wc.endTime;
}

std::string
FabricFlowRunner::GetTransport() const
{
    return m_transport->GetName();
}

std::vector<UetFlowRecord>
FabricFlowRunner::GetFlows() const
{
    return m_uet ? m_uetRunner->GetFlows() : m_roceFlows;
}

bool
FabricFlowRunner::AllCompleted() const
{
    const auto flows = GetFlows();
    return std::all_of(flows.begin(), flows.end(), [](const UetFlowRecord& f) {
        return f.done && f.ok;
    });
}

UetFctSummary
FabricFlowRunner::GetSummary() const
{
    return UetMatrixRunner::Summarize(GetFlows());
}

void
FabricFlowRunner::WriteCsv(std::ostream& os) const
{
    UetMatrixRunner::WriteCsv(GetFlows(), os);
}

} // namespace ns3
