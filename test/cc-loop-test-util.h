/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared closed-loop fixture for the congestion-control tests: N RoCE senders and one
 * receiver on one switch (DCTCP, TIMELY, Swift).
 */
#ifndef AI_FABRIC_CC_LOOP_TEST_UTIL_H
#define AI_FABRIC_CC_LOOP_TEST_UTIL_H

#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <string>
#include <vector>

namespace ns3
{
namespace test
{

/// N senders and one receiver on a switch, RoCE NICs, 1 us links.
class CcLoopTest : public SimTest
{
  protected:
    /**
     * Build the topology.
     * \param senders sender hosts
     * \param rate link rate, e.g. "100Gbps"
     * \param nicHelper configured NIC helper (congestion control, notification mode)
     */
    void Build(uint32_t senders, const std::string& rate, RoceNicHelper& nicHelper)
    {
        hosts.Create(senders + 1);
        Ptr<Node> swNode = CreateObject<Node>();
        PfcHelper pfc;
        pfc.SetDeviceAttribute("DataRate", StringValue(rate));
        pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        for (uint32_t i = 0; i <= senders; ++i)
        {
            ports.push_back(DynamicCast<PfcNetDevice>(pfc.Install(hosts.Get(i), swNode).Get(0)));
        }
        sw = SwitchHelper().Install(swNode);
        for (uint32_t i = 0; i <= senders; ++i)
        {
            Ipv4Address ip(0x0a000001 + i);
            sw->GetForwardingTable()->SetRoute(ip, {i});
            nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], ip));
        }
        nicHelper.AssignStreams(1);
        sw->AssignStreams(2);
        for (uint32_t i = 0; i < senders; ++i)
        {
            qps.push_back(nicHelper.Connect(nics[i], nics[senders])[0]);
        }
        receiverPort = senders;
    }

    /**
     * Flow 0 starts at 0, flow 1 at \p join; both WRITE 2 GiB. Returns each flow's goodput
     * (Gb/s of payload received) over [from, to].
     */
    std::vector<double> TwoFlows(Time join, Time from, Time to)
    {
        qps[0].first->PostWrite(2ull << 30, 0, 1, RoceQueuePair::CompletionCallback());
        Simulator::Schedule(join, [this]() {
            qps[1].first->PostWrite(2ull << 30, 0, 1, RoceQueuePair::CompletionCallback());
        });
        std::vector<uint64_t> atFrom(2, 0);
        Simulator::Schedule(from, [this, &atFrom]() {
            for (int i = 0; i < 2; ++i)
            {
                atFrom[i] = qps[i].second->GetCounters().rxDataBytes;
            }
        });
        Simulator::Stop(to);
        Simulator::Run();
        std::vector<double> gbps;
        for (int i = 0; i < 2; ++i)
        {
            gbps.push_back((qps[i].second->GetCounters().rxDataBytes - atFrom[i]) * 8.0 /
                           (to - from).GetSeconds() / 1e9);
        }
        return gbps;
    }

    /// \return PFC pauses the switch sent toward the senders (priority 3)
    uint64_t Pauses() const
    {
        uint64_t p = 0;
        for (uint32_t i = 0; i < receiverPort; ++i)
        {
            p += sw->GetPort(i)->GetCounters().pauseTx[3];
        }
        return p;
    }

    NodeContainer hosts;                  //!< senders, then the receiver
    std::vector<Ptr<PfcNetDevice>> ports; //!< host ports
    Ptr<FabricSwitch> sw;                 //!< the switch
    std::vector<Ptr<RoceNic>> nics;       //!< NICs
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> qps; //!< sender, receiver QP
    uint32_t receiverPort{0}; //!< switch port of the receiver
};

} // namespace test
} // namespace ns3

#endif
