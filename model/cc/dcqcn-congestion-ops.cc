/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-time.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(DcqcnCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(DcqcnNotificationPoint);

TypeId
DcqcnCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionOps")
            .SetParent<FabricCongestionOps>()
            .SetGroupName("AiFabric")
            .AddConstructor<DcqcnCongestionOps>()
            .AddAttribute("G",
                          "Alpha gain g in (0, 1]: alpha <- (1 - g) alpha + g on a CNP "
                          "(firmware DCE_TCP_G, taken as 1/256).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionOps::m_g),
                          MakeFabricPositiveDoubleChecker("ns3::DcqcnCongestionOps::G", 1.0))
            .AddAttribute(
                "AlphaUpdatePeriod",
                "K: alpha decays by (1 - g) once per period without CNP "
                "(firmware DCE_TCP_RTT 1 us; paper 55 us).",
                TimeValue(MicroSeconds(1)),
                MakeTimeAccessor(&DcqcnCongestionOps::m_alphaPeriod),
                MakeFabricTimeChecker("ns3::DcqcnCongestionOps::AlphaUpdatePeriod", NanoSeconds(1)))
            .AddAttribute(
                "InitialAlpha",
                "Alpha of a new QP, [0, 1] (firmware INITIAL_ALPHA 1023/1024).",
                DoubleValue(1023.0 / 1024),
                MakeDoubleAccessor(&DcqcnCongestionOps::m_initialAlpha),
                MakeFabricDoubleChecker("ns3::DcqcnCongestionOps::InitialAlpha", 0.0, 1.0))
            .AddAttribute("RateOnFirstCnp",
                          "Rate set on the first CNP of the QP; 0 = decrease from the current "
                          "rate as usual (firmware RATE_TO_SET_ON_FIRST_CNP 0).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&DcqcnCongestionOps::m_rateOnFirstCnp),
                          MakeDataRateChecker())
            .AddAttribute(
                "RateReduceMonitorPeriod",
                "At most one rate decrease per period (firmware "
                "RATE_REDUCE_MONITOR_PERIOD 4 us; paper: every CNP, 0).",
                TimeValue(MicroSeconds(4)),
                MakeTimeAccessor(&DcqcnCongestionOps::m_reduceMonitorPeriod),
                MakeFabricTimeChecker("ns3::DcqcnCongestionOps::RateReduceMonitorPeriod", Time(0)))
            .AddAttribute(
                "MinDecreaseFactor",
                "A decrease keeps at least this fraction of Rc, [0, 1] (firmware "
                "RPG_MIN_DEC_FAC 50%).",
                DoubleValue(0.5),
                MakeDoubleAccessor(&DcqcnCongestionOps::m_minDecreaseFactor),
                MakeFabricDoubleChecker("ns3::DcqcnCongestionOps::MinDecreaseFactor", 0.0, 1.0))
            .AddAttribute("Gd",
                          "Decrease divisor: Rc <- Rc (1 - alpha / Gd), >= 1 (paper 2; firmware "
                          "RPG_GD 11 with alpha in 1/1024 units is also 2).",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&DcqcnCongestionOps::m_gd),
                          MakeFabricDoubleChecker("ns3::DcqcnCongestionOps::Gd", 1.0))
            .AddAttribute("MinRate",
                          "Rate floor, > 0 (firmware RPG_MIN_RATE 1 Mb/s).",
                          DataRateValue(DataRate("1Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionOps::m_minRate),
                          MakeFabricDataRateChecker("ns3::DcqcnCongestionOps::MinRate"))
            .AddAttribute(
                "RateIncreaseTimer",
                "T: period of timer-driven increase events (firmware RPG_TIME_RESET "
                "300 us; paper 55 us).",
                TimeValue(MicroSeconds(300)),
                MakeTimeAccessor(&DcqcnCongestionOps::m_increaseTimer),
                MakeFabricTimeChecker("ns3::DcqcnCongestionOps::RateIncreaseTimer", NanoSeconds(1)))
            .AddAttribute(
                "ByteCounter",
                "B: bytes sent per byte-counter increase event (firmware "
                "RPG_BYTE_RESET 32767, taken in 64-byte units = 2 MiB; paper 10 MB). "
                "0 = no byte counter: the timer alone drives increases and its stage "
                "counter T alone selects fast recovery / additive / hyper increase.",
                UintegerValue(32767ull * 64),
                MakeUintegerAccessor(&DcqcnCongestionOps::m_byteCounter),
                MakeFabricUintegerChecker<uint64_t>("ns3::DcqcnCongestionOps::ByteCounter", 0))
            .AddAttribute("FastRecoveryThreshold",
                          "F: stages of fast recovery before additive increase (firmware "
                          "RPG_THRESHOLD 1; paper 5).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DcqcnCongestionOps::m_f),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase step R_AI, > 0 (firmware RPG_AI_RATE 5 Mb/s; paper "
                          "40 Mb/s).",
                          DataRateValue(DataRate("5Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionOps::m_rateAi),
                          MakeFabricDataRateChecker("ns3::DcqcnCongestionOps::RateAi"))
            .AddAttribute("RateHai",
                          "Hyper increase step R_HAI, > 0 (firmware RPG_HAI_RATE 50 Mb/s).",
                          DataRateValue(DataRate("50Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionOps::m_rateHai),
                          MakeFabricDataRateChecker("ns3::DcqcnCongestionOps::RateHai"))
            .AddAttribute(
                "EcnEchoInterval",
                "With RoceNic CongestionNotification=AckEcho (no CNPs): an ACK echoing ECN CE "
                "acts as a CNP if none did in the last interval (the notification point's "
                "CnpInterval at the reaction point: firmware 4 us, paper 50 us); 0 = every "
                "echoing ACK; >= 0.",
                TimeValue(MicroSeconds(4)),
                MakeTimeAccessor(&DcqcnCongestionOps::m_ecnEchoInterval),
                MakeFabricTimeChecker("ns3::DcqcnCongestionOps::EcnEchoInterval", Time(0)))
            .AddAttribute("ClampTargetRate",
                          "Every decrease sets Rt <- Rc (the paper's behaviour; firmware "
                          "CLAMP_TGT_RATE default off).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcqcnCongestionOps::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("ClampTargetRateAfterTimeInc",
                          "Without ClampTargetRate: Rt <- Rc on a decrease only if a "
                          "timer-driven rate increase happened since the previous decrease "
                          "(firmware CLAMP_TGT_RATE_AFTER_TIME_INC default on).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionOps::m_clampAfterTimeInc),
                          MakeBooleanChecker())
            .AddTraceSource("Alpha",
                            "Alpha after each CNP update.",
                            MakeTraceSourceAccessor(&DcqcnCongestionOps::m_alphaTrace),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TimerStage",
                            "Timer stage counter T.",
                            MakeTraceSourceAccessor(&DcqcnCongestionOps::m_timerStage),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("ByteStage",
                            "Byte stage counter BC.",
                            MakeTraceSourceAccessor(&DcqcnCongestionOps::m_byteStage),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

DcqcnCongestionOps::DcqcnCongestionOps()
    : m_g(1.0 / 256),
      m_alphaPeriod(MicroSeconds(1)),
      m_initialAlpha(1023.0 / 1024),
      m_rateOnFirstCnp(0),
      m_reduceMonitorPeriod(MicroSeconds(4)),
      m_minDecreaseFactor(0.5),
      m_gd(2.0),
      m_minRate(DataRate("1Mbps")),
      m_increaseTimer(MicroSeconds(300)),
      m_byteCounter(32767ull * 64),
      m_ecnEchoInterval(MicroSeconds(4)),
      m_f(1),
      m_rateAi(DataRate("5Mbps")),
      m_rateHai(DataRate("50Mbps")),
      m_clampTargetRate(false),
      m_clampAfterTimeInc(true),
      m_alpha(1023.0 / 1024),
      m_alphaTrace(1023.0 / 1024),
      m_timerStage(0),
      m_byteStage(0),
      m_bytesSinceStage(0),
      m_decreasedEver(false),
      m_cnpEver(false),
      m_increasedSinceDecrease(false),
      m_idle(false),
      m_sentSinceTimer(false)
{
}

DcqcnCongestionOps::~DcqcnCongestionOps() = default;

void
DcqcnCongestionOps::DoDispose()
{
    if (compat::IsPending(m_timer))
    {
        Simulator::Remove(m_timer);
    }
    FabricCongestionOps::DoDispose();
}

void
DcqcnCongestionOps::ApplyExampleChoice(const std::string& cc,
                                       const std::string& preset,
                                       bool presetGiven)
{
    FABRIC_INPUT_ERROR_IF(cc != "dcqcn" && cc != "none",
                          "--cc=" << cc << " is invalid; valid values are dcqcn, none");
    FABRIC_INPUT_ERROR_IF(cc == "none" && presetGiven, "--preset applies to --cc=dcqcn only");
    FABRIC_INPUT_ERROR_IF(preset != "firmware" && preset != "paper",
                          "--preset=" << preset << " is invalid; valid values are firmware, paper");
    if (cc == "dcqcn")
    {
        SetPresetDefaults(preset);
    }
}

void
DcqcnCongestionOps::SetPresetDefaults(const std::string& preset)
{
    auto set = [](const std::string& name, const AttributeValue& v) {
        Config::SetDefault("ns3::DcqcnCongestionOps::" + name, v);
    };
    if (preset == "paper")
    {
        set("G", DoubleValue(1.0 / 256));
        set("AlphaUpdatePeriod", TimeValue(MicroSeconds(55)));
        set("InitialAlpha", DoubleValue(1.0));
        set("RateOnFirstCnp", DataRateValue(DataRate(0)));
        set("RateReduceMonitorPeriod", TimeValue(Time(0)));
        set("MinDecreaseFactor", DoubleValue(0.0));
        set("Gd", DoubleValue(2.0));
        set("MinRate", DataRateValue(DataRate("1Mbps")));
        set("RateIncreaseTimer", TimeValue(MicroSeconds(55)));
        set("ByteCounter", UintegerValue(10ull * 1000 * 1000));
        set("FastRecoveryThreshold", UintegerValue(5));
        set("RateAi", DataRateValue(DataRate("40Mbps")));
        set("RateHai", DataRateValue(DataRate("400Mbps")));
        set("ClampTargetRate", BooleanValue(true));
        set("ClampTargetRateAfterTimeInc", BooleanValue(true));
        set("EcnEchoInterval", TimeValue(MicroSeconds(50)));
        Config::SetDefault("ns3::DcqcnNotificationPoint::CnpInterval", TimeValue(MicroSeconds(50)));
    }
    else if (preset == "firmware")
    {
        set("G", DoubleValue(1.0 / 256));
        set("AlphaUpdatePeriod", TimeValue(MicroSeconds(1)));
        set("InitialAlpha", DoubleValue(1023.0 / 1024));
        set("RateOnFirstCnp", DataRateValue(DataRate(0)));
        set("RateReduceMonitorPeriod", TimeValue(MicroSeconds(4)));
        set("MinDecreaseFactor", DoubleValue(0.5));
        set("Gd", DoubleValue(2.0));
        set("MinRate", DataRateValue(DataRate("1Mbps")));
        set("RateIncreaseTimer", TimeValue(MicroSeconds(300)));
        set("ByteCounter", UintegerValue(32767ull * 64));
        set("FastRecoveryThreshold", UintegerValue(1));
        set("RateAi", DataRateValue(DataRate("5Mbps")));
        set("RateHai", DataRateValue(DataRate("50Mbps")));
        set("ClampTargetRate", BooleanValue(false));
        set("ClampTargetRateAfterTimeInc", BooleanValue(true));
        set("EcnEchoInterval", TimeValue(MicroSeconds(4)));
        Config::SetDefault("ns3::DcqcnNotificationPoint::CnpInterval", TimeValue(MicroSeconds(4)));
    }
    else
    {
        FABRIC_INPUT_ERROR("DCQCN preset \"" << preset
                                             << "\" is unknown; use \"paper\" or \"firmware\"");
    }
}

std::string
DcqcnCongestionOps::GetName() const
{
    return "DCQCN";
}

Ptr<FabricCongestionOps>
DcqcnCongestionOps::Fork() const
{
    return CopyObject<DcqcnCongestionOps>(this);
}

void
DcqcnCongestionOps::Validate() const
{
    FABRIC_INPUT_ERROR_IF(m_minRate.GetBitRate() == 0,
                          "DCQCN MinRate " << m_minRate << " is invalid; it must be > 0");
    FABRIC_INPUT_ERROR_IF(m_minRate > GetLineRate(),
                          "DCQCN MinRate " << m_minRate << " exceeds the line rate "
                                           << GetLineRate());
    FABRIC_INPUT_ERROR_IF(m_rateOnFirstCnp > GetLineRate(),
                          "DCQCN RateOnFirstCnp " << m_rateOnFirstCnp << " exceeds the line rate "
                                                  << GetLineRate());
}

void
DcqcnCongestionOps::Init(Ptr<FabricCcState> state)
{
    FabricCongestionOps::Init(state);
    DataRate lineRate = GetLineRate();
    Validate();
    m_alpha = m_initialAlpha;
    m_alphaTrace.Set(m_initialAlpha);
    m_alphaRef = Simulator::Now();
    m_state->SetTargetRate(lineRate);
    m_timerStage.Set(0);
    m_byteStage.Set(0);
    m_bytesSinceStage = 0;
    m_decreasedEver = false;
    m_cnpEver = false;
    m_increasedSinceDecrease = false;
    m_echoEver = false;
    if (compat::IsPending(m_timer))
    {
        Simulator::Remove(m_timer);
    }
}

double
DcqcnCongestionOps::GetAlpha() const
{
    if (!m_cnpEver)
    {
        return m_alpha;
    }
    double periods =
        std::floor((Simulator::Now() - m_alphaRef).GetSeconds() / m_alphaPeriod.GetSeconds());
    return m_alpha * std::pow(1.0 - m_g, periods);
}

DataRate
DcqcnCongestionOps::GetTargetRate() const
{
    return m_state ? m_state->GetTargetRate() : GetLineRate();
}

void
DcqcnCongestionOps::OnEvent(FabricCcEvent event)
{
    if (event == FabricCcEvent::CNP)
    {
        OnCnp();
    }
}

void
DcqcnCongestionOps::OnAck(const FabricCcAckSample& sample)
{
    if (!sample.ecnEcho)
    {
        return;
    }
    Time now = Simulator::Now();
    if (!m_echoEver || now - m_lastEcho >= m_ecnEchoInterval)
    {
        m_echoEver = true;
        m_lastEcho = now;
        OnCnp();
    }
}

uint32_t
DcqcnCongestionOps::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
DcqcnCongestionOps::GetByteStage() const
{
    return m_byteStage;
}

double
DcqcnCongestionOps::CurrentBps() const
{
    return static_cast<double>(GetRate().GetBitRate());
}

void
DcqcnCongestionOps::OnCnp()
{
    Time now = Simulator::Now();
    // Alpha: decay for the quiet periods, then the CNP update.
    m_alpha = GetAlpha() * (1.0 - m_g) + m_g;
    m_alphaRef = now;
    m_alphaTrace.Set(m_alpha);
    bool first = !m_cnpEver;
    m_cnpEver = true;

    if (!m_decreasedEver || now - m_lastDecrease >= m_reduceMonitorPeriod)
    {
        double rc = CurrentBps();
        if (m_clampTargetRate || (m_clampAfterTimeInc && m_increasedSinceDecrease) ||
            !m_decreasedEver)
        {
            m_state->SetTargetRate(GetRate());
        }
        double next;
        if (first && m_rateOnFirstCnp.GetBitRate() > 0)
        {
            next = std::min(rc, double(m_rateOnFirstCnp.GetBitRate()));
        }
        else
        {
            double factor = std::max(1.0 - m_alpha / m_gd, m_minDecreaseFactor);
            next = rc * factor;
        }
        next = std::max(next, double(m_minRate.GetBitRate()));
        SetRate(DataRate(static_cast<uint64_t>(next)));
        m_lastDecrease = now;
        m_decreasedEver = true;
        m_increasedSinceDecrease = false;
    }
    m_timerStage.Set(0);
    m_byteStage.Set(0);
    m_bytesSinceStage = 0;
    m_idle = false;
    m_sentSinceTimer = true;
    ArmIncreaseTimer();
}

void
DcqcnCongestionOps::ArmIncreaseTimer()
{
    // Restarting only moves the deadline: CNPs arrive every few microseconds and must not
    // each leave a cancelled event behind.
    if (GetRate() < GetLineRate())
    {
        m_timerDeadline = Simulator::Now() + m_increaseTimer;
        if (!compat::IsPending(m_timer))
        {
            m_timer =
                Simulator::Schedule(m_increaseTimer, &DcqcnCongestionOps::OnIncreaseTimer, this);
        }
    }
    else if (compat::IsPending(m_timer))
    {
        Simulator::Remove(m_timer);
    }
}

void
DcqcnCongestionOps::OnIncreaseTimer()
{
    Time now = Simulator::Now();
    if (now < m_timerDeadline)
    {
        m_timer =
            Simulator::Schedule(m_timerDeadline - now, &DcqcnCongestionOps::OnIncreaseTimer, this);
        return;
    }
    TimerStage();
    // A QP paced so slowly that a packet takes longer than a period sends nothing in a period
    // although it has data: it must keep ticking (the timer is what raises its rate; stopping
    // left a QP at MinRate 1 Mb/s waiting 33 ms for its next 4 KB frame).
    bool pacedOut =
        m_lastSentBytes > 0 && BytesTxTime(m_lastSentBytes, GetRate()) > m_increaseTimer;
    if (!m_sentSinceTimer && !pacedOut && GetRate() < GetLineRate())
    {
        // The QP sent nothing for a whole period: stop ticking while it is idle. The stages
        // it misses are replayed in order when it sends again (CatchUp), so the rate is the
        // same as with a free-running timer, without events on idle QPs.
        m_idle = true;
        m_timerDeadline = now + m_increaseTimer;
        return;
    }
    m_sentSinceTimer = false;
    ArmIncreaseTimer();
}

void
DcqcnCongestionOps::TimerStage()
{
    m_timerStage.Set(m_timerStage + 1);
    m_increasedSinceDecrease = true; // a *timer* increase (CLAMP_TGT_RATE_AFTER_TIME_INC)
    Increase();
}

void
DcqcnCongestionOps::CatchUp()
{
    Time now = Simulator::Now();
    while (m_timerDeadline <= now && GetRate() < GetLineRate())
    {
        TimerStage();
        m_timerDeadline += m_increaseTimer;
    }
    m_idle = false;
    if (GetRate() < GetLineRate())
    {
        m_timer =
            Simulator::Schedule(m_timerDeadline - now, &DcqcnCongestionOps::OnIncreaseTimer, this);
    }
}

void
DcqcnCongestionOps::OnBytesSent(uint32_t bytes)
{
    m_sentSinceTimer = true;
    m_lastSentBytes = bytes;
    if (m_idle)
    {
        CatchUp();
    }
    if (m_byteCounter == 0 || !m_decreasedEver || GetRate() >= GetLineRate())
    {
        return;
    }
    m_bytesSinceStage += bytes;
    while (m_bytesSinceStage >= m_byteCounter && GetRate() < GetLineRate())
    {
        m_bytesSinceStage -= m_byteCounter;
        m_byteStage.Set(m_byteStage + 1);
        Increase();
    }
}

void
DcqcnCongestionOps::Increase()
{
    uint32_t t = m_timerStage;
    uint32_t bc = m_byteCounter == 0 ? t : uint32_t(m_byteStage); // no byte counter: T alone
    double rt = double(m_state->GetTargetRate().GetBitRate());
    if (std::max(t, bc) < m_f)
    {
        // fast recovery: Rt unchanged
    }
    else if (std::min(t, bc) > m_f)
    {
        rt += double(std::min(t, bc) - m_f) * double(m_rateHai.GetBitRate());
    }
    else
    {
        rt += double(m_rateAi.GetBitRate());
    }
    rt = std::min(rt, double(GetLineRate().GetBitRate()));
    m_state->SetTargetRate(DataRate(static_cast<uint64_t>(rt)));
    double rc = (rt + CurrentBps()) / 2;
    SetRate(DataRate(static_cast<uint64_t>(std::ceil(rc))));
}

TypeId
DcqcnNotificationPoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnNotificationPoint")
            .SetParent<FabricCcReceiverOps>()
            .SetGroupName("AiFabric")
            .AddConstructor<DcqcnNotificationPoint>()
            .AddAttribute(
                "CnpInterval",
                "At most one CNP per flow per this interval (firmware "
                "MIN_TIME_BETWEEN_CNPS 4 us; DCQCN paper 50 us); >= 0.",
                TimeValue(MicroSeconds(4)),
                MakeTimeAccessor(&DcqcnNotificationPoint::m_cnpInterval),
                MakeFabricTimeChecker("ns3::DcqcnNotificationPoint::CnpInterval", Time(0)));
    return tid;
}

DcqcnNotificationPoint::DcqcnNotificationPoint()
    : m_cnpInterval(MicroSeconds(4)),
      m_cnpEver(false)
{
}

DcqcnNotificationPoint::~DcqcnNotificationPoint() = default;

Ptr<FabricCcReceiverOps>
DcqcnNotificationPoint::Fork() const
{
    Ptr<DcqcnNotificationPoint> np = CopyObject<DcqcnNotificationPoint>(this);
    np->m_cnpEver = false;
    np->m_lastCnp = Time(0);
    return np;
}

uint8_t
DcqcnNotificationPoint::OnData(const FabricCcRxSample& sample)
{
    if (!sample.ce)
    {
        return FABRIC_CC_NO_FEEDBACK;
    }
    if (!m_cnpEver || sample.now - m_lastCnp >= m_cnpInterval)
    {
        m_cnpEver = true;
        m_lastCnp = sample.now;
        return FABRIC_CC_SEND_CNP;
    }
    return FABRIC_CC_NO_FEEDBACK;
}

Time
DcqcnNotificationPoint::GetCnpInterval() const
{
    return m_cnpInterval;
}

} // namespace ns3
