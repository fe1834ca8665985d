/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-transport-config.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-time.h"
#include "ns3/nscc-congestion-ops.h"
#include "ns3/pointer.h"
#include "ns3/rccc-congestion-ops.h"
#include "ns3/string.h"
#include "ns3/uet-ev-selector.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <iomanip>
#include <vector>

namespace ns3
{

namespace
{

const std::vector<std::string> TRANSPORTS = {"roce", "uet"};
const std::vector<std::string> ROCE_CCS = {"dcqcn", "none", "dctcp", "timely", "swift", "hpcc"};
const std::vector<std::string> UET_CCS = {"none", "nscc", "rccc", "both"};
const std::vector<std::string> EV_STRATEGIES = {"single", "oblivious", "bitmap", "reps", "mixed"};

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

/// Abort unless \p value is one of \p valid, naming it as \p what.
void
CheckName(const std::string& value, const std::string& what, const std::vector<std::string>& valid)
{
    FABRIC_INPUT_ERROR_IF(!Contains(valid, value),
                          what << "=" << value << " is invalid; valid values are " << Join(valid));
}

/// \return \p t in microseconds with 3 decimals
std::string
Us(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << t.GetPicoSeconds() / 1e6;
    return os.str();
}

/// \return every scale-out switch of \p topo (leaves, spines, cores)
std::vector<Ptr<FabricSwitch>>
ScaleOutSwitches(Ptr<FabricTopologyHelper> topo)
{
    std::vector<Ptr<FabricSwitch>> v;
    for (uint32_t i = 0; i < topo->GetNLeaves(); ++i)
    {
        v.push_back(topo->GetLeaf(i)->GetObject<FabricSwitch>());
    }
    for (uint32_t i = 0; i < topo->GetNSpines(); ++i)
    {
        v.push_back(topo->GetSpine(i)->GetObject<FabricSwitch>());
    }
    for (uint32_t i = 0; i < topo->GetNCores(); ++i)
    {
        v.push_back(topo->GetCore(i)->GetObject<FabricSwitch>());
    }
    return v;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(FabricTransportConfig);

TypeId
FabricTransportConfig::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricTransportConfig")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricTransportConfig>()
            .AddAttribute("Transport",
                          "The transport of the fabric: roce (RoCEv2 RoceNics, the topology's "
                          "default) or uet (Ultra Ethernet UetNics, lossy and trimmed).",
                          StringValue("roce"),
                          MakeStringAccessor(&FabricTransportConfig::m_transport),
                          NameChecker("ns3::FabricTransportConfig::Transport", TRANSPORTS))
            .AddAttribute(
                "RoceCongestionControl",
                "RoCE congestion control: dcqcn, none (line rate, PFC only), dctcp (with "
                "ECN echo on ACKs), timely, swift (with hop counts on ACKs) or hpcc (with "
                "in-band telemetry, RoceNic Int).",
                StringValue("dcqcn"),
                MakeStringAccessor(&FabricTransportConfig::m_roceCc),
                NameChecker("ns3::FabricTransportConfig::RoceCongestionControl", ROCE_CCS))
            .AddAttribute("UetCongestionControl",
                          "UET congestion control: none (line rate), nscc (NSCC, BaseRtt = "
                          "the fabric's largest unloaded RTT), rccc or both (need "
                          "ns3::RcccCongestionOps in the build).",
                          StringValue("nscc"),
                          MakeStringAccessor(&FabricTransportConfig::m_uetCc),
                          NameChecker("ns3::FabricTransportConfig::UetCongestionControl", UET_CCS))
            .AddAttribute("EvStrategy",
                          "UET entropy (EV) selection: single (one path per PDC) or a "
                          "spraying strategy: oblivious, bitmap, reps, mixed.",
                          StringValue("reps"),
                          MakeStringAccessor(&FabricTransportConfig::m_ev),
                          NameChecker("ns3::FabricTransportConfig::EvStrategy", EV_STRATEGIES))
            .AddAttribute(
                "UetDataDscp",
                "DSCP of UET data (0..47: priority DSCP >> 3 must be lossy on the "
                "switches and below 6, the control priority; 7 carries trimmed "
                "packets). Default 8: priority 1.",
                UintegerValue(8),
                MakeUintegerAccessor(&FabricTransportConfig::m_uetDscp),
                MakeFabricUintegerChecker<uint8_t>("ns3::FabricTransportConfig::UetDataDscp",
                                                   0,
                                                   47))
            .AddAttribute("Trimming",
                          "The switches trim UET data that does not fit (NACKed and resent at "
                          "once) instead of dropping it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricTransportConfig::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute(
                "UetQueueBdp",
                "Static limit of every lossy egress queue of the scale-out switches "
                "with UET, in BDPs (GpuLinkDataRate x the largest unloaded RTT); "
                "0 = no static limit (the MMU's dynamic threshold only). htsim: 1 "
                "with trimming.",
                DoubleValue(1.0),
                MakeDoubleAccessor(&FabricTransportConfig::m_queueBdp),
                MakeFabricDoubleChecker("ns3::FabricTransportConfig::UetQueueBdp", 0, 1000))
            .AddAttribute(
                "UetEcnMinBdp",
                "ECN marking of UET data starts above this many BDPs of a port's "
                "queue (the port's rate x the largest unloaded RTT); htsim 0.2.",
                DoubleValue(0.2),
                MakeDoubleAccessor(&FabricTransportConfig::m_ecnMinBdp),
                MakeFabricDoubleChecker("ns3::FabricTransportConfig::UetEcnMinBdp", 0, 1000))
            .AddAttribute(
                "UetEcnMaxBdp",
                "ECN marks every UET data packet above this many BDPs (probability "
                "rising linearly from UetEcnMinBdp); >= UetEcnMinBdp and <= "
                "UetQueueBdp when that is set; htsim 0.8.",
                DoubleValue(0.8),
                MakeDoubleAccessor(&FabricTransportConfig::m_ecnMaxBdp),
                MakeFabricDoubleChecker("ns3::FabricTransportConfig::UetEcnMaxBdp", 0, 1000))
            .AddAttribute("UetRtoMin",
                          "RtoMin of the UET NICs; 0 = htsim's rule, 15 us + 6 x the drain "
                          "time of the static queue limit at GpuLinkDataRate (the UetNic "
                          "default without a static limit).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FabricTransportConfig::m_rtoMinAttr),
                          MakeFabricTimeChecker("ns3::FabricTransportConfig::UetRtoMin",
                                                Time(0),
                                                Seconds(10)));
    return tid;
}

FabricTransportConfig::FabricTransportConfig()
    : m_transport("roce"),
      m_roceCc("dcqcn"),
      m_uetCc("nscc"),
      m_ev("reps"),
      m_uetDscp(8),
      m_trimming(true),
      m_queueBdp(1.0),
      m_ecnMinBdp(0.2),
      m_ecnMaxBdp(0.8)
{
}

FabricTransportConfig::~FabricTransportConfig() = default;

void
FabricTransportConfig::CheckTransport(const std::string& value, const std::string& what)
{
    CheckName(value, what, TRANSPORTS);
}

void
FabricTransportConfig::CheckRoceCc(const std::string& value, const std::string& what)
{
    CheckName(value, what, ROCE_CCS);
}

void
FabricTransportConfig::CheckUetCc(const std::string& value, const std::string& what)
{
    CheckName(value, what, UET_CCS);
}

void
FabricTransportConfig::CheckEvStrategy(const std::string& value, const std::string& what)
{
    CheckName(value, what, EV_STRATEGIES);
}

void
FabricTransportConfig::CheckMtu(const std::string& transport, uint32_t mtu, const std::string& what)
{
    if (transport == "uet")
    {
        FABRIC_INPUT_ERROR_IF(mtu < 256 || mtu > 16383,
                              what << "=" << mtu
                                   << " is invalid with Transport uet; valid range is 256..16383 "
                                      "payload bytes");
        return;
    }
    FABRIC_INPUT_ERROR_IF(mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096,
                          what << "=" << mtu
                               << " is invalid with Transport roce; valid values are the RoCE "
                                  "path MTUs 256, 512, 1024, 2048, 4096");
}

const char*
FabricTransportConfig::GetDisplayName(const std::string& transport)
{
    return transport == "uet" ? "UET" : "RoCE";
}

uint64_t
FabricTransportConfig::GetMaxMessageBytes(const std::string& transport)
{
    return transport == "uet" ? 0xFFFFFFFFull : UINT64_MAX;
}

uint32_t
FabricTransportConfig::UetDataFrameBytes(uint32_t mtu)
{
    return 14 + 20 + 8 + 12 + 44 + mtu + 4;
}

bool
FabricTransportConfig::IsUet() const
{
    return m_transport == "uet";
}

std::string
FabricTransportConfig::GetTransport() const
{
    return m_transport;
}

std::string
FabricTransportConfig::GetCongestionControl() const
{
    return IsUet() ? m_uetCc : m_roceCc;
}

std::string
FabricTransportConfig::GetEvStrategy() const
{
    return m_ev;
}

uint8_t
FabricTransportConfig::GetUetDataPriority() const
{
    return m_uetDscp >> 3;
}

Time
FabricTransportConfig::GetBaseRtt() const
{
    return m_baseRtt;
}

uint64_t
FabricTransportConfig::GetBdpBytes() const
{
    return m_bdp;
}

uint64_t
FabricTransportConfig::GetUetQueueBytes() const
{
    return m_queueBytes;
}

Time
FabricTransportConfig::GetUetRtoMin() const
{
    return m_rtoMin;
}

TypeId
FabricTransportConfig::UetCcTypeId() const
{
    CheckUetCc(m_uetCc, "ns3::FabricTransportConfig::UetCongestionControl");
    if (m_uetCc == "none")
    {
        return FabricNoneCongestionOps::GetTypeId();
    }
    if (m_uetCc == "nscc")
    {
        return NsccCongestionOps::GetTypeId();
    }
    // rccc, both: "both" runs NSCC beside RCCC through its SenderCc attribute (Configure).
    return RcccCongestionOps::GetTypeId();
}

void
FabricTransportConfig::Configure(Ptr<FabricTopologyHelper> topo) const
{
    FABRIC_INPUT_ERROR_IF(!topo || topo->IsInstalled(),
                          "FabricTransportConfig::Configure needs a topology that is not installed "
                          "yet (call it before Install)");
    if (!IsUet())
    {
        topo->SetAttribute("Transports", StringValue("roce"));
        topo->GetNicHelper().SetCongestionControl(m_roceCc);
        return;
    }
    const uint8_t prio = GetUetDataPriority(); // 0..5: the checker keeps DSCPs 48..63 out
    // Said here, naming the DSCP, before the switches' MMUs refuse to trim a lossless class.
    FABRIC_INPUT_ERROR_IF((topo->GetSwitchHelper().GetLosslessPriorities() >> prio) & 1,
                          "ns3::FabricTransportConfig::UetDataDscp="
                              << unsigned(m_uetDscp) << " maps to priority " << unsigned(prio)
                              << ", a lossless (PFC) priority of the switches "
                                 "(SharedBufferMmu LosslessPriorities); UET runs lossy: choose "
                                 "a DSCP whose priority DSCP >> 3 is not lossless");
    const TypeId cc = UetCcTypeId();
    const TypeId ev = UetEvSelector::CreateByName(m_ev)->GetInstanceTypeId();
    topo->SetAttribute("Transports", StringValue("uet"));
    UetNicHelper& nic = topo->GetUetNicHelper();
    nic.SetNicAttribute("DataDscp", UintegerValue(m_uetDscp));
    nic.SetNicAttribute("CongestionControl", TypeIdValue(cc));
    nic.SetNicAttribute("EvSelector", TypeIdValue(ev));
    const bool spraying = m_ev != "single";
    if (spraying)
    {
        nic.SetNicAttribute("AckOnHole", BooleanValue(false));
    }
    if (spraying || m_trimming)
    {
        nic.SetNicAttribute("OooThreshold", UintegerValue(0));
    }
    const uint8_t mask = 1u << prio;
    for (SwitchHelper* sw : {&topo->GetSwitchHelper(), &topo->GetNvSwitchHelper()})
    {
        sw->SetMmuAttribute("TrimPriorities", UintegerValue(m_trimming ? mask : 0u));
    }
    // ECN marks UET data only (thresholds per port in Finish, from the BDP).
    topo->GetSwitchHelper().SetEcnAttribute("EcnPriorities", UintegerValue(mask));
}

void
FabricTransportConfig::Finish(Ptr<FabricTopologyHelper> topo)
{
    FABRIC_INPUT_ERROR_IF(
        !topo || !topo->IsInstalled(),
        "FabricTransportConfig::Finish needs the installed topology (call it after "
        "Install)");
    if (!IsUet())
    {
        return;
    }
    const uint8_t prio = GetUetDataPriority();
    const std::vector<Ptr<FabricSwitch>> switches = ScaleOutSwitches(topo);
    for (const auto& sw : switches)
    {
        FABRIC_INPUT_ERROR_IF(sw->GetMmu()->IsLossless(prio),
                              "ns3::FabricTransportConfig::UetDataDscp="
                                  << unsigned(m_uetDscp) << " maps to priority " << unsigned(prio)
                                  << ", a lossless (PFC) priority of the switches "
                                     "(SharedBufferMmu LosslessPriorities); UET runs lossy: choose "
                                     "a DSCP whose priority DSCP >> 3 is not lossless");
    }
    FABRIC_INPUT_ERROR_IF(m_ecnMaxBdp < m_ecnMinBdp,
                          "ns3::FabricTransportConfig::UetEcnMinBdp="
                              << m_ecnMinBdp << ", UetEcnMaxBdp=" << m_ecnMaxBdp
                              << " are invalid; valid is UetEcnMinBdp <= UetEcnMaxBdp");
    FABRIC_INPUT_ERROR_IF(m_queueBdp > 0 && m_ecnMaxBdp > m_queueBdp,
                          "ns3::FabricTransportConfig::UetEcnMaxBdp="
                              << m_ecnMaxBdp << " is above UetQueueBdp=" << m_queueBdp
                              << "; valid is UetEcnMaxBdp <= UetQueueBdp (or UetQueueBdp 0)");

    Ptr<UetNic> nic0 = topo->GetUetNic(0);
    const uint32_t frame = UetDataFrameBytes(nic0->GetMtu());
    m_baseRtt = topo->GetMaxUnloadedRtt(frame, UET_ACK_FRAME_BYTES);
    const DataRate nicRate = topo->GetLinkRate(FabricLinkTier::GPU_LEAF);
    auto bdpAt = [this](DataRate rate) {
        return static_cast<double>(rate.GetBitRate()) / 8.0 * m_baseRtt.GetSeconds();
    };
    m_bdp = static_cast<uint64_t>(std::ceil(bdpAt(nicRate)));
    m_queueBytes = 0;
    if (m_queueBdp > 0)
    {
        m_queueBytes = static_cast<uint64_t>(std::ceil(m_queueBdp * bdpAt(nicRate)));
        FABRIC_INPUT_ERROR_IF(m_queueBytes < frame,
                              "ns3::FabricTransportConfig::UetQueueBdp="
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
    for (uint32_t r = 0; r < topo->GetNRanks(); ++r)
    {
        Ptr<UetNic> nic = topo->GetUetNic(r);
        if (!m_rtoMin.IsZero())
        {
            nic->SetAttribute("RtoMin", TimeValue(m_rtoMin));
            FABRIC_INPUT_ERROR_IF(nic->GetRtoMax() < m_rtoMin,
                                  "ns3::FabricTransportConfig: RtoMin "
                                      << m_rtoMin.As(Time::US)
                                      << " is above the UetNic "
                                         "RtoMax "
                                      << nic->GetRtoMax().As(Time::US));
        }
        Ptr<FabricCongestionOps> cc = nic->GetCongestionPrototype();
        if (m_uetCc == "nscc" || m_uetCc == "both")
        {
            FABRIC_INPUT_ERROR_IF(
                !cc->SetAttributeFailSafe("BaseRtt", TimeValue(m_baseRtt)) && m_uetCc == "nscc",
                "FabricTransportConfig: the congestion control "
                    << cc->GetInstanceTypeId().GetName() << " has no BaseRtt attribute");
        }
        if (m_uetCc == "rccc" || m_uetCc == "both")
        {
            cc->SetAttributeFailSafe("BaseRtt", TimeValue(m_baseRtt));
        }
        if (m_uetCc == "both")
        {
            // NSCC beside RCCC on every flow (RCCC forks it): sending needs both.
            auto nscc = CreateObject<NsccCongestionOps>();
            nscc->SetAttribute("BaseRtt", TimeValue(m_baseRtt));
            cc->SetAttribute("SenderCc", PointerValue(nscc));
        }
    }
}

void
FabricTransportConfig::Describe(std::ostream& os) const
{
    if (!IsUet())
    {
        os << "RoCEv2 RC, " << (m_roceCc == "dcqcn" ? "DCQCN" : "no congestion control")
           << ", lossless priority 3 with PFC";
        return;
    }
    os << "UET RUD, " << (m_uetCc == "none" ? "no congestion control" : m_uetCc);
    if (!m_baseRtt.IsZero() && m_uetCc != "none")
    {
        os << " (BaseRtt " << Us(m_baseRtt) << " us)";
    }
    os << ", EV " << m_ev << (m_ev == "single" ? " (one path per PDC)" : " spraying")
       << ", lossy priority " << unsigned(GetUetDataPriority())
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

} // namespace ns3
