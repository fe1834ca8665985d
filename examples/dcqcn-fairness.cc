/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * dcqcn-fairness: flows join and leave one bottleneck one by one under DCQCN.
 *
 *   sender 0 ──┐
 *      ...     ├── switch ── receiver        (all links --rate, 1 us)
 *   sender N-1─┘
 *
 * Flow i starts at i x --join and stops at (2N - 1 - i) x --join, so the number of active
 * flows steps 1, 2, ..., N, ..., 2, 1. Each flow keeps --message-byte WRITEs posted back to
 * back on its own QP. Every --sample the example records each flow's DCQCN rate and measured
 * goodput and the bottleneck queue, and writes
 *   <prefix>-rates.csv  time_us,flow,cc_rate_gbps,goodput_gbps,alpha
 *   <prefix>-queue.csv  time_us,queue_bytes,pfc_pauses,ecn_marks
 * and prints, for each phase, the mean goodput per flow against the fair share.
 *
 * --cc=dcqcn|none, --preset=firmware|paper; ECN thresholds are the WredEcnMarker defaults
 * (100 KB / 400 KB / 0.2 per 25 Gb/s, scaled with the port rate) unless overridden, e.g.
 * --ns3::WredEcnMarker::Kmin=50KB.
 */

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Keeps WRITEs posted on one QP between a start and a stop time.
class LongFlow
{
  public:
    LongFlow(Ptr<RoceQueuePair> qp, Ptr<RoceQueuePair> peer, uint64_t message)
        : m_qp(qp),
          m_peer(peer),
          m_message(message)
    {
    }

    void Start()
    {
        m_active = true;
        Post();
        Post(); // two outstanding keep the QP busy across completions
    }

    void Stop()
    {
        m_active = false;
    }

    Ptr<RoceQueuePair> Qp() const
    {
        return m_qp;
    }

    uint64_t ReceivedBytes() const
    {
        return m_peer->GetCounters().rxDataBytes;
    }

  private:
    void Post()
    {
        m_qp->PostWrite(m_message, 0, 1, MakeCallback(&LongFlow::OnDone, this));
    }

    void OnDone(const RoceWorkCompletion& wc)
    {
        if (m_active && wc.status == RoceWcStatus::SUCCESS)
        {
            Post();
        }
    }

