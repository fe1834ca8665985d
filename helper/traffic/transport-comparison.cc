/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transport-comparison.h"

#include "fabric-flow-runner.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/collective-helper.h"
#include "ns3/collective-layout.h"
#include "ns3/double.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-progress-reporter.h"
#include "ns3/rail-optimized-topology-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/text-fields.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <iomanip>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/// The base scenarios (each also with "-failure").
const std::vector<std::string> SCENARIOS = {"allreduce", "alltoall", "incast", "permutation"};
/// Suffix of a scenario with the failed or degraded link.
const std::string FAILURE = "-failure";

/// \return the comma-separated items of \p list (empty items dropped)
std::vector<std::string>
Split(const std::string& list)
{
    std::vector<std::string> out = text::Split(list, ',');
    out.erase(std::remove(out.begin(), out.end(), std::string()), out.end());
    return out;
}

/// \return true if \p s ends with \p suffix
bool
EndsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// \return true when no NIC of \p topo has an operation pending (any transport)
bool
NothingPending(Ptr<FabricTopologyHelper> topo)
{
    for (uint32_t r = 0; r < topo->GetNRanks(); ++r)
    {
        if (topo->GetNicCore(r)->GetPendingOperations() > 0)
        {
            return false;
        }
    }
    return true;
}

/**
 * Samples the largest egress port queue of the scale-out switches every interval and stops
 * the simulation once a condition holds.
 */
class RunWatcher
{
  public:
    /**
     * \param topo the fabric
     * \param interval sampling interval
     * \param done stop when this returns true (null: never)
     */
    RunWatcher(Ptr<FabricTopologyHelper> topo, Time interval, std::function<bool()> done)
        : m_interval(interval),
          m_done(std::move(done))
    {
        for (uint32_t i = 0; i < topo->GetNLeaves(); ++i)
        {
            m_switches.push_back(topo->GetLeaf(i)->GetObject<FabricSwitch>());
        }
        for (uint32_t i = 0; i < topo->GetNSpines(); ++i)
        {
            m_switches.push_back(topo->GetSpine(i)->GetObject<FabricSwitch>());
        }
        for (uint32_t i = 0; i < topo->GetNCores(); ++i)
        {
            m_switches.push_back(topo->GetCore(i)->GetObject<FabricSwitch>());
        }
        m_event = Simulator::Schedule(m_interval, &RunWatcher::Sample, this);
    }

    ~RunWatcher()
    {
        m_event.Cancel();
    }

    /// \return the largest queue since the last call, and start again
    uint64_t TakeMax()
    {
        uint64_t m = m_max;
        m_max = 0;
        return m;
    }

  private:
    void Sample()
    {
        for (const auto& s : m_switches)
        {
            for (uint32_t p = 0; p < s->GetNPorts(); ++p)
            {
                m_max = std::max(m_max, s->GetMmu()->GetEgressPortBytes(p));
            }
        }
        if (m_done && m_done())
        {
            Simulator::Stop();
            return;
        }
        m_event = Simulator::Schedule(m_interval, &RunWatcher::Sample, this);
    }

    Time m_interval;                           //!< sampling interval
    std::function<bool()> m_done;              //!< stop condition
    std::vector<Ptr<FabricSwitch>> m_switches; //!< scale-out switches
    uint64_t m_max{0};                         //!< largest queue sampled
    EventId m_event;                           //!< next sample
};

/// Runs collectives of several sizes one after the other (one warm-up at the first size).
class CollectiveSweep
{
  public:
    CollectiveSweep(CollectiveOp op,
                    Ptr<FabricTopologyHelper> topo,
                    Ptr<CollectiveCommunicator> comm,
                    RunWatcher& watcher,
                    std::vector<uint64_t> sizes,
                    TransportComparisonRow proto)
        : m_op(op),
          m_topo(topo),
          m_comm(comm),
          m_watcher(watcher),
          m_sizes(std::move(sizes)),
          m_proto(std::move(proto))
    {
    }

