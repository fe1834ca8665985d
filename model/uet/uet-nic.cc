/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UetNic, its attributes and configuration, ports (FEPs), endpoints, the prototypes
 * new PDCs fork (congestion control, EV selector), completions and deliveries, and the framing
 * of the packets it sends. Its operations and PDCs (dispatch, PDCs opened and closed, shared
 * contexts; each FEP's PDCs are in a UetPdcTable) are in uet-nic-dispatch.cc, its receive path
 * in uet-nic-receive.cc.
 */
#include "uet-nic.h"

#include "uet-pds-header.h"
#include "uet-ses-header.h"
#include "uet-wire-sizes.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rccc-congestion-ops.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uet-single-ev-selector.h"
#include "ns3/uinteger.h"

#include <cstring>

namespace ns3
{

namespace
{

/**
 * \brief Create the prototype an attribute names (CongestionControl, EvSelector).
 * \tparam T the base class it must derive from
 * \param type the TypeId the attribute holds
 * \param attribute the attribute's name (for the error)
 * \param base T's name (for the error)
 * \return the instance (aborts naming the TypeId if it is not a T)
 */
template <typename T>
Ptr<T>
CreatePrototype(TypeId type, const char* attribute, const char* base)
{
    ObjectFactory f;
    f.SetTypeId(type);
    Ptr<T> p = DynamicCast<T>(f.Create());
    FABRIC_INPUT_ERROR_IF(!p,
                          "UetNic " << attribute << " " << type.GetName() << " is not a " << base);
    return p;
}

} // namespace

NS_LOG_COMPONENT_DEFINE("UetNic");
NS_OBJECT_ENSURE_REGISTERED(UetNic);

namespace
{
using namespace uetwire; // IP_UDP, MAX_HEADERS, L2_ROOM
} // namespace

TypeId
UetNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetNic")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetNic>()
            .AddAttribute("Mtu",
                          "Payload bytes per packet (256..16383; the SES payload_length field "
                          "is 14 bits). The port's MTU must carry it plus 88 header bytes.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&UetNic::SetMtu, &UetNic::GetMtu),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::Mtu", 256, 16383))
            .AddAttribute(
                "HeaderModelBytes",
                "0 (default): links and switch buffers charge every packet its real size "
                "(IPv4, UDP, PDS and SES headers, Ethernet header, FCS, preamble and inter-frame "
                "gap: 122 B beyond a full data packet's payload). 21..84: a simplified header "
                "model that charges a packet its payload plus this many bytes, framing included "
                "(UEC htsim: 64 with Mtu 4086, i.e. 4150-byte packets and 64-byte ACKs); the "
                "frames keep their real bytes (FabricFrame::SetSizeDiscount).",
                UintegerValue(0),
                MakeUintegerAccessor(&UetNic::m_headerModelBytes),
                MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::HeaderModelBytes", 0, 84))
            .AddAttribute("DataDscp",
                          "DSCP of request packets (26 -> priority 3, the fabric's lossless "
                          "class, as RoCE's; the UET congestion-management issue moves UET to "
                          "a trimming class).",
                          UintegerValue(26),
                          MakeUintegerAccessor(&UetNic::m_dataDscp),
                          MakeFabricUintegerChecker<uint8_t>("ns3::UetNic::DataDscp", 0, 63))
            .AddAttribute("ControlDscp",
                          "DSCP of ACK, NACK and control packets (48 -> priority 6).",
                          UintegerValue(48),
                          MakeUintegerAccessor(&UetNic::m_controlDscp),
                          MakeFabricUintegerChecker<uint8_t>("ns3::UetNic::ControlDscp", 0, 63))
            .AddAttribute("TrimmedDscp",
                          "DSCP by which the receiver knows a request trimmed in the fabric "
                          "(answered with NACK TRIMMED); must be the switches' SharedBufferMmu "
                          "TrimDscp (same default, 56) and differ from DataDscp (0..63).",
                          UintegerValue(56),
                          MakeUintegerAccessor(&UetNic::m_trimmedDscp),
                          MakeFabricUintegerChecker<uint8_t>("ns3::UetNic::TrimmedDscp", 0, 63))
            .AddAttribute(
                "TrimmedLastHopDscp",
                "DSCP by which the receiver knows a request trimmed at the last hop, the "
                "destination's ToR (answered with NACK TRIMMED_LASTHOP); must be the "
                "switches' SharedBufferMmu LastHopTrimDscp (same default, 57) and differ "
                "from DataDscp (0..63). Equal to TrimmedDscp: every trim reads as TRIMMED.",
                UintegerValue(57),
                MakeUintegerAccessor(&UetNic::m_trimmedLastHopDscp),
                MakeFabricUintegerChecker<uint8_t>("ns3::UetNic::TrimmedLastHopDscp", 0, 63))
            .AddAttribute("PdcPoolSize",
                          "General PDCIDs per FEP (1..65534; with ReservedPdcs at most 65535). "
                          "A target out of them answers SYNs with NACK NO_PDC_AVAIL.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&UetNic::m_poolSize),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::PdcPoolSize", 1, 65534))
            .AddAttribute(
                "ReservedPdcs",
                "Reserved PDCIDs per FEP (0..65534), for SYNs that ask for one.",
                UintegerValue(0),
                MakeUintegerAccessor(&UetNic::m_reservedPdcs),
                MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::ReservedPdcs", 0, 65534))
            .AddAttribute("MpRange",
                          "MP_RANGE: PSNs a sender may have outstanding beyond CACK_PSN; the "
                          "receiver NACKs PSNs beyond it with PSN_OOR_WINDOW (1..32768; UET "
                          "implementations use 128).",
                          UintegerValue(128),
                          MakeUintegerAccessor(&UetNic::m_mpRange),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::MpRange", 1, 32768))
            .AddAttribute("AckGenTrigger",
                          "ACK_Gen_Trigger: bytes received between coalesced ACKs (>= 1; spec "
                          "default 16384).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&UetNic::m_ackGenTrigger),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::AckGenTrigger", 1))
            .AddAttribute("AckGenMinPktAdd",
                          "ACK_Gen_Min_Pkt_Add: the least a packet adds to the ACK counter, "
                          "bytes (spec default 1024).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&UetNic::m_ackGenMinPktAdd),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InferLossAge",
                          "Inferred loss (OooThreshold) also requires the packet to be this many "
                          "smoothed RTTs old (0 = no age condition; 1.5 with spraying: longer "
                          "than reordering, shorter than an RTO, as htsim's SLEEK).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&UetNic::m_inferLossAge),
                          MakeFabricDoubleChecker("ns3::UetNic::InferLossAge", 0.0, 1000.0))
            .AddAttribute("AckOnHole",
                          "Acknowledge at once while the receive window has a hole (and when "
                          "one fills): fast loss recovery on fabrics that drop. Turn it off "
                          "with packet spraying (EvSelector other than single), where "
                          "reordering is normal and holes would force an ACK per packet; the "
                          "coalesced ACK_CC still carries the SACK bitmap.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UetNic::m_ackOnHole),
                          MakeBooleanChecker())
            .AddAttribute("AckDelay",
                          "A receiver that got packets it has not acknowledged (fewer than "
                          "AckGenTrigger bytes, no AR) and then nothing for this long ACKs them "
                          "(so packets before a lost tail are not resent on the RTO); 0 = no "
                          "timer (implementation choice; [0, 1 s]).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&UetNic::m_ackDelay),
                          MakeFabricTimeChecker("ns3::UetNic::AckDelay", Time(0), Seconds(1)))
            .AddAttribute("RtoMin",
                          "Retransmission timeout of a packet sent once (doubles per "
                          "retransmission up to RtoMax); (0, 10 s]. htsim uses about 100 us "
                          "at 100 Gb/s.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&UetNic::m_rtoMin),
                          MakeFabricTimeChecker("ns3::UetNic::RtoMin", TimeStep(1), Seconds(10)))
            .AddAttribute("RtoMax",
                          "Cap of the backed-off RTO, (0, 100 s]; must be >= RtoMin.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&UetNic::m_rtoMax),
                          MakeFabricTimeChecker("ns3::UetNic::RtoMax", TimeStep(1), Seconds(100)))
            .AddAttribute("RetryLimit",
                          "Retransmissions of one packet; when its RTO expires again the PDC "
                          "closes in error and its operations complete with an error (0..64).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&UetNic::m_retryLimit),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::RetryLimit", 0, 64))
            .AddAttribute("OooThreshold",
                          "Inferred loss: a PSN not SACKed while this many later PSNs were is "
                          "retransmitted (fabrics without trimming); 0 = off (0..1024).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&UetNic::m_oooThreshold),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::OooThreshold", 0, 1024))
            .AddAttribute("PdcIdleTime",
                          "An initiator PDC with nothing pending for this long sends Close "
                          "and frees its PDCID; 0 = never close.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&UetNic::m_pdcIdleTime),
                          MakeFabricTimeChecker("ns3::UetNic::PdcIdleTime", Time(0), Seconds(1000)))
            .AddAttribute(
                "NewPdcTime",
                "New_PDC_Time: a target PDC that saw only SYN packets for this long "
                "is freed (half-open reaping; implementation default 1 s).",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&UetNic::m_newPdcTime),
                MakeFabricTimeChecker("ns3::UetNic::NewPdcTime", TimeStep(1), Seconds(1000)))
            .AddAttribute(
                "CloseReqTime",
                "Close_REQ_Time: a target that sent Request-Close frees the PDC in "
                "error if no Close comes within this (implementation default 1 s).",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&UetNic::m_closeReqTime),
                MakeFabricTimeChecker("ns3::UetNic::CloseReqTime", TimeStep(1), Seconds(1000)))
            .AddAttribute(
                "UudReassemblyLimit",
                "UUD messages partly arrived kept per {source FEP, JobID} at a "
                "target; beyond it the oldest is dropped incomplete (a UUD message "
                "that lost a packet never completes) (1..65536).",
                UintegerValue(256),
                MakeUintegerAccessor(&UetNic::m_uudReassemblyLimit),
                MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::UudReassemblyLimit", 1, 65536))
            .AddAttribute("CongestionControl",
                          "TypeId of the per-PDC congestion control (a FabricCongestionOps): "
                          "its rate paces the PDC and its window bounds the payload in flight.",
                          TypeIdValue(FabricNoneCongestionOps::GetTypeId()),
                          MakeTypeIdAccessor(&UetNic::m_ccTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("ShareCcContext",
                          "PDCs to the same destination on the same port and traffic class "
                          "share one congestion control context (UEC 1.0 CCC: one window and "
                          "pacing clock per {source, destination, TC}); false gives every PDC "
                          "its own.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UetNic::m_shareCcc),
                          MakeBooleanChecker())
            .AddAttribute("CreditRate",
                          "Receiver credit (RCCC): the fraction of a port's line rate its "
                          "credit pacer grants, in (0, 1] (UET.md: 0.99). Granting more than "
                          "the line rate would let senders overrun the receiver's link.",
                          DoubleValue(0.99),
                          MakeDoubleAccessor(&UetNic::m_creditRate),
                          MakeFabricPositiveDoubleChecker("ns3::UetNic::CreditRate", 1.0))
            .AddAttribute(
                "CreditChunk",
                "Receiver credit (RCCC): most credit one grant carries, bytes on the "
                "wire (UET.md: 4 MTU; UEC htsim grants 4 x 4096), 1..2^23-1.",
                UintegerValue(16384),
                MakeUintegerAccessor(&UetNic::m_creditChunk),
                MakeFabricUintegerChecker<uint32_t>("ns3::UetNic::CreditChunk", 1, (1u << 23) - 1))
            .AddAttribute("IdleCredit",
                          "Receiver credit (RCCC): credit the pacer grants, when no sender "
                          "wants any, to each sender it satisfied, beyond what it asked, in "
                          "multiples of RCCC's MaxWindow (1.5 BDP; the NIC's own RCCC "
                          "prototype's, else a default RcccCongestionOps') (UEC htsim's slow "
                          "pull), 0..16; 0 = none. A collective's next step then leaves at "
                          "once instead of waiting a round trip for credit.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&UetNic::m_idleCredit),
                          MakeFabricDoubleChecker("ns3::UetNic::IdleCredit", 0.0, 16.0))
            .AddAttribute(
                "CreditRequestInterval",
                "Receiver credit (RCCC): a sender context stuck without credit sends "
                "at most one Credit-Request per interval (about one fabric RTT; "
                "without a grant it asks again after RtoMin), > 0.",
                TimeValue(MicroSeconds(10)),
                MakeTimeAccessor(&UetNic::m_creditRequestInterval),
                MakeFabricTimeChecker("ns3::UetNic::CreditRequestInterval", NanoSeconds(1)))
            .AddAttribute("EvSelector",
                          "TypeId of the per-PDC entropy (EV) selector (a UetEvSelector): "
                          "UetSingleEvSelector (default: one path per PDC, ECMP by flow), "
                          "UetObliviousEvSelector, UetBitmapEvSelector, UetRepsEvSelector or "
                          "UetMixedEvSelector (packet spraying; RUD only, ROD keeps one EV). "
                          "Its Evs attribute (ns3::UetEvSelector::Evs) is at most 16384, the "
                          "UDP source ports 49152..65535 an EV maps to.",
                          TypeIdValue(UetSingleEvSelector::GetTypeId()),
                          MakeTypeIdAccessor(&UetNic::m_evTypeId),
                          MakeTypeIdChecker())
            .AddTraceSource("Completion",
                            "An operation completed (successfully or not) at the initiator.",
                            MakeTraceSourceAccessor(&UetNic::m_completionTrace),
                            "ns3::UetNic::CompletionTracedCallback")
            .AddTraceSource("Delivery",
                            "A message was delivered to an endpoint of this NIC.",
                            MakeTraceSourceAccessor(&UetNic::m_deliveryTrace),
                            "ns3::UetNic::DeliveryTracedCallback")
            .AddTraceSource("PdcOpen",
                            "A PDC opened: port, local PDCID, peer FEP, initiator.",
                            MakeTraceSourceAccessor(&UetNic::m_pdcOpenTrace),
                            "ns3::UetNic::PdcOpenTracedCallback")
            .AddTraceSource("PdcClose",
                            "A PDC closed: port, local PDCID, peer FEP, in error, why.",
                            MakeTraceSourceAccessor(&UetNic::m_pdcCloseTrace),
                            "ns3::UetNic::PdcCloseTracedCallback")
            .AddTraceSource("Ack",
                            "An ACK was sent or received: local PDCID, CACK_PSN, PSNs newly "
                            "acknowledged (received ACKs), received.",
                            MakeTraceSourceAccessor(&UetNic::m_ackTrace),
                            "ns3::UetNic::AckTracedCallback")
            .AddTraceSource("Nack",
                            "A NACK was sent or received: local PDCID, NACK_PSN, code, "
                            "received.",
                            MakeTraceSourceAccessor(&UetNic::m_nackTrace),
                            "ns3::UetNic::NackTracedCallback")
            .AddTraceSource("Retransmit",
                            "A request packet is sent again: local PDCID, PSN, cause (nack, "
                            "rto, inferred, no-pdc).",
                            MakeTraceSourceAccessor(&UetNic::m_retxTrace),
                            "ns3::UetNic::RetransmitTracedCallback")
            .AddTraceSource("PsnSent",
                            "A request packet left: local PDCID, PSN, payload bytes (per-PDC "
                            "PSN progress with the Ack trace).",
                            MakeTraceSourceAccessor(&UetNic::m_sentTrace),
                            "ns3::UetNic::PsnSentTracedCallback");
    return tid;
}

UetNic::UetNic()
    : m_mtu(4096),
      m_dataDscp(26),
      m_controlDscp(48),
      m_trimmedDscp(56),
      m_trimmedLastHopDscp(57),
      m_poolSize(4096),
      m_reservedPdcs(0),
      m_mpRange(128),
      m_ackGenTrigger(16384),
      m_ackGenMinPktAdd(1024),
      m_ackDelay(MicroSeconds(2)),
      m_rtoMin(MicroSeconds(100)),
      m_rtoMax(MilliSeconds(100)),
      m_retryLimit(7),
      m_oooThreshold(3),
      m_pdcIdleTime(MilliSeconds(1)),
      m_newPdcTime(Seconds(1)),
      m_closeReqTime(Seconds(1)),
      m_uudReassemblyLimit(256),
      m_rng(CreateObject<UniformRandomVariable>())
{
}

UetNic::~UetNic() = default;

void
UetNic::DoDispose()
{
    if (m_core)
    {
        m_core->UnregisterTransport(UetPdsHeader::UDP_DST_PORT);
    }
    for (auto& fep : m_feps)
    {
        for (auto& ep : fep.endpoints)
        {
            ep->Dispose();
        }
    }
    m_feps.clear();
    m_cccs.clear(); // after the PDCs that used them
    m_ccPrototype = nullptr;
    m_evPrototype = nullptr;
    m_core = nullptr;
    m_rng = nullptr;
    Object::DoDispose();
}

void
UetNic::SetMtu(uint32_t mtu)
{
    NS_ABORT_MSG_IF(!m_feps.empty(),
                    "UetNic Mtu cannot change after ports were added (it was "
                        << m_mtu << ", asked " << mtu << ")");
    m_mtu = mtu;
}

uint32_t
UetNic::AddPort(Ptr<PfcNetDevice> dev, Ipv4Address address)
{
    NS_ABORT_MSG_IF(!dev, "UetNic::AddPort given a null device");
    NS_ABORT_MSG_IF(!dev->GetNode(), "UetNic::AddPort: the device belongs to no node");
    FABRIC_INPUT_ERROR_IF(dev->GetMtu() < m_mtu + MAX_HEADERS - IP_UDP + IP_UDP,
                          "UetNic::AddPort: device MTU "
                              << dev->GetMtu() << " cannot carry UET Mtu " << m_mtu << " + "
                              << MAX_HEADERS
                              << " header bytes (IPv4 20, UDP 8, PDS 16, "
                                 "SES 44)");
    FABRIC_INPUT_ERROR_IF(m_poolSize + m_reservedPdcs > 65535,
                          "UetNic: PdcPoolSize " << m_poolSize << " + ReservedPdcs "
                                                 << m_reservedPdcs
                                                 << " exceed the 65535 PDCIDs of a FEP");
    FABRIC_INPUT_ERROR_IF(
        m_headerModelBytes != 0 && m_headerModelBytes < 21,
        "UetNic: HeaderModelBytes "
            << m_headerModelBytes
            << " is invalid; valid is 0 (real sizes) or 21..84 (a packet is charged "
               "its payload plus this, framing included, and at least 1 byte "
               "beyond the 20 of preamble and inter-frame gap)");
    FABRIC_INPUT_ERROR_IF(m_rtoMax < m_rtoMin,
                          "UetNic: RtoMax " << m_rtoMax.As(Time::US) << " is below RtoMin "
                                            << m_rtoMin.As(Time::US));
    FABRIC_INPUT_ERROR_IF(
        m_dataDscp == m_trimmedDscp || m_dataDscp == m_trimmedLastHopDscp,
        "UetNic: DataDscp " << unsigned(m_dataDscp) << " equals "
                            << (m_dataDscp == m_trimmedDscp ? "TrimmedDscp" : "TrimmedLastHopDscp")
                            << " " << unsigned(m_dataDscp)
                            << ": every request would look trimmed; the DSCPs of "
                               "trimmed packets (TrimmedDscp "
                            << unsigned(m_trimmedDscp) << ", TrimmedLastHopDscp "
                            << unsigned(m_trimmedLastHopDscp) << ") must differ from DataDscp");
    if (!m_core)
    {
        m_core = FabricNic::GetOrCreate(dev->GetNode());
        m_core->RegisterTransport(UetPdsHeader::UDP_DST_PORT, this);
    }
    NS_ABORT_MSG_IF(dev->GetNode()->GetObject<FabricNic>() != m_core,
                    "UetNic::AddPort: the device belongs to node " << dev->GetNode()->GetId()
                                                                   << ", not to this NIC's node");
    uint32_t index = m_core->FindPort(dev);
    if (index >= m_core->GetNPorts())
    {
        index = m_core->AddPort(dev, address);
    }
    if (m_feps.size() <= index)
    {
        m_feps.resize(index + 1);
    }
    Fep& fep = m_feps[index];
    if (!fep.pdcs.IsInitialized())
    {
        fep.pdcs.Init(this, index, m_poolSize, m_reservedPdcs);
    }
    return index;
}

uint32_t
UetNic::GetNPorts() const
{
    return static_cast<uint32_t>(m_feps.size());
}

Ipv4Address
UetNic::GetAddress(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= GetNPorts() || !m_feps[i].pdcs.IsInitialized(),
                    "UetNic: port " << i << " does not exist (the NIC has " << GetNPorts() << ")");
    return m_core->GetAddress(i);
}

Ptr<FabricNic>
UetNic::GetCore() const
{
    return m_core;
}

uint32_t
UetNic::GetNodeId() const
{
    return m_core && m_core->GetNPorts() > 0 ? m_core->GetPort(0)->GetNode()->GetId() : 0;
}

Ptr<UetEndpoint>
UetNic::CreateEndpoint(uint32_t jobId, uint16_t pidOnFep, uint32_t port, uint16_t resources)
{
    NS_ABORT_MSG_IF(port >= GetNPorts() || !m_feps[port].pdcs.IsInitialized(),
                    "UetNic::CreateEndpoint: port " << port << " does not exist (the NIC has "
                                                    << GetNPorts() << "; add ports first)");
    NS_ABORT_MSG_IF(jobId > 0xFFFFFF,
                    "UetNic::CreateEndpoint: JobID " << jobId << " is out of range (0..16777215)");
    NS_ABORT_MSG_IF(pidOnFep > 0xFFF,
                    "UetNic::CreateEndpoint: PIDonFEP " << pidOnFep
                                                        << " is out of range (0..4095)");
    NS_ABORT_MSG_IF(resources == 0 || resources > 4096,
                    "UetNic::CreateEndpoint: " << resources
                                               << " resources is out of range (1..4096)");
    NS_ABORT_MSG_IF(GetEndpoint(port, jobId, pidOnFep),
                    "UetNic::CreateEndpoint: node " << GetNodeId() << " port " << port
                                                    << " already has the endpoint {JobID " << jobId
                                                    << ", PIDonFEP " << pidOnFep << "}");
    Ptr<UetEndpoint> ep = CreateObject<UetEndpoint>();
    ep->Bind(this, port, jobId, pidOnFep, resources);
    m_feps[port].endpoints.push_back(ep);
    return ep;
}

Ptr<UetEndpoint>
UetNic::GetEndpoint(uint32_t port, uint32_t jobId, uint16_t pidOnFep) const
{
    if (port >= m_feps.size())
    {
        return nullptr;
    }
    for (const auto& ep : m_feps[port].endpoints)
    {
        if (ep->GetJobId() == jobId && ep->GetPidOnFep() == pidOnFep)
        {
            return ep;
        }
    }
    return nullptr;
}

uint8_t
UetNic::FindTarget(uint32_t port, uint32_t jobId, uint16_t pid, UetEndpoint** ep) const
{
    *ep = nullptr;
    bool job = false;
    for (const auto& e : m_feps[port].endpoints)
    {
        if (e->GetJobId() == jobId)
        {
            job = true;
            if (e->GetPidOnFep() == pid)
            {
                *ep = PeekPointer(e);
                return UetSesHeader::RC_OK;
            }
        }
    }
    return job ? UetSesHeader::RC_BAD_PID : UetSesHeader::RC_BAD_JOB_ID;
}

const UetNicCounters&
UetNic::GetCounters() const
{
    return m_counters;
}

uint64_t
UetNic::GetPendingBytes() const
{
    return m_pendingBytes;
}

uint64_t
UetNic::GetPendingOperations() const
{
    return m_pendingOps;
}

uint32_t
UetNic::GetDeviceMtuFor(uint32_t mtu)
{
    return mtu + MAX_HEADERS;
}

uint32_t
UetNic::GetMtu() const
{
    return m_mtu;
}

uint32_t
UetNic::GetMpRange() const
{
    return m_mpRange;
}

uint32_t
UetNic::GetAckGenTrigger() const
{
    return m_ackGenTrigger;
}

uint32_t
UetNic::GetAckGenMinPktAdd() const
{
    return m_ackGenMinPktAdd;
}

Time
UetNic::GetRtoMin() const
{
    return m_rtoMin;
}

Time
UetNic::GetRtoMax() const
{
    return m_rtoMax;
}

uint32_t
UetNic::GetRetryLimit() const
{
    return m_retryLimit;
}

double
UetNic::GetInferLossAge() const
{
    return m_inferLossAge;
}

bool
UetNic::GetAckOnHole() const
{
    return m_ackOnHole;
}

Time
UetNic::GetAckDelay() const
{
    return m_ackDelay;
}

uint32_t
UetNic::GetOooThreshold() const
{
    return m_oooThreshold;
}

Time
UetNic::GetPdcIdleTime() const
{
    return m_pdcIdleTime;
}

Time
UetNic::GetNewPdcTime() const
{
    return m_newPdcTime;
}

Time
UetNic::GetCloseReqTime() const
{
    return m_closeReqTime;
}

uint8_t
UetNic::GetDataDscp() const
{
    return m_dataDscp;
}

uint8_t
UetNic::GetControlDscp() const
{
    return m_controlDscp;
}

uint8_t
UetNic::GetTrimmedDscp() const
{
    return m_trimmedDscp;
}

uint8_t
UetNic::GetTrimmedLastHopDscp() const
{
    return m_trimmedLastHopDscp;
}

void
UetNic::CheckSwitchTrimming(const std::string& where,
                            uint32_t trimSize,
                            uint8_t trimDscp,
                            uint8_t lastHopTrimDscp) const
{
    uint32_t minTrim = GetMinTrimBytes();
    FABRIC_INPUT_ERROR_IF(
        trimSize < minTrim,
        where << ": SharedBufferMmu TrimSize " << trimSize
              << " B is too small for Ultra Ethernet: a trimmed UET request must keep "
                 "its headers (IPv4 20 + UDP 8 + PDS "
              << (minTrim - MIN_TRIM_BYTES + 12) << " + SES 44 = " << minTrim
              << " B) for the receiver to NACK it; valid range with this UET NIC is " << minTrim
              << "..65535");
    FABRIC_INPUT_ERROR_IF(trimDscp != m_trimmedDscp,
                          where << ": SharedBufferMmu TrimDscp " << unsigned(trimDscp)
                                << " differs from UetNic TrimmedDscp " << unsigned(m_trimmedDscp)
                                << ": the UET receivers would take trimmed packets for short data "
                                   "packets; set both to the same value (0..63)");
    FABRIC_INPUT_ERROR_IF(
        lastHopTrimDscp != m_trimmedLastHopDscp,
        where << ": SharedBufferMmu LastHopTrimDscp " << unsigned(lastHopTrimDscp)
              << " differs from UetNic TrimmedLastHopDscp " << unsigned(m_trimmedLastHopDscp)
              << ": the UET receivers would take packets trimmed at the last hop for "
                 "short data packets; set both to the same value (0..63)");
}

uint8_t
UetNic::GetDataPriority(uint32_t port) const
{
    return m_core->GetPort(port)->GetDscpPriority(m_dataDscp);
}

uint8_t
UetNic::GetControlPriority(uint32_t port) const
{
    return m_core->GetPort(port)->GetDscpPriority(m_controlDscp);
}

int64_t
UetNic::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

Ptr<FabricCongestionOps>
UetNic::GetCongestionPrototype()
{
    if (!m_ccPrototype)
    {
        m_ccPrototype = CreatePrototype<FabricCongestionOps>(m_ccTypeId,
                                                             "CongestionControl",
                                                             "FabricCongestionOps");
    }
    return m_ccPrototype;
}

Ptr<UetEvSelector>
UetNic::GetEvSelectorPrototype()
{
    if (!m_evPrototype)
    {
        m_evPrototype = CreatePrototype<UetEvSelector>(m_evTypeId, "EvSelector", "UetEvSelector");
    }
    NS_ABORT_MSG_IF(m_evPrototype->GetEvs() > EV_PORTS,
                    "UetNic EvSelector: Evs " << m_evPrototype->GetEvs()
                                              << " is out of range; it must be in 1.." << EV_PORTS
                                              << " (the UDP source ports an EV maps to)");
    return m_evPrototype;
}

bool
UetNic::Sprays()
{
    return !DynamicCast<UetSingleEvSelector>(GetEvSelectorPrototype());
}

Ptr<UetEvSelector>
UetNic::NewEvSelector()
{
    Ptr<UetEvSelector> s = GetEvSelectorPrototype()->Fork();
    s->Init(m_rng);
    return s;
}

bool
UetNic::WantsReceiverState()
{
    // Asked each time: the prototype's answer may change after its creation (RCCC's SenderCc
    // set later, as FabricTransportConfig::Finish does).
    return GetCongestionPrototype()->WantsReceiverState();
}

void
UetNic::SetPathRttFunction(std::function<Time(Ipv4Address)> f)
{
    m_pathRtt = std::move(f);
}

Time
UetNic::GetPathRtt(Ipv4Address peer) const
{
    return m_pathRtt ? m_pathRtt(peer) : Time(0);
}

uint32_t
UetNic::GetMinTrimBytes() const
{
    // A request carrying CC state (RUD_CC_REQ, receiver credit) has a 16-byte PDS header.
    return m_ccPrototype ? (m_ccPrototype->UsesCredit() ? MIN_TRIM_BYTES + 4 : MIN_TRIM_BYTES)
                         : GetMinTrimBytesFor(m_ccTypeId);
}

uint32_t
UetNic::GetMinTrimBytesFor(TypeId cc)
{
    TypeId rccc = RcccCongestionOps::GetTypeId();
    return cc == rccc || cc.IsChildOf(rccc) ? MIN_TRIM_BYTES + 4 : MIN_TRIM_BYTES;
}

void
UetNic::NotifyCompletion(const UetCompletion& c, const UetCompletionCallback& cb)
{
    m_pendingOps--;
    m_pendingBytes -= c.bytes;
    if (c.ok)
    {
        m_counters.opsCompleted++;
        m_counters.bytesCompleted += c.bytes;
    }
    else
    {
        m_counters.opsFailed++;
        m_counters.bytesFailed += c.bytes;
    }
    m_core->NotifyWorkCompleted(1);
    m_completionTrace(c);
    if (!cb.IsNull())
    {
        cb(c);
    }
}

void
UetNic::NotifyDelivery(const UetDelivery& d)
{
    m_counters.messagesDelivered++;
    m_counters.bytesDelivered += d.bytes;
    m_deliveryTrace(d);
}

FabricFrame
UetNic::MakeFrame(uint32_t port,
                  uint8_t* h,
                  uint32_t hdrBytes,
                  uint32_t body,
                  uint32_t dstBits,
                  uint16_t udpSrc,
                  bool data)
{
    uint32_t total = hdrBytes + body;
    uint8_t dscp = data ? m_dataDscp : m_controlDscp;
    h[0] = 0x45;
    h[1] = static_cast<uint8_t>((dscp << 2) | (data ? 0x02 : 0x00)); // ECT(0) on data
    wire::PutU16(h + 2, static_cast<uint16_t>(total));
    wire::PutU16(h + 4, 0);
    wire::PutU16(h + 6, 0x4000); // DF
    h[8] = 64;
    h[9] = 17;
    wire::PutU16(h + 10, 0);
    wire::PutU32(h + 12, m_core->GetAddress(port).Get());
    wire::PutU32(h + 16, dstBits);
    wire::PutU16(h + 10, wire::Ipv4HeaderChecksum(h, 20));
    wire::PutU16(h + 20, udpSrc);
    wire::PutU16(h + 22, UetPdsHeader::UDP_DST_PORT);
    wire::PutU16(h + 24, static_cast<uint16_t>(total - 20));
    wire::PutU16(h + 26, 0); // UDP checksum 0 (UET.md)
    uint8_t priority = data ? GetDataPriority(port) : GetControlPriority(port);
    uint8_t l2h[L2_ROOM];
    uint32_t l2 = m_core->WriteFrameHeader(port, priority, l2h);
    std::memcpy(h - l2, l2h, l2);
    uint32_t frame = l2 + total + PfcNetDevice::FCS_BYTES;
    uint32_t pad =
        frame < PfcNetDevice::MIN_FRAME_BYTES ? PfcNetDevice::MIN_FRAME_BYTES - frame : 0;
    FabricFrame f(h - l2, l2 + hdrBytes, body + pad + PfcNetDevice::FCS_BYTES);
    if (m_headerModelBytes != 0)
    {
        // The device adds preamble and inter-frame gap to the charged size.
        const uint32_t wire = f.GetSize() + PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
        const uint32_t charged = body + m_headerModelBytes;
        f.SetSizeDiscount(wire > charged ? wire - charged : 0);
    }
    return f;
}

uint32_t
UetNic::GetHeaderModelBytes() const
{
    return m_headerModelBytes;
}

uint32_t
UetNic::GetPacketOverheadBytes(uint32_t ipHeaderBytes) const
{
    if (m_headerModelBytes != 0)
    {
        return m_headerModelBytes;
    }
    return ipHeaderBytes + PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::FCS_BYTES +
           PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
}

} // namespace ns3
