/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * pfc-link: one 400 Gb/s PFC link, two traffic classes, receiver-driven pauses.
 *
 *   sender ==== 400G, 1 us ==== receiver
 *
 * The sender keeps priority 3 (DSCP 26, lossless RoCE class) and priority 0 (DSCP 0) backlogged
 * with 4096-byte payloads under DWRR (equal weights). The receiver holds priority 3 in XOFF
 * between --xoff-start and --xoff-end (as a congested switch MMU would), so PFC frames pause
 * the sender's priority 3 while priority 0 takes the whole link. It prints per-priority
 * throughput and PFC counters and writes a CSV time series of received bytes per priority.
 *
 * Run: ./build/examples/pfc-link --duration=200us --csv=pfc-link.csv [--pcap]
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/network-module.h"
#include "ns3/udp-header.h"

#include <fstream>
#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("PfcLinkExample");

namespace
{

/// Keeps a number of frames queued per priority on a device, refilling on every dequeue.
class BackloggedSource
{
  public:
    BackloggedSource(Ptr<PfcNetDevice> dev, Address dst, uint32_t payload)
        : m_dev(dev),
          m_dst(dst),
          m_payload(payload)
    {
        m_dev->SetDequeueCallback(MakeCallback(&BackloggedSource::OnDequeue, this));
    }

    /// Start keeping \p depth frames of \p dscp queued.
    void Start(uint8_t dscp, uint32_t depth)
    {
        for (uint32_t i = 0; i < depth; ++i)
        {
            SendOne(dscp);
        }
        m_dscpOf[m_dev->GetDscpPriority(dscp)] = dscp;
        m_active |= static_cast<uint8_t>(1u << m_dev->GetDscpPriority(dscp));
    }

    void Stop()
    {
        m_active = 0;
    }

  private:
    void OnDequeue(const Ptr<PfcNetDevice>&, uint8_t priority, const Ptr<const Packet>&)
    {
        if ((m_active >> priority) & 1u)
        {
            SendOne(m_dscpOf[priority]);
        }
    }

    void SendOne(uint8_t dscp)
    {
        Ptr<Packet> p = Create<Packet>(m_payload - 8);
        UdpHeader udp;
        udp.SetSourcePort(49152 + dscp);
        udp.SetDestinationPort(9); // discard
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.1"));
        ip.SetDestination(Ipv4Address("10.0.0.2"));
        ip.SetProtocol(17);
        ip.SetTtl(64);
        ip.SetPayloadSize(m_payload);
        ip.SetDscp(static_cast<Ipv4Header::DscpType>(dscp));
        p->AddHeader(ip);
        m_dev->Send(p, m_dst, 0x0800);
    }

    Ptr<PfcNetDevice> m_dev;
    Address m_dst;
    uint32_t m_payload;
    uint8_t m_active{0};
    uint8_t m_dscpOf[8]{};
};

/// Counts received bytes per priority and writes periodic samples.
class RxMonitor
{
  public:
    RxMonitor(Ptr<PfcNetDevice> dev, std::ostream* csv)
        : m_csv(csv)
    {
        dev->SetPfcReceiveCallback(MakeCallback(&RxMonitor::OnRx, this));
        if (m_csv)
        {
            *m_csv << "time_us,priority,rx_bytes,throughput_gbps\n";
        }
    }

    void Sample(Time interval)
    {
        for (uint8_t p = 0; p < 8; ++p)
        {
            if (m_bytes[p] == 0)
            {
                continue;
            }
            double gbps = (m_bytes[p] - m_last[p]) * 8.0 / interval.GetSeconds() / 1e9;
            if (m_csv)
            {
                *m_csv << Simulator::Now().GetMicroSeconds() << "," << unsigned(p) << ","
                       << m_bytes[p] << "," << gbps << "\n";
            }
            m_last[p] = m_bytes[p];
        }
        Simulator::Schedule(interval, &RxMonitor::Sample, this, interval);
    }

    uint64_t Bytes(uint8_t p) const
    {
        return m_bytes[p];
    }

  private:
    void OnRx(Ptr<PfcNetDevice>, Ptr<Packet> p, uint16_t, Mac48Address, uint8_t priority)
    {
        m_bytes[priority] += p->GetSize();
    }

    std::ostream* m_csv;
    uint64_t m_bytes[8]{};
    uint64_t m_last[8]{};
};

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    std::string rate = "400Gbps";
    Time delay = MicroSeconds(1);
    Time duration = MicroSeconds(200);
    Time xoffStart = MicroSeconds(50);
    Time xoffEnd = MicroSeconds(150);
    uint32_t payload = 4096;
    std::string csvPath = "pfc-link.csv";
    bool pcap = false;

