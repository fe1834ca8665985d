/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: NCCL's tuning model (src/graph/tuning.cc, src/enqueue.cc): predicted time per
 * (algorithm, protocol), the choice NCCL makes from it, and the channel count it runs with.
 */
#ifndef NCCL_TUNER_H
#define NCCL_TUNER_H

#include "collective-types.h"
#include "nccl-protocol.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief The NCCL algorithms the tuner models (NCCL's NCCL_ALGO_* subset, in NCCL's order;
 *        CollNet and PAT need network offload or one GPU per node and are not modelled).
 */
enum class NcclAlgorithm : uint8_t
{
    TREE = 0,  //!< double binary tree across nodes, chain inside (AllReduce)
    RING,      //!< ring
    NVLS,      //!< NVLink SHARP: the NVSwitch reduces (multimem), one node
    NVLS_TREE, //!< NVLS inside nodes, tree across them
    COUNT      //!< number of algorithms (not an algorithm)
};

/// Number of modelled algorithms.
constexpr uint32_t NCCL_NUM_ALGORITHMS = static_cast<uint32_t>(NcclAlgorithm::COUNT);

/**
 * \param a an algorithm
 * \return NCCL's name: "Tree", "Ring", "NVLS", "NVLSTree"
 */
const char* NcclAlgorithmName(NcclAlgorithm a);

/**
 * \brief Parse an algorithm name, case-insensitively ("ring", "Tree", "nvlstree").
 * \param name the name
 * \param[out] a the algorithm
 * \return false if \p name names no algorithm (\p a unchanged)
 */
bool NcclAlgorithmFromName(const std::string& name, NcclAlgorithm* a);

/**
 * \ingroup ai-fabric-collective
 * \brief NCCL's tuning constants (NCCL 2.2x `ncclTunerConstantsDefaults` in
 *        src/graph/tuning.cc; what a tuner plugin may override). Latencies in microseconds,
 *        bandwidths in GB/s (10^9 bytes/s). Indices: [algorithm][protocol] in NcclAlgorithm and
 *        NcclProtocol order; hardware [0 NVLink, 1 PCI, 2 network]; architecture [Volta,
 *        Ampere, Hopper, Blackwell]; node bucket [1 node, 2 nodes, more].
 */
struct NcclTunerConstants
{
    /// Base latency per collective (us).
    double baseLatency[NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS];
    /// Latency per hop (us): [hardware][algorithm][protocol].
    double hwLatency[3][NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS];
    /// Cap of LL's bus bandwidth (GB/s): [GPU architecture for 1 node, CPU row (0 Intel, 1
    /// AMD) for more][node bucket].
    double llMaxBw[4][3];
    /// Per-channel cap of ring LL128 (GB/s): [architecture][node bucket].
    double perChMaxRingLl128Bw[4][3];
    /// Per-channel cap of tree LL128 (GB/s).
    double perChMaxTreeLl128Bw[4][3];
    /// Per-channel cap of tree (GB/s).
    double perChMaxTreeBw[4][3];
    /// Per-channel cap of NVLSTree (GB/s).
    double perChMaxNvlsTreeBw[4][3];
    /// NVLS efficiency per architecture (0: no NVLS).
    double nvlsEfficiency[4];
    /// Tree bandwidth correction for medium sizes: [protocol][log2(bytes / 64)], 0..23.
    double treeCorrection[NCCL_NUM_PROTOCOLS][24];

    /// \return NCCL 2.2x's defaults
    static NcclTunerConstants Defaults();
};

/**
 * \ingroup ai-fabric-collective
 * \brief What NCCL's topology detection finds about a communicator: its size, its nodes and
 *        the links that join its GPUs.
 */
struct NcclSystem
{
    uint32_t nRanks{1};      //!< ranks in the communicator (>= 1)
    uint32_t nNodes{1};      //!< servers (>= 1, <= nRanks)
    bool nvlink{true};       //!< GPUs of a server talk over NVLink (else PCI)
    bool nvswitch{true};     //!< the NVLink fabric is an NVSwitch (NVLS possible)
    double intraBw{370.8};   //!< NVLink (or PCI) bandwidth per GPU, GB/s per direction
    double nicBw{50.0};      //!< bandwidth of one NIC, GB/s per direction (400 Gb/s: 50)
    uint32_t nicsPerNode{8}; //!< NICs per server
    bool uniform{true};      //!< every server holds the same number of ranks
};

