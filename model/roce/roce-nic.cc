/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-nic.h"

#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-icrc-trailer.h"
#include "roce-immdt-header.h"
#include "roce-int-header.h"
#include "roce-reth-header.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/dcqcn-congestion-ops.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-congestion-ops.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNic");
NS_OBJECT_ENSURE_REGISTERED(RoceNic);

const char*
RoceNicDropReasonName(RoceNicDropReason reason)
{
    switch (reason)
    {
    case RoceNicDropReason::UNKNOWN_FLOW:
        return "unknown qp";
    case RoceNicDropReason::NO_TRANSPORT:
        return "not roce";
    default:
        return FabricNicDropReasonName(reason);
    }
}

TypeId
RoceNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceNic")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceNic>()
            .AddAttribute("Mtu",
                          "Path MTU: payload bytes per packet, one of 256, 512, 1024, 2048, "
                          "4096 (IBTA Vol 1 9.6.1).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RoceNic::SetMtu, &RoceNic::GetMtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AckInterval",
                          "The responder ACKs every this many in-order packets, and always at "
                          "a message end or on AckReq (>= 1).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RoceNic::m_ackInterval),
                          MakeFabricUintegerChecker<uint32_t>("ns3::RoceNic::AckInterval", 1))
            .AddAttribute(
                "OutOfOrderWindow",
                "Out-of-order placement (direct data placement, as NICs that pair with "
                "per-packet adaptive routing do): a SEND/WRITE packet up to this many PSNs "
                "ahead of ePSN is written to memory on arrival instead of dropped; ePSN, ACKs "
                "and completions still advance in order as the gap fills, and a packet beyond "
                "the window is dropped with a NAK (go-back-N). 0 (default) = off: IBTA's "
                "go-back-N, every packet ahead of ePSN dropped. 0 or a power of two 2..4096; "
                "each QP keeps one 16-byte slot per PSN of the window.",
                UintegerValue(0),
                MakeUintegerAccessor(&RoceNic::m_oooWindow),
                MakeFabricChecker<UintegerValue>(
                    MakeUintegerChecker<uint32_t>(),
                    "ns3::RoceNic::OutOfOrderWindow",
                    [](const uint64_t& w) {
                        return w == 0 || (w >= 2 && w <= 4096 && (w & (w - 1)) == 0);
                    },
                    "0 (off) or a power of two 2..4096",
                    [](const uint64_t& w) { return std::to_string(w); }))
            .AddAttribute(
                "LocalAckTimeout",
                "Local ACK timeout exponent: timeout = 4.096 us x 2^value (0..31; "
                "14 = 67 ms, a common default).",
                UintegerValue(14),
                MakeUintegerAccessor(&RoceNic::m_localAckTimeout),
                MakeFabricUintegerChecker<uint32_t>("ns3::RoceNic::LocalAckTimeout", 0, 31))
            .AddAttribute("RetryCount",
                          "Timeouts tolerated before the QP enters the error state (0..7).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RoceNic::m_retryCount),
                          MakeFabricUintegerChecker<uint32_t>("ns3::RoceNic::RetryCount", 0, 7))
            .AddAttribute("CnpInterval",
                          "Alias of ns3::DcqcnNotificationPoint::CnpInterval for this NIC's "
                          "QPs: at most one CNP per QP per this interval. Negative (the "
                          "default) = unset: the notification point's own value applies.",
                          TimeValue(Time(-1)),
                          MakeTimeAccessor(&RoceNic::m_cnpInterval),
                          MakeTimeChecker())
            .AddAttribute("DataDscp",
                          "DSCP of data packets (26 -> priority 3, the lossless class).",
                          UintegerValue(26),
                          MakeUintegerAccessor(&RoceNic::m_dataDscp),
                          MakeFabricUintegerChecker<uint8_t>("ns3::RoceNic::DataDscp", 0, 63))
            .AddAttribute("AckDscp",
                          "DSCP of ACK/NAK packets (48 -> priority 6).",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RoceNic::m_ackDscp),
                          MakeFabricUintegerChecker<uint8_t>("ns3::RoceNic::AckDscp", 0, 63))
            .AddAttribute("CnpDscp",
                          "DSCP of CNPs (firmware CNP_DSCP 48 -> priority 6).",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RoceNic::m_cnpDscp),
                          MakeFabricUintegerChecker<uint8_t>("ns3::RoceNic::CnpDscp", 0, 63))
            .AddAttribute(
                "CongestionNotification",
                "How the responder reports ECN CE-marked data to the requester: Cnp (a "
                "CNP when the NotificationPoint says so; DCQCN, the default) or AckEcho (the "
                "BTH BECN bit on the ACK, with an immediate ACK whenever the CE state of "
                "the in-order data changes; DCTCP, or DCQCN in the HPCC-paper style).",
                EnumValue(ROCE_NOTIFY_CNP),
                compat::MakeEnumAccessor<RoceCongestionNotification>(&RoceNic::m_notification),
                MakeEnumChecker(ROCE_NOTIFY_CNP, "Cnp", ROCE_NOTIFY_ACK_ECHO, "AckEcho"))
            .AddAttribute("EchoHopCount",
                          "The responder writes the switch hops its data crossed (64 minus "
                          "the IPv4 TTL received; the requester sends TTL 64) into the 7 "
                          "reserved BTH bits after AckReq (octet 8, bits 6..0, 0..127) of its "
                          "ACKs; the requester passes it to its congestion control "
                          "(FabricCcAckSample::hopCount; Swift's hop scaling). Off: 0.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNic::m_echoHopCount),
                          MakeBooleanChecker())
            .AddAttribute("Int",
                          "In-band network telemetry for HPCC (RoceInt): request packets carry "
                          "an INT stack after the BTH (2 B + 8 B per hop, reserved at the "
                          "sender; BTH octet 4 bit 5) and the IPv4 reserved flag that makes "
                          "switches append a hop record; the responder copies the stack into "
                          "its ACKs and the requester passes the hops to its congestion control "
                          "(FabricCcAckSample::hops). Off: no INT, packets unchanged.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNic::m_int),
                          MakeBooleanChecker())
            .AddAttribute("IntMaxHops",
                          "Hop records an INT stack reserves, 1..5 (HPCC's 5). A packet with "
                          "a RETH (first of a WRITE, READ request) reserves at most 4, so that "
                          "its headers fit the 112-byte frame head (FabricFrame).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RoceNic::m_intMaxHops),
                          MakeFabricUintegerChecker<uint32_t>("ns3::RoceNic::IntMaxHops", 1, 5))
            .AddAttribute("CongestionControl",
                          "TypeId of the per-QP congestion control (a FabricCongestionOps).",
                          TypeIdValue(FabricNoneCongestionOps::GetTypeId()),
                          MakeTypeIdAccessor(&RoceNic::m_ccTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("NotificationPoint",
                          "TypeId of the per-QP receiver-side congestion control (a "
                          "FabricCcReceiverOps) that decides when the responder returns a CNP.",
                          TypeIdValue(DcqcnNotificationPoint::GetTypeId()),
                          MakeTypeIdAccessor(&RoceNic::m_npTypeId),
                          MakeTypeIdChecker())
            .AddAttribute(
                "FirstQpn",
                "QP number of the first QP created (later ones count up).",
                UintegerValue(256),
                MakeUintegerAccessor(&RoceNic::m_firstQpn),
                MakeFabricUintegerChecker<uint32_t>("ns3::RoceNic::FirstQpn", 2, 0xfff000))
            .AddTraceSource("Drop",
                            "A received packet was dropped by this NIC's core: packet, reason.",
                            MakeTraceSourceAccessor(&RoceNic::m_dropTrace),
                            "ns3::RoceNic::DropTracedCallback")
            .AddTraceSource("Completion",
                            "A work request of any QP completed.",
                            MakeTraceSourceAccessor(&RoceNic::m_completionTrace),
                            "ns3::RoceNic::CompletionTracedCallback");
    return tid;
}

RoceNic::RoceNic()
    : m_mtu(4096),
      m_ackInterval(16),
      m_oooWindow(0),
      m_localAckTimeout(14),
      m_retryCount(7),
      m_cnpInterval(Time(-1)),
      m_dataDscp(26),
      m_ackDscp(48),
      m_cnpDscp(48),
      m_firstQpn(256)
{
}

RoceNic::~RoceNic() = default;

void
RoceNic::DoDispose()
{
    if (m_core)
    {
        m_core->UnregisterTransport(RoceBthHeader::UDP_DST_PORT);
        m_core->TraceDisconnectWithoutContext("Drop", MakeCallback(&RoceNic::CoreDrop, this));
    }
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->Dispose();
        }
    }
    m_qps.clear();
    m_ccPrototype = nullptr;
    m_npPrototype = nullptr;
    m_core = nullptr;
    Object::DoDispose();
}

