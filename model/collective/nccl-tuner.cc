/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-tuner.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NcclTuner");
NS_OBJECT_ENSURE_REGISTERED(NcclTuner);

namespace
{

constexpr uint32_t TREE = static_cast<uint32_t>(NcclAlgorithm::TREE);
constexpr uint32_t RING = static_cast<uint32_t>(NcclAlgorithm::RING);
constexpr uint32_t NVLS = static_cast<uint32_t>(NcclAlgorithm::NVLS);
constexpr uint32_t NVLS_TREE = static_cast<uint32_t>(NcclAlgorithm::NVLS_TREE);
constexpr uint32_t LL = static_cast<uint32_t>(NcclProtocol::LL);
constexpr uint32_t LL128 = static_cast<uint32_t>(NcclProtocol::LL128);
constexpr uint32_t SIMPLE = static_cast<uint32_t>(NcclProtocol::SIMPLE);
constexpr uint32_t HW_NVLINK = 0;
constexpr uint32_t HW_PCI = 1;
constexpr uint32_t HW_NET = 2;

/// NCCL's function indices of this model: Broadcast, AllGather, ReduceScatter, AllReduce.
constexpr int F_BROADCAST = 0;
constexpr int F_ALL_GATHER = 1;
constexpr int F_REDUCE_SCATTER = 2;
constexpr int F_ALL_REDUCE = 3;

/// The speeds (GB/s per channel) NCCL's graph search tries on sm90, inside a node and across
/// nodes (NCCL src/graph/search.cc), fastest first.
const double SPEED_INTRA[] =
    {60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0, 2.4, 1.2, 0.24, 0.12};
const double SPEED_INTER[] = {48.0,
                              45.0,
                              42.0,
                              40.0,
                              30.0,
                              24.0,
                              22.0,
                              20.0,
                              17.5,
                              15.0,
                              12.0,
                              6.0,
                              3.0,
                              2.4,
                              1.2,
                              0.24,
                              0.12};

/// Threads per channel (NCCL_LL_MAX_NTHREADS, NCCL_LL128_MAX_NTHREADS,
/// NCCL_SIMPLE_MAX_NTHREADS) and bytes per thread before a channel is added
/// (NCCL_*_THREAD_THRESHOLD).
const uint32_t MAX_THREADS[NCCL_NUM_PROTOCOLS] = {512, 640, 512};
const uint32_t THREAD_THRESHOLD[NCCL_NUM_PROTOCOLS] = {8, 8, 64};

/// NCCL's NVLS chunk (nvlsChunkSize, NCCL_NVLS_CHUNKSIZE default 128 KiB).
constexpr uint64_t NVLS_CHUNK = 131072;

/// \return floor(log2(n)), -1 for 0 (NCCL log2i)
int
Log2i(uint64_t n)
{
    int l = -1;
    while (n)
    {
        n >>= 1;
        ++l;
    }
    return l;
}

/// \return the fastest speed of \p speeds not above \p limit (the slowest if none is)
template <size_t N>
double
SearchSpeed(const double (&speeds)[N], double limit)
{
    for (double s : speeds)
    {
        if (s <= limit)
        {
            return s;
        }
    }
    return speeds[N - 1];
}

/// \return \p s lower-cased
std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

} // namespace

const char*
NcclAlgorithmName(NcclAlgorithm a)
{
    switch (a)
    {
    case NcclAlgorithm::TREE:
        return "Tree";
    case NcclAlgorithm::RING:
        return "Ring";
    case NcclAlgorithm::NVLS:
        return "NVLS";
    case NcclAlgorithm::NVLS_TREE:
        return "NVLSTree";
    default:
        return "?";
    }
}

bool
NcclAlgorithmFromName(const std::string& name, NcclAlgorithm* a)
{
    for (uint32_t i = 0; i < NCCL_NUM_ALGORITHMS; ++i)
    {
        if (Lower(NcclAlgorithmName(NcclAlgorithm(i))) == Lower(name))
        {
            *a = NcclAlgorithm(i);
            return true;
        }
    }
    return false;
}

