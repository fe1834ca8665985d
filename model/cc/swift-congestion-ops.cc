/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "swift-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwiftCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(SwiftCongestionOps);

TypeId
SwiftCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwiftCongestionOps")
            .SetParent<FabricCongestionOps>()
            .SetGroupName("AiFabric")
            .AddConstructor<SwiftCongestionOps>()
            .AddAttribute("Ai",
                          "Additive increment, packets per RTT, > 0 (paper 1).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SwiftCongestionOps::m_ai),
                          MakeFabricPositiveDoubleChecker("ns3::SwiftCongestionOps::Ai"))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor, (0, 1] (paper 0.8).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&SwiftCongestionOps::m_beta),
                          MakeFabricPositiveDoubleChecker("ns3::SwiftCongestionOps::Beta", 1.0))
            .AddAttribute("MaxMdf",
                          "Largest multiplicative decrease per step, (0, 1] (paper 0.5).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&SwiftCongestionOps::m_maxMdf),
                          MakeFabricPositiveDoubleChecker("ns3::SwiftCongestionOps::MaxMdf", 1.0))
            .AddAttribute(
                "BaseTarget",
                "Base target delay, > 0 (deployment-specific in the paper; 10 us).",
                TimeValue(MicroSeconds(10)),
                MakeTimeAccessor(&SwiftCongestionOps::m_baseTarget),
                MakeFabricTimeChecker("ns3::SwiftCongestionOps::BaseTarget", NanoSeconds(1)))
            .AddAttribute("PerHopScaling",
                          "Target delay added per switch hop, >= 0 (1 us).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&SwiftCongestionOps::m_hopScale),
                          MakeFabricTimeChecker("ns3::SwiftCongestionOps::PerHopScaling", Time(0)))
            .AddAttribute("FsRange",
                          "Flow scaling: the most target delay added for small windows, >= 0 "
                          "(0 = no flow scaling; 5 us).",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&SwiftCongestionOps::m_fsRange),
                          MakeFabricTimeChecker("ns3::SwiftCongestionOps::FsRange", Time(0)))
            .AddAttribute("FsMinCwnd",
                          "Flow scaling: at this window (packets) and below the whole FsRange "
                          "is added, > 0 (paper 0.1).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&SwiftCongestionOps::m_fsMinCwnd),
                          MakeFabricPositiveDoubleChecker("ns3::SwiftCongestionOps::FsMinCwnd"))
            .AddAttribute("FsMaxCwnd",
                          "Flow scaling: at this window (packets) and above nothing is added, "
                          "> FsMinCwnd (paper 100).",
                          DoubleValue(100.0),
                          MakeDoubleAccessor(&SwiftCongestionOps::m_fsMaxCwnd),
                          MakeFabricPositiveDoubleChecker("ns3::SwiftCongestionOps::FsMaxCwnd"))
            .AddAttribute("MinCwnd",
                          "Smallest window, packets, > 0 (paper 0.001: one packet per 1000 "
                          "RTTs).",
                          DoubleValue(0.001),
                          MakeDoubleAccessor(&SwiftCongestionOps::m_minCwnd),
                          MakeFabricPositiveDoubleChecker("ns3::SwiftCongestionOps::MinCwnd"))
            .AddAttribute("MaxCwnd",
                          "Largest window, packets, >= MinCwnd; 0 = no limit.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&SwiftCongestionOps::m_maxCwnd),
                          MakeFabricDoubleChecker("ns3::SwiftCongestionOps::MaxCwnd", 0.0))
            .AddAttribute("InitialCwnd",
                          "Window of a new flow, packets; 0 = one bandwidth-delay product "
                          "(line rate x the path RTT, or x BaseRtt if the transport knows "
                          "none).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&SwiftCongestionOps::m_initialCwnd),
                          MakeFabricDoubleChecker("ns3::SwiftCongestionOps::InitialCwnd", 0.0))
            .AddAttribute("BaseRtt",
                          "RTT for the initial window and for pacing before the first sample "
                          "when the transport reports no path RTT, > 0.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&SwiftCongestionOps::m_baseRtt),
                          MakeFabricTimeChecker("ns3::SwiftCongestionOps::BaseRtt", NanoSeconds(1)))
            .AddAttribute(
                "RetxResetThreshold",
                "Consecutive timeouts after which the window drops to MinCwnd, >= 1 "
                "(paper 5).",
                UintegerValue(5),
                MakeUintegerAccessor(&SwiftCongestionOps::m_retxReset),
                MakeFabricUintegerChecker<uint32_t>("ns3::SwiftCongestionOps::RetxResetThreshold",
                                                    1))
            .AddTraceSource("Cwnd",
                            "The window, packets.",
                            MakeTraceSourceAccessor(&SwiftCongestionOps::m_cwnd),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetDelay",
                            "The target delay of the last ACK.",
                            MakeTraceSourceAccessor(&SwiftCongestionOps::m_target),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("Rtt",
                            "Each RTT sample.",
                            MakeTraceSourceAccessor(&SwiftCongestionOps::m_rtt),
                            "ns3::TracedValueCallback::Time");
    return tid;
}

SwiftCongestionOps::SwiftCongestionOps()
    : m_ai(1.0),
      m_beta(0.8),
      m_maxMdf(0.5),
      m_baseTarget(MicroSeconds(10)),
      m_hopScale(MicroSeconds(1)),
      m_fsRange(MicroSeconds(5)),
      m_fsMinCwnd(0.1),
      m_fsMaxCwnd(100.0),
      m_minCwnd(0.001),
      m_maxCwnd(0.0),
      m_initialCwnd(0.0),
      m_baseRtt(MicroSeconds(10)),
      m_retxReset(5)
{
}

