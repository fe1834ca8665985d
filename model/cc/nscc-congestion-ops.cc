/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: NSCC, Ultra Ethernet's network-signal sender congestion control (window based).
 */
#include "nscc-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NsccCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(NsccCongestionOps);

TypeId
NsccCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NsccCongestionOps")
            .SetParent<FabricCongestionOps>()
            .SetGroupName("AiFabric")
            .AddConstructor<NsccCongestionOps>()
            .AddAttribute("BaseRtt",
                          "The network RTT the defaults are computed from, and the flow's first "
                          "base RTT unless the transport knows its path's unloaded RTT "
                          "(FabricCcState::GetPathRtt; the fat tree helper tells UET NICs) "
                          "(> 0). Set it to the fabric's largest unloaded RTT (htsim's fat "
                          "tree: 14.0227 us). A first base RTT above the path's skews "
                          "fairness: a flow that never sees an empty queue keeps it and sees "
                          "less delay than it has.",
                          TimeValue(MicroSeconds(12)),
                          MakeTimeAccessor(&NsccCongestionOps::m_baseRttAttr),
                          MakeFabricTimeChecker("ns3::NsccCongestionOps::BaseRtt", NanoSeconds(1)))
            .AddAttribute(
                "Mtu",
                "Payload bytes of a full packet in the default formulas, 1..65536 "
                "(the UET NIC's Mtu; htsim's 4150-byte packets carry 4086).",
                UintegerValue(4096),
                MakeUintegerAccessor(&NsccCongestionOps::m_mtu),
                MakeFabricUintegerChecker<uint32_t>("ns3::NsccCongestionOps::Mtu", 1, 65536))
            .AddAttribute("Trimming",
                          "The fabric trims instead of dropping: the default target queueing "
                          "delay is 0.75 BaseRtt (else 1.0 BaseRtt).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NsccCongestionOps::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute("TargetQdelay",
                          "Target queueing delay; 0 = 0.75 BaseRtt with Trimming, else BaseRtt.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NsccCongestionOps::m_targetAttr),
                          MakeFabricTimeChecker("ns3::NsccCongestionOps::TargetQdelay", Time(0)))
            .AddAttribute("MaxWindow",
                          "Largest window, bytes; 0 = 1.5 BDP (BDP = line rate x BaseRtt; a "
                          "smaller measured base RTT lowers it as in htsim).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NsccCongestionOps::m_maxWndAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("InitialWindow",
                          "Window of a new flow, bytes; 0 = MaxWindow.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NsccCongestionOps::m_initWndAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MinWindow",
                          "Smallest window, bytes; 0 = Mtu.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NsccCongestionOps::m_minWndAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Alpha",
                          "Proportional-increase gain, bytes per picosecond of delay below "
                          "target; <= 0 = 4 Mtu scaling_a scaling_b / target.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NsccCongestionOps::m_alphaAttr),
                          MakeDoubleChecker<double>())
            .AddAttribute("FairIncrease",
                          "Fair-increase constant fi, bytes (a window of acknowledged bytes "
                          "adds fi); <= 0 = 5 Mtu scaling_a.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NsccCongestionOps::m_fiAttr),
                          MakeDoubleChecker<double>())
            .AddAttribute("Eta",
                          "Additive increase once per adjust period, bytes; <= 0 = 0.15 Mtu "
                          "scaling_a.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NsccCongestionOps::m_etaAttr),
                          MakeDoubleChecker<double>())
            .AddAttribute("FiScale",
                          "Fast-increase scale (cwnd += FiScale x acknowledged bytes); <= 0 = "
                          "0.25 scaling_a.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NsccCongestionOps::m_fiScaleAttr),
                          MakeDoubleChecker<double>())
            .AddAttribute("Gamma",
                          "Multiplicative-decrease gain, (0, 1].",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&NsccCongestionOps::m_gamma),
                          MakeFabricPositiveDoubleChecker("ns3::NsccCongestionOps::Gamma", 1.0))
            .AddAttribute("MaxMdJump",
                          "Smallest multiplicative-decrease factor, (0, 1].",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&NsccCongestionOps::m_maxMdJump),
                          MakeFabricPositiveDoubleChecker("ns3::NsccCongestionOps::MaxMdJump", 1.0))
            .AddAttribute(
                "QaGate",
                "Quick adapt only if fewer than MaxWindow >> QaGate bytes were "
                "acknowledged in the interval, 0..32.",
                UintegerValue(3),
                MakeUintegerAccessor(&NsccCongestionOps::m_qaGate),
                MakeFabricUintegerChecker<uint32_t>("ns3::NsccCongestionOps::QaGate", 0, 32))
            .AddAttribute("QaThreshold",
                          "Delay that arms quick adapt; 0 = 4 x target.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NsccCongestionOps::m_qaThresholdAttr),
                          MakeFabricTimeChecker("ns3::NsccCongestionOps::QaThreshold", Time(0)))
            .AddAttribute("QuickAdapt",
                          "Quick adapt on.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NsccCongestionOps::m_quickAdapt),
                          MakeBooleanChecker())
            .AddAttribute(
                "DelayEwmaGain",
                "Gain of the average-delay EWMA, (0, 1].",
                DoubleValue(0.0125),
                MakeDoubleAccessor(&NsccCongestionOps::m_delayGain),
                MakeFabricPositiveDoubleChecker("ns3::NsccCongestionOps::DelayEwmaGain", 1.0))
            .AddAttribute("AdjustBytes",
                          "Acknowledged bytes between window adjustments; 0 = 8 Mtu.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NsccCongestionOps::m_adjustBytesAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AdjustPeriod",
                          "Longest time between window adjustments, and eta's period; 0 = "
                          "BaseRtt.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NsccCongestionOps::m_adjustPeriodAttr),
                          MakeFabricTimeChecker("ns3::NsccCongestionOps::AdjustPeriod", Time(0)))
            .AddAttribute(
                "FastIncreaseDelay",
                "ACKs with a delay below this count toward fast increase (htsim: "
                "1 us).",
                TimeValue(MicroSeconds(1)),
                MakeTimeAccessor(&NsccCongestionOps::m_fastIncreaseDelay),
                MakeFabricTimeChecker("ns3::NsccCongestionOps::FastIncreaseDelay", Time(0)))
            .AddAttribute("ReferenceRate",
                          "Link rate of the reference network the constants are scaled from "
                          "(UEC: 100 Gb/s).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&NsccCongestionOps::m_referenceRate),
                          MakeFabricDataRateChecker("ns3::NsccCongestionOps::ReferenceRate"))
            .AddAttribute(
                "ReferenceRtt",
                "RTT of the reference network the constants are scaled from (UEC: "
                "12 us).",
                TimeValue(MicroSeconds(12)),
                MakeTimeAccessor(&NsccCongestionOps::m_referenceRtt),
                MakeFabricTimeChecker("ns3::NsccCongestionOps::ReferenceRtt", NanoSeconds(1)))
            .AddTraceSource("Cwnd",
                            "Congestion window, bytes.",
                            MakeTraceSourceAccessor(&NsccCongestionOps::m_cwnd),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("BaseRttTrace",
                            "Base RTT (smallest RTT seen).",
                            MakeTraceSourceAccessor(&NsccCongestionOps::m_baseRtt),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("AvgDelay",
                            "Average queueing delay (EWMA).",
                            MakeTraceSourceAccessor(&NsccCongestionOps::m_avgDelay),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("QuickAdapt",
                            "A quick adapt set the window (bytes).",
                            MakeTraceSourceAccessor(&NsccCongestionOps::m_qaTrace),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

NsccCongestionOps::NsccCongestionOps() = default;
NsccCongestionOps::~NsccCongestionOps() = default;

std::string
NsccCongestionOps::GetName() const
{
    return "NSCC";
}

Ptr<FabricCongestionOps>
NsccCongestionOps::Fork() const
{
    return CopyObject<NsccCongestionOps>(this);
}

bool
NsccCongestionOps::WantsRttSamples() const
{
    return true;
}

bool
NsccCongestionOps::WantsReceiverState() const
{
    return true;
}

void
NsccCongestionOps::Init(Ptr<FabricCcState> state)
{
    FabricCongestionOps::Init(state);
    double rateBytesPerSec = GetLineRate().GetBitRate() / 8.0;
    m_bdp = m_baseRttAttr.GetSeconds() * rateBytesPerSec;
    double refBdp = m_referenceRtt.GetSeconds() * m_referenceRate.GetBitRate() / 8.0;
    if (!m_targetAttr.IsZero())
    {
        m_target = m_targetAttr;
    }
    else
    {
        m_target = m_trimming ? PicoSeconds(m_baseRttAttr.GetPicoSeconds() * 3 / 4) : m_baseRttAttr;
    }
    NS_ABORT_MSG_IF(m_target.IsZero(),
                    "NSCC target queueing delay is 0 (BaseRtt " << m_baseRttAttr
                                                                << "); it must be > 0");
    double scalingA = m_bdp / refBdp;
    double scalingB = m_target.GetSeconds() / m_referenceRtt.GetSeconds();
    double targetPs = static_cast<double>(m_target.GetPicoSeconds());
    m_alphaEff = m_alphaAttr > 0 ? m_alphaAttr : 4.0 * m_mtu * scalingA * scalingB / targetPs;
    m_fiEff = m_fiAttr > 0 ? m_fiAttr : 5.0 * m_mtu * scalingA;
    m_etaEff = m_etaAttr > 0 ? m_etaAttr : 0.15 * m_mtu * scalingA;
    m_fiScaleEff = m_fiScaleAttr > 0 ? m_fiScaleAttr : 0.25 * scalingA;
    m_qaThresholdEff = m_qaThresholdAttr.IsZero() ? 4 * m_target : m_qaThresholdAttr;
    m_maxWndEff =
        m_maxWndAttr > 0 ? m_maxWndAttr : static_cast<uint64_t>(std::llround(1.5 * m_bdp));
    m_minWndEff = m_minWndAttr > 0 ? m_minWndAttr : m_mtu;
    m_adjustBytesEff = m_adjustBytesAttr > 0 ? m_adjustBytesAttr : 8ull * m_mtu;
    m_adjustPeriodEff = m_adjustPeriodAttr.IsZero() ? m_baseRttAttr : m_adjustPeriodAttr;
    NS_ABORT_MSG_IF(m_minWndEff > m_maxWndEff,
                    "NSCC MinWindow " << m_minWndEff << " B exceeds MaxWindow " << m_maxWndEff
                                      << " B; it must be in 1.." << m_maxWndEff);
    uint64_t init = m_initWndAttr > 0 ? m_initWndAttr : m_maxWndEff;
    NS_ABORT_MSG_IF(init < m_minWndEff || init > m_maxWndEff,
                    "NSCC InitialWindow " << init << " B is out of range; it must be in "
                                          << m_minWndEff << ".." << m_maxWndEff << " B");
    // The flow's own path RTT when the transport knows it (htsim gives each connection its
    // path's), else BaseRtt.
    Time path = state->GetPathRtt();
    m_baseRtt.Set(path.IsStrictlyPositive() ? path : m_baseRttAttr);
    m_avgDelay.Set(Time(0));
    m_cwnd.Set(static_cast<double>(init));
    Publish();
}

void
NsccCongestionOps::OnBytesSent(uint32_t bytes)
{
    m_inflight += bytes;
}

uint64_t
NsccCongestionOps::Inflight() const
{
    // The transport's count when it reports one (it knows about losses it inferred or timed
    // out); NSCC's own otherwise.
    return m_state->ReportsBytesInFlight() ? m_state->GetBytesInFlight() : m_inflight;
}

void
NsccCongestionOps::OnEvent(FabricCcEvent event)
{
    if (event == FabricCcEvent::TIMEOUT)
    {
        m_triggerQa = true;
    }
}

void
NsccCongestionOps::UpdateAvgDelay(Time delay, bool ecn)
{
    // An unmarked packet above the target waited somewhere the switches did not call
    // congestion; it counts as a quarter of the base RTT (UEC htsim's rule).
    double sample = (!ecn && delay > m_target) ? m_baseRtt.Get().GetPicoSeconds() * 0.25
                                               : static_cast<double>(delay.GetPicoSeconds());
    double avg = m_delayGain * sample + (1 - m_delayGain) * m_avgDelay.Get().GetPicoSeconds();
    m_avgDelay.Set(PicoSeconds(static_cast<int64_t>(avg)));
}

void
NsccCongestionOps::OnAck(const FabricCcAckSample& sample)
{
    if (sample.nack)
    {
        OnNack(sample);
        return;
    }
    Time now = Simulator::Now();
    uint64_t b = sample.ackedBytes;
    m_inflight -= std::min(m_inflight, b);
    m_achievedBytes += b;
    m_receivedBytes += b;
    m_bytesIgnored += b;
    // Destination flow control: the receiver's penalty cuts the window; RC restores it.
    if (sample.rcvRestore && m_savedCwnd > 0)
    {
        m_cwnd.Set(std::max(m_cwnd.Get(), m_savedCwnd));
        m_savedCwnd = 0;
    }
    else if (sample.rcvCwndPend > 0 && b > 0)
    {
        if (m_savedCwnd == 0)
        {
            m_savedCwnd = m_cwnd;
        }
        m_cwnd.Set(m_cwnd - static_cast<double>((uint64_t(sample.rcvCwndPend) * b) >> 7));
    }
    bool ecn = sample.ecnEcho;
    Time delay;
    if (sample.rtt.IsStrictlyPositive())
    {
        if (sample.rtt < m_baseRtt)
        {
            m_baseRtt.Set(sample.rtt);
            if (m_maxWndAttr == 0)
            {
                // A smaller base RTT means a smaller pipe (htsim update_base_rtt).
                double bdp = sample.rtt.GetSeconds() * GetLineRate().GetBitRate() / 8.0;
                m_maxWndEff = std::max(m_minWndEff, static_cast<uint64_t>(std::llround(1.5 * bdp)));
            }
        }
        delay = sample.rtt - m_baseRtt;
        UpdateAvgDelay(delay, ecn);
    }
    else
    {
        delay = m_avgDelay;
    }
    if (QuickAdapt(false, ecn, delay))
    {
        Publish();
        return;
    }
    if (!ecn && delay >= m_target)
    {
        m_incBytes += m_fiEff * static_cast<double>(b);
    }
    else if (!ecn)
    {
        ProportionalIncrease(b, delay);
    }
    else if (delay >= m_target)
    {
        MultiplicativeDecrease();
    }
    // ECN below the target: a path problem, left to the EV selector.
    m_cwnd.Set(std::clamp<double>(m_cwnd, m_minWndEff, m_maxWndEff));
    if (m_receivedBytes > m_adjustBytesEff || now - m_lastAdjust > m_adjustPeriodEff)
    {
        FulfillAdjustment();
    }
    Publish();
}

void
NsccCongestionOps::OnNack(const FabricCcAckSample& sample)
{
    uint64_t b = sample.nackedBytes;
    m_inflight -= std::min(m_inflight, b);
    m_bytesIgnored += b;
    // A trim says the queue was full: a delay sample of one network RTT.
    UpdateAvgDelay(m_baseRttAttr, true);
    m_triggerQa = true;
    // With receiver credit (RCCC beside NSCC), a trim at the destination's last hop is the
    // receiver pacer's business: the window keeps its bytes (UET.md "RCCC").
    bool creditOwnsLastHop = sample.lastHop && m_state->UsesCredit();
    if (!QuickAdapt(true, true, Time(0)) && !creditOwnsLastHop)
    {
        m_cwnd.Set(m_cwnd - static_cast<double>(b));
    }
    Publish();
}

bool
NsccCongestionOps::QuickAdapt(bool isLoss, bool ecn, Time delay)
{
    if (!m_quickAdapt)
    {
        return false;
    }
    bool done = false;
    Time now = Simulator::Now();
    if (ecn && m_bytesIgnored < m_bytesToIgnore)
    {
        done = true; // marks caused by what was in flight before the last quick adapt
    }
    else if (now > m_qaEnd)
    {
        if (!m_qaEnd.IsZero() && (m_triggerQa || isLoss || delay > m_qaThresholdEff) &&
            m_achievedBytes < (m_maxWndEff >> m_qaGate))
        {
            m_cwnd.Set(static_cast<double>(std::max(m_achievedBytes, m_minWndEff)));
            m_bytesToIgnore = Inflight();
            m_bytesIgnored = 0;
            m_triggerQa = false;
            m_quickAdapts++;
            m_qaTrace(static_cast<uint64_t>(m_cwnd.Get()));
            done = true;
        }
        m_achievedBytes = 0;
        m_qaEnd = now + m_baseRtt.Get() + m_target;
    }
    if (done)
    {
        m_incBytes = 0;
        m_receivedBytes = 0;
    }
    return done;
}

void
NsccCongestionOps::ProportionalIncrease(uint64_t bytes, Time delay)
{
    if (delay < m_fastIncreaseDelay)
    {
        m_fiCount += bytes;
        if (m_fiCount > static_cast<uint64_t>(m_cwnd.Get()) || m_increasing)
        {
            m_cwnd.Set(m_cwnd + m_fiScaleEff * static_cast<double>(bytes));
            m_increasing = true;
            return;
        }
    }
    else
    {
        m_fiCount = 0;
    }
    m_increasing = false;
    m_incBytes += m_alphaEff * static_cast<double>(bytes) *
                  static_cast<double>((m_target - delay).GetPicoSeconds());
}

void
NsccCongestionOps::MultiplicativeDecrease()
{
    m_increasing = false;
    m_fiCount = 0;
    Time avg = m_avgDelay;
    Time now = Simulator::Now();
    if (avg > m_target && now - m_lastDecrease > m_baseRtt.Get())
    {
        double factor = 1 - m_gamma * (avg - m_target).GetSeconds() / avg.GetSeconds();
        m_cwnd.Set(std::max<double>(m_cwnd * std::max(factor, m_maxMdJump), m_minWndEff));
        m_lastDecrease = now;
        m_decreases++;
    }
}

void
NsccCongestionOps::FulfillAdjustment()
{
    Time now = Simulator::Now();
    m_cwnd.Set(m_cwnd + m_incBytes / m_cwnd);
    if (now - m_lastAdjust >= m_adjustPeriodEff)
    {
        m_cwnd.Set(m_cwnd + m_etaEff);
        m_lastAdjust = now;
    }
    m_incBytes = 0;
    m_receivedBytes = 0;
}

void
NsccCongestionOps::Publish()
{
    m_cwnd.Set(std::clamp<double>(m_cwnd, m_minWndEff, m_maxWndEff));
    SetWindow(static_cast<uint64_t>(m_cwnd.Get()));
}

} // namespace ns3
