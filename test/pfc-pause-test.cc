/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The PFC pause controllers on their own, without a port: PfcPauseReceiver (pause time from
 * quanta at a rate, replacement, XON, PFC-disabled priorities, watchdog) and PfcPauseGenerator
 * (XOFF/XON on request, refresh before expiry), and the two of them talking over a delay.
 * Expected times are computed by hand in the comments.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <vector>

using namespace ns3;

namespace
{

/// A PFC body pausing one priority (0 = XON).
PfcHeader
Pfc(uint8_t priority, uint16_t quanta)
{
    PfcHeader h;
    h.SetPauseQuanta(priority, quanta);
    return h;
}

/// Deliver \p pfc to \p rx at \p at.
void
ReceiveAt(PfcPauseReceiver& rx, Time at, PfcHeader pfc)
{
    Simulator::Schedule(at, [&rx, pfc]() { rx.Receive(pfc); });
}

/// Run \p check at \p at.
template <typename F>
void
At(Time at, F check)
{
    Simulator::Schedule(at, check);
}

/// A receiver bound to a paused-set byte like a port's, counting its resume notices.
class PauseReceiverTest : public test::SimTest
{
  protected:
    void SetUp() override
    {
        test::SimTest::SetUp();
        rx.Bind<PauseReceiverTest, &PauseReceiverTest::OnResumed>(&pausedMask, this);
    }

    void TearDown() override
    {
        rx.Dispose();
        test::SimTest::TearDown();
    }

    void OnResumed()
    {
        resumed.push_back(Simulator::Now());
        maskAtResume.push_back(pausedMask);
    }

    PfcPauseReceiver rx;
    uint8_t pausedMask{0};
    std::vector<Time> resumed;
    std::vector<uint8_t> maskAtResume;
};

TEST(PfcPauseQuanta, QuantumIs512BitTimesAtTheRate)
{
    // 512 bits / 400e9 bit/s = 1.28 ns; / 100e9 = 5.12 ns; / 25e9 = 20.48 ns.
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("400Gbps")), PicoSeconds(1280));
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("100Gbps")), PicoSeconds(5120));
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("25Gbps")), PicoSeconds(20480));
    // 65535 x 512 = 33,553,920 bits / 400e9 = 83.8848 us.
    EXPECT_EQ(PfcHeader::QuantaToTime(0xffff, DataRate("400Gbps")), PicoSeconds(83884800));
    // 512 / 3e9 = 170.6667 ns: rounded to the nearest picosecond.
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("3Gbps")), PicoSeconds(170667));
    EXPECT_EQ(PfcHeader::QuantaToTime(0, DataRate("400Gbps")), Time(0));
}

// Before its first PFC frame a receiver holds no per-priority state (it is allocated then), yet
// answers every query as a receiver that has seen nothing; SetEnableMask and Dispose work too.
TEST_F(PauseReceiverTest, BeforeAnyPfcFrameNothingIsPausedOrCounted)
{
    rx.SetEnableMask(0x08);
    At(MicroSeconds(2), [&]() {
        for (uint8_t p = 0; p < PfcPauseReceiver::NUM_PRIORITIES; ++p)
        {
            EXPECT_FALSE(rx.IsPaused(p));
            EXPECT_FALSE(rx.IsInStormRestore(p));
            EXPECT_EQ(rx.GetPausedUntil(p), MicroSeconds(2));
            EXPECT_EQ(rx.GetPauseStart(p), Time(0));
            EXPECT_EQ(rx.GetCounters().pauseRx[p], 0u);
            EXPECT_EQ(rx.GetCounters().pausedTime[p], Time(0));
        }
    });
    Simulator::Run();
    rx.Dispose();
    EXPECT_TRUE(resumed.empty());
}

