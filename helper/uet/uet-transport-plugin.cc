/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-transport-plugin.h"

#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-congestion-ops.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-nic.h"
#include "ns3/fabric-switch.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-net-device.h"
#include "ns3/string.h"
#include "ns3/uet-collective-transport.h"
#include "ns3/uet-endpoint.h"
#include "ns3/uet-nic.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace ns3
{

namespace
{

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
                    : std::max(PfcNetDevice::ETH_HEADER_BYTES + UET_ACK_HEADERS +
                                   PfcNetDevice::FCS_BYTES,
                               PfcNetDevice::MIN_FRAME_BYTES) +
                          PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
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
                              [](const std::string& s) { return s; }));
    return tid;
}

UetTransportPlugin::UetTransportPlugin()
    : m_flowJobId(2),
      m_flowMode("RUD")
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
