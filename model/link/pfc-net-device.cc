/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-net-device.h"

#include "member-trace-source-accessor.h"
#include "pfc-channel.h"
#include "pfc-dot1q-header.h"
#include "pfc-strict-priority-scheduler.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-match.h"
#include "ns3/fabric-time.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstring>
#include <sstream>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcNetDevice");
NS_OBJECT_ENSURE_REGISTERED(PfcNetDevice);

namespace
{
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;
} // namespace

const char*
PfcDropReasonName(PfcDropReason reason)
{
    switch (reason)
    {
    case PfcDropReason::QUEUE_FULL:
        return "queue full";
    case PfcDropReason::OVERSIZE:
        return "oversize";
    case PfcDropReason::LINK_DOWN:
        return "link down";
    case PfcDropReason::RX_ERROR:
        return "rx error";
    case PfcDropReason::WRONG_DESTINATION:
        return "wrong destination";
    case PfcDropReason::UNKNOWN_MAC_CONTROL:
        return "unknown MAC control";
    case PfcDropReason::MALFORMED:
        return "malformed";
    case PfcDropReason::NO_RECEIVER:
        return "no receiver";
    default:
        return "unknown";
    }
}

TypeId
PfcNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("AiFabric")
            .AddConstructor<PfcNetDevice>()
            .AddAttribute(
                "Mtu",
                "Largest L3 payload in bytes (68..9216).",
                UintegerValue(9000),
                MakeUintegerAccessor(&PfcNetDevice::SetMtuAttribute, &PfcNetDevice::GetMtu),
                MakeUintegerChecker<uint16_t>())
            .AddAttribute("Address",
                          "The MAC address of this port.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&PfcNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute(
                "DataRate",
                "Line rate in bits/s (> 0), e.g. 400Gbps.",
                DataRateValue(DataRate("400Gbps")),
                MakeDataRateAccessor(&PfcNetDevice::SetDataRate, &PfcNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Tagging",
                          "How the priority travels: Dscp (untagged, priority from IPv4 DSCP) "
                          "or Pcp (802.1Q tag, priority in PCP).",
                          EnumValue(DSCP),
                          compat::MakeEnumAccessor<Tagging>(&PfcNetDevice::m_tagging),
                          MakeEnumChecker(DSCP, "Dscp", PCP, "Pcp"))
            .AddAttribute("VlanId",
                          "VLAN identifier of 802.1Q tags in Pcp mode (0..4095).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcNetDevice::m_vid),
                          MakeFabricUintegerChecker<uint16_t>("ns3::PfcNetDevice::VlanId", 0, 4095))
            .AddAttribute(
                "DefaultPriority",
                "Priority (0..7) of untagged non-IPv4 frames.",
                UintegerValue(0),
                MakeUintegerAccessor(&PfcNetDevice::m_defaultPriority),
                MakeFabricUintegerChecker<uint8_t>("ns3::PfcNetDevice::DefaultPriority", 0, 7))
            .AddAttribute("DscpPriorityMap",
                          "Overrides of the DSCP->priority map as \"dscp:priority,...\" "
                          "(dscp 0..63, priority 0..7); unlisted DSCPs map to DSCP >> 3.",
                          StringValue(""),
                          MakeStringAccessor(&PfcNetDevice::SetDscpMapString,
                                             &PfcNetDevice::GetDscpMapString),
                          MakeStringChecker())
            .AddAttribute(
                "TxScheduler",
                "Transmission selection among priorities.",
                PointerValue(),
                MakePointerAccessor(&PfcNetDevice::SetTxScheduler, &PfcNetDevice::GetTxScheduler),
                MakePointerChecker<PfcTxScheduler>())
            .AddAttribute("PfcEnableMask",
                          "Bit i set = PFC enabled on priority i: pauses received for it are "
                          "honoured and SetXoff may pause it. 0 disables PFC.",
                          UintegerValue(0xff),
                          MakeUintegerAccessor(&PfcNetDevice::SetPfcEnableMask,
                                               &PfcNetDevice::GetPfcEnableMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute(
                "PauseQuanta",
                "Pause time in quanta of 512 bit times sent in XOFF frames (1..65535).",
                UintegerValue(0xffff),
                MakeUintegerAccessor(&PfcNetDevice::SetPauseQuanta, &PfcNetDevice::GetPauseQuanta),
                MakeFabricUintegerChecker<uint16_t>("ns3::PfcNetDevice::PauseQuanta", 1))
            .AddAttribute("PauseRefreshInterval",
                          "How often an XOFF is re-sent while it holds; 0 = half the pause "
                          "time of PauseQuanta at DataRate.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PfcNetDevice::SetPauseRefreshInterval,
                                           &PfcNetDevice::GetPauseRefreshInterval),
                          MakeFabricTimeChecker("ns3::PfcNetDevice::PauseRefreshInterval", Time(0)))
            .AddAttribute("PfcWatchdogTimeout",
                          "A priority paused continuously for longer than this is declared a "
                          "PFC storm (traced, counted); 0 disables the watchdog.",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&PfcNetDevice::SetPfcWatchdogTimeout,
                                           &PfcNetDevice::GetPfcWatchdogTimeout),
                          MakeFabricTimeChecker("ns3::PfcNetDevice::PfcWatchdogTimeout", Time(0)))
            .AddAttribute("PfcWatchdogRestore",
                          "After a storm, pauses on that priority are ignored for this long.",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&PfcNetDevice::SetPfcWatchdogRestore,
                                           &PfcNetDevice::GetPfcWatchdogRestore),
                          MakeFabricTimeChecker("ns3::PfcNetDevice::PfcWatchdogRestore", Time(0)))
            .AddAttribute("ReceiveErrorModel",
                          "Optional error model deciding which received frames are corrupted.",
                          PointerValue(),
                          MakePointerAccessor(&PfcNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddAttribute("TxQueueMaxSize",
                          "Drop-tail limit of each priority's transmit queue: packets (\"100p\") "
                          "or bytes (\"1MB\"), > 0.",
                          QueueSizeValue(QueueSize("10000p")),
                          MakeQueueSizeAccessor(&PfcNetDevice::SetTxQueueMaxSize,
                                                &PfcNetDevice::GetTxQueueMaxSize),
                          MakeQueueSizeChecker())
            .AddTraceSource("TxEnqueue",
                            "A frame entered a priority's transmit queue: frame, priority.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_txEnqueueTrace),
                            "ns3::PfcNetDevice::QueueTracedCallback")
            .AddTraceSource("TxDequeue",
                            "A frame left a priority's transmit queue to be serialized: "
                            "frame, priority.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_txDequeueTrace),
                            "ns3::PfcNetDevice::QueueTracedCallback")
            .AddTraceSource("MacTx",
                            "An L3 packet was accepted for transmission.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "An L3 packet was received and passed up.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame starts serializing.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A frame and its inter-frame gap finished (frames that started "
                            "while a sink was connected).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame was fully received.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Frames sent or received by this port (non-promiscuous capture).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every frame on this port, including PFC (promiscuous capture).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcPauseTx",
                            "A PFC frame left with a time for this priority (0 = XON).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcPauseTxTrace),
                            "ns3::PfcNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcPauseRx",
                            "A PFC frame arrived with a time for this priority (0 = XON).",
                            MakeMemberTraceSourceAccessor(&PfcNetDevice::m_pauseReceiver,
                                                          &PfcPauseReceiver::GetPauseRxTrace),
                            "ns3::PfcNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcStorm",
                            "The PFC watchdog declared a storm on this priority.",
                            MakeMemberTraceSourceAccessor(&PfcNetDevice::m_pauseReceiver,
                                                          &PfcPauseReceiver::GetStormTrace),
                            "ns3::TracedValueCallback::Uint8")
            .AddTraceSource("Drop",
                            "A frame or packet was dropped, with the reason.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_dropTrace),
                            "ns3::PfcNetDevice::DropTracedCallback");
    return tid;
}

PfcNetDevice::PfcNetDevice()
    : m_txBusy(false),
      m_backlogMask(0),
      m_pausedMask(0),
      m_defaultPriority(0),
      m_tagging(DSCP),
      m_mtu(9000),
      m_vid(0),
      m_ifIndex(0),
      m_bps(DataRate("400Gbps")),
      m_linkUp(false)
{
    m_pauseReceiver.Bind<PfcNetDevice, &PfcNetDevice::PauseEnded>(&m_pausedMask, this);
    m_pauseGenerator.Bind<PfcNetDevice, &PfcNetDevice::SendPfcFrame>(this);
    for (uint8_t d = 0; d < 64; ++d)
    {
        SetDscpEntry(d, d >> 3);
    }
    m_scheduler = CreateObject<PfcStrictPriorityScheduler>();
    m_strictPriority = true;
    m_txCompleteEvent = Create<RecurringEvent<PfcNetDevice, &PfcNetDevice::TransmitComplete>>(this);
    m_phyRxEndTrace.Bind(&m_traceSinks, PHY_RX_END);
    m_snifferTrace.Bind(&m_traceSinks, SNIFFER);
    m_promiscSnifferTrace.Bind(&m_traceSinks, PROMISC);
    m_phyTxBeginTrace.Bind(&m_traceSinks, PHY_TX_BEGIN);
    m_phyTxEndTrace.Bind(&m_traceSinks, PHY_TX_END);
    m_txEnqueueTrace.Bind(&m_traceSinks, TX_ENQUEUE);
    m_txDequeueTrace.Bind(&m_traceSinks, TX_DEQUEUE);
    m_macTxTrace.Bind(&m_traceSinks, MAC_TX);
    m_macRxTrace.Bind(&m_traceSinks, MAC_RX);
}

PfcNetDevice::~PfcNetDevice() = default;

void
PfcNetDevice::DoDispose()
{
    m_pauseReceiver.Dispose();
    m_pauseGenerator.Dispose();
    m_node = nullptr;
    m_channel = nullptr;
    for (auto& q : m_queues)
    {
        q.Clear();
    }
    m_scheduler = nullptr;
    m_controlQueue.clear();
    m_controlPending = false;
    m_currentFrame = nullptr;
    m_txEndDeferred = false;
    m_engine.Reset();
    m_receiveErrorModel = nullptr;
    m_rxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscCallback.Nullify();
    m_pfcRxCallback.Nullify();
    m_dequeueCallback.Nullify();
    NetDevice::DoDispose();
}

void
PfcNetDevice::DoInitialize()
{
    NS_ABORT_MSG_IF(m_address == Mac48Address("ff:ff:ff:ff:ff:ff"),
                    "PfcNetDevice on node " << (m_node ? int(m_node->GetId()) : -1)
                                            << " has no MAC address; set Address (PfcHelper "
                                               "allocates one)");
    NetDevice::DoInitialize();
}

void
PfcNetDevice::CheckPriority(uint8_t priority, const char* what)
{
    NS_ABORT_MSG_IF(priority >= NUM_PRIORITIES,
                    what << ": priority " << unsigned(priority)
                         << " is invalid; valid priorities are 0..7");
}

void
PfcNetDevice::SetMtuAttribute(uint16_t mtu)
{
    NS_ABORT_MSG_IF(mtu < 68 || mtu > 9216,
                    "PfcNetDevice Mtu " << mtu << " is invalid; valid range is 68..9216 bytes");
    m_mtu = mtu;
}

void
PfcNetDevice::SetDataRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "PfcNetDevice DataRate " << rate << " is invalid; it must be > 0 bit/s");
    m_bps = rate;
    m_txTimesBytes = {}; // cached serialization times were for the old rate
    m_pauseReceiver.SetDataRate(rate);
    m_pauseGenerator.SetDataRate(rate);
}

