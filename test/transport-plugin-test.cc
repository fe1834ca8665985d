/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The transport plug-in interface (FabricTransportPlugin): a third transport, defined here and
 * nowhere in the module, plugs into the topology helpers, the flow-workload runner and the
 * collective helper without any of them knowing it. Its messages complete at the analytical
 * unloaded FCT, bytes are conserved, and an AllReduce completes over it; the registry finds
 * it by name next to "roce" and "uet".
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <deque>
#include <map>
#include <memory>

using namespace ns3;

namespace
{

/**
 * A datagram transport on the NIC core (UDP 4800): a message is cut into packets of at most
 * Mtu payload bytes (IPv4, UDP and a 16-byte header: type, message id, message length), sent
 * on priority 3 (lossless: the switches' PFC class), and acknowledged by one 16-byte ACK when
 * its last byte arrives. No loss recovery: it runs on lossless fabrics only.
 */
class TestDatagramNic : public Object, public FabricNicTransport
{
  public:
    static constexpr uint16_t UDP_PORT = 4800;
    static constexpr uint32_t HEADER = 16;        //!< the transport's header, bytes
    static constexpr uint32_t IP_UDP = 28;        //!< IPv4 + UDP, bytes
    static constexpr uint8_t PRIORITY = 3;        //!< data and ACK priority
    static constexpr uint8_t TOS = (24 << 2) | 2; //!< DSCP 24 (priority 3), ECT(0)

    /// Called at the receiver when a whole message arrived: (source address, message id,
    /// its bytes).
    typedef Callback<void, Ipv4Address, uint32_t, uint64_t> DeliveredCallback;

    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::TestDatagramNic").SetParent<Object>().SetGroupName("AiFabric");
        return tid;
    }

    void Attach(Ptr<FabricNic> core, uint32_t mtu)
    {
        m_core = core;
        m_mtu = mtu;
        core->RegisterTransport(UDP_PORT, this);
    }

    Ptr<FabricNic> GetCore() const
    {
        return m_core;
    }

    void SetDeliveredCallback(DeliveredCallback cb)
    {
        m_delivered = cb;
    }

    /// Send \p bytes from port \p port to \p dst; \p acked is called when the ACK arrives.
    /// \return the message id
    uint32_t Send(uint32_t port, Ipv4Address dst, uint64_t bytes, Callback<void> acked)
    {
        const uint32_t id = m_nextId++;
        auto& flow = m_flows[(uint64_t(port) << 32) | dst.Get()];
        if (!flow)
        {
            flow = std::make_unique<Flow>(this, port, m_core->GetAddress(port), dst);
        }
        flow->queue.push_back({id, bytes, 0});
        m_acked[id] = acked;
        ++m_pending;
        m_core->Activate(flow.get());
        return id;
    }

    uint64_t receivedBytes{0}; //!< payload bytes delivered to this NIC

    uint32_t GetMaxRxHeaderBytes() const override
    {
        return IP_UDP + HEADER;
    }

    uint32_t GetRxHeaderBytes(const uint8_t*, uint32_t) const override
    {
        return IP_UDP + HEADER;
    }

    bool Deliver(uint32_t port,
                 const uint8_t* ip,
                 uint32_t got,
                 uint32_t size,
                 FabricNicDropReason& reason) override
    {
        const uint8_t* h = ip + IP_UDP;
        const uint32_t id = wire::GetU32(h + 4);
        const Ipv4Address src(wire::GetU32(ip + 12));
        if (h[0] == 2) // ACK
        {
            auto it = m_acked.find(id);
            if (it == m_acked.end())
            {
                reason = FabricNicDropReason::UNKNOWN_FLOW;
                return false;
            }
            Callback<void> cb = it->second;
            m_acked.erase(it);
            --m_pending;
            cb();
            return true;
        }
        const uint64_t total = (uint64_t(wire::GetU32(h + 8)) << 32) | wire::GetU32(h + 12);
        const uint64_t payload = size - IP_UDP - HEADER;
        receivedBytes += payload;
        uint64_t& have = m_received[{src.Get(), id}];
        have += payload;
        if (have >= total)
        {
            m_received.erase({src.Get(), id});
            SendAck(port, src, id);
            if (!m_delivered.IsNull())
            {
                m_delivered(src, id, total);
            }
        }
        return true;
    }