    void Start()
    {
        m_comm->Enqueue(m_op, m_sizes[0], 0, MakeCallback(&CollectiveSweep::WarmedUp, this));
    }

    const std::vector<TransportComparisonRow>& GetRows() const
    {
        return m_rows;
    }

    bool IsDone() const
    {
        return m_done;
    }

  private:
    void WarmedUp(const CollectiveRecord& rec)
    {
        if (!rec.completed)
        {
            Fail(m_sizes[0], rec);
            return;
        }
        Next();
    }

    void Next()
    {
        if (m_rows.size() == m_sizes.size())
        {
            m_done = true; // the RunWatcher stops once the NICs have nothing pending
            return;
        }
        m_before = FabricRunCounters::Collect(m_topo);
        m_watcher.TakeMax();
        m_comm->Enqueue(m_op,
                        m_sizes[m_rows.size()],
                        0,
                        MakeCallback(&CollectiveSweep::Measured, this));
    }

    void Measured(const CollectiveRecord& rec)
    {
        if (!rec.completed)
        {
            Fail(m_sizes[m_rows.size()], rec);
            return;
        }
        TransportComparisonRow row = m_proto;
        row.bytes = rec.bytes;
        row.busbwGBps = rec.busBw;
        row.counters = FabricRunCounters::Collect(m_topo).Since(m_before);
        row.maxQueueBytes = m_watcher.TakeMax();
        row.ok = true;
        m_rows.push_back(row);
        Next();
    }

    void Fail(uint64_t bytes, const CollectiveRecord& rec)
    {
        TransportComparisonRow row = m_proto;
        row.bytes = bytes;
        row.problem = "collective failed: " + rec.reason;
        m_rows.push_back(row);
        m_done = true;
        Simulator::Stop();
    }

    CollectiveOp m_op;
    Ptr<FabricTopologyHelper> m_topo;
    Ptr<CollectiveCommunicator> m_comm;
    RunWatcher& m_watcher;
    std::vector<uint64_t> m_sizes;
    TransportComparisonRow m_proto;
    std::vector<TransportComparisonRow> m_rows;
    FabricRunCounters m_before;
    bool m_done{false};
};

} // namespace

NS_OBJECT_ENSURE_REGISTERED(TransportComparison);

uint64_t
TransportComparisonRow::GetDataClassPauses() const
{
    return counters.pfcPauses[dataPriority & 7];
}

// ---- TransportComparison ----------------------------------------------------------------------