DataRate
PfcNetDevice::GetDataRate() const
{
    return m_bps;
}

void
PfcNetDevice::SetPfcEnableMask(uint8_t mask)
{
    m_pauseGenerator.SetEnableMask(mask);
    m_pauseReceiver.SetEnableMask(mask); // resumes the priorities it disables
}

uint8_t
PfcNetDevice::GetPfcEnableMask() const
{
    return m_pauseReceiver.GetEnableMask();
}

void
PfcNetDevice::SetPauseQuanta(uint16_t quanta)
{
    m_pauseGenerator.SetPauseQuanta(quanta);
}

uint16_t
PfcNetDevice::GetPauseQuanta() const
{
    return m_pauseGenerator.GetPauseQuanta();
}

void
PfcNetDevice::SetPauseRefreshInterval(Time interval)
{
    m_pauseGenerator.SetRefreshInterval(interval);
}

Time
PfcNetDevice::GetPauseRefreshInterval() const
{
    return m_pauseGenerator.GetRefreshInterval();
}

void
PfcNetDevice::SetPfcWatchdogTimeout(Time timeout)
{
    m_pauseReceiver.SetWatchdogTimeout(timeout);
}

Time
PfcNetDevice::GetPfcWatchdogTimeout() const
{
    return m_pauseReceiver.GetWatchdogTimeout();
}

