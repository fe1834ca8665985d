/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The PSN bookkeeping of a UET PDC against hand-worked sequences: cumulative ACK and SACK
 * bitmap at the receiver, acknowledgement, inferred loss and retransmission at the sender,
 * ACK coalescing, 32-bit wrap.
 */
#include "ns3/uet-pdc-id-pool.h"
#include "ns3/uet-pdc-table.h"
#include "ns3/uet-psn-window.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

TEST(UetReceiveWindow, InOrderAdvancesTheCumulativeAck)
{
    UetReceiveWindow w(100, 128);
    EXPECT_EQ(w.GetCackPsn(), 99u); // Start_PSN - 1 before any packet
    for (uint32_t psn = 100; psn < 104; ++psn)
    {
        EXPECT_EQ(w.Receive(psn), UetReceiveWindow::NEW);
    }
    EXPECT_EQ(w.GetCackPsn(), 103u);
    EXPECT_FALSE(w.HasHole());
    EXPECT_EQ(w.GetSackBitmap(), 0u);
}

TEST(UetReceiveWindow, HolesAreReportedInTheSackBitmapAndFilled)
{
    UetReceiveWindow w(100, 128);
    EXPECT_EQ(w.Receive(101), UetReceiveWindow::NEW);
    EXPECT_EQ(w.Receive(103), UetReceiveWindow::NEW);
    // CACK 99; base 100: 101 is bit 1, 103 bit 3.
    EXPECT_EQ(w.GetCackPsn(), 99u);
    EXPECT_EQ(w.GetSackBase(), 100u);
    EXPECT_EQ(w.GetSackBitmap(), 0b1010u);
    EXPECT_EQ(w.GetOutOfOrderCount(), 2u);
    EXPECT_EQ(w.Receive(101), UetReceiveWindow::DUPLICATE);
    EXPECT_EQ(w.Receive(100), UetReceiveWindow::NEW); // fills: CACK jumps over 101
    EXPECT_EQ(w.GetCackPsn(), 101u);
    EXPECT_EQ(w.GetSackBase(), 102u);
    EXPECT_EQ(w.GetSackBitmap(), 0b10u); // 103
    EXPECT_EQ(w.Receive(102), UetReceiveWindow::NEW);
    EXPECT_EQ(w.GetCackPsn(), 103u);
    EXPECT_EQ(w.GetSackBitmap(), 0u);
    EXPECT_FALSE(w.HasHole());
    EXPECT_EQ(w.Receive(99), UetReceiveWindow::DUPLICATE);
}

TEST(UetReceiveWindow, BeyondMpRangeIsOutOfWindowAndPsnsWrap)
{
    UetReceiveWindow w(100, 8);
    EXPECT_EQ(w.Receive(108), UetReceiveWindow::OUT_OF_WINDOW); // CACK 99 + 8 = 107 is last
    EXPECT_EQ(w.Receive(107), UetReceiveWindow::NEW);
    EXPECT_EQ(w.GetSackBitmap(), uint64_t(1) << 7);

    UetReceiveWindow wrap(0xfffffffeu, 4);
    for (uint32_t psn : {0xfffffffeu, 0xffffffffu, 0u, 1u})
    {
        EXPECT_EQ(wrap.Receive(psn), UetReceiveWindow::NEW) << psn;
    }
    EXPECT_EQ(wrap.GetCackPsn(), 1u);
    // The ring is reused many times over: 1000 windows of in-order and reversed pairs.
    UetReceiveWindow ring(0, 4);
    for (uint32_t psn = 0; psn < 2000; psn += 2)
    {
        ASSERT_EQ(ring.Receive(psn + 1), UetReceiveWindow::NEW);
        ASSERT_EQ(ring.Receive(psn), UetReceiveWindow::NEW);
        ASSERT_EQ(ring.GetCackPsn(), psn + 1);
    }
}

TEST(UetAckCoalescer, AcksEvery16KiBCountingSmallPacketsAs1KiB)
{
    UetAckCoalescer c(16384, 1024);
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_FALSE(c.OnPacket(4096, false));
    }
    EXPECT_TRUE(c.OnPacket(4096, false)); // 16384
    for (int i = 0; i < 15; ++i)
    {
        EXPECT_FALSE(c.OnPacket(64, false)); // each counts 1024
    }
    EXPECT_TRUE(c.OnPacket(64, false));
    EXPECT_TRUE(c.OnPacket(64, true)); // AR, RETX, SYN, CE, a hole: at once
    EXPECT_FALSE(c.OnPacket(4096, false));
}

