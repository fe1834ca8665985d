/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rccc-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RcccCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(RcccCongestionOps);

TypeId
RcccCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RcccCongestionOps")
            .SetParent<FabricCongestionOps>()
            .SetGroupName("AiFabric")
            .AddConstructor<RcccCongestionOps>()
            .AddAttribute("BaseRtt",
                          "The network RTT MaxWindow's default is computed from (> 0); set it "
                          "to the fabric's largest unloaded RTT (htsim's fat tree: 14.0227 us).",
                          TimeValue(MicroSeconds(12)),
                          MakeTimeAccessor(&RcccCongestionOps::m_baseRtt),
                          MakeFabricTimeChecker("ns3::RcccCongestionOps::BaseRtt", NanoSeconds(1)))
            .AddAttribute("MaxWindow",
                          "Most credit the flow asks for, bytes on the wire; 0 = 1.5 x line "
                          "rate x BaseRtt.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RcccCongestionOps::m_maxWndAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("SpeculativeCredit",
                          "Credit a new flow starts with before any grant, bytes on the wire; "
                          "0 = MaxWindow (UEC htsim), at most MaxWindow. At least one packet "
                          "goes speculatively: it opens the PDC and carries the first request.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RcccCongestionOps::m_specAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "Mtu",
                "Least credit asked for while speculating with a backlog, bytes "
                "(1..65536; the UET NIC's Mtu).",
                UintegerValue(4096),
                MakeUintegerAccessor(&RcccCongestionOps::m_mtu),
                MakeFabricUintegerChecker<uint32_t>("ns3::RcccCongestionOps::Mtu", 1, 65536))
            .AddAttribute("SenderCc",
                          "A sender algorithm run beside RCCC on the same flow (e.g. a "
                          "NsccCongestionOps: NSCC and RCCC together; sending needs both); "
                          "null = RCCC alone. It is forked for every flow.",
                          PointerValue(),
                          MakePointerAccessor(&RcccCongestionOps::m_sender),
                          MakePointerChecker<FabricCongestionOps>())
            .AddTraceSource("Granted",
                            "Cumulative credit granted by the receiver, bytes on the wire.",
                            MakeTraceSourceAccessor(&RcccCongestionOps::m_granted),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("CreditTarget",
                            "The last cumulative credit target computed, bytes on the wire.",
                            MakeTraceSourceAccessor(&RcccCongestionOps::m_target),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

RcccCongestionOps::RcccCongestionOps() = default;
RcccCongestionOps::~RcccCongestionOps() = default;

void
RcccCongestionOps::DoDispose()
{
    m_sender = nullptr;
    FabricCongestionOps::DoDispose();
}

std::string
RcccCongestionOps::GetName() const
{
    return m_sender ? "RCCC+" + m_sender->GetName() : "RCCC";
}

Ptr<FabricCongestionOps>
RcccCongestionOps::Fork() const
{
    Ptr<RcccCongestionOps> c = CopyObject<RcccCongestionOps>(this);
    c->m_sender = m_sender ? m_sender->Fork() : nullptr;
    return c;
}

void
RcccCongestionOps::Init(Ptr<FabricCcState> state)
{
    FabricCongestionOps::Init(state);
    NS_ABORT_MSG_IF(m_sender && DynamicCast<RcccCongestionOps>(m_sender),
                    "RCCC SenderCc is an RcccCongestionOps; it must be a sender algorithm "
                    "(e.g. ns3::NsccCongestionOps) or null");
    m_maxWnd = ComputeMaxWindow(GetLineRate());
    uint64_t spec = m_specAttr > 0 ? m_specAttr : m_maxWnd;
    NS_ABORT_MSG_IF(spec > m_maxWnd,
                    "RCCC SpeculativeCredit " << spec << " B is out of range; it must be in 1.."
                                              << m_maxWnd << " B (MaxWindow)");
    m_speculating = true;
    m_granted.Set(0);
    m_target.Set(0);
    state->SetUsesCredit(true);
    state->SetCredit(static_cast<int64_t>(spec));
    if (m_sender)
    {
        m_sender->Init(state);
    }
}

uint64_t
RcccCongestionOps::ComputeMaxWindow(DataRate lineRate) const
{
    double bdp = m_baseRtt.GetSeconds() * static_cast<double>(lineRate.GetBitRate()) / 8.0;
    return m_maxWndAttr > 0 ? m_maxWndAttr : static_cast<uint64_t>(std::llround(1.5 * bdp));
}

void
RcccCongestionOps::StopSpeculating()
{
    if (m_speculating)
    {
        m_speculating = false;
        if (m_state->GetCredit() > 0)
        {
            m_state->SetCredit(0);
        }
    }
}

void
RcccCongestionOps::OnAck(const FabricCcAckSample& sample)
{
    StopSpeculating();
    if (m_sender)
    {
        m_sender->OnAck(sample);
    }
}

void
RcccCongestionOps::OnEvent(FabricCcEvent event)
{
    if (m_sender)
    {
        m_sender->OnEvent(event);
    }
}

void
RcccCongestionOps::OnBytesSent(uint32_t bytes)
{
    if (m_sender)
    {
        m_sender->OnBytesSent(bytes);
    }
}

void
RcccCongestionOps::OnCredit(uint64_t cumulativeBytes)
{
    if (cumulativeBytes <= m_granted)
    {
        return;
    }
    StopSpeculating();
    m_state->SetCredit(m_state->GetCredit() +
                       static_cast<int64_t>(cumulativeBytes - m_granted.Get()));
    m_granted.Set(cumulativeBytes);
}

uint64_t
RcccCongestionOps::GetCreditTarget()
{
    int64_t want = static_cast<int64_t>(std::min(m_state->GetBacklog(), m_maxWnd));
    uint64_t window = m_state->GetWindow();
    if (window != 0)
    {
        want = std::min<int64_t>(want, static_cast<int64_t>(window + m_mtu));
    }
    int64_t need = want - m_state->GetCredit();
    if (m_speculating && need < static_cast<int64_t>(m_mtu) && m_state->GetBacklog() > 0)
    {
        need = m_mtu;
    }
    m_target.Set(m_granted + static_cast<uint64_t>(std::max<int64_t>(need, 0)));
    return m_target;
}

bool
RcccCongestionOps::UsesCredit() const
{
    return true;
}

bool
RcccCongestionOps::WantsRttSamples() const
{
    return m_sender && m_sender->WantsRttSamples();
}

bool
RcccCongestionOps::WantsReceiverState() const
{
    return m_sender && m_sender->WantsReceiverState();
}

} // namespace ns3
