/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-transport-plugin.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-congestion-ops.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-nic.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-time.h"
#include "ns3/node.h"
#include "ns3/nscc-congestion-ops.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pointer.h"
#include "ns3/rccc-congestion-ops.h"
#include "ns3/string.h"
#include "ns3/switch-helper.h"
#include "ns3/uet-collective-transport.h"
#include "ns3/uet-endpoint.h"
#include "ns3/uet-ev-selector.h"
#include "ns3/uet-nic.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>
#include <unordered_map>

namespace ns3
{

namespace
{

/// The CongestionControl names.
const std::vector<std::string> CC_NAMES = {"none", "nscc", "rccc", "both"};
/// The EvStrategy names (UetEvSelector::CreateByName).
const std::vector<std::string> EV_NAMES = {"single", "oblivious", "bitmap", "reps", "mixed"};

/// \return "a, b, c"
std::string
Join(const std::vector<std::string>& v)
{
    std::string s;
    for (const auto& x : v)
    {
        s += (s.empty() ? "" : ", ") + x;
    }
    return s;
}

/// \return the Presets attribute's value: "<cc>" (EvStrategy reps) and "<cc>-<ev>" for every
///         congestion control and EV strategy
std::string
Presets()
{
    std::string s;
    for (const auto& cc : CC_NAMES)
    {
        s += (s.empty() ? "" : ";") + cc + "=CongestionControl:" + cc + ",EvStrategy:reps";
        for (const auto& ev : EV_NAMES)
        {
            s += ";" + cc + "-" + ev + "=CongestionControl:" + cc + ",EvStrategy:" + ev;
        }
    }
    return s;
}

/// \return true if \p v holds \p x
bool
Contains(const std::vector<std::string>& v, const std::string& x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

/// A string attribute checker accepting the names of \p valid.
Ptr<const AttributeChecker>
NameChecker(const std::string& attribute, const std::vector<std::string>& valid)
{
    return MakeFabricChecker<StringValue>(
        MakeStringChecker(),
        attribute,
        [valid](const std::string& s) { return Contains(valid, s); },
        Join(valid),
        [](const std::string& s) { return s; });
}

/// \return \p t in microseconds with 3 decimals
std::string
Us(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << t.GetPicoSeconds() / 1e6;
    return os.str();
}

/// UET headers of a full RUD data packet: IPv4 20, UDP 8, PDS 12, SES standard request 44.
constexpr uint32_t UET_DATA_HEADERS = 20 + 8 + 12 + 44;
/// The UET ACK that completes a WRITE: IPv4 20, UDP 8, PDS ACK 12, SES response 12.
constexpr uint32_t UET_ACK_HEADERS = 20 + 8 + 12 + 12;
/// The memory key every message writes to.
constexpr uint64_t MEMORY_KEY = 1;
/// The largest SES message, bytes (request_length is 32 bits).
constexpr uint64_t MAX_MESSAGE_BYTES = 0xFFFFFFFFull;

/// Flow-workload messages over Ultra Ethernet: one SES WRITE per message (UetTransportPlugin).
class UetMessageService : public FabricMessageService
{
  public:
    UetMessageService(const FabricMessageServiceSetup& setup,
                      UetNicHelper& helper,
                      uint32_t jobId,
                      UetDeliveryMode mode)
        : m_mode(mode)
    {
        for (uint32_t r = 0; r < setup.nodes.size(); ++r)
        {
            FABRIC_INPUT_ERROR_IF(!setup.nodes[r]->GetObject<UetNic>(),
                                  "FlowWorkloadRunner: transport uet, but rank "
                                      << r << " has no UetNic (Transports must include uet)");
        }
        m_endpoints = helper.CreateEndpoints(setup.nodes, jobId);
        std::unordered_map<uint32_t, uint32_t> rankOf; // endpoint address -> rank
        for (uint32_t r = 0; r < m_endpoints.size(); ++r)
        {
            m_endpoints[r]->RegisterMemory(MEMORY_KEY, MAX_MESSAGE_BYTES);
            rankOf[m_endpoints[r]->GetNic()->GetAddress(m_endpoints[r]->GetPort()).Get()] = r;
        }
        auto ranks = std::make_shared<const std::unordered_map<uint32_t, uint32_t>>(rankOf);
        for (uint32_t r = 0; r < m_endpoints.size() && !setup.unloadedRtt.IsNull(); ++r)
        {
            Ptr<UetNic> nic = m_endpoints[r]->GetNic();
            const uint32_t peer = r + 1 < m_endpoints.size() ? r + 1 : 0;
            if (peer != r &&
                nic->GetPathRtt(m_endpoints[peer]->GetNic()->GetAddress(0)).IsStrictlyPositive())
            {
                continue; // the topology helper told the NIC its paths (FatTreeTopologyHelper)
            }
            const auto rtt = setup.unloadedRtt;
            nic->SetPathRttFunction([rtt, ranks, r](Ipv4Address a) {
                auto it = ranks->find(a.Get());
                return it == ranks->end() || it->second == r ? Time(0) : rtt(r, it->second);
            });
        }
        if (!m_endpoints.empty())
        {
            ObjectFactory f; // a fresh instance names the algorithm, whatever its settings
            f.SetTypeId(m_endpoints[0]->GetNic()->GetCongestionPrototype()->GetInstanceTypeId());
            m_ccName = f.Create<FabricCongestionOps>()->GetName();
        }
    }

    void Post(uint32_t src, uint32_t dst, uint64_t bytes, Time, DoneCallback done) override
    {
        m_endpoints[src]->PostWrite(m_endpoints[dst]->GetAddress(),
                                    MEMORY_KEY,
                                    0,
                                    bytes,
                                    MakeBoundCallback(&UetMessageService::Completed, done),
                                    m_mode);
    }

    FabricPacketFormat GetPacketFormat(uint32_t src, uint32_t) const override
    {
        Ptr<UetNic> nic = m_endpoints[src]->GetNic();
        FabricPacketFormat f;
        f.mtu = nic->GetMtu();
        f.perPacket = nic->GetPacketOverheadBytes(UET_DATA_HEADERS);
        f.ack = nic->GetHeaderModelBytes() != 0
                    ? nic->GetHeaderModelBytes()
                    : PfcNetDevice::WireBytes(PfcNetDevice::ETH_HEADER_BYTES + UET_ACK_HEADERS +
                                              PfcNetDevice::FCS_BYTES);
        return f;
    }

    std::pair<uint32_t, uint32_t> GetPorts(uint32_t, uint32_t) const override
    {
        return {0u, 0u}; // the endpoints sit on port 0 (UetNicHelper::CreateEndpoints)
    }

    std::string GetCongestionControlName() const override
    {
        return m_ccName;
    }

  private:
    /// A WRITE completed: hand its outcome to \p done.
    static void Completed(DoneCallback done, const UetCompletion& c)
    {
        FabricMessageResult r;
        r.ok = c.ok;
        r.postTime = c.postTime;
        r.endTime = c.endTime;
        r.retransmissions = c.retransmissions;
        r.error = c.error;
        done(r);
    }

    UetDeliveryMode m_mode;                    //!< of the WRITEs
    std::vector<Ptr<UetEndpoint>> m_endpoints; //!< one per rank
    std::string m_ccName;                      //!< the NICs' congestion control
};

} // namespace

NS_OBJECT_ENSURE_REGISTERED(UetTransportPlugin);

TypeId
UetTransportPlugin::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetTransportPlugin")
            .SetParent<FabricTransportPlugin>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetTransportPlugin>()
            .AddAttribute("Name",
                          "The transport's short name (read-only): what Transports and "
                          "--transport take.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          StringValue("uet"),
                          MakeStringAccessor(&UetTransportPlugin::m_name),
                          MakeStringChecker())
            .AddAttribute("CollectiveTransport",
                          "The TypeId of this transport's CollectiveTransport (read-only).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          TypeIdValue(UetCollectiveTransport::GetTypeId()),
                          MakeTypeIdAccessor(&UetTransportPlugin::m_collectiveTransport),
                          MakeTypeIdChecker())
            .AddAttribute("Presets",
                          "Named configurations (read-only; TransportComparison's "
                          "Configurations): uet-<cc> (EvStrategy reps) and uet-<cc>-<ev>.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          StringValue(Presets()),
                          MakeStringAccessor(&UetTransportPlugin::m_presets),
                          MakeStringChecker())
            .AddAttribute("PresetsText",
                          "The presets in one phrase, for messages (read-only).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          StringValue("uet-<cc>[-<ev>] with cc " + Join(CC_NAMES) + " and ev " +
                                      Join(EV_NAMES) + " (e.g. uet-nscc, uet-none-single)"),
                          MakeStringAccessor(&UetTransportPlugin::m_presetsText),
                          MakeStringChecker())
            .AddAttribute("FlowJobId",
                          "JobID of the endpoints that carry flow workloads' messages "
                          "(0..2^24-1); must differ from the JobIDs of other UET jobs on the "
                          "same NICs, e.g. a collective's (ns3::UetCollectiveTransport::JobId, "
                          "1).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&UetTransportPlugin::m_flowJobId),
                          MakeFabricUintegerChecker<uint32_t>("ns3::UetTransportPlugin::FlowJobId",
                                                              0,
                                                              0xFFFFFF))
            .AddAttribute("FlowDeliveryMode",
                          "PDS delivery mode of flow workloads' WRITEs: RUD (reliable "
                          "unordered) or ROD (reliable ordered).",
                          StringValue("RUD"),
                          MakeStringAccessor(&UetTransportPlugin::m_flowMode),
                          MakeFabricChecker<StringValue>(
                              MakeStringChecker(),
                              "ns3::UetTransportPlugin::FlowDeliveryMode",
                              [](const std::string& s) { return s == "RUD" || s == "ROD"; },
                              "RUD, ROD",
                              [](const std::string& s) { return s; }))
            .AddAttribute("CongestionControl",
                          "Congestion control ConfigureFabric gives the UetNics: none (line "
                          "rate), nscc (NSCC, BaseRtt = the fabric's largest unloaded RTT), "
                          "rccc (receiver credit, same BaseRtt) or both (RCCC with an NSCC as "
                          "its SenderCc).",
                          StringValue("nscc"),
                          MakeStringAccessor(&UetTransportPlugin::m_cc),
                          NameChecker("ns3::UetTransportPlugin::CongestionControl", CC_NAMES))
            .AddAttribute("EvStrategy",
                          "Entropy (EV) selection ConfigureFabric gives the UetNics: single "
                          "(one path per PDC) or a spraying strategy: oblivious, bitmap, reps, "
                          "mixed.",
                          StringValue("reps"),
                          MakeStringAccessor(&UetTransportPlugin::m_ev),
                          NameChecker("ns3::UetTransportPlugin::EvStrategy", EV_NAMES))
            .AddAttribute(
                "DataDscp",
                "DSCP of UET data (0..47: priority DSCP >> 3 must be lossy on the "
                "switches and below 6, the control priority; 7 carries trimmed "
                "packets). Default 8: priority 1.",
                UintegerValue(8),
                MakeUintegerAccessor(&UetTransportPlugin::m_dataDscp),
                MakeFabricUintegerChecker<uint8_t>("ns3::UetTransportPlugin::DataDscp", 0, 47))
            .AddAttribute("Trimming",
                          "The switches trim UET data that does not fit (NACKed and resent at "
                          "once) instead of dropping it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&UetTransportPlugin::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute("QueueBdp",
                          "Static limit of every lossy egress queue of the scale-out switches, "
                          "in BDPs (the hosts' link rate x the largest unloaded RTT); 0 = no "
                          "static limit (the MMU's dynamic threshold only). htsim: 1 with "
                          "trimming.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&UetTransportPlugin::m_queueBdp),
                          MakeFabricDoubleChecker("ns3::UetTransportPlugin::QueueBdp", 0, 1000))
            .AddAttribute("EcnMinBdp",
                          "ECN marking of UET data starts above this many BDPs of a port's "
                          "queue (the port's rate x the largest unloaded RTT); htsim 0.2.",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&UetTransportPlugin::m_ecnMinBdp),
                          MakeFabricDoubleChecker("ns3::UetTransportPlugin::EcnMinBdp", 0, 1000))
            .AddAttribute("EcnMaxBdp",
                          "ECN marks every UET data packet above this many BDPs (probability "
                          "rising linearly from EcnMinBdp); >= EcnMinBdp and <= QueueBdp when "
                          "that is set; htsim 0.8.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&UetTransportPlugin::m_ecnMaxBdp),
                          MakeFabricDoubleChecker("ns3::UetTransportPlugin::EcnMaxBdp", 0, 1000))
            .AddAttribute(
                "RtoMin",
                "RtoMin FinishFabric gives the UetNics; 0 = htsim's rule, 15 us + 6 x "
                "the drain time of the static queue limit at the hosts' link rate "
                "(the UetNic default without a static limit).",
                TimeValue(Time(0)),
                MakeTimeAccessor(&UetTransportPlugin::m_rtoMinAttr),
                MakeFabricTimeChecker("ns3::UetTransportPlugin::RtoMin", Time(0), Seconds(10)));
    return tid;
}