void
RoceNic::SetMtu(uint32_t mtu)
{
    NS_ABORT_MSG_IF(mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096,
                    "RoceNic Mtu " << mtu
                                   << " is invalid; RoCE path MTUs are 256, 512, 1024, 2048, 4096");
    NS_ABORT_MSG_IF(!m_qps.empty(), "RoceNic Mtu cannot change after QPs were created");
    m_mtu = mtu;
}

void
RoceNic::AttachCore(Ptr<Node> node)
{
    m_core = FabricNic::GetOrCreate(node);
    m_core->RegisterTransport(RoceBthHeader::UDP_DST_PORT, this);
    m_core->TraceConnectWithoutContext("Drop", MakeCallback(&RoceNic::CoreDrop, this));
}

uint32_t
RoceNic::AddPort(Ptr<PfcNetDevice> dev, Ipv4Address address)
{
    NS_ABORT_MSG_IF(!dev, "RoceNic::AddPort given a null device");
    NS_ABORT_MSG_IF(!dev->GetNode(), "RoceNic::AddPort: the device belongs to no node");
    CheckDeviceMtu(dev, "RoceNic::AddPort");
    if (!m_core)
    {
        AttachCore(dev->GetNode());
    }
    NS_ABORT_MSG_IF(dev->GetNode()->GetObject<FabricNic>() != m_core,
                    "RoceNic::AddPort: the device belongs to node " << dev->GetNode()->GetId()
                                                                    << ", not to this NIC's node");
    uint32_t index = m_core->FindPort(dev);
    return index < m_core->GetNPorts() ? index : m_core->AddPort(dev, address);
}

