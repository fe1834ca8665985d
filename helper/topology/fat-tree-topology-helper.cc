/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fat-tree-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/entropy-ecmp-load-balancer.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-time.h"
#include "ns3/queue-size.h"
#include "ns3/switch-entropy-parser.h"
#include "ns3/uet-pds-header.h"
#include "ns3/uinteger.h"

#include <array>
#include <cmath>
#include <iomanip>
#include <memory>
#include <unordered_map>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FatTreeTopologyHelper);

namespace
{

/// Links of the longest path (host - ToR - agg - core - agg - ToR - host).
constexpr uint32_t DIAMETER_LINKS = 6;
/// UET headers of a full RUD data packet: IPv4 20, UDP 8, PDS 12, SES standard request 44.
constexpr uint32_t UET_DATA_HEADERS = 20 + 8 + 12 + 44;
/// The ACK that completes a WRITE: IPv4 20, UDP 8, PDS ACK 12, SES response 12.
constexpr uint32_t UET_ACK_BYTES = 20 + 8 + 12 + 12;

/// \return true if the default of \p attr of \p tid was changed (Config::SetDefault, --ns3::)
bool
DefaultChanged(const std::string& tid, const std::string& attr)
{
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByName(tid).LookupAttributeByName(attr, &info))
    {
        return false;
    }
    return info.initialValue->SerializeToString(info.checker) !=
           info.originalInitialValue->SerializeToString(info.checker);
}

/// \return the frame bytes of an IPv4 packet of \p l3 bytes (Ethernet header, FCS, padding)
uint32_t
FrameBytes(uint32_t l3)
{
    return std::max(PfcNetDevice::ETH_HEADER_BYTES + l3 + PfcNetDevice::FCS_BYTES,
                    PfcNetDevice::MIN_FRAME_BYTES);
}

} // namespace