    uint64_t GetPendingOperations() const override
    {
        return m_pending;
    }

  protected:
    void DoDispose() override
    {
        // The core is aggregated to the same node: release it, or the aggregate keeps itself.
        if (m_core)
        {
            m_core->UnregisterTransport(UDP_PORT);
        }
        m_core = nullptr;
        m_flows.clear();
        m_acked.clear();
        m_delivered = DeliveredCallback();
        Object::DoDispose();
    }

  private:
    /// A message waiting to be sent.
    struct Message
    {
        uint32_t id;    //!< message id
        uint64_t total; //!< bytes
        uint64_t sent;  //!< bytes sent
    };

    /// The messages from one port to one destination, in order.
    struct Flow : public FabricNicFlow
    {
        Flow(TestDatagramNic* nic, uint32_t port, Ipv4Address from, Ipv4Address to)
            : nic(nic),
              from(from),
              to(to)
        {
            SetNicQueue(port, PRIORITY);
        }

        bool HasPacketToSend() const override
        {
            return !queue.empty();
        }

        Time GetNextSendTime() const override
        {
            return Time(0);
        }

        FabricFrame BuildNextPacket(const Time&) override
        {
            Message& m = queue.front();
            const uint32_t payload =
                static_cast<uint32_t>(std::min<uint64_t>(nic->m_mtu, m.total - m.sent));
            m.sent += payload;
            uint8_t h[HEADER] = {1};
            wire::PutU32(h + 4, m.id);
            wire::PutU32(h + 8, static_cast<uint32_t>(m.total >> 32));
            wire::PutU32(h + 12, static_cast<uint32_t>(m.total));
            if (m.sent >= m.total)
            {
                queue.pop_front();
            }
            return nic->Frame(GetNicPort(), from, to, h, payload);
        }

        TestDatagramNic* nic;      //!< owner
        Ipv4Address from;          //!< source address
        Ipv4Address to;            //!< destination address
        std::deque<Message> queue; //!< messages not fully sent
    };

    /// \return a frame from \p from to \p to on \p port with header \p h and \p payload bytes
    FabricFrame Frame(uint32_t port,
                      Ipv4Address from,
                      Ipv4Address to,
                      const uint8_t* h,
                      uint32_t payload) const
    {
        uint8_t buf[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES + IP_UDP + HEADER] =
            {};
        uint8_t* ip = buf + PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES;
        const uint32_t total = IP_UDP + HEADER + payload;
        ip[0] = 0x45;
        ip[1] = TOS;
        wire::PutU16(ip + 2, static_cast<uint16_t>(total));
        ip[8] = 64;
        ip[9] = 17;
        wire::PutU32(ip + 12, from.Get());
        wire::PutU32(ip + 16, to.Get());
        wire::PutU16(ip + 10, wire::Ipv4HeaderChecksum(ip, 20));
        wire::PutU16(ip + 20, 49152);
        wire::PutU16(ip + 22, UDP_PORT);
        wire::PutU16(ip + 24, static_cast<uint16_t>(8 + HEADER + payload));
        std::memcpy(ip + IP_UDP, h, HEADER);
        uint8_t l2[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES];
        const uint32_t l2Bytes = m_core->WriteFrameHeader(port, PRIORITY, l2);
        std::memcpy(ip - l2Bytes, l2, l2Bytes);
        const uint32_t frame = l2Bytes + total + PfcNetDevice::FCS_BYTES;
        const uint32_t pad =
            frame < PfcNetDevice::MIN_FRAME_BYTES ? PfcNetDevice::MIN_FRAME_BYTES - frame : 0;
        return FabricFrame(ip - l2Bytes,
                           l2Bytes + IP_UDP + HEADER,
                           payload + pad + PfcNetDevice::FCS_BYTES);
    }

    void SendAck(uint32_t port, Ipv4Address to, uint32_t id)
    {
        uint8_t h[HEADER] = {2};
        wire::PutU32(h + 4, id);
        FabricFrame f = Frame(port, m_core->GetAddress(port), to, h, 0);
        m_core->SendControl(port, f, PRIORITY);
    }