TEST(UetSendWindow, CumulativeAndSelectiveAcksThenInferredLossAndRetransmission)
{
    UetSendWindow w(100, 4);
    for (uint64_t i = 0; i < 4; ++i)
    {
        ASSERT_TRUE(w.CanSend());
        EXPECT_EQ(w.SendNew(i, MicroSeconds(i)), 100 + i);
    }
    EXPECT_FALSE(w.CanSend()); // MP_RANGE 4
    // The receiver got 100, 101 and 103: CACK 101, SACK base 102, bit 1 = 103.
    std::vector<std::pair<uint32_t, UetSendWindow::Record>> acked;
    EXPECT_EQ(w.OnAck(101, 102, 0b10, &acked), 3u);
    ASSERT_EQ(acked.size(), 3u);
    EXPECT_EQ(acked[0].first, 100u);
    EXPECT_EQ(acked[1].first, 101u);
    EXPECT_EQ(acked[2].first, 103u);
    EXPECT_EQ(acked[2].second.cookie, 3u);
    EXPECT_EQ(w.GetUnackedPsn(), 102u);
    EXPECT_EQ(w.GetOutstanding(), 2u);
    EXPECT_TRUE(w.CanSend());
    // 102 is not SACKed while one later PSN is: lost with threshold 1, not with 2; with an age
    // condition (UetNic::InferLossAge) only if it was sent before the given time (at 2 us).
    EXPECT_EQ(w.InferLosses(2), 0u);
    EXPECT_EQ(w.InferLosses(1, MicroSeconds(2)), 0u);
    EXPECT_EQ(w.InferLosses(1, NanoSeconds(2001)), 1u);
    uint32_t lost = 0;
    ASSERT_TRUE(w.NextLost(&lost));
    EXPECT_EQ(lost, 102u);
    EXPECT_EQ(w.Retransmit(102, MicroSeconds(10)).retx, 1u);
    EXPECT_FALSE(w.NextLost(&lost));
    uint32_t oldest = 0;
    ASSERT_TRUE(w.OldestInFlight(&oldest));
    EXPECT_EQ(oldest, 102u);
    // A duplicate of the old ACK changes nothing; the ACK for 102 acknowledges only it.
    acked.clear();
    EXPECT_EQ(w.OnAck(101, 102, 0b10, &acked), 0u);
    EXPECT_EQ(w.OnAck(103, 0, 0, &acked), 1u);
    ASSERT_EQ(acked.size(), 1u);
    EXPECT_EQ(acked[0].first, 102u);
    EXPECT_EQ(acked[0].second.retx, 1u);
    EXPECT_EQ(w.GetOutstanding(), 0u);
    EXPECT_FALSE(w.OldestInFlight(&oldest));
}

TEST(UetSendWindow, NackMarksOnePsnAndTheOldestInFlightDrivesTheRto)
{
    UetSendWindow w(0xfffffffeu, 8); // across the 32-bit wrap
    for (uint64_t i = 0; i < 4; ++i)
    {
        w.SendNew(i, MicroSeconds(10 * i));
    }
    EXPECT_TRUE(w.MarkLost(0xffffffffu));
    EXPECT_FALSE(w.MarkLost(0xffffffffu)); // already
    EXPECT_FALSE(w.MarkLost(5));           // not sent
    uint32_t psn = 0;
    ASSERT_TRUE(w.OldestInFlight(&psn));
    EXPECT_EQ(psn, 0xfffffffeu);
    w.Retransmit(0xffffffffu, MicroSeconds(100));
    ASSERT_TRUE(w.OldestInFlight(&psn));
    EXPECT_EQ(psn, 0xfffffffeu);
    EXPECT_EQ(w.OnAck(0xfffffffeu, 0, 0, nullptr), 1u);
    ASSERT_TRUE(w.OldestInFlight(&psn));
    EXPECT_EQ(psn, 0u); // sent at 20 us; 0xffffffff was resent at 100 us
    EXPECT_EQ(w.OnAck(1, 0, 0, nullptr), 3u);
    EXPECT_EQ(w.GetNextPsn(), 2u);
}

TEST(UetPsnWindowDeathTest, BadRangesAndPsnsAreRefusedNamingThem)
{
    EXPECT_DEATH(UetSendWindow(0, 0), "MP_RANGE 0 is invalid; valid range 1..1048576 PSNs");
    EXPECT_DEATH(UetReceiveWindow(0, 2000000), "MP_RANGE 2000000 is invalid");
    UetSendWindow w(10, 1);
    w.SendNew(0, Seconds(0));
    EXPECT_DEATH(w.SendNew(1, Seconds(0)), "PSN 11 is beyond the window");
    EXPECT_DEATH(w.Get(12), "PSN 12 is not outstanding \\(10..10\\)");
    EXPECT_DEATH(UetAckCoalescer(0, 1024), "ACK_Gen_Trigger 0 is invalid");
}

} // namespace