/**
 * \ingroup ai-fabric-collective
 * \brief The channel graph NCCL's search would build for an algorithm: channels and the
 *        bandwidth each gets inside a node and across nodes (NCCL `ncclTopoGraph`).
 */
struct NcclGraph
{
    uint32_t nChannels{0}; //!< channels
    double bwIntra{0};     //!< per-channel bandwidth inside a node, GB/s
    double bwInter{0};     //!< per-channel bandwidth across nodes, GB/s
};

/**
 * \ingroup ai-fabric-collective
 * \brief An (algorithm, protocol, channels) choice and NCCL's predicted time for it.
 */
struct NcclChoice
{
    NcclAlgorithm algorithm{NcclAlgorithm::RING}; //!< algorithm
    NcclProtocol protocol{NcclProtocol::SIMPLE};  //!< protocol
    uint32_t channels{1};                         //!< channels it runs on
    double predictedUs{0}; //!< NCCL's predicted time, us (-1: not tuned, AlltoAll)
};

/**
 * \ingroup ai-fabric-collective
 * \brief NCCL's tuning model: for each collective and size, the predicted time of every
 *        (algorithm, protocol), time = latency + bytes / (1000 x bandwidth) (us, GB/s), and
 *        the minimum, as NCCL's ncclTopoTuneModel / ncclTopoGetAlgoTime / topoGetAlgoInfo
 *        (NCCL 2.2x, src/graph/tuning.cc, src/enqueue.cc) compute them.
 *
 * Configure() takes the communicator's system (NcclSystem) and derives the graphs NCCL's
 * search would find: one ring per NIC across nodes at the fastest search speed (NCCL sm90
 * speed arrays) the NIC and NVLink allow, channels doubled and speed halved when the speed is
 * at least 25 GB/s (NCCL's channel duplication); one node: as many channels as the NVLink
 * bandwidth per GPU holds at the fastest speed, doubled the same way; NVLS (and NVLSTree, which
 * shares its graph): one channel per GPU of a server at the fastest speed one GPU's NVLink (and
 * NIC, across nodes) allows (DGX H100: 8 x 60 GB/s on one node, 8 x 48 GB/s across). It then
 * fills NCCL's latency and bandwidth tables with NCCL's refinements (LL at half the bus bandwidth
 * and at most llMaxBw, LL128 at 0.92 and per-channel caps, tree at 0.92 and per-channel caps, tree
 * algorithm bandwidth half the bus bandwidth, ring latency over intra and inter steps with the
 * network post overhead, tree latency over the chain and log2(nodes) network hops; LL128 only
 * over NVLink; NVLS per channel min(bwIntra x nvlsEfficiency x (channels-1)/channels x 2,
 * bwInter), NVLSTree also at most perChMaxNvlsTreeBw with the network term doubled on 2 nodes,
 * NVLS latency 25 us, NVLSTree 25 us + 2 log2(nodes) x 20.9 us). Select() returns NCCL's
 * choice; GetChannels() NCCL's per-size channel count (channels removed while bytes < channels
 * x threads x threshold; NVLS: NvlsChannels).
 *
 * Algorithms: AllReduce: Tree, Ring, NVLS (one NVSwitch server of Hopper or newer GPUs, with
 * EnableNvls), NVLSTree (several such servers, the same number of GPUs on each; NVLS across
 * nodes would need CollNet); AllGather, ReduceScatter, Broadcast: Ring. AlltoAll is NCCL
 * point-to-point (not tuned): Simple.
 *
 * Errors: Select() aborts naming the collective, the forced algorithm/protocol and what is
 * allowed when nothing can run; Configure() aborts on an invalid system (0 ranks, more nodes
 * than ranks, bandwidth <= 0).
 */
class NcclTuner : public Object
{
  public:
    /// GPU architecture (selects NCCL's per-architecture tables).
    enum GpuArch
    {
        VOLTA = 0, //!< sm70
        AMPERE,    //!< sm80
        HOPPER,    //!< sm90 (H100, H200)
        BLACKWELL, //!< sm100
    };

    /// Host CPU vendor (selects LL's cap across nodes and the network post overhead).
    enum CpuVendor
    {
        INTEL = 0, //!< x86 Intel: net overhead 1 us
        AMD,       //!< x86 AMD: net overhead 2 us
    };

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    NcclTuner();
    ~NcclTuner() override;

