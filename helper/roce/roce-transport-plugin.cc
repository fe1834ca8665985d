/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-transport-plugin.h"

#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-congestion-ops.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-nic.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-aeth-header.h"
#include "ns3/roce-bth-header.h"
#include "ns3/roce-collective-transport.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-qp-connector.h"
#include "ns3/roce-reth-header.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>

namespace ns3
{

namespace
{

/// The CongestionControl names (RoceNicHelper::SetCongestionControl).
const std::vector<std::string> CC_NAMES = {"dcqcn", "none", "dctcp", "timely", "swift", "hpcc"};

/// IPv4 + UDP, bytes.
constexpr uint32_t IP_UDP = 20 + 8;
/// FCS + preamble + inter-frame gap, bytes.
constexpr uint32_t FRAMING =
    PfcNetDevice::FCS_BYTES + PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;

/**
 * Flow-workload messages over RoCEv2: one RDMA WRITE per message on a QP pair of its host pair,
 * pooled per pair and renewed between messages (see RoceTransportPlugin).
 */
class RoceMessageService : public FabricMessageService
{
  public:
    RoceMessageService(const FabricMessageServiceSetup& setup, RoceNicHelper* helper, bool perPeer)
        : m_setup(setup),
          m_helper(helper),
          m_perPeer(perPeer)
    {
        for (uint32_t r = 0; r < setup.nodes.size(); ++r)
        {
            Ptr<RoceNic> nic = setup.nodes[r]->GetObject<RoceNic>();
            FABRIC_INPUT_ERROR_IF(!nic,
                                  "FlowWorkloadRunner: transport roce, but rank "
                                      << r << " has no RoceNic (Transports must include roce)");
            m_nics.push_back(nic);
        }
        if (!m_nics.empty())
        {
            TypeIdValue cc;
            m_nics[0]->GetAttribute("CongestionControl", cc);
            ObjectFactory f;
            f.SetTypeId(cc.Get());
            m_ccName = f.Create<FabricCongestionOps>()->GetName();
        }
        for (uint32_t r = 0; m_perPeer && r < m_nics.size(); ++r)
        {
            // Per-peer numbering from each NIC's first free number (the same in every MPI
            // process: a NIC simulated elsewhere has its QP numbers reserved); a responder
            // QP is opened by its first packet.
            UintegerValue first;
            m_nics[r]->GetAttribute("FirstQpn", first);
            m_bases.push_back(static_cast<uint32_t>(first.Get()) + m_nics[r]->GetNQps());
            m_nics[r]->SetQpResolver(MakeCallback(&RoceMessageService::Resolve, this).Bind(r));
        }
    }

    void DoDispose() override
    {
        for (uint32_t r = 0; m_perPeer && r < m_nics.size(); ++r)
        {
            m_nics[r]->SetQpResolver(RoceNic::QpResolver());
        }
        m_nics.clear();
        m_idle.clear();
        m_messages.clear();
        FabricMessageService::DoDispose();
    }

    void Post(uint32_t src, uint32_t dst, uint64_t bytes, Time pathRtt, DoneCallback done) override
    {
        Message m;
        m.src = src;
        m.dst = dst;
        m.pathRtt = pathRtt;
        m.done = done;
        auto& idle = m_idle[PairKey(src, dst)];
        if (idle.empty() && m_perPeer)
        {
            // The requester's side only: the responder's opens on its first packet (Resolve).
            const auto ports = GetPorts(src, dst);
            m.qps.first =
                m_helper->GetConnector().ConnectPerPeer(End(src, ports.first),
                                                        End(dst, ports.second),
                                                        m_pairConnections[PairKey(src, dst)]++,
                                                        m_nics.size(),
                                                        false);
            ++m_connections;
            Renew(m);
        }
        else if (idle.empty())
        {
            const auto ports = GetPorts(src, dst);
            m.qps = m_helper->Connect(m_nics[src], m_nics[dst], 1, ports.first, ports.second)[0];
            ++m_connections;
            // Tell the algorithms the path's RTT (idle pairs got it when they were renewed).
            Renew(m);
        }
        else
        {
            m.qps = idle.back();
            idle.pop_back();
        }
        m.retxBefore = m.qps.first->GetCounters().retransmittedPackets;
        uint32_t slot;
        if (m_freeSlots.empty())
        {
            slot = static_cast<uint32_t>(m_messages.size());
            m_messages.push_back(m);
        }
        else
        {
            slot = m_freeSlots.back();
            m_freeSlots.pop_back();
            m_messages[slot] = m;
        }
        m_messages[slot].qps.first->PostWrite(
            bytes,
            0,
            1,
            MakeCallback(&RoceMessageService::Completed, this).Bind(slot));
    }