void
RoceNic::CheckDeviceMtu(Ptr<PfcNetDevice> dev, const char* who) const
{
    static_assert(RoceBthHeader::SIZE == 12, "MAX_HEADER_BYTES counts a 12-byte BTH");
    const uint32_t intHops = m_int ? m_intMaxHops : 0;
    const uint32_t need = GetDeviceMtuFor(m_mtu, intHops);
    NS_ABORT_MSG_IF(dev->GetMtu() < need,
                    who << ": device MTU " << dev->GetMtu() << " cannot carry RoCE MTU " << m_mtu
                        << " + " << need - m_mtu << " header bytes"
                        << (intHops > 0 ? " (INT stack included: Int on, IntMaxHops " +
                                              std::to_string(intHops) + ")"
                                        : std::string())
                        << "; the device MTU must be >= " << need);
}

uint32_t
RoceNic::GetNPorts() const
{
    return m_core ? m_core->GetNPorts() : 0;
}

Ptr<PfcNetDevice>
RoceNic::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= GetNPorts(),
                    "RoceNic: port " << i << " does not exist (the NIC has " << GetNPorts() << ")");
    return m_core->GetPort(i);
}

Ipv4Address
RoceNic::GetAddress(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= GetNPorts(),
                    "RoceNic: port " << i << " does not exist (the NIC has " << GetNPorts() << ")");
    return m_core->GetAddress(i);
}

Ptr<FabricNic>
RoceNic::GetCore() const
{
    return m_core;
}

void
RoceNic::CoreDrop(Ptr<const Packet> packet, FabricNicDropReason reason)
{
    m_dropTrace(packet, reason);
}

Ptr<RoceQueuePair>
RoceNic::CreateQp(uint32_t port)
{
    NS_ABORT_MSG_IF(m_firstQpn + m_qps.size() > RoceBthHeader::MAX_24BIT,
                    "RoceNic::CreateQp: QP numbers exhausted (2^24)");
    return CreateQpAt(m_firstQpn + static_cast<uint32_t>(m_qps.size()), port);
}