TypeId
FatTreeTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FatTreeTopologyHelper")
            .SetParent<FabricTopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<FatTreeTopologyHelper>()
            .AddAttribute("K",
                          "Pods and ports per switch (even, >= 2): K^3/4 hosts, K^2/2 ToRs, "
                          "K^2/2 aggregation switches, K^2/4 cores. Default 4 (16 hosts, "
                          "htsim's small reference fabric); 16 gives 1024 hosts.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&FatTreeTopologyHelper::m_k),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LinkDataRate",
                          "Rate of every cable, hosts included (> 0). Default 100 Gb/s (htsim).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&FatTreeTopologyHelper::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("LinkDelay",
                          "Propagation delay of every cable (>= 0). Default 1 us (htsim's "
                          "hop latency: 6 us over the longest path).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&FatTreeTopologyHelper::m_delay),
                          MakeTimeChecker())
            .AddAttribute("SwitchLatency",
                          "Forwarding delay of every switch (FabricSwitch ProcessingDelay, "
                          ">= 0). Default 0 (htsim).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FatTreeTopologyHelper::m_switchLatency),
                          MakeTimeChecker())
            .AddAttribute("Trimming",
                          "Trim UET data packets that do not fit their queue (true, default) "
                          "instead of dropping them; also chooses the automatic QueueBytes "
                          "(1 BDP with trimming, 5 without) and turns inferred loss off.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FatTreeTopologyHelper::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute("QueueBytes",
                          "Per-port egress queue limit of the UET data class, bytes (>= one "
                          "data frame, Mtu + 102). 0 (default) = htsim's: 1 BDP of whole "
                          "packets with Trimming, 5 BDP without.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FatTreeTopologyHelper::m_queueBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Ecn",
                          "Mark UET data CE on every switch queue between EcnMinBdp and "
                          "EcnMaxBdp (default true).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FatTreeTopologyHelper::m_ecn),
                          MakeBooleanChecker())
            .AddAttribute("EcnMinBdp",
                          "ECN Kmin in BDPs (>= 0; rounded up to whole packets). Default 0.2.",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&FatTreeTopologyHelper::m_ecnMinBdp),
                          MakeDoubleChecker<double>())
            .AddAttribute("EcnMaxBdp",
                          "ECN Kmax in BDPs (>= EcnMinBdp; Kmax must fit the queue; rounded up "
                          "to whole packets); the probability grows linearly to 1 at Kmax. "
                          "Default 0.8.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&FatTreeTopologyHelper::m_ecnMaxBdp),
                          MakeDoubleChecker<double>())
            .AddAttribute("TrimSize",
                          "IPv4 length of a trimmed packet, bytes: 0 (default) = the "
                          "smallest the UET NICs can read (84, or 88 with receiver credit: "
                          "UetNic::GetMinTrimBytes), else UetNic::MIN_TRIM_BYTES..65535.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FatTreeTopologyHelper::m_trimSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "HeaderModelBytes",
                "0 (default): packets are charged their real sizes (a full data packet "
                "Mtu + 122 B on the wire). 21..84: UEC htsim's simplified header model, set as "
                "the UET NICs' HeaderModelBytes: links and queues charge a packet its payload "
                "plus this many bytes (htsim: 64, with UetNic Mtu 4086 for its 4150-byte "
                "packets); the BDP, queue and ECN sizes follow.",
                UintegerValue(0),
                MakeUintegerAccessor(&FatTreeTopologyHelper::m_headerModelBytes),
                MakeFabricUintegerChecker<uint32_t>("ns3::FatTreeTopologyHelper::HeaderModelBytes",
                                                    0,
                                                    84))
            .AddAttribute("UetDataDscp",
                          "DSCP of UET data (set as the UetNics' DataDscp); its priority "
                          "DSCP >> 3 is the lossy, trimmed, ECN-marked class (0..47: not the "
                          "control priority 6 nor the trim priority 7). Default 8 (priority 1).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FatTreeTopologyHelper::m_dataDscp),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LoadBalancer",
                          "TypeId of every switch's load balancer (a SwitchLoadBalancer). "
                          "Default ns3::EntropyEcmpLoadBalancer: the flow hash includes the UET "
                          "EV (UDP source port).",
                          TypeIdValue(EntropyEcmpLoadBalancer::GetTypeId()),
                          MakeTypeIdAccessor(&FatTreeTopologyHelper::m_loadBalancer),
                          MakeTypeIdChecker())
            .AddAttribute("RtoMin",
                          "UetNic RtoMin to set (> 0), or 0 (default) for htsim's minimum RTO: "
                          "15 us + 6 x QueueBytes x 8 / LinkDataRate. A changed "
                          "ns3::UetNic::RtoMin default is kept instead of the automatic value.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FatTreeTopologyHelper::m_rtoMin),
                          MakeTimeChecker());
    return tid;
}

FatTreeTopologyHelper::FatTreeTopologyHelper()
    : m_k(4),
      m_rate("100Gbps"),
      m_delay(MicroSeconds(1)),
      m_switchLatency(0),
      m_trimming(true),
      m_queueBytes(0),
      m_ecn(true),
      m_ecnMinBdp(0.2),
      m_ecnMaxBdp(0.8),
      m_trimSize(0),
      m_dataDscp(8),
      m_loadBalancer(EntropyEcmpLoadBalancer::GetTypeId()),
      m_rtoMin(0)
{
}

std::string
FatTreeTopologyHelper::GetKindName() const
{
    return "fat tree (k=" + std::to_string(m_k) + ")";
}

uint32_t
FatTreeTopologyHelper::GetK() const
{
    return m_k;
}

uint32_t
FatTreeTopologyHelper::GetNHosts() const
{
    return static_cast<uint32_t>(uint64_t(m_k) * m_k * m_k / 4);
}

uint32_t
FatTreeTopologyHelper::GetNPods() const
{
    return m_k;
}

uint32_t
FatTreeTopologyHelper::UetMtu()
{
    TypeId::AttributeInformation info;
    FABRIC_INPUT_ERROR_IF(!UetNic::GetTypeId().LookupAttributeByName("Mtu", &info),
                          "FatTreeTopologyHelper: UetNic has no Mtu attribute");
    return static_cast<uint32_t>(DynamicCast<const UintegerValue>(info.initialValue)->Get());
}

