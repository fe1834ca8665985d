/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-arrival-generator.h"

#include "htsim-connection-matrix.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FlowArrivalGenerator);

TypeId
FlowArrivalGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowArrivalGenerator")
            .SetParent<FlowSource>()
            .SetGroupName("AiFabric")
            .AddConstructor<FlowArrivalGenerator>()
            .AddAttribute("Load",
                          "Target load of each host link: the fraction of HostLinkRate every "
                          "host offers on average, (0, 1].",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&FlowArrivalGenerator::m_load),
                          MakeFabricPositiveDoubleChecker("ns3::FlowArrivalGenerator::Load", 1.0))
            .AddAttribute("HostLinkRate",
                          "Rate of each host's link, bits/s (> 0): the load's reference.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&FlowArrivalGenerator::m_rate),
                          MakeFabricDataRateChecker("ns3::FlowArrivalGenerator::HostLinkRate"))
            .AddAttribute("StartTime",
                          "Arrivals begin after this time (absolute simulation time, >= 0).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FlowArrivalGenerator::m_startTime),
                          MakeFabricTimeChecker("ns3::FlowArrivalGenerator::StartTime", Time(0)))
            .AddAttribute("StopTime",
                          "No flow starts at or after this time (absolute simulation time, "
                          "> StartTime; the default 0 must be changed).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FlowArrivalGenerator::m_stopTime),
                          MakeFabricTimeChecker("ns3::FlowArrivalGenerator::StopTime", Time(0)))
            .AddAttribute("PairMode",
                          "Destination choice: Random (uniform among the other hosts, per "
                          "flow) or Permutation (a fixed random derangement).",
                          EnumValue(PAIR_RANDOM),
                          compat::MakeEnumAccessor<PairMode>(&FlowArrivalGenerator::m_pairMode),
                          MakeEnumChecker(PAIR_RANDOM, "Random", PAIR_PERMUTATION, "Permutation"))
            .AddAttribute(
                "FirstFlowId",
                "Id of the first flow; the following ones count up (>= 1).",
                UintegerValue(1),
                MakeUintegerAccessor(&FlowArrivalGenerator::m_firstId),
                MakeFabricUintegerChecker<uint64_t>("ns3::FlowArrivalGenerator::FirstFlowId", 1));
    return tid;
}

FlowArrivalGenerator::FlowArrivalGenerator()
    : m_load(0.5),
      m_rate("100Gbps"),
      m_pairMode(PAIR_RANDOM),
      m_firstId(1),
      m_arrivalRng(CreateObject<ExponentialRandomVariable>()),
      m_hostRng(CreateObject<UniformRandomVariable>()),
      m_sizeRng(CreateObject<UniformRandomVariable>())
{
}

FlowArrivalGenerator::~FlowArrivalGenerator() = default;

void
FlowArrivalGenerator::SetFlowSizeCdf(const FlowSizeCdf& cdf)
{
    FABRIC_INPUT_ERROR_IF(m_started, "FlowArrivalGenerator: SetFlowSizeCdf after the first Next()");
    FABRIC_INPUT_ERROR_IF(cdf.IsEmpty(), "FlowArrivalGenerator: SetFlowSizeCdf with an empty CDF");
    m_cdf = cdf;
}

const FlowSizeCdf&
FlowArrivalGenerator::GetFlowSizeCdf() const
{
    return m_cdf;
}

void
FlowArrivalGenerator::SetNHosts(uint32_t n)
{
    FABRIC_INPUT_ERROR_IF(m_started, "FlowArrivalGenerator: SetNHosts after the first Next()");
    FABRIC_INPUT_ERROR_IF(n < 2,
                          "FlowArrivalGenerator: " << n
                                                   << " hosts is invalid; flows need >= 2 hosts (a "
                                                      "flow cannot go to its own source)");
    m_nHosts = n;
}

uint32_t
FlowArrivalGenerator::GetNHosts() const
{
    return m_nHosts;
}