    Ptr<RoceQueuePair> m_qp;
    Ptr<RoceQueuePair> m_peer;
    uint64_t m_message;
    bool m_active{false};
};

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);

    uint32_t flows = 4;
    std::string rate = "100Gbps";
    Time join = MilliSeconds(2);
    Time sample = MicroSeconds(50);
    uint64_t message = 1 << 20;
    std::string cc = "dcqcn";
    std::string preset = "firmware";
    std::string prefix = "dcqcn-fairness";

    FabricCommandLine cmd(__FILE__);
    cmd.AddValue("flows", "Number of flows (1..64)", flows, 1, 64);
    cmd.AddRate("rate", "Rate of every link", rate);
    cmd.AddValue("join", "Interval between flow arrivals (and departures)", join);
    cmd.AddValue("sample", "Sampling interval", sample);
    cmd.AddBytes("message", "WRITE size, bytes", message, 1, 0xFFFFFFFFull);
    cmd.AddValue("cc", "Congestion control: dcqcn or none", cc);
    cmd.AddValue("preset", "DCQCN preset: firmware or paper", preset);
    cmd.AddValue("prefix", "Output file prefix", prefix);
    // The preset goes in before the attribute settings: explicit --ns3::... values win.
    cmd.Parse(argc, argv, [&]() {
        DcqcnCongestionOps::ApplyExampleChoice(cc, preset, cmd.IsGiven("preset"));
    });
    FABRIC_INPUT_ERROR_IF(!sample.IsStrictlyPositive(),
                          "--sample=" << sample.As(Time::US)
                                      << " is invalid; the sampling interval must be > 0");
    FABRIC_INPUT_ERROR_IF(!join.IsStrictlyPositive(),
                          "--join=" << join.As(Time::US)
                                    << " is invalid; the interval between flow arrivals must be "
                                       "> 0");
    for (const char* suffix : {"-rates.csv", "-queue.csv"})
    {
        FabricCommandLine::CheckWritable(prefix + suffix, "--prefix=" + prefix);
    }

    StarTopologyHelper star;
    star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue(rate));
    star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    star.GetNicHelper().SetCongestionControl(cc);
    star.Install(flows + 1);
    star.AssignStreams(1);
    Ptr<FabricSwitch> sw = star.GetSwitch();

    std::vector<std::unique_ptr<LongFlow>> longFlows;
    for (uint32_t i = 0; i < flows; ++i)
    {
        auto qp = star.Connect(i, flows)[0];
        longFlows.push_back(std::make_unique<LongFlow>(qp.first, qp.second, message));
        Simulator::Schedule(join * i, &LongFlow::Start, longFlows.back().get());
        Simulator::Schedule(join * (2 * flows - 1 - i), &LongFlow::Stop, longFlows.back().get());
    }
    Time end = join * (2 * flows - 1);

    std::ofstream rates(prefix + "-rates.csv");
    std::ofstream queue(prefix + "-queue.csv");
    FABRIC_INPUT_ERROR_IF(!rates || !queue, "cannot write outputs with prefix " << prefix);
    rates << "time_us,flow,cc_rate_gbps,goodput_gbps,alpha\n";
    queue << "time_us,queue_bytes,pfc_pauses,ecn_marks\n";
    std::vector<uint64_t> last(flows, 0);
    // Per phase: sum of goodput samples per flow and number of samples.
    uint32_t phases = 2 * flows - 1;
    std::vector<std::vector<double>> phaseSum(phases, std::vector<double>(flows, 0.0));
    std::vector<uint32_t> phaseSamples(phases, 0);
    std::function<void()> sampler = [&]() {
        double tUs = Simulator::Now().GetSeconds() * 1e6;
        uint32_t phase = static_cast<uint32_t>(Simulator::Now().GetSeconds() / join.GetSeconds());
        // Skip the first half of each phase: that is convergence time, not steady state.
        bool steady = Simulator::Now() - join * phase >= join / 2 && phase < phases;
        for (uint32_t i = 0; i < flows; ++i)
        {
            uint64_t rx = longFlows[i]->ReceivedBytes();
            double gbps = (rx - last[i]) * 8.0 / sample.GetSeconds() / 1e9;
            last[i] = rx;
            Ptr<FabricCongestionOps> ops = longFlows[i]->Qp()->GetCongestionOps();
            Ptr<DcqcnCongestionOps> dcqcn = DynamicCast<DcqcnCongestionOps>(ops);
            rates << tUs << "," << i << "," << ops->GetRate().GetBitRate() / 1e9 << "," << gbps
                  << "," << (dcqcn ? dcqcn->GetAlpha() : 0.0) << "\n";
            if (steady)
            {
                phaseSum[phase][i] += gbps;
            }
        }
        phaseSamples[phase < phases ? phase : phases - 1] += steady;
        uint64_t pauses = 0;
        for (uint32_t i = 0; i < flows; ++i)
        {
            pauses += sw->GetPort(i)->GetCounters().pauseTx[3];
        }
        queue << tUs << "," << sw->GetMmu()->GetEgressBytes(flows, 3) << "," << pauses << ","
              << sw->GetCounters().ecnMarks[flows] << "\n";
        if (Simulator::Now() + sample <= end)
        {
            Simulator::Schedule(sample, sampler);
        }
    };
    Simulator::Schedule(sample, sampler);
    Simulator::Stop(end + MicroSeconds(100));
    Ptr<FabricProgressReporter> progress;
    if (!cmd.IsQuiet())
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName("dcqcn-fairness");
        progress->Watch(star.GetHealthMonitor());
    }
    Simulator::Run();
    star.GetHealthMonitor()->ReportEndOfRun(std::cerr); // stalls, lossless drops

    double line = DataRate(rate).GetBitRate() * 4096.0 / 4178 / 1e9;
    std::cout << std::fixed << std::setprecision(1) << "dcqcn-fairness: " << flows << " flows, "
              << rate << ", cc=" << cc << (cc == "dcqcn" ? " (" + preset + ")" : "")
              << "; goodput per flow in the second half of each phase (Gb/s)\n";
    for (uint32_t ph = 0; ph < phases; ++ph)
    {
        uint32_t active = ph < flows ? ph + 1 : 2 * flows - 1 - ph;
        std::cout << "  phase " << ph << " (" << active << " active, fair share " << line / active
                  << "):";
        for (uint32_t i = 0; i < flows; ++i)
        {
            std::cout << " " << (phaseSamples[ph] ? phaseSum[ph][i] / phaseSamples[ph] : 0.0);
        }
        std::cout << "\n";
    }
    uint64_t pauses = 0;
    for (uint32_t i = 0; i < flows; ++i)
    {
        pauses += sw->GetPort(i)->GetCounters().pauseTx[3];
    }
    std::cout << "  PFC pause frames " << pauses << ", ECN marks "
              << sw->GetCounters().ecnMarks[flows] << ", peak buffer "
              << sw->GetMmu()->GetPeakBytesHeld() / 1e3 << " KB\n"
              << "  wrote " << prefix << "-rates.csv, " << prefix << "-queue.csv\n";
    Simulator::Destroy();
    return 0;
}