SwiftCongestionOps::~SwiftCongestionOps() = default;

std::string
SwiftCongestionOps::GetName() const
{
    return "Swift";
}

Ptr<FabricCongestionOps>
SwiftCongestionOps::Fork() const
{
    return CopyObject<SwiftCongestionOps>(this);
}

bool
SwiftCongestionOps::WantsRttSamples() const
{
    return true;
}

void
SwiftCongestionOps::Init(Ptr<FabricCcState> state)
{
    FabricCongestionOps::Init(state);
    NS_ABORT_MSG_IF(m_fsMaxCwnd <= m_fsMinCwnd,
                    "Swift FsMaxCwnd " << m_fsMaxCwnd << " must exceed FsMinCwnd " << m_fsMinCwnd);
    NS_ABORT_MSG_IF(m_maxCwnd > 0 && m_maxCwnd < m_minCwnd,
                    "Swift MaxCwnd " << m_maxCwnd << " is below MinCwnd " << m_minCwnd
                                     << "; it must be 0 (none) or >= MinCwnd");
    Time rtt = m_state->GetPathRtt().IsStrictlyPositive() ? m_state->GetPathRtt() : m_baseRtt;
    m_rtt.Set(rtt);
    double cwnd = m_initialCwnd;
    if (cwnd == 0)
    {
        // bits/s x ps / 8e12 (long double: exact for any realistic rate and RTT) / Mss
        cwnd = double((long double)(GetLineRate().GetBitRate()) *
                      (long double)(rtt.GetPicoSeconds()) / 8e12L) /
               double(m_state->GetMssOrDefault());
    }
    m_cwnd.Set(cwnd);
    m_decreasedEver = false;
    m_retxCount = 0;
    m_hops = 0;
    Apply();
}

double
SwiftCongestionOps::GetCwnd() const
{
    return m_cwnd;
}

uint32_t
SwiftCongestionOps::GetHopCount() const
{
    return m_hops;
}

Time
SwiftCongestionOps::GetTargetDelay(double cwnd, uint32_t hops) const
{
    double fs = 0;
    if (m_fsRange.IsStrictlyPositive())
    {
        double range = m_fsRange.GetSeconds();
        double a = range / (1 / std::sqrt(m_fsMinCwnd) - 1 / std::sqrt(m_fsMaxCwnd));
        double b = -a / std::sqrt(m_fsMaxCwnd);
        fs = std::clamp(a / std::sqrt(cwnd) + b, 0.0, range);
    }
    return m_baseTarget + m_hopScale * int64_t(hops) + Seconds(fs);
}

void
SwiftCongestionOps::Apply()
{
    double cwnd = std::max(double(m_cwnd), m_minCwnd);
    if (m_maxCwnd > 0)
    {
        cwnd = std::min(cwnd, m_maxCwnd);
    }
    m_cwnd.Set(cwnd);
    double mss = double(m_state->GetMssOrDefault());
    if (cwnd >= 1)
    {
        SetWindow(static_cast<uint64_t>(cwnd * mss));
        SetRate(GetLineRate());
    }
    else
    {
        // Below one packet: one packet in flight, sent every RTT / cwnd.
        SetWindow(static_cast<uint64_t>(mss));
        double bps = cwnd * mss * 8 / Time(m_rtt).GetSeconds();
        SetRate(DataRate(static_cast<uint64_t>(std::max(bps, 1.0))));
    }
}

void
SwiftCongestionOps::Decrease(double factor)
{
    Time now = Simulator::Now();
    if (m_decreasedEver && now - m_lastDecrease < Time(m_rtt))
    {
        return;
    }
    m_decreasedEver = true;
    m_lastDecrease = now;
    m_cwnd.Set(m_cwnd * factor);
    Apply();
}

void
SwiftCongestionOps::OnAck(const FabricCcAckSample& sample)
{
    if (sample.nack)
    {
        Decrease(1 - m_maxMdf);
        return;
    }
    if (!sample.rtt.IsStrictlyPositive())
    {
        return;
    }
    m_retxCount = 0;
    m_rtt.Set(sample.rtt);
    if (sample.hopCount > 0)
    {
        m_hops = sample.hopCount;
    }
    Time target = GetTargetDelay(m_cwnd, m_hops);
    m_target.Set(target);
    double delay = sample.rtt.GetSeconds();
    if (sample.rtt < target)
    {
        double acked = double(sample.ackedBytes) / double(m_state->GetMssOrDefault());
        if (m_cwnd >= 1)
        {
            m_cwnd.Set(m_cwnd + m_ai * acked / m_cwnd);
        }
        else
        {
            m_cwnd.Set(m_cwnd + m_ai * acked);
        }
        Apply();
    }
    else
    {
        double md = 1 - m_beta * (delay - target.GetSeconds()) / delay;
        Decrease(std::max(md, 1 - m_maxMdf));
    }
}

void
SwiftCongestionOps::OnEvent(FabricCcEvent event)
{
    if (event == FabricCcEvent::NACK)
    {
        Decrease(1 - m_maxMdf);
    }
    else if (event == FabricCcEvent::TIMEOUT)
    {
        if (++m_retxCount >= m_retxReset)
        {
            m_cwnd.Set(m_minCwnd);
            Apply();
        }
        else
        {
            Decrease(1 - m_maxMdf);
        }
    }
}

} // namespace ns3