uint8_t
FatTreeTopologyHelper::GetDataPriority() const
{
    return static_cast<uint8_t>(m_dataDscp >> 3);
}

uint32_t
FatTreeTopologyHelper::GetDataFrameBytes() const
{
    if (m_headerModelBytes != 0)
    {
        return ChargedFrameBytes(UetMtu());
    }
    return FrameBytes(UetMtu() + UET_DATA_HEADERS);
}

uint32_t
FatTreeTopologyHelper::ChargedFrameBytes(uint32_t payload) const
{
    // UetNic::MakeFrame: payload + HeaderModelBytes on the wire, preamble and IFG included.
    return payload + m_headerModelBytes - PfcNetDevice::PREAMBLE_BYTES - PfcNetDevice::IFG_BYTES;
}

uint32_t
FatTreeTopologyHelper::GetDataPacketWireBytes() const
{
    return GetDataFrameBytes() + PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
}

Time
FatTreeTopologyHelper::GetMaxUnloadedRtt() const
{
    // A frame reaches the next hop (preamble + frame) x 8 / rate after it starts, plus the
    // cable's delay (PfcNetDevice); switches add their latency, NICs nothing.
    return UnloadedRtt(DIAMETER_LINKS);
}

Time
FatTreeTopologyHelper::GetUnloadedRtt(uint32_t src, uint32_t dst) const
{
    FABRIC_INPUT_ERROR_IF(src >= GetNHosts() || dst >= GetNHosts(),
                          "FatTreeTopologyHelper::GetUnloadedRtt: host "
                              << std::max(src, dst) << " is out of range 0.." << GetNHosts() - 1);
    const uint32_t half = m_k / 2;
    uint32_t links = DIAMETER_LINKS; // through a core
    if (src == dst)
    {
        return Time(0);
    }
    if (src / half == dst / half)
    {
        links = 2; // same ToR
    }
    else if (GetPodOf(src) == GetPodOf(dst))
    {
        links = 4; // through an aggregation switch of the pod
    }
    return UnloadedRtt(links);
}

Time
FatTreeTopologyHelper::UnloadedRtt(uint32_t links) const
{
    const uint32_t ack = m_headerModelBytes != 0 ? ChargedFrameBytes(0) : FrameBytes(UET_ACK_BYTES);
    const Time cable = CableRoundTrip(m_rate, m_delay, GetDataFrameBytes(), ack);
    return cable * links + m_switchLatency * (2 * (links - 1));
}

void
FatTreeTopologyHelper::DoInstalled()
{
    // Every NIC learns the unloaded RTT of its path to each peer: NSCC starts its base RTT
    // there, as htsim gives each connection its path's RTT.
    auto hostOf = std::make_shared<std::unordered_map<uint32_t, uint32_t>>();
    for (uint32_t h = 0; h < GetNHosts(); ++h)
    {
        (*hostOf)[GetUetNic(h)->GetAddress(0).Get()] = h;
    }
    const std::array<Time, 3> rtts{UnloadedRtt(2), UnloadedRtt(4), UnloadedRtt(DIAMETER_LINKS)};
    const uint32_t half = m_k / 2;
    for (uint32_t h = 0; h < GetNHosts(); ++h)
    {
        const uint32_t pod = GetPodOf(h);
        GetUetNic(h)->SetPathRttFunction([hostOf, rtts, h, half, pod](Ipv4Address a) {
            auto it = hostOf->find(a.Get());
            if (it == hostOf->end() || it->second == h)
            {
                return Time(0);
            }
            const uint32_t d = it->second;
            if (d / half == h / half)
            {
                return rtts[0];
            }
            return d / (half * half) == pod ? rtts[1] : rtts[2];
        });
    }
}

