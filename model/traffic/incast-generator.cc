/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "incast-generator.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IncastGenerator);

TypeId
IncastGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IncastGenerator")
            .SetParent<FlowSource>()
            .SetGroupName("AiFabric")
            .AddConstructor<IncastGenerator>()
            .AddAttribute("FlowSize",
                          "Bytes of each flow when no CDF is set (>= 1).",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&IncastGenerator::m_flowSize),
                          MakeFabricUintegerChecker<uint64_t>("ns3::IncastGenerator::FlowSize", 1))
            .AddAttribute("StartTime",
                          "Start of the first round (absolute simulation time, >= 0).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&IncastGenerator::m_startTime),
                          MakeFabricTimeChecker("ns3::IncastGenerator::StartTime", Time(0)))
            .AddAttribute("Jitter",
                          "Each flow starts at its round's start plus a uniform draw in "
                          "[0, Jitter) (>= 0; 0 = synchronized).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&IncastGenerator::m_jitter),
                          MakeFabricTimeChecker("ns3::IncastGenerator::Jitter", Time(0)))
            .AddAttribute("Period",
                          "Time between the starts of consecutive rounds (>= 0; > 0 and >= "
                          "Jitter when Rounds > 1).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&IncastGenerator::m_period),
                          MakeFabricTimeChecker("ns3::IncastGenerator::Period", Time(0)))
            .AddAttribute("Rounds",
                          "Number of rounds (>= 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&IncastGenerator::m_rounds),
                          MakeFabricUintegerChecker<uint32_t>("ns3::IncastGenerator::Rounds", 1))
            .AddAttribute(
                "FirstFlowId",
                "Id of the first flow; the following ones count up (>= 1).",
                UintegerValue(1),
                MakeUintegerAccessor(&IncastGenerator::m_firstId),
                MakeFabricUintegerChecker<uint64_t>("ns3::IncastGenerator::FirstFlowId", 1));
    return tid;
}

IncastGenerator::IncastGenerator()
    : m_flowSize(64 * 1024),
      m_rounds(1),
      m_firstId(1),
      m_jitterRng(CreateObject<UniformRandomVariable>()),
      m_sizeRng(CreateObject<UniformRandomVariable>())
{
}

IncastGenerator::~IncastGenerator() = default;

void
IncastGenerator::SetSenders(const std::vector<uint32_t>& senders)
{
    FABRIC_INPUT_ERROR_IF(m_started, "IncastGenerator: SetSenders after the first Next()");
    FABRIC_INPUT_ERROR_IF(senders.empty(), "IncastGenerator: 0 senders; an incast needs N >= 1");
    m_senders = senders;
}

const std::vector<uint32_t>&
IncastGenerator::GetSenders() const
{
    return m_senders;
}

void
IncastGenerator::SetReceiver(uint32_t receiver)
{
    FABRIC_INPUT_ERROR_IF(m_started, "IncastGenerator: SetReceiver after the first Next()");
    m_receiver = receiver;
}

uint32_t
IncastGenerator::GetReceiver() const
{
    return m_receiver;
}

void
IncastGenerator::SetFlowSizeCdf(const FlowSizeCdf& cdf)
{
    FABRIC_INPUT_ERROR_IF(m_started, "IncastGenerator: SetFlowSizeCdf after the first Next()");
    FABRIC_INPUT_ERROR_IF(cdf.IsEmpty(), "IncastGenerator: SetFlowSizeCdf with an empty CDF");
    m_cdf = cdf;
}

void
IncastGenerator::Start()
{
    FABRIC_INPUT_ERROR_IF(m_senders.empty(),
                          "IncastGenerator: 0 senders; call SetSenders (N >= 1) before Next()");
    std::vector<uint32_t> sorted = m_senders;
    std::sort(sorted.begin(), sorted.end());
    auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    FABRIC_INPUT_ERROR_IF(dup != sorted.end(),
                          "IncastGenerator: sender "
                              << *dup << " is listed twice; senders must be distinct");
    auto self = std::find(m_senders.begin(), m_senders.end(), m_receiver);
    FABRIC_INPUT_ERROR_IF(self != m_senders.end(),
                          "IncastGenerator: the receiver " << m_receiver
                                                           << " is also one of the senders; a flow "
                                                              "to itself is invalid");
    FABRIC_INPUT_ERROR_IF(m_rounds > 1 && m_period.IsZero(),
                          "IncastGenerator: Rounds "
                              << m_rounds << " with Period 0s; set Period > 0 to repeat");
    FABRIC_INPUT_ERROR_IF(m_rounds > 1 && m_jitter > m_period,
                          "IncastGenerator: Jitter "
                              << FabricFormatTime(m_jitter) << " exceeds Period "
                              << FabricFormatTime(m_period) << " with Rounds " << m_rounds
                              << "; rounds would overlap (valid: Jitter <= "
                                 "Period)");
    m_started = true;
    m_nextId = m_firstId;
}

void
IncastGenerator::DrawRound()
{
    const Time begin = m_startTime + TimeStep(m_period.GetTimeStep() * uint64_t(m_round));
    m_roundFlows.clear();
    m_roundNext = 0;
    const double steps = static_cast<double>(m_jitter.GetTimeStep());
    for (uint32_t s : m_senders)
    {
        FlowSpec f;
        f.src = s;
        f.dst = m_receiver;
        f.start = begin;
        if (m_jitter.IsStrictlyPositive())
        {
            const double u = m_jitterRng->GetValue(0, 1);
            f.start += TimeStep(static_cast<uint64_t>(std::min(std::floor(u * steps), steps - 1)));
        }
        f.sizeBytes = m_cdf.IsEmpty() ? m_flowSize : m_cdf.Sample(m_sizeRng->GetValue(0, 1));
        m_roundFlows.push_back(f);
    }
    std::stable_sort(m_roundFlows.begin(),
                     m_roundFlows.end(),
                     [](const FlowSpec& a, const FlowSpec& b) { return a.start < b.start; });
    for (auto& f : m_roundFlows)
    {
        f.id = m_nextId++;
    }
    ++m_round;
}

std::optional<FlowSpec>
IncastGenerator::Next()
{
    if (!m_started)
    {
        Start();
    }
    if (m_roundNext == m_roundFlows.size())
    {
        if (m_round == m_rounds)
        {
            return std::nullopt;
        }
        DrawRound();
    }
    return m_roundFlows[m_roundNext++];
}

int64_t
IncastGenerator::AssignStreams(int64_t stream)
{
    m_jitterRng->SetStream(stream);
    m_sizeRng->SetStream(stream + 1);
    return 2;
}

void
IncastGenerator::DoDispose()
{
    m_jitterRng = nullptr;
    m_sizeRng = nullptr;
    FlowSource::DoDispose();
}

} // namespace ns3