namespace
{

TEST(UetPdcIdPool, FiniteGeneralAndReservedPoolsReuseOldestFirst)
{
    UetPdcIdPool pool(3, 1);
    EXPECT_EQ(pool.Allocate(), 1u);
    EXPECT_EQ(pool.Allocate(), 2u);
    EXPECT_EQ(pool.Allocate(), 3u);
    EXPECT_EQ(pool.Allocate(), 0u); // exhausted: NO_PDC_AVAIL
    EXPECT_EQ(pool.Allocate(true), 4u);
    EXPECT_EQ(pool.Allocate(true), 0u);
    EXPECT_EQ(pool.GetNAllocated(), 4u);
    pool.Release(2);
    pool.Release(1);
    EXPECT_FALSE(pool.IsAllocated(2));
    EXPECT_EQ(pool.Allocate(), 2u); // the oldest released first
    EXPECT_EQ(pool.Allocate(), 1u);
    pool.Release(4);
    EXPECT_EQ(pool.Allocate(true), 4u);
}

TEST(UetPdcIdPoolDeathTest, BadSizesAndReleasesAreRefusedNamingThem)
{
    EXPECT_DEATH(UetPdcIdPool(0, 0), "0 general \\+ 0 reserved PDCIDs is invalid");
    EXPECT_DEATH(UetPdcIdPool(65535, 1), "65535 general \\+ 1 reserved PDCIDs is invalid");
    UetPdcIdPool pool(2, 0);
    EXPECT_DEATH(pool.Release(0), "PDCID 0 is not allocated \\(valid ids 1..2\\)");
    EXPECT_DEATH(pool.Release(1), "PDCID 1 is not allocated");
}

/// The table's own work, without PDCs (those need a NIC: uet-nic-test): its pool, lookups that
/// find nothing, keys, and Start_PSNs kept at least 2^16 apart (also across the 2^32 wrap).
TEST(UetPdcTable, PoolLookupsKeysAndStartPsnSpacing)
{
    UetPdcTable t;
    EXPECT_FALSE(t.IsInitialized());
    t.Init(nullptr, 0, 2, 1);
    EXPECT_TRUE(t.IsInitialized());
    EXPECT_EQ(t.Allocate(false), 1u);
    EXPECT_EQ(t.Allocate(false), 2u);
    EXPECT_EQ(t.Allocate(false), 0u); // general PDCIDs exhausted
    EXPECT_EQ(t.Allocate(true), 3u);  // a SYN asking for a reserved one
    EXPECT_EQ(t.Allocate(true), 0u);
    EXPECT_EQ(t.Get(1), nullptr); // allocated, never opened
    EXPECT_EQ(t.Get(60000), nullptr);
    EXPECT_EQ(t.Lookup(0, 0x0a000001), nullptr);
    EXPECT_EQ(t.Lookup(1, 0x0a000001), nullptr);
    EXPECT_EQ(t.FindInitiator(UetDeliveryMode::RUD, 5, 0x0a000002), nullptr);
    EXPECT_EQ(t.FindTarget(0x0a000002, 7), nullptr);
    EXPECT_NE(UetPdcTable::InitiatorKey(UetDeliveryMode::RUD, 5, 0x0a000002),
              UetPdcTable::InitiatorKey(UetDeliveryMode::ROD, 5, 0x0a000002));
    EXPECT_NE(UetPdcTable::TargetKey(0x0a000002, 7), UetPdcTable::TargetKey(0x0a000002, 8));

    EXPECT_EQ(t.NextStartPsn(1000), 1000u);                      // the first is taken as drawn
    EXPECT_EQ(t.NextStartPsn(1000 + 65535), 1000u + (1u << 17)); // too close: 2^17 on
    EXPECT_EQ(t.NextStartPsn(5), 5u);                            // 132067 away: as drawn
    EXPECT_EQ(t.NextStartPsn(0xFFFFFFF0u), 5u + (1u << 17));     // 21 before it, across the wrap
}

} // namespace

/// Bytes in flight (what NSCC's window bounds): sent and neither acknowledged nor marked lost;
/// a retransmission puts the bytes back, whatever acknowledges them first takes them off once.
TEST(UetSendWindow, BytesInFlightFollowSendsAcksLossesAndRetransmissions)
{
    UetSendWindow w(0, 8);
    for (uint32_t i = 0; i < 4; ++i)
    {
        w.SendNew(i, MicroSeconds(i), 1000 + i); // 1000, 1001, 1002, 1003 B
    }
    EXPECT_EQ(w.GetInflightBytes(), 4006u);
    std::vector<std::pair<uint32_t, UetSendWindow::Record>> acked;
    EXPECT_EQ(w.OnAck(UINT32_MAX, 2, 0b1, &acked), 1u); // SACK of PSN 2
    EXPECT_EQ(w.GetInflightBytes(), 3004u);
    EXPECT_TRUE(w.MarkLost(1));
    EXPECT_EQ(w.GetInflightBytes(), 2003u);
    EXPECT_FALSE(w.MarkLost(1)); // already lost: not taken off twice
    EXPECT_EQ(w.GetInflightBytes(), 2003u);
    EXPECT_EQ(w.InferLosses(1), 1u); // PSN 0: not SACKed, one later PSN is
    EXPECT_EQ(w.GetInflightBytes(), 1003u);
    w.Retransmit(1, MicroSeconds(10));
    EXPECT_EQ(w.GetInflightBytes(), 2004u);
    // A cumulative ACK of everything: PSN 0 (still marked lost) adds nothing back, PSN 2 was
    // SACKed already.
    acked.clear();
    EXPECT_EQ(w.OnAck(3, 0, 0, &acked), 3u);
    EXPECT_EQ(w.GetInflightBytes(), 0u);
    EXPECT_EQ(w.GetOutstanding(), 0u);
}