uint64_t
FatTreeTopologyHelper::GetBdpBytes() const
{
    __uint128_t bits =
        static_cast<__uint128_t>(GetMaxUnloadedRtt().GetPicoSeconds()) * m_rate.GetBitRate();
    const __uint128_t perByte = 8ull * 1000000000000ull; // bits x ps per second
    return static_cast<uint64_t>((bits + perByte - 1) / perByte);
}

uint32_t
FatTreeTopologyHelper::GetBdpPackets() const
{
    const uint64_t wire = GetDataPacketWireBytes();
    return static_cast<uint32_t>((GetBdpBytes() + wire - 1) / wire);
}

uint64_t
FatTreeTopologyHelper::GetQueueBytes() const
{
    if (m_queueBytes != 0)
    {
        return m_queueBytes;
    }
    return uint64_t(m_trimming ? 1 : 5) * GetBdpPackets() * GetDataFrameBytes();
}

uint64_t
FatTreeTopologyHelper::GetEcnKminBytes() const
{
    return static_cast<uint64_t>(std::ceil(m_ecnMinBdp * GetBdpPackets() - 1e-9)) *
           GetDataFrameBytes();
}

uint64_t
FatTreeTopologyHelper::GetEcnKmaxBytes() const
{
    return static_cast<uint64_t>(std::ceil(m_ecnMaxBdp * GetBdpPackets() - 1e-9)) *
           GetDataFrameBytes();
}

Time
FatTreeTopologyHelper::GetUetRtoMin() const
{
    if (!m_rtoMin.IsZero())
    {
        return m_rtoMin;
    }
    return MicroSeconds(15) + BytesTxTime(6 * GetQueueBytes(), m_rate);
}

void
FatTreeTopologyHelper::CheckAttributes() const
{
    const std::string name = "FatTreeTopologyHelper";
    FABRIC_INPUT_ERROR_IF(
        m_k < 2 || m_k % 2 != 0,
        name << ": K=" << m_k
             << " is invalid; K must be even and >= 2 (K=4: 16 hosts, K=16: 1024)");
    const uint64_t hosts = uint64_t(m_k) * m_k * m_k / 4;
    FABRIC_INPUT_ERROR_IF(hosts > SwitchForwardingTable::MAX_SPAN,
                          name << ": K=" << m_k << " gives " << hosts << " hosts, more than the "
                               << SwitchForwardingTable::MAX_SPAN
                               << " addresses a forwarding table can span; lower K");
    FABRIC_INPUT_ERROR_IF(m_rate.GetBitRate() == 0,
                          name << ": LinkDataRate=0bps is invalid; it must be > 0 (e.g. 100Gbps)");
    FABRIC_INPUT_ERROR_IF(m_delay.IsStrictlyNegative(),
                          name << ": LinkDelay=" << m_delay.As(Time::US)
                               << " is invalid; it must be >= 0");
    FABRIC_INPUT_ERROR_IF(m_switchLatency.IsStrictlyNegative(),
                          name << ": SwitchLatency=" << m_switchLatency.As(Time::US)
                               << " is invalid; it must be >= 0");
    FABRIC_INPUT_ERROR_IF(m_rtoMin.IsStrictlyNegative(),
                          name << ": RtoMin=" << m_rtoMin.As(Time::US)
                               << " is invalid; it must be > 0, or 0 for htsim's automatic value");
    FABRIC_INPUT_ERROR_IF(!m_loadBalancer.IsChildOf(SwitchLoadBalancer::GetTypeId()) ||
                              !m_loadBalancer.HasConstructor(),
                          name << ": LoadBalancer=" << m_loadBalancer.GetName()
                               << " is invalid; it must name a SwitchLoadBalancer (e.g. "
                                  "ns3::EntropyEcmpLoadBalancer, ns3::EcmpLoadBalancer, "
                                  "ns3::SprayLoadBalancer)");
    FABRIC_INPUT_ERROR_IF(m_dataDscp > 47,
                          name << ": UetDataDscp=" << m_dataDscp
                               << " is invalid; valid range is 0..47 (priority DSCP >> 3 below 6: "
                                  "6 carries ACKs/NACKs, 7 trimmed packets)");
    FABRIC_INPUT_ERROR_IF(m_headerModelBytes != 0 && m_headerModelBytes < 21,
                          name << ": HeaderModelBytes=" << m_headerModelBytes
                               << " is invalid; valid is 0 (real sizes) or 21..84 (htsim: 64)");
    FABRIC_INPUT_ERROR_IF(m_trimSize != 0 &&
                              (m_trimSize < UetNic::MIN_TRIM_BYTES || m_trimSize > 65535),
                          name << ": TrimSize=" << m_trimSize << " is invalid; valid range is "
                               << UetNic::MIN_TRIM_BYTES
                               << "..65535 (the UET receiver must read the headers of a trimmed "
                                  "packet), or 0 for the NICs' smallest");
    const uint32_t frame = GetDataFrameBytes();
    FABRIC_INPUT_ERROR_IF(m_queueBytes != 0 && m_queueBytes < frame,
                          name << ": QueueBytes=" << m_queueBytes
                               << " is invalid; it must hold one full data frame (>= " << frame
                               << " B), or be 0 for htsim's automatic size");
    FABRIC_INPUT_ERROR_IF(!(m_ecnMinBdp >= 0) || !(m_ecnMaxBdp >= m_ecnMinBdp),
                          name << ": EcnMinBdp=" << m_ecnMinBdp << ", EcnMaxBdp=" << m_ecnMaxBdp
                               << " are invalid; valid is 0 <= EcnMinBdp <= EcnMaxBdp");
    FABRIC_INPUT_ERROR_IF(m_ecn && GetEcnKmaxBytes() > GetQueueBytes(),
                          name << ": EcnMaxBdp=" << m_ecnMaxBdp << " gives Kmax "
                               << GetEcnKmaxBytes() << " B, above the queue of " << GetQueueBytes()
                               << " B; valid Kmax is <= the queue (lower EcnMaxBdp or raise "
                                  "QueueBytes)");
}