TEST_F(PauseReceiverTest, PauseLastsQuantaAtTheRateThenResumes)
{
    rx.SetDataRate(DataRate("100Gbps"));
    // 1000 quanta x 512 bits / 100 Gb/s = 5.12 us, from 1 us to 6.12 us.
    const Time start = MicroSeconds(1);
    const Time end = start + NanoSeconds(5120);
    ReceiveAt(rx, start, Pfc(3, 1000));
    At(start, [&]() {
        EXPECT_TRUE(rx.IsPaused(3));
        EXPECT_EQ(pausedMask, 0x08); // the port's byte, not a copy
        EXPECT_EQ(rx.GetPausedUntil(3), end);
        EXPECT_FALSE(rx.IsPaused(2));
        EXPECT_EQ(rx.GetPausedUntil(2), start); // not paused: now
    });
    At(end - PicoSeconds(1), [&]() { EXPECT_TRUE(rx.IsPaused(3)); });
    Simulator::Run();
    ASSERT_EQ(resumed.size(), 1u);
    EXPECT_EQ(resumed[0], end);
    EXPECT_EQ(maskAtResume[0], 0x00); // the byte was cleared before the port was called
    EXPECT_FALSE(rx.IsPaused(3));
    EXPECT_EQ(rx.GetCounters().pauseRx[3], 1u);
    EXPECT_EQ(rx.GetCounters().pausedTime[3], NanoSeconds(5120));
}

TEST_F(PauseReceiverTest, ANewPauseReplacesTheRemainingTime)
{
    rx.SetDataRate(DataRate("400Gbps"));
    // 0 us: 1000 quanta (1.28 us, to 1.28 us); 1 us: 100 quanta (128 ns) -> ends at 1.128 us,
    // earlier than the first would have; 1.1 us: 1000 quanta again -> ends at 2.38 us.
    ReceiveAt(rx, Time(0), Pfc(5, 1000));
    ReceiveAt(rx, MicroSeconds(1), Pfc(5, 100));
    At(MicroSeconds(1), [&]() { EXPECT_EQ(rx.GetPausedUntil(5), NanoSeconds(1128)); });
    ReceiveAt(rx, NanoSeconds(1100), Pfc(5, 1000));
    Simulator::Run();
    ASSERT_EQ(resumed.size(), 1u); // one continuous pause, one resume
    EXPECT_EQ(resumed[0], NanoSeconds(2380));
    EXPECT_EQ(rx.GetCounters().pauseRx[5], 3u);
    EXPECT_EQ(rx.GetCounters().pausedTime[5], NanoSeconds(2380));
}

TEST_F(PauseReceiverTest, XonCancelsThePauseAtOnce)
{
    // 65535 quanta at 400 Gb/s would last 83.88 us; an XON 1 us later ends it then.
    ReceiveAt(rx, MicroSeconds(1), Pfc(3, 0xffff));
    ReceiveAt(rx, MicroSeconds(2), Pfc(3, 0));
    At(MicroSeconds(2), [&]() {
        EXPECT_FALSE(rx.IsPaused(3));
        EXPECT_EQ(rx.GetPausedUntil(3), MicroSeconds(2));
    });
    Simulator::Run();
    ASSERT_EQ(resumed.size(), 1u); // the expiry was cancelled: no second resume at 84.88 us
    EXPECT_EQ(resumed[0], MicroSeconds(2));
    EXPECT_EQ(rx.GetCounters().xonRx[3], 1u);
    EXPECT_EQ(rx.GetCounters().pauseRx[3], 1u);
    EXPECT_EQ(rx.GetCounters().pausedTime[3], MicroSeconds(1));
    // An XON for a priority that is not paused changes nothing.
    rx.Receive(Pfc(4, 0));
    EXPECT_EQ(resumed.size(), 1u);
    EXPECT_EQ(rx.GetCounters().xonRx[4], 1u);
}

TEST_F(PauseReceiverTest, OneFrameActsOnEveryListedPriorityInOrder)
{
    std::vector<std::pair<uint8_t, uint16_t>> traced;
    rx.GetPauseRxTrace().ConnectWithoutContext(
        MakeCallback(+[](std::vector<std::pair<uint8_t, uint16_t>>* v, uint8_t p, uint16_t q) {
            v->emplace_back(p, q);
        }).Bind(&traced));
    PfcHeader h;
    h.SetPauseQuanta(6, 200);
    h.SetPauseQuanta(1, 100);
    h.SetPauseQuanta(4, 0);
    rx.Receive(h);
    ASSERT_EQ(traced.size(), 3u);
    EXPECT_EQ(traced[0], std::make_pair(uint8_t(1), uint16_t(100)));
    EXPECT_EQ(traced[1], std::make_pair(uint8_t(4), uint16_t(0)));
    EXPECT_EQ(traced[2], std::make_pair(uint8_t(6), uint16_t(200)));
    EXPECT_EQ(pausedMask, 0x42);
    EXPECT_EQ(rx.GetPausedUntil(1), PicoSeconds(100 * 1280));
    EXPECT_EQ(rx.GetPausedUntil(6), PicoSeconds(200 * 1280));
    Simulator::Run();
    EXPECT_EQ(resumed, (std::vector<Time>{PicoSeconds(128000), PicoSeconds(256000)}));
}

