/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PfcNetDevice/PfcChannel behaviour: wire timing, line-rate throughput, PFC pause/resume
 * semantics, XOFF refresh, watchdog, classification, and drops with reasons.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <fstream>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint16_t IPV4 = 0x0800;

/// A 400 Gb/s, 1 us link between two nodes, with a log of what crosses it.
class LinkTest : public test::SimTest
{
  protected:
    struct TxEvent
    {
        Time t;
        uint8_t priority;
    };

    void Build(std::string rate = "400Gbps", Time delay = MicroSeconds(1))
    {
        nodes.Create(2);
        helper.SetDeviceAttribute("DataRate", StringValue(rate));
        helper.SetChannelAttribute("Delay", TimeValue(delay));
        NetDeviceContainer devs = helper.Install(nodes);
        tx = DynamicCast<PfcNetDevice>(devs.Get(0));
        rx = DynamicCast<PfcNetDevice>(devs.Get(1));
        tx->SetDequeueCallback(MakeCallback(&LinkTest::OnDequeue, this));
        rx->SetPfcReceiveCallback(MakeCallback(&LinkTest::OnReceive, this));
    }

    void OnDequeue(const Ptr<PfcNetDevice>&, uint8_t priority, const Ptr<const Packet>&)
    {
        txLog.push_back({Simulator::Now(), priority});
        if (refill[priority] > 0)
        {
            refill[priority]--;
            tx->Send(test::MakeIpv4Packet(payload - 20, dscpOf[priority]), rx->GetAddress(), IPV4);
        }
    }

    void OnReceive(Ptr<PfcNetDevice>, Ptr<Packet> p, uint16_t proto, Mac48Address, uint8_t prio)
    {
        rxLog.push_back({Simulator::Now(), prio});
        rxBytes += p->GetSize();
        EXPECT_EQ(proto, IPV4);
    }

    /// Keep priority of \p dscp backlogged for \p count more frames (2 queued at a time).
    void Backlog(uint8_t dscp, uint32_t count)
    {
        uint8_t prio = tx->GetDscpPriority(dscp);
        dscpOf[prio] = dscp;
        refill[prio] = count > 2 ? count - 2 : 0;
        for (uint32_t i = 0; i < std::min<uint32_t>(count, 2); ++i)
        {
            tx->Send(test::MakeIpv4Packet(payload - 20, dscp), rx->GetAddress(), IPV4);
        }
    }

    /// Times at which frames of a priority started serializing at the sender.
    std::vector<Time> TxTimes(uint8_t prio) const
    {
        std::vector<Time> out;
        for (const auto& e : txLog)
        {
            if (e.priority == prio)
            {
                out.push_back(e.t);
            }
        }
        return out;
    }

    NodeContainer nodes;
    PfcHelper helper;
    Ptr<PfcNetDevice> tx;
    Ptr<PfcNetDevice> rx;
    std::vector<TxEvent> txLog;
    std::vector<TxEvent> rxLog;
    uint64_t rxBytes{0};
    uint32_t payload{4096}; // IPv4 packet size (L3 payload of the Ethernet frame)
    uint32_t refill[8]{};
    uint8_t dscpOf[8]{};
};

// 4096 B payload: frame = 14 + 4096 + 4 = 4114 B, wire = 4114 + 8 preamble + 12 IFG = 4134 B.
TEST_F(LinkTest, SerializationTimeIncludesPreambleIfgAndFcs)
{
    Build();
    Backlog(26, 3);
    Simulator::Run();
    ASSERT_EQ(txLog.size(), 3u);
    const Time wire = PicoSeconds(4134ull * 8 * 1000 / 400); // 82.68 ns
    EXPECT_EQ(txLog[1].t - txLog[0].t, wire);
    EXPECT_EQ(txLog[2].t - txLog[1].t, wire);
    // Last bit of the first frame arrives after preamble + frame, plus the 1 us cable.
    ASSERT_EQ(rxLog.size(), 3u);
    EXPECT_EQ(rxLog[0].t, PicoSeconds((8 + 4114) * 8 * 1000 / 400) + MicroSeconds(1));
    EXPECT_EQ(tx->GetCounters().txBytes[3], 3u * 4114);
    EXPECT_EQ(rx->GetCounters().rxFrames[3], 3u);
}

/// Counts calls of a trace sink.
void
CountFrame(uint32_t* n, Ptr<const Packet>)
{
    ++*n;
}

