/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-run-counters.h"

#include "ns3/fabric-input-error.h"
#include "ns3/fabric-switch.h"

namespace ns3
{

uint64_t
FabricRunCounters::GetPfcPauses() const
{
    uint64_t n = 0;
    for (uint64_t p : pfcPauses)
    {
        n += p;
    }
    return n;
}

FabricRunCounters
FabricRunCounters::Collect(Ptr<FabricTopologyHelper> topo)
{
    FABRIC_INPUT_ERROR_IF(!topo || !topo->IsInstalled(),
                          "FabricRunCounters::Collect: the topology is null or not installed");
    FabricRunCounters c;
    auto addSwitch = [&c](Ptr<Node> node) {
        Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
        const SwitchCounters& s = sw->GetCounters();
        c.trims += s.GetTrims();
        c.drops += s.drops.GetTotal();
        c.ecnMarks += s.marks[size_t(SwitchMarkReason::ECN_CE)];
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const PfcPortCounters& pc = sw->GetPort(p)->GetCounters();
            for (uint8_t q = 0; q < 8; ++q)
            {
                c.pfcPauses[q] += pc.pauseTx[q];
            }
        }
    };
    for (uint32_t i = 0; i < topo->GetNLeaves(); ++i)
    {
        addSwitch(topo->GetLeaf(i));
    }
    for (uint32_t i = 0; i < topo->GetNSpines(); ++i)
    {
        addSwitch(topo->GetSpine(i));
    }
    for (uint32_t i = 0; i < topo->GetNCores(); ++i)
    {
        addSwitch(topo->GetCore(i));
    }
    for (uint32_t i = 0; i < topo->GetNNvSwitches(); ++i)
    {
        addSwitch(topo->GetNvSwitch(i));
    }
    const std::vector<Ptr<FabricTransportPlugin>> transports = topo->GetTransports();
    for (uint32_t r = 0; r < topo->GetNRanks(); ++r)
    {
        Ptr<FabricNic> core = topo->GetNicCore(r);
        for (uint32_t p = 0; p < core->GetNPorts(); ++p)
        {
            const PfcPortCounters& pc = core->GetPort(p)->GetCounters();
            for (uint8_t q = 0; q < 8; ++q)
            {
                c.pfcPauses[q] += pc.pauseTx[q];
            }
        }
        for (const auto& transport : transports)
        {
            transport->AddCounters(topo->GetRank(r), c.transports);
        }
    }
    return c;
}

FabricRunCounters
FabricRunCounters::Since(const FabricRunCounters& b) const
{
    FabricRunCounters d;
    for (size_t q = 0; q < 8; ++q)
    {
        d.pfcPauses[q] = pfcPauses[q] - b.pfcPauses[q];
    }
    d.trims = trims - b.trims;
    d.drops = drops - b.drops;
    d.ecnMarks = ecnMarks - b.ecnMarks;
    const FabricTransportCounters& x = transports;
    const FabricTransportCounters& y = b.transports;
    FabricTransportCounters& t = d.transports;
    t.retransmissions = x.retransmissions - y.retransmissions;
    t.timeouts = x.timeouts - y.timeouts;
    t.nacks = x.nacks - y.nacks;
    t.outOfOrder = x.outOfOrder - y.outOfOrder;
    t.trimNacks = x.trimNacks - y.trimNacks;
    t.cnpsTx = x.cnpsTx - y.cnpsTx;
    t.cnpsRx = x.cnpsRx - y.cnpsRx;
    t.ceRx = x.ceRx - y.ceRx;
    t.bytesPosted = x.bytesPosted - y.bytesPosted;
    t.bytesCompleted = x.bytesCompleted - y.bytesCompleted;
    t.bytesDelivered = x.bytesDelivered - y.bytesDelivered;
    t.opsFailed = x.opsFailed - y.opsFailed;
    return d;
}

} // namespace ns3
