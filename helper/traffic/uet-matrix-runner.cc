/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-matrix-runner.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-mpi.h"
#include "ns3/node-list.h"
#include "ns3/simulator.h"
#include "ns3/uet-nic.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace ns3
{

namespace
{

/// The largest UET message, bytes (SES request_length is 32 bits).
constexpr uint64_t MAX_MESSAGE_BYTES = 0xFFFFFFFFull;

/// \return \p t in microseconds with 3 decimals
std::string
Us(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << t.GetPicoSeconds() / 1e6;
    return os.str();
}

} // namespace

UetMatrixRunner::UetMatrixRunner(const HtsimConnectionMatrix& matrix,
                                 const std::vector<Ptr<UetEndpoint>>& endpoints,
                                 UetDeliveryMode mode)
    : m_matrix(matrix),
      m_endpoints(endpoints),
      m_mode(mode),
      m_started(false)
{
    FABRIC_INPUT_ERROR_IF(matrix.GetNNodes() > endpoints.size(),
                          "UetMatrixRunner: the matrix has "
                              << matrix.GetNNodes() << " nodes but only " << endpoints.size()
                              << " endpoints (hosts); valid is Nodes <= " << endpoints.size());
    FABRIC_INPUT_ERROR_IF(mode != UetDeliveryMode::RUD && mode != UetDeliveryMode::ROD,
                          "UetMatrixRunner: delivery mode " << UetDeliveryModeName(mode)
                                                            << " is invalid; valid are RUD, ROD");
    const auto& conns = matrix.GetConnections();
    m_flows.resize(conns.size());
    for (uint32_t i = 0; i < conns.size(); ++i)
    {
        const HtsimConnection& c = conns[i];
        FABRIC_INPUT_ERROR_IF(c.bytes > MAX_MESSAGE_BYTES,
                              "UetMatrixRunner: connection "
                                  << c.src << "->" << c.dst << (c.line ? " (line " : "")
                                  << (c.line ? std::to_string(c.line) : "") << (c.line ? ")" : "")
                                  << " has size " << c.bytes
                                  << "; valid range is 1..4294967295 (one "
                                     "UET message)");
        UetFlowRecord& f = m_flows[i];
        f.id = c.id != 0 ? c.id : i + 1;
        f.src = c.src;
        f.dst = c.dst;
        f.bytes = c.bytes;
        f.start = c.start;
    }
}

void
UetMatrixRunner::Start()
{
    FABRIC_INPUT_ERROR_IF(m_started, "UetMatrixRunner::Start called twice");
    m_started = true;
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        UetFlowRecord& f = m_flows[i];
        m_endpoints[f.dst]->RegisterMemory(i + 1, f.bytes);
        f.start += now;
        if (FabricMpi::IsLocal(NodeList::GetNode(m_endpoints[f.src]->GetNic()->GetNodeId())))
        {
            // Across MPI processes the source's process posts it (its records are merged).
            Simulator::Schedule(f.start - now, &UetMatrixRunner::Post, this, i);
        }
    }
}

void
UetMatrixRunner::Post(uint32_t i)
{
    const UetFlowRecord& f = m_flows[i];
    m_endpoints[f.src]->PostWrite(m_endpoints[f.dst]->GetAddress(),
                                  i + 1,
                                  0,
                                  f.bytes,
                                  MakeCallback(&UetMatrixRunner::Completed, this).Bind(i),
                                  m_mode);
}

void
UetMatrixRunner::Completed(uint32_t i, const UetCompletion& c)
{
    UetFlowRecord& f = m_flows[i];
    f.done = true;
    f.ok = c.ok;
    f.error = c.error;
    f.end = c.endTime;
}

void
UetMatrixRunner::Gather()
{
    if (FabricMpi::GetSize() == 1)
    {
        return;
    }
    // One line per flow this process finished: index, ok, end (time steps), error.
    std::ostringstream mine;
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        const UetFlowRecord& f = m_flows[i];
        if (f.done)
        {
            mine << i << ' ' << f.ok << ' ' << f.end.GetTimeStep() << ' ' << f.error << '\n';
        }
    }
    std::istringstream all(FabricMpi::Gather(mine.str()));
    for (std::string line; std::getline(all, line);)
    {
        std::istringstream row(line);
        uint32_t i = 0;
        int64_t end = 0;
        UetFlowRecord r;
        row >> i >> r.ok >> end;
        NS_ABORT_MSG_IF(!row || i >= m_flows.size(),
                        "UetMatrixRunner::Gather: a malformed record '" << line << "'");
        std::getline(row >> std::ws, r.error);
        UetFlowRecord& f = m_flows[i];
        f.done = true;
        f.ok = r.ok;
        f.end = TimeStep(end);
        f.error = r.error;
    }
}

const std::vector<UetFlowRecord>&
UetMatrixRunner::GetFlows() const
{
    return m_flows;
}

bool
UetMatrixRunner::AllCompleted() const
{
    return std::all_of(m_flows.begin(), m_flows.end(), [](const UetFlowRecord& f) {
        return f.done && f.ok;
    });
}

UetFctSummary
UetMatrixRunner::GetSummary() const
{
    return Summarize(m_flows);
}

UetFctSummary
UetMatrixRunner::Summarize(const std::vector<UetFlowRecord>& flows)
{
    UetFctSummary s;
    s.flows = static_cast<uint32_t>(flows.size());
    std::vector<Time> fcts;
    for (const auto& f : flows)
    {
        if (f.done && !f.ok)
        {
            s.failed++;
        }
        if (f.done && f.ok)
        {
            fcts.push_back(f.GetFct());
            s.lastEnd = std::max(s.lastEnd, f.end);
        }
    }
    s.completed = static_cast<uint32_t>(fcts.size());
    if (fcts.empty())
    {
        return s;
    }
    std::sort(fcts.begin(), fcts.end());
    auto rank = [&fcts](double p) {
        auto k = static_cast<std::size_t>(std::ceil(p / 100.0 * fcts.size() - 1e-9));
        return fcts[std::max<std::size_t>(k, 1) - 1];
    };
    s.min = fcts.front();
    s.median = rank(50);
    s.p99 = rank(99);
    s.max = fcts.back();
    return s;
}

void
UetMatrixRunner::WriteCsv(std::ostream& os) const
{
    WriteCsv(m_flows, os);
}

void
UetMatrixRunner::WriteCsv(const std::vector<UetFlowRecord>& flows, std::ostream& os)
{
    os << "id,src,dst,size_B,start_us,end_us,fct_us,status\n";
    for (const auto& f : flows)
    {
        os << f.id << "," << f.src << "," << f.dst << "," << f.bytes << "," << Us(f.start) << ",";
        if (f.done)
        {
            os << Us(f.end) << "," << Us(f.GetFct()) << "," << (f.ok ? "ok" : "failed");
        }
        else
        {
            os << ",,incomplete";
        }
        os << "\n";
    }
}

} // namespace ns3
