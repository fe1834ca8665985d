/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * dcqcn-incast: N:1 RDMA WRITE incast through one switch, with DCQCN or with CC off.
 *
 *   sender 0 ──┐
 *      ...     ├── switch ── receiver        (all links --rate, 1 us, PFC on priority 3)
 *   sender N-1─┘
 *
 * Every sender WRITEs --bytes to the receiver at the same time. With --cc=none only PFC
 * holds the switch buffer; with --cc=dcqcn the ECN marks turn into CNPs and the senders slow
 * down, so the switch should need far fewer pause frames. Prints and writes
 *   <prefix>-summary.csv  cc,senders,pfc_pauses,max_queue_bytes,ecn_marks,cnps,drops,
 *                         fct_min_us,fct_mean_us,fct_max_us
 *   <prefix>-queue.csv    time_us,queue_bytes,pfc_pauses
 * and with --trace-rates also, every --sample while a flow is left,
 *   <prefix>-rates.csv    time_us,flow,rate_gbps,mean_rate_gbps,target_gbps,alpha,goodput_gbps
 * (each sender's DCQCN rate Rc now and its time average over the last sample interval, from
 * the FabricCcState "Rate" trace; target rate Rt; alpha; goodput received in the interval;
 * rates in Gb/s on the wire, goodput in payload Gb/s), e.g. for tools/dcqcn/.
 * Run both: ./dcqcn-incast --cc=none --prefix=incast-none; ./dcqcn-incast --cc=dcqcn
 * --prefix=incast-dcqcn; then tools/plots/plot_dcqcn_incast.py incast-none incast-dcqcn.
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

/// Time average of one flow's DCQCN rate between samples, fed by the "Rate" trace source.
struct RateAverage
{
    Time lastChange;      //!< when the rate last changed (or the last sample)
    double bps = 0;       //!< the rate since lastChange, bits/s
    double bitsSoFar = 0; //!< integral of the rate since the last sample, bits

    /// The "Rate" trace: accumulate the old rate up to now.
    void OnRate(DataRate /* oldRate */, DataRate newRate)
    {
        Time now = Simulator::Now();
        bitsSoFar += bps * (now - lastChange).GetSeconds();
        lastChange = now;
        bps = static_cast<double>(newRate.GetBitRate());
    }

    /// \return the mean rate over the \p interval that ends now (bits/s); restarts the mean
    double Take(Time interval)
    {
        OnRate(DataRate(0), DataRate(static_cast<uint64_t>(bps)));
        double mean = bitsSoFar / interval.GetSeconds();
        bitsSoFar = 0;
        return mean;
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    uint32_t senders = 16;
    uint64_t bytes = 8 << 20;
    std::string rate = "400Gbps";
    std::string cc = "dcqcn";
    std::string preset = "firmware";
    std::string prefix = "dcqcn-incast";
    Time sample = MicroSeconds(5);
    bool traceRates = false;

    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("senders", "Number of senders (1..256)", senders, 1, 256);
    cmd.AddBytes("bytes", "WRITE size per sender, bytes", bytes, 1, 0xFFFFFFFFull);
    cmd.AddRate("rate", "Rate of every link", rate);
    cmd.AddValue("cc", "Congestion control: dcqcn or none", cc);
    cmd.AddValue("preset", "DCQCN preset: firmware or paper", preset);
    cmd.AddValue("prefix", "Output file prefix", prefix);
    cmd.AddValue("sample", "Queue sampling interval", sample);
    cmd.AddValue("trace-rates",
                 "Also write <prefix>-rates.csv: each sender's DCQCN rate, target rate, alpha "
                 "and goodput every --sample",
                 traceRates);
    // The preset goes in before the attribute settings: explicit --ns3::... values win.
    cmd.Parse(argc, argv, [&]() {
        DcqcnCongestionOps::ApplyExampleChoice(cc, preset, cmd.IsGiven("preset"));
    });
    FABRIC_INPUT_ERROR_IF(!sample.IsStrictlyPositive(),
                          "--sample=" << sample.As(Time::US)
                                      << " is invalid; the sampling interval must be > 0");
    for (const char* suffix : {"-queue.csv", "-summary.csv"})
    {
        FabricCommandLine::CheckWritable(prefix + suffix, "--prefix=" + prefix);
    }
    if (traceRates)
    {
        FabricCommandLine::CheckWritable(prefix + "-rates.csv", "--prefix=" + prefix);
    }

    StarTopologyHelper star;
    star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue(rate));
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.GetNicHelper().SetCongestionControl(cc);
    star.Install(senders + 1);
    star.AssignStreams(1);
    Ptr<FabricSwitch> sw = star.GetSwitch();

    std::vector<Time> fct;
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> qps;
    for (uint32_t i = 0; i < senders; ++i)
    {
        auto qp = star.Connect(i, senders)[0];
        qps.push_back(qp);
        qp.first->PostWrite(bytes,
                            0,
                            1,
                            MakeCallback(+[](std::vector<Time>* v, const RoceWorkCompletion& wc) {
                                NS_ABORT_MSG_IF(wc.status != RoceWcStatus::SUCCESS,
                                                "WRITE failed: " << RoceWcStatusName(wc.status));
                                v->push_back(wc.endTime - wc.postTime);
                            }).Bind(&fct));
    }

