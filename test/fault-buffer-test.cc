/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FaultHelper's buffer-profile fault and UET packet classes (issue 37, item 1): pfc-threshold
 * parses and refuses bad input naming the value; it is refused on switches it cannot apply to
 * (no lossless priority, xoff= in Dynamic mode, alpha= in Static mode, xoff below XonOffset);
 * a tiny alpha makes the mis-set leaf pause where the same load did not; a headroom below what
 * arrives after XOFF drops lossless packets as "headroom overflow" on that leaf only, the
 * writes still complete (go-back-N) and frames are conserved; restore puts the installed
 * profile back. The UET classifier tells PDS ACKs and NACKs from requests.
 */
#include "fault-helper-fixture.h"

#include <sstream>

using namespace ns3;

namespace
{

/// The FaultHelper tests' fixture (WRITEs, completions, conservation), with an incast.
class FaultBufferTest : public test::FaultHelperTest
{
  protected:
    /// 2 ToRs (leaf0: gpu0, gpu1; leaf1: gpu2, gpu3) x 2 spines, RoCE with PFC, no NVLink.
    Ptr<ClosTopologyHelper> SmallClos(bool staticThreshold = false)
    {
        auto t = test::MakeSmallClos();
        if (staticThreshold)
        {
            t->GetSwitchHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
        }
        t->Install();
        return t;
    }

    /// gpu0, gpu1 and gpu3 each WRITE \p bytes to gpu2 on 4 QPs: an incast at leaf1.
    void Incast(Ptr<FabricTopologyHelper> t, uint64_t bytes)
    {
        for (uint32_t src : {0u, 1u, 3u})
        {
            for (const auto& q : t->Connect(src, 2, 4))
            {
                q.first->PostWrite(bytes, 0, 1, OnDone());
                posted += bytes;
                ++expected;
            }
        }
    }

    /// \return XOFF decisions of a switch, all ports and priorities
    static uint64_t Xoffs(Ptr<Node> node)
    {
        uint64_t n = 0;
        for (const auto& port : node->GetObject<FabricSwitch>()->GetCounters().xoffSent)
        {
            for (uint64_t x : port)
            {
                n += x;
            }
        }
        return n;
    }

