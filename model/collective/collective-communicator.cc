/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-communicator.h"

#include "double-binary-tree-algorithm.h"
#include "hierarchical-allreduce-algorithm.h"
#include "nvls-algorithm.h"
#include "pairwise-alltoall-algorithm.h"
#include "ring-algorithm.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveCommunicator");
NS_OBJECT_ENSURE_REGISTERED(CollectiveCommunicator);

TypeId
CollectiveCommunicator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveCommunicator")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<CollectiveCommunicator>()
            .AddAttribute(
                "Channels",
                "Channels: rings (or tree pairs) run in parallel, each with its own "
                "connections and QPs; 0 = as NCCL chooses per size (the graph's channels, "
                "fewer for small sizes); n = forced (NCCL_MIN_NCHANNELS = "
                "NCCL_MAX_NCHANNELS = n; 0..65535).",
                UintegerValue(0),
                MakeUintegerAccessor(&CollectiveCommunicator::m_channels),
                MakeFabricUintegerChecker<uint32_t>("ns3::CollectiveCommunicator::Channels",
                                                    0,
                                                    65535))
            .AddAttribute("ChunkSize",
                          "Pipelining chunk, bytes: a step's segment is cut into chunks of at "
                          "most this size that pipeline across steps; 0 = the protocol's own "
                          "(NCCL enqueue.cc: Simple ring 1 MiB slices, Simple tree 512 KiB, "
                          "LL128 576,000 B, LL 32 KiB; tree chunks shrink for small sizes). "
                          "With MaxChunksPerStep = 1 every step is store-and-forward (the "
                          "alpha-beta model).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CollectiveCommunicator::m_chunkSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "MaxChunksPerStep",
                "Most pipelining chunks a step's segment is cut into (1..4096): a "
                "segment that would need more ChunkSize chunks gets this many larger "
                "ones, so a collective's schedule (its memory) is bounded by channels "
                "x ranks x steps x this, never by the message size.",
                UintegerValue(64),
                MakeUintegerAccessor(&CollectiveCommunicator::m_maxChunks),
                MakeFabricUintegerChecker<uint32_t>("ns3::CollectiveCommunicator::MaxChunksPerStep",
                                                    1,
                                                    4096))
            .AddAttribute(
                "ElementSize",
                "Bytes per element (the padding unit; 4 = float, nccl-tests "
                "default; 1..1024).",
                UintegerValue(4),
                MakeUintegerAccessor(&CollectiveCommunicator::m_elementSize),
                MakeFabricUintegerChecker<uint32_t>("ns3::CollectiveCommunicator::ElementSize",
                                                    1,
                                                    1024))
            .AddAttribute("Pxn",
                          "Relay sends between different servers and rails through NVLink to "
                          "the source server's rank on the destination's rail (NCCL PXN).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveCommunicator::m_pxn),
                          MakeBooleanChecker())
            .AddAttribute("RailAwareRings",
                          "Build rings whose inter-server hops stay on one rail when rank "
                          "locations are known (NCCL_CROSS_NIC=0); false = communicator "
                          "order.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CollectiveCommunicator::m_railAware),
                          MakeBooleanChecker())
            .AddAttribute(
                "Algorithm",
                "Algorithm (NCCL_ALGO): Auto (NCCL's tuner per collective and size), "
                "Ring, Tree (double binary tree, AllReduce), Hierarchical (NVLink "
                "reduce-scatter, per-rail AllReduce, NVLink all-gather; ai-fabric's, "
                "AllReduce), NVLS, NVLSTree (NVSwitch servers). Tree and "
                "Hierarchical apply to AllReduce; other collectives keep the ring.",
                EnumValue(ALGORITHM_AUTO),
                compat::MakeEnumAccessor<AlgorithmChoice>(&CollectiveCommunicator::m_algorithm),
                MakeEnumChecker(ALGORITHM_AUTO,
                                "Auto",
                                ALGORITHM_RING,
                                "Ring",
                                ALGORITHM_TREE,
                                "Tree",
                                ALGORITHM_HIERARCHICAL,
                                "Hierarchical",
                                ALGORITHM_NVLS,
                                "NVLS",
                                ALGORITHM_NVLS_TREE,
                                "NVLSTree"))
            .AddAttribute(
                "Protocol",
                "Protocol (NCCL_PROTO): Auto (NCCL's tuner), LL, LL128 (NVLink "
                "servers), Simple.",
                EnumValue(PROTOCOL_AUTO),
                compat::MakeEnumAccessor<ProtocolChoice>(&CollectiveCommunicator::m_protocol),
                MakeEnumChecker(PROTOCOL_AUTO,
                                "Auto",
                                PROTOCOL_LL,
                                "LL",
                                PROTOCOL_LL128,
                                "LL128",
                                PROTOCOL_SIMPLE,
                                "Simple"))
            .AddAttribute("Timeout",
                          "Watchdog: a collective not finished this long after it started is "
                          "failed with reason \"timeout\" (catches deadlocks; 0 = off).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CollectiveCommunicator::m_timeout),
                          MakeFabricTimeChecker("ns3::CollectiveCommunicator::Timeout", Time(0)))
            .AddAttribute("StopOnFailure",
                          "Call Simulator::Stop() when a collective fails.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CollectiveCommunicator::m_stopOnFailure),
                          MakeBooleanChecker())
            .AddAttribute("PreConnect",
                          "Open every connection a collective uses when it is enqueued (ranks "
                          "in order, each rank's sends in schedule order) instead of at its "
                          "first message. A run across MPI processes needs it: every process "
                          "then opens the same connections in the same order.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveCommunicator::m_preConnect),
                          MakeBooleanChecker())
            .AddAttribute("RankContext",
                          "Hand each rank a collective enqueued during the run in an event of "
                          "the rank's node context (ns-3's convention for a node's work) instead "
                          "of in the caller's context. A run across MPI processes that enqueues "
                          "collectives from events outside any rank (a FabricBarrier release) "
                          "needs it, so that the ranks' events take the same place among "
                          "simultaneous events in every process.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveCommunicator::m_rankContext),
                          MakeBooleanChecker())
            .AddAttribute("ScheduleCacheSize",
                          "Schedules kept for reuse by later collectives of the same kind and "
                          "size (0 = none).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&CollectiveCommunicator::m_cacheSize),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("CollectiveComplete",
                            "A collective completed on every rank.",
                            MakeTraceSourceAccessor(&CollectiveCommunicator::m_completeTrace),
                            "ns3::CollectiveCommunicator::RecordTracedCallback")
            .AddTraceSource("CollectiveFailed",
                            "A collective failed (record with rank, step, peer, reason).",
                            MakeTraceSourceAccessor(&CollectiveCommunicator::m_failedTrace),
                            "ns3::CollectiveCommunicator::RecordTracedCallback");
    return tid;
}

