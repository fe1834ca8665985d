/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Zero-body frames (FabricFrame built from header bytes and a count of zero bytes): no ns-3
 * packet until something outside the fast path asks for one, the same bytes as an eagerly built
 * frame when it does, identical simulation results whether frames are observed or not, no packet
 * allocated per frame when nobody observes them, and tags added by trace sinks not reaching
 * other frames.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

using namespace ns3;

namespace
{

/// A tag a trace sink adds, to check that it does not reach other frames.
class MarkTag : public Tag
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::FabricFrameTestMarkTag").SetParent<Tag>().AddConstructor<MarkTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 1;
    }

    void Serialize(TagBuffer i) const override
    {
        i.WriteU8(7);
    }

    void Deserialize(TagBuffer i) override
    {
        i.ReadU8();
    }

    void Print(std::ostream& os) const override
    {
        os << "mark";
    }
};

/// \return \p n header bytes 1, 2, 3, ...
std::vector<uint8_t>
HeadBytes(uint32_t n)
{
    std::vector<uint8_t> h(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        h[i] = static_cast<uint8_t>(i + 1);
    }
    return h;
}

/// \return the whole frame's bytes as CopyData reads them
std::vector<uint8_t>
FrameBytes(const FabricFrame& f)
{
    std::vector<uint8_t> out(f.GetSize());
    EXPECT_EQ(f.CopyData(out.data(), f.GetSize()), f.GetSize());
    return out;
}

/// \return the packet's bytes
std::vector<uint8_t>
PacketBytes(const Ptr<const Packet>& p)
{
    std::vector<uint8_t> out(p->GetSize());
    p->CopyData(out.data(), p->GetSize());
    return out;
}

} // namespace

// A zero-body frame reads as its head followed by zeros, through every read, with no packet;
// GetPacket() creates one with exactly those bytes, after head rewrites too.
TEST(FabricFrame, ZeroBodyHasNoPacketUntilAskedAndTheSameBytes)
{
    std::vector<uint8_t> head = HeadBytes(58);
    FabricFrame f(head.data(), 58, 1000);
    EXPECT_FALSE(f.IsEmpty());
    EXPECT_FALSE(f.HasPacket());
    EXPECT_EQ(f.GetSize(), 1058u);
    std::vector<uint8_t> expect(1058, 0);
    std::copy(head.begin(), head.end(), expect.begin());
    EXPECT_EQ(FrameBytes(f), expect);
    f.LoadHead(76); // reads zeros from the body into the head
    EXPECT_EQ(f.GetHeadBytes(), 76u);
    EXPECT_EQ(f.GetStaleBytes(), 0u);
    EXPECT_EQ(FrameBytes(f), expect);
    // A switch's rewrite: a new, shorter L2 header.
    std::vector<uint8_t> l2(14, 0xee);
    ASSERT_TRUE(f.ReplaceHead(18, l2.data(), 14));
    f.MutableHead(20)[15] = 0x99;
    expect.erase(expect.begin(), expect.begin() + 4);
    std::fill(expect.begin(), expect.begin() + 14, 0xee);
    expect[15] = 0x99;
    EXPECT_EQ(f.GetSize(), 1054u);
    EXPECT_EQ(FrameBytes(f), expect);
    EXPECT_FALSE(f.HasPacket()) << "reads and rewrites must not create the packet";
    Ptr<Packet> p = f.GetPacket();
    EXPECT_TRUE(f.HasPacket());
    EXPECT_EQ(p->GetSize(), 1054u);
    EXPECT_EQ(PacketBytes(p), expect);
    EXPECT_EQ(PeekPointer(p), f.PeekPacket());
    EXPECT_EQ(FrameBytes(f), expect);
    EXPECT_EQ(p->GetReferenceCount(), 2u); // the frame's and p
}

