/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Pcap written through PfcHelper decodes in tshark: IPv4/UDP data without malformed frames,
 * and PFC frames as MAC Control / Class Based Flow Control with their pause quanta.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"

#include <cstdio>
#include <sstream>

using namespace ns3;

namespace
{

class PcapTest : public test::SimTest
{
};

TEST_F(PcapTest, TsharkDecodesDataAndPfcFrames)
{
    const std::string file = "pfc-pcap-test.pcap";
    std::remove(file.c_str());
    {
        NodeContainer nodes(2);
        PfcHelper helper;
        NetDeviceContainer devs = helper.Install(nodes);
        auto tx = DynamicCast<PfcNetDevice>(devs.Get(0));
        auto rx = DynamicCast<PfcNetDevice>(devs.Get(1));
        helper.EnablePcap(file, rx, /*promiscuous=*/true, /*explicitFilename=*/true);

        for (int i = 0; i < 5; ++i)
        {
            Ptr<Packet> p = Create<Packet>(1000);
            UdpHeader udp;
            udp.SetSourcePort(49152 + i);
            udp.SetDestinationPort(9);
            p->AddHeader(udp);
            Ptr<Packet> ip = test::MakeIpv4Packet(0, 26);
            Ipv4Header iph;
            ip->RemoveHeader(iph);
            iph.SetPayloadSize(p->GetSize());
            p->AddHeader(iph);
            tx->Send(p, rx->GetAddress(), 0x0800);
        }
        Simulator::Schedule(MicroSeconds(1), &PfcNetDevice::SetXoff, rx, 3, true);
        Simulator::Schedule(MicroSeconds(2), &PfcNetDevice::SetXoff, rx, 3, false);
        Simulator::Stop(MicroSeconds(10));
        Simulator::Run();
    }
    Simulator::Destroy(); // the last references to the devices go: the pcap file is closed

    std::string all = test::Tshark(file, "-T fields -e frame.protocols");
    std::istringstream lines(all);
    std::string line;
    int udp = 0;
    int macc = 0;
    while (std::getline(lines, line))
    {
        udp += line.find("eth:ethertype:ip:udp") != std::string::npos;
        macc += line.find("eth:ethertype:macc") != std::string::npos;
    }
    EXPECT_EQ(udp, 5) << all;
    EXPECT_EQ(macc, 2) << all;
    EXPECT_EQ(test::Tshark(file, "-Y _ws.malformed"), "");
    EXPECT_EQ(test::Tshark(file, "-Y _ws.expert.severity==error"), "");
    std::string pfc = test::Tshark(file,
                                   "-Y macc.opcode==0x0101 -T fields -e macc.cbfc.enbv "
                                   "-e macc.cbfc.pause_time.c3 -E separator=,");
    EXPECT_EQ(pfc, "0x0008,65535\n0x0008,0\n");
}

} // namespace