    FabricCommandLine cmd(__FILE__);
    cmd.AddRate("rate", "Link rate", rate);
    cmd.AddValue("delay", "Cable propagation delay", delay);
    cmd.AddValue("duration", "Simulated time", duration);
    cmd.AddValue("xoff-start", "When the receiver asserts XOFF on priority 3", xoffStart);
    cmd.AddValue("xoff-end", "When the receiver sends XON on priority 3", xoffEnd);
    cmd.AddValue("payload",
                 "IPv4 payload bytes per frame (UDP header + data, 8..8980)",
                 payload,
                 8,
                 8980);
    cmd.AddOutput("csv", "Output CSV of received bytes per priority (empty = none)", csvPath);
    cmd.AddValue("pcap", "Write pfc-link-<node>-<dev>.pcap (promiscuous, includes PFC)", pcap);
    cmd.Parse(argc, argv);
    FABRIC_INPUT_ERROR_IF(!duration.IsStrictlyPositive(),
                          "--duration=" << duration.As(Time::US) << " is invalid; it must be > 0");
    FABRIC_INPUT_ERROR_IF(delay.IsNegative(),
                          "--delay=" << delay.As(Time::US) << " is invalid; it must be >= 0");
    FABRIC_INPUT_ERROR_IF(xoffStart.IsNegative(),
                          "--xoff-start=" << xoffStart.As(Time::US)
                                          << " is invalid; it must be >= 0");
    FABRIC_INPUT_ERROR_IF(xoffEnd < xoffStart,
                          "--xoff-end=" << xoffEnd.As(Time::US)
                                        << " is before --xoff-start=" << xoffStart.As(Time::US)
                                        << "; valid is xoff-start <= xoff-end");
    FABRIC_INPUT_ERROR_IF(xoffStart >= duration,
                          "--xoff-start=" << xoffStart.As(Time::US)
                                          << " is not before --duration=" << duration.As(Time::US)
                                          << ": the pause would never happen; valid is "
                                             "xoff-start < duration");
    FABRIC_INPUT_ERROR_IF(xoffEnd > duration,
                          "--xoff-end=" << xoffEnd.As(Time::US)
                                        << " is after --duration=" << duration.As(Time::US)
                                        << ": the XON would never be sent; valid is xoff-end <= "
                                           "duration");
    if (pcap)
    {
        FabricCommandLine::CheckWritable("pfc-link-0-0.pcap", "--pcap (pfc-link-*.pcap)");
    }

    NodeContainer nodes(2);
    PfcHelper pfc;
    pfc.SetDeviceAttribute("DataRate", StringValue(rate));
    pfc.SetChannelAttribute("Delay", TimeValue(delay));
    pfc.SetTxScheduler("ns3::PfcDwrrScheduler");
    NetDeviceContainer devs = pfc.Install(nodes);
    Ptr<PfcNetDevice> tx = DynamicCast<PfcNetDevice>(devs.Get(0));
    Ptr<PfcNetDevice> rx = DynamicCast<PfcNetDevice>(devs.Get(1));
    if (pcap)
    {
        pfc.EnablePcapAll("pfc-link", true);
    }

    std::ofstream csvFile;
    if (!csvPath.empty())
    {
        csvFile.open(csvPath);
        FABRIC_INPUT_ERROR_IF(!csvFile, "--csv=" << csvPath << ": cannot write the file");
    }
    RxMonitor monitor(rx, csvPath.empty() ? nullptr : &csvFile);
    BackloggedSource source(tx, rx->GetAddress(), payload);
    source.Start(26, 4); // RoCE data class, priority 3
    source.Start(0, 4);  // best effort, priority 0

    Simulator::Schedule(xoffStart, &PfcNetDevice::SetXoff, rx, 3, true);
    Simulator::Schedule(xoffEnd, &PfcNetDevice::SetXoff, rx, 3, false);
    Simulator::Schedule(MicroSeconds(1), &RxMonitor::Sample, &monitor, MicroSeconds(1));
    Simulator::Stop(duration);
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet())
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("pfc-link");
        progress->RunUntil(duration);
    }
    Simulator::Run();

    const PfcPortCounters& tc = tx->GetCounters();
    const PfcPortCounters& rc = rx->GetCounters();
    std::cout << "pfc-link: " << rate << ", " << duration.As(Time::US) << " simulated\n";
    for (uint8_t p : {uint8_t(0), uint8_t(3)})
    {
        std::cout << "  priority " << unsigned(p) << ": received " << monitor.Bytes(p) << " B, "
                  << monitor.Bytes(p) * 8.0 / duration.GetSeconds() / 1e9
                  << " Gb/s average, paused " << tc.pausedTime[p].As(Time::US) << "\n";
    }
    std::cout << "  PFC frames sent by receiver: XOFF " << rc.pauseTx[3] << ", XON " << rc.xonTx[3]
              << "; received by sender: XOFF " << tc.pauseRx[3] << ", XON " << tc.xonRx[3] << "\n";
    Simulator::Destroy();
    return 0;
}