// Moving a zero-body frame leaves an empty frame; the moved-to one keeps the size and head.
TEST(FabricFrame, ZeroBodyMoves)
{
    std::vector<uint8_t> head = HeadBytes(40);
    FabricFrame a(head.data(), 40, 24);
    FabricFrame b(std::move(a));
    EXPECT_TRUE(a.IsEmpty());
    EXPECT_EQ(a.GetSize(), 0u);
    EXPECT_FALSE(b.IsEmpty());
    EXPECT_EQ(b.GetSize(), 64u);
    FabricFrame c;
    EXPECT_TRUE(c.IsEmpty());
    c = std::move(b);
    EXPECT_TRUE(b.IsEmpty());
    EXPECT_EQ(c.GetPacket()->GetSize(), 64u);
    // A frame of only zeros (no head) is a frame too.
    FabricFrame z(head.data(), 0, 64);
    EXPECT_FALSE(z.IsEmpty());
    EXPECT_EQ(PacketBytes(z.GetPacket()), std::vector<uint8_t>(64, 0));
}

TEST(FabricFrameDeathTest, BadZeroBodyFramesAbortWithAMessage)
{
    uint8_t head[FabricFrame::HEAD_CAPACITY + 1] = {};
    EXPECT_DEATH(FabricFrame(head, FabricFrame::HEAD_CAPACITY + 1, 10),
                 "113 head bytes and 10 zero bytes; the head must be 0..112");
    EXPECT_DEATH(FabricFrame(head, 0, 0), "0 head bytes and 0 zero bytes");
}

// A simplified header model's discount: the charged size is the size less the discount; it
// moves with the frame and survives head rewrites (clamped so at least 1 byte is charged).
TEST(FabricFrame, SizeDiscountIsChargedLessAndMovesWithTheFrame)
{
    std::vector<uint8_t> head = HeadBytes(58);
    FabricFrame f(head.data(), 58, 4000);
    EXPECT_EQ(f.GetSizeDiscount(), 0u);
    EXPECT_EQ(f.GetChargedSize(), 4058u);
    f.SetSizeDiscount(58); // e.g. UetNic HeaderModelBytes 64 on a 4096-byte payload
    EXPECT_EQ(f.GetChargedSize(), 4000u);
    EXPECT_EQ(f.GetSize(), 4058u) << "the frame keeps its real bytes";
    FabricFrame g(std::move(f));
    EXPECT_EQ(g.GetSizeDiscount(), 58u);
    EXPECT_EQ(g.GetChargedSize(), 4000u);
    std::vector<uint8_t> l2(18, 0xee);
    g.LoadHead(18);
    ASSERT_TRUE(g.ReplaceHead(14, l2.data(), 18)); // an 802.1Q tag added: 4 bytes more
    EXPECT_EQ(g.GetChargedSize(), 4004u);
    FabricFrame small(head.data(), 20, 0);
    small.SetSizeDiscount(19);
    EXPECT_EQ(small.GetChargedSize(), 1u);
    small.LoadHead(20);
    ASSERT_TRUE(small.ReplaceHead(20, l2.data(), 10)); // shorter than its discount
    EXPECT_EQ(small.GetSize(), 10u);
    EXPECT_EQ(small.GetChargedSize(), 1u) << "the discount is clamped, never the whole frame";
}

TEST(FabricFrameDeathTest, ABadSizeDiscountAbortsNamingTheRange)
{
    std::vector<uint8_t> head = HeadBytes(58);
    FabricFrame f(head.data(), 58, 6);
    EXPECT_DEATH(f.SetSizeDiscount(64),
                 "a size discount of 64 bytes on a frame of 64 bytes; "
                 "valid range is 0..63");
    FabricFrame big(head.data(), 58, 4000);
    EXPECT_DEATH(big.SetSizeDiscount(256), "valid range is 0..255");
}

