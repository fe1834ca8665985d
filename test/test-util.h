/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared fixtures for the ai-fabric GoogleTest suites.
 */
#ifndef AI_FABRIC_TEST_UTIL_H
#define AI_FABRIC_TEST_UTIL_H

#include "ns3/core-module.h"
#include "ns3/flow-source.h"
#include "ns3/network-module.h"
#include "ns3/switch-flow-key.h"

#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
class StarTopologyHelper;

namespace test
{

/**
 * \brief A flow source reading given flows, in the given order (even a wrong one, to test
 *        the checks of its readers).
 */
class VectorSource : public FlowSource
{
  public:
    /// \param flows the flows
    explicit VectorSource(std::vector<FlowSpec> flows)
        : m_flows(std::move(flows))
    {
    }

    std::optional<FlowSpec> Next() override
    {
        if (m_next == m_flows.size())
        {
            return std::nullopt;
        }
        return m_flows[m_next++];
    }

    int64_t AssignStreams(int64_t) override
    {
        return 0;
    }

  private:
    std::vector<FlowSpec> m_flows; //!< the flows
    size_t m_next{0};              //!< index of the next one
};

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
 * \return the path of the real 4 x 8 H100 nccl-tests log shipped in the project
 *         (data/nccl-tests/h100-4x8-ib400g-all_reduce_perf.txt)
 */
std::string MeasuredH100Log();

/**
 * \brief Read a CSV file with a header line (no quoting: the examples write none).
 * \param path the file
 * \return its rows as column name -> value maps (a trailing comma is an empty last field);
 *         empty if the file cannot be read
 */
std::vector<std::map<std::string, std::string>> ReadCsv(const std::string& path);

/**
 * \brief Run tshark on a capture file; the test fails if tshark exits non-zero.
 * \param file the pcap file
 * \param args further tshark arguments (filters, fields)
 * \return tshark's standard output
 */
std::string Tshark(const std::string& file, const std::string& args);

/**
 * \brief Install an incast star: \p hosts hosts at 100 Gb/s on 1 us cables around one
 *        switch, DCQCN on every NIC, random streams from 7.
 * \param star the helper (not installed yet)
 * \param hosts hosts (>= 2)
 */
void InstallDcqcnStar(StarTopologyHelper& star, uint32_t hosts);

/**
 * \brief Build an IPv4 packet (header + zero payload) with the given DSCP, for link tests.
 * \param payloadBytes bytes after the 20-byte IPv4 header
 * \param dscp 0..63
 * \return the packet, starting with a serialized IPv4 header (protocol UDP)
 */
Ptr<Packet> MakeIpv4Packet(uint32_t payloadBytes, uint8_t dscp);

/**
 * \brief A RoCEv2 data packet's switch key: UDP to port 4791 from \p srcPort, 1000 bytes.
 * \param src source address, host byte order
 * \param dst destination address, host byte order
 * \param srcPort UDP source port (the flow's entropy)
 * \param ingressPort the switch port it entered on
 * \return the key
 */
SwitchFlowKey RoceUdpKey(uint32_t src, uint32_t dst, uint16_t srcPort, uint32_t ingressPort = 0);

} // namespace test
} // namespace ns3

#endif
