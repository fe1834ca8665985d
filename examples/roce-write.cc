/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * roce-write: RDMA WRITEs (and optionally READs) between two RoCEv2 NICs through a switch.
 *
 *   host 0 (RoceNic) ── 400G ── switch ── 400G ── host 1 (RoceNic)
 *
 * Posts one message of --bytes on each of --qps queue pairs (WRITE, or READ with --read),
 * and reports per-QP completion time and goodput against the analytical RoCEv2 goodput
 * line rate x MTU / (MTU + 82 B of ICRC/BTH/UDP/IPv4/Ethernet/FCS/preamble/IFG), plus ACK,
 * NAK, CNP and retransmission counters. --loss=N drops the N-th data frame at the receiver to
 * show go-back-N; --pcap writes captures Wireshark decodes as RoCEv2 (UDP 4791).
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <limits>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    uint64_t bytes = 64ull << 20;
    uint32_t qps = 1;
    uint32_t mtu = 4096;
    std::string rate = "400Gbps";
    bool read = false;
    int64_t loss = -1;
    bool pcap = false;
    std::string cc = "none";

    FabricCommandLine cmd(__FILE__);
    cmd.AddBytes("bytes", "Message size per QP, bytes", bytes, 0, 0xFFFFFFFFull);
    cmd.AddValue("qps", "Number of queue pairs", qps, 1, 4096);
    cmd.AddValue("mtu", "RoCE path MTU (256, 512, 1024, 2048, 4096)", mtu);
    cmd.AddRate("rate", "Link rate", rate);
    cmd.AddValue("read", "Post RDMA READs instead of WRITEs", read);
    cmd.AddValue("loss",
                 "Drop this data frame (0-based, < qps x ceil(bytes / mtu)) at the receiver; "
                 "-1 = none",
                 loss,
                 std::numeric_limits<int64_t>::min() + 1,
                 std::numeric_limits<int64_t>::max());
    cmd.AddValue("cc", "Congestion control: none, dcqcn or a FabricCongestionOps TypeId name", cc);
    cmd.AddValue("pcap", "Write roce-write-<node>-<dev>.pcap", pcap);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096,
                          "--mtu=" << mtu
                                   << " is invalid; valid values are the RoCE path MTUs 256, "
                                      "512, 1024, 2048, 4096");
    if (pcap)
    {
        FabricCommandLine::CheckWritable("roce-write-0-0.pcap", "--pcap (roce-write-*.pcap)");
    }
    // --loss names a data frame of the first pass: qps messages of ceil(bytes / mtu) frames
    // (at least 1 each). Anything else would drop nothing, silently.
    const uint64_t frames =
        uint64_t(qps) * std::max<uint64_t>(1, (bytes + mtu - 1) / std::max<uint32_t>(mtu, 1));
    FABRIC_INPUT_ERROR_IF(loss < -1 || (loss >= 0 && uint64_t(loss) >= frames),
                          "--loss=" << loss << " is invalid; valid range is -1 (no loss) or 0.."
                                    << frames - 1 << " (the " << frames
                                    << " data frames sent: --qps=" << qps
                                    << " x ceil(--bytes=" << bytes << " / --mtu=" << mtu << "))");

    StarTopologyHelper star;
    star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue(rate));
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.GetNicHelper().SetNicAttribute("Mtu", UintegerValue(mtu));
    star.GetNicHelper().SetCongestionControl(cc);
    star.Install(2);
    star.AssignStreams(1);
    auto pairs = star.Connect(0, 1, qps);
    if (loss >= 0)
    {
        auto em = CreateObject<ReceiveListErrorModel>();
        em->SetList({static_cast<uint32_t>(loss)});
        // READ data flows to host 0, WRITE data to host 1.
        star.GetHostPort(read ? 0 : 1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    if (pcap)
    {
        star.GetPortHelper().EnablePcap("roce-write", star.GetHostPort(0), true);
        star.GetPortHelper().EnablePcap("roce-write", star.GetHostPort(1), true);
    }

    std::vector<RoceWorkCompletion> done;
    auto onDone = [&done](const RoceWorkCompletion& wc) { done.push_back(wc); };
    for (auto& [a, b] : pairs)
    {
        RoceQueuePair::CompletionCallback cb =
            MakeCallback(+[](decltype(onDone)* f, const RoceWorkCompletion& wc) {
                (*f)(wc);
            }).Bind(&onDone);
        if (read)
        {
            a->PostRead(bytes, 0x10000, 0x1234, cb);
        }
        else
        {
            a->PostWrite(bytes, 0x10000, 0x1234, cb);
        }
    }
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet())
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("roce-write");
        progress->Watch(star.GetHealthMonitor());
    }
    Simulator::Run();
    star.GetHealthMonitor()->ReportEndOfRun(std::cerr); // stalls, lossless drops

    double lineRate = DataRate(rate).GetBitRate();
    double analytic = lineRate * mtu / (mtu + 82.0);
    std::cout << std::fixed << std::setprecision(2) << "roce-write: " << qps << " QP(s) x " << bytes
              << " B " << (read ? "READ" : "WRITE") << " at " << rate << ", MTU " << mtu << "\n";
    Time first = Time::Max();
    Time last;
    for (const auto& wc : done)
    {
        first = std::min(first, wc.startTime);
        last = std::max(last, wc.endTime);
        std::cout << "  QP " << wc.qpn << ": " << RoceWcStatusName(wc.status) << " after "
                  << (wc.endTime - wc.startTime).GetSeconds() * 1e6 << " us\n";
    }
    double goodput = double(bytes) * qps * 8 / (last - first).GetSeconds();
    std::cout << "  aggregate goodput " << goodput / 1e9 << " Gb/s; analytical " << analytic / 1e9
              << " Gb/s (" << 100 * goodput / analytic << " %)\n";
    for (auto& [a, b] : pairs)
    {
        const auto& t = a->GetCounters();
        const auto& r = b->GetCounters();
        std::cout << "  " << a->GetLabel() << " -> " << b->GetLabel() << " (UDP sport "
                  << a->GetUdpSourcePort() << "): data pkts " << t.txDataPackets
                  << ", retransmitted " << t.retransmittedPackets << ", ACKs rx " << t.acksRx
                  << ", NAKs rx " << t.naksRx << ", timeouts " << t.timeouts << ", CNPs rx "
                  << t.cnpsRx << " | responder rx " << r.rxDataPackets << " pkts, ACKs tx "
                  << r.acksTx << "\n";
        if (qps > 4)
        {
            break;
        }
    }
    Simulator::Destroy();
    return 0;
}