    /// \return "headroom overflow" drops of a switch
    static uint64_t HeadroomDrops(Ptr<Node> node)
    {
        return node->GetObject<FabricSwitch>()
            ->GetCounters()
            .drops[size_t(SwitchDropReason::HEADROOM_OVERFLOW)];
    }
};

TEST_F(FaultBufferTest, ParserAcceptsPfcThresholdAndRefusesBadValues)
{
    auto specs = FaultHelper::Parse("pfc-threshold:leaf1#2@1ms,headroom=4KB;"
                                    "pfc-threshold:leaf0@2ms,xoff=8KB,headroom=2048;"
                                    "pfc-threshold:spine0@0s,alpha=0.5;pfc-threshold:leaf1@3ms,"
                                    "restore");
    ASSERT_EQ(specs.size(), 4u);
    EXPECT_EQ(specs[0].kind, FaultKind::PFC_THRESHOLD);
    EXPECT_EQ(specs[0].nodeA, "leaf1");
    EXPECT_EQ(specs[0].port, 2);
    EXPECT_EQ(specs[0].headroom, 4096u);
    EXPECT_FALSE(specs[0].xoff);
    EXPECT_EQ(specs[1].xoff, 8192u);
    EXPECT_EQ(specs[1].headroom, 2048u);
    EXPECT_DOUBLE_EQ(specs[2].alpha.value_or(0), 0.5);
    EXPECT_TRUE(specs[3].restore);
    EXPECT_EQ(specs[0].Describe(), "pfc-threshold leaf1#2 @ 1 ms, headroom 4096 B");
    EXPECT_EQ(specs[1].Describe(), "pfc-threshold leaf0 @ 2 ms, headroom 2048 B, xoff 8192 B");
    EXPECT_EQ(specs[3].Describe(), "pfc-threshold leaf1 @ 3 ms, restore");

    EXPECT_EQ(test::FaultParseError("pfc-threshold:leaf1@1ms"),
              "fault 'pfc-threshold:leaf1@1ms' needs headroom=, xoff= or alpha= (or restore); "
              "e.g. pfc-threshold:leaf1#0@1ms,headroom=4KB");
    EXPECT_EQ(test::FaultParseError("pfc-threshold:leaf1#0@1ms,xoff=4KB"),
              "fault 'pfc-threshold:leaf1#0@1ms,xoff=4KB': xoff= and alpha= are switch-wide (the "
              "MMU's threshold), so they take a switch S, not a port S#k; only headroom= is per "
              "port");
    EXPECT_EQ(test::FaultParseError("pfc-threshold:leaf1@1ms,restore,headroom=1KB"),
              "fault 'pfc-threshold:leaf1@1ms,restore,headroom=1KB' takes restore alone (back to "
              "the profile at install) or headroom=, xoff=, alpha=, not both");
    EXPECT_EQ(test::FaultParseError("pfc-threshold:leaf1@1ms,alpha=0"),
              "alpha '0' in 'pfc-threshold:leaf1@1ms,alpha=0' is invalid; give a factor > 0, "
              "e.g. 0.125, 1, 8");
    EXPECT_EQ(test::FaultParseError("pfc-threshold:leaf1@1ms,alpha=inf"),
              "alpha 'inf' in 'pfc-threshold:leaf1@1ms,alpha=inf' is invalid; give a factor > "
              "0, e.g. 0.125, 1, 8");
    EXPECT_EQ(test::FaultParseError("pfc-threshold:leaf1@1ms,headroom=lots"),
              "headroom 'lots' in 'pfc-threshold:leaf1@1ms,headroom=lots' is invalid; give a "
              "byte count, e.g. 4096, 4KB (KB = 1024 bytes)");
    EXPECT_EQ(test::FaultParseError("pfc-threshold:leaf1-spine0@1ms,headroom=1KB"),
              "target 'leaf1-spine0' in 'pfc-threshold:leaf1-spine0@1ms' is invalid; "
              "pfc-threshold takes one switch name S (every port) or S#k (its port k), e.g. "
              "pfc-threshold:leaf1#0@1ms,headroom=4KB");
    EXPECT_EQ(test::FaultParseError("pfc-threshold:leaf1@1ms,kmin=1KB"),
              "parameter 'kmin' in 'pfc-threshold:leaf1@1ms,kmin=1KB' does not apply to "
              "pfc-threshold; valid: headroom, xoff, alpha (at least one), or restore alone");
}

TEST_F(FaultBufferTest, InstallRefusesPfcThresholdsTheSwitchCannotTake)
{
    auto refuse = [](const std::string& fault, bool staticMode, const std::string& message) {
        EXPECT_DEATH(
            {
                auto t = CreateObject<ClosTopologyHelper>();
                t->SetAttribute("Servers", UintegerValue(2));
                t->SetAttribute("GpusPerServer", UintegerValue(1));
                t->SetAttribute("NvLink", BooleanValue(false));
                if (staticMode)
                {
                    t->GetSwitchHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
                }
                t->Install();
                auto f = CreateObject<FaultHelper>();
                f->Add(fault);
                f->Install(t);
            },
            message);
    };
    refuse("pfc-threshold:leaf0@0s,xoff=64KB",
           false,
           "xoff= sets the static XOFF threshold, but leaf0 runs ThresholdMode Dynamic; give "
           "alpha=");
    refuse("pfc-threshold:leaf0@0s,alpha=1",
           true,
           "alpha= sets the dynamic threshold factor, but leaf0 runs ThresholdMode Static; give "
           "xoff=");
    refuse("pfc-threshold:leaf0@0s,xoff=1KB",
           true,
           "xoff 1024 B is below the switch's XonOffset 2048 B; valid range is >= 2048 B");
    refuse("pfc-threshold:gpu0@0s,headroom=1KB", false, "gpu0 is not a switch; the switches are");
    refuse("pfc-threshold:leaf0#99@0s,headroom=1KB", false, "port #99 does not exist; leaf0 has");
}

/// The same incast with and without alpha 1/1024 on leaf1: the mis-set leaf pauses its
/// senders many times more often, leaf0 (unchanged, it carries no incast) sends no XOFF, and
/// nothing is lost.
TEST_F(FaultBufferTest, ATinyAlphaMakesTheMisSetLeafPauseWhereTheSameLoadDidNot)
{
    uint64_t healthy = 0;
    {
        auto t = SmallClos();
        Incast(t, 256 * 1024);
        Simulator::Run();
        ExpectAllCompleted();
        healthy = Xoffs(t->GetLeaf(1));
        Simulator::Destroy();
    }
    completions.clear();
    posted = 0;
    expected = 0;
    auto t = SmallClos();
    auto f = CreateObject<FaultHelper>();
    f->Add("pfc-threshold:leaf1@0s,alpha=0.0009765625");
    f->Install(t);
    Incast(t, 256 * 1024);
    Simulator::Run();
    ExpectAllCompleted();
    const uint64_t misSet = Xoffs(t->GetLeaf(1));
    EXPECT_GT(misSet, 4 * healthy + 10) << "healthy " << healthy << ", mis-set " << misSet;
    EXPECT_EQ(Xoffs(t->GetLeaf(0)), 0u);
    EXPECT_EQ(FabricHealthMonitor::CountLosslessDrops(), 0u);
    const auto& ev = f->GetEvents();
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].kind, "pfc-threshold");
    EXPECT_EQ(ev[0].detail, "alpha 0.000976562 (was 0.125); 4 ports");
}