void
RoceNic::MakePrototypes()
{
    if (!m_ccPrototype)
    {
        ObjectFactory f;
        f.SetTypeId(m_ccTypeId);
        m_ccPrototype = f.Create<FabricCongestionOps>();
        NS_ABORT_MSG_IF(!m_ccPrototype,
                        "RoceNic CongestionControl " << m_ccTypeId.GetName()
                                                     << " is not a FabricCongestionOps");
    }
    if (!m_npPrototype)
    {
        ObjectFactory f;
        f.SetTypeId(m_npTypeId);
        m_npPrototype = f.Create<FabricCcReceiverOps>();
        NS_ABORT_MSG_IF(!m_npPrototype,
                        "RoceNic NotificationPoint " << m_npTypeId.GetName()
                                                     << " is not a FabricCcReceiverOps");
        if (!m_cnpInterval.IsNegative())
        {
            m_npPrototype->SetAttribute("CnpInterval", TimeValue(m_cnpInterval));
        }
    }
}

Ptr<RoceQueuePair>
RoceNic::CreateQpAt(uint32_t qpn, uint32_t port)
{
    NS_ABORT_MSG_IF(port >= GetNPorts(),
                    "RoceNic::CreateQp: port " << port << " does not exist (the NIC has "
                                               << GetNPorts() << "; add ports first)");
    NS_ABORT_MSG_IF(qpn < m_firstQpn || qpn > RoceBthHeader::MAX_24BIT,
                    "RoceNic::CreateQpAt: QPN " << qpn << " is invalid; valid are " << m_firstQpn
                                                << ".." << RoceBthHeader::MAX_24BIT);
    const uint32_t slot = qpn - m_firstQpn;
    NS_ABORT_MSG_IF(slot < m_qps.size() && m_qps[slot],
                    "RoceNic::CreateQpAt: QPN "
                        << qpn
                        << " is taken (per-peer numbering starts at the first QP number free "
                           "when the flow service starts: create other QPs before it)");
    if (m_qps.empty())
    {
        // Int and IntMaxHops may have been set after the ports were added.
        for (uint32_t i = 0; i < GetNPorts(); ++i)
        {
            CheckDeviceMtu(m_core->GetPort(i), "RoceNic::CreateQp");
        }
    }
    MakePrototypes();
    Ptr<RoceQueuePair> qp = CreateObject<RoceQueuePair>();
    qp->Bind(this, qpn, port, NewCongestionOps(port), m_npPrototype->Fork());
    if (slot >= m_qps.size())
    {
        m_qps.resize(slot + 1);
    }
    m_qps[slot] = qp;
    return qp;
}

void
RoceNic::SetQpResolver(QpResolver resolver)
{
    m_resolver = resolver;
}

RoceQueuePair*
RoceNic::Resolve(uint32_t qpn, uint32_t port)
{
    if (m_resolver.IsNull())
    {
        return nullptr;
    }
    Ptr<RoceQueuePair> qp = m_resolver(qpn, port);
    NS_ABORT_MSG_IF(qp && (qp->GetQpn() != qpn || GetQp(qpn) != qp),
                    "RoceNic: the QP resolver gave no QP " << qpn << " of this NIC");
    return PeekPointer(qp);
}

uint32_t
RoceNic::ReserveQp()
{
    NS_ABORT_MSG_IF(m_firstQpn + m_qps.size() > RoceBthHeader::MAX_24BIT,
                    "RoceNic::ReserveQp: QP numbers exhausted (2^24)");
    m_qps.push_back(nullptr);
    return m_firstQpn + static_cast<uint32_t>(m_qps.size() - 1);
}

Ptr<FabricCongestionOps>
RoceNic::NewCongestionOps(uint32_t port, Time pathRtt) const
{
    Ptr<FabricCcState> state = CreateObject<FabricCcState>();
    state->Init(m_core->GetPort(port)->GetDataRate());
    state->SetMss(m_mtu);
    state->SetPathRtt(pathRtt);
    Ptr<FabricCongestionOps> cc = m_ccPrototype->Fork();
    cc->Init(state);
    return cc;
}

