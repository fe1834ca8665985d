/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "test-util.h"

#include "ns3/ipv4-header.h"
#include "ns3/star-topology-helper.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#ifndef AI_FABRIC_TSHARK
#define AI_FABRIC_TSHARK "tshark"
#endif
#ifndef AI_FABRIC_DATA_DIR
#error "AI_FABRIC_DATA_DIR (the project's data/ folder) must be defined by CMakeLists.txt"
#endif

namespace ns3
{
namespace test
{

void
SimTest::SetUp()
{
    Config::Reset();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
}

void
SimTest::TearDown()
{
    Simulator::Destroy();
    Config::Reset();
}

std::string
RunCommand(const std::string& command, int* status)
{
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe)
    {
        *status = -1;
        return out;
    }
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    {
        out.append(buf.data(), n);
    }
    int rc = pclose(pipe);
    *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    return out;
}

std::string
TsharkPath()
{
    return AI_FABRIC_TSHARK;
}

std::string
MeasuredH100Log()
{
    return std::string(AI_FABRIC_DATA_DIR) + "/nccl-tests/h100-4x8-ib400g-all_reduce_perf.txt";
}

std::vector<std::map<std::string, std::string>>
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::map<std::string, std::string>> rows;
    std::string line;
    std::vector<std::string> header;
    auto split = [](const std::string& l) {
        std::vector<std::string> f;
        std::stringstream ss(l);
        for (std::string x; std::getline(ss, x, ',');)
        {
            f.push_back(x);
        }
        if (!l.empty() && l.back() == ',')
        {
            f.emplace_back();
        }
        return f;
    };
    if (std::getline(in, line))
    {
        header = split(line);
    }
    while (std::getline(in, line))
    {
        auto f = split(line);
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size() && i < f.size(); ++i)
        {
            row[header[i]] = f[i];
        }
        rows.push_back(row);
    }
    return rows;
}

std::string
Tshark(const std::string& file, const std::string& args)
{
    int status = 0;
    std::string cmd = test::TsharkPath() + " -r " + file + " " + args + " 2>/dev/null";
    std::string out = test::RunCommand(cmd, &status);
    EXPECT_EQ(status, 0) << "tshark failed (is it installed?): " << cmd;
    return out;
}

void
InstallDcqcnStar(StarTopologyHelper& star, uint32_t hosts)
{
    star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.GetNicHelper().SetCongestionControl("dcqcn");
    star.Install(hosts);
    star.AssignStreams(7);
}

Ptr<Packet>
MakeIpv4Packet(uint32_t payloadBytes, uint8_t dscp)
{
    Ptr<Packet> p = Create<Packet>(payloadBytes);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(payloadBytes);
    ip.SetTtl(64);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(dscp));
    ip.EnableChecksum();
    p->AddHeader(ip);
    return p;
}

SwitchFlowKey
RoceUdpKey(uint32_t src, uint32_t dst, uint16_t srcPort, uint32_t ingressPort)
{
    SwitchFlowKey k;
    k.srcIp = src;
    k.dstIp = dst;
    k.protocol = 17;
    k.srcPort = srcPort;
    k.dstPort = 4791;
    k.totalLength = 1000;
    k.ingressPort = ingressPort;
    return k;
}

} // namespace test
} // namespace ns3