void
PfcNetDevice::SetPfcWatchdogRestore(Time restore)
{
    m_pauseReceiver.SetWatchdogRestore(restore);
}

Time
PfcNetDevice::GetPfcWatchdogRestore() const
{
    return m_pauseReceiver.GetWatchdogRestore();
}

void
PfcNetDevice::SetDscpPriority(uint8_t dscp, uint8_t priority)
{
    NS_ABORT_MSG_IF(dscp > 63, "DSCP " << unsigned(dscp) << " is invalid; valid DSCPs are 0..63");
    CheckPriority(priority, "SetDscpPriority");
    SetDscpEntry(dscp, priority);
}

void
PfcNetDevice::SetDscpEntry(uint8_t dscp, uint8_t priority)
{
    uint64_t& word = m_dscpPacked[dscp >> 4];
    uint32_t shift = (dscp & 15u) * 4;
    word = (word & ~(uint64_t(0xf) << shift)) | (uint64_t(priority) << shift);
}

uint8_t
PfcNetDevice::GetDscpPriority(uint8_t dscp) const
{
    NS_ABORT_MSG_IF(dscp > 63, "DSCP " << unsigned(dscp) << " is invalid; valid DSCPs are 0..63");
    return DscpPriority(dscp);
}

void
PfcNetDevice::SetDscpMapString(std::string map)
{
    std::istringstream iss(map);
    std::string item;
    while (std::getline(iss, item, ','))
    {
        if (item.empty())
        {
            continue;
        }
        auto colon = item.find(':');
        int dscp = -1;
        int prio = -1;
        try
        {
            if (colon == std::string::npos)
            {
                throw std::invalid_argument("no colon");
            }
            std::size_t u1 = 0;
            std::size_t u2 = 0;
            dscp = std::stoi(item.substr(0, colon), &u1);
            prio = std::stoi(item.substr(colon + 1), &u2);
            if (u1 != colon || u2 != item.size() - colon - 1)
            {
                dscp = -1;
            }
        }
        catch (const std::exception&)
        {
            dscp = -1;
        }
        NS_ABORT_MSG_IF(dscp < 0 || dscp > 63 || prio < 0 || prio > 7,
                        "DscpPriorityMap entry \"" << item
                                                   << "\" is invalid; expected dscp:priority "
                                                      "with dscp 0..63 and priority 0..7");
        SetDscpEntry(static_cast<uint8_t>(dscp), static_cast<uint8_t>(prio));
    }
}

std::string
PfcNetDevice::GetDscpMapString() const
{
    std::ostringstream oss;
    bool first = true;
    for (uint8_t d = 0; d < 64; ++d)
    {
        if (DscpPriority(d) != (d >> 3))
        {
            oss << (first ? "" : ",") << unsigned(d) << ":" << unsigned(DscpPriority(d));
            first = false;
        }
    }
    return oss.str();
}

void
PfcNetDevice::Attach(Ptr<PfcChannel> channel)
{
    NS_ABORT_MSG_IF(!channel, "PfcNetDevice::Attach given a null channel");
    m_channel = channel;
    m_channelEnd = m_channel->Attach(this);
    m_linkUp = true;
    m_linkChangeCallbacks();
}

void
PfcNetDevice::SetTxQueueMaxSize(QueueSize size)
{
    NS_ABORT_MSG_IF(size.GetValue() == 0,
                    "PfcNetDevice TxQueueMaxSize " << size
                                                   << " is invalid; give at least 1 packet or "
                                                      "one frame's bytes");
    for (auto& q : m_queues)
    {
        q.SetMaxSize(size);
    }
}

QueueSize
PfcNetDevice::GetTxQueueMaxSize() const
{
    return m_queues[0].GetMaxSize();
}