UetTransportPlugin::UetTransportPlugin()
    : m_flowJobId(2),
      m_flowMode("RUD"),
      m_cc("nscc"),
      m_ev("reps"),
      m_dataDscp(8),
      m_trimming(true),
      m_queueBdp(1.0),
      m_ecnMinBdp(0.2),
      m_ecnMaxBdp(0.8)
{
}

UetTransportPlugin::~UetTransportPlugin() = default;

UetNicHelper&
UetTransportPlugin::GetNicHelper()
{
    return m_nicHelper;
}

std::string
UetTransportPlugin::GetDisplayName() const
{
    return "UET";
}

void
UetTransportPlugin::Install(Ptr<Node> node, Ptr<FabricNic> core)
{
    // The NIC's AddPort finds each port on the core.
    Ptr<UetNic> nic = m_nicHelper.Install(node, core->GetPort(0), core->GetAddress(0));
    for (uint32_t p = 1; p < core->GetNPorts(); ++p)
    {
        nic->AddPort(core->GetPort(p), core->GetAddress(p));
    }
}

bool
UetTransportPlugin::IsInstalledOn(Ptr<Node> node) const
{
    return node->GetObject<UetNic>() != nullptr;
}

uint32_t
UetTransportPlugin::GetDeviceMtu() const
{
    return UetNic::GetDeviceMtuFor(m_nicHelper.GetMtu());
}