TEST_F(LinkTest, PerFrameTracesFireOnlyWhileConnected)
{
    Build();
    // Every per-frame trace, connected through the attribute system; sinks are tested per
    // frame through a bit mask, which must follow connection and disconnection.
    const std::vector<std::pair<Ptr<PfcNetDevice>, std::string>> traces{{tx, "MacTx"},
                                                                        {tx, "PhyTxBegin"},
                                                                        {tx, "PhyTxEnd"},
                                                                        {tx, "Sniffer"},
                                                                        {tx, "PromiscSniffer"},
                                                                        {rx, "PhyRxEnd"},
                                                                        {rx, "Sniffer"},
                                                                        {rx, "PromiscSniffer"},
                                                                        {rx, "MacRx"}};
    std::vector<uint32_t> counts(traces.size(), 0);
    for (std::size_t i = 0; i < traces.size(); ++i)
    {
        ASSERT_TRUE(
            traces[i].first->TraceConnectWithoutContext(traces[i].second,
                                                        MakeBoundCallback(&CountFrame, &counts[i])))
            << traces[i].second;
    }
    for (int i = 0; i < 3; ++i)
    {
        tx->Send(test::MakeIpv4Packet(1000, 26), rx->GetAddress(), IPV4);
    }
    Simulator::Run();
    for (std::size_t i = 0; i < traces.size(); ++i)
    {
        EXPECT_EQ(counts[i], 3u) << traces[i].second;
        ASSERT_TRUE(traces[i].first->TraceDisconnectWithoutContext(
            traces[i].second,
            MakeBoundCallback(&CountFrame, &counts[i])));
    }
    tx->Send(test::MakeIpv4Packet(1000, 26), rx->GetAddress(), IPV4);
    Simulator::Run();
    EXPECT_EQ(rx->GetCounters().rxFrames[3], 4u);
    for (std::size_t i = 0; i < traces.size(); ++i)
    {
        EXPECT_EQ(counts[i], 3u) << traces[i].second << " fired after its sink was disconnected";
    }
}

TEST_F(LinkTest, SaturatedLinkDeliversLineRateTimesPayloadFraction)
{
    Build("100Gbps", NanoSeconds(500));
    Backlog(26, 20000);
    uint64_t bytesAt1 = 0;
    Simulator::Schedule(MicroSeconds(100), [&]() { bytesAt1 = rxBytes; });
    Simulator::Stop(MicroSeconds(1100));
    Simulator::Run();
    double goodput = (rxBytes - bytesAt1) * 8.0 / 1e-3; // bits/s over exactly 1 ms
    double expected = 100e9 * 4096.0 / (4096 + 14 + 4 + 8 + 12);
    EXPECT_NEAR(goodput / expected, 1.0, 0.001) << goodput << " vs " << expected;
}

TEST_F(LinkTest, PauseStopsExactlyThePausedPriorityForQuantaTimes512BitTimes)
{
    Build();
    Backlog(26, 200); // priority 3
    const uint16_t quanta = 1000;
    const Time pause = PicoSeconds(quanta * 512ull * 1000 / 400); // 1.28 us at 400 Gb/s
    EXPECT_EQ(tx->QuantaToTime(quanta), pause);
    Time pfcArrival;
    tx->TraceConnectWithoutContext("PfcPauseRx", MakeCallback(+[](Time* t, uint8_t p, uint16_t q) {
                                                     *t = Simulator::Now();
                                                 }).Bind(&pfcArrival));
    Simulator::Schedule(NanoSeconds(2000), [&]() {
        PfcHeader h;
        h.SetPauseQuanta(3, quanta);
        rx->SendPfcFrame(h);
    });
    Simulator::Run();
    ASSERT_GT(pfcArrival, Time(0));
    auto times = TxTimes(3);
    // The gap: the last frame started before the PFC arrived, the next exactly at expiry.
    Time lastBefore;
    Time firstAfter;
    for (Time t : times)
    {
        if (t <= pfcArrival)
        {
            lastBefore = t;
        }
        else if (firstAfter.IsZero())
        {
            firstAfter = t;
        }
    }
    EXPECT_EQ(firstAfter, pfcArrival + pause);
    EXPECT_LT(pfcArrival - lastBefore, PicoSeconds(82680)); // it was in flight and completed
    EXPECT_EQ(tx->GetCounters().pauseRx[3], 1u);
    EXPECT_EQ(tx->GetCounters().pausedTime[3], pause);
    EXPECT_EQ(rx->GetCounters().pauseTx[3], 1u);
    EXPECT_EQ(rxLog.size(), 200u); // nothing lost, the in-flight frame completed
}

TEST_F(LinkTest, OtherPrioritiesKeepSendingDuringPause)
{
    Build();
    Backlog(26, 100); // priority 3
    Backlog(0, 100);  // priority 0
    Time pfcArrival;
    tx->TraceConnectWithoutContext("PfcPauseRx", MakeCallback(+[](Time* t, uint8_t p, uint16_t q) {
                                                     *t = Simulator::Now();
                                                 }).Bind(&pfcArrival));
    Simulator::Schedule(NanoSeconds(1500), [&]() {
        PfcHeader h;
        h.SetPauseQuanta(3, 2000); // 2.56 us
        rx->SendPfcFrame(h);
    });
    Simulator::Run();
    Time pauseEnd = pfcArrival + tx->QuantaToTime(2000);
    uint32_t p0During = 0;
    uint32_t p3During = 0;
    for (const auto& e : txLog)
    {
        if (e.t > pfcArrival && e.t < pauseEnd)
        {
            (e.priority == 0 ? p0During : p3During)++;
        }
    }
    EXPECT_EQ(p3During, 0u);
    // 2.56 us / 82.68 ns per frame = 30.96 frames of priority 0 fit in the pause.
    EXPECT_GE(p0During, 30u);
    EXPECT_LE(p0During, 31u);
}