// An empty frame (default-constructed or moved from) answers every accessor with "nothing"
// and refuses changes, instead of touching state it does not have.
TEST(FabricFrame, AnEmptyFrameHasNothingAndRefusesChanges)
{
    FabricFrame e;
    EXPECT_TRUE(e.IsEmpty());
    EXPECT_EQ(e.GetSize(), 0u);
    EXPECT_EQ(e.GetChargedSize(), 0u);
    EXPECT_EQ(e.GetSizeDiscount(), 0u);
    EXPECT_EQ(e.GetHeadBytes(), 0u);
    EXPECT_EQ(e.GetStaleBytes(), 0u);
    EXPECT_EQ(e.GetHead(), nullptr);
    EXPECT_FALSE(e.HasPacket());
    EXPECT_EQ(e.PeekPacket(), nullptr);
    EXPECT_EQ(e.GetPacket(), nullptr);
    uint8_t out[8] = {};
    EXPECT_EQ(e.CopyData(out, 8), 0u);
    e.LoadHead(20); // a no-op
    EXPECT_EQ(e.MutableHead(0), nullptr);
    uint8_t bytes[4] = {1, 2, 3, 4};
    EXPECT_FALSE(e.ReplaceHead(0, bytes, 4));
    EXPECT_TRUE(e.IsEmpty());
}

TEST(FabricFrameDeathTest, ASizeDiscountOnAnEmptyFrameAbortsNamingIt)
{
    FabricFrame e;
    EXPECT_DEATH(e.SetSizeDiscount(0),
                 "on a frame of 0 bytes; valid range is none \\(the frame is empty\\)");
}

// Frames' state is recycled (a per-thread pool): a frame built after others ended starts
// clean, whatever the ended ones held (size discount, head, packet), and many frames alive at
// once keep their own bytes.
TEST(FabricFrame, RecycledFramesStartCleanAndKeepTheirOwnBytes)
{
    std::vector<uint8_t> head = HeadBytes(100);
    {
        FabricFrame used(Create<Packet>(300), head.data(), 100);
        used.SetSizeDiscount(50);
        uint8_t l2[18] = {};
        ASSERT_TRUE(used.ReplaceHead(14, l2, 18));
    }
    std::vector<FabricFrame> alive;
    for (uint32_t i = 0; i < 1000; ++i) // several blocks of the pool
    {
        std::vector<uint8_t> h(1 + i % 100, static_cast<uint8_t>(i));
        alive.emplace_back(h.data(), static_cast<uint32_t>(h.size()), i);
    }
    for (uint32_t i = 0; i < alive.size(); ++i)
    {
        const FabricFrame& f = alive[i];
        uint32_t n = 1 + i % 100;
        ASSERT_EQ(f.GetSize(), n + i);
        ASSERT_EQ(f.GetHeadBytes(), n);
        ASSERT_EQ(f.GetSizeDiscount(), 0u);
        ASSERT_FALSE(f.HasPacket());
        ASSERT_EQ(f.GetStaleBytes(), 0u);
        ASSERT_EQ(std::vector<uint8_t>(f.GetHead(), f.GetHead() + n),
                  std::vector<uint8_t>(n, static_cast<uint8_t>(i)))
            << "frame " << i;
    }
    // Moves between containers keep the state with the frame.
    FabricFrame moved(std::move(alive[7]));
    EXPECT_TRUE(alive[7].IsEmpty());
    EXPECT_EQ(moved.GetSize(), 8u + 7u);
    alive[7] = std::move(moved);
    EXPECT_EQ(alive[7].GetSize(), 15u);
}