void
UetTransportPlugin::CheckSwitch(Ptr<Node> host,
                                Ptr<const FabricSwitch> sw,
                                const std::string& name) const
{
    UetNicHelper::CheckSwitchTrimming(host->GetObject<UetNic>(), sw, name);
}

void
UetTransportPlugin::CheckMtu(uint32_t mtu, const std::string& what) const
{
    FABRIC_INPUT_ERROR_IF(mtu < 256 || mtu > 16383,
                          what << "=" << mtu
                               << " is invalid with Transport uet; valid range is 256..16383 "
                                  "payload bytes");
}

uint64_t
UetTransportPlugin::GetMaxMessageBytes() const
{
    return MAX_MESSAGE_BYTES;
}

int64_t
UetTransportPlugin::AssignStreams(int64_t stream)
{
    return m_nicHelper.AssignStreams(stream);
}

uint32_t
UetTransportPlugin::DataFrameBytes(uint32_t mtu)
{
    return 14 + 20 + 8 + 12 + 44 + mtu + 4;
}

void
UetTransportPlugin::CheckEvStrategy(const std::string& value, const std::string& what)
{
    CheckName(value, what, EV_NAMES);
}

void
UetTransportPlugin::CheckCongestionControlName(const std::string& value, const std::string& what)
{
    CheckName(value, what, CC_NAMES);
}