TEST_F(LinkTest, XonResumesEarly)
{
    Build();
    Backlog(26, 100);
    std::vector<Time> pfcRx;
    tx->TraceConnectWithoutContext("PfcPauseRx",
                                   MakeCallback(+[](std::vector<Time>* v, uint8_t p, uint16_t q) {
                                       v->push_back(Simulator::Now());
                                   }).Bind(&pfcRx));
    Simulator::Schedule(NanoSeconds(1500), [&]() {
        PfcHeader h;
        h.SetPauseQuanta(3, 0xffff); // 83.9 us
        rx->SendPfcFrame(h);
    });
    Simulator::Schedule(NanoSeconds(5000), [&]() {
        PfcHeader h;
        h.SetPauseQuanta(3, 0); // XON
        rx->SendPfcFrame(h);
    });
    Simulator::Run();
    ASSERT_EQ(pfcRx.size(), 2u);
    Time firstAfterXon;
    for (Time t : TxTimes(3))
    {
        if (t > pfcRx[0])
        {
            firstAfterXon = t;
            break;
        }
    }
    EXPECT_EQ(firstAfterXon, pfcRx[1]);
    EXPECT_EQ(tx->GetCounters().xonRx[3], 1u);
    EXPECT_EQ(tx->GetCounters().pausedTime[3], pfcRx[1] - pfcRx[0]);
}

TEST_F(LinkTest, XoffIsRefreshedUntilXon)
{
    Build();
    Backlog(26, 2000);
    const Time pause = tx->QuantaToTime(0xffff); // 83.886 us
    Simulator::Schedule(MicroSeconds(2), &PfcNetDevice::SetXoff, rx, 3, true);
    const Time xonAt = MicroSeconds(2) + pause * 4 - MicroSeconds(1);
    Simulator::Schedule(xonAt, &PfcNetDevice::SetXoff, rx, 3, false);
    Simulator::Stop(MicroSeconds(400));
    Simulator::Run();
    // Paused continuously from XOFF arrival to XON arrival despite 4 pause lengths passing.
    Time xoffArrival = MicroSeconds(3) + PicoSeconds(72 * 8 * 1000 / 400);
    uint32_t during = 0;
    for (Time t : TxTimes(3))
    {
        if (t > xoffArrival && t < xonAt)
        {
            ++during;
        }
    }
    EXPECT_EQ(during, 0u);
    const auto& c = rx->GetCounters();
    EXPECT_EQ(c.pauseTx[3], 8u); // initial + 7 refreshes (every pause/2) before the XON
    EXPECT_EQ(c.xonTx[3], 1u);
    EXPECT_FALSE(rx->IsXoff(3));
    EXPECT_FALSE(tx->IsPaused(3));
    EXPECT_GT(TxTimes(3).back(), xonAt); // resumed after XON
    rx->SetXoff(3, false);               // idempotent: no second XON
    EXPECT_EQ(c.xonTx[3], 1u);
}

TEST_F(LinkTest, PauseOnPfcDisabledPriorityIsIgnored)
{
    Build();
    tx->SetAttribute("PfcEnableMask", UintegerValue(0xf7)); // PFC off on priority 3
    Backlog(26, 100);
    Simulator::Schedule(NanoSeconds(1500), [&]() {
        PfcHeader h;
        h.SetPauseQuanta(3, 0xffff);
        rx->SendPfcFrame(h);
    });
    Simulator::Run();
    EXPECT_EQ(tx->GetCounters().pauseIgnored[3], 1u);
    EXPECT_EQ(tx->GetCounters().pausedTime[3], Time(0));
    // Back-to-back: 100 frames in 100 wire times (+ one PFC frame's slot is on the rx side).
    auto times = TxTimes(3);
    EXPECT_EQ(times.back() - times.front(), PicoSeconds(99ull * 82680));
}

TEST_F(LinkTest, WatchdogDeclaresStormAndReleasesThePriority)
{
    Build();
    tx->SetAttribute("PfcWatchdogTimeout", TimeValue(MicroSeconds(100)));
    tx->SetAttribute("PfcWatchdogRestore", TimeValue(MicroSeconds(500)));
    Backlog(26, 100000);
    uint32_t storms = 0;
    tx->TraceConnectWithoutContext("PfcStorm", MakeCallback(+[](uint32_t* n, uint8_t p) {
                                                   EXPECT_EQ(p, 3);
                                                   ++*n;
                                               }).Bind(&storms));
    Simulator::Schedule(MicroSeconds(2), &PfcNetDevice::SetXoff, rx, 3, true); // never released
    Simulator::Stop(MicroSeconds(400));
    Simulator::Run();
    EXPECT_EQ(storms, 1u);
    EXPECT_EQ(tx->GetCounters().stormsDetected[3], 1u);
    EXPECT_GT(tx->GetCounters().pauseIgnored[3], 0u);
    // Traffic flows again after the storm was declared (refresh at ~128 us > 100 us).
    EXPECT_GT(TxTimes(3).back(), MicroSeconds(300));
}

/// Records the context and priority of a PFC trace.
void
RecordPfc(std::vector<std::string>* log, std::string context, uint8_t priority, uint16_t quanta)
{
    log->push_back(context + " " + std::to_string(priority) + ":" + std::to_string(quanta));
}