    /**
     * \brief Build the graphs and the latency/bandwidth tables for \p system.
     * \param system the communicator's system (validated; aborts naming a bad field)
     */
    void Configure(const NcclSystem& system);
    /// \return true once Configure() ran
    bool IsConfigured() const;
    /// \return the system given to Configure()
    const NcclSystem& GetSystem() const;
    /// \return the constants in use
    const NcclTunerConstants& GetConstants() const;
    /**
     * \brief Replace the constants (like a tuner plugin); takes effect at the next Configure().
     * \param constants the constants
     */
    void SetConstants(const NcclTunerConstants& constants);
    /**
     * \param a an algorithm
     * \return the graph NCCL's search would build for it (channels 0: unavailable)
     */
    const NcclGraph& GetGraph(NcclAlgorithm a) const;

    /**
     * \brief Whether NCCL would consider (op, a, p) at all.
     * \param op a collective (AlltoAll: only Ring/Simple and Ring/LL, the point-to-point path)
     * \param a an algorithm
     * \param p a protocol
     * \param[out] why if not null and the answer is false, the reason in words
     * \return true when the tables give it a bandwidth
     */
    bool IsAvailable(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, std::string* why) const;
    /**
     * \param op a collective
     * \param a an algorithm
     * \param p a protocol
     * \return NCCL's latency for it, us (before size-dependent factors)
     */
    double GetLatencyUs(CollectiveOp op, NcclAlgorithm a, NcclProtocol p) const;
    /**
     * \param op a collective
     * \param a an algorithm
     * \param p a protocol
     * \return NCCL's algorithm bandwidth for it, GB/s (0 = unavailable)
     */
    double GetBandwidthGBps(CollectiveOp op, NcclAlgorithm a, NcclProtocol p) const;
    /**
     * \brief NCCL's predicted time (ncclTopoGetAlgoTime, one operation): the tree correction
     *        for medium sizes, the ring plateau factor (1.4 on sm80+, 1.9 before) for
     *        multi-node Simple AllReduce of at least 64 B per channel and rank.
     * \param op a collective
     * \param a an algorithm
     * \param p a protocol
     * \param bytes size, bytes (nccl-tests convention)
     * \return us, or -1 if unavailable
     */
    double GetTimeUs(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, uint64_t bytes) const;
    /**
     * \brief NCCL's channel count for a collective of \p bytes (topoGetAlgoInfo): the graph's
     *        channels, reduced by one while bytes < channels x threads x threshold (threads
     *        LL 512, LL128 640, Simple 512; thresholds 8, 8, 64 bytes per thread; ring LL x
     *        ranks), at least 1.
     * \param a an algorithm
     * \param p a protocol
     * \param bytes size, bytes
     * \return channels (>= 1)
     */
    uint32_t GetChannels(NcclAlgorithm a, NcclProtocol p, uint64_t bytes) const;
    /**
     * \brief NCCL's choice: the (algorithm, protocol) of minimum predicted time among the
     *        allowed ones, and its channel count.
     * \param op a collective
     * \param bytes size, bytes (> 0)
     * \param algorithms allowed algorithms, bit i = NcclAlgorithm(i) (NCCL_ALGO)
     * \param protocols allowed protocols, bit i = NcclProtocol(i) (NCCL_PROTO)
     * \return the choice; aborts naming the collective and the allowed sets when none of them
     *         can run it
     */
    NcclChoice Select(CollectiveOp op,
                      uint64_t bytes,
                      uint32_t algorithms = ~0u,
                      uint32_t protocols = ~0u) const;

    /**
     * \brief NCCL's pipelining chunk (one loop iteration per channel and rank) for a collective
     *        (src/enqueue.cc): the protocol's step of data, Simple ring CHUNKSTEPS = 4 steps
     *        (2 MiB, in two slices), Simple tree halved down to 128/64/32 KiB while the
     *        channel's part has fewer than depth x 8/4/1 chunks, tree LL128 halved down to 128
     *        and 32 KiB while it has fewer than (1 + log2(nodes) + ppn/10) x 64/ppn and 16/ppn;
     *        NVLS nvlsChunkSize 128 KiB, cut to 64/32/16 KiB below 64/8/2 x channels x GPUs per
     *        node x the chunk; NVLSTree 128 KiB (64 KiB from 4 nodes on), cut to 256/128/64/32
     *        KiB below 32/16/4/1 x channels x GPUs per node x the chunk.
     * \param a an algorithm
     * \param p a protocol
     * \param bytes the collective's size, bytes
     * \param channels its channels (>= 1)
     * \return chunk bytes (>= 1)
     */
    uint64_t GetChunkBytes(NcclAlgorithm a,
                           NcclProtocol p,
                           uint64_t bytes,
                           uint32_t channels) const;

