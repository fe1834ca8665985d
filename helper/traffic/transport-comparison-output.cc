/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: TransportComparison's outputs: the description, the table and the CSV.
 */
#include "transport-comparison.h"

#include "ns3/fabric-input-error.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/// \return \p t in microseconds with 1 decimal
std::string
Us(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << t.GetPicoSeconds() / 1e6;
    return os.str();
}

/// \return \p t in microseconds with 3 decimals (CSV)
std::string
Us3(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << t.GetPicoSeconds() / 1e6;
    return os.str();
}

/// \return "1MiB", "256KiB" or bytes
std::string
SizeName(uint64_t bytes)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
    {
        return std::to_string(bytes >> 20) + "MiB";
    }
    if (bytes >= 1024 && bytes % 1024 == 0)
    {
        return std::to_string(bytes >> 10) + "KiB";
    }
    return std::to_string(bytes) + "B";
}

} // namespace

void
TransportComparison::Describe(std::ostream& os)
{
    const auto configs = GetConfigurations();
    for (const auto& c : configs)
    {
        MakeConfig(c, "ns3::TransportComparison::Configurations");
    }
    bool fabricDone = false;
    std::size_t width = 0;
    for (const auto& c : configs)
    {
        width = std::max(width, c.size());
    }
    for (const auto& c : configs)
    {
        Ptr<FabricTransportConfig> tc = MakeConfig(c, "ns3::TransportComparison::Configurations");
        Ptr<FabricTopologyHelper> topo = MakeTopology();
        tc->Configure(topo);
        topo->Install();
        tc->Finish(topo);
        if (!fabricDone)
        {
            fabricDone = true;
            os << "# fabric: " << topo->GetInstanceTypeId().GetName().substr(5) << ", "
               << topo->GetNRanks() << " GPUs = " << topo->GetNServers() << " servers x "
               << topo->GetGpusPerServer() << ", " << topo->GetNLeaves() << " leaves, "
               << topo->GetNSpines() << " spines; GPU-leaf "
               << topo->GetLinkRate(FabricLinkTier::GPU_LEAF).GetBitRate() / 1e9
               << " Gb/s, leaf-spine "
               << topo->GetLinkRate(FabricLinkTier::LEAF_SPINE).GetBitRate() / 1e9
               << " Gb/s, NVLink " << topo->GetLinkRate(FabricLinkTier::NVLINK).GetBitRate() / 1e9
               << " Gb/s\n";
            const auto scenarios = GetScenarios();
            const bool alltoall =
                std::any_of(scenarios.begin(), scenarios.end(), [](const std::string& s) {
                    return s.rfind("alltoall", 0) == 0;
                });
            os << "# traffic: allreduce ring" << (alltoall ? ", alltoall pairwise (PXN) " : " ")
               << SizeName(m_minBytes) << ".." << SizeName(m_maxBytes) << " (x" << m_factor
               << "), channels " << (m_channels ? m_channels : topo->GetGpusPerServer())
               << "; incast "
               << (m_incastSenders ? std::to_string(m_incastSenders) : "all other-server")
               << " ranks -> rank 0, permutation across servers; " << m_flowBytes
               << " B per flow\n";
            if (topo->GetNSpines() > 0)
            {
                os << "# failure: the leaf0-spine0 cable ";
                if (m_failure == "down")
                {
                    os << "cut (routes recomputed)\n";
                }
                else
                {
                    os << "degraded to " << m_degradeFactor << " x its rate ("
                       << topo->GetLinkRate(FabricLinkTier::LEAF_SPINE).GetBitRate() *
                              m_degradeFactor / 1e9
                       << " Gb/s, routes kept)\n";
                }
            }
        }
        os << "# " << std::left << std::setw(int(width)) << c << std::right << "  ";
        tc->Describe(os);
        os << "\n";
        Simulator::Destroy();
    }
}