    Ptr<FabricNic> m_core;
    uint32_t m_mtu{4096};
    uint32_t m_nextId{0};
    uint64_t m_pending{0};
    DeliveredCallback m_delivered;
    std::map<uint64_t, std::unique_ptr<Flow>> m_flows;            //!< by (port, destination)
    std::map<uint32_t, Callback<void>> m_acked;                   //!< by message id
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_received; //!< by (source, id)
};

/// The test transport's collectives: each message one datagram message on port 0.
class TestCollectiveTransport : public CollectiveTransport
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestCollectiveTransport")
                                .SetParent<CollectiveTransport>()
                                .SetGroupName("AiFabric")
                                .AddConstructor<TestCollectiveTransport>();
        return tid;
    }

    uint32_t GetNRanks() const override
    {
        return static_cast<uint32_t>(m_nics.size());
    }

    void SetRankNodes(const std::vector<Ptr<Node>>& nodes) override
    {
        for (uint32_t r = 0; r < nodes.size(); ++r)
        {
            Ptr<TestDatagramNic> nic = nodes[r]->GetObject<TestDatagramNic>();
            NS_ABORT_MSG_IF(!nic, "rank " << r << " has no TestDatagramNic");
            m_nics.push_back(nic);
            m_rankOf[nic->GetCore()->GetAddress(0).Get()] = r;
            nic->SetDeliveredCallback(MakeCallback(&TestCollectiveTransport::Delivered, this));
        }
    }

    void Send(uint32_t src,
              uint32_t dst,
              uint32_t,
              uint64_t bytes,
              CollectiveMessageListener* listener,
              uint64_t cookie) override
    {
        const uint32_t id = m_nics[src]->Send(
            0,
            m_nics[dst]->GetCore()->GetAddress(0),
            bytes,
            MakeCallback(&TestCollectiveTransport::Acked, this).Bind(listener, cookie));
        m_inFlight[{src, id}] = {listener, cookie};
        sentBytes += bytes;
    }

    uint64_t sentBytes{0};      //!< bytes of every message sent
    uint64_t deliveredBytes{0}; //!< bytes of every message delivered

  protected:
    void DoDispose() override
    {
        m_nics.clear();
        m_inFlight.clear();
        CollectiveTransport::DoDispose();
    }

  private:
    void Delivered(Ipv4Address from, uint32_t id, uint64_t bytes)
    {
        auto it = m_inFlight.find({m_rankOf.at(from.Get()), id});
        NS_ABORT_MSG_IF(it == m_inFlight.end(), "unknown message " << id);
        deliveredBytes += bytes;
        if (it->second.first)
        {
            it->second.first->MessageDelivered(it->second.second, bytes);
        }
        m_inFlight.erase(it);
    }

    void Acked(CollectiveMessageListener* listener, uint64_t cookie)
    {
        if (listener)
        {
            listener->MessageSent(cookie);
        }
    }

    std::vector<Ptr<TestDatagramNic>> m_nics;
    std::map<uint32_t, uint32_t> m_rankOf; //!< port-0 address -> rank
    std::map<std::pair<uint32_t, uint32_t>, std::pair<CollectiveMessageListener*, uint64_t>>
        m_inFlight; //!< by (source rank, message id)
};

/// Flow-workload messages over the test transport.
class TestMessageService : public FabricMessageService
{
  public:
    TestMessageService(const FabricMessageServiceSetup& setup, uint32_t mtu)
        : m_setup(setup),
          m_mtu(mtu)
    {
        for (uint32_t r = 0; r < setup.nodes.size(); ++r)
        {
            Ptr<TestDatagramNic> nic = setup.nodes[r]->GetObject<TestDatagramNic>();
            NS_ABORT_MSG_IF(!nic, "transport test, but rank " << r << " has no TestDatagramNic");
            m_nics.push_back(nic);
        }
    }

    void Post(uint32_t src, uint32_t dst, uint64_t bytes, Time, DoneCallback done) override
    {
        const auto ports = GetPorts(src, dst);
        m_nics[src]->Send(ports.first,
                          m_nics[dst]->GetCore()->GetAddress(ports.second),
                          bytes,
                          MakeBoundCallback(&TestMessageService::Acked, done, Simulator::Now()));
    }