TypeId
TransportComparison::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TransportComparison")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<TransportComparison>()
            .AddAttribute("TopologyType",
                          "TypeId of the fabric (a FabricTopologyHelper).",
                          TypeIdValue(RailOptimizedTopologyHelper::GetTypeId()),
                          MakeTypeIdAccessor(&TransportComparison::m_topoType),
                          MakeTypeIdChecker())
            .AddAttribute("Configurations",
                          "Comma-separated configurations, the transport plug-ins' presets: "
                          "roce-dcqcn, roce-pfc, "
                          "uet-<none|nscc|rccc|both>[-<single|oblivious|bitmap|reps|mixed>].",
                          StringValue("roce-dcqcn,roce-pfc,uet-nscc,uet-rccc"),
                          MakeStringAccessor(&TransportComparison::m_configs),
                          MakeStringChecker())
            .AddAttribute(
                "Scenarios",
                "Comma-separated scenarios: allreduce, alltoall, incast, permutation, each "
                "optionally with -failure.",
                StringValue("allreduce,incast,permutation,allreduce-failure,"
                            "permutation-failure"),
                MakeStringAccessor(&TransportComparison::m_scenarios),
                MakeStringChecker())
            .AddAttribute("LoadBalancers",
                          "Comma-separated switch load balancers, SwitchHelper short names "
                          "(ecmp, resilient, flowlet, adaptive, conga, te, ...); every scenario "
                          "and configuration runs under each. Empty: the configuration's own.",
                          StringValue(""),
                          MakeStringAccessor(&TransportComparison::m_lbs),
                          MakeStringChecker())
            .AddAttribute("MinBytes",
                          "Smallest collective size, bytes (>= 1).",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&TransportComparison::m_minBytes),
                          MakeFabricUintegerChecker<uint64_t>("ns3::TransportComparison::MinBytes",
                                                              1,
                                                              1ull << 40))
            .AddAttribute("MaxBytes",
                          "Largest collective size, bytes (>= MinBytes).",
                          UintegerValue(16 << 20),
                          MakeUintegerAccessor(&TransportComparison::m_maxBytes),
                          MakeFabricUintegerChecker<uint64_t>("ns3::TransportComparison::MaxBytes",
                                                              1,
                                                              1ull << 40))
            .AddAttribute(
                "Factor",
                "Collective size multiplier between steps (>= 2).",
                UintegerValue(4),
                MakeUintegerAccessor(&TransportComparison::m_factor),
                MakeFabricUintegerChecker<uint32_t>("ns3::TransportComparison::Factor", 2, 1024))
            .AddAttribute(
                "Channels",
                "Channels of the collectives (0 = GPUs per server: one ring per rail).",
                UintegerValue(0),
                MakeUintegerAccessor(&TransportComparison::m_channels),
                MakeFabricUintegerChecker<uint32_t>("ns3::TransportComparison::Channels", 0, 32))
            .AddAttribute("IncastSenders",
                          "Senders of the incast, ranks of other servers than rank 0's (0 = "
                          "all of them).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TransportComparison::m_incastSenders),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FlowBytes",
                          "Bytes of each incast and permutation flow (1..4294967295).",
                          UintegerValue(2000000),
                          MakeUintegerAccessor(&TransportComparison::m_flowBytes),
                          MakeFabricUintegerChecker<uint64_t>("ns3::TransportComparison::FlowBytes",
                                                              1,
                                                              0xFFFFFFFFull))
            .AddAttribute("Failure",
                          "What the -failure scenarios do to the leaf 0 - spine 0 cable: "
                          "degrade (DegradeFactor x its rate, routes kept) or down (cut, "
                          "routes recomputed).",
                          StringValue("degrade"),
                          MakeStringAccessor(&TransportComparison::m_failure),
                          MakeFabricChecker<StringValue>(
                              MakeStringChecker(),
                              "ns3::TransportComparison::Failure",
                              [](const std::string& s) { return s == "degrade" || s == "down"; },
                              "degrade, down",
                              [](const std::string& s) { return s; }))
            .AddAttribute("DegradeFactor",
                          "Rate of the degraded cable as a fraction of its rate, (0, 1).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&TransportComparison::m_degradeFactor),
                          MakeFabricChecker<DoubleValue>(
                              MakeDoubleChecker<double>(),
                              "ns3::TransportComparison::DegradeFactor",
                              [](const double& v) { return v > 0 && v < 1; },
                              "(0, 1)",
                              [](const double& v) {
                                  std::ostringstream os;
                                  os << v;
                                  return os.str();
                              }))
            .AddAttribute("SampleInterval",
                          "Interval of the queue samples and of the end-of-traffic check.",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&TransportComparison::m_sample),
                          MakeFabricTimeChecker("ns3::TransportComparison::SampleInterval",
                                                NanoSeconds(10),
                                                Seconds(1)));
    return tid;
}

TransportComparison::TransportComparison()
    : m_topoType(RailOptimizedTopologyHelper::GetTypeId()),
      m_minBytes(1 << 20),
      m_maxBytes(16 << 20),
      m_factor(4),
      m_channels(0),
      m_incastSenders(0),
      m_flowBytes(2000000),
      m_failure("degrade"),
      m_degradeFactor(0.25),
      m_sample(MicroSeconds(5))
{
}