void
UetTransportPlugin::AddCounters(Ptr<Node> host, FabricTransportCounters& c) const
{
    Ptr<UetNic> nic = host->GetObject<UetNic>();
    if (!nic)
    {
        return;
    }
    const UetNicCounters& u = nic->GetCounters();
    c.retransmissions += u.retransmissions;
    c.timeouts += u.rtoExpirations;
    c.outOfOrder += u.outOfOrderReceived;
    c.nacks += u.nacksReceived;
    c.trimNacks += u.trimNacksReceived;
    c.bytesPosted += u.bytesPosted;
    c.bytesCompleted += u.bytesCompleted;
    c.bytesDelivered += u.bytesDelivered;
    c.opsFailed += u.opsFailed;
}

uint8_t
UetTransportPlugin::GetDataPriority() const
{
    return m_nicHelper.GetDataDscp() >> 3;
}

std::vector<std::string>
UetTransportPlugin::GetCongestionControlNames() const
{
    return CC_NAMES;
}

Time
UetTransportPlugin::GetBaseRtt() const
{
    return m_baseRtt;
}

uint64_t
UetTransportPlugin::GetBdpBytes() const
{
    return m_bdp;
}

uint64_t
UetTransportPlugin::GetQueueBytes() const
{
    return m_queueBytes;
}

