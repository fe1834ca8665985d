/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PacketRecycler and the RoceNic's use of it: reuse of the same object with headers and tags
 * gone, no reuse while anyone else holds the packet, trimming a larger body, per-size capacity,
 * and identical simulation results with recycling on and off (bidirectional WRITEs, where
 * every NIC both consumes and sends).
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <set>

using namespace ns3;

namespace
{

/// A tag to check that recycled packets come back without tags.
class MarkTag : public Tag
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::PacketRecyclerTestMarkTag").SetParent<Tag>().AddConstructor<MarkTag>();
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

/// A packet as a NIC builds it: \p zero body bytes behind \p hdr header bytes.
Ptr<Packet>
Built(PacketRecycler& r, uint32_t zero, uint32_t hdr)
{
    Ptr<Packet> p = r.Get(zero);
    std::vector<uint8_t> h(hdr, 0xab);
    p->AddHeader(FabricWireHeader(FabricWireHeader::IPV4, h.data(), hdr));
    return p;
}

TEST(PacketRecycler, ReusesTheSameObjectWithoutHeadersOrTags)
{
    PacketRecycler r;
    Ptr<Packet> p = Built(r, 4100, 60);
    p->AddPacketTag(MarkTag());
    p->AddByteTag(MarkTag());
    Packet* raw = PeekPointer(p);
    EXPECT_EQ(r.GetCreated(), 1u);
    r.Recycle(p, 60);
    p = nullptr; // the receive chain returns: the recycler holds the only reference
    Ptr<Packet> q = r.Get(4100);
    EXPECT_EQ(PeekPointer(q), raw);
    EXPECT_EQ(q->GetSize(), 4100u);
    MarkTag t;
    EXPECT_FALSE(q->PeekPacketTag(t));
    ByteTagIterator it = q->GetByteTagIterator();
    EXPECT_FALSE(it.HasNext());
    std::vector<uint8_t> body(4100, 1);
    q->CopyData(body.data(), body.size());
    EXPECT_EQ(std::count(body.begin(), body.end(), 0), 4100) << "body must be zeros";
    EXPECT_EQ(r.GetReused(), 1u);
}

TEST(PacketRecycler, NoReuseWhileSomeoneElseHoldsThePacket)
{
    PacketRecycler r;
    Ptr<Packet> p = Built(r, 1000, 40);
    Ptr<Packet> keptByTraceSink = p;
    r.Recycle(p, 40);
    p = nullptr;
    Ptr<Packet> q = r.Get(1000);
    EXPECT_NE(PeekPointer(q), PeekPointer(keptByTraceSink));
    EXPECT_EQ(keptByTraceSink->GetSize(), 1040u) << "the held packet must be untouched";
    EXPECT_EQ(r.GetReused(), 0u);
}

TEST(PacketRecycler, TrimsALargerBodyAndKeepsPerSizeCapacity)
{
    PacketRecycler r;
    r.SetCapacity(2);
    std::vector<Ptr<Packet>> ps;
    for (int i = 0; i < 3; ++i)
    {
        ps.push_back(Built(r, 4100, 60));
    }
    for (auto& p : ps)
    {
        r.Recycle(p, 60);
        p = nullptr;
    }
    ps.clear();
    Ptr<Packet> ack = r.Get(4); // an ACK's ICRC field from a consumed data packet
    EXPECT_EQ(ack->GetSize(), 4u);
    Ptr<Packet> data = r.Get(4100);
    EXPECT_EQ(data->GetSize(), 4100u);
    EXPECT_EQ(r.GetReused(), 2u); // the third packet exceeded the capacity of 2
    Ptr<Packet> fresh = r.Get(4100);
    EXPECT_EQ(r.GetCreated(), 4u);
}

TEST(PacketRecycler, CapacityZeroDisables)
{
    PacketRecycler r;
    r.SetCapacity(0);
    Ptr<Packet> p = Built(r, 100, 20);
    r.Recycle(p, 20);
    p = nullptr;
    r.Get(100);
    EXPECT_EQ(r.GetReused(), 0u);
    EXPECT_EQ(r.GetCreated(), 2u);
}

/// Bidirectional WRITEs between hosts on a star; returns completion times and event count.
/// With \p ownRecyclers every NIC gets a recycler of its own instead of the helper's shared one.
std::vector<int64_t>
RunExchange(uint32_t recycled, uint64_t* reused, bool ownRecyclers = false)
{
    Config::SetDefault("ns3::RoceNic::RecycledPackets", UintegerValue(recycled));
    const uint32_t hosts = 4;
    StarTopologyHelper star;
    star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.GetNicHelper().SetCongestionControl("dcqcn");
    star.Install(hosts);
    star.AssignStreams(3);
    for (uint32_t h = 0; h < hosts && ownRecyclers; ++h)
    {
        Ptr<PacketRecycler> own = Create<PacketRecycler>();
        own->SetCapacity(0); // only the NIC's share
        star.GetNic(h)->SetPacketRecycler(own);
    }
    std::vector<int64_t> out(hosts, -1);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        // A ring: every host sends to the next and receives from the previous, while two
        // senders also converge on host 0 so queues, ECN and CNPs come into play.
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
    Simulator::Run();
    *reused = 0;
    std::set<const PacketRecycler*> recyclers;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        const PacketRecycler& r = star.GetNic(h)->GetPacketRecycler();
        // A recycler keeps the sum of its NICs' shares.
        EXPECT_EQ(r.GetCapacity(), recycled * (ownRecyclers ? 1 : hosts));
        UintegerValue share;
        star.GetNic(h)->GetAttribute("RecycledPackets", share);
        EXPECT_EQ(share.Get(), recycled);
        if (recyclers.insert(&r).second)
        {
            *reused += r.GetReused();
        }
    }
    EXPECT_EQ(recyclers.size(), ownRecyclers ? hosts : 1u)
        << "the NICs of one helper share a recycler unless given their own";
    out.push_back(int64_t(Simulator::GetEventCount()));
    Simulator::Destroy();
    return out;
}