    FabricPacketFormat GetPacketFormat(uint32_t src, uint32_t dst) const override
    {
        Ptr<RoceNic> nic = m_nics[src];
        const uint32_t port = GetPorts(src, dst).first;
        uint8_t l2[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES];
        const uint8_t prio = nic->GetCore()->GetPort(port)->GetDscpPriority(nic->GetDataDscp());
        const uint32_t l2Bytes = nic->GetCore()->WriteFrameHeader(port, prio, l2);
        // Wire bytes beyond the payload: L2, IPv4, UDP, BTH, ICRC, FCS, preamble, gap.
        FabricPacketFormat f;
        f.mtu = nic->GetMtu();
        f.perPacket = l2Bytes + IP_UDP + RoceBthHeader::SIZE + RoceIcrcTrailer::SIZE + FRAMING;
        f.firstExtra = RoceRethHeader::SIZE;
        f.ack =
            PfcNetDevice::WireBytes(l2Bytes + IP_UDP + RoceBthHeader::SIZE + RoceAethHeader::SIZE +
                                    RoceIcrcTrailer::SIZE + PfcNetDevice::FCS_BYTES);
        return f;
    }

    std::pair<uint32_t, uint32_t> GetPorts(uint32_t src, uint32_t dst) const override
    {
        return m_setup.ports.IsNull() ? std::make_pair(0u, 0u) : m_setup.ports(src, dst, 0);
    }

    std::string GetCongestionControlName() const override
    {
        return m_ccName;
    }

    uint64_t GetConnections() const override
    {
        return m_connections;
    }

    std::string GetProcessLimit() const override
    {
        return m_perPeer ? ""
                         : "with ns3::RoceTransportPlugin::QpNumbering=sequential a new QP "
                           "pair's numbers depend on completions only the sender's process sees "
                           "(its destination NIC's next QP number counts every other connection "
                           "to it); set it to per-peer, in the sequential run compared too";
    }

  private:
    /// A message in flight.
    struct Message
    {
        uint32_t src{0};                                       //!< source rank
        uint32_t dst{0};                                       //!< destination rank
        Time pathRtt;                                          //!< its path's unloaded RTT
        std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>> qps; //!< its QP pair
        uint64_t retxBefore{0};                                //!< requester retx at post
        DoneCallback done;                                     //!< outcome goes here
    };

    /// \return the pool key of a host pair
    static uint64_t PairKey(uint32_t src, uint32_t dst)
    {
        return (uint64_t(src) << 32) | dst;
    }

    /// Fresh congestion control on both QPs of \p m, told the path's RTT (per-peer: the
    /// requester's; the responder's notification point is fresh at each new message).
    void Renew(const Message& m) const
    {
        m_nics[m.src]->RenewCongestionControl(m.qps.first, m.pathRtt);
        if (!m_perPeer)
        {
            m_nics[m.dst]->RenewCongestionControl(m.qps.second, m.pathRtt);
        }
    }

    /**
     * \brief Per-peer numbering: open the responder's QP a packet names (RoceNic::QpResolver).
     * \param rank the NIC's rank
     * \param qpn the packet's QPN
     * \param port the port it arrived on
     * \return the QP, or null when \p qpn is no responder QPN of a flow connection to this
     *         rank on that port
     */
    Ptr<RoceQueuePair> Resolve(uint32_t rank, uint32_t qpn, uint32_t port)
    {
        const auto n = static_cast<uint32_t>(m_nics.size());
        uint32_t src = 0;
        uint32_t k = 0;
        if (!RoceQpConnector::PerPeerResponder(m_bases[rank], qpn, n, &src, &k))
        {
            return nullptr;
        }
        const auto ports = GetPorts(src, rank);
        if (src == rank || ports.second != port)
        {
            return nullptr;
        }
        Ptr<RoceQueuePair> qp = m_helper->GetConnector().ConnectPerPeer(End(src, ports.first),
                                                                        End(rank, port),
                                                                        k,
                                                                        n,
                                                                        true);
        qp->SetFreshReceiverPerMessage(true);
        return qp;
    }

    /**
     * \param rank a rank \param port its NIC port
     * \return its end of a connection under per-peer numbering
     */
    RoceQpConnector::PerPeerEnd End(uint32_t rank, uint32_t port) const
    {
        return {m_nics[rank], rank, port, m_bases[rank]};
    }