NcclTunerConstants
NcclTunerConstants::Defaults()
{
    NcclTunerConstants c{
        // baseLatency: Tree, Ring, NVLS, NVLSTree x {LL, LL128, Simple}
        {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}},
        // hwLatency: NVLink, PCI, network
        {{{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}, {0, 0, 25}, {0, 0, 25}},
         {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}},
         {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 18}, {0, 0, 20.9}}},
        // llMaxBw
        {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}},
        // perChMaxRingLl128Bw
        {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {40.0, 40.0, 40.0}},
        // perChMaxTreeLl128Bw
        {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}},
        // perChMaxTreeBw
        {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}},
        // perChMaxNvlsTreeBw
        {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}},
        // nvlsEfficiency
        {0.0, 0.0, 0.85, 0.74},
        // treeCorrection: LL, LL128, Simple; 64 B .. 512 MiB by powers of two
        {{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6,  .5,
          .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
         {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6,  .6,
          .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0, 1.0},
         {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
          .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}},
    };
    return c;
}

TypeId
NcclTuner::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NcclTuner")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<NcclTuner>()
            .AddAttribute("GpuArch",
                          "GPU architecture, for NCCL's per-architecture tables (LL and LL128 "
                          "caps, tree caps, NVLS efficiency): Volta, Ampere, Hopper, Blackwell.",
                          EnumValue(HOPPER),
                          compat::MakeEnumAccessor<GpuArch>(&NcclTuner::m_arch),
                          MakeEnumChecker(VOLTA,
                                          "Volta",
                                          AMPERE,
                                          "Ampere",
                                          HOPPER,
                                          "Hopper",
                                          BLACKWELL,
                                          "Blackwell"))
            .AddAttribute("CpuVendor",
                          "Host CPU vendor: LL's cap across nodes and the network post "
                          "overhead (Intel 1 us, AMD 2 us) depend on it.",
                          EnumValue(INTEL),
                          compat::MakeEnumAccessor<CpuVendor>(&NcclTuner::m_cpu),
                          MakeEnumChecker(INTEL, "Intel", AMD, "AMD"))
            .AddAttribute("NetOverhead",
                          "Network post overhead per ring step across nodes (NCCL_NET_OVERHEAD); "
                          "negative = by CpuVendor (Intel 1 us, AMD 2 us).",
                          TimeValue(NanoSeconds(-1)),
                          MakeTimeAccessor(&NcclTuner::m_netOverhead),
                          MakeTimeChecker())
            .AddAttribute("EnableLl128",
                          "Allow LL128 where NCCL enables it (NVLink inside nodes); false = "
                          "NCCL_PROTO=^LL128.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NcclTuner::m_ll128),
                          MakeBooleanChecker())
            .AddAttribute("EnableNvls",
                          "Allow NVLS and NVLSTree on NVSwitch servers of Hopper or newer GPUs "
                          "(NCCL_NVLS_ENABLE); false = NCCL_NVLS_ENABLE=0, as on systems "
                          "without NVLink SHARP (no fabric manager multicast, some VMs).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NcclTuner::m_nvls),
                          MakeBooleanChecker())
            .AddAttribute(
                "NvlsChannels",
                "Channels NVLS and NVLSTree run on (NCCL_NVLS_NCHANNELS; NCCL's "
                "default 16 on Hopper; 1..32, at most MaxChannels).",
                UintegerValue(16),
                MakeUintegerAccessor(&NcclTuner::m_nvlsChannels),
                MakeFabricUintegerChecker<uint32_t>("ns3::NcclTuner::NvlsChannels", 1, 32))
            .AddAttribute(
                "MaxChannels",
                "Most channels a graph gets (NCCL MAXCHANNELS 32; 1..32).",
                UintegerValue(32),
                MakeUintegerAccessor(&NcclTuner::m_maxChannels),
                MakeFabricUintegerChecker<uint32_t>("ns3::NcclTuner::MaxChannels", 1, 32));
    return tid;
}

NcclTuner::NcclTuner()
    : m_arch(HOPPER),
      m_cpu(INTEL),
      m_netOverhead(NanoSeconds(-1)),
      m_ll128(true),
      m_nvls(true),
      m_nvlsChannels(16),
      m_maxChannels(32),
      m_c(NcclTunerConstants::Defaults())
{
    std::fill(&m_latency[0][0][0], &m_latency[0][0][0] + sizeof(m_latency) / sizeof(double), 0.0);
    std::fill(&m_bandwidth[0][0][0],
              &m_bandwidth[0][0][0] + sizeof(m_bandwidth) / sizeof(double),
              0.0);
}

NcclTuner::~NcclTuner() = default;