void
RoceNic::RenewCongestionControl(Ptr<RoceQueuePair> qp, Time pathRtt)
{
    NS_ABORT_MSG_IF(!qp || GetQp(qp->GetQpn()) != qp,
                    "RoceNic::RenewCongestionControl: the QP does not belong to this NIC");
    NS_ABORT_MSG_IF(pathRtt.IsStrictlyNegative(),
                    "RoceNic::RenewCongestionControl: pathRtt " << pathRtt
                                                                << " is invalid; valid is >= 0");
    qp->RebindCongestionControl(NewCongestionOps(qp->GetPortIndex(), pathRtt),
                                m_npPrototype->Fork());
}

Ptr<FabricCcReceiverOps>
RoceNic::NewReceiverOps()
{
    MakePrototypes();
    return m_npPrototype->Fork();
}

Ptr<RoceQueuePair>
RoceNic::GetQp(uint32_t qpn) const
{
    uint32_t idx = qpn - m_firstQpn;
    return idx < m_qps.size() ? m_qps[idx] : nullptr;
}

Ptr<RoceQueuePair>
RoceNic::GetQpAt(uint32_t index) const
{
    NS_ABORT_MSG_IF(index >= m_qps.size(),
                    "RoceNic::GetQpAt: index " << index << " is invalid; this NIC has "
                                               << m_qps.size() << " QPs");
    return m_qps[index];
}

uint32_t
RoceNic::GetNQps() const
{
    return static_cast<uint32_t>(m_qps.size());
}

uint64_t
RoceNic::GetPendingOperations() const
{
    uint64_t n = 0;
    for (const auto& qp : m_qps)
    {
        n += qp ? qp->GetOutstandingWorkRequests() : 0;
    }
    return n;
}

void
RoceNic::DescribePending(std::ostream& os) const
{
    for (const auto& qp : m_qps)
    {
        if (qp && qp->GetOutstandingWorkRequests() > 0)
        {
            qp->Describe(os);
            os << "\n";
        }
    }
}

RoceQpCounters
RoceNic::GetTotalQpCounters() const
{
    RoceQpCounters t;
    for (const auto& qp : m_qps)
    {
        if (!qp)
        {
            continue; // reserved (ReserveQp)
        }
        const RoceQpCounters& c = qp->GetCounters();
        t.txDataPackets += c.txDataPackets;
        t.txDataBytes += c.txDataBytes;
        t.retransmittedPackets += c.retransmittedPackets;
        t.rxDataPackets += c.rxDataPackets;
        t.rxDataBytes += c.rxDataBytes;
        t.acksTx += c.acksTx;
        t.acksRx += c.acksRx;
        t.naksTx += c.naksTx;
        t.naksRx += c.naksRx;
        t.cnpsTx += c.cnpsTx;
        t.cnpsRx += c.cnpsRx;
        t.ceRx += c.ceRx;
        t.duplicatesRx += c.duplicatesRx;
        t.outOfOrderRx += c.outOfOrderRx;
        t.timeouts += c.timeouts;
        t.completions += c.completions;
    }
    return t;
}

uint32_t
RoceNic::GetDeviceMtuFor(uint32_t mtu, uint32_t intHops)
{
    return mtu + MAX_HEADER_BYTES +
           (intHops > 0 ? RoceInt::StackBytes(std::min(intHops, RoceInt::MAX_HOPS)) : 0);
}

uint32_t
RoceNic::GetMtu() const
{
    return m_mtu;
}

uint32_t
RoceNic::GetAckInterval() const
{
    return m_ackInterval;
}

uint32_t
RoceNic::GetOutOfOrderWindow() const
{
    return m_oooWindow;
}

Time
RoceNic::GetLocalAckTimeout() const
{
    // 4.096 us x 2^n, exactly: 4096 ns << n.
    return NanoSeconds(int64_t(4096) << m_localAckTimeout);
}

void
RoceNic::SetRxDrainRate(DataRate rate)
{
    NS_ABORT_MSG_IF(!m_core, "RoceNic::SetRxDrainRate before the NIC has a port (AddPort)");
    m_core->SetRxDrainRate(rate);
}

DataRate
RoceNic::GetRxDrainRate() const
{
    return m_core ? m_core->GetRxDrainRate() : DataRate(0);
}

uint32_t
RoceNic::GetRetryCount() const
{
    return m_retryCount;
}

uint8_t
RoceNic::GetDataDscp() const
{
    return m_dataDscp;
}

uint8_t
RoceNic::GetAckDscp() const
{
    return m_ackDscp;
}