// The pause controllers are members of the device: their settings stay device attributes and
// their traces device trace sources, reachable by attribute and Config paths as before.
TEST_F(LinkTest, PauseAttributesAndTracesAreTheDevicesOwn)
{
    helper.SetDeviceAttribute("PauseQuanta", UintegerValue(1000));
    helper.SetDeviceAttribute("PauseRefreshInterval", TimeValue(NanoSeconds(300)));
    helper.SetDeviceAttribute("PfcWatchdogTimeout", TimeValue(MicroSeconds(7)));
    helper.SetDeviceAttribute("PfcWatchdogRestore", TimeValue(MicroSeconds(9)));
    helper.SetDeviceAttribute("PfcEnableMask", UintegerValue(0x48));
    Build("100Gbps");
    UintegerValue quanta;
    TimeValue refresh;
    TimeValue watchdog;
    TimeValue restore;
    UintegerValue mask;
    rx->GetAttribute("PauseQuanta", quanta);
    rx->GetAttribute("PauseRefreshInterval", refresh);
    rx->GetAttribute("PfcWatchdogTimeout", watchdog);
    rx->GetAttribute("PfcWatchdogRestore", restore);
    rx->GetAttribute("PfcEnableMask", mask);
    EXPECT_EQ(quanta.Get(), 1000u);
    EXPECT_EQ(refresh.Get(), NanoSeconds(300));
    EXPECT_EQ(watchdog.Get(), MicroSeconds(7));
    EXPECT_EQ(restore.Get(), MicroSeconds(9));
    EXPECT_EQ(mask.Get(), 0x48u);
    EXPECT_EQ(rx->GetPauseGenerator().GetPauseQuanta(), 1000);
    EXPECT_EQ(rx->GetPauseGenerator().GetEffectiveRefreshInterval(), NanoSeconds(300));
    EXPECT_EQ(rx->GetPauseGenerator().GetEnableMask(), 0x48);
    EXPECT_EQ(rx->GetPauseReceiver().GetWatchdogTimeout(), MicroSeconds(7));
    EXPECT_EQ(rx->GetPauseReceiver().GetWatchdogRestore(), MicroSeconds(9));
    EXPECT_EQ(rx->GetPauseReceiver().GetEnableMask(), 0x48);
    EXPECT_EQ(rx->GetPauseReceiver().GetDataRate(), DataRate("100Gbps"));
    EXPECT_EQ(tx->QuantaToTime(1000), NanoSeconds(5120)); // 512000 bits at 100 Gb/s

    std::vector<std::string> log;
    const std::string txPath = "/NodeList/0/DeviceList/0/$ns3::PfcNetDevice/";
    const std::string rxPath = "/NodeList/1/DeviceList/0/$ns3::PfcNetDevice/";
    Config::Connect(txPath + "PfcPauseRx", MakeBoundCallback(&RecordPfc, &log));
    Config::Connect(rxPath + "PfcPauseTx", MakeBoundCallback(&RecordPfc, &log));
    Simulator::Schedule(MicroSeconds(1), &PfcNetDevice::SetXoff, rx, 3, true);
    Simulator::Schedule(NanoSeconds(1200), &PfcNetDevice::SetXoff, rx, 3, false);
    Simulator::Run();
    // XOFF at 1 us and XON at 1.2 us (before the refresh due at 1.3 us), each seen sent at rx
    // and received at tx 1 us + 5.76 ns later (72 B at 100 Gb/s).
    ASSERT_EQ(log.size(), 4u);
    EXPECT_EQ(log[0], rxPath + "PfcPauseTx 3:1000");
    EXPECT_EQ(log[1], rxPath + "PfcPauseTx 3:0");
    EXPECT_EQ(log[2], txPath + "PfcPauseRx 3:1000");
    EXPECT_EQ(log[3], txPath + "PfcPauseRx 3:0");
    EXPECT_EQ(tx->GetCounters().pausedTime[3], NanoSeconds(200));
    Config::Disconnect(txPath + "PfcPauseRx", MakeBoundCallback(&RecordPfc, &log));
    rx->SetXoff(6, true);
    Simulator::Stop(MicroSeconds(2));
    Simulator::Run();
    // Priority 6's XOFF and refreshes (every 300 ns) are traced at rx, nothing more at tx.
    auto atTx = std::count_if(log.begin(), log.end(), [&](const std::string& e) {
        return e.compare(0, txPath.size(), txPath) == 0;
    });
    EXPECT_EQ(atTx, 2);
    EXPECT_EQ(log.size(), 4u + 7u);              // XOFF at t, refreshes at t + 0.3 .. t + 1.8 us
    EXPECT_EQ(tx->GetCounters().pauseRx[6], 4u); // the XOFF and refreshes that arrived by t + 2 us
    EXPECT_TRUE(tx->IsPaused(6));
}

/// The map alone: default DSCP >> 3, single entries, the text form read and written.
TEST(PfcPriorityMap, DefaultEntriesAndTextForm)
{
    PfcPriorityMap map;
    for (uint8_t d = 0; d < 64; ++d)
    {
        EXPECT_EQ(map.Get(d), d >> 3) << unsigned(d);
    }
    EXPECT_EQ(map.ToString(), "");
    map.Set(0, 7);
    map.Set(63, 0);
    EXPECT_EQ(map.Get(0), 7);
    EXPECT_EQ(map.Get(1), 0); // neighbours in the same packed word keep theirs
    EXPECT_EQ(map.Get(62), 7);
    EXPECT_EQ(map.Get(63), 0);
    map.Parse("26:5,,10:2");
    EXPECT_EQ(map.Get(26), 5);
    EXPECT_EQ(map.ToString(), "0:7,10:2,26:5,63:0");
    EXPECT_DEATH(map.Parse("26:5,x"), "DscpPriorityMap entry \"x\" is invalid");
}