    std::vector<RateAverage> averages(senders);
    std::vector<uint64_t> lastRx(senders, 0);
    std::ofstream rates;
    if (traceRates)
    {
        rates.open(prefix + "-rates.csv");
        FABRIC_INPUT_ERROR_IF(!rates, "cannot write " << prefix << "-rates.csv");
        rates << "time_us,flow,rate_gbps,mean_rate_gbps,target_gbps,alpha,goodput_gbps\n";
        for (uint32_t i = 0; i < senders; ++i)
        {
            Ptr<FabricCcState> state = qps[i].first->GetCcState();
            averages[i].bps = static_cast<double>(state->GetRate().GetBitRate());
            state->TraceConnectWithoutContext("Rate",
                                              MakeCallback(&RateAverage::OnRate, &averages[i]));
        }
    }
    auto writeRates = [&]() {
        double tUs = Simulator::Now().GetSeconds() * 1e6;
        for (uint32_t i = 0; i < senders; ++i)
        {
            Ptr<FabricCcState> state = qps[i].first->GetCcState();
            Ptr<DcqcnCongestionOps> dcqcn =
                DynamicCast<DcqcnCongestionOps>(qps[i].first->GetCongestionOps());
            uint64_t rx = qps[i].second->GetCounters().rxDataBytes;
            rates << tUs << "," << i << "," << state->GetRate().GetBitRate() / 1e9 << ","
                  << averages[i].Take(sample) / 1e9 << ","
                  << state->GetTargetRate().GetBitRate() / 1e9 << ","
                  << (dcqcn ? dcqcn->GetAlpha() : 0.0) << ","
                  << (rx - lastRx[i]) * 8.0 / sample.GetSeconds() / 1e9 << "\n";
            lastRx[i] = rx;
        }
    };

    std::ofstream queue(prefix + "-queue.csv");
    FABRIC_INPUT_ERROR_IF(!queue, "cannot write " << prefix << "-queue.csv");
    queue << "time_us,queue_bytes,pfc_pauses\n";
    uint64_t maxQueue = 0;
    auto pausesNow = [&]() {
        uint64_t p = 0;
        for (uint32_t i = 0; i < senders; ++i)
        {
            p += sw->GetPort(i)->GetCounters().pauseTx[3];
        }
        return p;
    };
    std::function<void()> sampler = [&]() {
        uint64_t q = sw->GetMmu()->GetEgressBytes(senders, 3);
        maxQueue = std::max(maxQueue, q);
        queue << Simulator::Now().GetSeconds() * 1e6 << "," << q << "," << pausesNow() << "\n";
        if (traceRates)
        {
            writeRates();
        }
        if (fct.size() < senders)
        {
            Simulator::Schedule(sample, sampler);
        }
    };
    Simulator::Schedule(sample, sampler);
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet())
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("dcqcn-incast");
        progress->Watch(star.GetHealthMonitor());
    }
    Simulator::Run();
    star.GetHealthMonitor()->ReportEndOfRun(std::cerr); // stalls, lossless drops

    uint64_t cnps = 0;
    for (auto& [a, b] : qps)
    {
        cnps += b->GetCounters().cnpsTx;
    }
    uint64_t drops = 0;
    for (auto d : sw->GetCounters().drops)
    {
        drops += d;
    }
    double fmin = 1e300;
    double fmax = 0;
    double fsum = 0;
    for (Time t : fct)
    {
        double us = t.GetSeconds() * 1e6;
        fmin = std::min(fmin, us);
        fmax = std::max(fmax, us);
        fsum += us;
    }
    std::ofstream summary(prefix + "-summary.csv");
    FABRIC_INPUT_ERROR_IF(!summary, "cannot write " << prefix << "-summary.csv");
    summary << "cc,senders,pfc_pauses,max_queue_bytes,ecn_marks,cnps,drops,fct_min_us,fct_mean_us,"
               "fct_max_us\n"
            << cc << "," << senders << "," << pausesNow() << "," << maxQueue << ","
            << sw->GetCounters().ecnMarks[senders] << "," << cnps << "," << drops << "," << fmin
            << "," << fsum / senders << "," << fmax << "\n";
    double ideal = double(senders) * bytes * 8 / DataRate(rate).GetBitRate() * 4178 / 4096 * 1e6;
    std::cout << std::fixed << std::setprecision(1) << "dcqcn-incast: " << senders << ":1, "
              << bytes << " B each at " << rate << ", cc=" << cc
              << (cc == "dcqcn" ? " (" + preset + ")" : "") << "\n"
              << "  PFC pause frames " << pausesNow() << ", max egress queue " << maxQueue / 1e3
              << " KB, ECN marks " << sw->GetCounters().ecnMarks[senders] << ", CNPs " << cnps
              << ", drops " << drops << "\n"
              << "  FCT min/mean/max " << fmin << " / " << fsum / senders << " / " << fmax
              << " us (all bytes through one port at line rate: " << ideal << " us)\n"
              << "  wrote " << prefix << "-summary.csv, " << prefix << "-queue.csv"
              << (traceRates ? ", " + prefix + "-rates.csv" : "") << "\n";
    Simulator::Destroy();
    return 0;
}