TEST_F(PauseReceiverTest, DisabledPrioritiesIgnorePausesAndDisablingResumes)
{
    rx.SetEnableMask(0xf7); // PFC off on priority 3
    PfcHeader h;
    h.SetPauseQuanta(3, 0xffff);
    h.SetPauseQuanta(2, 0xffff);
    rx.Receive(h);
    EXPECT_FALSE(rx.IsPaused(3));
    EXPECT_TRUE(rx.IsPaused(2));
    EXPECT_EQ(rx.GetCounters().pauseIgnored[3], 1u);
    EXPECT_EQ(rx.GetCounters().pauseRx[3], 1u); // received and traced, not acted on
    EXPECT_EQ(rx.GetCounters().pauseIgnored[2], 0u);
    At(MicroSeconds(3), [&]() { rx.SetEnableMask(0xf3); }); // now off on 2 as well
    Simulator::Run();
    ASSERT_EQ(resumed.size(), 1u);
    EXPECT_EQ(resumed[0], MicroSeconds(3)); // at once, not at the 83.9 us expiry
    EXPECT_EQ(rx.GetCounters().pausedTime[2], MicroSeconds(3));
    EXPECT_EQ(rx.GetEnableMask(), 0xf3);
}

TEST_F(PauseReceiverTest, WatchdogDeclaresAStormAtTheFirstPauseAfterItsTimeout)
{
    rx.SetWatchdogTimeout(MicroSeconds(10));
    rx.SetWatchdogRestore(MicroSeconds(20));
    std::vector<Time> storms;
    rx.GetStormTrace().ConnectWithoutContext(MakeCallback(+[](std::vector<Time>* v, uint8_t p) {
                                                 EXPECT_EQ(p, 3);
                                                 v->push_back(Simulator::Now());
                                             }).Bind(&storms));
    // A refreshed pause every 5 us from 0: paused continuously since 0. The pause at 10 us is
    // 10 us >= timeout after the start: storm, resume, and pauses are ignored until
    // 10 + 20 = 30 us (those at 15, 20, 25 us). The one at 30 us starts a new pause.
    for (int t = 0; t <= 30; t += 5)
    {
        ReceiveAt(rx, MicroSeconds(t), Pfc(3, 0xffff));
    }
    At(MicroSeconds(9), [&]() { EXPECT_TRUE(rx.IsPaused(3)); });
    At(MicroSeconds(10), [&]() {
        EXPECT_FALSE(rx.IsPaused(3));
        EXPECT_TRUE(rx.IsInStormRestore(3));
    });
    At(MicroSeconds(30), [&]() {
        EXPECT_TRUE(rx.IsPaused(3));
        EXPECT_FALSE(rx.IsInStormRestore(3));
        rx.Receive(Pfc(3, 0)); // end it
    });
    Simulator::Run();
    EXPECT_EQ(storms, std::vector<Time>{MicroSeconds(10)});
    EXPECT_EQ(rx.GetCounters().stormsDetected[3], 1u);
    EXPECT_EQ(rx.GetCounters().pauseIgnored[3], 3u);
    EXPECT_EQ(resumed, (std::vector<Time>{MicroSeconds(10), MicroSeconds(30)}));
    EXPECT_EQ(rx.GetCounters().pausedTime[3], MicroSeconds(10));
}

TEST_F(PauseReceiverTest, WatchdogZeroNeverDeclaresAStorm)
{
    rx.SetWatchdogTimeout(Time(0));
    for (int t = 0; t <= 1000; t += 50)
    {
        ReceiveAt(rx, MicroSeconds(t), Pfc(3, 0xffff));
    }
    At(MicroSeconds(1001), [&]() { EXPECT_TRUE(rx.IsPaused(3)); });
    Simulator::Stop(MicroSeconds(1002));
    Simulator::Run();
    EXPECT_EQ(rx.GetCounters().stormsDetected[3], 0u);
    EXPECT_TRUE(resumed.empty());
}

TEST_F(PauseReceiverTest, DisposeCancelsTheExpiry)
{
    rx.Receive(Pfc(0, 100));
    rx.Dispose();
    Simulator::Run();
    EXPECT_TRUE(resumed.empty());
    EXPECT_TRUE(rx.IsPaused(0)); // the set is left as it was
}