TransportComparison::~TransportComparison() = default;

void
TransportComparison::SetTopologyAttribute(const std::string& name, const AttributeValue& value)
{
    m_topoAttributes.emplace_back(name, value.Copy());
}

std::vector<std::string>
TransportComparison::GetConfigurations() const
{
    return Split(m_configs);
}

std::vector<std::string>
TransportComparison::GetScenarios() const
{
    return Split(m_scenarios);
}

std::vector<std::string>
TransportComparison::GetLoadBalancers() const
{
    return Split(m_lbs);
}

Ptr<FabricTransportConfig>
TransportComparison::MakeConfig(const std::string& name, const std::string& what)
{
    return FabricTransportConfig::FromPreset(name, what + ": configuration");
}

void
TransportComparison::CheckScenario(const std::string& name, const std::string& what)
{
    const std::string base = EndsWith(name, FAILURE) ? name.substr(0, name.size() - 8) : name;
    FABRIC_INPUT_ERROR_IF(
        std::find(SCENARIOS.begin(), SCENARIOS.end(), base) == SCENARIOS.end(),
        what << ": scenario \"" << name
             << "\" is invalid; valid are allreduce, alltoall, incast, permutation, each "
                "optionally with -failure (e.g. permutation-failure)");
}

Ptr<FabricTopologyHelper>
TransportComparison::MakeTopology() const
{
    FABRIC_INPUT_ERROR_IF(!m_topoType.IsChildOf(FabricTopologyHelper::GetTypeId()) ||
                              !m_topoType.HasConstructor(),
                          "ns3::TransportComparison::TopologyType="
                              << m_topoType.GetName()
                              << " is invalid; it must name a FabricTopologyHelper (e.g. "
                                 "ns3::RailOptimizedTopologyHelper, ns3::ClosTopologyHelper)");
    ObjectFactory factory(m_topoType.GetName());
    for (const auto& [name, value] : m_topoAttributes)
    {
        factory.Set(name, *value);
    }
    return factory.Create<FabricTopologyHelper>();
}

uint32_t
TransportComparison::FailureLink(Ptr<FabricTopologyHelper> topo) const
{
    FABRIC_INPUT_ERROR_IF(
        topo->GetNSpines() == 0,
        "TransportComparison: the -failure scenarios fail a leaf-spine cable, but "
        "this fabric has no spines");
    std::vector<uint32_t> links = topo->FindLinks(topo->GetLeaf(0), topo->GetSpine(0));
    FABRIC_INPUT_ERROR_IF(links.empty(),
                          "TransportComparison: leaf 0 and spine 0 are not cabled together");
    return links[0];
}

std::vector<TransportComparisonRow>
TransportComparison::Run()
{
    const auto configs = GetConfigurations();
    const auto scenarios = GetScenarios();
    FABRIC_INPUT_ERROR_IF(configs.empty(),
                          "ns3::TransportComparison::Configurations is empty; give at least one");
    FABRIC_INPUT_ERROR_IF(scenarios.empty(),
                          "ns3::TransportComparison::Scenarios is empty; give at least one");
    for (const auto& c : configs)
    {
        MakeConfig(c, "ns3::TransportComparison::Configurations");
    }
    for (const auto& s : scenarios)
    {
        CheckScenario(s, "ns3::TransportComparison::Scenarios");
    }
    std::vector<std::string> lbs = GetLoadBalancers();
    for (const auto& lb : lbs)
    {
        SwitchHelper::CheckLoadBalancerName(lb, "ns3::TransportComparison::LoadBalancers");
    }
    if (lbs.empty())
    {
        lbs.emplace_back(); // the configuration's own balancer
    }
    std::vector<TransportComparisonRow> rows;
    for (const auto& s : scenarios)
    {
        for (const auto& c : configs)
        {
            for (const auto& lb : lbs)
            {
                auto r = RunOne(s, c, lb);
                rows.insert(rows.end(), r.begin(), r.end());
            }
        }
    }
    return rows;
}