TEST_F(LinkTest, DscpMapAndPcpTagging)
{
    Build();
    EXPECT_EQ(tx->GetDscpPriority(26), 3);
    EXPECT_EQ(tx->GetDscpPriority(48), 6);
    EXPECT_EQ(tx->Classify(test::MakeIpv4Packet(100, 26), IPV4), 3);
    EXPECT_EQ(tx->Classify(Create<Packet>(100), 0x88b5), 0); // non-IP: DefaultPriority
    tx->SetAttribute("DscpPriorityMap", StringValue("26:5,10:2"));
    EXPECT_EQ(tx->GetDscpPriority(26), 5);
    EXPECT_EQ(tx->GetDscpPriority(10), 2);
    StringValue s;
    tx->GetAttribute("DscpPriorityMap", s);
    EXPECT_EQ(s.Get(), "10:2,26:5");

    // DSCP mode: the receiver classifies with its own map (26 -> 3).
    tx->Send(test::MakeIpv4Packet(100, 26), rx->GetAddress(), IPV4);
    Simulator::Run();
    ASSERT_EQ(rxLog.size(), 1u);
    EXPECT_EQ(rxLog[0].priority, 3);
    EXPECT_EQ(txLog[0].priority, 5);

    // PCP mode: the priority travels in the 802.1Q tag (5), whatever the receiver's map says.
    tx->SetAttribute("Tagging", EnumValue(PfcNetDevice::PCP));
    tx->Send(test::MakeIpv4Packet(100, 26), rx->GetAddress(), IPV4);
    Simulator::Run();
    ASSERT_EQ(rxLog.size(), 2u);
    EXPECT_EQ(rxLog[1].priority, 5);
    EXPECT_EQ(tx->GetCounters().txBytes[5], 2u * (14 + 120 + 4) + 4); // second one tagged
    // In-band telemetry's total over the priorities: both frames left at priority 5.
    EXPECT_EQ(tx->GetTxBytesTotal(), 2u * (14 + 120 + 4) + 4);
}

TEST_F(LinkTest, SmallPacketsArePaddedAndTrimmed)
{
    Build();
    uint32_t got = 0;
    rx->SetPfcReceiveCallback(
        MakeCallback(
            +[](uint32_t* g, Ptr<PfcNetDevice>, Ptr<Packet> p, uint16_t, Mac48Address, uint8_t) {
                *g = p->GetSize();
            })
            .Bind(&got));
    tx->Send(test::MakeIpv4Packet(8, 0), rx->GetAddress(), IPV4); // 28 B IPv4 packet
    Simulator::Run();
    EXPECT_EQ(tx->GetCounters().txBytes[0], 64u); // padded to the minimum frame
    EXPECT_EQ(got, 28u);                          // padding removed using the IPv4 length
}

TEST_F(LinkTest, DropsAreCountedWithReasons)
{
    Build();
    std::vector<PfcDropReason> reasons;
    auto sink =
        MakeCallback(+[](std::vector<PfcDropReason>* v, Ptr<const Packet>, PfcDropReason r) {
            v->push_back(r);
        }).Bind(&reasons);
    tx->TraceConnectWithoutContext("Drop", sink);
    rx->TraceConnectWithoutContext("Drop", sink);

    // Oversize.
    EXPECT_FALSE(tx->Send(test::MakeIpv4Packet(9000, 0), rx->GetAddress(), IPV4));
    // Unknown MAC Control opcode (0x0001 = 802.3x PAUSE is not PFC).
    PfcHeader bad;
    bad.SetOpcode(0x0001);
    bad.SetPauseQuanta(3, 10);
    tx->SendPfcFrame(bad);
    // Unicast to someone else.
    tx->Send(test::MakeIpv4Packet(100, 0), Mac48Address("02:00:00:00:00:99"), IPV4);
    Simulator::Run();
    // Corrupted on receive.
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetAttribute("ErrorRate", DoubleValue(1.0));
    em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
    rx->SetAttribute("ReceiveErrorModel", PointerValue(em));
    tx->Send(test::MakeIpv4Packet(100, 0), rx->GetAddress(), IPV4);
    Simulator::Run();
    em->SetAttribute("ErrorRate", DoubleValue(0.0));
    // Cable cut.
    tx->GetPfcChannel()->SetLinkUp(false);
    tx->Send(test::MakeIpv4Packet(100, 0), rx->GetAddress(), IPV4);
    Simulator::Run();

    std::vector<PfcDropReason> expected = {PfcDropReason::OVERSIZE,
                                           PfcDropReason::UNKNOWN_MAC_CONTROL,
                                           PfcDropReason::WRONG_DESTINATION,
                                           PfcDropReason::RX_ERROR,
                                           PfcDropReason::LINK_DOWN};
    EXPECT_EQ(reasons, expected);
    EXPECT_EQ(tx->GetCounters().drops[size_t(PfcDropReason::OVERSIZE)], 1u);
    EXPECT_EQ(rx->GetCounters().drops[size_t(PfcDropReason::UNKNOWN_MAC_CONTROL)], 1u);
    EXPECT_EQ(rx->GetCounters().pauseRx[3], 0u); // the bad opcode paused nothing
    EXPECT_EQ(rxLog.size(), 0u);
    EXPECT_STREQ(PfcDropReasonName(PfcDropReason::LINK_DOWN), "link down");
}

