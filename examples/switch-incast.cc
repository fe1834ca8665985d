/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * switch-incast: N:1 incast through one shared-buffer switch with PFC.
 *
 *   sender 0 ──┐
 *   sender 1 ──┤  400G, 1 us
 *      ...     ├── switch ── receiver
 *   sender N-1─┘
 *
 * Every sender pushes --packets packets of 4096 B (DSCP 26 -> lossless priority 3, ECT(0)) at
 * line rate into one egress port. The switch's MMU holds what it can in its shared buffer and
 * pauses the senders with PFC before its headroom could overflow; with --lossless=false the
 * class is lossy and the switch drops instead. Prints per-flow completion times, the egress
 * goodput, PFC and ECN counts, peak buffer use and drops, and writes:
 *   <prefix>-flows.csv   sender,src_ip,bytes,start_us,fct_us
 *   <prefix>-switch.csv  per-port samples (SwitchCsvMonitor: queue bytes, PFC, ECN, drops)
 *
 * Any model attribute can be set from the command line too, e.g.
 *   --ns3::SharedBufferMmu::Alpha=0.5 --ns3::WredEcnMarker::Kmin=50KB
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Records the last arrival of each source at the receiver.
struct FlowClock
{
    std::map<uint32_t, Time> last; //!< source IPv4 (host order) -> last arrival