Time
UetTransportPlugin::GetRtoMin() const
{
    return m_rtoMin;
}

void
UetTransportPlugin::CheckLossy(uint8_t priority, bool lossless) const
{
    // Said here, naming the DSCP, before the switches' MMUs refuse to trim a lossless class.
    FABRIC_INPUT_ERROR_IF(lossless,
                          "ns3::UetTransportPlugin::DataDscp="
                              << unsigned(m_dataDscp) << " maps to priority " << unsigned(priority)
                              << ", a lossless (PFC) priority of the switches "
                                 "(SharedBufferMmu LosslessPriorities); UET runs lossy: choose "
                                 "a DSCP whose priority DSCP >> 3 is not lossless");
}

TypeId
UetTransportPlugin::CongestionControlTypeId() const
{
    if (m_cc == "none")
    {
        return FabricNoneCongestionOps::GetTypeId();
    }
    if (m_cc == "nscc")
    {
        return NsccCongestionOps::GetTypeId();
    }
    // rccc, both: "both" runs NSCC beside RCCC through its SenderCc attribute (FinishFabric).
    return RcccCongestionOps::GetTypeId();
}

void
UetTransportPlugin::ConfigureFabric(FabricTransportTarget& fabric)
{
    FABRIC_INPUT_ERROR_IF(fabric.IsInstalled(),
                          "UetTransportPlugin::ConfigureFabric needs a fabric that is not "
                          "installed yet (call it before Install)");
    const uint8_t prio = m_dataDscp >> 3; // 0..5: the checker keeps DSCPs 48..63 out
    CheckLossy(prio, (fabric.GetSwitchHelper().GetLosslessPriorities() >> prio) & 1);
    const TypeId cc = CongestionControlTypeId();
    const TypeId ev = UetEvSelector::CreateByName(m_ev)->GetInstanceTypeId();
    m_nicHelper.SetNicAttribute("DataDscp", UintegerValue(m_dataDscp));
    m_nicHelper.SetNicAttribute("CongestionControl", TypeIdValue(cc));
    m_nicHelper.SetNicAttribute("EvSelector", TypeIdValue(ev));
    const bool spraying = m_ev != "single";
    if (spraying)
    {
        m_nicHelper.SetNicAttribute("AckOnHole", BooleanValue(false));
    }
    if (spraying || m_trimming)
    {
        m_nicHelper.SetNicAttribute("OooThreshold", UintegerValue(0));
    }
    const uint8_t mask = 1u << prio;
    for (SwitchHelper* sw : {&fabric.GetSwitchHelper(), &fabric.GetNvSwitchHelper()})
    {
        sw->SetMmuAttribute("TrimPriorities", UintegerValue(m_trimming ? mask : 0u));
    }
    // ECN marks UET data only (thresholds per port in FinishFabric, from the BDP).
    fabric.GetSwitchHelper().SetEcnAttribute("EcnPriorities", UintegerValue(mask));
}

