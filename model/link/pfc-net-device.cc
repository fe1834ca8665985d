/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: PfcNetDevice, its attributes and configuration (rates, MTU, DSCP map, pause
 * settings, queues, scheduler), counters, callbacks and the NetDevice interface. The transmit
 * side (framing, queues, transmitter, PFC generation and pauses honoured) is in
 * pfc-net-device-tx.cc, the receive side in pfc-net-device-rx.cc.
 */
#include "pfc-net-device.h"

#include "member-trace-source-accessor.h"
#include "pfc-channel.h"
#include "pfc-strict-priority-scheduler.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcNetDevice");
NS_OBJECT_ENSURE_REGISTERED(PfcNetDevice);

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
                          MakePointerAccessor(&PfcNetDevice::SetReceiveErrorModel,
                                              &PfcNetDevice::GetReceiveErrorModel),
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
    m_controlQueue.Clear();
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
    m_dscpMap.Set(dscp, priority);
}

uint8_t
PfcNetDevice::GetDscpPriority(uint8_t dscp) const
{
    NS_ABORT_MSG_IF(dscp > 63, "DSCP " << unsigned(dscp) << " is invalid; valid DSCPs are 0..63");
    return m_dscpMap.Get(dscp);
}

void
PfcNetDevice::SetDscpMapString(std::string map)
{
    m_dscpMap.Parse(map);
}

std::string
PfcNetDevice::GetDscpMapString() const
{
    return m_dscpMap.ToString();
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

void
PfcNetDevice::Drop(Ptr<const Packet> packet, PfcDropReason reason)
{
    NS_LOG_LOGIC("drop (" << PfcDropReasonName(reason) << ") " << packet);
    m_drops[static_cast<std::size_t>(reason)]++;
    m_dropTrace(packet, reason);
}

PfcPortCounters
PfcNetDevice::GetCounters() const
{
    PfcPortCounters c;
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        c.txFrames[p] = m_frameCounters[p].txFrames;
        c.txBytes[p] = m_frameCounters[p].txBytes;
        c.rxFrames[p] = m_frameCounters[p].rxFrames;
        c.rxBytes[p] = m_frameCounters[p].rxBytes;
    }
    c.pauseTx = m_pauseTx;
    c.xonTx = m_xonTx;
    c.drops = m_drops;
    const PfcPauseReceiver::Counters& rx = m_pauseReceiver.GetCounters();
    c.pauseRx = rx.pauseRx;
    c.xonRx = rx.xonRx;
    c.pauseIgnored = rx.pauseIgnored;
    c.pausedTime = rx.pausedTime;
    c.stormsDetected = rx.stormsDetected;
    return c;
}

uint64_t
PfcNetDevice::GetTxBytesTotal() const
{
    uint64_t bytes = 0;
    for (const FrameCounters& f : m_frameCounters)
    {
        bytes += f.txBytes;
    }
    return bytes;
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
PfcNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> model)
{
    m_receiveErrorModel = model;
}

Ptr<ErrorModel>
PfcNetDevice::GetReceiveErrorModel() const
{
    return m_receiveErrorModel;
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