void
FatTreeTopologyHelper::DoConfigure()
{
    CheckAttributes();
    // Plain single-NIC UET hosts, one per "server".
    m_servers = GetNHosts();
    m_gpusPerServer = 1;
    m_portsPerGpu = 1;
    m_nvLink = false;
    m_transports = "uet";
    m_gpuLinkRate = m_rate;
    m_gpuLinkDelay = m_delay;

    const uint8_t data = GetDataPriority();
    SwitchHelper& sw = GetSwitchHelper();
    sw.SetSwitchAttribute("ProcessingDelay", TimeValue(m_switchLatency));
    sw.SetMmuAttribute("LosslessPriorities", UintegerValue(0));
    sw.SetMmuAttribute("EgressLimitBytes", UintegerValue(GetQueueBytes()));
    sw.SetMmuAttribute("TrimPriorities", UintegerValue(m_trimming ? 1u << data : 0u));
    sw.SetMmuAttribute(
        "TrimSize",
        UintegerValue(m_trimSize != 0 ? m_trimSize : GetUetNicHelper().GetMinTrimBytes()));
    sw.SetEcnAttribute("Kmin", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, GetEcnKminBytes())));
    sw.SetEcnAttribute("Kmax", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, GetEcnKmaxBytes())));
    sw.SetEcnAttribute("Pmax", DoubleValue(1.0));
    sw.SetEcnAttribute("ScaleWithRate", BooleanValue(false));
    sw.SetEcnAttribute("EcnPriorities", UintegerValue(m_ecn ? 1u << data : 0u));
    sw.SetLoadBalancer(m_loadBalancer.GetName());
    sw.SetEntropyParser(UetPdsHeader::UDP_DST_PORT, &UdpSourcePortEntropyParser);

    UetNicHelper& nic = GetUetNicHelper();
    nic.SetNicAttribute("DataDscp", UintegerValue(m_dataDscp));
    nic.SetNicAttribute("HeaderModelBytes", UintegerValue(m_headerModelBytes));
    if (!m_rtoMin.IsZero() || !DefaultChanged("ns3::UetNic", "RtoMin"))
    {
        nic.SetNicAttribute("RtoMin", TimeValue(GetUetRtoMin()));
    }
    // With trimming a congested packet is trimmed and NACKed, not lost: no inferred loss
    // (for failure scenarios set the UetNic defaults OooThreshold 16 and InferLossAge 1.5:
    // only a packet that vanished is then inferred lost, in ~1.5 RTT instead of an RTO).
    if (m_trimming && !DefaultChanged("ns3::UetNic", "OooThreshold"))
    {
        nic.SetNicAttribute("OooThreshold", UintegerValue(0));
    }
}