    FabricPacketFormat GetPacketFormat(uint32_t src, uint32_t dst) const override
    {
        uint8_t l2[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES];
        const uint32_t l2Bytes = m_nics[src]->GetCore()->WriteFrameHeader(GetPorts(src, dst).first,
                                                                          TestDatagramNic::PRIORITY,
                                                                          l2);
        const uint32_t framing =
            PfcNetDevice::FCS_BYTES + PfcNetDevice::PREAMBLE_BYTES + PfcNetDevice::IFG_BYTES;
        FabricPacketFormat f;
        f.mtu = m_mtu;
        f.perPacket = l2Bytes + TestDatagramNic::IP_UDP + TestDatagramNic::HEADER + framing;
        f.ack = PfcNetDevice::WireBytes(l2Bytes + TestDatagramNic::IP_UDP +
                                        TestDatagramNic::HEADER + PfcNetDevice::FCS_BYTES);
        return f;
    }

    std::pair<uint32_t, uint32_t> GetPorts(uint32_t src, uint32_t dst) const override
    {
        return m_setup.ports.IsNull() ? std::make_pair(0u, 0u) : m_setup.ports(src, dst, 0);
    }

    std::string GetCongestionControlName() const override
    {
        return "none";
    }

  private:
    static void Acked(DoneCallback done, Time posted)
    {
        FabricMessageResult r;
        r.ok = true;
        r.postTime = posted;
        r.endTime = Simulator::Now();
        done(r);
    }

    FabricMessageServiceSetup m_setup;
    uint32_t m_mtu;
    std::vector<Ptr<TestDatagramNic>> m_nics;
};

/// The plug-in: "test", display name "Test".
class TestTransportPlugin : public FabricTransportPlugin
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::TestTransportPlugin")
                .SetParent<FabricTransportPlugin>()
                .SetGroupName("AiFabric")
                .AddConstructor<TestTransportPlugin>()
                .AddAttribute("Name",
                              "Short name.",
                              TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                              StringValue("test"),
                              MakeStringAccessor(&TestTransportPlugin::m_name),
                              MakeStringChecker())
                .AddAttribute("CollectiveTransport",
                              "Collective transport.",
                              TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                              TypeIdValue(TestCollectiveTransport::GetTypeId()),
                              MakeTypeIdAccessor(&TestTransportPlugin::m_collectiveTransport),
                              MakeTypeIdChecker())
                .AddAttribute("Presets",
                              "Named configurations.",
                              TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                              StringValue("jumbo=Mtu:8000;small=Mtu:500"),
                              MakeStringAccessor(&TestTransportPlugin::m_presets),
                              MakeStringChecker())
                .AddAttribute("PresetsText",
                              "Presets in one phrase.",
                              TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                              StringValue("test-jumbo, test-small"),
                              MakeStringAccessor(&TestTransportPlugin::m_presetsText),
                              MakeStringChecker())
                .AddAttribute("Mtu",
                              "Payload bytes per packet.",
                              UintegerValue(2048),
                              MakeUintegerAccessor(&TestTransportPlugin::m_mtu),
                              MakeUintegerChecker<uint32_t>(1, 9000));
        return tid;
    }

    std::string GetDisplayName() const override
    {
        return "Test";
    }

    void Install(Ptr<Node> node, Ptr<FabricNic> core) override
    {
        auto nic = CreateObject<TestDatagramNic>();
        nic->Attach(core, m_mtu);
        node->AggregateObject(nic);
        installed.push_back(nic);
    }

    bool IsInstalledOn(Ptr<Node> node) const override
    {
        return node->GetObject<TestDatagramNic>() != nullptr;
    }

    uint32_t GetDeviceMtu() const override
    {
        return TestDatagramNic::IP_UDP + TestDatagramNic::HEADER + m_mtu;
    }

    void CheckSwitch(Ptr<Node> host,
                     Ptr<const FabricSwitch> sw,
                     const std::string& name) const override
    {
        checkedSwitches.push_back(name);
    }

    void CheckMtu(uint32_t mtu, const std::string& what) const override
    {
        FABRIC_INPUT_ERROR_IF(mtu < 1 || mtu > 9000, what << "=" << mtu << " is invalid");
    }

    uint8_t GetDataPriority() const override
    {
        return TestDatagramNic::PRIORITY;
    }

    std::vector<std::string> GetCongestionControlNames() const override
    {
        return {"none"};
    }

    void AddCounters(Ptr<Node> host, FabricTransportCounters& c) const override
    {
        if (Ptr<TestDatagramNic> nic = host->GetObject<TestDatagramNic>())
        {
            c.bytesDelivered += nic->receivedBytes;
        }
    }

    void ConfigureFabric(FabricTransportTarget& fabric) override
    {
        configuredBeforeInstall = !fabric.IsInstalled();
    }

    void FinishFabric(FabricTransportTarget& fabric) override
    {
        finishedSwitches = fabric.GetScaleOutSwitches().size();
    }

    Ptr<FabricMessageService> CreateMessageService(const FabricMessageServiceSetup& setup) override
    {
        return CreateObject<TestMessageService>(setup, m_mtu);
    }

    bool configuredBeforeInstall{false}; //!< ConfigureFabric ran before Install
    size_t finishedSwitches{0};          //!< switches FinishFabric saw

    std::vector<Ptr<TestDatagramNic>> installed;      //!< NICs installed
    mutable std::vector<std::string> checkedSwitches; //!< CheckSwitch names

  private:
    uint32_t m_mtu{2048};
};

