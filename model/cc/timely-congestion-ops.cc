/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "timely-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimelyCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(TimelyCongestionOps);

TypeId
TimelyCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TimelyCongestionOps")
            .SetParent<FabricCongestionOps>()
            .SetGroupName("AiFabric")
            .AddConstructor<TimelyCongestionOps>()
            .AddAttribute("Alpha",
                          "EWMA weight of a new RTT difference, (0, 1] (paper 0.875).",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&TimelyCongestionOps::m_alpha),
                          MakeFabricPositiveDoubleChecker("ns3::TimelyCongestionOps::Alpha", 1.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor, (0, 1] (paper 0.8).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&TimelyCongestionOps::m_beta),
                          MakeFabricPositiveDoubleChecker("ns3::TimelyCongestionOps::Beta", 1.0))
            .AddAttribute("Delta",
                          "Additive increase step delta, > 0 (paper 10 Mb/s).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&TimelyCongestionOps::m_delta),
                          MakeFabricDataRateChecker("ns3::TimelyCongestionOps::Delta"))
            .AddAttribute("TLow",
                          "RTT below which the rate increases additively, >= 0 (paper 50 us).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&TimelyCongestionOps::m_tLow),
                          MakeFabricTimeChecker("ns3::TimelyCongestionOps::TLow", Time(0)))
            .AddAttribute("THigh",
                          "RTT above which the rate decreases by the RTT, > TLow (paper "
                          "500 us).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&TimelyCongestionOps::m_tHigh),
                          MakeFabricTimeChecker("ns3::TimelyCongestionOps::THigh", NanoSeconds(1)))
            .AddAttribute("MinRtt",
                          "RTT that normalizes the gradient, > 0 (paper 20 us).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&TimelyCongestionOps::m_minRtt),
                          MakeFabricTimeChecker("ns3::TimelyCongestionOps::MinRtt", NanoSeconds(1)))
            .AddAttribute(
                "HaiThreshold",
                "Consecutive completion events with gradient <= 0 before the "
                "hyperactive increase, >= 1 (paper 5).",
                UintegerValue(5),
                MakeUintegerAccessor(&TimelyCongestionOps::m_haiThreshold),
                MakeFabricUintegerChecker<uint32_t>("ns3::TimelyCongestionOps::HaiThreshold", 1))
            .AddAttribute(
                "HaiFactor",
                "N: hyperactive increase adds N x Delta, >= 1 (paper 5).",
                UintegerValue(5),
                MakeUintegerAccessor(&TimelyCongestionOps::m_haiFactor),
                MakeFabricUintegerChecker<uint32_t>("ns3::TimelyCongestionOps::HaiFactor", 1))
            .AddAttribute("MinRate",
                          "Rate floor, > 0 (not in the paper; 10 Mb/s, one Delta).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&TimelyCongestionOps::m_minRate),
                          MakeFabricDataRateChecker("ns3::TimelyCongestionOps::MinRate"))
            .AddTraceSource("Rtt",
                            "Each RTT sample.",
                            MakeTraceSourceAccessor(&TimelyCongestionOps::m_rtt),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("RttDiff",
                            "The EWMA of the RTT difference, seconds.",
                            MakeTraceSourceAccessor(&TimelyCongestionOps::m_rttDiff),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

TimelyCongestionOps::TimelyCongestionOps()
    : m_alpha(0.875),
      m_beta(0.8),
      m_delta(DataRate("10Mbps")),
      m_tLow(MicroSeconds(50)),
      m_tHigh(MicroSeconds(500)),
      m_minRtt(MicroSeconds(20)),
      m_haiThreshold(5),
      m_haiFactor(5),
      m_minRate(DataRate("10Mbps"))
{
}

TimelyCongestionOps::~TimelyCongestionOps() = default;

std::string
TimelyCongestionOps::GetName() const
{
    return "TIMELY";
}

Ptr<FabricCongestionOps>
TimelyCongestionOps::Fork() const
{
    return CopyObject<TimelyCongestionOps>(this);
}

bool
TimelyCongestionOps::WantsRttSamples() const
{
    return true;
}

void
TimelyCongestionOps::Init(Ptr<FabricCcState> state)
{
    FabricCongestionOps::Init(state);
    NS_ABORT_MSG_IF(m_tHigh <= m_tLow,
                    "TIMELY THigh " << m_tHigh.As(Time::US) << " must exceed TLow "
                                    << m_tLow.As(Time::US));
    NS_ABORT_MSG_IF(m_minRate > GetLineRate(),
                    "TIMELY MinRate " << m_minRate << " exceeds the line rate " << GetLineRate());
    m_havePrev = false;
    m_prevRtt = Time(0);
    m_rttDiff.Set(0);
    m_negCount = 0;
}

double
TimelyCongestionOps::GetRttDiff() const
{
    return m_rttDiff;
}

uint32_t
TimelyCongestionOps::GetNegativeGradientCount() const
{
    return m_negCount;
}

void
TimelyCongestionOps::OnAck(const FabricCcAckSample& sample)
{
    if (!sample.rtt.IsStrictlyPositive() || sample.nack)
    {
        return;
    }
    Time newRtt = sample.rtt;
    m_rtt.Set(newRtt);
    if (!m_havePrev)
    {
        m_havePrev = true;
        m_prevRtt = newRtt;
        return;
    }
    double newDiff = (newRtt - m_prevRtt).GetSeconds();
    m_prevRtt = newRtt;
    m_rttDiff.Set((1 - m_alpha) * m_rttDiff + m_alpha * newDiff);
    double gradient = m_rttDiff / m_minRtt.GetSeconds();
    double rate = double(GetRate().GetBitRate());
    double delta = double(m_delta.GetBitRate());
    if (gradient <= 0)
    {
        m_negCount++;
    }
    else
    {
        m_negCount = 0;
    }
    if (newRtt < m_tLow)
    {
        rate += delta;
    }
    else if (newRtt > m_tHigh)
    {
        rate *= 1 - m_beta * (1 - m_tHigh.GetSeconds() / newRtt.GetSeconds());
    }
    else if (gradient <= 0)
    {
        double n = m_negCount >= m_haiThreshold ? double(m_haiFactor) : 1.0;
        rate += n * delta;
    }
    else
    {
        // A gradient above 1 would make the factor negative for Beta 0.8 (the paper does not
        // bound it): the decrease is clipped at 1 - Beta (gradient 1).
        rate *= 1 - m_beta * std::min(gradient, 1.0);
    }
    rate = std::max(rate, double(m_minRate.GetBitRate()));
    rate = std::min(rate, double(GetLineRate().GetBitRate()));
    SetRate(DataRate(static_cast<uint64_t>(rate)));
}

} // namespace ns3