TEST(PauseReceiverAlone, KeepsItsOwnPausedSetUntilBound)
{
    PfcPauseReceiver rx;
    rx.Receive(Pfc(7, 10));
    EXPECT_EQ(rx.GetPausedMask(), 0x80);
    uint8_t portByte = 0;
    rx.Bind(&portByte);
    EXPECT_EQ(portByte, 0x80); // the state moves with the binding
    Simulator::Run();
    EXPECT_EQ(portByte, 0x00);
    Simulator::Destroy();
}

/// A generator whose frames are recorded (time, priority, quanta).
class PauseGeneratorTest : public test::SimTest
{
  protected:
    struct Sent
    {
        Time t;
        uint8_t priority;
        uint16_t quanta;
    };

    void SetUp() override
    {
        test::SimTest::SetUp();
        gen.Bind<PauseGeneratorTest, &PauseGeneratorTest::OnSend>(this);
    }

    void TearDown() override
    {
        gen.Dispose();
        test::SimTest::TearDown();
    }

    void OnSend(const PfcHeader& h)
    {
        uint32_t listed = 0;
        for (uint8_t p = 0; p < 8; ++p)
        {
            if (h.IsPriorityEnabled(p))
            {
                sent.push_back({Simulator::Now(), p, h.GetPauseQuanta(p)});
                ++listed;
            }
        }
        EXPECT_EQ(listed, 1u); // one priority per frame
    }

    PfcPauseGenerator gen;
    std::vector<Sent> sent;
};

TEST_F(PauseGeneratorTest, XoffIsRefreshedEveryHalfPauseUntilXon)
{
    gen.SetDataRate(DataRate("100Gbps"));
    gen.SetPauseQuanta(1000); // 5.12 us at 100 Gb/s; refreshed every 2.56 us
    EXPECT_EQ(gen.GetEffectiveRefreshInterval(), NanoSeconds(2560));
    At(MicroSeconds(1), [&]() { gen.SetXoff(3, true); });
    At(MicroSeconds(10), [&]() { gen.SetXoff(3, false); });
    Simulator::Run();
    // XOFF at 1, refreshes at 3.56, 6.12, 8.68 us, XON at 10 us; nothing after.
    const std::vector<Time> expected{NanoSeconds(1000),
                                     NanoSeconds(3560),
                                     NanoSeconds(6120),
                                     NanoSeconds(8680),
                                     NanoSeconds(10000)};
    ASSERT_EQ(sent.size(), expected.size());
    for (std::size_t i = 0; i < sent.size(); ++i)
    {
        EXPECT_EQ(sent[i].t, expected[i]) << i;
        EXPECT_EQ(sent[i].priority, 3);
        EXPECT_EQ(sent[i].quanta, i + 1 < sent.size() ? 1000 : 0) << i;
    }
    // Every refresh leaves before the pause it renews expires at the peer.
    for (std::size_t i = 1; i + 1 < sent.size(); ++i)
    {
        EXPECT_LT(sent[i].t, sent[i - 1].t + PfcHeader::QuantaToTime(1000, gen.GetDataRate()));
    }
    EXPECT_FALSE(gen.IsXoff(3));
}

TEST_F(PauseGeneratorTest, ExplicitRefreshIntervalAndIndependentPriorities)
{
    gen.SetRefreshInterval(MicroSeconds(3));
    EXPECT_EQ(gen.GetEffectiveRefreshInterval(), MicroSeconds(3));
    // Priority 1: XOFF at 0, refreshed at 3 and 6 us, XON at 7 us. Priority 6: XOFF at 1 us,
    // refreshed at 4 and 7 us, XON at 7.5 us. At 7 us the XON of 1 goes first: it was
    // requested (scheduled) before the refresh of 6 was.
    gen.SetXoff(1, true);
    At(MicroSeconds(1), [&]() { gen.SetXoff(6, true); });
    At(MicroSeconds(7), [&]() { gen.SetXoff(1, false); });
    At(NanoSeconds(7500), [&]() { gen.SetXoff(6, false); });
    Simulator::Run();
    std::vector<std::pair<int64_t, int>> got; // (ns, priority * 100000 + quanta)
    for (const auto& s : sent)
    {
        got.emplace_back(s.t.GetNanoSeconds(), s.priority * 100000 + s.quanta);
    }
    const std::vector<std::pair<int64_t, int>> expected{{0, 165535},
                                                        {1000, 665535},
                                                        {3000, 165535},
                                                        {4000, 665535},
                                                        {6000, 165535},
                                                        {7000, 100000},
                                                        {7000, 665535},
                                                        {7500, 600000}};
    EXPECT_EQ(got, expected);
    EXPECT_EQ(gen.GetXoffMask(), 0);
}