NS_OBJECT_ENSURE_REGISTERED(TestDatagramNic);
NS_OBJECT_ENSURE_REGISTERED(TestCollectiveTransport);
NS_OBJECT_ENSURE_REGISTERED(TestTransportPlugin);

using test::VectorSource;

/// A Clos of \p racks racks of 8 single-GPU hosts (25 Gb/s NICs, 2 spines) with \p transports.
Ptr<ClosTopologyHelper>
Clos(uint32_t racks, const std::string& transports)
{
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(8 * racks));
    t->SetAttribute("GpusPerServer", UintegerValue(1));
    t->SetAttribute("NvLink", BooleanValue(false));
    t->SetAttribute("ServersPerRack", UintegerValue(8));
    t->SetAttribute("Spines", UintegerValue(2));
    t->SetAttribute("GpuLinkDataRate", DataRateValue(DataRate("25Gbps")));
    t->SetAttribute("LeafSpineDataRate", DataRateValue(DataRate("100Gbps")));
    t->SetAttribute("PortMtuFromTransport", BooleanValue(true));
    t->SetAttribute("Transports", StringValue(transports));
    return t;
}

class TransportPluginTest : public test::SimTest
{
};

TEST_F(TransportPluginTest, RegistryFindsEveryPluginByName)
{
    const auto names = FabricTransportPlugin::GetNames();
    EXPECT_EQ(names, (std::vector<std::string>{"roce", "test", "uet"}));
    EXPECT_EQ(FabricTransportPlugin::Create("test", "x")->GetInstanceTypeId(),
              TestTransportPlugin::GetTypeId());
    EXPECT_EQ(FabricTransportPlugin::Create("uet", "x")->GetDisplayName(), "UET");
    EXPECT_EQ(FabricTransportPlugin::GetCollectiveTransportTypeIdOf("roce"),
              RoceCollectiveTransport::GetTypeId());
    EXPECT_EQ(FabricTransportPlugin::SplitList("roce+test", "x"),
              (std::vector<std::string>{"roce", "test"}));
    EXPECT_TRUE(FabricTransportPlugin::IsValidList("test+uet"));
    EXPECT_FALSE(FabricTransportPlugin::IsValidList("roce+roce"));
    EXPECT_FALSE(FabricTransportPlugin::IsValidList("roce+"));
    EXPECT_FALSE(FabricTransportPlugin::IsValidList("tcp"));
    EXPECT_DEATH(FabricTransportPlugin::Create("tcp", "--transport"),
                 "--transport=tcp is invalid; valid transports are roce, test, uet");
    EXPECT_DEATH(FabricTransportPlugin::SplitList("uet+uet", "Transports"),
                 "Transports=\"uet\\+uet\" is invalid; valid values are transports joined by "
                 "'\\+', each once, from: roce, test, uet");
    // The topology's checker refuses what the registry does not know.
    auto t = Clos(1, "test");
    EXPECT_DEATH(t->SetAttribute("Transports", StringValue("test+tcp")), "Transports");
}