/// A port owner that records what the port hands it.
class RecordingOwner : public PfcPortOwner
{
  public:
    void ReceiveFrame(uint32_t port,
                      PfcNetDevice* dev,
                      FabricFrame& frame,
                      uint32_t l2Bytes,
                      uint8_t priority) override
    {
        EXPECT_EQ(port, 7u);
        EXPECT_EQ(l2Bytes, 14u);
        // Frames from Send have no head of their own: the port loads it from the packet.
        EXPECT_EQ(frame.GetHeadBytes(),
                  std::min<uint32_t>(frame.GetSize() - PfcNetDevice::FCS_BYTES,
                                     PfcNetDevice::RX_PEEK_BYTES));
        const uint8_t* head = frame.GetHead();
        EXPECT_EQ(head[12] << 8 | head[13], 0x0800); // the head starts at the Ethernet header
        EXPECT_EQ(head[14], 0x45);
        EXPECT_EQ(frame.GetSize(), frame.GetPacket()->GetSize());
        frames.push_back(frame.GetSize());
        priorities.push_back(priority);
        kept = std::move(frame);
    }

    void FrameDequeued(uint32_t port, uint8_t priority, uint64_t tag) override
    {
        EXPECT_EQ(port, 7u);
        dequeued.push_back(priority);
        tags.push_back(tag);
    }

    FabricFrame kept; //!< the last frame received
    std::vector<uint64_t> tags;
    std::vector<uint32_t> frames;
    std::vector<uint8_t> priorities;
    std::vector<uint8_t> dequeued;
};

TEST_F(LinkTest, FrameLevelReceiversGetWholeFramesAndTheOwnerTakesPrecedence)
{
    Build();
    std::vector<uint32_t> viaCallback;
    rx->SetFrameReceiveCallback(MakeCallback(+[](std::vector<uint32_t>* v,
                                                 const Ptr<PfcNetDevice>&,
                                                 const Ptr<Packet>& frame,
                                                 uint32_t l2Bytes,
                                                 uint8_t,
                                                 const uint8_t*,
                                                 uint32_t) {
                                    EXPECT_EQ(l2Bytes, 14u);
                                    v->push_back(frame->GetSize());
                                }).Bind(&viaCallback));
    tx->Send(test::MakeIpv4Packet(1000 - 20, 26), rx->GetAddress(), IPV4);
    Simulator::Run();
    // The whole frame (Ethernet header + IPv4 packet + FCS), not the L3 packet; the PFC
    // receive callback is bypassed for IPv4 frames to this port.
    EXPECT_EQ(viaCallback, (std::vector<uint32_t>{14 + 1000 + 4}));
    EXPECT_TRUE(rxLog.empty());
    EXPECT_EQ(txLog.size(), 1u);

    RecordingOwner owner;
    rx->SetPortOwner(&owner, 7);
    tx->SetPortOwner(&owner, 7);
    tx->Send(test::MakeIpv4Packet(500 - 20, 0), rx->GetAddress(), IPV4);
    tx->Send(test::MakeIpv4Packet(20, 0), rx->GetAddress(), IPV4); // padded to 64 bytes
    Simulator::Run();
    EXPECT_EQ(owner.frames, (std::vector<uint32_t>{14 + 500 + 4, 64}));
    EXPECT_EQ(owner.dequeued.size(), 2u) << "the owner replaces the dequeue callback";
    EXPECT_EQ(txLog.size(), 1u);
    EXPECT_EQ(viaCallback.size(), 1u) << "the owner replaces the frame receive callback";
    // A forwarded frame gives its owner's tag back at dequeue; frames from Send give 0.
    EXPECT_EQ(owner.tags, (std::vector<uint64_t>{0, 0}));
    uint8_t noL3 = 0;
    ASSERT_TRUE(rx->ForwardFrame(owner.kept,
                                 14,
                                 Mac48Address::ConvertFrom(tx->GetAddress()),
                                 0,
                                 &noL3,
                                 0,
                                 0xABCDull));
    Simulator::Run();
    EXPECT_EQ(owner.tags, (std::vector<uint64_t>{0, 0, 0xABCDull}));
    EXPECT_EQ(owner.frames.size(), 3u);
    rx->SetPortOwner(nullptr, 0);
    tx->SetPortOwner(nullptr, 0);
    tx->Send(test::MakeIpv4Packet(300 - 20, 0), rx->GetAddress(), IPV4);
    Simulator::Run();
    EXPECT_EQ(viaCallback.size(), 2u);
    EXPECT_EQ(txLog.size(), 2u);
}

TEST_F(LinkTest, QueueFullIsADropNotACrash)
{
    helper.SetQueueMaxSize(QueueSize("2p"));
    Build();
    int accepted = 0;
    for (int i = 0; i < 5; ++i)
    {
        accepted += tx->Send(test::MakeIpv4Packet(1000, 26), rx->GetAddress(), IPV4);
    }
    EXPECT_EQ(accepted, 3); // one serializing, two queued
    EXPECT_EQ(tx->GetCounters().drops[size_t(PfcDropReason::QUEUE_FULL)], 2u);
    Simulator::Run();
    EXPECT_EQ(rxLog.size(), 3u);
}