const NcclTunerConstants&
NcclTuner::GetConstants() const
{
    return m_c;
}

void
NcclTuner::SetConstants(const NcclTunerConstants& constants)
{
    m_c = constants;
}

bool
NcclTuner::IsConfigured() const
{
    return m_configured;
}

const NcclSystem&
NcclTuner::GetSystem() const
{
    return m_system;
}

const NcclGraph&
NcclTuner::GetGraph(NcclAlgorithm a) const
{
    NS_ABORT_MSG_IF(a >= NcclAlgorithm::COUNT, "NcclTuner: invalid algorithm " << int(a));
    return m_graphs[static_cast<uint32_t>(a)];
}

int
NcclTuner::FunctionIndex(CollectiveOp op)
{
    switch (op)
    {
    case CollectiveOp::BROADCAST:
        return F_BROADCAST;
    case CollectiveOp::ALL_GATHER:
        return F_ALL_GATHER;
    case CollectiveOp::REDUCE_SCATTER:
        return F_REDUCE_SCATTER;
    case CollectiveOp::ALL_REDUCE:
        return F_ALL_REDUCE;
    default:
        return -1;
    }
}

double
NcclTuner::NetOverheadUs() const
{
    if (!m_netOverhead.IsNegative())
    {
        return m_netOverhead.GetSeconds() * 1e6;
    }
    return m_cpu == AMD ? 2.0 : 1.0;
}

void
NcclTuner::Configure(const NcclSystem& s)
{
    NS_ABORT_MSG_IF(s.nRanks == 0, "NcclTuner: a communicator of 0 ranks is invalid (>= 1)");
    NS_ABORT_MSG_IF(s.nNodes == 0 || s.nNodes > s.nRanks,
                    "NcclTuner: " << s.nNodes << " nodes for " << s.nRanks
                                  << " ranks is invalid (1.." << s.nRanks << ")");
    NS_ABORT_MSG_IF(!(s.intraBw > 0),
                    "NcclTuner: intra-node bandwidth " << s.intraBw << " GB/s is invalid (> 0)");
    NS_ABORT_MSG_IF(s.nNodes > 1 && (!(s.nicBw > 0) || s.nicsPerNode == 0),
                    "NcclTuner: NIC bandwidth " << s.nicBw << " GB/s x " << s.nicsPerNode
                                                << " NICs per node is invalid across " << s.nNodes
                                                << " nodes (> 0 and >= 1)");
    m_system = s;
    BuildGraphs();
    BuildTables();
    m_configured = true;
}

void
NcclTuner::BuildGraphs()
{
    const NcclSystem& s = m_system;
    NcclGraph ring;
    double speed;
    if (s.nNodes > 1)
    {
        // One ring per NIC (NCCL_CROSS_NIC=0), at the fastest speed the NIC and NVLink allow.
        speed = SearchSpeed(SPEED_INTER, std::min(s.nicBw, s.intraBw));
        ring.nChannels = s.nicsPerNode;
    }
    else
    {
        speed = SearchSpeed(SPEED_INTRA, s.intraBw);
        ring.nChannels = std::max<uint32_t>(1, static_cast<uint32_t>(s.intraBw / speed));
    }
    if (speed >= 25.0)
    {
        // NCCL duplicates the channels of fast graphs, each at half the speed.
        ring.nChannels *= 2;
        speed /= 2;
    }
    ring.nChannels = std::min(ring.nChannels, m_maxChannels);
    ring.bwIntra = ring.bwInter = speed;
    m_graphs[RING] = ring;
    m_graphs[TREE] = ring;
    // NVLS (shared by NVLSTree): one channel per GPU of a server, each headed by its GPU (and
    // NIC), at the fastest speed one GPU's NVLink (and NIC, across nodes) allows.
    NcclGraph nvls;
    const uint32_t ppn = s.nRanks / s.nNodes;
    if (s.nvswitch && ppn >= 2)
    {
        nvls.nChannels = std::min(ppn, m_maxChannels);
        nvls.bwIntra = nvls.bwInter = s.nNodes > 1
                                          ? SearchSpeed(SPEED_INTER, std::min(s.nicBw, s.intraBw))
                                          : SearchSpeed(SPEED_INTRA, s.intraBw);
    }
    m_graphs[NVLS] = nvls;
    m_graphs[NVLS_TREE] = nvls;
}