TEST_F(TransportPluginTest, TopologyInstallsItOnEveryNicCoreAndSizesThePorts)
{
    auto t = Clos(2, "test");
    auto plugin = DynamicCast<TestTransportPlugin>(t->GetTransport("test"));
    ASSERT_TRUE(plugin);
    plugin->SetAttribute("Mtu", UintegerValue(3000));
    t->Install();
    ASSERT_EQ(plugin->installed.size(), t->GetNRanks());
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        Ptr<TestDatagramNic> nic = t->GetRank(r)->GetObject<TestDatagramNic>();
        ASSERT_TRUE(nic);
        EXPECT_EQ(nic->GetCore(), t->GetNicCore(r));
        EXPECT_FALSE(t->GetRank(r)->GetObject<RoceNic>());
    }
    // PortMtuFromTransport: the plug-in's largest IPv4 packet, 28 + 16 + 3000.
    EXPECT_EQ(t->GetPortMtu(), 3044u);
    EXPECT_EQ(t->GetRank(0)->GetDevice(0)->GetMtu(), 3044u);
    // Every scale-out switch was shown to the plug-in (2 leaves, 2 spines).
    EXPECT_EQ(plugin->checkedSwitches.size(), 4u);
    EXPECT_EQ(t->GetTransports().size(), 1u);
    EXPECT_DEATH(t->GetNic(0), "rank 0 has no RoceNic");
}

TEST_F(TransportPluginTest, TransportConfigSetsTheFabricUpThroughThePlugin)
{
    auto t = Clos(1, "roce");
    auto tc = CreateObject<FabricTransportConfig>();
    tc->SetAttribute("Transport", StringValue("test"));
    tc->SetTransportAttribute("Mtu", UintegerValue(1000));
    tc->Configure(t);
    t->Install();
    tc->Finish(t);
    auto plugin = DynamicCast<TestTransportPlugin>(tc->GetPlugin());
    ASSERT_TRUE(plugin);
    EXPECT_EQ(plugin, t->GetTransport("test"));
    EXPECT_TRUE(plugin->configuredBeforeInstall);
    EXPECT_EQ(plugin->finishedSwitches, 3u); // one leaf, two spines
    EXPECT_EQ(t->GetPortMtu(), 28u + 16 + 1000);
    std::ostringstream os;
    tc->Describe(os);
    EXPECT_EQ(os.str(), "Test");
    EXPECT_DEATH(
        {
            auto c = CreateObject<FabricTransportConfig>();
            c->SetAttribute("Transport", StringValue("test"));
            c->SetTransportAttribute("EvStrategy", StringValue("reps"));
            c->Configure(Clos(1, "roce"));
        },
        "the transport test \\(ns3::TestTransportPlugin\\) has no attribute EvStrategy");
    EXPECT_DEATH(plugin->CheckCongestionControl("dcqcn", "--cc"),
                 "--cc=dcqcn is invalid; valid values are none");
}

TEST_F(TransportPluginTest, ItsPresetsAreComparisonConfigurations)
{
    // A configuration name of the comparison ("roce-vs-uet --configs") is any plug-in's
    // preset: the test transport's "test-small" sets its Mtu, with no change to the driver.
    auto tc = TransportComparison::MakeConfig("test-small", "--configs");
    EXPECT_EQ(tc->GetTransport(), "test");
    auto t = Clos(1, "roce");
    tc->Configure(t);
    t->Install();
    EXPECT_EQ(t->GetPortMtu(), 28u + 16 + 500);
    FabricTransportPlugin::Preset p;
    ASSERT_TRUE(FabricTransportPlugin::FindPreset("uet-rccc-bitmap", p));
    EXPECT_EQ(p.transport, "uet");
    EXPECT_EQ(p.attributes,
              (std::vector<std::pair<std::string, std::string>>{{"CongestionControl", "rccc"},
                                                                {"EvStrategy", "bitmap"}}));
    ASSERT_TRUE(FabricTransportPlugin::FindPreset("uet-nscc", p));
    EXPECT_EQ(p.attributes.back(), (std::pair<std::string, std::string>{"EvStrategy", "reps"}));
    EXPECT_FALSE(FabricTransportPlugin::FindPreset("test-huge", p));
    EXPECT_FALSE(FabricTransportPlugin::FindPreset("test", p));
    EXPECT_FALSE(FabricTransportPlugin::FindPreset("tcp-cubic", p));
    // The message lists every plug-in's presets, in name order.
    EXPECT_DEATH(TransportComparison::MakeConfig("test-huge", "--configs"),
                 "--configs: configuration \"test-huge\" is invalid; valid are roce-dcqcn, "
                 "roce-pfc, test-jumbo, test-small and uet-<cc>\\[-<ev>\\] with cc none");
}