    /// The WRITE of slot \p slot completed.
    void Completed(uint32_t slot, const RoceWorkCompletion& wc)
    {
        Message& m = m_messages[slot];
        FabricMessageResult r;
        r.ok = wc.status == RoceWcStatus::SUCCESS;
        r.error = r.ok ? "" : RoceWcStatusName(wc.status);
        r.postTime = wc.postTime;
        r.endTime = wc.endTime;
        r.retransmissions = m.qps.first->GetCounters().retransmittedPackets - m.retxBefore;
        if (r.ok)
        {
            // Back to the pool as a new connection would be: fresh congestion control.
            Renew(m);
            m_idle[PairKey(m.src, m.dst)].push_back(m.qps);
        }
        m.qps = {};
        DoneCallback done = m.done;
        m.done = DoneCallback();
        m_freeSlots.push_back(slot);
        done(r);
    }

    FabricMessageServiceSetup m_setup; //!< the ranks
    RoceNicHelper* m_helper;           //!< connects QPs (the plug-in's, which outlives us)
    bool m_perPeer;                    //!< per-peer QP numbering (QpNumbering)
    /// Per-peer numbering: connections opened so far per host pair.
    std::map<uint64_t, uint32_t> m_pairConnections;
    /// Per-peer numbering: each rank's NIC's first number (free when the service started).
    std::vector<uint32_t> m_bases;
    std::vector<Ptr<RoceNic>> m_nics;  //!< per rank
    std::string m_ccName;              //!< the NICs' congestion control
    std::vector<Message> m_messages;   //!< in flight, by slot
    std::vector<uint32_t> m_freeSlots; //!< unused slots
    uint64_t m_connections{0};         //!< QP pairs connected
    /// Idle QP pairs per host pair.
    std::map<uint64_t, std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>>> m_idle;
};

} // namespace

NS_OBJECT_ENSURE_REGISTERED(RoceTransportPlugin);

TypeId
RoceTransportPlugin::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceTransportPlugin")
            .SetParent<FabricTransportPlugin>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceTransportPlugin>()
            .AddAttribute("Name",
                          "The transport's short name (read-only): what Transports and "
                          "--transport take.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          StringValue("roce"),
                          MakeStringAccessor(&RoceTransportPlugin::m_name),
                          MakeStringChecker())
            .AddAttribute("CollectiveTransport",
                          "The TypeId of this transport's CollectiveTransport (read-only).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          TypeIdValue(RoceCollectiveTransport::GetTypeId()),
                          MakeTypeIdAccessor(&RoceTransportPlugin::m_collectiveTransport),
                          MakeTypeIdChecker())
            .AddAttribute("Presets",
                          "Named configurations (read-only; TransportComparison's "
                          "Configurations): roce-dcqcn (DCQCN with PFC), roce-pfc (line rate, "
                          "PFC alone).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          StringValue("dcqcn=CongestionControl:dcqcn;pfc=CongestionControl:none"),
                          MakeStringAccessor(&RoceTransportPlugin::m_presets),
                          MakeStringChecker())
            .AddAttribute("PresetsText",
                          "The presets in one phrase, for messages (read-only).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          StringValue("roce-dcqcn, roce-pfc"),
                          MakeStringAccessor(&RoceTransportPlugin::m_presetsText),
                          MakeStringChecker())
            .AddAttribute(
                "CongestionControl",
                "Congestion control ConfigureFabric gives the RoceNics: dcqcn, none (line "
                "rate, PFC only), dctcp (with ECN echo on ACKs), timely, swift (with hop "
                "counts on ACKs) or hpcc (with in-band telemetry, RoceNic Int).",
                StringValue("dcqcn"),
                MakeStringAccessor(&RoceTransportPlugin::m_cc),
                MakeFabricChecker<StringValue>(
                    MakeStringChecker(),
                    "ns3::RoceTransportPlugin::CongestionControl",
                    [](const std::string& v) {
                        return std::find(CC_NAMES.begin(), CC_NAMES.end(), v) != CC_NAMES.end();
                    },
                    "dcqcn, none, dctcp, timely, swift, hpcc",
                    [](const std::string& v) { return v; }))
            .AddAttribute(
                "QpNumbering",
                "How a flow workload's QP pairs are numbered (CreateMessageService): "
                "sequential (each NIC numbers its QPs in creation order, the default) or "
                "per-peer (the k-th connection between two ranks has numbers both ends know, "
                "the responder's QP is created on its first packet and takes a fresh "
                "notification point at each new message: the numbering that runs across MPI "
                "processes, and that a sequential run compared with one must use).",
                StringValue("sequential"),
                MakeStringAccessor(&RoceTransportPlugin::m_qpNumbering),
                MakeFabricChecker<StringValue>(
                    MakeStringChecker(),
                    "ns3::RoceTransportPlugin::QpNumbering",
                    [](const std::string& v) { return v == "sequential" || v == "per-peer"; },
                    "sequential, per-peer",
                    [](const std::string& v) { return v; }));
    return tid;
}

RoceTransportPlugin::RoceTransportPlugin()
    : m_cc("dcqcn"),
      m_qpNumbering("sequential")
{
}

