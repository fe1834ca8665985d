/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricRing: FIFO order through wrap-around and growth, PopBack, indexing, iteration, moves of
 * move-only elements, DropFront/DropBack releasing what an element held, Swap, and Clear.
 */
#include "ns3/fabric-ring.h"

#include <deque>
#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <vector>

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
    // Iteration, mutable and const, visits the same elements front to back.
    ASSERT_GT(model.size(), 100u);
    std::vector<uint32_t> seen(ring.begin(), ring.end());
    EXPECT_EQ(seen, std::vector<uint32_t>(model.begin(), model.end()));
    for (auto& v : ring)
    {
        v += 1;
    }
    const FabricRing<uint32_t>& view = ring;
    uint32_t i = 0;
    for (const auto& v : view)
    {
        ASSERT_EQ(v, model[i++] + 1);
    }
    EXPECT_EQ(i, model.size());
    FabricRing<uint32_t> empty;
    EXPECT_TRUE(empty.begin() == empty.end());
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

// An element whose moves copy (as ns-3's Ptr and Callback do in ns-3.37): DropFront and DropBack
// release what it held at once; PopFront hands a copy out and leaves its slot holding a reference
// until the slot is reused.
TEST(FabricRing, DropReleasesWhatAnElementWhoseMovesCopyHeld)
{
    struct CopyOnly
    {
        std::shared_ptr<int> p;
        CopyOnly() = default;
        CopyOnly(const CopyOnly&) = default;
        CopyOnly& operator=(const CopyOnly&) = default;
    };

    auto counter = std::make_shared<int>(0);
    FabricRing<CopyOnly> ring;
    for (int i = 0; i < 12; ++i) // grows past its first 8 slots
    {
        CopyOnly c;
        c.p = counter;
        ring.PushBack(c);
    }
    EXPECT_EQ(counter.use_count(), 13);
    ring.DropFront();
    ring.DropFront();
    EXPECT_EQ(counter.use_count(), 11) << "DropFront resets the slot";
    ring.DropBack();
    EXPECT_EQ(counter.use_count(), 10) << "DropBack resets the slot";
    EXPECT_EQ(ring.GetSize(), 9u);
    {
        CopyOnly out = ring.PopFront();
        EXPECT_EQ(counter.use_count(), 11) << "PopFront's copy, and the slot's";
    }
    EXPECT_EQ(counter.use_count(), 10);
    ring.Clear();
    EXPECT_EQ(counter.use_count(), 1);
}

// Swap exchanges whole contents (sizes, order, storage) without touching the elements.
TEST(FabricRing, SwapExchangesContents)
{
    FabricRing<int> a;
    FabricRing<int> b;
    for (int i = 0; i < 10; ++i)
    {
        a.PushBack(i);
    }
    a.PopFront(); // head away from 0
    b.PushBack(42);
    const int* storage = &a.Front();
    a.Swap(b);
    ASSERT_EQ(a.GetSize(), 1u);
    EXPECT_EQ(a.Front(), 42);
    ASSERT_EQ(b.GetSize(), 9u);
    EXPECT_EQ(&b.Front(), storage) << "no element moved";
    for (uint32_t i = 0; i < b.GetSize(); ++i)
    {
        EXPECT_EQ(b[i], int(i) + 1);
    }
}
