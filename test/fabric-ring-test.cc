/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricRing: FIFO order through wrap-around and growth, PopBack, indexing, moves of move-only
 * elements, and Clear.
 */
#include "ns3/fabric-ring.h"

#include <deque>
#include <gtest/gtest.h>
#include <memory>
#include <random>

using namespace ns3;

// A random mix of pushes and pops keeps exactly std::deque's order and size, across many
// wrap-arounds and several doublings.
TEST(FabricRing, KeepsFifoOrderThroughWrapAroundAndGrowth)
{
    FabricRing<uint32_t> ring;
    std::deque<uint32_t> model;
    std::mt19937 rng(7);
    uint32_t next = 0;
    for (int step = 0; step < 20000; ++step)
    {
        uint32_t r = rng() % 10;
        if (r < 5 || model.empty()) // pushes outnumber pops: the ring grows to ~hundreds
        {
            ring.PushBack(next);
            model.push_back(next++);
        }
        else if (r < 9)
        {
            ASSERT_EQ(ring.Front(), model.front());
            ASSERT_EQ(ring.PopFront(), model.front());
            model.pop_front();
        }
        else
        {
            ASSERT_EQ(ring.Back(), model.back());
            ASSERT_EQ(ring.PopBack(), model.back());
            model.pop_back();
        }
        ASSERT_EQ(ring.GetSize(), model.size());
        ASSERT_EQ(ring.IsEmpty(), model.empty());
    }
    for (uint32_t i = 0; i < model.size(); ++i)
    {
        ASSERT_EQ(ring[i], model[i]) << "index " << i;
    }
}

// Move-only elements are moved in and out (never copied); Clear drops the rest.
TEST(FabricRing, MovesMoveOnlyElementsAndClearDropsThem)
{
    auto counter = std::make_shared<int>(0);
    FabricRing<std::shared_ptr<int>> ring;
    for (int i = 0; i < 20; ++i)
    {
        ring.PushBack(std::shared_ptr<int>(counter));
    }
    EXPECT_EQ(counter.use_count(), 21);
    std::shared_ptr<int> out = ring.PopFront();
    EXPECT_EQ(counter.use_count(), 21) << "popping moves the element out";
    out.reset();
    EXPECT_EQ(counter.use_count(), 20);
    FabricRing<std::unique_ptr<int>> owners;
    owners.PushBack(std::make_unique<int>(5));
    owners.PushBack(std::make_unique<int>(6));
    EXPECT_EQ(*owners.PopFront(), 5);
    EXPECT_EQ(*owners.Front(), 6);
    ring.Clear();
    EXPECT_TRUE(ring.IsEmpty());
    EXPECT_EQ(counter.use_count(), 1);
    ring.PushBack(counter); // usable again after Clear
    EXPECT_EQ(ring.GetSize(), 1u);
}