std::vector<TransportComparisonRow>
TransportComparison::RunOne(const std::string& scenario,
                            const std::string& config,
                            const std::string& lb)
{
    CheckScenario(scenario, "TransportComparison::RunOne");
    FABRIC_INPUT_ERROR_IF(m_maxBytes < m_minBytes,
                          "ns3::TransportComparison::MinBytes=" << m_minBytes
                                                                << ", MaxBytes=" << m_maxBytes
                                                                << " are invalid; need MinBytes <= "
                                                                   "MaxBytes");
    Ptr<FabricTransportConfig> tc = MakeConfig(config, "TransportComparison::RunOne");
    Ptr<FabricTopologyHelper> topo = MakeTopology();
    tc->Configure(topo);
    if (!lb.empty())
    {
        topo->GetSwitchHelper().SetLoadBalancerByName(lb, "TransportComparison::RunOne: lb");
    }
    topo->Install();
    tc->Finish(topo);
    Ptr<FabricTransportPlugin> transport = tc->GetPlugin();
    AssignFixedStreams(topo, transport);
    const bool failure = EndsWith(scenario, FAILURE);
    const std::string base = failure ? scenario.substr(0, scenario.size() - 8) : scenario;
    if (failure)
    {
        ApplyFailure(topo);
    }
    Ptr<FabricTeController> te;
    if (lb == "te")
    {
        te = CreateObject<FabricTeController>();
        te->SetTopology(topo);
    }

    Ptr<FabricProgressReporter> progress;
    if (m_progress)
    {
        progress = CreateObject<FabricProgressReporter>();
        progress->SetName(m_progressName + " (" + config + ", " + scenario + ")");
        progress->Watch(topo->GetHealthMonitor());
    }

    TransportComparisonRow proto;
    proto.scenario = scenario;
    proto.config = config;
    proto.lb = lb;
    proto.dataPriority = transport->GetDataPriority();
    const FabricRunCounters start = FabricRunCounters::Collect(topo);
    std::vector<TransportComparisonRow> rows;
    if (base == "allreduce" || base == "alltoall")
    {
        rows =
            RunCollective(base == "allreduce" ? CollectiveOp::ALL_REDUCE : CollectiveOp::ALL_TO_ALL,
                          topo,
                          transport,
                          proto,
                          te);
    }
    else
    {
        rows.push_back(RunFlows(base, topo, proto, start, te));
    }
    const double imbalance = UplinkImbalance(topo);
    for (auto& r : rows)
    {
        r.uplinkImbalance = imbalance;
    }
    const std::string problem = CheckRun(topo, start);
    if (!problem.empty())
    {
        for (auto& r : rows)
        {
            r.ok = false;
            r.problem = r.problem.empty() ? problem : r.problem + "; " + problem;
        }
    }
    Simulator::Destroy();
    return rows;
}

void
TransportComparison::AssignFixedStreams(Ptr<FabricTopologyHelper> topo,
                                        Ptr<FabricTransportPlugin> transport) const
{
    // Fixed random streams: every row is independent of the runs before it.
    int64_t stream = 1000;
    stream += transport->AssignStreams(stream);
    for (uint32_t i = 0; i < topo->GetNLeaves(); ++i)
    {
        stream += topo->GetLeaf(i)->GetObject<FabricSwitch>()->AssignStreams(stream);
    }
    for (uint32_t i = 0; i < topo->GetNSpines(); ++i)
    {
        stream += topo->GetSpine(i)->GetObject<FabricSwitch>()->AssignStreams(stream);
    }
    for (uint32_t i = 0; i < topo->GetNCores(); ++i)
    {
        stream += topo->GetCore(i)->GetObject<FabricSwitch>()->AssignStreams(stream);
    }
    for (uint32_t i = 0; i < topo->GetNNvSwitches(); ++i)
    {
        stream += topo->GetNvSwitch(i)->GetObject<FabricSwitch>()->AssignStreams(stream);
    }
}