CollectiveCommunicator::CollectiveCommunicator()
    : m_nextSeq(0),
      m_failed(false),
      m_channels(0),
      m_chunkSize(0),
      m_maxChunks(64),
      m_elementSize(4),
      m_pxn(false),
      m_railAware(true),
      m_algorithm(ALGORITHM_AUTO),
      m_protocol(PROTOCOL_AUTO),
      m_timeout(0),
      m_stopOnFailure(true),
      m_cacheSize(16),
      m_preConnect(false),
      m_rankContext(false),
      m_nLocal(0)
{
    m_tuner = CreateObject<NcclTuner>();
}

CollectiveCommunicator::~CollectiveCommunicator() = default;

Ptr<NcclTuner>
CollectiveCommunicator::GetTuner() const
{
    return m_tuner;
}

void
CollectiveCommunicator::DoDispose()
{
    for (auto& [seq, a] : m_active)
    {
        a.timeout.Cancel();
    }
    m_active.clear();
    m_apps.clear();
    m_transport = nullptr;
    m_cache.clear();
    m_cacheOrder.clear();
    for (auto& a : m_algorithms)
    {
        a = nullptr;
    }
    m_builders.clear();
    m_tuner = nullptr;
    m_nvls.clear();
    Object::DoDispose();
}

void
CollectiveCommunicator::Setup(const std::string& name,
                              Ptr<CollectiveTransport> transport,
                              const std::vector<uint32_t>& globalRanks,
                              const std::vector<Ptr<Node>>& nodes,
                              const std::vector<CollectiveRankLocation>& locations,
                              const ObjectFactory& appFactory)
{
    NS_ABORT_MSG_IF(!m_apps.empty(), "communicator " << name << " is already set up");
    NS_ABORT_MSG_IF(!transport, "communicator " << name << ": null transport");
    NS_ABORT_MSG_IF(globalRanks.empty(),
                    "communicator " << name << ": a communicator of 0 ranks is invalid (>= 1)");
    NS_ABORT_MSG_IF(nodes.size() != globalRanks.size(),
                    "communicator " << name << ": " << nodes.size() << " nodes for "
                                    << globalRanks.size() << " ranks");
    NS_ABORT_MSG_IF(!locations.empty() && locations.size() != globalRanks.size(),
                    "communicator " << name << ": " << locations.size() << " locations for "
                                    << globalRanks.size() << " ranks");
    std::set<uint32_t> seen;
    for (uint32_t r : globalRanks)
    {
        NS_ABORT_MSG_IF(r >= transport->GetNRanks(),
                        "communicator " << name << ": rank " << r
                                        << " is not a rank of the fabric (ranks 0.."
                                        << transport->GetNRanks() - 1 << ")");
        NS_ABORT_MSG_IF(!seen.insert(r).second,
                        "communicator " << name << ": rank " << r << " appears twice");
    }
    m_name = name;
    m_transport = transport;
    m_globalRanks = globalRanks;
    m_layout = locations.empty() ? Create<CollectiveLayout>(uint32_t(globalRanks.size()))
                                 : Create<CollectiveLayout>(locations);
    for (uint32_t i = 0; i < globalRanks.size(); ++i)
    {
        NS_ABORT_MSG_IF(!nodes[i], "communicator " << name << ": null node for rank " << i);
        Ptr<CollectiveApplication> app = appFactory.Create<CollectiveApplication>();
        nodes[i]->AddApplication(app);
        app->Setup(this, i, globalRanks[i]);
        transport->SetRankListener(globalRanks[i], PeekPointer(app));
        m_nLocal += app->IsLocal() ? 1 : 0;
        m_apps.push_back(app);
    }
    if (m_nLocal == m_apps.size())
    {
        return;
    }
    // Across MPI processes: what only a sequential run can do is refused here.
    NS_ABORT_MSG_IF(!transport->SupportsProcesses(),
                    "communicator " << name << ": its ranks are simulated by several MPI "
                                    << "processes, and its transport "
                                    << transport->GetInstanceTypeId().GetName()
                                    << " cannot carry messages between processes");
    NS_ABORT_MSG_IF(!m_preConnect,
                    "communicator "
                        << name
                        << ": its ranks are simulated by several MPI processes; set "
                           "ns3::CollectiveCommunicator::PreConnect to true (every process must "
                           "open the same connections in the same order), and in the sequential "
                           "run it is compared with");
    NS_ABORT_MSG_IF(m_apps[0]->GetSendCompletion() == CollectiveApplication::SEND_AT_DELIVERY,
                    "communicator "
                        << name
                        << ": its ranks are simulated by several MPI processes; set "
                           "ns3::CollectiveApplication::SendCompletion to Posted or Acknowledged "
                           "(Delivery: a sender would have to learn of an arrival in another "
                           "process at the same instant), and in the sequential run it is "
                           "compared with");
}

