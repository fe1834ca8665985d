/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The UET entropy-value (EV) selectors against hand-worked sequences: the oblivious rounds, the
 * bitmap's penalties and skips, REPS's recycling, capacity and freeze, mixed's fallback, their
 * attribute checks, Fork(), and a "one bad path" spraying scenario at the unit level.
 */
#include "test-util.h"

#include "ns3/uet-ev-selector.h"
#include "ns3/uet-mixed-ev-selector.h"
#include "ns3/uet-oblivious-ev-selector.h"
#include "ns3/uet-reps-ev-selector.h"
#include "ns3/uet-single-ev-selector.h"

#include <algorithm>
#include <deque>
#include <gtest/gtest.h>
#include <set>
#include <vector>

namespace ns3
{
namespace test
{
namespace
{

using UetEvSelectorTest = SimTest;
using UetEvSelectorDeathTest = SimTest;

/// A random stream numbered \p stream under RngSeedManager seed \p seed.
Ptr<UniformRandomVariable>
MakeRng(uint32_t seed, int64_t stream = 0)
{
    RngSeedManager::SetSeed(seed);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    return rng;
}

/// A selector of type T with \p evs EVs, Init()ed on a stream of seed \p seed.
template <typename T>
Ptr<T>
Make(uint32_t evs, uint32_t seed = 1)
{
    Ptr<T> s = CreateObject<T>();
    s->SetAttribute("Evs", UintegerValue(evs));
    s->Init(MakeRng(seed));
    return s;
}

/// \p n picks of \p s.
std::vector<uint16_t>
Picks(Ptr<UetEvSelector> s, uint32_t n)
{
    std::vector<uint16_t> v;
    v.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        v.push_back(s->NextEv());
    }
    return v;
}

// ------------------------------------------------------------------------- attributes, names

TEST_F(UetEvSelectorDeathTest, EvsOutOfRangeAbortsNamingTheValueAndRange)
{
    const char* zero = "ns3::UetEvSelector::Evs=0 is out of range: valid range 1\\.\\.65536";
    const char* big = "ns3::UetEvSelector::Evs=65537 is out of range: valid range 1\\.\\.65536";
    EXPECT_DEATH(Config::SetDefault("ns3::UetEvSelector::Evs", UintegerValue(0)), zero);
    EXPECT_DEATH(Config::SetDefault("ns3::UetEvSelector::Evs", StringValue("65537")), big);
    EXPECT_DEATH(CreateObject<UetObliviousEvSelector>()->SetAttribute("Evs", UintegerValue(0)),
                 zero);
    EXPECT_DEATH(CreateObject<UetRepsEvSelector>()->SetAttribute("Evs", UintegerValue(65537)), big);
    ObjectFactory f("ns3::UetBitmapEvSelector");
    EXPECT_DEATH(f.Set("Evs", UintegerValue(65537)), big);
}

TEST_F(UetEvSelectorTest, EvsAtTheEndsOfTheRangeWork)
{
    for (uint32_t evs : {1u, 65536u})
    {
        Ptr<UetObliviousEvSelector> s = Make<UetObliviousEvSelector>(evs);
        EXPECT_EQ(s->GetEvs(), evs);
        std::set<uint16_t> seen;
        for (uint16_t ev : Picks(s, evs))
        {
            seen.insert(ev);
        }
        EXPECT_EQ(seen.size(), evs);
    }
    EXPECT_EQ(CreateObject<UetRepsEvSelector>()->GetEvs(), 128u); // the default
}

TEST_F(UetEvSelectorDeathTest, StrategyAttributesOutOfRangeAbort)
{
    EXPECT_DEATH(Config::SetDefault("ns3::UetBitmapEvSelector::MaxPenalty", UintegerValue(0)),
                 "ns3::UetBitmapEvSelector::MaxPenalty=0 is out of range: valid range "
                 "1\\.\\.255");
    EXPECT_DEATH(Config::SetDefault("ns3::UetBitmapEvSelector::EcnPenalty", UintegerValue(256)),
                 "ns3::UetBitmapEvSelector::EcnPenalty=256 is out of range: valid range "
                 "0\\.\\.255");
    EXPECT_DEATH(Config::SetDefault("ns3::UetRepsEvSelector::BufferSize", UintegerValue(9)),
                 "ns3::UetRepsEvSelector::BufferSize=9 is out of range: valid range 1\\.\\.8");
    EXPECT_DEATH(Config::SetDefault("ns3::UetMixedEvSelector::BufferSize", UintegerValue(0)),
                 "ns3::UetMixedEvSelector::BufferSize=0 is out of range: valid range 1\\.\\.8");
    EXPECT_DEATH(Config::SetDefault("ns3::UetRepsEvSelector::FreezeDuration", StringValue("0s")),
                 "ns3::UetRepsEvSelector::FreezeDuration=0s is out of range: valid range "
                 ">= 1ns");
    EXPECT_DEATH(
        Config::SetDefault("ns3::UetRepsEvSelector::ExploreAfterFreeze", UintegerValue(256)),
        "ns3::UetRepsEvSelector::ExploreAfterFreeze=256 is out of range: valid range "
        "0\\.\\.255");
}

TEST_F(UetEvSelectorDeathTest, MisuseAborts)
{
    EXPECT_DEATH(CreateObject<UetRepsEvSelector>()->Init(nullptr),
                 "UetEvSelector \\(reps\\): Init given a null random stream");
    EXPECT_DEATH(CreateObject<UetBitmapEvSelector>()->NextEv(),
                 "UetEvSelector \\(bitmap\\): NextEv before Init");
    EXPECT_DEATH(CreateObject<UetSingleEvSelector>()->OnFeedback(0, UetEvFeedback::NACK),
                 "UetEvSelector \\(single\\): OnFeedback before Init");
    EXPECT_DEATH(UetEvSelector::CreateByName("ecmp"),
                 "EV selector \"ecmp\" is unknown: valid names are single, oblivious, bitmap, "
                 "reps, mixed");
    // A fork has no random stream until it is Init()ed.
    Ptr<UetEvSelector> proto = Make<UetObliviousEvSelector>(8);
    EXPECT_DEATH(proto->Fork()->NextEv(), "NextEv before Init");
}

TEST_F(UetEvSelectorTest, NamesAndCreateByName)
{
    for (std::string name : {"single", "oblivious", "bitmap", "reps", "mixed"})
    {
        Ptr<UetEvSelector> s = UetEvSelector::CreateByName(name);
        EXPECT_EQ(s->GetName(), name);
        EXPECT_EQ(s->Fork()->GetName(), name);
    }
    EXPECT_EQ(UetEvSelector::CreateByName("reps")->GetInstanceTypeId().GetName(),
              "ns3::UetRepsEvSelector");
    EXPECT_STREQ(UetEvFeedbackName(UetEvFeedback::ACK_CLEAN), "ACK_CLEAN");
    EXPECT_STREQ(UetEvFeedbackName(UetEvFeedback::ACK_ECN), "ACK_ECN");
    EXPECT_STREQ(UetEvFeedbackName(UetEvFeedback::NACK), "NACK");
    EXPECT_STREQ(UetEvFeedbackName(UetEvFeedback::TIMEOUT), "TIMEOUT");
    EXPECT_STREQ(UetEvFeedbackName(static_cast<UetEvFeedback>(7)), "unknown");
}

// ------------------------------------------------------------------------------------ single

TEST_F(UetEvSelectorTest, SingleAlwaysUsesEvZeroAndDrawsNothing)
{
    Ptr<UniformRandomVariable> rng = MakeRng(1);
    Ptr<UniformRandomVariable> twin = MakeRng(1);
    Ptr<UetSingleEvSelector> s = CreateObject<UetSingleEvSelector>();
    s->Init(rng);
    for (uint32_t i = 0; i < 100; ++i)
    {
        EXPECT_EQ(s->NextEv(), 0u);
        s->OnFeedback(0, UetEvFeedback::TIMEOUT);
    }
    EXPECT_EQ(s->GetCounters().picks, 100u);
    EXPECT_EQ(s->GetCounters().feedback[3], 100u);
    // The NIC's stream was not touched: it continues like an untouched twin.
    EXPECT_EQ(rng->GetInteger(0, 1000000), twin->GetInteger(0, 1000000));
}

// --------------------------------------------------------------------------------- oblivious

TEST_F(UetEvSelectorTest, ObliviousUsesEveryEvExactlyOncePerRound)
{
    for (uint32_t n : {1u, 2u, 7u, 100u, 128u})
    {
        Ptr<UetObliviousEvSelector> s = Make<UetObliviousEvSelector>(n, 3);
        for (uint32_t round = 0; round < 20; ++round)
        {
            std::vector<uint32_t> uses(n, 0);
            for (uint16_t ev : Picks(s, n))
            {
                ASSERT_LT(ev, n);
                ++uses[ev];
            }
            for (uint32_t ev = 0; ev < n; ++ev)
            {
                EXPECT_EQ(uses[ev], 1u) << "N " << n << " round " << round << " EV " << ev;
            }
        }
    }
}

TEST_F(UetEvSelectorTest, ObliviousOrderDependsOnTheSeedOnlyAndChangesEveryRound)
{
    for (uint32_t n : {2u, 7u, 128u})
    {
        const uint32_t picks = 64 * n;
        std::vector<uint16_t> a = Picks(Make<UetObliviousEvSelector>(n, 1), picks);
        std::vector<uint16_t> b = Picks(Make<UetObliviousEvSelector>(n, 2), picks);
        std::vector<uint16_t> a2 = Picks(Make<UetObliviousEvSelector>(n, 1), picks);
        EXPECT_EQ(a, a2) << "N " << n;
        EXPECT_NE(a, b) << "N " << n;
        // Per-round randomisation: the rounds are not all the first one's order.
        std::vector<uint16_t> first(a.begin(), a.begin() + n);
        uint32_t sameAsFirst = 0;
        for (uint32_t r = 1; r < 64; ++r)
        {
            sameAsFirst += std::equal(first.begin(), first.end(), a.begin() + r * n);
        }
        EXPECT_LT(sameAsFirst, 63u) << "N " << n;
    }
    // The order of a power of two is i XOR key: consecutive pairs {2j, 2j+1} stay together.
    std::vector<uint16_t> p = Picks(Make<UetObliviousEvSelector>(128, 5), 128);
    for (uint32_t i = 0; i < 128; i += 2)
    {
        EXPECT_EQ(p[i] ^ p[i + 1], 1) << i;
    }
    // Any other N: (i + offset) mod N, consecutive EVs.
    std::vector<uint16_t> q = Picks(Make<UetObliviousEvSelector>(7, 5), 7);
    for (uint32_t i = 0; i + 1 < 7; ++i)
    {
        EXPECT_EQ((q[i] + 1) % 7, q[i + 1]) << i;
    }
}

TEST_F(UetEvSelectorTest, ObliviousIgnoresFeedback)
{
    Ptr<UetObliviousEvSelector> s = Make<UetObliviousEvSelector>(16, 4);
    Ptr<UetObliviousEvSelector> twin = Make<UetObliviousEvSelector>(16, 4);
    for (uint32_t i = 0; i < 200; ++i)
    {
        uint16_t ev = s->NextEv();
        EXPECT_EQ(ev, twin->NextEv());
        s->OnFeedback(ev, i % 2 ? UetEvFeedback::TIMEOUT : UetEvFeedback::NACK);
    }
    EXPECT_EQ(s->GetCounters().feedback[2] + s->GetCounters().feedback[3], 200u);
}

// ------------------------------------------------------------------------------------ bitmap

TEST_F(UetEvSelectorTest, BitmapWithoutPenaltiesIsTheObliviousWalk)
{
    EXPECT_EQ(Picks(Make<UetBitmapEvSelector>(128, 6), 1000),
              Picks(Make<UetObliviousEvSelector>(128, 6), 1000));
    EXPECT_EQ(Picks(Make<UetBitmapEvSelector>(7, 6), 100),
              Picks(Make<UetObliviousEvSelector>(7, 6), 100));
}

/**
 * The picks a bitmap selector must make: the oblivious walk \p walk (the same stream gives the
 * bitmap the same walk) without the first skip[ev] visits of each EV.
 */
std::vector<uint16_t>
WalkMinusSkips(const std::vector<uint16_t>& walk, std::vector<uint32_t> skip)
{
    std::vector<uint16_t> picks;
    for (uint16_t ev : walk)
    {
        if (skip[ev] > 0)
        {
            --skip[ev];
        }
        else
        {
            picks.push_back(ev);
        }
    }
    return picks;
}

// Feedback on EV 1 sets its penalty (ECN +1, NACK +4, TIMEOUT +15, at most 15); the walk then
// skips EV 1 on exactly its next `penalty` visits and uses it on the one after.
TEST_F(UetEvSelectorTest, BitmapSkipsAPenalisedEvOnItsNextPenaltyVisits)
{
    struct Case
    {
        std::vector<UetEvFeedback> feedback; //!< given to EV 1 after Init
        uint32_t penalty;                    //!< expected penalty = visits skipped
    };

    const UetEvFeedback ecn = UetEvFeedback::ACK_ECN;
    const UetEvFeedback nack = UetEvFeedback::NACK;
    const UetEvFeedback timeout = UetEvFeedback::TIMEOUT;
    for (uint32_t n : {2u, 3u, 8u})
    {
        for (const Case& c : std::vector<Case>{
                 {{ecn}, 1},
                 {{ecn, ecn}, 2},
                 {{nack}, 4},
                 {{nack, ecn}, 5},
                 {{timeout}, 15},
                 {{nack, nack, nack, nack, nack}, 15}, // 20 saturates at MaxPenalty 15
                 {{timeout, ecn}, 15},
                 {{UetEvFeedback::ACK_CLEAN}, 0},
             })
        {
            std::vector<uint16_t> walk = Picks(Make<UetObliviousEvSelector>(n, 7), 40 * n);
            Ptr<UetBitmapEvSelector> s = Make<UetBitmapEvSelector>(n, 7);
            for (UetEvFeedback f : c.feedback)
            {
                s->OnFeedback(1, f);
            }
            ASSERT_EQ(s->GetPenalty(1), c.penalty);
            std::vector<uint32_t> skip(n, 0);
            skip[1] = c.penalty;
            std::vector<uint16_t> expected = WalkMinusSkips(walk, skip);
            std::vector<uint16_t> got = Picks(s, expected.size());
            EXPECT_EQ(got, expected) << "N " << n << " penalty " << c.penalty;
            EXPECT_EQ(s->GetPenalty(1), 0u);
            EXPECT_EQ(s->GetCounters().skipped, c.penalty);
            EXPECT_EQ(s->GetCounters().forced, 0u);
            // EV 1 is visited once per round: its first use comes after at least
            // (penalty - 1) whole rounds of the other n - 1 EVs.
            auto firstUse = std::find(got.begin(), got.end(), 1) - got.begin();
            EXPECT_GE(firstUse, (c.penalty > 0 ? c.penalty - 1 : 0) * (n - 1));
        }
    }
}

TEST_F(UetEvSelectorTest, BitmapPenaltiesFollowTheAttributes)
{
    Ptr<UetBitmapEvSelector> s = CreateObject<UetBitmapEvSelector>();
    s->SetAttribute("Evs", UintegerValue(4));
    s->SetAttribute("EcnPenalty", UintegerValue(2));
    s->SetAttribute("NackPenalty", UintegerValue(3));
    s->SetAttribute("TimeoutPenalty", UintegerValue(6));
    s->SetAttribute("MaxPenalty", UintegerValue(7));
    s->Init(MakeRng(1));
    s->OnFeedback(0, UetEvFeedback::ACK_ECN);
    s->OnFeedback(1, UetEvFeedback::NACK);
    s->OnFeedback(2, UetEvFeedback::TIMEOUT);
    s->OnFeedback(3, UetEvFeedback::TIMEOUT);
    s->OnFeedback(3, UetEvFeedback::TIMEOUT);
    EXPECT_EQ(s->GetPenalty(0), 2);
    EXPECT_EQ(s->GetPenalty(1), 3);
    EXPECT_EQ(s->GetPenalty(2), 6);
    EXPECT_EQ(s->GetPenalty(3), 7); // 12 saturates at 7
}

// Eight EVs against the oblivious walk of the same stream: the picks are the walk without the
// visits that a penalty skips (each visit to a penalised EV costs it 1).
TEST_F(UetEvSelectorTest, BitmapPicksAreTheWalkMinusTheSkippedVisits)
{
    const uint32_t n = 8;
    std::vector<uint16_t> walk = Picks(Make<UetObliviousEvSelector>(n, 9), 400);
    Ptr<UetBitmapEvSelector> s = Make<UetBitmapEvSelector>(n, 9);
    EXPECT_EQ(s->NextEv(), walk[0]);
    EXPECT_EQ(s->NextEv(), walk[1]);
    s->OnFeedback(5, UetEvFeedback::NACK);    // 4 visits skipped
    s->OnFeedback(2, UetEvFeedback::ACK_ECN); // 1
    s->OnFeedback(7, UetEvFeedback::TIMEOUT); // 15
    s->OnFeedback(3, UetEvFeedback::ACK_CLEAN);
    std::vector<uint32_t> skip(n, 0);
    skip[5] = 4;
    skip[2] = 1;
    skip[7] = 15;
    std::vector<uint16_t> expected =
        WalkMinusSkips(std::vector<uint16_t>(walk.begin() + 2, walk.end()), skip);
    uint32_t skipped = walk.size() - 2 - expected.size();
    ASSERT_EQ(skipped, 20u);
    std::vector<uint16_t> got = Picks(s, expected.size());
    EXPECT_EQ(got, expected);
    EXPECT_EQ(s->GetCounters().skipped, 20u);
    for (uint32_t ev = 0; ev < n; ++ev)
    {
        EXPECT_EQ(s->GetPenalty(ev), 0u) << ev;
    }
    // EV 7 is first used on its 16th visit since the TIMEOUT: 14 whole rounds lie between its
    // 1st and 16th visits, each with 7 other EVs, of which 5 visits were skipped (5 and 2).
    auto firstUse7 = std::find(got.begin(), got.end(), 7) - got.begin();
    EXPECT_GE(firstUse7, 14 * 7 - 5);
}

TEST_F(UetEvSelectorTest, BitmapWithEveryEvPenalisedStillSprays)
{
    Ptr<UetBitmapEvSelector> s = Make<UetBitmapEvSelector>(2, 1);
    s->OnFeedback(0, UetEvFeedback::TIMEOUT);
    s->OnFeedback(1, UetEvFeedback::TIMEOUT);
    // A pick skips at most 2 x 2 - 1 = 3 EVs (every EV at least once), each costing 1, then
    // takes the next EV of the walk as it is.
    uint16_t ev = s->NextEv();
    EXPECT_LT(ev, 2u);
    EXPECT_EQ(s->GetCounters().skipped, 3u);
    EXPECT_EQ(s->GetCounters().forced, 1u);
    EXPECT_EQ(s->GetPenalty(0) + s->GetPenalty(1), 30 - 3);
    EXPECT_LE(s->GetPenalty(0), 14);
    EXPECT_LE(s->GetPenalty(1), 14);
    // With one EV clean, the other penalised, nothing is forced.
    Ptr<UetBitmapEvSelector> t = Make<UetBitmapEvSelector>(2, 1);
    t->OnFeedback(1, UetEvFeedback::TIMEOUT);
    for (uint32_t i = 0; i < 20; ++i)
    {
        t->NextEv();
    }
    EXPECT_EQ(t->GetCounters().forced, 0u);
}

TEST_F(UetEvSelectorTest, BitmapIgnoresOutOfRangeFeedback)
{
    Ptr<UetBitmapEvSelector> s = Make<UetBitmapEvSelector>(8, 2);
    s->OnFeedback(8, UetEvFeedback::TIMEOUT);
    s->OnFeedback(65535, UetEvFeedback::NACK);
    s->OnFeedback(3, static_cast<UetEvFeedback>(9));
    EXPECT_EQ(s->GetCounters().ignored, 3u);
    for (uint32_t ev = 0; ev < 8; ++ev)
    {
        EXPECT_EQ(s->GetPenalty(ev), 0u);
    }
    EXPECT_EQ(Picks(s, 100), Picks(Make<UetObliviousEvSelector>(8, 2), 100));
    EXPECT_EQ(s->GetCounters().skipped, 0u);
}

// -------------------------------------------------------------------------------------- REPS

TEST_F(UetEvSelectorTest, RepsRecyclesCleanAcksInFifoOrderAndNotMarkedOnes)
{
    Ptr<UetRepsEvSelector> s = Make<UetRepsEvSelector>(128);
    s->OnFeedback(10, UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(20, UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(30, UetEvFeedback::ACK_ECN);
    s->OnFeedback(40, UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(50, UetEvFeedback::NACK);
    s->OnFeedback(60, UetEvFeedback::TIMEOUT);    // freezes (tested below); no recycling
    s->OnFeedback(200, UetEvFeedback::ACK_CLEAN); // out of range: ignored
    EXPECT_EQ(s->GetBuffer().GetFreshCount(), 3u);
    Ptr<UetRepsEvSelector> r = Make<UetRepsEvSelector>(128);
    r->OnFeedback(10, UetEvFeedback::ACK_CLEAN);
    r->OnFeedback(20, UetEvFeedback::ACK_CLEAN);
    r->OnFeedback(30, UetEvFeedback::ACK_ECN);
    r->OnFeedback(40, UetEvFeedback::ACK_CLEAN);
    r->OnFeedback(50, UetEvFeedback::NACK);
    EXPECT_EQ(r->NextEv(), 10u);
    EXPECT_EQ(r->NextEv(), 20u);
    r->OnFeedback(70, UetEvFeedback::ACK_CLEAN); // behind 40
    EXPECT_EQ(r->NextEv(), 40u);
    EXPECT_EQ(r->NextEv(), 70u);
    EXPECT_EQ(r->GetCounters().recycled, 4u);
    EXPECT_EQ(r->GetCounters().explored, 0u);
    EXPECT_FALSE(r->GetBuffer().HasFresh());
    uint16_t ev = r->NextEv(); // nothing recycled: explore
    EXPECT_LT(ev, 128u);
    EXPECT_EQ(r->GetCounters().explored, 1u);
}

TEST_F(UetEvSelectorTest, RepsBufferKeepsTheLastBufferSizeCleanEvs)
{
    for (uint32_t size : {1u, 4u, 8u})
    {
        Ptr<UetRepsEvSelector> s = CreateObject<UetRepsEvSelector>();
        s->SetAttribute("BufferSize", UintegerValue(size));
        s->Init(MakeRng(1));
        for (uint16_t ev = 1; ev <= 10; ++ev)
        {
            s->OnFeedback(ev, UetEvFeedback::ACK_CLEAN);
        }
        EXPECT_EQ(s->GetBuffer().GetCount(), size);
        EXPECT_EQ(s->GetBuffer().GetFreshCount(), size);
        for (uint32_t i = 0; i < size; ++i)
        {
            EXPECT_EQ(s->NextEv(), 10 - size + 1 + i) << "size " << size;
        }
        s->NextEv();
        EXPECT_EQ(s->GetCounters().recycled, size);
        EXPECT_EQ(s->GetCounters().explored, 1u);
    }
}

TEST_F(UetEvSelectorTest, RepsExploresUniformlyWhenNothingIsRecycled)
{
    Ptr<UetRepsEvSelector> s = Make<UetRepsEvSelector>(16, 3);
    std::vector<uint32_t> uses(16, 0);
    for (uint16_t ev : Picks(s, 16000))
    {
        ASSERT_LT(ev, 16u);
        ++uses[ev];
    }
    for (uint32_t ev = 0; ev < 16; ++ev)
    {
        EXPECT_NEAR(uses[ev], 1000, 150) << ev; // ~5 standard deviations
    }
    EXPECT_EQ(s->GetCounters().explored, 16000u);
    EXPECT_EQ(Picks(Make<UetRepsEvSelector>(16, 3), 50), Picks(Make<UetRepsEvSelector>(16, 3), 50));
}

TEST_F(UetEvSelectorTest, RepsFreezesOnTimeoutToItsKnownGoodEvs)
{
    Ptr<UetRepsEvSelector> s = Make<UetRepsEvSelector>(128);
    const std::vector<uint16_t> good{11, 22, 33, 44, 55, 66, 77, 88};
    for (uint16_t ev : good)
    {
        s->OnFeedback(ev, UetEvFeedback::ACK_CLEAN);
    }
    EXPECT_EQ(s->NextEv(), 11u); // normal recycling consumes 11
    s->OnFeedback(99, UetEvFeedback::TIMEOUT);
    ASSERT_TRUE(s->IsFrozen());
    EXPECT_EQ(s->GetCounters().freezes, 1u);
    // While frozen: the stored known-good EVs round robin, consumed or not; nothing explored.
    for (uint32_t i = 0; i < 100; ++i)
    {
        EXPECT_EQ(s->NextEv(), good[i % 8]) << i;
        s->OnFeedback(good[i % 8], UetEvFeedback::NACK); // changes nothing
    }
    s->OnFeedback(5, UetEvFeedback::TIMEOUT); // already frozen: no second freeze
    EXPECT_EQ(s->GetCounters().freezes, 1u);
    EXPECT_EQ(s->GetCounters().explored, 0u);
    EXPECT_TRUE(s->IsFrozen());
    // Just before the end (10 ms) still frozen.
    Simulator::Stop(MilliSeconds(10) - NanoSeconds(1));
    Simulator::Run();
    s->NextEv();
    EXPECT_TRUE(s->IsFrozen());
    EXPECT_EQ(s->GetCounters().explored, 0u);
    // At the end: the buffer is emptied and the next 16 picks explore, even with clean ACKs.
    Simulator::Stop(NanoSeconds(1));
    Simulator::Run();
    s->NextEv();
    EXPECT_FALSE(s->IsFrozen());
    EXPECT_EQ(s->GetCounters().explored, 1u);
    EXPECT_EQ(s->GetBuffer().GetCount(), 0u);
    s->OnFeedback(42, UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(43, UetEvFeedback::TIMEOUT); // during the exploration: no freeze
    EXPECT_FALSE(s->IsFrozen());
    Picks(s, 15);
    EXPECT_EQ(s->GetCounters().explored, 16u);
    EXPECT_EQ(s->NextEv(), 42u);               // recycling again
    s->OnFeedback(44, UetEvFeedback::TIMEOUT); // and freezing again
    EXPECT_TRUE(s->IsFrozen());
    EXPECT_EQ(s->GetCounters().freezes, 2u);
}

TEST_F(UetEvSelectorTest, RepsFeedbackAlsoEndsTheFreezeAndCleanAcksStillArriveFrozen)
{
    Ptr<UetRepsEvSelector> s = CreateObject<UetRepsEvSelector>();
    s->SetAttribute("FreezeDuration", TimeValue(MicroSeconds(50)));
    s->SetAttribute("ExploreAfterFreeze", UintegerValue(0));
    s->Init(MakeRng(1));
    s->OnFeedback(1, UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(2, UetEvFeedback::TIMEOUT);
    ASSERT_TRUE(s->IsFrozen());
    s->OnFeedback(3, UetEvFeedback::ACK_CLEAN); // known good now too
    EXPECT_EQ(Picks(s, 4), (std::vector<uint16_t>{1, 3, 1, 3}));
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    s->OnFeedback(4, UetEvFeedback::ACK_CLEAN); // ends the freeze, then recycled
    EXPECT_FALSE(s->IsFrozen());
    EXPECT_EQ(s->NextEv(), 4u);
    EXPECT_EQ(s->GetCounters().explored, 0u);
}

TEST_F(UetEvSelectorTest, RepsFreezeRuleFollowsTheAttributes)
{
    // A NACK does not freeze by default (htsim), a TIMEOUT does.
    Ptr<UetRepsEvSelector> s = Make<UetRepsEvSelector>(128);
    s->OnFeedback(1, UetEvFeedback::NACK);
    s->OnFeedback(1, UetEvFeedback::ACK_ECN);
    EXPECT_FALSE(s->IsFrozen());
    // FreezeOnNack: a NACK does.
    Ptr<UetRepsEvSelector> n = CreateObject<UetRepsEvSelector>();
    n->SetAttribute("FreezeOnNack", BooleanValue(true));
    n->Init(MakeRng(1));
    n->OnFeedback(1, UetEvFeedback::NACK);
    EXPECT_TRUE(n->IsFrozen());
    // Freezing off: nothing does.
    Ptr<UetRepsEvSelector> o = CreateObject<UetRepsEvSelector>();
    o->SetAttribute("Freezing", BooleanValue(false));
    o->Init(MakeRng(1));
    o->OnFeedback(1, UetEvFeedback::TIMEOUT);
    EXPECT_FALSE(o->IsFrozen());
    EXPECT_EQ(o->GetCounters().freezes, 0u);
    // Frozen with nothing known to be good: it can only explore.
    Ptr<UetRepsEvSelector> e = Make<UetRepsEvSelector>(128);
    e->OnFeedback(1, UetEvFeedback::TIMEOUT);
    ASSERT_TRUE(e->IsFrozen());
    e->NextEv();
    EXPECT_EQ(e->GetCounters().explored, 1u);
}

TEST_F(UetEvSelectorTest, RepsStateIsSmall)
{
    // The paper: < 25 B per connection. The buffer (8 x 16-bit EVs, head, count, fresh bits,
    // cursor) and the exploration count and frozen flag fit; the freeze's end time is 8 more.
    EXPECT_LE(sizeof(UetEvRecycleBuffer) + sizeof(uint8_t) + sizeof(bool), 25u);
    EXPECT_LE(sizeof(UetRepsEvSelector::State), 32u);
    EXPECT_LE(sizeof(UetEvWalk), 8u);
    EXPECT_LE(sizeof(UetEvSelectorCounters), 88u);
}

// ------------------------------------------------------------------------------------- mixed

TEST_F(UetEvSelectorTest, MixedRecyclesElseFallsBackToBitmap)
{
    const uint32_t n = 16;
    std::vector<uint16_t> walk = Picks(Make<UetObliviousEvSelector>(n, 8), 200);
    Ptr<UetMixedEvSelector> s = Make<UetMixedEvSelector>(n, 8);
    // Nothing recycled: the bitmap, i.e. the walk.
    EXPECT_EQ(s->NextEv(), walk[0]);
    EXPECT_EQ(s->NextEv(), walk[1]);
    // A clean ACK is recycled first, then the walk resumes where it was.
    s->OnFeedback(walk[0], UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(walk[1], UetEvFeedback::ACK_ECN); // penalised, not recycled
    EXPECT_EQ(s->GetPenalty(walk[1]), 1);
    EXPECT_EQ(s->NextEv(), walk[0]);
    EXPECT_EQ(s->GetCounters().recycled, 1u);
    // The bitmap skips walk[1] once (its next visit) and otherwise follows the walk.
    std::vector<uint16_t> expected;
    bool skipped = false;
    for (uint32_t i = 2; i < walk.size(); ++i)
    {
        if (walk[i] == walk[1] && !skipped)
        {
            skipped = true;
            continue;
        }
        expected.push_back(walk[i]);
    }
    EXPECT_EQ(Picks(s, expected.size()), expected);
    EXPECT_EQ(s->GetCounters().skipped, 1u);
    EXPECT_EQ(s->GetName(), "mixed");
}

TEST_F(UetEvSelectorTest, MixedBufferSizeAndBitmapAttributesApply)
{
    Ptr<UetMixedEvSelector> s = CreateObject<UetMixedEvSelector>();
    s->SetAttribute("BufferSize", UintegerValue(2));
    s->SetAttribute("NackPenalty", UintegerValue(9));
    s->SetAttribute("Evs", UintegerValue(32));
    s->Init(MakeRng(1));
    s->OnFeedback(5, UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(6, UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(7, UetEvFeedback::ACK_CLEAN);
    s->OnFeedback(8, UetEvFeedback::NACK);
    EXPECT_EQ(s->GetPenalty(8), 9);
    EXPECT_EQ(s->GetBuffer().GetCount(), 2u);
    EXPECT_EQ(s->NextEv(), 6u);
    EXPECT_EQ(s->NextEv(), 7u);
    EXPECT_EQ(s->GetCounters().recycled, 2u);
}

// -------------------------------------------------------------------------------------- Fork

TEST_F(UetEvSelectorTest, ForkCopiesTheAttributesAndStartsFresh)
{
    Ptr<UetBitmapEvSelector> b = CreateObject<UetBitmapEvSelector>();
    b->SetAttribute("Evs", UintegerValue(16));
    b->SetAttribute("NackPenalty", UintegerValue(2));
    b->Init(MakeRng(1));
    b->OnFeedback(3, UetEvFeedback::NACK);
    Picks(b, 5);
    Ptr<UetEvSelector> f = b->Fork();
    EXPECT_EQ(f->GetEvs(), 16u);
    UintegerValue v;
    f->GetAttribute("NackPenalty", v);
    EXPECT_EQ(v.Get(), 2u);
    EXPECT_EQ(f->GetCounters().picks, 0u);
    f->Init(MakeRng(4));
    EXPECT_EQ(DynamicCast<UetBitmapEvSelector>(f)->GetPenalty(3), 0u);
    EXPECT_EQ(Picks(f, 40), Picks(Make<UetObliviousEvSelector>(16, 4), 40));
    // The prototype is unchanged by its fork.
    EXPECT_EQ(b->GetCounters().picks, 5u);

    Ptr<UetRepsEvSelector> r = CreateObject<UetRepsEvSelector>();
    r->SetAttribute("BufferSize", UintegerValue(4));
    r->Init(MakeRng(1));
    r->OnFeedback(9, UetEvFeedback::ACK_CLEAN);
    r->OnFeedback(9, UetEvFeedback::TIMEOUT);
    ASSERT_TRUE(r->IsFrozen());
    Ptr<UetRepsEvSelector> rf = DynamicCast<UetRepsEvSelector>(r->Fork());
    ASSERT_NE(rf, nullptr);
    rf->Init(MakeRng(1));
    EXPECT_FALSE(rf->IsFrozen());
    EXPECT_EQ(rf->GetBuffer().GetCount(), 0u);
    EXPECT_EQ(rf->GetBuffer().GetCapacity(), 4u);

    Ptr<UetMixedEvSelector> m = CreateObject<UetMixedEvSelector>();
    m->SetAttribute("BufferSize", UintegerValue(3));
    Ptr<UetEvSelector> mf = m->Fork();
    EXPECT_EQ(mf->GetName(), "mixed");
    mf->GetAttribute("BufferSize", v);
    EXPECT_EQ(v.Get(), 3u);

    // Init restarts a used selector from a fresh state.
    Ptr<UetObliviousEvSelector> o = Make<UetObliviousEvSelector>(8, 2);
    Picks(o, 3);
    o->Init(MakeRng(2));
    EXPECT_EQ(o->GetCounters().picks, 0u);
    EXPECT_EQ(Picks(o, 24), Picks(Make<UetObliviousEvSelector>(8, 2), 24));
}

// ---------------------------------------------------------------- scenario: one bad path of 8

/**
 * A PDC with `inflight` packets outstanding: each new packet's EV comes from the selector, and
 * the feedback for the oldest outstanding packet arrives just before it. The 16 EVs with
 * ev % 8 == 3 (one path in 8, e.g. behind a failing or overloaded link) are bad: their packets
 * are NACKed (trimmed) and ECN-marked in turn; the other EVs' ACKs are clean.
 * \return the share of the picks after `warmup` that went to a bad EV
 */
double
BadPathShare(Ptr<UetEvSelector> s, uint32_t picks, uint32_t warmup, uint32_t inflight)
{
    std::deque<uint16_t> outstanding;
    std::vector<uint8_t> toggle(s->GetEvs(), 0);
    uint64_t bad = 0;
    for (uint32_t i = 0; i < picks; ++i)
    {
        if (outstanding.size() == inflight)
        {
            uint16_t ev = outstanding.front();
            outstanding.pop_front();
            if (ev % 8 == 3)
            {
                s->OnFeedback(ev, toggle[ev]++ % 2 ? UetEvFeedback::ACK_ECN : UetEvFeedback::NACK);
            }
            else
            {
                s->OnFeedback(ev, UetEvFeedback::ACK_CLEAN);
            }
        }
        uint16_t ev = s->NextEv();
        outstanding.push_back(ev);
        if (i >= warmup && ev % 8 == 3)
        {
            ++bad;
        }
    }
    return double(bad) / (picks - warmup);
}

TEST_F(UetEvSelectorTest, OneBadPathScenario)
{
    // 128 EVs as in htsim's validations, 43 packets in flight (htsim's 1 BDP of 4150-B
    // packets at 100 Gb/s), 100 rounds of 128 picks after 10 rounds of warm-up.
    const uint32_t warmup = 10 * 128;
    const uint32_t picks = warmup + 100 * 128;
    const uint32_t inflight = 43;
    double oblivious = BadPathShare(Make<UetObliviousEvSelector>(128), picks, warmup, inflight);
    double bitmap = BadPathShare(Make<UetBitmapEvSelector>(128), picks, warmup, inflight);
    double reps = BadPathShare(Make<UetRepsEvSelector>(128), picks, warmup, inflight);
    double mixed = BadPathShare(Make<UetMixedEvSelector>(128), picks, warmup, inflight);
    std::cout << "bad-path share: oblivious " << oblivious << ", bitmap " << bitmap << ", reps "
              << reps << ", mixed " << mixed << std::endl;
    // Oblivious ignores feedback: every round uses each of the 16 bad EVs once, exactly 1/8.
    EXPECT_DOUBLE_EQ(oblivious, 1.0 / 8);
    // Bitmap: a bad EV alternately gets +4 (NACK) and +1 (ECN), so it is used once every 3.5
    // visits: 16 / 3.5 bad picks per 112 + 16 / 3.5, 3.9 %; a visit that comes before the
    // previous use's feedback (43 picks later) adds a little. 5 % is a third of oblivious'.
    EXPECT_LT(bitmap, 0.05);
    EXPECT_GT(bitmap, 0.02); // it does keep probing the bad EVs
    // REPS recycles only clean EVs: once the 43 EVs in flight are all good it never explores
    // again, so after warm-up (10 x 43 feedbacks) the share is essentially 0.
    EXPECT_LT(reps, 0.01);
    // Mixed: REPS's recycling with the bitmap as the fallback.
    EXPECT_LT(mixed, 0.05);
}

} // namespace
} // namespace test
} // namespace ns3
