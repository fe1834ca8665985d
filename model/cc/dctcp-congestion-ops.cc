/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dctcp-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DctcpCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(DctcpCongestionOps);

TypeId
DctcpCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DctcpCongestionOps")
            .SetParent<FabricCongestionOps>()
            .SetGroupName("AiFabric")
            .AddConstructor<DctcpCongestionOps>()
            .AddAttribute("G",
                          "Alpha gain g in (0, 1]: alpha <- (1 - g) alpha + g F once per "
                          "window of data (DCTCP paper 1/16).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&DctcpCongestionOps::m_g),
                          MakeFabricPositiveDoubleChecker("ns3::DctcpCongestionOps::G", 1.0))
            .AddAttribute(
                "InitialAlpha",
                "Alpha of a new flow, [0, 1] (1: the first marks halve the window, "
                "as Linux's dctcp_alpha_on_init 1024/1024).",
                DoubleValue(1.0),
                MakeDoubleAccessor(&DctcpCongestionOps::m_initialAlpha),
                MakeFabricDoubleChecker("ns3::DctcpCongestionOps::InitialAlpha", 0.0, 1.0))
            .AddAttribute("InitialWindow",
                          "Window of a new flow, payload bytes; 0 = one bandwidth-delay product "
                          "(line rate x the path RTT, or x BaseRtt if the transport knows none).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DctcpCongestionOps::m_initialWindow),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "MinWindow",
                "Smallest window, payload bytes, >= 1 (one 4 KB RoCE packet).",
                UintegerValue(4096),
                MakeUintegerAccessor(&DctcpCongestionOps::m_minWindow),
                MakeFabricUintegerChecker<uint64_t>("ns3::DctcpCongestionOps::MinWindow", 1))
            .AddAttribute("MaxWindow",
                          "Largest window, payload bytes; 0 = no limit.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DctcpCongestionOps::m_maxWindow),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("BaseRtt",
                          "RTT of the initial bandwidth-delay product when the transport "
                          "reports no path RTT, > 0.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&DctcpCongestionOps::m_baseRtt),
                          MakeFabricTimeChecker("ns3::DctcpCongestionOps::BaseRtt", NanoSeconds(1)))
            .AddTraceSource("Alpha",
                            "Alpha after each observation window.",
                            MakeTraceSourceAccessor(&DctcpCongestionOps::m_alpha),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

DctcpCongestionOps::DctcpCongestionOps()
    : m_g(1.0 / 16),
      m_initialAlpha(1.0),
      m_initialWindow(0),
      m_minWindow(4096),
      m_maxWindow(0),
      m_baseRtt(MicroSeconds(10))
{
}

DctcpCongestionOps::~DctcpCongestionOps() = default;

std::string
DctcpCongestionOps::GetName() const
{
    return "DCTCP";
}

Ptr<FabricCongestionOps>
DctcpCongestionOps::Fork() const
{
    return CopyObject<DctcpCongestionOps>(this);
}

void
DctcpCongestionOps::Init(Ptr<FabricCcState> state)
{
    FabricCongestionOps::Init(state);
    NS_ABORT_MSG_IF(m_maxWindow > 0 && m_maxWindow < m_minWindow,
                    "DCTCP MaxWindow " << m_maxWindow << " B is below MinWindow " << m_minWindow
                                       << " B; it must be 0 (none) or >= MinWindow");
    double w = double(m_initialWindow);
    if (m_initialWindow == 0)
    {
        Time rtt = m_state->GetPathRtt().IsStrictlyPositive() ? m_state->GetPathRtt() : m_baseRtt;
        // bits/s x ps / 8e12, in long double: exact for any realistic rate and RTT
        w = double(std::round((long double)(GetLineRate().GetBitRate()) *
                              (long double)(rtt.GetPicoSeconds()) / 8e12L));
    }
    m_cwnd = w;
    m_alpha.Set(m_initialAlpha);
    m_windowAcked = 0;
    m_windowCe = 0;
    m_cwrBytes = 0;
    Apply();
    m_windowSize = m_cwnd;
}

double
DctcpCongestionOps::GetAlpha() const
{
    return m_alpha;
}

double
DctcpCongestionOps::GetCwnd() const
{
    return m_cwnd;
}

void
DctcpCongestionOps::Apply()
{
    m_cwnd = std::max(m_cwnd, double(m_minWindow));
    if (m_maxWindow > 0)
    {
        m_cwnd = std::min(m_cwnd, double(m_maxWindow));
    }
    SetWindow(static_cast<uint64_t>(m_cwnd));
}

void
DctcpCongestionOps::Decrease(double factor)
{
    if (m_cwrBytes > 0)
    {
        return; // the data in flight at the last decrease is not all acknowledged yet
    }
    m_cwrBytes = m_cwnd;
    m_cwnd *= factor;
    Apply();
}

void
DctcpCongestionOps::OnAck(const FabricCcAckSample& sample)
{
    if (sample.nack)
    {
        Decrease(0.5);
        return;
    }
    if (sample.ackedBytes == 0)
    {
        return;
    }
    m_cwrBytes = std::max(0.0, m_cwrBytes - double(sample.ackedBytes));
    uint64_t ce = std::min(sample.ceBytes, sample.ackedBytes);
    if (ce > 0)
    {
        Decrease(1.0 - m_alpha / 2);
    }
    else
    {
        m_cwnd += double(m_state->GetMssOrDefault()) * double(sample.ackedBytes) / m_cwnd;
        Apply();
    }
    m_windowAcked += sample.ackedBytes;
    m_windowCe += ce;
    if (double(m_windowAcked) >= m_windowSize)
    {
        double f = double(m_windowCe) / double(m_windowAcked);
        m_alpha.Set((1 - m_g) * m_alpha + m_g * f);
        NS_LOG_LOGIC("DCTCP window end: F " << f << " alpha " << m_alpha << " cwnd " << m_cwnd);
        m_windowAcked = 0;
        m_windowCe = 0;
        m_windowSize = m_cwnd;
    }
}

void
DctcpCongestionOps::OnEvent(FabricCcEvent event)
{
    if (event == FabricCcEvent::NACK)
    {
        Decrease(0.5);
    }
    else if (event == FabricCcEvent::TIMEOUT)
    {
        m_cwnd = double(m_minWindow);
        Apply();
    }
}

} // namespace ns3