uint32_t
CollectiveCommunicator::GetNLocalRanks() const
{
    return m_nLocal;
}

void
CollectiveCommunicator::ConnectAll(const CollectiveSchedule& schedule)
{
    for (uint32_t r = 0; r < schedule.GetNRanks(); ++r)
    {
        for (const auto& s : schedule.GetProgram(r).sends)
        {
            if (s.kind == CollectiveSendKind::TRANSPORT)
            {
                m_transport->Connect(m_globalRanks[r], m_globalRanks[s.peer], s.channel);
            }
        }
    }
}

std::string
CollectiveCommunicator::GetName() const
{
    return m_name;
}

uint32_t
CollectiveCommunicator::GetSize() const
{
    return static_cast<uint32_t>(m_globalRanks.size());
}

uint32_t
CollectiveCommunicator::GetGlobalRank(uint32_t commRank) const
{
    NS_ABORT_MSG_IF(commRank >= m_globalRanks.size(),
                    "communicator " << m_name << ": rank " << commRank
                                    << " is not in the communicator (ranks 0.."
                                    << m_globalRanks.size() - 1 << ")");
    return m_globalRanks[commRank];
}

const std::vector<uint32_t>&
CollectiveCommunicator::GetGlobalRanks() const
{
    return m_globalRanks;
}