void
TransportComparison::ApplyFailure(Ptr<FabricTopologyHelper> topo) const
{
    const uint32_t link = FailureLink(topo);
    if (m_failure == "down")
    {
        topo->SetLinkUp(link, false);
    }
    else
    {
        const uint64_t bps = topo->GetLinkRate(FabricLinkTier::LEAF_SPINE).GetBitRate();
        topo->SetLinkDataRate(
            link,
            DataRate(static_cast<uint64_t>(std::llround(double(bps) * m_degradeFactor))));
    }
}

std::vector<TransportComparisonRow>
TransportComparison::RunCollective(CollectiveOp op,
                                   Ptr<FabricTopologyHelper> topo,
                                   Ptr<FabricTransportPlugin> transport,
                                   const TransportComparisonRow& proto,
                                   Ptr<FabricTeController> te) const
{
    const uint32_t channels = m_channels ? m_channels : topo->GetGpusPerServer();
    std::vector<TransportComparisonRow> rows;
    std::vector<uint64_t> sizes;
    for (uint64_t s = m_minBytes; s <= m_maxBytes; s *= m_factor)
    {
        sizes.push_back(s);
        if (s > m_maxBytes / m_factor)
        {
            break;
        }
    }
    CollectiveHelper coll;
    coll.SetTopology(topo);
    coll.SetTransportType(transport->GetName());
    coll.SetCommunicatorAttribute("Channels", UintegerValue(channels));
    // Transports are compared as networks are benchmarked: NCCL_ALGO=RING, Simple.
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
    coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
    coll.SetCommunicatorAttribute("ChunkSize", UintegerValue(2 * 1024 * 1024));
    if (op == CollectiveOp::ALL_TO_ALL)
    {
        // NCCL's default on rail-optimized servers (NCCL_P2P_PXN_LEVEL=2): a cross-rail block
        // crosses NVLink to the destination's rail first, so the network sees rail traffic.
        coll.SetCommunicatorAttribute("Pxn", BooleanValue(true));
    }
    coll.AssignStreams(100);
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    if (te)
    {
        PlanCollective(topo, comm, op, sizes.back(), te);
    }
    CollectiveSweep* current = nullptr;
    RunWatcher watcher(topo, m_sample, [&current, topo]() {
        return current->IsDone() && NothingPending(topo);
    });
    CollectiveSweep sweep(op, topo, comm, watcher, sizes, proto);
    current = &sweep;
    sweep.Start();
    Simulator::Run();
    rows = sweep.GetRows();
    if (!sweep.IsDone())
    {
        TransportComparisonRow row = proto;
        row.bytes = sizes[rows.size()];
        row.problem = "the collective did not complete";
        rows.push_back(row);
    }
    return rows;
}