const PfcTxQueue&
PfcNetDevice::GetTxQueue(uint8_t priority) const
{
    CheckPriority(priority, "PfcNetDevice::GetTxQueue");
    return m_queues[priority];
}

void
PfcNetDevice::SetTxScheduler(Ptr<PfcTxScheduler> scheduler)
{
    if (!scheduler)
    {
        return; // attribute default (null pointer): keep the strict-priority default
    }
    m_scheduler = scheduler;
    // Strict priority keeps no state: its choice is computed inline (no call, no cache line).
    m_strictPriority = scheduler->GetInstanceTypeId() == PfcStrictPriorityScheduler::GetTypeId();
}

Ptr<PfcTxScheduler>
PfcNetDevice::GetTxScheduler() const
{
    return m_scheduler;
}

uint8_t
PfcNetDevice::Classify(Ptr<const Packet> packet, uint16_t protocol) const
{
    if (protocol == IPV4_ETHERTYPE && packet->GetSize() >= 2)
    {
        uint8_t first2[2];
        packet->CopyData(first2, 2);
        return DscpPriority(first2[1] >> 2);
    }
    return m_defaultPriority;
}

uint32_t
PfcNetDevice::WriteL2Header(uint8_t* out,
                            Mac48Address dest,
                            uint16_t protocol,
                            uint8_t priority) const
{
    // The six bytes of the address, without Mac48Address::CopyTo's out-of-line call (a
    // standard-layout class whose only member is its byte array).
    static_assert(std::is_standard_layout_v<Mac48Address> && sizeof(Mac48Address) == 6,
                  "Mac48Address is read as its six bytes");
    std::memcpy(out, &dest, 6);
    std::memcpy(out + 6, m_addressBytes, 6);
    if (m_tagging == PCP)
    {
        // Same bytes as EthernetHeader + PfcDot1qHeader (DEI 0).
        wire::PutU16(out + 12, PfcDot1qHeader::TPID);
        wire::PutU16(out + 14, static_cast<uint16_t>((priority << 13) | (m_vid & 0x0fff)));
        wire::PutU16(out + 16, protocol);
    }
    else
    {
        wire::PutU16(out + 12, protocol);
    }
    return L2HeaderBytes();
}

uint32_t
PfcNetDevice::L2HeaderBytes() const
{
    return m_tagging == PCP ? ETH_HEADER_BYTES + DOT1Q_BYTES : ETH_HEADER_BYTES;
}

void
PfcNetDevice::AddFraming(Ptr<Packet> packet, Mac48Address dst, uint16_t protocol, uint8_t priority)
{
    // One AddHeader for the whole L2 header (see FabricWireHeader) and one AddTrailer for the
    // FCS: per-protocol header objects cost a visible share of the data path.
    uint8_t h[ETH_HEADER_BYTES + DOT1Q_BYTES];
    uint32_t header = WriteL2Header(h, dst, protocol, priority);
    uint32_t minPayload = MIN_FRAME_BYTES - header - FCS_BYTES;
    if (packet->GetSize() < minPayload)
    {
        packet->AddPaddingAtEnd(minPayload - packet->GetSize());
    }
    m_txHeader.Set(FabricWireHeader::ETHERNET, h, header);
    packet->AddHeader(m_txHeader);
    packet->AddTrailer(m_fcs); // FCS field written as zero (EthernetTrailer without CalcFcs)
}

bool
PfcNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendWithPriority(packet, dest, protocolNumber, Classify(packet, protocolNumber));
}

bool
PfcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

bool
PfcNetDevice::SendWithPriority(Ptr<Packet> packet,
                               const Address& dest,
                               uint16_t protocol,
                               uint8_t priority)
{
    return SendWithPriority(packet, Mac48Address::ConvertFrom(dest), protocol, priority);
}

bool
PfcNetDevice::SendWithPriority(Ptr<Packet> packet,
                               Mac48Address dest,
                               uint16_t protocol,
                               uint8_t priority)
{
    CheckPriority(priority, "PfcNetDevice::SendWithPriority");
    if (packet->GetSize() > m_mtu)
    {
        Drop(packet, PfcDropReason::OVERSIZE);
        return false;
    }
    if (m_traceSinks & MAC_TX)
    {
        m_macTxTrace(packet);
    }
    AddFraming(packet, dest, protocol, priority);
    FabricFrame frame(packet);
    return EnqueueFrame(frame, priority);
}

bool
PfcNetDevice::SendFrame(const Ptr<Packet>& frame, uint8_t priority)
{
    FabricFrame f(frame);
    return SendFrame(f, priority);
}

bool
PfcNetDevice::SendFrame(FabricFrame& frame, uint8_t priority)
{
    CheckPriority(priority, "PfcNetDevice::SendFrame");
    uint32_t l2 = L2HeaderBytes();
    NS_ABORT_MSG_IF(frame.GetSize() < MIN_FRAME_BYTES,
                    "PfcNetDevice::SendFrame: a frame of "
                        << frame.GetSize() << " bytes is shorter than the " << MIN_FRAME_BYTES
                        << "-byte Ethernet minimum");
    if (frame.GetSize() - l2 - FCS_BYTES > m_mtu)
    {
        Drop(frame.GetPacket(), PfcDropReason::OVERSIZE);
        return false;
    }
    if (m_traceSinks & MAC_TX)
    {
        m_macTxTrace(L3Fragment(frame.GetPacket(), l2));
    }
    return EnqueueFrame(frame, priority);
}