Ptr<CollectiveApplication>
CollectiveCommunicator::GetApplication(uint32_t commRank) const
{
    NS_ABORT_MSG_IF(commRank >= m_apps.size(),
                    "communicator " << m_name << ": rank " << commRank
                                    << " is not in the communicator (ranks 0.."
                                    << (m_apps.empty() ? 0 : m_apps.size() - 1) << ")");
    return m_apps[commRank];
}

Ptr<CollectiveTransport>
CollectiveCommunicator::GetTransport() const
{
    return m_transport;
}

Ptr<const CollectiveLayout>
CollectiveCommunicator::GetLayout() const
{
    return m_layout;
}

uint32_t
CollectiveCommunicator::GetElementSize() const
{
    return m_elementSize;
}

void
CollectiveCommunicator::SetAlgorithm(CollectiveOp op, Ptr<CollectiveAlgorithm> algorithm)
{
    NS_ABORT_MSG_IF(op >= CollectiveOp::COUNT, "communicator " << m_name << ": unknown op");
    NS_ABORT_MSG_IF(algorithm && !algorithm->Supports(op),
                    "communicator " << m_name << ": algorithm \"" << algorithm->GetName()
                                    << "\" does not implement " << CollectiveOpName(op));
    m_algorithms[size_t(op)] = algorithm;
}

Ptr<CollectiveAlgorithm>
CollectiveCommunicator::GetAlgorithm(CollectiveOp op, uint64_t bytes) const
{
    NS_ABORT_MSG_IF(op >= CollectiveOp::COUNT, "communicator " << m_name << ": unknown op");
    auto self = const_cast<CollectiveCommunicator*>(this);
    return BuilderFor(op, self->Choose(op, bytes));
}

Ptr<CollectiveAlgorithm>
CollectiveCommunicator::BuilderFor(CollectiveOp op, const CollectiveExecution& exec) const
{
    if (m_algorithms[size_t(op)])
    {
        return m_algorithms[size_t(op)];
    }
    TypeId tid = RingAlgorithm::GetTypeId();
    if (op == CollectiveOp::ALL_TO_ALL)
    {
        tid = PairwiseAlltoAllAlgorithm::GetTypeId();
    }
    else if (op == CollectiveOp::ALL_REDUCE && m_algorithm == ALGORITHM_HIERARCHICAL)
    {
        tid = HierarchicalAllReduceAlgorithm::GetTypeId();
    }
    else if (exec.algorithm == NcclAlgorithm::TREE)
    {
        tid = DoubleBinaryTreeAlgorithm::GetTypeId();
    }
    else if (exec.algorithm == NcclAlgorithm::NVLS)
    {
        tid = NvlsAlgorithm::GetTypeId();
    }
    else if (exec.algorithm == NcclAlgorithm::NVLS_TREE)
    {
        tid = NvlsTreeAlgorithm::GetTypeId();
    }
    Ptr<CollectiveAlgorithm>& builder = m_builders[tid.GetUid()];
    if (!builder)
    {
        ObjectFactory factory(tid.GetName());
        builder = factory.Create<CollectiveAlgorithm>();
    }
    return builder;
}

