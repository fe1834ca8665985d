/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared fixtures for the ai-fabric GoogleTest suites.
 */
#ifndef AI_FABRIC_TEST_UTIL_H
#define AI_FABRIC_TEST_UTIL_H

#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace test
{

/**
 * \brief Base fixture: a fresh simulator, default attributes and a fixed seed per test.
 */
class SimTest : public ::testing::Test
{
  protected:
    void SetUp() override;
    void TearDown() override;
};

/**
 * \brief Run a shell command and capture its standard output.
 * \param command the command line
 * \param status set to the exit status
 * \return what it printed on stdout
 */
std::string RunCommand(const std::string& command, int* status);

/// \return the tshark executable configured at build time
std::string TsharkPath();

/**
 * \brief Run tshark on a capture file; the test fails if tshark exits non-zero.
 * \param file the pcap file
 * \param args further tshark arguments (filters, fields)
 * \return tshark's standard output
 */
std::string Tshark(const std::string& file, const std::string& args);

/**
 * \brief Build an IPv4 packet (header + zero payload) with the given DSCP, for link tests.
 * \param payloadBytes bytes after the 20-byte IPv4 header
 * \param dscp 0..63
 * \return the packet, starting with a serialized IPv4 header (protocol UDP)
 */
Ptr<Packet> MakeIpv4Packet(uint32_t payloadBytes, uint8_t dscp);

} // namespace test
} // namespace ns3

#endif