Ptr<Packet>
PfcNetDevice::L3Fragment(Ptr<const Packet> frame, uint32_t l2Bytes) const
{
    uint8_t h[ETH_HEADER_BYTES + DOT1Q_BYTES + 4];
    uint32_t got = frame->CopyData(h, l2Bytes + 4);
    uint32_t l3 = frame->GetSize() - l2Bytes - FCS_BYTES; // padding included unless IPv4
    if (got == l2Bytes + 4 && wire::GetU16(h + l2Bytes - 2) == IPV4_ETHERTYPE)
    {
        l3 = std::min<uint32_t>(l3, wire::GetU16(h + l2Bytes + 2));
    }
    return frame->CreateFragment(l2Bytes, l3);
}

bool
PfcNetDevice::EnqueueFrame(FabricFrame& frame, uint8_t priority, uint64_t tag)
{
    PfcTxQueue& q = m_queues[priority];
    if (!q.Fits(frame.GetSize()))
    {
        Drop(frame.GetPacket(), PfcDropReason::QUEUE_FULL);
        return false;
    }
    if (m_traceSinks & TX_ENQUEUE)
    {
        m_txEnqueueTrace(frame.GetPacket(), priority);
    }
    if (!m_backlogMask && !m_controlPending && m_strictPriority &&
        !((m_pausedMask >> priority) & 1u) && m_channel && TxIdle())
    {
        // Nothing queued and the wire free: exactly what pushing and TryTransmit's pop would
        // do, without the round trip through the queue's ring (a cache line per frame).
        Dequeued(frame, priority, tag);
        return true;
    }
    q.Push(std::move(frame), tag);
    m_backlogMask |= static_cast<uint8_t>(1u << priority);
    if (TxIdle())
    {
        TryTransmit();
    }
    else if (m_txEndDeferred)
    {
        CommitTxEnd(); // a frame waits: the end of the transmission is an event again
    }
    return true;
}

void
PfcNetDevice::ReplaceFraming(FabricFrame& frame,
                             uint32_t l2Bytes,
                             Mac48Address dest,
                             uint8_t priority,
                             const uint8_t* l3Head,
                             uint32_t l3Bytes)
{
    uint8_t h[FabricWireHeader::MAX_BYTES];
    uint32_t header = WriteL2Header(h, dest, IPV4_ETHERTYPE, priority);
    if (l3Bytes > 0)
    {
        std::memcpy(h + header, l3Head, l3Bytes);
    }
    // The new bytes go into the frame's head; the packet is rewritten only when the head cannot
    // take them or a shorter L2 header leaves the frame under the Ethernet minimum.
    if (frame.GetSize() - l2Bytes + header < MIN_FRAME_BYTES ||
        !frame.ReplaceHead(l2Bytes + l3Bytes, h, header + l3Bytes))
    {
        Ptr<Packet> packet = frame.GetPacket();
        packet->RemoveAtStart(l2Bytes + l3Bytes);
        m_txHeader.Set(FabricWireHeader::ETHERNET, h, header + l3Bytes);
        packet->AddHeader(m_txHeader);
        if (packet->GetSize() < MIN_FRAME_BYTES)
        {
            // Pad again in front of the FCS.
            packet->RemoveAtEnd(FCS_BYTES);
            packet->AddPaddingAtEnd(MIN_FRAME_BYTES - FCS_BYTES - packet->GetSize());
            packet->AddTrailer(m_fcs);
        }
        frame = FabricFrame(packet);
    }
}

bool
PfcNetDevice::ForwardFrame(FabricFrame& frame,
                           uint32_t l2Bytes,
                           Mac48Address dest,
                           uint8_t priority,
                           const uint8_t* l3Head,
                           uint32_t l3Bytes,
                           uint64_t tag)
{
    CheckPriority(priority, "PfcNetDevice::ForwardFrame");
    NS_ABORT_MSG_IF(l2Bytes + l3Bytes + FCS_BYTES > frame.GetSize() || l3Bytes > 60,
                    "PfcNetDevice::ForwardFrame: " << l2Bytes << " + " << l3Bytes
                                                   << " header bytes do not fit a frame of "
                                                   << frame.GetSize() << " bytes");
    uint32_t header = L2HeaderBytes();
    // The common hop: an L2 header of the same length replaces the old one in place in the
    // head (what ReplaceFraming's ReplaceHead would do, without the copy through a buffer).
    uint8_t* head = l3Bytes == 0 && header == l2Bytes && frame.GetSize() >= MIN_FRAME_BYTES
                        ? frame.MutableHead(l2Bytes)
                        : nullptr;
    if (head)
    {
        WriteL2Header(head, dest, IPV4_ETHERTYPE, priority);
    }
    else
    {
        ReplaceFraming(frame, l2Bytes, dest, priority, l3Head, l3Bytes);
    }
    if (m_traceSinks & MAC_TX)
    {
        m_macTxTrace(
            frame.GetPacket()->CreateFragment(header, frame.GetSize() - header - FCS_BYTES));
    }
    return EnqueueFrame(frame, priority, tag);
}