RoceTransportPlugin::~RoceTransportPlugin() = default;

RoceNicHelper&
RoceTransportPlugin::GetNicHelper()
{
    return m_nicHelper;
}

std::string
RoceTransportPlugin::GetDisplayName() const
{
    return "RoCE";
}

void
RoceTransportPlugin::Install(Ptr<Node> node, Ptr<FabricNic> core)
{
    // The NIC's AddPort finds each port on the core.
    Ptr<RoceNic> nic = m_nicHelper.Install(node, core->GetPort(0), core->GetAddress(0));
    for (uint32_t p = 1; p < core->GetNPorts(); ++p)
    {
        nic->AddPort(core->GetPort(p), core->GetAddress(p));
    }
}

bool
RoceTransportPlugin::IsInstalledOn(Ptr<Node> node) const
{
    return node->GetObject<RoceNic>() != nullptr;
}

uint32_t
RoceTransportPlugin::GetDeviceMtu() const
{
    return m_nicHelper.GetDeviceMtu();
}

void
RoceTransportPlugin::CheckMtu(uint32_t mtu, const std::string& what) const
{
    FABRIC_INPUT_ERROR_IF(mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096,
                          what << "=" << mtu
                               << " is invalid with Transport roce; valid values are the RoCE "
                                  "path MTUs 256, 512, 1024, 2048, 4096");
}

int64_t
RoceTransportPlugin::AssignStreams(int64_t stream)
{
    return m_nicHelper.AssignStreams(stream);
}

uint8_t
RoceTransportPlugin::GetDataPriority() const
{
    return m_nicHelper.GetDataDscp() >> 3;
}

std::vector<std::string>
RoceTransportPlugin::GetCongestionControlNames() const
{
    return CC_NAMES;
}

void
RoceTransportPlugin::CheckCongestionControlName(const std::string& value, const std::string& what)
{
    CheckName(value, what, CC_NAMES);
}

void
RoceTransportPlugin::AddCounters(Ptr<Node> host, FabricTransportCounters& c) const
{
    Ptr<RoceNic> nic = host->GetObject<RoceNic>();
    if (!nic)
    {
        return;
    }
    const RoceQpCounters q = nic->GetTotalQpCounters();
    c.retransmissions += q.retransmittedPackets;
    c.timeouts += q.timeouts;
    c.nacks += q.naksRx;
    c.outOfOrder += q.outOfOrderRx;
    c.cnpsTx += q.cnpsTx;
    c.cnpsRx += q.cnpsRx;
    c.ceRx += q.ceRx;
}

void
RoceTransportPlugin::AddFlowCounters(Ptr<Node> host, std::vector<FabricFlowCounters>& flows) const
{
    Ptr<RoceNic> nic = host->GetObject<RoceNic>();
    if (!nic)
    {
        return;
    }
    for (uint32_t i = 0; i < nic->GetNQps(); ++i)
    {
        Ptr<RoceQueuePair> qp = nic->GetQpAt(i);
        if (!qp)
        {
            continue; // reserved: a QP simulated by another MPI process
        }
        const RoceQpCounters& q = qp->GetCounters();
        FabricFlowCounters f;
        f.id = qp->GetQpn();
        f.port = qp->GetPortIndex();
        f.priority = qp->GetPriority();
        f.counters.retransmissions = q.retransmittedPackets;
        f.counters.timeouts = q.timeouts;
        f.counters.nacks = q.naksRx;
        f.counters.outOfOrder = q.outOfOrderRx;
        f.counters.cnpsTx = q.cnpsTx;
        f.counters.cnpsRx = q.cnpsRx;
        f.counters.ceRx = q.ceRx;
        flows.push_back(f);
    }
}

void
RoceTransportPlugin::ConfigureFabric(FabricTransportTarget&)
{
    m_nicHelper.SetCongestionControl(m_cc);
}

void
RoceTransportPlugin::Describe(std::ostream& os) const
{
    const std::map<std::string, std::string> names = {{"dcqcn", "DCQCN"},
                                                      {"none", "no congestion control"},
                                                      {"dctcp", "DCTCP"},
                                                      {"timely", "TIMELY"},
                                                      {"swift", "Swift"},
                                                      {"hpcc", "HPCC"}};
    os << "RoCEv2 RC, " << names.at(m_cc) << ", lossless priority " << unsigned(GetDataPriority())
       << " with PFC";
}

Ptr<FabricMessageService>
RoceTransportPlugin::CreateMessageService(const FabricMessageServiceSetup& setup)
{
    return CreateObject<RoceMessageService>(setup, &m_nicHelper, m_qpNumbering == "per-peer");
}

} // namespace ns3