void
UetTransportPlugin::FinishFabric(FabricTransportTarget& fabric)
{
    FABRIC_INPUT_ERROR_IF(!fabric.IsInstalled(),
                          "UetTransportPlugin::FinishFabric needs the installed fabric (call it "
                          "after Install)");
    const uint8_t prio = m_dataDscp >> 3;
    const std::vector<Ptr<FabricSwitch>> switches = fabric.GetScaleOutSwitches();
    for (const auto& sw : switches)
    {
        CheckLossy(prio, sw->GetMmu()->IsLossless(prio));
    }
    FABRIC_INPUT_ERROR_IF(m_ecnMaxBdp < m_ecnMinBdp,
                          "ns3::UetTransportPlugin::EcnMinBdp="
                              << m_ecnMinBdp << ", EcnMaxBdp=" << m_ecnMaxBdp
                              << " are invalid; valid is EcnMinBdp <= EcnMaxBdp");
    FABRIC_INPUT_ERROR_IF(m_queueBdp > 0 && m_ecnMaxBdp > m_queueBdp,
                          "ns3::UetTransportPlugin::EcnMaxBdp="
                              << m_ecnMaxBdp << " is above QueueBdp=" << m_queueBdp
                              << "; valid is EcnMaxBdp <= QueueBdp (or QueueBdp 0)");

    const NodeContainer hosts = fabric.GetGpus();
    Ptr<UetNic> nic0 = hosts.Get(0)->GetObject<UetNic>();
    FABRIC_INPUT_ERROR_IF(!nic0,
                          "UetTransportPlugin::FinishFabric: the hosts have no UetNic (the "
                          "fabric's Transports must include uet)");
    const uint32_t frame = DataFrameBytes(nic0->GetMtu());
    m_baseRtt = fabric.GetMaxUnloadedRtt(frame, ACK_FRAME_BYTES);
    const DataRate nicRate = fabric.GetHostLinkRate();
    auto bdpAt = [this](DataRate rate) {
        return static_cast<double>(rate.GetBitRate()) / 8.0 * m_baseRtt.GetSeconds();
    };
    m_bdp = static_cast<uint64_t>(std::ceil(bdpAt(nicRate)));
    m_queueBytes = 0;
    if (m_queueBdp > 0)
    {
        m_queueBytes = static_cast<uint64_t>(std::ceil(m_queueBdp * bdpAt(nicRate)));
        FABRIC_INPUT_ERROR_IF(m_queueBytes < frame,
                              "ns3::UetTransportPlugin::QueueBdp="
                                  << m_queueBdp << " gives a queue of " << m_queueBytes
                                  << " B, less than one full UET data frame (" << frame
                                  << " B); raise it (or 0: no static limit)");
    }
    m_ecnKminBytes = static_cast<uint64_t>(std::ceil(m_ecnMinBdp * bdpAt(nicRate)));
    m_ecnKmaxBytes = static_cast<uint64_t>(std::ceil(m_ecnMaxBdp * bdpAt(nicRate)));
    for (const auto& sw : switches)
    {
        if (m_queueBytes > 0)
        {
            sw->GetMmu()->SetAttribute("EgressLimitBytes", UintegerValue(m_queueBytes));
        }
        Ptr<WredEcnMarker> ecn = sw->GetEcnMarker();
        for (uint32_t p = 0; p < ecn->GetNPorts(); ++p)
        {
            const double bdp = bdpAt(sw->GetPort(p)->GetDataRate());
            ecn->SetPortThresholds(p,
                                   static_cast<uint64_t>(std::ceil(m_ecnMinBdp * bdp)),
                                   static_cast<uint64_t>(std::ceil(m_ecnMaxBdp * bdp)),
                                   1.0);
        }
    }
    m_rtoMin = m_rtoMinAttr;
    if (m_rtoMin.IsZero() && m_queueBytes > 0)
    {
        m_rtoMin = MicroSeconds(15) + BytesTxTime(6 * m_queueBytes, nicRate);
    }
    for (uint32_t r = 0; r < hosts.GetN(); ++r)
    {
        Ptr<UetNic> nic = hosts.Get(r)->GetObject<UetNic>();
        if (!m_rtoMin.IsZero())
        {
            nic->SetAttribute("RtoMin", TimeValue(m_rtoMin));
            FABRIC_INPUT_ERROR_IF(nic->GetRtoMax() < m_rtoMin,
                                  "ns3::UetTransportPlugin: RtoMin "
                                      << m_rtoMin.As(Time::US) << " is above the UetNic RtoMax "
                                      << nic->GetRtoMax().As(Time::US));
        }
        Ptr<FabricCongestionOps> cc = nic->GetCongestionPrototype();
        if (m_cc == "nscc" || m_cc == "both")
        {
            FABRIC_INPUT_ERROR_IF(
                !cc->SetAttributeFailSafe("BaseRtt", TimeValue(m_baseRtt)) && m_cc == "nscc",
                "UetTransportPlugin: the congestion control " << cc->GetInstanceTypeId().GetName()
                                                              << " has no BaseRtt attribute");
        }
        if (m_cc == "rccc" || m_cc == "both")
        {
            cc->SetAttributeFailSafe("BaseRtt", TimeValue(m_baseRtt));
        }
        if (m_cc == "both")
        {
            // NSCC beside RCCC on every flow (RCCC forks it): sending needs both.
            auto nscc = CreateObject<NsccCongestionOps>();
            nscc->SetAttribute("BaseRtt", TimeValue(m_baseRtt));
            cc->SetAttribute("SenderCc", PointerValue(nscc));
        }
    }
}