uint8_t
RoceNic::GetCnpDscp() const
{
    return m_cnpDscp;
}

const std::array<uint64_t, size_t(RoceNicDropReason::COUNT)>&
RoceNic::GetDrops() const
{
    static const std::array<uint64_t, size_t(RoceNicDropReason::COUNT)> none{};
    return m_core ? m_core->GetDrops() : none;
}

uint32_t
RoceNic::GetMaxRxHeaderBytes() const
{
    return RX_HEADER_BYTES;
}

uint32_t
RoceNic::GetRxHeaderBytes(const uint8_t* ip, uint32_t avail) const
{
    // With the BTH at hand, exactly the headers its opcode has; otherwise the most there are.
    if (avail < FIXED_HEADER_BYTES)
    {
        return RX_HEADER_BYTES;
    }
    uint32_t n = HeaderBytes(ip[28]);
    if (ip[32] & RoceInt::BTH_INT_BIT)
    {
        n += avail >= FIXED_HEADER_BYTES + RoceInt::HEADER_BYTES
                 ? RoceInt::StackBytes(
                       std::min<uint32_t>(ip[FIXED_HEADER_BYTES + 1], RoceInt::MAX_HOPS))
                 : RoceInt::MAX_BYTES;
    }
    return std::min(n, RX_HEADER_BYTES);
}

bool
RoceNic::Deliver(uint32_t portIndex,
                 const uint8_t* b,
                 uint32_t got,
                 uint32_t size,
                 FabricNicDropReason& reason)
{
    // The core checked IPv4 (no options), UDP to port 4791 and the destination address.
    constexpr uint32_t FIXED = FIXED_HEADER_BYTES;
    if (got < FIXED || size < FIXED)
    {
        reason = FabricNicDropReason::MALFORMED;
        return false;
    }
    const uint8_t* bth = b + 28;
    RoceRxPacket rx;
    rx.opcode = bth[0];
    rx.padCount = (bth[1] >> 4) & 0x3;
    rx.ackReq = (bth[8] & 0x80) != 0;
    rx.psn = wire::GetU24(bth + 9);
    rx.ce = (b[1] & 0x03) == 0x03;
    rx.ttl = b[8];
    rx.becn = (bth[4] & RoceBthHeader::BECN_BIT) != 0;
    rx.resv7 = bth[8] & 0x7f;
    uint32_t intBytes = 0;
    if (bth[4] & RoceInt::BTH_INT_BIT)
    {
        // An INT stack (RoceInt) between the BTH and the extension headers.
        if (got < FIXED + RoceInt::HEADER_BYTES || b[FIXED + 1] > RoceInt::MAX_HOPS ||
            got < FIXED + RoceInt::StackBytes(b[FIXED + 1]) ||
            RoceInt::GetNHops(b + FIXED) > RoceInt::GetCapacity(b + FIXED))
        {
            reason = FabricNicDropReason::MALFORMED;
            return false;
        }
        rx.intStack = b + FIXED;
        intBytes = RoceInt::StackBytes(b[FIXED + 1]);
    }
    rx.ext = b + FIXED + intBytes;
    rx.extBytes = std::min(got, RX_HEADER_BYTES) - FIXED - intBytes;
    if (size < FIXED + intBytes)
    {
        reason = FabricNicDropReason::MALFORMED;
        return false;
    }
    rx.afterBth = size - FIXED - intBytes;
    uint32_t need = HeaderBytes(rx.opcode) - FIXED;
    if (rx.afterBth < need + RoceIcrcTrailer::SIZE + rx.padCount)
    {
        reason = FabricNicDropReason::MALFORMED;
        return false;
    }
    const uint32_t qpn = wire::GetU24(bth + 5);
    const uint32_t idx = qpn - m_firstQpn;
    RoceQueuePair* qp = idx < m_qps.size() ? PeekPointer(m_qps[idx]) : nullptr;
    if (!qp)
    {
        qp = Resolve(qpn, portIndex); // null without a resolver
    }
    if (!qp || qp->GetPortIndex() != portIndex)
    {
        reason = FabricNicDropReason::UNKNOWN_FLOW;
        return false;
    }
    qp->Receive(rx);
    return true;
}

} // namespace ns3