void
CollectiveCommunicator::SetHopWireLatency(CollectiveHopType hop, Time wire)
{
    NS_ABORT_MSG_IF(wire.IsStrictlyNegative() || size_t(hop) >= m_hopWire.size(),
                    "communicator " << m_name << ": hop wire latency " << wire.As(Time::NS)
                                    << " is invalid (>= 0 for an NVLink or network hop)");
    m_hopWire[size_t(hop)] = wire;
}

Time
CollectiveCommunicator::GetHopWireLatency(CollectiveHopType hop) const
{
    return m_hopWire.at(size_t(hop));
}

void
CollectiveCommunicator::SetNvlsEngine(uint32_t commRank, Ptr<NvlsEngine> engine, uint32_t port)
{
    NS_ABORT_MSG_IF(commRank >= GetSize(),
                    "communicator " << m_name << ": rank " << commRank
                                    << " is not in the communicator (0.." << GetSize() - 1 << ")");
    NS_ABORT_MSG_IF(!engine || port >= engine->GetNPorts(),
                    "communicator " << m_name << ": rank " << commRank
                                    << " needs an NVLS engine and one of its GPU ports, not port "
                                    << port);
    NS_ABORT_MSG_IF(m_nvlsGrouped,
                    "communicator " << m_name << ": NVLS engines are set before the first "
                                    << "NVLS collective");
    m_nvls.resize(GetSize());
    m_nvls[commRank].engine = engine;
    m_nvls[commRank].port = port;
}

bool
CollectiveCommunicator::HasNvlsEngines() const
{
    return m_nvls.size() == GetSize() &&
           std::all_of(m_nvls.begin(), m_nvls.end(), [](const CollectiveNvlsBinding& b) {
               return b.engine != nullptr;
           });
}

const CollectiveNvlsBinding&
CollectiveCommunicator::GetNvlsBinding(uint32_t commRank)
{
    NS_ABORT_MSG_IF(commRank >= GetSize(),
                    "communicator " << m_name << ": rank " << commRank << " is not in it");
    NS_ABORT_MSG_IF(!HasNvlsEngines(),
                    "communicator " << m_name << ": NVLS needs an NVLS engine for every rank "
                                    << "(NVSwitch servers, CollectiveHelper with a topology)");
    if (!m_nvlsGrouped)
    {
        for (uint32_t s = 0; s < m_layout->GetNServers(); ++s)
        {
            const std::vector<uint32_t>& ranks = m_layout->GetServerRanks(s);
            std::vector<uint32_t> ports;
            for (uint32_t r : ranks)
            {
                NS_ABORT_MSG_IF(m_nvls[r].engine != m_nvls[ranks[0]].engine,
                                "communicator " << m_name << ": ranks " << ranks[0] << " and " << r
                                                << " share a server but not an NVSwitch");
                ports.push_back(m_nvls[r].port);
            }
            const uint32_t group = m_nvls[ranks[0]].engine->AddGroup(ports);
            for (uint32_t i = 0; i < ranks.size(); ++i)
            {
                m_nvls[ranks[i]].group = group;
                m_nvls[ranks[i]].member = i;
            }
        }
        m_nvlsGrouped = true;
    }
    return m_nvls[commRank];
}