/// Headroom 1 KB (below one frame) on leaf1 with alpha 1/1024: every frame that arrives after
/// XOFF overflows; they are dropped as "headroom overflow" at leaf1 only, counted as lossless
/// drops, recovered by go-back-N, and every write completes. Restore at 5 ms puts the computed
/// headroom and alpha back.
TEST_F(FaultBufferTest, AHeadroomBelowTheCableDropsLosslessPacketsAndRestoreUndoesIt)
{
    auto t = SmallClos();
    Ptr<SharedBufferMmu> mmu = t->GetLeaf(1)->GetObject<FabricSwitch>()->GetMmu();
    std::vector<uint64_t> installed;
    for (uint32_t p = 0; p < 4; ++p)
    {
        installed.push_back(mmu->GetHeadroomSize(p));
        ASSERT_GT(installed.back(), 4096u);
    }
    auto f = CreateObject<FaultHelper>();
    f->Add("pfc-threshold:leaf1@0s,headroom=1KB,alpha=0.0009765625;"
           "pfc-threshold:leaf1@5ms,restore");
    f->Install(t);
    Incast(t, 128 * 1024);
    Simulator::Schedule(MicroSeconds(1), [&]() {
        for (uint32_t p = 0; p < 4; ++p)
        {
            EXPECT_EQ(mmu->GetHeadroomSize(p), 1024u);
        }
    });
    Simulator::Run();
    ExpectAllCompleted();
    for (const auto& wc : completions)
    {
        ASSERT_LT(wc.endTime, MilliSeconds(5)) << "traffic ran into the restore";
    }
    EXPECT_GT(HeadroomDrops(t->GetLeaf(1)), 0u) << "no headroom overflow on the mis-set leaf";
    EXPECT_EQ(HeadroomDrops(t->GetLeaf(0)), 0u);
    EXPECT_EQ(HeadroomDrops(t->GetSpine(0)) + HeadroomDrops(t->GetSpine(1)), 0u);
    EXPECT_EQ(FabricHealthMonitor::CountLosslessDrops(), HeadroomDrops(t->GetLeaf(1)));
    for (uint32_t p = 0; p < 4; ++p)
    {
        EXPECT_EQ(mmu->GetHeadroomSize(p), installed[p]) << "port " << p << " not restored";
    }
    std::string why;
    EXPECT_TRUE(mmu->CheckInvariants(&why)) << why;
    const auto& ev = f->GetEvents();
    ASSERT_EQ(ev.size(), 2u);
    std::ostringstream first;
    first << "headroom 1024 B on port 0 (was " << installed[0]
          << " B); alpha 0.000976562 (was 0.125); 4 ports";
    EXPECT_EQ(ev[0].detail, first.str());
    EXPECT_EQ(ev[1].kind, "pfc-restore");
    EXPECT_EQ(ev[1].detail.find(','), std::string::npos) << "the fault CSV's detail has no comma";
    EXPECT_EQ(ev[1].time, MilliSeconds(5));
}

TEST_F(FaultBufferTest, TheUetClassifierTellsAcksAndNacksFromRequests)
{
    uint8_t pds[UetPdsHeader::MAX_SIZE] = {};
    auto classify = [&](UetPdsType type, uint32_t n) {
        UetPdsHeader::WritePrologue(pds, type, 0, 0);
        return UetPdsHeader::Classify(pds, n);
    };
    EXPECT_EQ(classify(UetPdsType::ACK, 12), FabricPacketClass::ACK);
    EXPECT_EQ(classify(UetPdsType::ACK_CC, 32), FabricPacketClass::ACK);
    EXPECT_EQ(classify(UetPdsType::ACK_CCX, 40), FabricPacketClass::ACK);
    EXPECT_EQ(classify(UetPdsType::NACK, 16), FabricPacketClass::NAK);
    EXPECT_EQ(classify(UetPdsType::NACK_CCX, 16), FabricPacketClass::NAK);
    EXPECT_EQ(classify(UetPdsType::RUD_REQ, 12), FabricPacketClass::OTHER);
    EXPECT_EQ(classify(UetPdsType::CTRL, 16), FabricPacketClass::OTHER);
    EXPECT_EQ(classify(UetPdsType::ACK, 1), FabricPacketClass::OTHER);
}

} // namespace