class PacketRecyclerSim : public test::SimTest
{
};

TEST_F(PacketRecyclerSim, RecyclingDoesNotChangeResults)
{
    uint64_t reusedOff = 0;
    uint64_t reusedOn = 0;
    std::vector<int64_t> off = RunExchange(0, &reusedOff);
    std::vector<int64_t> on = RunExchange(256, &reusedOn);
    EXPECT_EQ(reusedOff, 0u);
    EXPECT_GT(reusedOn, 1000u) << "NICs that receive and send must reuse packets";
    for (std::size_t h = 0; h + 1 < off.size(); ++h)
    {
        EXPECT_GT(off[h], 0) << "host " << h << " did not complete";
    }
    EXPECT_EQ(off, on);
}

TEST_F(PacketRecyclerSim, SharedAndPerNicRecyclersGiveTheSameResults)
{
    uint64_t reusedShared = 0;
    uint64_t reusedOwn = 0;
    std::vector<int64_t> shared = RunExchange(256, &reusedShared);
    std::vector<int64_t> own = RunExchange(256, &reusedOwn, true);
    EXPECT_GT(reusedShared, 1000u);
    EXPECT_GT(reusedOwn, 1000u);
    EXPECT_EQ(shared, own);
}

// A trace sink may tag the packets it is shown; those packets are recycled like any other, and
// the packets later built from them must come without the tags. Frames no sink saw skip the
// clearing (FabricFrame::IsHandedOut), so only the ones shown are cleared.
TEST_F(PacketRecyclerSim, TagsAddedByTraceSinksDoNotReachReusedPackets)
{
    Config::SetDefault("ns3::RoceNic::RecycledPackets", UintegerValue(256));
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
    EXPECT_GT(star.GetNic(0)->GetPacketRecycler().GetReused(), 300u)
        << "the tagged packets must have been reused for the test to mean anything";
    EXPECT_GT(sent, 600u);
    EXPECT_EQ(leaked, 0u);
    Simulator::Destroy();
}

TEST(PacketRecyclerDeathTest, AddCapacityRejectsANegativeResult)
{
    PacketRecycler r;
    r.SetCapacity(10);
    r.AddCapacity(-4);
    EXPECT_EQ(r.GetCapacity(), 6u);
    EXPECT_DEATH(r.AddCapacity(-7), "AddCapacity\\(-7\\) on a capacity of 6 gives -1");
}

TEST_F(PacketRecyclerSim, SetPacketRecyclerRejectsNull)
{
    Ptr<RoceNic> nic = CreateObject<RoceNic>();
    EXPECT_DEATH(nic->SetPacketRecycler(nullptr), "null recycler");
}

} // namespace
