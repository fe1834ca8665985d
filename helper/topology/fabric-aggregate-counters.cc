/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-aggregate-counters.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-mpi.h"

#include <numeric>

namespace ns3
{

namespace
{

/// \return \p name with every space replaced by '_' (CSV-friendly counter names)
std::string
CounterName(const std::string& prefix, const std::string& name)
{
    std::string s = prefix + name;
    for (auto& c : s)
    {
        c = c == ' ' ? '_' : c;
    }
    return s;
}

/// \return the sum of an array of counts
template <std::size_t N>
uint64_t
Sum(const std::array<uint64_t, N>& a)
{
    return std::accumulate(a.begin(), a.end(), uint64_t(0));
}

} // namespace

void
FabricTierCounters::AddSwitch(const FabricSwitch& sw)
{
    const SwitchCounters& c = sw.GetCounters();
    for (const auto& perPrio : c.xoffSent)
    {
        xoffDecisions += Sum(perPrio);
    }
    for (const auto& perPrio : c.xonSent)
    {
        xonDecisions += Sum(perPrio);
    }
    forwarded += c.forwarded;
    ecnMarks += c.marks[size_t(SwitchMarkReason::ECN_CE)];
    trims += c.GetTrims();
    losslessDrops += Sum(c.losslessDrops);
    for (uint32_t r = 0; r < c.drops.GetN(); ++r)
    {
        switchDrops.Count(r, c.drops[r]);
    }
}

void
FabricTierCounters::AddPort(const PfcNetDevice& port)
{
    const PfcPortCounters& c = port.GetCounters();
    pfcPauseTx += Sum(c.pauseTx);
    pfcXonTx += Sum(c.xonTx);
    pfcPauseRx += Sum(c.pauseRx);
    pfcXonRx += Sum(c.xonRx);
    pfcStorms += Sum(c.stormsDetected);
    for (const Time& t : c.pausedTime)
    {
        pausedTime += t;
    }
    for (std::size_t r = 0; r < portDrops.size(); ++r)
    {
        portDrops[r] += c.drops[r];
    }
}

void
FabricTierCounters::AddNic(const FabricNic& core, const FabricTransportCounters& transports)
{
    const auto& drops = core.GetDrops();
    for (std::size_t r = 0; r < nicDrops.size(); ++r)
    {
        nicDrops[r] += drops[r];
    }
    cnpTx += transports.cnpsTx;
    cnpRx += transports.cnpsRx;
    ceRx += transports.ceRx;
}

void
FabricTierCounters::Add(const FabricTierCounters& o)
{
    nodes += o.nodes;
    pfcPauseTx += o.pfcPauseTx;
    pfcXonTx += o.pfcXonTx;
    pfcPauseRx += o.pfcPauseRx;
    pfcXonRx += o.pfcXonRx;
    xoffDecisions += o.xoffDecisions;
    xonDecisions += o.xonDecisions;
    pausedTime += o.pausedTime;
    pfcStorms += o.pfcStorms;
    forwarded += o.forwarded;
    ecnMarks += o.ecnMarks;
    trims += o.trims;
    cnpTx += o.cnpTx;
    cnpRx += o.cnpRx;
    ceRx += o.ceRx;
    losslessDrops += o.losslessDrops;
    for (uint32_t r = 0; r < o.switchDrops.GetN(); ++r)
    {
        switchDrops.Count(r, o.switchDrops[r]);
    }
    for (std::size_t r = 0; r < portDrops.size(); ++r)
    {
        portDrops[r] += o.portDrops[r];
    }
    for (std::size_t r = 0; r < nicDrops.size(); ++r)
    {
        nicDrops[r] += o.nicDrops[r];
    }
}

uint64_t
FabricTierCounters::GetSwitchDrops() const
{
    return switchDrops.GetTotal();
}

uint64_t
FabricTierCounters::GetPortDrops() const
{
    return Sum(portDrops);
}

uint64_t
FabricTierCounters::GetNicDrops() const
{
    return Sum(nicDrops);
}

std::vector<std::pair<std::string, uint64_t>>
FabricTierCounters::GetRows() const
{
    std::vector<std::pair<std::string, uint64_t>> rows = {
        {"nodes", nodes},
        {"pfc_pause_tx", pfcPauseTx},
        {"pfc_xon_tx", pfcXonTx},
        {"pfc_pause_rx", pfcPauseRx},
        {"pfc_xon_rx", pfcXonRx},
        {"xoff_decisions", xoffDecisions},
        {"xon_decisions", xonDecisions},
        {"paused_time_ns", static_cast<uint64_t>(pausedTime.GetNanoSeconds())},
        {"pfc_storms", pfcStorms},
        {"forwarded", forwarded},
        {"ecn_marks", ecnMarks},
        {"trims", trims},
        {"cnp_tx", cnpTx},
        {"cnp_rx", cnpRx},
        {"ce_rx", ceRx},
        {"lossless_drops", losslessDrops},
    };
    for (uint32_t r = 0; r < switchDrops.GetN(); ++r)
    {
        rows.emplace_back(CounterName("switch_drop:", switchDrops.GetName(r)), switchDrops[r]);
    }
    for (std::size_t r = 0; r < portDrops.size(); ++r)
    {
        rows.emplace_back(CounterName("port_drop:", PfcDropReasonName(PfcDropReason(r))),
                          portDrops[r]);
    }
    for (std::size_t r = 0; r < nicDrops.size(); ++r)
    {
        rows.emplace_back(CounterName("nic_drop:", FabricNicDropReasonName(FabricNicDropReason(r))),
                          nicDrops[r]);
    }
    return rows;
}

const FabricTierCounters&
FabricAggregateCounters::Get(FabricNodeType type) const
{
    FABRIC_INPUT_ERROR_IF(type >= FabricNodeType::COUNT,
                          "FabricAggregateCounters::Get: node type "
                              << unsigned(type) << " is invalid (0.."
                              << size_t(FabricNodeType::COUNT) - 1 << ")");
    return tiers[size_t(type)];
}

const char*
FabricAggregateCounters::GetTierName(FabricNodeType type)
{
    return type == FabricNodeType::GPU ? "host" : FabricNodeTypeName(type);
}

namespace
{

/**
 * \param c a sum
 * \param[in,out] v every counter of \p c but its node count is appended, in a fixed order
 */
void
AppendValues(const FabricTierCounters& c, std::vector<uint64_t>& v)
{
    v.insert(v.end(),
             {c.pfcPauseTx,
              c.pfcXonTx,
              c.pfcPauseRx,
              c.pfcXonRx,
              c.xoffDecisions,
              c.xonDecisions,
              static_cast<uint64_t>(c.pausedTime.GetTimeStep()),
              c.pfcStorms,
              c.forwarded,
              c.ecnMarks,
              c.trims,
              c.cnpTx,
              c.cnpRx,
              c.ceRx,
              c.losslessDrops});
    for (uint32_t r = 0; r < c.switchDrops.GetN(); ++r)
    {
        v.push_back(c.switchDrops[r]);
    }
    v.insert(v.end(), c.portDrops.begin(), c.portDrops.end());
    v.insert(v.end(), c.nicDrops.begin(), c.nicDrops.end());
}

/**
 * \param nodes the node count to keep
 * \param v values in AppendValues()'s order
 * \param[in,out] i where this sum's values start in \p v; moved past them
 * \return the sum
 */
FabricTierCounters
FromValues(uint32_t nodes, const std::vector<uint64_t>& v, std::size_t& i)
{
    FabricTierCounters c;
    c.nodes = nodes;
    for (uint64_t* f : {&c.pfcPauseTx,
                        &c.pfcXonTx,
                        &c.pfcPauseRx,
                        &c.pfcXonRx,
                        &c.xoffDecisions,
                        &c.xonDecisions})
    {
        *f = v[i++];
    }
    c.pausedTime = TimeStep(v[i++]);
    for (uint64_t* f : {&c.pfcStorms,
                        &c.forwarded,
                        &c.ecnMarks,
                        &c.trims,
                        &c.cnpTx,
                        &c.cnpRx,
                        &c.ceRx,
                        &c.losslessDrops})
    {
        *f = v[i++];
    }
    for (uint32_t r = 0; r < c.switchDrops.GetN(); ++r)
    {
        c.switchDrops.Count(r, v[i++]);
    }
    for (uint64_t& n : c.portDrops)
    {
        n = v[i++];
    }
    for (uint64_t& n : c.nicDrops)
    {
        n = v[i++];
    }
    return c;
}

} // namespace

void
FabricAggregateCounters::Gather()
{
    if (FabricMpi::GetSize() == 1)
    {
        return;
    }
    std::vector<uint64_t> v;
    for (const FabricTierCounters& t : tiers)
    {
        AppendValues(t, v);
    }
    AppendValues(total, v);
    v = FabricMpi::SumEach(v);
    std::size_t i = 0;
    for (FabricTierCounters& t : tiers)
    {
        t = FromValues(t.nodes, v, i);
    }
    total = FromValues(total.nodes, v, i);
}

void
FabricAggregateCounters::Print(std::ostream& os) const
{
    os << "tier,counter,value\n";
    auto rows = [&os](const char* tier, const FabricTierCounters& c) {
        for (const auto& [name, value] : c.GetRows())
        {
            os << tier << "," << name << "," << value << "\n";
        }
    };
    for (std::size_t t = 0; t < tiers.size(); ++t)
    {
        if (tiers[t].nodes > 0)
        {
            rows(GetTierName(FabricNodeType(t)), tiers[t]);
        }
    }
    rows("total", total);
}

} // namespace ns3