TEST_F(TransportPluginTest, FlowRunnerRunsItAtTheAnalyticalFctAndConservesBytes)
{
    auto t = Clos(2, "test");
    t->Install();
    // One flow alone (across the spines: ideal FCT exactly), then an incast of three.
    std::vector<FlowSpec> flows;
    flows.push_back(FlowSpec{1, 0, 9, 1000000, MicroSeconds(1)});
    for (uint32_t s : {1u, 2u, 10u})
    {
        flows.push_back(FlowSpec{uint64_t(s + 1), s, 3, 500000, MilliSeconds(2)});
    }
    std::vector<FlowFctRecord> records;
    FlowWorkloadRunner run(t, CreateObject<VectorSource>(flows));
    run.SetRecordCallback(MakeCallback(+[](std::vector<FlowFctRecord>* v, const FlowFctRecord& r) {
                              v->push_back(r);
                          }).Bind(&records));
    run.Start();
    EXPECT_EQ(run.GetTransport(), "test"); // the topology's first (and only) transport
    Simulator::Run();
    ASSERT_EQ(records.size(), 4u);
    EXPECT_TRUE(run.AllCompleted());
    uint64_t received = 0;
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        received += t->GetRank(r)->GetObject<TestDatagramNic>()->receivedBytes;
    }
    EXPECT_EQ(received, 1000000u + 3 * 500000u);
    // The fabric-wide roll-ups read the plug-in's counters.
    EXPECT_EQ(FabricRunCounters::Collect(t).transports.bytesDelivered, received);
    // Alone on its path the first flow completes at its ideal FCT (the plug-in's packet format).
    const FlowFctRecord& alone = records[0];
    EXPECT_EQ(alone.id, 1u);
    EXPECT_NEAR((alone.end - alone.start).GetSeconds() / alone.ideal.GetSeconds(), 1.0, 1e-3);
    // 1e6 B at 25 Gb/s take at least 320 us on the wire.
    EXPECT_GT(alone.ideal, MicroSeconds(320));
    EXPECT_EQ(alone.transport, "test");
    // Three senders into one 25 Gb/s port: the last finishes after 3 x 500 kB of payload.
    Time last;
    for (size_t i = 1; i < records.size(); ++i)
    {
        last = std::max(last, records[i].end);
    }
    EXPECT_GE(last - MilliSeconds(2), MicroSeconds(480));
}

TEST_F(TransportPluginTest, CollectiveHelperRunsAnAllReduceOverIt)
{
    auto t = Clos(1, "test");
    t->Install();
    CollectiveHelper helper;
    helper.SetTopology(t);
    EXPECT_EQ(helper.GetTransportType(), "ns3::TestCollectiveTransport");
    helper.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
    helper.SetCommunicatorAttribute("Protocol", StringValue("Simple")); // wire bytes = data
    Ptr<CollectiveCommunicator> comm = helper.CreateWorldCommunicator();
    CollectiveRecord record;
    comm->Enqueue(CollectiveOp::ALL_REDUCE,
                  8 << 20,
                  0,
                  MakeCallback(+[](CollectiveRecord* out, const CollectiveRecord& r) {
                      *out = r;
                  }).Bind(&record));
    Simulator::Run();
    ASSERT_TRUE(record.completed) << record.reason;
    const Time end = Simulator::Now();
    Ptr<TestCollectiveTransport> transport =
        DynamicCast<TestCollectiveTransport>(comm->GetTransport());
    ASSERT_TRUE(transport);
    // Every byte sent was delivered; a ring AllReduce of 8 MiB over 8 ranks sends
    // 2 x 7/8 x 8 MiB per rank.
    EXPECT_EQ(transport->deliveredBytes, transport->sentBytes);
    EXPECT_EQ(transport->sentBytes, 8ull * 2 * 7 * (1 << 20));
    // Each rank sends and receives 14 MiB through a 25 Gb/s NIC: at least 4.7 ms.
    EXPECT_GT(end, MicroSeconds(4697));
}

} // namespace