    void OnRx(Ptr<const Packet> p)
    {
        uint8_t ip[16];
        p->CopyData(ip, 16);
        uint32_t src =
            (uint32_t(ip[12]) << 24) | (uint32_t(ip[13]) << 16) | (uint32_t(ip[14]) << 8) | ip[15];
        last[src] = Simulator::Now();
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    uint32_t senders = 8;
    uint32_t packets = 2000;
    std::string rate = "400Gbps";
    Time delay = MicroSeconds(1);
    bool lossless = true;
    std::string prefix = "switch-incast";
    Time sampleInterval = MicroSeconds(5);
    bool pcap = false;

    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("senders", "Number of senders (1..1024)", senders, 1, 1024);
    cmd.AddValue("packets", "Packets of 4096 B per sender", packets, 1);
    cmd.AddRate("rate", "Rate of every link", rate);
    cmd.AddValue("delay", "Propagation delay of every cable", delay);
    cmd.AddValue("lossless", "Priority 3 lossless (PFC) or lossy (drops)", lossless);
    cmd.AddValue("prefix", "Output file prefix", prefix);
    cmd.AddValue("sample", "Switch CSV sampling interval", sampleInterval);
    cmd.AddValue("pcap", "Write pcap of the receiver port", pcap);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(!sampleInterval.IsStrictlyPositive(),
                          "--sample=" << sampleInterval.As(Time::US)
                                      << " is invalid; the sampling interval must be > 0");
    FABRIC_INPUT_ERROR_IF(delay.IsNegative(),
                          "--delay=" << delay.As(Time::US) << " is invalid; it must be >= 0");
    for (const char* suffix : {"-flows.csv", "-switch.csv"})
    {
        FabricCommandLine::CheckWritable(prefix + suffix, "--prefix=" + prefix);
    }

    NodeContainer hosts(senders + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    PfcHelper pfc;
    pfc.SetDeviceAttribute("DataRate", StringValue(rate));
    pfc.SetChannelAttribute("Delay", TimeValue(delay));
    pfc.SetQueueMaxSize(QueueSize("1000000p"));
    std::vector<Ptr<PfcNetDevice>> hostPort;
    for (uint32_t i = 0; i <= senders; ++i)
    {
        NetDeviceContainer d = pfc.Install(hosts.Get(i), swNode);
        hostPort.push_back(DynamicCast<PfcNetDevice>(d.Get(0)));
    }
    SwitchHelper switchHelper;
    switchHelper.SetMmuAttribute("LosslessPriorities", UintegerValue(lossless ? 0x08 : 0x00));
    Ptr<FabricSwitch> sw = switchHelper.Install(swNode);
    auto hostIp = [](uint32_t i) { return Ipv4Address(0x0a000001 + i); };
    for (uint32_t i = 0; i <= senders; ++i)
    {
        sw->GetForwardingTable()->SetRoute(hostIp(i), {i});
    }
    sw->AssignStreams(1);

    Ptr<PfcPacketSink> sink = CreateObject<PfcPacketSink>();
    sink->Setup(hostPort[senders]);
    FlowClock clock;
    sink->TraceConnectWithoutContext("Rx", MakeCallback(&FlowClock::OnRx, &clock));
    std::vector<Ptr<PfcBulkSender>> flows;
    for (uint32_t i = 0; i < senders; ++i)
    {
        Ptr<PfcBulkSender> s = CreateObject<PfcBulkSender>();
        s->SetAttribute("MaxPackets", UintegerValue(packets));
        s->SetAttribute("SourcePort", UintegerValue(49152 + i));
        s->Setup(hostPort[i], hostIp(i), hostIp(senders));
        s->Start(MicroSeconds(1));
        flows.push_back(s);
    }
    if (pcap)
    {
        pfc.EnablePcap(prefix, hostPort[senders], true);
    }

    // The incast ends by ~ total bytes / egress rate; sample a bit beyond it.
    double egressSeconds = double(senders) * packets * 4134 * 8 / DataRate(rate).GetBitRate();
    Time horizon = MicroSeconds(1) + Seconds(egressSeconds * 1.2) + delay * 4 + MicroSeconds(20);
    SwitchCsvMonitor monitor(prefix + "-switch.csv", sampleInterval, 0x08);
    monitor.Add(sw);
    monitor.Start(MicroSeconds(1), horizon);
    Simulator::Run();
    CreateObject<FabricHealthMonitor>()->ReportEndOfRun(std::cerr); // lossless drops, loudly

    std::ofstream flowsCsv(prefix + "-flows.csv");
    FABRIC_INPUT_ERROR_IF(!flowsCsv, "cannot write " << prefix << "-flows.csv");
    flowsCsv << "sender,src_ip,bytes,start_us,fct_us\n";
    Time fctMin = Time::Max();
    Time fctMax;
    for (uint32_t i = 0; i < senders; ++i)
    {
        auto it = clock.last.find(hostIp(i).Get());
        Time fct = it == clock.last.end() ? Time(0) : it->second - flows[i]->GetStartTime();
        fctMin = std::min(fctMin, fct);
        fctMax = std::max(fctMax, fct);
        flowsCsv << i << "," << hostIp(i) << "," << flows[i]->GetSentBytes() << ","
                 << flows[i]->GetStartTime().GetMicroSeconds() << "," << fct.GetSeconds() * 1e6
                 << "\n";
    }

    const SwitchCounters& c = sw->GetCounters();
    uint64_t xoff = 0;
    uint64_t pauseFrames = 0;
    for (uint32_t i = 0; i < senders; ++i)
    {
        xoff += c.xoffSent[i][3];
        pauseFrames += sw->GetPort(i)->GetCounters().pauseTx[3];
    }
    uint64_t drops = 0;
    for (auto d : c.drops)
    {
        drops += d;
    }
    uint64_t sent = 0;
    for (const auto& f : flows)
    {
        sent += f->GetSentBytes();
    }
    // The first packet's arrival opens the measurement window, so its bytes are not counted.
    double goodput =
        (sink->GetBytes() - 4096) * 8.0 / (sink->GetLast() - sink->GetFirst()).GetSeconds();
    std::cout << std::fixed << std::setprecision(2);
    std::cout << "switch-incast: " << senders << ":1 at " << rate << ", "
              << (lossless ? "lossless (PFC)" : "lossy") << ", " << packets
              << " x 4096 B per sender\n"
              << "  delivered " << sink->GetBytes() << " of " << sent << " B, dropped " << drops
              << " packets\n"
              << "  egress goodput " << goodput / 1e9 << " Gb/s (line rate x 4096/4134 = "
              << DataRate(rate).GetBitRate() * 4096.0 / 4134 / 1e9 << ")\n"
              << "  flow completion " << fctMin.GetSeconds() * 1e6 << " .. "
              << fctMax.GetSeconds() * 1e6 << " us\n"
              << "  PFC: " << xoff << " XOFF decisions, " << pauseFrames
              << " pause frames to senders; ECN CE marks " << c.ecnMarks[senders] << "\n"
              << "  peak buffer " << sw->GetMmu()->GetPeakBytesHeld() / 1e6 << " MB of "
              << (sw->GetMmu()->GetSharedPoolSize() / 1e6) << " MB shared pool\n"
              << "  wrote " << prefix << "-flows.csv, " << prefix << "-switch.csv ("
              << monitor.GetRows() << " rows)\n";
    Simulator::Destroy();
    return 0;
}