void
TransportComparison::PlanCollective(Ptr<FabricTopologyHelper> topo,
                                    Ptr<CollectiveCommunicator> comm,
                                    CollectiveOp op,
                                    uint64_t bytes,
                                    Ptr<FabricTeController> te)
{
    // The schedule's network transfers (after PXN relaying), summed per rank pair; each pair
    // at its share of the NICs: its bytes x NIC rate / the larger of its source's and its
    // destination's inter-server bytes.
    Ptr<const CollectiveSchedule> schedule = comm->BuildSchedule(op, bytes);
    const uint32_t n = topo->GetNRanks();
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> pairBytes;
    std::vector<uint64_t> out(n, 0);
    std::vector<uint64_t> in(n, 0);
    for (uint32_t c = 0; c < schedule->GetNRanks(); ++c)
    {
        const uint32_t a = comm->GetGlobalRank(c);
        for (const auto& send : schedule->GetProgram(c).sends)
        {
            const uint32_t b = comm->GetGlobalRank(send.peer);
            if (send.kind != CollectiveSendKind::TRANSPORT ||
                topo->GetServerOf(a) == topo->GetServerOf(b))
            {
                continue;
            }
            pairBytes[{a, b}] += send.bytes;
            out[a] += send.bytes;
            in[b] += send.bytes;
        }
    }
    const uint64_t nic = topo->GetLinkRate(FabricLinkTier::GPU_LEAF).GetBitRate();
    for (const auto& [pair, b] : pairBytes)
    {
        // floor(NIC rate x bytes / the busier end's bytes), exact in 128 bits (as BytesTxTime).
        const __uint128_t share = static_cast<__uint128_t>(nic) * b;
        te->AddDemand(
            pair.first,
            pair.second,
            DataRate(static_cast<uint64_t>(share / std::max(out[pair.first], in[pair.second]))));
    }
    te->Plan();
}

TransportComparisonRow
TransportComparison::RunFlows(const std::string& base,
                              Ptr<FabricTopologyHelper> topo,
                              const TransportComparisonRow& proto,
                              const FabricRunCounters& start,
                              Ptr<FabricTeController> te) const
{
    const uint32_t n = topo->GetNRanks();
    HtsimConnectionMatrix matrix(n);
    std::vector<uint32_t> ranks(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        ranks[r] = r;
    }
    FABRIC_INPUT_ERROR_IF(topo->GetNServers() < 2,
                          "TransportComparison: the " << base
                                                      << " scenario needs ranks on other "
                                                         "servers; the fabric has one server");
    if (base == "incast")
    {
        std::vector<uint32_t> others;
        for (uint32_t r = 0; r < n; ++r)
        {
            if (topo->GetServerOf(r) != topo->GetServerOf(0))
            {
                others.push_back(r);
            }
        }
        FABRIC_INPUT_ERROR_IF(m_incastSenders > others.size(),
                              "ns3::TransportComparison::IncastSenders="
                                  << m_incastSenders << " is invalid for this fabric; valid range "
                                  << "is 0.." << others.size()
                                  << " (the ranks of other servers than rank 0's; 0 = all)");
        const uint32_t senders = m_incastSenders ? m_incastSenders : others.size();
        for (uint32_t i = 0; i < senders; ++i)
        {
            HtsimConnection c;
            c.src = others[i];
            c.dst = 0;
            c.bytes = m_flowBytes;
            c.id = i + 1;
            matrix.Add(c);
        }
    }
    else
    {
        // A random derangement whose pairs are all on different servers (the same for
        // every configuration: a fresh stream 0 of the seed).
        auto rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(0);
        std::vector<uint32_t> perm(ranks);
        bool found = false;
        for (uint32_t attempt = 0; attempt < 100000 && !found; ++attempt)
        {
            for (uint32_t i = n - 1; i > 0; --i)
            {
                std::swap(perm[i], perm[rng->GetInteger(0, i)]);
            }
            found = true;
            for (uint32_t r = 0; r < n && found; ++r)
            {
                found = topo->GetServerOf(perm[r]) != topo->GetServerOf(r);
            }
        }
        FABRIC_INPUT_ERROR_IF(!found,
                              "TransportComparison: found no permutation of the "
                                  << n << " ranks that crosses servers for every pair");
        for (uint32_t r = 0; r < n; ++r)
        {
            HtsimConnection c;
            c.src = r;
            c.dst = perm[r];
            c.bytes = m_flowBytes;
            c.id = r + 1;
            matrix.Add(c);
        }
    }
    if (te)
    {
        // Each flow at its max-min share of the NICs: the NIC rate over the larger of its
        // source's flows and its destination's.
        std::vector<uint32_t> out(n, 0);
        std::vector<uint32_t> in(n, 0);
        for (const auto& c : matrix.GetConnections())
        {
            ++out[c.src];
            ++in[c.dst];
        }
        const uint64_t nic = topo->GetLinkRate(FabricLinkTier::GPU_LEAF).GetBitRate();
        for (const auto& c : matrix.GetConnections())
        {
            te->AddDemand(c.src, c.dst, DataRate(nic / std::max(out[c.src], in[c.dst])));
        }
        te->Plan();
    }
    FabricFlowRunner runner(topo, matrix, ranks);
    runner.Start();
    auto allDone = [&runner, topo]() {
        const auto flows = runner.GetFlows();
        return std::all_of(flows.begin(),
                           flows.end(),
                           [](const UetFlowRecord& f) { return f.done; }) &&
               NothingPending(topo);
    };
    RunWatcher watcher(topo, m_sample, allDone);
    Simulator::Run();
    TransportComparisonRow row = proto;
    const UetFctSummary s = runner.GetSummary();
    row.bytes = m_flowBytes;
    row.flows = s.flows;
    row.completed = s.completed;
    row.fctMedian = s.median;
    row.fctP99 = s.p99;
    row.fctMax = s.max;
    row.counters = FabricRunCounters::Collect(topo).Since(start);
    row.maxQueueBytes = watcher.TakeMax();
    row.ok = runner.AllCompleted();
    if (!row.ok)
    {
        row.problem = std::to_string(s.flows - s.completed) + " of " + std::to_string(s.flows) +
                      " flows did not complete";
    }
    return row;
}