TEST_F(PauseGeneratorTest, RepeatingTheCurrentStateSendsNothing)
{
    gen.SetXoff(2, false); // already XON
    EXPECT_TRUE(sent.empty());
    gen.SetXoff(2, true);
    gen.SetXoff(2, true);
    EXPECT_EQ(sent.size(), 1u);
    EXPECT_TRUE(gen.IsXoff(2));
    EXPECT_EQ(gen.GetXoffMask(), 0x04);
    gen.SetXoff(2, false);
    gen.SetXoff(2, false);
    EXPECT_EQ(sent.size(), 2u);
    Simulator::Run(); // the refresh was cancelled by the XON
    EXPECT_EQ(sent.size(), 2u);
}

TEST_F(PauseGeneratorTest, DisposeCancelsTheRefresh)
{
    gen.SetXoff(0, true);
    gen.Dispose();
    Simulator::Run();
    EXPECT_EQ(sent.size(), 1u);
    EXPECT_TRUE(gen.IsXoff(0)); // the state is left as it was
}

using PauseGeneratorDeathTest = PauseGeneratorTest;

TEST_F(PauseGeneratorDeathTest, BadRequestsAbortNamingTheValue)
{
    gen.SetEnableMask(0x08);
    EXPECT_DEATH(gen.SetXoff(2, true), "priority 2 but PFC is not enabled for it");
    EXPECT_DEATH(gen.SetXoff(8, true), "priority 8 is invalid");
    EXPECT_DEATH(gen.SetPauseQuanta(0), "PauseQuanta 0 is invalid");
    EXPECT_DEATH(gen.SetRefreshInterval(NanoSeconds(-1)), "PauseRefreshInterval -");
    EXPECT_DEATH(gen.SetDataRate(DataRate(0)), "DataRate 0bps is invalid");
}

using PauseReceiverDeathTest = PauseReceiverTest;

TEST_F(PauseReceiverDeathTest, BadSettingsAbortNamingTheValue)
{
    EXPECT_DEATH(rx.SetWatchdogTimeout(NanoSeconds(-1)), "PfcWatchdogTimeout -");
    EXPECT_DEATH(rx.SetWatchdogRestore(NanoSeconds(-1)), "PfcWatchdogRestore -");
    EXPECT_DEATH(rx.SetDataRate(DataRate(0)), "DataRate 0bps is invalid");
    EXPECT_DEATH(rx.Bind(nullptr), "null paused mask");
}

/// One direction of a cable: PFC bodies reach a receiver 1 us after they are sent.
struct PfcCable
{
    PfcPauseReceiver* peer; //!< the far end

    /// Send. \param pfc the body
    void Send(const PfcHeader& pfc)
    {
        PfcPauseReceiver* to = peer;
        Simulator::Schedule(MicroSeconds(1), [to, pfc]() { to->Receive(pfc); });
    }
};

/// A generator and a receiver joined by a 1 us cable: the refresh keeps the peer paused.
TEST_F(PauseReceiverTest, RefreshedXoffKeepsThePeerPausedWithoutAGap)
{
    PfcPauseGenerator gen;
    gen.SetPauseQuanta(1000); // 1.28 us at 400 Gb/s, refreshed every 0.64 us
    PfcCable cable{&rx};
    gen.Bind<PfcCable, &PfcCable::Send>(&cable);
    At(MicroSeconds(2), [&]() { gen.SetXoff(3, true); });     // arrives at 3 us
    At(NanoSeconds(50300), [&]() { gen.SetXoff(3, false); }); // arrives at 51.3 us
    Simulator::Run();
    gen.Dispose();
    // 48.3 us of pause made of 1.28 us pauses, yet one resume, by the XON.
    EXPECT_EQ(resumed, std::vector<Time>{NanoSeconds(51300)});
    EXPECT_EQ(rx.GetCounters().pausedTime[3], NanoSeconds(48300));
    // XOFF at 2 us, refreshes at 2 + k x 0.64 us up to 50 us (k = 75): 76 pauses.
    EXPECT_EQ(rx.GetCounters().pauseRx[3], 76u);
    EXPECT_EQ(rx.GetCounters().xonRx[3], 1u);
}

} // namespace
