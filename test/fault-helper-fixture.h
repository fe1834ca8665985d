/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fixture of the FaultHelper tests (fault-helper-test.cc: the parser, links, routes,
 * reboots, degrades, the log; fault-lab-kinds-test.cc: nic-stall, ecn-profile, drop-class): a
 * small Clos, RDMA WRITEs between its GPUs, and the checks every fault test makes (every WRITE
 * completed, frames conserved).
 */
#ifndef AI_FABRIC_FAULT_HELPER_FIXTURE_H
#define AI_FABRIC_FAULT_HELPER_FIXTURE_H

#include "fault-test-util.h"
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <utility>
#include <vector>

namespace ns3
{
namespace test
{

/// The FabricSwitch on a node.
inline Ptr<FabricSwitch>
Switch(Ptr<Node> node)
{
    return node->GetObject<FabricSwitch>();
}

/// The ports of switch \p sw whose cable leads to \p peer, ascending.
inline std::vector<uint32_t>
PortsTo(Ptr<Node> sw, Ptr<Node> peer)
{
    std::vector<uint32_t> ports;
    Ptr<FabricSwitch> s = Switch(sw);
    for (uint32_t p = 0; p < s->GetNPorts(); ++p)
    {
        if (PeerOf(s->GetPort(p))->GetNode() == peer)
        {
            ports.push_back(p);
        }
    }
    return ports;
}

/// The equal-cost set of \p sw toward \p dst.
inline std::vector<uint32_t>
Route(Ptr<Node> sw, Ipv4Address dst)
{
    return Switch(sw)->GetForwardingTable()->GetRoute(dst);
}

/// Data frames of a port, all priorities.
inline uint64_t
Frames(Ptr<PfcNetDevice> dev, bool tx)
{
    uint64_t n = 0;
    const PfcPortCounters& c = dev->GetCounters();
    for (uint32_t p = 0; p < 8; ++p)
    {
        n += tx ? c.txFrames[p] : c.rxFrames[p];
    }
    return n;
}

class FaultHelperTest : public SimTest
{
  protected:
    /// 2 ToRs (leaf0: gpu0, gpu1; leaf1: gpu2, gpu3) x 2 spines, one cable each, no NVLink.
    Ptr<ClosTopologyHelper> SmallClos()
    {
        auto t = MakeSmallClos();
        t->Install();
        return t;
    }

    /// Eight QPs each way between gpu0 and gpu2 and between gpu1 and gpu3, one WRITE each.
    void StartTraffic(Ptr<FabricTopologyHelper> t, uint64_t bytes)
    {
        for (auto [a, b] : {std::pair<uint32_t, uint32_t>{0, 2}, {1, 3}})
        {
            for (const auto& q : t->Connect(a, b, 8))
            {
                q.first->PostWrite(bytes, 0, 1, MakeCallback(&FaultHelperTest::Done, this));
                q.second->PostWrite(bytes, 0, 2, MakeCallback(&FaultHelperTest::Done, this));
                posted += 2 * bytes;
                ++expected;
            }
        }
        expected *= 2;
    }

    void Done(const RoceWorkCompletion& wc)
    {
        completions.push_back(wc);
    }

    /// \return Done() as a completion callback, for the tests' own traffic
    Callback<void, const RoceWorkCompletion&> OnDone()
    {
        return MakeCallback(&FaultHelperTest::Done, this);
    }

    /// Every WRITE completed successfully with its bytes.
    void ExpectAllCompleted()
    {
        ASSERT_EQ(completions.size(), expected);
        uint64_t bytes = 0;
        for (const auto& wc : completions)
        {
            EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
            bytes += wc.bytes;
        }
        EXPECT_EQ(bytes, posted);
    }

    /// Sent = received + dropped (every reason), nothing in flight once the run is over.
    static void ExpectConserved(const FabricTopologyHelper& t)
    {
        ExpectFramesConserved(t);
    }

    std::vector<RoceWorkCompletion> completions;
    uint64_t posted{0};
    uint32_t expected{0};
};

} // namespace test
} // namespace ns3

#endif /* AI_FABRIC_FAULT_HELPER_FIXTURE_H */