TEST_F(LinkTest, TxQueueTracesAndByteLimit)
{
    // 3 frames of 1000 B payload (1018 B with framing) fit a 3054 B limit; the 4th does not.
    helper.SetQueueMaxSize(QueueSize("3054B"));
    Build();
    std::vector<std::pair<char, uint8_t>> events;
    tx->TraceConnectWithoutContext(
        "TxEnqueue",
        MakeCallback(+[](std::vector<std::pair<char, uint8_t>>* e, Ptr<const Packet> f, uint8_t p) {
            EXPECT_EQ(f->GetSize(), 1018u);
            e->push_back({'+', p});
        }).Bind(&events));
    tx->TraceConnectWithoutContext(
        "TxDequeue",
        MakeCallback(+[](std::vector<std::pair<char, uint8_t>>* e, Ptr<const Packet>, uint8_t p) {
            e->push_back({'-', p});
        }).Bind(&events));
    int accepted = 0;
    for (int i = 0; i < 5; ++i)
    {
        accepted += tx->Send(test::MakeIpv4Packet(1000 - 20, 26), rx->GetAddress(), IPV4);
        EXPECT_LE(tx->GetTxQueue(3).GetNBytes(), 3054u);
    }
    // The first frame starts serializing at once, three wait, the fifth is refused.
    EXPECT_EQ(accepted, 4);
    EXPECT_EQ(tx->GetTxQueue(3).GetNPackets(), 3u);
    EXPECT_EQ(tx->GetCounters().drops[size_t(PfcDropReason::QUEUE_FULL)], 1u);
    AsciiTraceHelper ascii;
    Ptr<OutputStreamWrapper> stream = ascii.CreateFileStream("pfc-tx-queue-test.tr");
    helper.EnableAscii(stream, tx);
    Simulator::Run();
    stream->GetStream()->flush();
    std::ifstream in("pfc-tx-queue-test.tr");
    std::string line;
    int enq = 0;
    int deq = 0;
    while (std::getline(in, line))
    {
        enq += line.rfind("+ ", 0) == 0 && line.find("TxEnqueue priority 3") != std::string::npos;
        deq += line.rfind("- ", 0) == 0 && line.find("TxDequeue priority 3") != std::string::npos;
    }
    EXPECT_EQ(enq, 0); // all four were queued before the trace was enabled
    EXPECT_EQ(deq, 3); // the first was already serializing
    ASSERT_EQ(events.size(), 8u);
    EXPECT_EQ(std::count(events.begin(), events.end(), std::make_pair('+', uint8_t(3))), 4);
    EXPECT_EQ(std::count(events.begin(), events.end(), std::make_pair('-', uint8_t(3))), 4);
    EXPECT_TRUE(tx->GetTxQueue(3).IsEmpty());
    EXPECT_EQ(rxLog.size(), 4u);
}

using PfcBadInputDeathTest = LinkTest;

TEST_F(PfcBadInputDeathTest, InvalidAttributesFailEarlyNamingTheValue)
{
    Build();
    EXPECT_DEATH(tx->SetAttribute("DataRate", DataRateValue(DataRate(0))),
                 "DataRate 0bps is invalid");
    EXPECT_DEATH(tx->SetAttribute("DscpPriorityMap", StringValue("64:3")), "\"64:3\" is invalid");
    EXPECT_DEATH(tx->SetAttribute("DscpPriorityMap", StringValue("26:9")), "\"26:9\" is invalid");
    EXPECT_DEATH(tx->SetAttribute("DscpPriorityMap", StringValue("26")), "\"26\" is invalid");
    EXPECT_DEATH(tx->SetDscpPriority(64, 1), "DSCP 64 is invalid");
    EXPECT_DEATH(tx->SetDscpPriority(1, 8), "priority 8 is invalid");
    EXPECT_DEATH(tx->SetAttribute("Mtu", UintegerValue(10000)), "Mtu 10000 is invalid");
    EXPECT_DEATH(tx->GetPfcChannel()->SetAttribute("Delay", TimeValue(NanoSeconds(-1))), "Delay -");
    EXPECT_DEATH(tx->SendWithPriority(Create<Packet>(100), rx->GetAddress(), IPV4, 9),
                 "priority 9 is invalid");
    tx->SetAttribute("PfcEnableMask", UintegerValue(0x08));
    EXPECT_DEATH(tx->SetXoff(2, true), "PFC is not enabled for it");
}

} // namespace