void
FatTreeTopologyHelper::DoPlan()
{
    const uint32_t half = m_k / 2;
    const uint32_t nTor = m_k * half;
    const uint32_t nAgg = m_k * half;
    const uint32_t nCore = half * half;
    SetTier(FabricLinkTier::LEAF_SPINE, m_rate, m_delay, "LinkDataRate");
    SetTier(FabricLinkTier::SPINE_CORE, m_rate, m_delay, "LinkDataRate");
    SetSwitchCounts(nTor, nAgg, nCore);
    SetLeafCapacity(double(half) * m_rate.GetBitRate(), double(half) * m_rate.GetBitRate());
    for (uint32_t pod = 0; pod < m_k; ++pod)
    {
        for (uint32_t t = 0; t < half; ++t)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                AddFabricLink(pod * half + t, nTor + pod * half + a, FabricLinkTier::LEAF_SPINE);
            }
        }
    }
    for (uint32_t pod = 0; pod < m_k; ++pod)
    {
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                AddFabricLink(nTor + pod * half + a,
                              nTor + nAgg + a * half + c,
                              FabricLinkTier::SPINE_CORE);
            }
        }
    }
}

uint32_t
FatTreeTopologyHelper::DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const
{
    return server / (m_k / 2);
}

void
FatTreeTopologyHelper::DoPrintShape(std::ostream& os) const
{
    const uint32_t half = m_k / 2;
    os << "  " << m_k << " pods of " << half << " ToRs + " << half << " aggregation switches, "
       << half * half << " cores in " << half << " planes; " << half << " hosts per ToR; "
       << "RTT " << std::fixed << std::setprecision(3) << GetMaxUnloadedRtt().GetSeconds() * 1e6
       << " us, BDP " << GetBdpBytes() << " B = " << GetBdpPackets() << " packets of "
       << GetDataPacketWireBytes() << " B; queue " << GetQueueBytes() << " B per port, ECN "
       << (m_ecn
               ? std::to_string(GetEcnKminBytes()) + ".." + std::to_string(GetEcnKmaxBytes()) + " B"
               : std::string("off"))
       << ", trimming " << (m_trimming ? "on" : "off") << "\n";
    os.unsetf(std::ios::fixed);
    os << std::setprecision(6);
}

void
FatTreeTopologyHelper::CheckPodIndex(uint32_t pod, uint32_t index, const char* what) const
{
    FABRIC_INPUT_ERROR_IF(pod >= m_k,
                          "FatTreeTopologyHelper::" << what << ": pod " << pod
                                                    << " does not exist (pods 0.." << m_k - 1
                                                    << ")");
    FABRIC_INPUT_ERROR_IF(index >= m_k / 2,
                          "FatTreeTopologyHelper::" << what << ": index " << index
                                                    << " does not exist in a pod (0.."
                                                    << m_k / 2 - 1 << ")");
}

Ptr<Node>
FatTreeTopologyHelper::GetHost(uint32_t host) const
{
    return GetRank(host);
}

uint32_t
FatTreeTopologyHelper::GetPodOf(uint32_t host) const
{
    FABRIC_INPUT_ERROR_IF(host >= GetNHosts(),
                          "FatTreeTopologyHelper::GetPodOf: host "
                              << host << " does not exist (hosts 0.." << GetNHosts() - 1 << ")");
    return host / (m_k / 2 * (m_k / 2));
}