void
TransportComparison::WriteTable(std::ostream& os, const std::vector<TransportComparisonRow>& rows)
{
    std::size_t sw = 8;
    std::size_t cw = 6;
    std::size_t lw = 0; // the lb column, only when rows name balancers
    auto scenarioName = [](const TransportComparisonRow& r) {
        return r.busbwGBps >= 0 || r.flows == 0 ? r.scenario + " " + SizeName(r.bytes) : r.scenario;
    };
    for (const auto& r : rows)
    {
        sw = std::max(sw, scenarioName(r).size());
        cw = std::max(cw, r.config.size());
        lw = std::max(lw, r.lb.empty() ? 0 : std::max<std::size_t>(r.lb.size(), 2) + 2);
    }
    os << std::left << std::setw(int(sw)) << "scenario"
       << "  " << std::setw(int(cw)) << "config" << std::setw(int(lw)) << (lw ? "  lb" : "")
       << std::right << std::setw(9) << "busbw" << std::setw(10) << "fct_med" << std::setw(10)
       << "fct_p99" << std::setw(10) << "fct_max" << std::setw(8) << "pauses" << std::setw(8)
       << "trims" << std::setw(7) << "drops" << std::setw(7) << "retx";
    if (lw)
    {
        os << std::setw(8) << "oos" << std::setw(7) << "imbal";
    }
    os << std::setw(5) << "ok"
       << "\n";
    os << std::left << std::setw(int(sw)) << ""
       << "  " << std::setw(int(cw)) << "" << std::setw(int(lw)) << "" << std::right << std::setw(9)
       << "(GB/s)" << std::setw(10) << "(us)" << std::setw(10) << "(us)" << std::setw(10) << "(us)"
       << "\n";
    for (const auto& r : rows)
    {
        os << std::left << std::setw(int(sw)) << scenarioName(r) << "  " << std::setw(int(cw))
           << r.config << std::setw(int(lw)) << (lw ? "  " + r.lb : "") << std::right;
        if (r.busbwGBps >= 0)
        {
            std::ostringstream b;
            b << std::fixed << std::setprecision(2) << r.busbwGBps;
            os << std::setw(9) << b.str() << std::setw(10) << "-" << std::setw(10) << "-"
               << std::setw(10) << "-";
        }
        else
        {
            const bool any = r.completed > 0;
            os << std::setw(9) << "-" << std::setw(10) << (any ? Us(r.fctMedian) : "-")
               << std::setw(10) << (any ? Us(r.fctP99) : "-") << std::setw(10)
               << (any ? Us(r.fctMax) : "-");
        }
        os << std::setw(8) << r.counters.GetPfcPauses() << std::setw(8) << r.counters.trims
           << std::setw(7) << r.counters.drops << std::setw(7)
           << r.counters.transports.retransmissions;
        if (lw)
        {
            std::ostringstream imb;
            imb << std::fixed << std::setprecision(2) << r.uplinkImbalance;
            os << std::setw(8) << r.counters.transports.outOfOrder << std::setw(7) << imb.str();
        }
        os << std::setw(5) << (r.ok ? "yes" : "NO") << "\n";
    }
    for (const auto& r : rows)
    {
        if (!r.ok)
        {
            os << "# " << r.scenario << " / " << r.config << (r.lb.empty() ? "" : " / " + r.lb)
               << ": " << r.problem << "\n";
        }
    }
}

void
TransportComparison::WriteCsv(std::ostream& os, const std::vector<TransportComparisonRow>& rows)
{
    os << "scenario,config,transport,bytes,busbw_GBps,flows,completed,fct_median_us,fct_p99_us,"
          "fct_max_us,max_queue_bytes,pfc_pauses,pfc_pauses_data_class,trims,drops,ecn_marks,"
          "retransmissions,timeouts,nacks,trim_nacks,cnps,uet_bytes_posted,uet_bytes_delivered,"
          "ok";
    const bool lbs =
        std::any_of(rows.begin(), rows.end(), [](const auto& r) { return !r.lb.empty(); });
    os << (lbs ? ",lb,uplink_imbalance,out_of_order\n" : "\n");
    for (const auto& r : rows)
    {
        const FabricRunCounters& c = r.counters;
        os << r.scenario << "," << r.config << "," << r.config.substr(0, r.config.find('-')) << ","
           << r.bytes << ",";
        if (r.busbwGBps >= 0)
        {
            os << r.busbwGBps;
        }
        os << "," << r.flows << "," << r.completed << ",";
        if (r.busbwGBps < 0 && r.completed > 0)
        {
            os << Us3(r.fctMedian) << "," << Us3(r.fctP99) << "," << Us3(r.fctMax);
        }
        else
        {
            os << ",,";
        }
        os << "," << r.maxQueueBytes << "," << c.GetPfcPauses() << "," << r.GetDataClassPauses()
           << "," << c.trims << "," << c.drops << "," << c.ecnMarks << ","
           << c.transports.retransmissions << "," << c.transports.timeouts << ","
           << c.transports.nacks << "," << c.transports.trimNacks << "," << c.transports.cnpsTx
           << "," << c.transports.bytesPosted << "," << c.transports.bytesDelivered << ","
           << (r.ok ? 1 : 0);
        if (lbs)
        {
            os << "," << r.lb << "," << r.uplinkImbalance << "," << c.transports.outOfOrder;
        }
        os << "\n";
    }
}

int
TransportComparison::WriteResults(std::ostream& os,
                                  const std::vector<TransportComparisonRow>& rows,
                                  const std::string& csv)
{
    WriteTable(os, rows);
    if (!csv.empty())
    {
        std::ofstream out(csv);
        FABRIC_INPUT_ERROR_IF(!out, "--csv=" << csv << ": cannot write the file");
        WriteCsv(out, rows);
        os << "# wrote " << csv << "\n";
    }
    return std::all_of(rows.begin(), rows.end(), [](const auto& r) { return r.ok; }) ? 0 : 1;
}

} // namespace ns3