void
CollectiveCommunicator::Validate(CollectiveOp op, uint64_t bytes, uint32_t root) const
{
    NS_ABORT_MSG_IF(m_apps.empty(), "communicator " << m_name << " is not set up");
    NS_ABORT_MSG_IF(op >= CollectiveOp::COUNT,
                    "communicator " << m_name << ": unknown operation " << int(op));
    NS_ABORT_MSG_IF(bytes == 0,
                    "communicator " << m_name << ": " << CollectiveOpName(op)
                                    << " of 0 B is invalid; the size must be >= one element ("
                                    << m_elementSize << " B)");
    NS_ABORT_MSG_IF(bytes % m_elementSize != 0,
                    "communicator " << m_name << ": " << CollectiveOpName(op) << " size " << bytes
                                    << " B is not a multiple of the element size " << m_elementSize
                                    << " B (ElementSize)");
    NS_ABORT_MSG_IF(bytes > MAX_BYTES,
                    "communicator " << m_name << ": " << CollectiveOpName(op) << " size " << bytes
                                    << " B is beyond what the model supports (at most " << MAX_BYTES
                                    << " B = 1 PiB per collective)");
    NS_ABORT_MSG_IF(op == CollectiveOp::BROADCAST && root >= GetSize(),
                    "communicator " << m_name << ": Broadcast root " << root
                                    << " is not in the communicator (ranks 0.." << GetSize() - 1
                                    << ")");
}

Ptr<const CollectiveSchedule>
CollectiveCommunicator::BuildSchedule(CollectiveOp op,
                                      uint64_t bytes,
                                      uint32_t root,
                                      uint64_t* paddedBytes)
{
    Validate(op, bytes, root);
    return BuildFor(op, bytes, root, Choose(op, bytes), paddedBytes);
}

Ptr<const CollectiveSchedule>
CollectiveCommunicator::BuildFor(CollectiveOp op,
                                 uint64_t bytes,
                                 uint32_t root,
                                 const CollectiveExecution& exec,
                                 uint64_t* paddedBytes)
{
    if (op != CollectiveOp::BROADCAST)
    {
        root = 0;
    }
    Ptr<CollectiveAlgorithm> algorithm = BuilderFor(op, exec);
    uint64_t chunk = ProtocolChunk(bytes, exec);
    CacheKey key{int(op),
                 bytes,
                 root,
                 exec.channels,
                 chunk,
                 m_maxChunks,
                 m_elementSize,
                 m_pxn,
                 m_railAware,
                 PeekPointer(algorithm),
                 int(exec.protocol)};
    auto it = m_cache.find(key);
    if (it != m_cache.end())
    {
        if (paddedBytes)
        {
            *paddedBytes = it->second.second;
        }
        return it->second.first;
    }
    CollectiveRequest request;
    request.op = op;
    request.bytes = bytes;
    request.root = root;
    request.channels = exec.channels;
    request.chunkSize = chunk;
    request.slicesPerChunk = m_chunkSize == 0 && exec.protocol == NcclProtocol::SIMPLE &&
                                     exec.algorithm == NcclAlgorithm::RING
                                 ? 2
                                 : 1;
    request.maxChunks = m_maxChunks;
    request.elementSize = m_elementSize;
    request.pxn = m_pxn;
    request.railAwareRings = m_railAware;
    request.layout = m_layout;
    uint64_t padded = bytes;
    Ptr<const CollectiveSchedule> schedule = algorithm->Build(request, &padded);
    if (m_cacheSize > 0)
    {
        if (m_cache.size() >= m_cacheSize)
        {
            m_cache.erase(m_cacheOrder.front());
            m_cacheOrder.pop_front();
        }
        m_cache.emplace(key, CacheEntry(schedule, padded));
        m_cacheOrder.push_back(key);
    }
    if (paddedBytes)
    {
        *paddedBytes = padded;
    }
    return schedule;
}