void
NcclTuner::BuildTables()
{
    const NcclSystem& s = m_system;
    const uint32_t nNodes = s.nNodes;
    const uint32_t nRanks = s.nRanks;
    const uint32_t ppn = nRanks / nNodes;
    const uint32_t arch = static_cast<uint32_t>(m_arch);
    const uint32_t bucket = nNodes <= 2 ? nNodes - 1 : 2;
    const uint32_t llRow = nNodes == 1 ? arch : (m_cpu == AMD ? 1 : 0);
    const double llMaxBw = m_c.llMaxBw[llRow][bucket];
    const uint32_t intraHw = s.nvlink ? HW_NVLINK : HW_PCI;
    for (int f = 0; f < int(NUM_FUNCTIONS); ++f)
    {
        const uint32_t nsteps = f == F_ALL_REDUCE                              ? 2 * (nRanks - 1)
                                : (f == F_ALL_GATHER || f == F_REDUCE_SCATTER) ? nRanks - 1
                                                                               : nRanks;
        for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
        {
            for (uint32_t p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
            {
                double& bwOut = m_bandwidth[f][a][p];
                double& latOut = m_latency[f][a][p];
                std::string& why = m_why[f][a][p];
                bwOut = 0;
                latOut = 0;
                why.clear();
                if (nRanks <= 1)
                {
                    why = "a communicator of one rank moves nothing";
                    continue;
                }
                if (f != F_ALL_REDUCE && a != RING)
                {
                    why = std::string(NcclAlgorithmName(NcclAlgorithm(a))) +
                          " runs only AllReduce in this model (others: Ring)";
                    continue;
                }
                if ((a == NVLS || a == NVLS_TREE) && p != SIMPLE)
                {
                    why = "NVLS algorithms run only the Simple protocol";
                    continue;
                }
                if (a == NVLS || a == NVLS_TREE)
                {
                    why = NvlsUnavailable(NcclAlgorithm(a));
                    if (!why.empty())
                    {
                        continue;
                    }
                }
                if (p == LL128 && (!s.nvlink || !m_ll128))
                {
                    why = !m_ll128 ? "LL128 is disabled (EnableLl128 false)"
                                   : "LL128 needs NVLink inside a node (NCCL enables it only "
                                     "there)";
                    continue;
                }
                const NcclGraph& g = m_graphs[a];
                double bw = nNodes <= 2 ? g.bwIntra : g.bwInter;
                if (a == NVLS || a == NVLS_TREE)
                {
                    // Per-channel bus bandwidth: the NVSwitch's reduction pipelines two
                    // operations (reduce, multicast); NVLSTree: the network, twice as fast
                    // with at most 2 nodes (no interior tree node), and its per-channel cap.
                    double intra = g.bwIntra * m_c.nvlsEfficiency[arch] * (g.nChannels - 1) /
                                   g.nChannels * 2.0;
                    double inter = g.bwInter * (nNodes <= 2 && a == NVLS_TREE ? 2.0 : 1.0);
                    bw = std::min(intra, inter);
                    if (a == NVLS_TREE)
                    {
                        bw = std::min(bw, m_c.perChMaxNvlsTreeBw[arch][bucket]);
                    }
                }
                double busBw = g.nChannels * bw;
                if (a == RING && p == LL)
                {
                    busBw = std::min(llMaxBw, busBw * 0.5);
                }
                if (a == RING && p == LL128)
                {
                    busBw =
                        std::min(busBw * 0.92, g.nChannels * m_c.perChMaxRingLl128Bw[arch][bucket]);
                }
                if (a == TREE)
                {
                    busBw = std::min(busBw * 0.92, g.nChannels * m_c.perChMaxTreeBw[arch][bucket]);
                    if (p == LL)
                    {
                        busBw = std::min(busBw / 3.8, llMaxBw);
                    }
                    if (p == LL128)
                    {
                        busBw = std::min(busBw * (nNodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0),
                                         g.nChannels * m_c.perChMaxTreeLl128Bw[arch][bucket]);
                    }
                }
                double ratio = a == TREE ? 0.5 : double(nRanks) / nsteps;
                bwOut = busBw * ratio;

                // Latency.
                double lat = m_c.baseLatency[a][p];
                double intraLat = m_c.hwLatency[intraHw][a][p];
                double interLat =
                    ppn == 1 ? m_c.hwLatency[HW_NET][TREE][p] : m_c.hwLatency[HW_NET][a][p];
                if (a == RING)
                {
                    if (f == F_BROADCAST)
                    {
                        uint32_t hw = nNodes == 1 ? intraHw : HW_NET;
                        double step =
                            p == SIMPLE ? m_c.hwLatency[hw][TREE][p] : m_c.hwLatency[hw][RING][p];
                        lat += nsteps * step;
                    }
                    else
                    {
                        if (nNodes > 1)
                        {
                            intraLat =
                                std::max(intraLat, NetOverheadUs() * (p == SIMPLE ? 3.0 : 1.0));
                        }
                        uint32_t inter = nNodes == 1         ? 0
                                         : f == F_ALL_REDUCE ? 2 * (nNodes - 1)
                                                             : nNodes - 1;
                        lat += (nsteps - inter) * intraLat + inter * interLat;
                    }
                }
                else if (a == TREE)
                {
                    lat += 2 * ((ppn - 1) * intraLat + std::max(0, Log2i(nNodes)) * interLat);
                }
                else
                {
                    // NVLS: the switch's reduction once; NVLSTree: plus the tree's network
                    // hops up and down.
                    lat = a == NVLS ? intraLat
                                    : lat + intraLat + 2 * std::max(0, Log2i(nNodes)) * interLat;
                }
                latOut = lat;
            }
        }
    }
}

std::string
NcclTuner::NvlsUnavailable(NcclAlgorithm a) const
{
    const NcclSystem& s = m_system;
    if (!m_nvls)
    {
        return "NVLS is disabled (EnableNvls false: NCCL_NVLS_ENABLE=0)";
    }
    if (!s.nvswitch)
    {
        return "NVLS needs NVSwitch servers with NVLink SHARP (an NVLS engine per server)";
    }
    if (!(m_c.nvlsEfficiency[static_cast<uint32_t>(m_arch)] > 0))
    {
        return "NVLS needs Hopper or newer GPUs (GpuArch)";
    }
    if (m_graphs[NVLS].nChannels < 2 || !s.uniform)
    {
        return "NVLS needs the same number (>= 2) of GPUs on every server";
    }
    if (a == NcclAlgorithm::NVLS && s.nNodes > 1)
    {
        return "NVLS across nodes needs CollNet (SHARP network offload), not modelled; "
               "NVLSTree runs across nodes";
    }
    if (a == NcclAlgorithm::NVLS_TREE && s.nNodes == 1)
    {
        return "NVLSTree runs across nodes (NCCL disables it on one node, where NVLS runs)";
    }
    return "";
}

bool
NcclTuner::IsAvailable(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, std::string* why) const
{
    NS_ABORT_MSG_IF(!m_configured, "NcclTuner: used before Configure()");
    NS_ABORT_MSG_IF(a >= NcclAlgorithm::COUNT || p >= NcclProtocol::COUNT,
                    "NcclTuner: invalid algorithm or protocol");
    int f = FunctionIndex(op);
    if (f < 0)
    {
        // AlltoAll: NCCL point-to-point, Simple (LL for small pieces), no algorithm choice.
        bool ok = a == NcclAlgorithm::RING && p != NcclProtocol::LL128;
        if (!ok && why)
        {
            *why = "AlltoAll is point-to-point in NCCL: it runs without a tuned algorithm "
                   "(ring) with LL or Simple, never LL128";
        }
        return ok;
    }
    double bw = m_bandwidth[f][uint32_t(a)][uint32_t(p)];
    if (bw <= 0 && why)
    {
        *why = m_why[f][uint32_t(a)][uint32_t(p)];
    }
    return bw > 0;
}

double
NcclTuner::GetLatencyUs(CollectiveOp op, NcclAlgorithm a, NcclProtocol p) const
{
    int f = FunctionIndex(op);
    return f < 0 ? 0 : m_latency[f][uint32_t(a)][uint32_t(p)];
}

double
NcclTuner::GetBandwidthGBps(CollectiveOp op, NcclAlgorithm a, NcclProtocol p) const
{
    int f = FunctionIndex(op);
    return f < 0 ? 0 : m_bandwidth[f][uint32_t(a)][uint32_t(p)];
}

double
NcclTuner::GetTimeUs(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, uint64_t bytes) const
{
    if (!IsAvailable(op, a, p, nullptr) || FunctionIndex(op) < 0)
    {
        return -1;
    }
    double bw = GetBandwidthGBps(op, a, p);
    double lat = GetLatencyUs(op, a, p);
    int logSize = Log2i(bytes >> 6);
    if (a == NcclAlgorithm::TREE && op == CollectiveOp::ALL_REDUCE && logSize >= 0 && logSize < 23)
    {
        bw *= m_c.treeCorrection[uint32_t(p)][logSize];
    }
    if (a == NcclAlgorithm::RING && p == NcclProtocol::SIMPLE && m_system.nNodes > 1 &&
        op == CollectiveOp::ALL_REDUCE &&
        bytes / (uint64_t(std::max(1u, m_graphs[RING].nChannels)) * m_system.nRanks) >= 64)
    {
        lat *= m_arch < AMPERE ? 1.9 : 1.4; // NCCL: "plateau effect of ring"
    }
    return lat + double(bytes) / (1000.0 * bw);
}

uint32_t
NcclTuner::GetChannels(NcclAlgorithm a, NcclProtocol p, uint64_t bytes) const
{
    NS_ABORT_MSG_IF(!m_configured, "NcclTuner: used before Configure()");
    if (a == NcclAlgorithm::NVLS || a == NcclAlgorithm::NVLS_TREE)
    {
        return std::min(m_nvlsChannels, m_maxChannels); // NCCL: comm->nvlsChannels
    }
    // An algorithm without a graph of its own (AlltoAll's point-to-point) uses the ring's.
    const NcclGraph& g = m_graphs[uint32_t(a)].nChannels ? m_graphs[uint32_t(a)] : m_graphs[RING];
    uint32_t nc = std::max(1u, g.nChannels);
    uint64_t threshold = THREAD_THRESHOLD[uint32_t(p)];
    if (a == NcclAlgorithm::RING && p == NcclProtocol::LL)
    {
        threshold *= m_system.nRanks;
    }
    uint64_t perChannel = MAX_THREADS[uint32_t(p)] * threshold;
    while (nc > 1 && bytes < nc * perChannel)
    {
        --nc;
    }
    return nc;
}

NcclChoice
NcclTuner::Select(CollectiveOp op, uint64_t bytes, uint32_t algorithms, uint32_t protocols) const
{
    NS_ABORT_MSG_IF(!m_configured, "NcclTuner: used before Configure()");
    NcclChoice best;
    bool found = false;
    if (FunctionIndex(op) < 0)
    {
        // AlltoAll: point-to-point, Simple unless only LL is allowed.
        bool simple = protocols & (1u << SIMPLE);
        bool ll = protocols & (1u << LL);
        FABRIC_INPUT_ERROR_IF(!(algorithms & (1u << RING)) || (!simple && !ll),
                              CollectiveOpName(op)
                                  << " is point-to-point in NCCL: it runs with the ring's "
                                     "connections and the LL or Simple protocol, not with the "
                                     "algorithm/protocol forced");
        best.algorithm = NcclAlgorithm::RING;
        best.protocol = simple ? NcclProtocol::SIMPLE : NcclProtocol::LL;
        best.channels = GetChannels(best.algorithm, best.protocol, bytes);
        best.predictedUs = -1; // NCCL does not tune point-to-point
        return best;
    }
    std::ostringstream tried;
    for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
    {
        if (!(algorithms & (1u << a)))
        {
            continue;
        }
        for (uint32_t p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
        {
            if (!(protocols & (1u << p)))
            {
                continue;
            }
            std::string why;
            if (!IsAvailable(op, NcclAlgorithm(a), NcclProtocol(p), &why))
            {
                tried << "\n  " << NcclAlgorithmName(NcclAlgorithm(a)) << "/"
                      << NcclProtocolName(NcclProtocol(p)) << ": " << why;
                continue;
            }
            double t = GetTimeUs(op, NcclAlgorithm(a), NcclProtocol(p), bytes);
            if (!found || t < best.predictedUs)
            {
                found = true;
                best.algorithm = NcclAlgorithm(a);
                best.protocol = NcclProtocol(p);
                best.predictedUs = t;
            }
        }
    }
    FABRIC_INPUT_ERROR_IF(!found,
                          "no algorithm/protocol can run "
                              << CollectiveOpName(op) << " of " << bytes << " B on "
                              << m_system.nRanks << " ranks with the ones allowed:" << tried.str());
    best.channels = GetChannels(best.algorithm, best.protocol, bytes);
    return best;
}

uint64_t
NcclTuner::GetChunkBytes(NcclAlgorithm a, NcclProtocol p, uint64_t bytes, uint32_t channels) const
{
    NS_ABORT_MSG_IF(!m_configured, "NcclTuner: used before Configure()");
    const NcclProtocolInfo& info = GetNcclProtocolInfo(p);
    uint64_t chunk = info.GetStepDataBytes();
    const NcclSystem& sys = m_system;
    const double ppn = double(sys.nRanks) / sys.nNodes;
    const uint64_t perChannel = bytes / std::max(1u, channels);
    if (p == NcclProtocol::SIMPLE && a == NcclAlgorithm::RING)
    {
        chunk *= 4; // CHUNKSTEPS = NCCL_STEPS / 2 steps (2 slices of SLICESTEPS = 2 steps)
    }
    else if (p == NcclProtocol::SIMPLE && a == NcclAlgorithm::TREE)
    {
        // Tree up/down: shorter chunks keep a deep tree's pipeline full.
        uint32_t nodes = sys.nNodes;
        uint32_t log2Nodes = 0;
        while ((1u << log2Nodes) < nodes)
        {
            ++log2Nodes;
        }
        uint64_t depth = uint64_t(ppn) - 1 + log2Nodes + 1;
        while (perChannel / chunk < depth * 8 && chunk > 131072)
        {
            chunk /= 2;
        }
        while (perChannel / chunk < depth * 4 && chunk > 65536)
        {
            chunk /= 2;
        }
        while (perChannel / chunk < depth && chunk > 32768)
        {
            chunk /= 2;
        }
    }
    else if (a == NcclAlgorithm::NVLS || a == NcclAlgorithm::NVLS_TREE)
    {
        // nvlsChunkSize 128 KiB (NVLSTree: at most 64 KiB from 4 nodes on), smaller while the
        // buffer holds few chunks per concurrent operation (channels x heads).
        const uint64_t concurrent = uint64_t(std::max(1u, channels)) * uint64_t(ppn);
        chunk = NVLS_CHUNK;
        if (a == NcclAlgorithm::NVLS)
        {
            const uint64_t steps[3][2] = {{64, 65536}, {8, 32768}, {2, 16384}};
            for (const auto& [times, size] : steps)
            {
                if (bytes < times * concurrent * chunk && chunk > size)
                {
                    chunk = size;
                }
            }
        }
        else
        {
            if (sys.nNodes >= 4)
            {
                chunk = std::min<uint64_t>(chunk, 65536);
            }
            const uint64_t steps[4][2] = {{32, 262144}, {16, 131072}, {4, 65536}, {1, 32768}};
            for (const auto& [times, size] : steps)
            {
                if (bytes < times * concurrent * chunk && chunk > size)
                {
                    chunk = size;
                }
            }
        }
    }
    else if (p == NcclProtocol::LL128 && a == NcclAlgorithm::TREE)
    {
        uint32_t log2Nodes = 0;
        while ((2u << log2Nodes) <= sys.nNodes)
        {
            ++log2Nodes;
        }
        double steps = 1 + log2Nodes + 0.1 * ppn;
        while (perChannel / chunk < steps * 64 / ppn && chunk > 131072)
        {
            chunk /= 2;
        }
        while (perChannel / chunk < steps * 16 / ppn && chunk > 32768)
        {
            chunk /= 2;
        }
    }
    return chunk;
}

Time
NcclTuner::GetBaseLatency(NcclAlgorithm a, NcclProtocol p) const
{
    if (a == NcclAlgorithm::NVLS || a == NcclAlgorithm::NVLS_TREE)
    {
        // NCCL's NVLS latency is its intra-node term (the switch's reduction and barrier).
        return NanoSeconds(
            static_cast<int64_t>(m_c.hwLatency[HW_NVLINK][uint32_t(a)][uint32_t(p)] * 1000 + 0.5));
    }
    return NanoSeconds(
        static_cast<int64_t>(m_c.baseLatency[uint32_t(a)][uint32_t(p)] * 1000 + 0.5));
}

Time
NcclTuner::GetHopLatency(NcclAlgorithm a, NcclProtocol p, CollectiveHopType hop) const
{
    NS_ABORT_MSG_IF(!m_configured, "NcclTuner: used before Configure()");
    const uint32_t ai = uint32_t(a);
    const uint32_t pi = uint32_t(p);
    double us;
    if (hop == CollectiveHopType::NETWORK)
    {
        uint32_t ppn = m_system.nRanks / m_system.nNodes;
        us = ppn == 1 ? m_c.hwLatency[HW_NET][TREE][pi] : m_c.hwLatency[HW_NET][ai][pi];
    }
    else if (a == NcclAlgorithm::NVLS || a == NcclAlgorithm::NVLS_TREE)
    {
        us = 0; // multimem operations: the NvlsEngine's own latency (base latency: NVLS's)
    }
    else
    {
        us = m_c.hwLatency[m_system.nvlink ? HW_NVLINK : HW_PCI][ai][pi];
        if (a == NcclAlgorithm::RING && m_system.nNodes > 1)
        {
            us = std::max(us, NetOverheadUs() * (p == NcclProtocol::SIMPLE ? 3.0 : 1.0));
        }
    }
    return NanoSeconds(static_cast<int64_t>(us * 1000 + 0.5));
}

double
NcclTuner::GetChannelRateCap(NcclAlgorithm a, NcclProtocol p) const
{
    NS_ABORT_MSG_IF(!m_configured, "NcclTuner: used before Configure()");
    const uint32_t arch = static_cast<uint32_t>(m_arch);
    const uint32_t bucket = m_system.nNodes <= 2 ? m_system.nNodes - 1 : 2;
    double gbps = 0;
    if (a == NcclAlgorithm::RING && p == NcclProtocol::LL128)
    {
        gbps = m_c.perChMaxRingLl128Bw[arch][bucket];
    }
    if (a == NcclAlgorithm::TREE)
    {
        gbps = m_c.perChMaxTreeBw[arch][bucket];
        if (p == NcclProtocol::LL128)
        {
            gbps = std::min(gbps, m_c.perChMaxTreeLl128Bw[arch][bucket]);
        }
    }
    return gbps * 1e9;
}

double
NcclTuner::GetRankRateCap(NcclAlgorithm a, NcclProtocol p) const
{
    NS_ABORT_MSG_IF(!m_configured, "NcclTuner: used before Configure()");
    if (p != NcclProtocol::LL)
    {
        return 0;
    }
    const uint32_t bucket = m_system.nNodes <= 2 ? m_system.nNodes - 1 : 2;
    const uint32_t row =
        m_system.nNodes == 1 ? static_cast<uint32_t>(m_arch) : (m_cpu == AMD ? 1 : 0);
    return m_c.llMaxBw[row][bucket] * 1e9;
}

void
NcclTuner::Print(std::ostream& os) const
{
    NS_ABORT_MSG_IF(!m_configured, "NcclTuner: used before Configure()");
    static const char* const FUNCS[NUM_FUNCTIONS] = {"Broadcast",
                                                     "AllGather",
                                                     "ReduceScatter",
                                                     "AllReduce"};
    const NcclGraph& r = m_graphs[RING];
    os << "# NCCL tuning model: " << m_system.nRanks << " ranks on " << m_system.nNodes
       << " nodes; ring/tree graph " << r.nChannels << " channels x " << r.bwIntra << "/"
       << r.bwInter << " GB/s (intra/inter); latency us / algorithm bandwidth GB/s\n";
    char line[512];
    int off = std::snprintf(line, sizeof(line), "# %13s |", "Algorithm");
    for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
    {
        for (uint32_t p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
        {
            std::string name = std::string(NcclAlgorithmName(NcclAlgorithm(a))) + "/" +
                               NcclProtocolName(NcclProtocol(p));
            off += std::snprintf(line + off, sizeof(line) - off, " %15s |", name.c_str());
        }
    }
    os << line << "\n";
    for (uint32_t f = 0; f < NUM_FUNCTIONS; ++f)
    {
        off = std::snprintf(line, sizeof(line), "# %13s |", FUNCS[f]);
        for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
        {
            for (uint32_t p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
            {
                off += std::snprintf(line + off,
                                     sizeof(line) - off,
                                     " %7.1f/%7.1f |",
                                     m_latency[f][a][p],
                                     m_bandwidth[f][a][p]);
            }
        }
        os << line << "\n";
    }
}

} // namespace ns3