void
UetTransportPlugin::Describe(std::ostream& os) const
{
    os << "UET RUD, " << (m_cc == "none" ? "no congestion control" : m_cc);
    if (!m_baseRtt.IsZero() && m_cc != "none")
    {
        os << " (BaseRtt " << Us(m_baseRtt) << " us)";
    }
    os << ", EV " << m_ev << (m_ev == "single" ? " (one path per PDC)" : " spraying")
       << ", lossy priority " << unsigned(m_dataDscp >> 3)
       << (m_trimming ? " trimmed" : " dropped");
    if (m_queueBytes > 0)
    {
        os << " above " << m_queueBytes << " B (" << m_queueBdp << " BDP)";
    }
    if (m_bdp > 0)
    {
        os << ", ECN " << m_ecnKminBytes << ".." << m_ecnKmaxBytes << " B";
    }
    if (!m_rtoMin.IsZero())
    {
        os << ", RtoMin " << Us(m_rtoMin) << " us";
    }
}

Ptr<FabricMessageService>
UetTransportPlugin::CreateMessageService(const FabricMessageServiceSetup& setup)
{
    return CreateObject<UetMessageService>(setup,
                                           m_nicHelper,
                                           m_flowJobId,
                                           m_flowMode == "ROD" ? UetDeliveryMode::ROD
                                                               : UetDeliveryMode::RUD);
}

} // namespace ns3