uint32_t
CollectiveCommunicator::Enqueue(CollectiveOp op, uint64_t bytes, uint32_t root, DoneCallback done)
{
    Validate(op, bytes, root);
    uint32_t seq = m_nextSeq++;
    CollectiveExecution exec = Choose(op, bytes);
    CollectiveRecord rec;
    rec.communicator = m_name;
    rec.seq = seq;
    rec.op = op;
    rec.algorithm = exec.algorithmName;
    rec.protocol = NcclProtocolName(exec.protocol);
    rec.bytes = bytes;
    rec.nRanks = GetSize();
    rec.channels = exec.channels;
    rec.root = op == CollectiveOp::BROADCAST ? root : 0;
    rec.enqueued = Simulator::Now();
    if (m_failed)
    {
        rec.failed = true;
        rec.start = rec.end = rec.enqueued;
        rec.reason = "aborted: an earlier collective of the communicator failed";
        m_records.push_back(rec);
        m_failedTrace(rec);
        if (!done.IsNull())
        {
            done(rec);
        }
        return seq;
    }
    Ptr<const CollectiveSchedule> schedule = BuildFor(op, bytes, root, exec, &rec.paddedBytes);
    if (m_preConnect)
    {
        ConnectAll(*schedule);
    }
    if (m_nLocal == 0)
    {
        return seq; // every rank is simulated by other MPI processes: nothing runs here
    }
    Active& a = m_active[seq];
    a.schedule = schedule;
    a.exec = exec;
    a.record = rec;
    a.callback = done;
    NS_LOG_INFO(m_name << ": enqueued " << CollectiveOpName(op) << " #" << seq << " of " << bytes
                       << " B (" << rec.algorithm << ", " << a.schedule->GetNTransfers()
                       << " transfers)");
    for (auto& app : m_apps)
    {
        if (m_rankContext && app->IsLocal() && Simulator::GetContext() != app->GetNode()->GetId())
        {
            Simulator::ScheduleWithContext(app->GetNode()->GetId(),
                                           Time(0),
                                           &CollectiveApplication::Enqueue,
                                           app,
                                           seq);
            continue;
        }
        app->Enqueue(seq);
    }
    return seq;
}

Ptr<const CollectiveSchedule>
CollectiveCommunicator::GetSchedule(uint32_t seq) const
{
    auto it = m_active.find(seq);
    NS_ABORT_MSG_IF(it == m_active.end(),
                    "communicator " << m_name << ": collective " << seq
                                    << " is not queued or running");
    return it->second.schedule;
}

const CollectiveExecution&
CollectiveCommunicator::GetExecution(uint32_t seq) const
{
    auto it = m_active.find(seq);
    NS_ABORT_MSG_IF(it == m_active.end(),
                    "communicator " << m_name << ": collective " << seq
                                    << " is not queued or running");
    return it->second.exec;
}

const std::vector<CollectiveRecord>&
CollectiveCommunicator::GetRecords() const
{
    return m_records;
}

uint32_t
CollectiveCommunicator::GetNEnqueued() const
{
    return m_nextSeq;
}

bool
CollectiveCommunicator::HasFailed() const
{
    return m_failed;
}

void
CollectiveCommunicator::NotifyRankStarted(uint32_t seq, uint32_t commRank)
{
    auto it = m_active.find(seq);
    if (it == m_active.end())
    {
        return;
    }
    Active& a = it->second;
    if (a.started++ == 0)
    {
        a.record.start = Simulator::Now();
        if (m_timeout.IsStrictlyPositive())
        {
            a.timeout =
                Simulator::Schedule(m_timeout, &CollectiveCommunicator::OnTimeout, this, seq);
        }
    }
}

void
CollectiveCommunicator::NotifyRankComplete(uint32_t seq, uint32_t commRank)
{
    auto it = m_active.find(seq);
    if (it == m_active.end())
    {
        return;
    }
    if (++it->second.done == m_nLocal)
    {
        Finish(seq);
    }
}

void
CollectiveCommunicator::Finish(uint32_t seq)
{
    auto it = m_active.find(seq);
    Active a = std::move(it->second);
    m_active.erase(it);
    a.timeout.Cancel();
    CollectiveRecord& rec = a.record;
    rec.end = Simulator::Now();
    rec.completed = true;
    rec.ComputeBandwidths();
    NS_LOG_INFO(m_name << ": " << CollectiveOpName(rec.op) << " #" << seq << " done in "
                       << rec.GetDuration().GetSeconds() * 1e6 << " us, busbw " << rec.busBw
                       << " GB/s");
    m_records.push_back(rec);
    m_completeTrace(rec);
    if (!a.callback.IsNull())
    {
        a.callback(rec);
    }
}