void
PfcNetDevice::TryTransmit()
{
    if (!TxIdle())
    {
        if (m_txEndDeferred && (m_controlPending || m_backlogMask))
        {
            CommitTxEnd();
        }
        return;
    }
    if (!m_channel)
    {
        return;
    }
    if (m_controlPending)
    {
        FabricFrame frame(m_controlQueue.front());
        m_controlQueue.pop_front();
        m_controlPending = !m_controlQueue.empty();
        StartTransmission(frame);
        return;
    }
    uint8_t eligible = m_backlogMask & ~m_pausedMask;
    if (!eligible)
    {
        return;
    }
    int p = m_strictPriority ? PfcTxScheduler::HighestPriority(eligible)
                             : m_scheduler->Select(eligible, m_queues);
    if (p == PfcTxScheduler::NONE)
    {
        return;
    }
    NS_ABORT_MSG_IF(p < 0 || p >= NUM_PRIORITIES || !((eligible >> p) & 1u),
                    "TxScheduler "
                        << m_scheduler->GetInstanceTypeId().GetName() << " selected priority " << p
                        << " which is not eligible (mask 0x" << std::hex << unsigned(eligible)
                        << std::dec << ")");
    uint64_t tag = 0;
    FabricFrame frame = m_queues[p].Pop(&tag);
    if (m_queues[p].IsEmpty())
    {
        m_backlogMask &= static_cast<uint8_t>(~(1u << p));
    }
    Dequeued(frame, static_cast<uint8_t>(p), tag);
}

// Inlined into its two callers (EnqueueFrame's idle-port path and TryTransmit): it runs for
// every frame a port sends (ai-fabric benchmark).
inline __attribute__((always_inline)) void
PfcNetDevice::Dequeued(FabricFrame& frame, uint8_t priority, uint64_t tag)
{
    if (m_frameLeavingHook && m_owner)
    {
        m_owner->FrameLeaving(m_ownerPort, priority, tag, frame);
    }
    if (m_traceSinks & TX_DEQUEUE)
    {
        m_txDequeueTrace(frame.GetPacket(), priority);
    }
    m_frameCounters[priority].txFrames++;
    m_frameCounters[priority].txBytes += frame.GetSize();
    // The transmitter is marked busy (StartTransmission) before the owner or callback reacts.
    if (m_owner)
    {
        StartTransmission(frame);
        m_owner->FrameDequeued(m_ownerPort, priority, tag);
        return;
    }
    // A dequeue callback gets the packet, taken before the frame moves onto the cable.
    Ptr<const Packet> packet;
    if (!m_dequeueCallback.IsNull())
    {
        packet = frame.GetPacket();
    }
    StartTransmission(frame);
    if (packet)
    {
        m_dequeueCallback(this, priority, packet);
    }
}

// Inlined into its callers, as Dequeued.
inline __attribute__((always_inline)) void
PfcNetDevice::StartTransmission(FabricFrame& frame)
{
    m_txBusy = true;
    if (m_traceSinks & PHY_TX_END)
    {
        m_currentFrame = frame.GetPacket(); // kept for the end trace only: no reference (or
                                            // cache miss on the frame) otherwise
    }
    if (m_traceSinks & PHY_TX_BEGIN)
    {
        m_phyTxBeginTrace(frame.GetPacket());
    }
    if (m_traceSinks & SNIFFER)
    {
        m_snifferTrace(frame.GetPacket());
    }
    if (m_traceSinks & PROMISC)
    {
        m_promiscSnifferTrace(frame.GetPacket());
    }
    const TxTimes& t = GetTxTimes(frame.GetChargedSize());
    if (!m_channel->TransmitStart(frame, m_channelEnd, t.frame))
    {
        Drop(frame.GetPacket(), PfcDropReason::LINK_DOWN);
    }
    FabricSimulatorImpl* sim = m_engine.Get();
    if (sim && !m_controlPending && !m_backlogMask && !(m_traceSinks & PHY_TX_END))
    {
        // Nothing waits: the end of this transmission would only mark the port idle, which
        // TxIdle() infers from the clock. Fix its place in the event order now and insert it
        // only if a frame arrives before then (CommitTxEnd).
        m_txEnd = sim->Reserve(t.slot);
        m_txEndDeferred = true;
    }
    else if (sim)
    {
        sim->ScheduleRecurring(PeekPointer(m_txCompleteEvent), sim->CurrentContext(), t.slot);
    }
    else
    {
        ScheduleRecurring(m_txCompleteEvent, t.slot);
    }
}

void
PfcNetDevice::CommitTxEnd()
{
    m_txEndDeferred = false;
    m_txCompleteEvent->Ref(); // the simulator's reference, dropped after the event runs
    m_engine.Peek()->Commit(m_txEnd, PeekPointer(m_txCompleteEvent));
}

const PfcNetDevice::TxTimes&
PfcNetDevice::GetTxTimes(uint32_t bytes)
{
    // Frames come in few sizes (a WRITE's first, middle and last packets, ACKs, CNPs):
    // remember the last four computed.
    int hit = FirstMatchOf4(m_txTimesBytes, bytes);
    if (hit >= 0)
    {
        return m_txTimes[hit];
    }
    uint8_t i = m_txTimesNext;
    m_txTimesNext = (m_txTimesNext + 1) % m_txTimes.size();
    m_txTimesBytes[i] = bytes;
    TxTimes& t = m_txTimes[i];
    t.frame = BytesTxTime(PREAMBLE_BYTES + bytes, m_bps);
    t.slot = BytesTxTime(PREAMBLE_BYTES + bytes + IFG_BYTES, m_bps);
    return t;
}

void
PfcNetDevice::TransmitComplete()
{
    m_txBusy = false;
    if (m_currentFrame)
    {
        if (m_traceSinks & PHY_TX_END)
        {
            m_phyTxEndTrace(m_currentFrame);
        }
        m_currentFrame = nullptr;
    }
    TryTransmit();
}

