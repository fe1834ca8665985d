/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FlaggedTracedCallback: the owner's bit follows the sinks connected, through every way of
 * connecting, and the trace still fires like a TracedCallback.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// An object with two flagged traces, connected through the attribute system.
class FlaggedOwner : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FlaggedTracedCallbackTestOwner")
                                .SetParent<Object>()
                                .AddConstructor<FlaggedOwner>()
                                .AddTraceSource("A",
                                                "first",
                                                MakeTraceSourceAccessor(&FlaggedOwner::a),
                                                "ns3::TracedValueCallback::Uint32")
                                .AddTraceSource("B",
                                                "second",
                                                MakeTraceSourceAccessor(&FlaggedOwner::b),
                                                "ns3::TracedValueCallback::Uint32");
        return tid;
    }

    FlaggedOwner()
    {
        a.Bind(&mask, 1u);
        b.Bind(&mask, 4u);
    }

    uint32_t mask{0};
    FlaggedTracedCallback<uint32_t> a;
    FlaggedTracedCallback<uint32_t> b;
};

void
Add(uint32_t* sum, uint32_t v)
{
    *sum += v;
}

void
AddWithContext(uint32_t* sum, std::string context, uint32_t v)
{
    *sum += v;
}

TEST(FlaggedTracedCallback, TheBitFollowsTheSinks)
{
    Ptr<FlaggedOwner> o = CreateObject<FlaggedOwner>();
    EXPECT_EQ(o->mask, 0u);
    uint32_t s1 = 0;
    uint32_t s2 = 0;
    Callback<void, uint32_t> c1 = MakeBoundCallback(&Add, &s1);
    Callback<void, uint32_t> c2 = MakeBoundCallback(&Add, &s2);
    ASSERT_TRUE(o->TraceConnectWithoutContext("A", c1));
    EXPECT_EQ(o->mask, 1u);
    ASSERT_TRUE(o->TraceConnectWithoutContext("A", c2));
    o->a(5);
    EXPECT_EQ(s1, 5u);
    EXPECT_EQ(s2, 5u);
    ASSERT_TRUE(o->TraceDisconnectWithoutContext("A", c1));
    EXPECT_EQ(o->mask, 1u) << "one sink is still connected";
    ASSERT_TRUE(o->TraceDisconnectWithoutContext("A", c2));
    EXPECT_EQ(o->mask, 0u);
    o->a(7);
    EXPECT_EQ(s1, 5u);

    uint32_t s3 = 0;
    Callback<void, std::string, uint32_t> c3 = MakeBoundCallback(&AddWithContext, &s3);
    ASSERT_TRUE(o->TraceConnect("B", "ctx", c3));
    EXPECT_EQ(o->mask, 4u);
    o->b(3);
    EXPECT_EQ(s3, 3u);
    ASSERT_TRUE(o->TraceDisconnect("B", "ctx", c3));
    EXPECT_EQ(o->mask, 0u);
}

TEST(FlaggedTracedCallback, DirectConnectionsSetTheBitToo)
{
    FlaggedOwner o;
    uint32_t s = 0;
    o.b.ConnectWithoutContext(MakeBoundCallback(&Add, &s));
    EXPECT_EQ(o.mask, 4u);
    o.b(2);
    EXPECT_EQ(s, 2u);
    o.b.DisconnectWithoutContext(MakeBoundCallback(&Add, &s));
    EXPECT_EQ(o.mask, 0u);
}

TEST(FlaggedTracedCallback, BindRejectsANullMaskOrNotOneBit)
{
    FlaggedTracedCallback<uint32_t> t;
    uint32_t mask = 0;
    EXPECT_DEATH(t.Bind(nullptr, 1u), "null mask");
    EXPECT_DEATH(t.Bind(&mask, 0u), "single set bit");
    EXPECT_DEATH(t.Bind(&mask, 6u), "0x6 must be a single set bit");
}

} // namespace