    /**
     * \brief Base latency the executor charges when a rank starts a collective.
     * \param a an algorithm
     * \param p a protocol
     * \return NCCL's base latency (us, as a Time); NVLS and NVLSTree: NCCL's NVLS intra-node
     *         latency (25 us), their multimem operations then cost only the NvlsEngine's own
     */
    Time GetBaseLatency(NcclAlgorithm a, NcclProtocol p) const;
    /**
     * \brief Per-hop latency the executor charges before a send (NCCL's intraLat / interLat:
     *        NVLink (or PCI) table inside a node, network table across nodes; across nodes
     *        the ring's intra hops cost at least the network post overhead, x3 for Simple).
     * \param a an algorithm
     * \param p a protocol
     * \param hop the hop's kind
     * \return the latency (us, as a Time)
     */
    Time GetHopLatency(NcclAlgorithm a, NcclProtocol p, CollectiveHopType hop) const;

    /**
     * \brief The data rate one channel of a rank sends at most under (a, p): NCCL's
     *        per-channel caps (ring LL128 perChMaxRingLl128Bw; tree perChMaxTreeBw, tree LL128
     *        also perChMaxTreeLl128Bw), which stand for the SMs' copy and reduction throughput.
     * \param a an algorithm
     * \param p a protocol
     * \return bytes/s, 0 = no per-channel cap (ring LL and Simple)
     */
    double GetChannelRateCap(NcclAlgorithm a, NcclProtocol p) const;
    /**
     * \brief The data rate all channels of a rank send at most under (a, p): LL's cap
     *        llMaxBw (NCCL: per GPU type on one node, per CPU type across nodes).
     * \param a an algorithm
     * \param p a protocol
     * \return bytes/s, 0 = no cap (LL128, Simple)
     */
    double GetRankRateCap(NcclAlgorithm a, NcclProtocol p) const;

    /**
     * \brief Print the latency/bandwidth table as NCCL's TUNING debug output does ("lat/bw"
     *        per algorithm and protocol, one line per collective), after the graphs.
     * \param os the stream
     */
    void Print(std::ostream& os) const;

  private:
    /// \return the index of NCCL's function table for \p op (AlltoAll: -1)
    static int FunctionIndex(CollectiveOp op);
    /// \return the network post overhead, us
    double NetOverheadUs() const;
    /// \return why NVLS algorithm \p a cannot run on the system (empty: it can)
    std::string NvlsUnavailable(NcclAlgorithm a) const;
    /// Fill m_graphs from the system.
    void BuildGraphs();
    /// Fill the latency and bandwidth tables.
    void BuildTables();

    /// Number of NCCL functions modelled: Broadcast, AllGather, ReduceScatter, AllReduce.
    static constexpr uint32_t NUM_FUNCTIONS = 4;

    GpuArch m_arch;           //!< attribute GpuArch
    CpuVendor m_cpu;          //!< attribute CpuVendor
    Time m_netOverhead;       //!< attribute NetOverhead (negative: by CPU vendor)
    bool m_ll128;             //!< attribute EnableLl128
    bool m_nvls;              //!< attribute EnableNvls
    uint32_t m_nvlsChannels;  //!< attribute NvlsChannels
    uint32_t m_maxChannels;   //!< attribute MaxChannels
    NcclTunerConstants m_c;   //!< constants
    NcclSystem m_system;      //!< the system
    bool m_configured{false}; //!< Configure() ran
    std::array<NcclGraph, NCCL_NUM_ALGORITHMS> m_graphs; //!< per algorithm
    /// Latency (us) per [function][algorithm][protocol].
    double m_latency[NUM_FUNCTIONS][NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS];
    /// Algorithm bandwidth (GB/s) per [function][algorithm][protocol]; 0 = unavailable.
    double m_bandwidth[NUM_FUNCTIONS][NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS];
    /// Why an entry is unavailable (empty: available or not considered).
    std::string m_why[NUM_FUNCTIONS][NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS];
};

} // namespace ns3

#endif /* NCCL_TUNER_H */
