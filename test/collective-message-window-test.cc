/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CollectiveMessageWindow, the messages of one connection that RoCE's and Ultra Ethernet's
 * collective transports share: delivery, completion, retirement and failure in order, and the
 * two halves of a message between MPI processes (the source's waits for completions only, the
 * destination's, announced, for arrivals only).
 */
#include "ns3/ai-fabric-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Records what a CollectiveMessageWindow tells its listener, in order.
class RecordingListener : public CollectiveMessageListener
{
  public:
    void MessageDelivered(uint64_t cookie, uint64_t bytes) override
    {
        events.push_back("delivered " + std::to_string(cookie) + " " + std::to_string(bytes));
    }

    void MessageSent(uint64_t cookie) override
    {
        events.push_back("sent " + std::to_string(cookie));
    }

    void MessageFailed(uint64_t cookie, const std::string& reason) override
    {
        events.push_back("failed " + std::to_string(cookie) + " " + reason);
    }

    std::vector<std::string> events; //!< in order
};

} // namespace

// The message window RoCE's and UET's collective transports share: parts arrive and complete
// in any order, each message is delivered and sent once, finished messages retire from the
// front only, a failure retires its message and is the connection's first only once.
TEST(CollectiveMessageWindowTest, DeliversSendsRetiresAndFailsInOrder)
{
    RecordingListener l;
    CollectiveMessageWindow w;
    EXPECT_EQ(w.Add(100, 2, &l, 7), 0u);
    EXPECT_EQ(w.Add(50, 1, &l, 8), 1u);
    EXPECT_EQ(w.Add(0, 1, nullptr, 9), 2u); // no listener: nothing told
    uint64_t delivered = 0;
    w.PartArrived(1, delivered); // message 1 delivered before message 0
    EXPECT_EQ(delivered, 50u);
    w.PartCompleted(1);
    EXPECT_EQ(w.GetPending(), 3u); // message 1 finished, but message 0 is in front
    w.PartArrived(0, delivered);
    w.PartCompleted(0);
    w.PartArrived(0, delivered);
    EXPECT_EQ(delivered, 150u);
    w.PartArrived(0, delivered); // a duplicate arrival counts nothing
    EXPECT_EQ(delivered, 150u);
    EXPECT_EQ(w.GetPending(), 3u); // message 0 has one part to complete
    w.PartCompleted(0);
    EXPECT_EQ(w.GetPending(), 1u); // 0 and 1 retired, 2 pending
    EXPECT_EQ(l.events,
              (std::vector<std::string>{"delivered 8 50", "sent 8", "delivered 7 100", "sent 7"}));
    EXPECT_TRUE(w.IsLive(2));
    EXPECT_FALSE(w.IsLive(0)); // retired
    EXPECT_FALSE(w.IsLive(3)); // never sent

    // Failures: the first of the connection is reported once; the listener is told once.
    EXPECT_EQ(w.Add(10, 2, &l, 11), 3u);
    CollectiveMessageWindow::Failure f = w.Fail(3);
    EXPECT_TRUE(f.firstOfConnection);
    EXPECT_EQ(f.listener, &l);
    EXPECT_EQ(f.cookie, 11u);
    EXPECT_FALSE(w.IsLive(3));
    w.PartArrived(3, delivered); // given up on: nothing
    EXPECT_EQ(delivered, 150u);
    EXPECT_EQ(w.Add(10, 1, &l, 12), 4u);
    EXPECT_FALSE(w.Fail(4).firstOfConnection);
    EXPECT_EQ(w.GetPending(), 3u); // 2 is still pending in front of 3 and 4
    w.PartArrived(2, delivered);
    w.PartCompleted(2);
    EXPECT_EQ(w.GetPending(), 0u); // 2 finished, the failed 3 and 4 retire behind it
}

// The source's half of a message to another process waits for its completions only; the
// destination's half (announced) for its arrivals only; each retires on its own.
TEST(CollectiveMessageWindowHalvesTest, EachProcessWaitsForItsOwnHalf)
{
    RecordingListener l;
    CollectiveMessageWindow source;
    EXPECT_EQ(source.Add(100, 2, &l, 7, false), 0u);
    EXPECT_EQ(source.GetPending(), 1u);
    source.PartCompleted(0);
    source.PartCompleted(0);
    EXPECT_EQ(source.GetPending(), 0u); // retired without any arrival
    EXPECT_EQ(l.events, (std::vector<std::string>{"sent 7"}));

    l.events.clear();
    CollectiveMessageWindow destination;
    destination.AddAnnounced(0, 100, 2, &l, 7);
    destination.AddAnnounced(1, 0, 1, &l, 8);
    uint64_t delivered = 0;
    destination.PartArrived(0, delivered);
    destination.PartArrived(1, delivered);
    EXPECT_EQ(destination.GetPending(), 2u); // message 0 is in front, one part short
    destination.PartArrived(0, delivered);
    EXPECT_EQ(destination.GetPending(), 0u); // retired without any completion
    EXPECT_EQ(delivered, 100u);
    EXPECT_EQ(l.events, (std::vector<std::string>{"delivered 8 0", "delivered 7 100"}));
}

TEST(CollectiveMessageWindowHalvesDeathTest, LateOrMisorderedAnnouncementsAreNamed)
{
    EXPECT_DEATH(
        {
            CollectiveMessageWindow w;
            w.AddAnnounced(1, 10, 1, nullptr, 0);
        },
        "message 1 announced where message 0 is next");
    EXPECT_DEATH(
        {
            CollectiveMessageWindow w;
            w.AddAnnounced(0, 10, 1, nullptr, 0);
            uint64_t delivered = 0;
            w.PartArrived(1, delivered);
        },
        "a part of message 1 arrived before the message was added \\(1 is next\\)");
}