void
PfcNetDevice::Receive(FabricFrame& fabricFrame)
{
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(fabricFrame.GetPacket()))
    {
        Drop(fabricFrame.GetPacket(), PfcDropReason::RX_ERROR);
        return;
    }
    if (m_traceSinks & PHY_RX_END)
    {
        m_phyRxEndTrace(fabricFrame.GetPacket());
    }
    if (m_traceSinks & SNIFFER)
    {
        m_snifferTrace(fabricFrame.GetPacket());
    }
    if (m_traceSinks & PROMISC)
    {
        m_promiscSnifferTrace(fabricFrame.GetPacket());
    }

    // The framing is read in place from the frame's head, not deserialized. A head built by
    // the sender (a NIC's headers) is used as it is; a shorter one (a frame from Send, whose
    // head is empty) is loaded from the packet.
    uint32_t frameBytes = fabricFrame.GetSize();
    if (frameBytes < ETH_HEADER_BYTES + FCS_BYTES)
    {
        Drop(fabricFrame.GetPacket(), PfcDropReason::MALFORMED);
        return;
    }
    if (fabricFrame.GetHeadBytes() < MIN_HEAD_BYTES)
    {
        fabricFrame.LoadHead(std::min<uint32_t>(RX_PEEK_BYTES, frameBytes - FCS_BYTES));
    }
    const uint8_t* h = fabricFrame.GetHead();
    uint32_t got = std::min<uint32_t>(fabricFrame.GetHeadBytes(), frameBytes - FCS_BYTES);
    uint16_t type = wire::GetU16(h + 12);
    uint32_t l2 = ETH_HEADER_BYTES;

    if (type == PfcHeader::MAC_CONTROL_ETHERTYPE)
    {
        Ptr<Packet> frame = fabricFrame.GetPacket();
        frame->RemoveAtEnd(FCS_BYTES);
        frame->RemoveAtStart(ETH_HEADER_BYTES);
        if (frame->GetSize() < PfcHeader::SIZE)
        {
            Drop(frame, PfcDropReason::MALFORMED);
            return;
        }
        PfcHeader pfc;
        frame->PeekHeader(pfc);
        if (pfc.GetOpcode() != PfcHeader::PFC_OPCODE)
        {
            Drop(frame, PfcDropReason::UNKNOWN_MAC_CONTROL);
            return;
        }
        m_pauseReceiver.Receive(pfc);
        return;
    }

    bool tagged = false;
    uint8_t priority = m_defaultPriority;
    if (type == PfcDot1qHeader::TPID)
    {
        if (got < ETH_HEADER_BYTES + DOT1Q_BYTES)
        {
            Drop(fabricFrame.GetPacket(), PfcDropReason::MALFORMED);
            return;
        }
        priority = static_cast<uint8_t>(h[14] >> 5);
        type = wire::GetU16(h + 16);
        l2 += DOT1Q_BYTES;
        tagged = true;
    }
    uint32_t payloadBytes = frameBytes - l2 - FCS_BYTES; // L3 packet + padding
    uint32_t l3Bytes = payloadBytes;
    if (type == IPV4_ETHERTYPE)
    {
        if (payloadBytes < 20 || got < l2 + 4)
        {
            Drop(fabricFrame.GetPacket(), PfcDropReason::MALFORMED);
            return;
        }
        const uint8_t* ip = h + l2;
        uint16_t totalLength = wire::GetU16(ip + 2);
        if (totalLength < 20 || totalLength > payloadBytes)
        {
            Drop(fabricFrame.GetPacket(), PfcDropReason::MALFORMED);
            return;
        }
        l3Bytes = totalLength;
        if (!tagged)
        {
            priority = DscpPriority(ip[1] >> 2);
        }
    }

    NetDevice::PacketType ptype;
    if (std::memcmp(h, m_addressBytes, 6) == 0)
    {
        ptype = NetDevice::PACKET_HOST;
    }
    else if ((h[0] & h[1] & h[2] & h[3] & h[4] & h[5]) == 0xff)
    {
        ptype = NetDevice::PACKET_BROADCAST;
    }
    else if (h[0] & 0x01)
    {
        ptype = NetDevice::PACKET_MULTICAST;
    }
    else
    {
        ptype = NetDevice::PACKET_OTHERHOST;
    }

    if (ptype == NetDevice::PACKET_HOST && type == IPV4_ETHERTYPE &&
        (m_owner || !m_frameRxCallback.IsNull()))
    {
        // Frame-level forwarding: the owner reads the fields it needs in place.
        m_frameCounters[priority].rxFrames++;
        m_frameCounters[priority].rxBytes += frameBytes;
        if (m_traceSinks & MAC_RX)
        {
            m_macRxTrace(fabricFrame.GetPacket()->CreateFragment(l2, l3Bytes));
        }
        if (m_owner)
        {
            m_owner->ReceiveFrame(m_ownerPort, this, fabricFrame, l2, priority);
        }
        else
        {
            m_frameRxCallback(this, fabricFrame.GetPacket(), l2, priority, h, got);
        }
        return;
    }

    Mac48Address dst;
    Mac48Address src;
    dst.CopyFrom(h);
    src.CopyFrom(h + 6);
    Ptr<Packet> packet = fabricFrame.GetPacket();
    packet->RemoveAtEnd(payloadBytes - l3Bytes + FCS_BYTES); // Ethernet padding and FCS
    packet->RemoveAtStart(l2);

    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, type, src, dst, ptype);
    }
    if (ptype == NetDevice::PACKET_OTHERHOST)
    {
        if (m_promiscCallback.IsNull())
        {
            Drop(packet, PfcDropReason::WRONG_DESTINATION);
        }
        return;
    }
    m_frameCounters[priority].rxFrames++;
    m_frameCounters[priority].rxBytes += frameBytes;
    if (m_traceSinks & MAC_RX)
    {
        m_macRxTrace(packet);
    }
    if (!m_pfcRxCallback.IsNull())
    {
        m_pfcRxCallback(this, packet, type, src, priority);
    }
    else if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, type, src);
    }
    else if (m_promiscCallback.IsNull())
    {
        Drop(packet, PfcDropReason::NO_RECEIVER);
    }
}