double
FlowArrivalGenerator::GetPerHostArrivalRate() const
{
    FABRIC_INPUT_ERROR_IF(m_cdf.IsEmpty(),
                          "FlowArrivalGenerator: no flow-size CDF (SetFlowSizeCdf)");
    return m_load * static_cast<double>(m_rate.GetBitRate()) / (8 * m_cdf.GetMean());
}

double
FlowArrivalGenerator::GetArrivalRate() const
{
    return m_nHosts * GetPerHostArrivalRate();
}

const std::vector<uint32_t>&
FlowArrivalGenerator::GetPermutation() const
{
    return m_permutation;
}

void
FlowArrivalGenerator::Start()
{
    FABRIC_INPUT_ERROR_IF(m_cdf.IsEmpty(),
                          "FlowArrivalGenerator: no flow-size CDF; call SetFlowSizeCdf (e.g. "
                          "FlowSizeCdf::LoadShipped(\"websearch\")) before Next()");
    FABRIC_INPUT_ERROR_IF(
        m_nHosts < 2,
        "FlowArrivalGenerator: " << m_nHosts << " hosts; call SetNHosts(n >= 2) before Next()");
    FABRIC_INPUT_ERROR_IF(m_stopTime <= m_startTime,
                          "FlowArrivalGenerator: StopTime "
                              << FabricFormatTime(m_stopTime) << " is not after StartTime "
                              << FabricFormatTime(m_startTime) << "; set StopTime > StartTime");
    FABRIC_INPUT_ERROR_IF(m_cdf.GetMean() < 1,
                          "FlowArrivalGenerator: the mean flow size of "
                              << m_cdf.GetSource() << " is " << m_cdf.GetMean()
                              << " bytes; the arrival rate needs a mean >= 1 byte");
    m_started = true;
    m_meanInterArrival = 1.0 / GetArrivalRate();
    m_nextId = m_firstId;
    if (m_pairMode == PAIR_PERMUTATION)
    {
        HtsimConnectionMatrix perm = HtsimConnectionMatrix::Permutation(m_nHosts, 1, m_hostRng);
        m_permutation.assign(m_nHosts, 0);
        for (const auto& c : perm.GetConnections())
        {
            m_permutation[c.src] = c.dst;
        }
    }
}

std::optional<FlowSpec>
FlowArrivalGenerator::Next()
{
    if (!m_started)
    {
        Start();
    }
    if (m_done)
    {
        return std::nullopt;
    }
    // One draw per statement: the order of the draws is part of the output.
    m_clock += m_arrivalRng->GetValue(m_meanInterArrival, 0);
    const double steps = std::floor(m_clock * static_cast<double>(Seconds(1).GetTimeStep()) + 0.5);
    const int64_t left = (m_stopTime - m_startTime).GetTimeStep();
    if (steps >= static_cast<double>(left))
    {
        m_done = true;
        return std::nullopt;
    }
    FlowSpec f;
    f.id = m_nextId++;
    f.start = m_startTime + TimeStep(static_cast<uint64_t>(steps));
    f.src = m_hostRng->GetInteger(0, m_nHosts - 1);
    if (m_pairMode == PAIR_PERMUTATION)
    {
        f.dst = m_permutation[f.src];
    }
    else
    {
        const uint32_t other = m_hostRng->GetInteger(0, m_nHosts - 2);
        f.dst = other >= f.src ? other + 1 : other;
    }
    f.sizeBytes = m_cdf.Sample(m_sizeRng->GetValue(0, 1));
    return f;
}

int64_t
FlowArrivalGenerator::AssignStreams(int64_t stream)
{
    m_arrivalRng->SetStream(stream);
    m_hostRng->SetStream(stream + 1);
    m_sizeRng->SetStream(stream + 2);
    return 3;
}

void
FlowArrivalGenerator::DoDispose()
{
    m_arrivalRng = nullptr;
    m_hostRng = nullptr;
    m_sizeRng = nullptr;
    FlowSource::DoDispose();
}

} // namespace ns3