double
TransportComparison::UplinkImbalance(Ptr<FabricTopologyHelper> topo)
{
    double sum = 0;
    double max = 0;
    uint32_t n = 0;
    for (uint32_t l = 0; l < topo->GetNLeaves(); ++l)
    {
        for (uint32_t s = 0; s < topo->GetNSpines(); ++s)
        {
            for (uint32_t link : topo->FindLinks(topo->GetLeaf(l), topo->GetSpine(s)))
            {
                Ptr<PfcChannel> ch = topo->GetLinkChannel(link);
                if (!ch->IsLinkUp())
                {
                    continue;
                }
                const uint64_t bytes = topo->GetLinkTxBytes(link, topo->GetLeaf(l));
                const double busy =
                    8.0 * double(bytes) / double(ch->GetPfcDevice(0)->GetDataRate().GetBitRate());
                sum += busy;
                max = std::max(max, busy);
                ++n;
            }
        }
    }
    return sum > 0 ? max / (sum / n) : 0;
}

std::string
TransportComparison::CheckRun(Ptr<FabricTopologyHelper> topo, const FabricRunCounters& start) const
{
    // The whole run: no stall; where the transport counts bytes (UET), every byte posted
    // completed and was delivered once.
    const bool healthy = topo->GetHealthMonitor()->ReportEndOfRun(std::cerr);
    const FabricTransportCounters total = FabricRunCounters::Collect(topo).Since(start).transports;
    std::string problem;
    if (!healthy)
    {
        problem = "the health monitor reported a problem (see stderr)";
    }
    else if (total.bytesPosted > 0)
    {
        uint64_t pending = 0;
        for (uint32_t r = 0; r < topo->GetNRanks(); ++r)
        {
            pending += topo->GetNicCore(r)->GetPendingOperations();
        }
        if (total.opsFailed > 0 || pending > 0 || total.bytesCompleted != total.bytesPosted ||
            total.bytesDelivered != total.bytesPosted)
        {
            std::ostringstream os;
            os << "bytes not conserved: posted " << total.bytesPosted << ", completed "
               << total.bytesCompleted << ", delivered " << total.bytesDelivered
               << ", failed operations " << total.opsFailed << ", pending " << pending;
            problem = os.str();
        }
    }
    return problem;
}

void
TransportComparison::SetProgressReports(bool on, const std::string& name)
{
    m_progress = on;
    m_progressName = name;
}

} // namespace ns3
