/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest main for ai-fabric: picosecond time resolution (at 400 Gb/s a byte takes 20 ps,
 * so nanosecond resolution would round every serialization time).
 */
#include "ns3/nstime.h"

#include <gtest/gtest.h>

int
main(int argc, char** argv)
{
    ns3::Time::SetResolution(ns3::Time::PS);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