namespace
{

/// Bidirectional WRITEs among four hosts through a star, plus a two-to-one convergence (ECN,
/// CNPs), with DCQCN. With \p observe, a sink sees (and tags) every frame each host port
/// receives and sends, so every frame gets its packet. Returns the hosts' last completion
/// times, then the event count; \p packets receives how many ns-3 packets were created during
/// the run.
std::vector<int64_t>
RunExchange(bool observe, uint64_t* packets)
{
    const uint32_t hosts = 4;
    StarTopologyHelper star;
    star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.GetNicHelper().SetCongestionControl("dcqcn");
    star.Install(hosts);
    star.AssignStreams(3);
    auto tagIt = MakeCallback(+[](Ptr<const Packet> p) { p->AddPacketTag(MarkTag()); });
    for (uint32_t h = 0; h < hosts && observe; ++h)
    {
        star.GetHostPort(h)->TraceConnectWithoutContext("PhyRxEnd", tagIt);
        star.GetHostPort(h)->TraceConnectWithoutContext("PhyTxBegin", tagIt);
    }
    std::vector<int64_t> out(hosts, -1);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        std::vector<uint32_t> dsts{(h + 1) % hosts};
        if (h == 2)
        {
            dsts.push_back(0);
        }
        for (uint32_t dst : dsts)
        {
            auto qp = star.Connect(h, dst)[0].first;
            for (uint32_t m = 0; m < 3; ++m)
            {
                qp->PostWrite((h + 1) * 300 * 1000 + m * 777,
                              0,
                              1,
                              MakeCallback(+[](int64_t* slot, const RoceWorkCompletion& wc) {
                                  *slot = std::max(*slot, wc.endTime.GetPicoSeconds());
                              }).Bind(&out[h]));
            }
        }
    }
    uint64_t uidBefore = Create<Packet>()->GetUid();
    Simulator::Run();
    *packets = Create<Packet>()->GetUid() - uidBefore - 1;
    out.push_back(int64_t(Simulator::GetEventCount()));
    Simulator::Destroy();
    return out;
}

class FabricFrameSim : public test::SimTest
{
};

} // namespace

// Observing frames creates their packets; results must not depend on it. Unobserved, the
// frames of a whole exchange (thousands of data packets, ACKs, CNPs) create no packet at all.
TEST_F(FabricFrameSim, ObservingFramesChangesNoResultAndUnobservedFramesHaveNoPacket)
{
    uint64_t packetsQuiet = 0;
    uint64_t packetsObserved = 0;
    std::vector<int64_t> quiet = RunExchange(false, &packetsQuiet);
    std::vector<int64_t> observed = RunExchange(true, &packetsObserved);
    for (std::size_t h = 0; h + 1 < quiet.size(); ++h)
    {
        EXPECT_GT(quiet[h], 0) << "host " << h << " did not complete";
    }
    EXPECT_EQ(quiet, observed);
    EXPECT_EQ(packetsQuiet, 0u);
    EXPECT_GT(packetsObserved, 2000u) << "observed frames must get packets";
}

// A trace sink may tag the packets it is shown; the tags must not reach any other frame.
TEST_F(FabricFrameSim, TagsAddedByTraceSinksDoNotReachOtherFrames)
{
    StarTopologyHelper star;
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.Install(2);
    uint32_t tagged = 0;
    uint32_t leaked = 0;
    uint32_t sent = 0;
    // Every second frame host 1 receives is shown to a sink that tags it.
    star.GetHostPort(1)->TraceConnectWithoutContext(
        "PhyRxEnd",
        MakeCallback(+[](uint32_t* n, Ptr<const Packet> p) {
            if ((*n)++ % 2 == 0)
            {
                p->AddPacketTag(MarkTag());
                p->AddByteTag(MarkTag());
            }
        }).Bind(&tagged));
    auto check = MakeCallback(+[](uint32_t* bad, uint32_t* n, Ptr<const Packet> p) {
        MarkTag t;
        *bad += p->PeekPacketTag(t) || p->GetByteTagIterator().HasNext();
        ++*n;
    });
    star.GetHostPort(0)->TraceConnectWithoutContext("PhyTxBegin", check.Bind(&leaked, &sent));
    star.GetHostPort(1)->TraceConnectWithoutContext("PhyTxBegin", check.Bind(&leaked, &sent));
    auto qps = star.Connect(0, 1);
    auto back = star.Connect(1, 0);
    for (int m = 0; m < 20; ++m)
    {
        qps[0].first->PostWrite(64 * 1024, 0, 1, RoceQueuePair::CompletionCallback());
        back[0].first->PostWrite(64 * 1024, 0, 1, RoceQueuePair::CompletionCallback());
    }
    Simulator::Run();
    EXPECT_GT(tagged, 300u);
    EXPECT_GT(sent, 600u);
    EXPECT_EQ(leaked, 0u);
    Simulator::Destroy();
}