Time
PfcNetDevice::QuantaToTime(uint16_t quanta) const
{
    return PfcHeader::QuantaToTime(quanta, m_bps);
}

void
PfcNetDevice::PauseEnded()
{
    TryTransmit();
}

bool
PfcNetDevice::IsPaused(uint8_t priority) const
{
    CheckPriority(priority, "PfcNetDevice::IsPaused");
    return m_pauseReceiver.IsPaused(priority);
}

Time
PfcNetDevice::GetPausedUntil(uint8_t priority) const
{
    CheckPriority(priority, "PfcNetDevice::GetPausedUntil");
    return m_pauseReceiver.GetPausedUntil(priority);
}

void
PfcNetDevice::SendPfcFrame(const PfcHeader& header)
{
    Ptr<Packet> frame = Create<Packet>(MIN_FRAME_BYTES - ETH_HEADER_BYTES - FCS_BYTES -
                                       PfcHeader::SIZE); // zero padding to 64 bytes
    frame->AddHeader(header);
    EthernetHeader eth(false);
    eth.SetSource(m_address);
    eth.SetDestination(PfcHeader::GetPfcDestination());
    eth.SetLengthType(PfcHeader::MAC_CONTROL_ETHERTYPE);
    frame->AddHeader(eth);
    EthernetTrailer fcs;
    fcs.CalcFcs(frame);
    frame->AddTrailer(fcs);
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (header.IsPriorityEnabled(p))
        {
            uint16_t quanta = header.GetPauseQuanta(p);
            (quanta ? m_counters.pauseTx[p] : m_counters.xonTx[p])++;
            m_pfcPauseTxTrace(p, quanta);
        }
    }
    m_controlQueue.push_back(frame);
    m_controlPending = true;
    TryTransmit();
}

void
PfcNetDevice::SetXoff(uint8_t priority, bool xoff)
{
    CheckPriority(priority, "PfcNetDevice::SetXoff");
    m_pauseGenerator.SetXoff(priority, xoff);
}

bool
PfcNetDevice::IsXoff(uint8_t priority) const
{
    CheckPriority(priority, "PfcNetDevice::IsXoff");
    return m_pauseGenerator.IsXoff(priority);
}

void
PfcNetDevice::Drop(Ptr<const Packet> packet, PfcDropReason reason)
{
    NS_LOG_LOGIC("drop (" << PfcDropReasonName(reason) << ") " << packet);
    m_counters.drops[static_cast<std::size_t>(reason)]++;
    m_dropTrace(packet, reason);
}

const PfcPortCounters&
PfcNetDevice::GetCounters() const
{
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        m_counters.txFrames[p] = m_frameCounters[p].txFrames;
        m_counters.txBytes[p] = m_frameCounters[p].txBytes;
        m_counters.rxFrames[p] = m_frameCounters[p].rxFrames;
        m_counters.rxBytes[p] = m_frameCounters[p].rxBytes;
    }
    const PfcPauseReceiver::Counters& rx = m_pauseReceiver.GetCounters();
    m_counters.pauseRx = rx.pauseRx;
    m_counters.xonRx = rx.xonRx;
    m_counters.pauseIgnored = rx.pauseIgnored;
    m_counters.pausedTime = rx.pausedTime;
    m_counters.stormsDetected = rx.stormsDetected;
    return m_counters;
}

bool
PfcNetDevice::IsTransmitting() const
{
    return m_txBusy && !DeferredTxEndPassed();
}

void
PfcNetDevice::SetPfcReceiveCallback(PfcReceiveCallback cb)
{
    m_pfcRxCallback = cb;
}

void
PfcNetDevice::SetFrameReceiveCallback(PfcFrameReceiveCallback cb)
{
    m_frameRxCallback = cb;
}

void
PfcNetDevice::SetPortOwner(PfcPortOwner* owner, uint32_t port)
{
    m_owner = owner;
    m_ownerPort = port;
}

void
PfcNetDevice::SetFrameLeavingHook(bool on)
{
    m_frameLeavingHook = on;
}

void
PfcNetDevice::SetDequeueCallback(DequeueCallback cb)
{
    m_dequeueCallback = cb;
}

Ptr<PfcChannel>
PfcNetDevice::GetPfcChannel() const
{
    return m_channel;
}

void
PfcNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
PfcNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
PfcNetDevice::GetChannel() const
{
    return m_channel;
}

void
PfcNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
    m_address.CopyTo(m_addressBytes);
}

Address
PfcNetDevice::GetAddress() const
{
    return m_address;
}

bool
PfcNetDevice::SetMtu(const uint16_t mtu)
{
    if (mtu < 68 || mtu > 9216)
    {
        return false;
    }
    m_mtu = mtu;
    return true;
}

uint16_t
PfcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfcNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
PfcNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
PfcNetDevice::IsBroadcast() const
{
    return true;
}

Address
PfcNetDevice::GetBroadcast() const
{
    return Mac48Address("ff:ff:ff:ff:ff:ff");
}

bool
PfcNetDevice::IsMulticast() const
{
    return true;
}

Address
PfcNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
PfcNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
PfcNetDevice::IsPointToPoint() const
{
    return true;
}

bool
PfcNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
PfcNetDevice::GetNode() const
{
    return m_node;
}

void
PfcNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_nodeId = node ? node->GetId() : 0;
}

bool
PfcNetDevice::NeedsArp() const
{
    return false;
}

void
PfcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
PfcNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
PfcNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
