/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(HpccCongestionOps);

TypeId
HpccCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HpccCongestionOps")
            .SetParent<FabricCongestionOps>()
            .SetGroupName("AiFabric")
            .AddConstructor<HpccCongestionOps>()
            .AddAttribute("Eta",
                          "Target utilization eta, (0, 1] (paper 0.95).",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&HpccCongestionOps::m_eta),
                          MakeFabricPositiveDoubleChecker("ns3::HpccCongestionOps::Eta", 1.0))
            .AddAttribute(
                "MaxStage",
                "Additive-increase steps (one per RTT) before a multiplicative "
                "adjustment towards Eta, 0..1000 (paper 5).",
                UintegerValue(5),
                MakeUintegerAccessor(&HpccCongestionOps::m_maxStage),
                MakeFabricUintegerChecker<uint32_t>("ns3::HpccCongestionOps::MaxStage", 0, 1000))
            .AddAttribute(
                "AdditiveIncrease",
                "Additive increment W_AI, bytes, 0..2^30; 0 = (1 - Eta) x BDP / ExpectedFlows "
                "(paper section 3.3). Default 80 B: the HPCC authors' simulator setting at "
                "100 Gb/s.",
                UintegerValue(80),
                MakeUintegerAccessor(&HpccCongestionOps::m_wai),
                MakeFabricUintegerChecker<uint64_t>("ns3::HpccCongestionOps::AdditiveIncrease",
                                                    0,
                                                    uint64_t(1) << 30))
            .AddAttribute(
                "ExpectedFlows",
                "Expected concurrent flows N on a bottleneck, for the derived W_AI "
                "(AdditiveIncrease 0), 1..1000000.",
                UintegerValue(64),
                MakeUintegerAccessor(&HpccCongestionOps::m_nFlows),
                MakeFabricUintegerChecker<uint32_t>("ns3::HpccCongestionOps::ExpectedFlows",
                                                    1,
                                                    1000000))
            .AddAttribute("BaseRtt",
                          "Base RTT T when the transport reports no path RTT, 1 ns..1 s "
                          "(10 us).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&HpccCongestionOps::m_baseRttAttr),
                          MakeFabricTimeChecker("ns3::HpccCongestionOps::BaseRtt",
                                                NanoSeconds(1),
                                                Seconds(1)))
            .AddAttribute("MinWindow",
                          "Smallest window, bytes, 1..2^30 (and at most one BDP; 64 B).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&HpccCongestionOps::m_minWindow),
                          MakeFabricUintegerChecker<uint64_t>("ns3::HpccCongestionOps::MinWindow",
                                                              1,
                                                              uint64_t(1) << 30))
            .AddAttribute(
                "InitialWindow",
                "Window of a new flow, bytes; 0 = one BDP (line rate x T). "
                "0..2^40, clamped to [MinWindow, BDP].",
                UintegerValue(0),
                MakeUintegerAccessor(&HpccCongestionOps::m_initWindow),
                MakeFabricUintegerChecker<uint64_t>("ns3::HpccCongestionOps::InitialWindow",
                                                    0,
                                                    uint64_t(1) << 40))
            .AddTraceSource("Window",
                            "The window W, bytes.",
                            MakeTraceSourceAccessor(&HpccCongestionOps::m_w),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("ReferenceWindow",
                            "The reference window Wc, bytes.",
                            MakeTraceSourceAccessor(&HpccCongestionOps::m_wc),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("Utilization",
                            "The normalized inflight bytes U (EWMA over the base RTT).",
                            MakeTraceSourceAccessor(&HpccCongestionOps::m_u),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

HpccCongestionOps::HpccCongestionOps()
    : m_eta(0.95),
      m_maxStage(5),
      m_wai(80),
      m_nFlows(64),
      m_baseRttAttr(MicroSeconds(10)),
      m_minWindow(64),
      m_initWindow(0)
{
}

HpccCongestionOps::~HpccCongestionOps() = default;

std::string
HpccCongestionOps::GetName() const
{
    return "HPCC";
}

Ptr<FabricCongestionOps>
HpccCongestionOps::Fork() const
{
    return CopyObject<HpccCongestionOps>(this);
}

void
HpccCongestionOps::Init(Ptr<FabricCcState> state)
{
    FabricCongestionOps::Init(state);
    m_t = m_state->GetPathRtt().IsStrictlyPositive() ? m_state->GetPathRtt() : m_baseRttAttr;
    // bits/s x ps / 8e12 (long double: exact for any realistic rate and RTT)
    m_maxW = double((long double)(GetLineRate().GetBitRate()) *
                    (long double)(m_t.GetPicoSeconds()) / 8e12L);
    NS_ABORT_MSG_IF(double(m_minWindow) > m_maxW,
                    "HPCC MinWindow " << m_minWindow << " B exceeds one BDP (" << m_maxW
                                      << " B = line rate x base RTT " << m_t.As(Time::US)
                                      << "); valid range 1.." << uint64_t(m_maxW));
    m_waiBytes = m_wai > 0 ? double(m_wai) : (1 - m_eta) * m_maxW / double(m_nFlows);
    double w = m_initWindow > 0 ? double(m_initWindow) : m_maxW;
    m_w.Set(std::clamp(w, double(m_minWindow), m_maxW));
    m_wc.Set(m_w);
    m_u.Set(0);
    m_incStage = 0;
    m_sentBytes = 0;
    m_ackedBytes = 0;
    m_lastUpdateSeq = 0;
    m_lastHops = 0;
    Apply();
}

double
HpccCongestionOps::GetW() const
{
    return m_w;
}

double
HpccCongestionOps::GetWc() const
{
    return m_wc;
}

double
HpccCongestionOps::GetU() const
{
    return m_u;
}

uint32_t
HpccCongestionOps::GetIncStage() const
{
    return m_incStage;
}

Time
HpccCongestionOps::GetBaseRtt() const
{
    return m_t;
}

double
HpccCongestionOps::GetAdditiveIncrease() const
{
    return m_waiBytes;
}

uint32_t
HpccCongestionOps::GetNHops() const
{
    return m_lastHops;
}

void
HpccCongestionOps::OnBytesSent(uint32_t bytes)
{
    m_sentBytes += bytes;
}

void
HpccCongestionOps::MeasureInflight(const FabricCcAckSample& sample)
{
    const double t = m_t.GetSeconds();
    double u = 0;
    double tau = 0;
    bool any = false;
    for (uint32_t i = 0; i < sample.nHops; ++i)
    {
        const FabricCcHopTelemetry& now = sample.hops[i];
        const FabricCcHopTelemetry& prev = m_last[i];
        double dt = (now.timestamp - prev.timestamp).GetSeconds();
        double b = double(now.linkRate.GetBitRate());
        if (dt <= 0 || b <= 0)
        {
            continue; // no interval at this hop (same packet's telemetry, or no rate)
        }
        double txRate = double(now.txBytes - prev.txBytes) * 8 / dt; // bits/s
        double qlen = double(std::min(now.queueBytes, prev.queueBytes));
        double ui = qlen * 8 / (b * t) + txRate / b;
        if (!any || ui > u)
        {
            u = ui;
            tau = dt;
            any = true;
        }
    }
    if (!any)
    {
        return;
    }
    tau = std::min(tau, t);
    m_u.Set((1 - tau / t) * m_u + (tau / t) * u);
}

void
HpccCongestionOps::ComputeWind(bool updateWc)
{
    double w;
    if (m_u >= m_eta || m_incStage >= m_maxStage)
    {
        // U = 0 (an idle path) would divide by zero: the window then grows to its maximum.
        double u = std::max(double(m_u), 1e-12);
        w = m_wc / (u / m_eta) + m_waiBytes;
        w = std::clamp(w, double(m_minWindow), m_maxW);
        if (updateWc)
        {
            m_incStage = 0;
            m_wc.Set(w);
        }
    }
    else
    {
        w = std::clamp(double(m_wc) + m_waiBytes, double(m_minWindow), m_maxW);
        if (updateWc)
        {
            m_incStage++;
            m_wc.Set(w);
        }
    }
    m_w.Set(w);
    Apply();
}

void
HpccCongestionOps::Apply()
{
    SetWindow(static_cast<uint64_t>(std::llround(double(m_w))));
    double bps = double(m_w) * 8 / m_t.GetSeconds();
    DataRate rate(static_cast<uint64_t>(std::max(std::llround(bps), 1LL)));
    SetRate(rate);
    m_state->SetTargetRate(rate);
}

void
HpccCongestionOps::OnAck(const FabricCcAckSample& sample)
{
    m_ackedBytes += sample.ackedBytes;
    if (sample.nack || sample.nHops == 0 || !sample.hops)
    {
        return;
    }
    uint32_t n = std::min(sample.nHops, MAX_HOPS);
    if (n != m_lastHops)
    {
        // First telemetry, or the path changed: nothing to compare with yet.
        std::copy(sample.hops, sample.hops + n, m_last.begin());
        m_lastHops = n;
        return;
    }
    FabricCcAckSample s = sample;
    s.nHops = n;
    MeasureInflight(s);
    bool updateWc = m_ackedBytes > m_lastUpdateSeq;
    if (updateWc)
    {
        m_lastUpdateSeq = m_sentBytes;
    }
    ComputeWind(updateWc);
    std::copy(sample.hops, sample.hops + n, m_last.begin());
}

} // namespace ns3