Ptr<Node>
FatTreeTopologyHelper::GetTor(uint32_t pod, uint32_t tor) const
{
    CheckPodIndex(pod, tor, "GetTor");
    return GetLeaf(pod * (m_k / 2) + tor);
}

Ptr<Node>
FatTreeTopologyHelper::GetAgg(uint32_t pod, uint32_t agg) const
{
    CheckPodIndex(pod, agg, "GetAgg");
    return GetSpine(pod * (m_k / 2) + agg);
}

uint32_t
FatTreeTopologyHelper::OnlyLink(Ptr<const Node> a, Ptr<const Node> b, const char* what) const
{
    std::vector<uint32_t> links = FindLinks(a, b);
    FABRIC_INPUT_ERROR_IF(links.size() != 1,
                          "FatTreeTopologyHelper::"
                              << what << ": expected one cable between " << GetNodeName(a->GetId())
                              << " and " << GetNodeName(b->GetId()) << ", found " << links.size());
    return links[0];
}

uint32_t
FatTreeTopologyHelper::GetHostLink(uint32_t host) const
{
    Ptr<Node> node = GetHost(host);
    return OnlyLink(node, GetLeafOf(host, 0), "GetHostLink");
}

uint32_t
FatTreeTopologyHelper::GetTorAggLink(uint32_t pod, uint32_t tor, uint32_t agg) const
{
    return OnlyLink(GetTor(pod, tor), GetAgg(pod, agg), "GetTorAggLink");
}

uint32_t
FatTreeTopologyHelper::GetAggCoreLink(uint32_t pod, uint32_t core) const
{
    const uint32_t half = m_k / 2;
    FABRIC_INPUT_ERROR_IF(core >= half * half,
                          "FatTreeTopologyHelper::GetAggCoreLink: core "
                              << core << " does not exist (cores 0.." << half * half - 1 << ")");
    return OnlyLink(GetAgg(pod, core / half), GetCore(core), "GetAggCoreLink");
}

Ptr<FabricSwitch>
FatTreeTopologyHelper::GetSwitch(uint32_t i) const
{
    const uint32_t leaves = GetNLeaves();
    const uint32_t spines = GetNSpines();
    Ptr<Node> node = i < leaves            ? GetLeaf(i)
                     : i < leaves + spines ? GetSpine(i - leaves)
                                           : GetCore(i - leaves - spines);
    return node->GetObject<FabricSwitch>();
}

int64_t
FatTreeTopologyHelper::AssignStreams(int64_t stream)
{
    CheckInstalled("AssignStreams");
    int64_t used = GetUetNicHelper().AssignStreams(stream);
    for (uint32_t i = 0; i < GetNLeaves() + GetNSpines() + GetNCores(); ++i)
    {
        used += GetSwitch(i)->AssignStreams(stream + used);
    }
    return used;
}

FatTreeCounters
FatTreeTopologyHelper::GetCounters() const
{
    CheckInstalled("GetCounters");
    FatTreeCounters c;
    const uint32_t nSwitches = GetNLeaves() + GetNSpines() + GetNCores();
    for (uint32_t i = 0; i < nSwitches; ++i)
    {
        const SwitchCounters& s = GetSwitch(i)->GetCounters();
        c.trims += s.GetTrims();
        c.lastHopTrims += s.marks[size_t(SwitchMarkReason::TRIMMED_LASTHOP)];
        c.drops += s.drops.GetTotal();
        c.ecnMarks += s.marks[size_t(SwitchMarkReason::ECN_CE)];
    }
    for (uint32_t h = 0; h < GetNHosts(); ++h)
    {
        const UetNicCounters& n = GetUetNic(h)->GetCounters();
        c.rtos += n.rtoExpirations;
        c.retransmissions += n.retransmissions;
        c.trimNacks += n.trimNacksSent;
    }
    return c;
}

} // namespace ns3