namespace
{

/// The bytes of a packet, all of them.
std::vector<uint8_t>
Bytes(const Ptr<const Packet>& p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/// \p n bytes counting up from \p first.
std::vector<uint8_t>
Counting(uint32_t n, uint8_t first)
{
    std::vector<uint8_t> b(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        b[i] = static_cast<uint8_t>(first + i);
    }
    return b;
}

} // namespace

// A frame is its head followed by the packet's bytes after the stale ones, whatever is rewritten
// in the head and however often the head is written into the packet.
TEST(FabricFrame, HeadThenPacketIsTheFrameThroughRewritesAndSyncs)
{
    std::vector<uint8_t> head = Counting(60, 1);
    Ptr<Packet> body = Create<Packet>(100); // zeros
    FabricFrame f(body, head.data(), head.size());
    EXPECT_EQ(f.GetSize(), 160u);
    EXPECT_EQ(f.GetStaleBytes(), 0u);
    EXPECT_EQ(body->GetSize(), 100u) << "building a frame does not touch the packet";

    // (Not a copy of head resized: GCC 12 then warns of a bogus out-of-bounds memmove at -O3.)
    std::vector<uint8_t> expect(160, 0);
    std::copy(head.begin(), head.end(), expect.begin());
    std::vector<uint8_t> got(200, 0xee);
    EXPECT_EQ(f.CopyData(got.data(), 200), 160u);
    got.resize(160);
    EXPECT_EQ(got, expect);

    // A longer L2 header (14 -> 18 bytes) replaces the first 14 bytes, in the head only.
    std::vector<uint8_t> l2 = Counting(18, 0xa0);
    ASSERT_TRUE(f.ReplaceHead(14, l2.data(), 18));
    EXPECT_EQ(f.GetSize(), 164u);
    EXPECT_EQ(f.GetHeadBytes(), 64u);
    EXPECT_EQ(body->GetSize(), 100u);
    expect.erase(expect.begin(), expect.begin() + 14);
    expect.insert(expect.begin(), l2.begin(), l2.end());
    EXPECT_EQ(Bytes(f.GetPacket()), expect);
    EXPECT_EQ(f.GetStaleBytes(), 64u);
    EXPECT_EQ(Bytes(f.GetPacket()), expect) << "a second GetPacket changes nothing";

    // Rewrite again after the sync: the stale bytes are replaced, not kept.
    std::vector<uint8_t> l2b = Counting(14, 0x30);
    ASSERT_TRUE(f.ReplaceHead(18, l2b.data(), 14));
    expect.erase(expect.begin(), expect.begin() + 18);
    expect.insert(expect.begin(), l2b.begin(), l2b.end());
    got.assign(160, 0);
    EXPECT_EQ(f.CopyData(got.data(), 160), 160u); // head, then packet after its stale bytes
    EXPECT_EQ(got, expect);
    EXPECT_EQ(Bytes(f.GetPacket()), expect);
    EXPECT_EQ(f.GetSize(), 160u);
}

// A frame wrapping a whole packet loads its head from it without changing it; a head too
// small or too big for a replacement is refused and left as it was.
TEST(FabricFrame, LoadedHeadMirrorsThePacketAndBadReplacementsAreRefused)
{
    std::vector<uint8_t> bytes = Counting(200, 7);
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    FabricFrame f(p);
    EXPECT_EQ(f.GetHeadBytes(), 0u);
    f.LoadHead(30);
    EXPECT_EQ(f.GetHeadBytes(), 30u);
    EXPECT_EQ(std::vector<uint8_t>(f.GetHead(), f.GetHead() + 30),
              std::vector<uint8_t>(bytes.begin(), bytes.begin() + 30));
    f.LoadHead(500); // capped at the head's capacity
    EXPECT_EQ(f.GetHeadBytes(), FabricFrame::HEAD_CAPACITY);
    EXPECT_EQ(Bytes(f.GetPacket()), bytes) << "loading the head leaves the packet as it was";

    std::vector<uint8_t> big = Counting(20, 0);
    EXPECT_FALSE(f.ReplaceHead(FabricFrame::HEAD_CAPACITY + 1, big.data(), 4))
        << "more bytes than the head holds";
    EXPECT_FALSE(f.ReplaceHead(4, big.data(), 8)) << "the head would exceed its capacity";
    EXPECT_EQ(f.GetSize(), 200u);
    EXPECT_EQ(Bytes(f.GetPacket()), bytes);
    // Reads beyond what the head and one copy of stale bytes cover go through the packet.
    ASSERT_TRUE(f.ReplaceHead(4, big.data(), 4));
    std::vector<uint8_t> expect = bytes;
    std::copy(big.begin(), big.begin() + 4, expect.begin());
    std::vector<uint8_t> got(200);
    EXPECT_EQ(f.CopyData(got.data(), 200), 200u);
    EXPECT_EQ(got, expect);
}

// Moving a frame passes its packet reference on: the count is not touched, and the frame moved
// from is empty.
TEST(FabricFrame, MovesKeepOneReference)
{
    Ptr<Packet> p = Create<Packet>(64);
    {
        FabricFrame a(p);
        EXPECT_EQ(p->GetReferenceCount(), 2u);
        FabricFrame b(std::move(a));
        EXPECT_TRUE(a.IsEmpty());
        EXPECT_FALSE(b.IsEmpty());
        EXPECT_EQ(p->GetReferenceCount(), 2u);
        FabricFrame c;
        c = std::move(b);
        EXPECT_TRUE(b.IsEmpty());
        EXPECT_EQ(p->GetReferenceCount(), 2u);
        EXPECT_EQ(c.PeekPacket(), PeekPointer(p));
        c = FabricFrame(Create<Packet>(10)); // the old packet is released
        EXPECT_EQ(p->GetReferenceCount(), 1u);
    }
    EXPECT_EQ(p->GetReferenceCount(), 1u);
}

// A frame without a packet, or with a head beyond its capacity, is refused with a message.
TEST(FabricFrameDeathTest, BadConstructionAbortsWithAMessage)
{
    uint8_t head[FabricFrame::HEAD_CAPACITY + 1] = {};
    EXPECT_DEATH(FabricFrame(Ptr<Packet>()), "null frame packet");
    EXPECT_DEATH(FabricFrame(Ptr<Packet>(), head, 10), "null body packet");
    EXPECT_DEATH(FabricFrame(Create<Packet>(10), head, FabricFrame::HEAD_CAPACITY + 1),
                 "a head of 113 bytes; at most 112");
}