void
CollectiveCommunicator::DescribePending(std::ostream& os) const
{
    if (m_active.empty())
    {
        os << "  none\n";
        return;
    }
    constexpr uint32_t MAX_RANKS = 16;
    for (const auto& [seq, a] : m_active)
    {
        os << "  " << m_name << " collective " << seq << ": " << CollectiveOpName(a.record.op)
           << " of " << a.record.bytes << " B enqueued at " << a.record.enqueued.As(Time::US)
           << ", started by " << a.started << "/" << m_nLocal << " ranks, finished by " << a.done
           << "/" << m_nLocal;
        uint32_t shown = 0;
        uint32_t stuck = 0;
        for (uint32_t r = 0; r < GetSize(); ++r)
        {
            uint32_t step = COLLECTIVE_NONE;
            uint32_t peer = COLLECTIVE_NONE;
            if (!m_apps[r]->GetFirstPendingStep(seq, &step, &peer))
            {
                continue;
            }
            ++stuck;
            if (shown++ < MAX_RANKS)
            {
                os << (shown == 1 ? "; waiting: " : ", ") << "rank " << m_globalRanks[r] << " step "
                   << step << " peer rank "
                   << (peer < GetSize() ? m_globalRanks[peer] : COLLECTIVE_NONE);
            }
        }
        if (stuck > MAX_RANKS)
        {
            os << " ... (" << stuck << " ranks in all)";
        }
        os << "\n";
    }
}

void
CollectiveCommunicator::OnTimeout(uint32_t seq)
{
    for (uint32_t r = 0; r < GetSize(); ++r)
    {
        uint32_t step = COLLECTIVE_NONE;
        uint32_t peer = COLLECTIVE_NONE;
        if (m_apps[r]->GetFirstPendingStep(seq, &step, &peer))
        {
            std::ostringstream why;
            why << "timeout: not finished " << m_timeout.As(Time::US) << " after it started";
            NotifyFailure(seq, r, step, peer, why.str());
            return;
        }
    }
    NotifyFailure(seq,
                  COLLECTIVE_NONE,
                  COLLECTIVE_NONE,
                  COLLECTIVE_NONE,
                  "timeout: some ranks have not started it");
}

void
CollectiveCommunicator::NotifyFailure(uint32_t seq,
                                      uint32_t commRank,
                                      uint32_t step,
                                      uint32_t peer,
                                      const std::string& reason)
{
    if (m_failed)
    {
        return;
    }
    m_failed = true;
    for (auto& app : m_apps)
    {
        app->Abort();
    }
    std::vector<std::pair<CollectiveRecord, DoneCallback>> finished;
    for (auto& [s, a] : m_active)
    {
        a.timeout.Cancel();
        CollectiveRecord rec = a.record;
        rec.failed = true;
        rec.end = Simulator::Now();
        if (a.started == 0)
        {
            rec.start = rec.end;
        }
        if (s == seq)
        {
            rec.failedRank =
                commRank == COLLECTIVE_NONE ? COLLECTIVE_NONE : GetGlobalRank(commRank);
            rec.failedStep = step;
            rec.failedPeer = peer == COLLECTIVE_NONE ? COLLECTIVE_NONE : GetGlobalRank(peer);
            rec.reason = reason;
            NS_LOG_WARN(m_name << ": " << CollectiveOpName(rec.op) << " #" << seq
                               << " failed at rank " << rec.failedRank << " step " << step << ": "
                               << reason);
        }
        else
        {
            rec.reason = "aborted: collective " + std::to_string(seq) + " failed";
        }
        finished.emplace_back(rec, a.callback);
    }
    m_active.clear();
    for (auto& [rec, cb] : finished)
    {
        m_records.push_back(rec);
        m_failedTrace(rec);
        if (!cb.IsNull())
        {
            cb(rec);
        }
    }
    if (m_stopOnFailure)
    {
        Simulator::Stop();
    }
}

} // namespace ns3
