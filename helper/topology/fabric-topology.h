/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: common machinery of the AI cluster topology helpers (servers with an NVSwitch
 * domain, GPUs with RoCE NICs, scale-out switches, addressing, equal-cost forwarding).
 */
#ifndef FABRIC_TOPOLOGY_H
#define FABRIC_TOPOLOGY_H

#include "fabric-partition.h"
#include "fabric-route-computer.h"
#include "fabric-topology-types.h"

#include "ns3/data-rate.h"
#include "ns3/fabric-health-monitor.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-transport-plugin.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-deadlock-detector.h"
#include "ns3/pfc-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-transport-plugin.h"
#include "ns3/switch-helper.h"
#include "ns3/switch-settings.h"
#include "ns3/traced-callback.h"
#include "ns3/uet-nic.h"
#include "ns3/uet-transport-plugin.h"

#include <array>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

struct FabricAggregateCounters;

/**
 * \ingroup ai-fabric-topology
 * \brief Base of the AI cluster topology helpers: builds servers, GPUs, NICs, NVSwitches,
 *        scale-out switches, links, addresses and shortest-path equal-cost forwarding tables,
 *        and gives PointToPointDumbbellHelper-style accessors to the result.
 *
 * Subclasses (RailOptimizedTopologyHelper, RailOnlyTopologyHelper, ClosTopologyHelper) only
 * decide the shape: how many leaf/spine/core switches, which leaf each GPU NIC port is cabled
 * to, and the switch-to-switch links. Everything else is common and described here.
 *
 * <b>Server model.</b> A server holds GpusPerServer GPUs (>= 1). Every GPU is an ns-3 Node
 * with one RoceNic whose ports 0..k-1 (k = NicPortsPerGpu, >= 1) are scale-out NIC ports to
 * the fabric, and whose last port k is its NVLink port, cabled to the server's NVSwitch. The
 * NVSwitch is a FabricSwitch (installed with GetNvSwitchHelper()) whose ports run at
 * NvLinkDataRate (default 2966.4 Gb/s = 370.8 GB/s per direction per GPU: the data rate an
 * H100 sustains over its 18 NVLinks, 20.6 GB/s each in NCCL's sm90 topology model, of the
 * 450 GB/s NVLink 4 signalling rate of NVIDIA DGX H100) over
 * cables of NvLinkDelay (default 150 ns per GPU-NVSwitch hop; an assumption, NVIDIA publishes
 * no per-hop figure); it is lossless for the MMU's lossless priorities (default priority 3,
 * RoCE data) like every FabricSwitch. The NVLink domain is modelled as the transport's packets
 * (RoCE or UET) over a fast switch: a transfer between two GPUs of a server crosses two NVLink
 * cables and one NVSwitch and never the scale-out network. NVSwitches add no HPCC in-band
 * telemetry record (FabricSwitch InBandTelemetry false, set on GetNvSwitchHelper()): NVLink is
 * not an Ethernet hop, so HPCC's INT stack lists the scale-out switches only, its 4-bit link
 * rate code needs no NVLink rate, and an intra-server transfer (no INT hop) runs at line rate.
 *
 * <b>Plain hosts.</b> With the NvLink attribute false a server has no NVSwitch and its GPUs no
 * NVLink port: every GPU ("host") has only its NicPortsPerGpu scale-out ports, cabled to its
 * leaf, and two GPUs of one server talk through that leaf. Nothing NVLink-related is built (no
 * NVSwitch nodes, cables or addresses); GetNvLinkPort(), GetNvSwitch() and GetAddress() of
 * port k abort naming the attribute. FatTreeTopologyHelper builds its single-NIC hosts this way
 * (GpusPerServer 1, NicPortsPerGpu 1, NvLink false).
 *
 * <b>Transports.</b> Install() gives every GPU a transport-neutral NIC core (FabricNic) with
 * all its ports and addresses, then puts the transports the Transports attribute names on it,
 * each through its FabricTransportPlugin (GetTransport(name)), in the order named: "roce" (the
 * default) a RoceNic (RoceTransportPlugin; GetNic(), GetNicHelper()), "uet" an Ultra Ethernet
 * UetNic (UetTransportPlugin; GetUetNic(), GetUetNicHelper()) on the same ports, "roce+uet"
 * both, sharing the core (RoCE on UDP 4791, UET on 4793; the fabric's health monitor watches
 * the core, so it sees the pending work of both); any other registered plug-in by its name.
 * Each installed plug-in then checks every switch (FabricTransportPlugin::CheckSwitch).
 * Collectives choose theirs with CollectiveHelper::SetTransportType.
 *
 * <b>Trimming.</b> Every switch port cabled to a NIC (leaf and NVSwitch down-ports) is marked a
 * last-hop port (FabricSwitch::SetLastHopPort): a packet trimmed there carries the MMU's
 * LastHopTrimDscp instead of TrimDscp (UET: NACK TRIMMED_LASTHOP instead of TRIMMED). With UET
 * installed, Install() aborts, naming the switch, the value and the valid range, when a switch
 * trims UET's data priority with a TrimSize below UetNic::MIN_TRIM_BYTES or trim DSCPs the UET
 * receivers do not recognize (UetNicHelper::CheckSwitchTrimming).
 *
 * <b>Ranks</b> are numbered server-major: rank = server x GpusPerServer + local. The local
 * index is also the GPU's rail (NIC i <-> GPU i <-> rail i, DGX H100).
 *
 * <b>Addressing.</b> Scale-out NIC port p of rank r has address
 * ScaleOutNetwork + 1 + r x k + p; the NVLink port of rank r has NvLinkNetwork + 1 + r
 * (defaults 10.0.0.0 and 10.128.0.0, i.e. two /9 ranges). Both ranges are contiguous, so the
 * dense SwitchForwardingTable of every switch spans only the addresses it routes.
 *
 * <b>Forwarding.</b> At the end of Install() the helper hands the fabric graph (every switch,
 * every cable with its ports, every NIC port address) to a FabricRouteComputer, which writes
 * shortest-path equal-cost routes into every switch's forwarding table: at switch s, the
 * destinations cabled to leaf L share the equal-cost set "every port of s whose neighbour is
 * one hop closer to L" (all parallel links included, so ECMP spreads over every uplink); at L
 * itself the route is the port to the destination. NVSwitches route the NVLink addresses of
 * their own server only; scale-out switches have no routes to NVLink addresses.
 *
 * <b>Link failures.</b> Cables are numbered 0..GetNLinks()-1 in the order of WriteLinksCsv's
 * rows (per rank its scale-out ports then its NVLink port if any, then the switch-to-switch
 * cables);
 * FindLinks() gives the indices of the cables between two nodes. SetLinkUp(i, false) cuts
 * cable i (PfcChannel::SetLinkUp), marks the port down at the switches on either end
 * (FabricSwitch::SetPortUp) and recomputes every forwarding table without it: equal-cost
 * sets shrink, destinations still reachable over longer paths get them, unreachable ones get
 * no route (FabricRouteStats::unreachable, FabricRouteComputer::GetUnreachable);
 * SetLinkUp(i, true) restores both; either fires the LinkState trace (link, up) after the
 * routes are recomputed (FabricTeController re-plans on it). To fail several cables at once, or to
 * let routing converge later than the cut, use GetLinkChannel() and GetRouteComputer() directly.
 * SetLinkDataRate() degrades (or restores) a cable's rate in both directions without touching the
 * routes.
 *
 * <b>Configuration.</b> Shape and link parameters are Attributes of the helper, settable with
 * SetAttribute, Config::SetDefault or on the command line. An attribute is named by the class
 * that registers it, as --PrintAttributes lists it: the common ones (Servers, GpusPerServer,
 * NicPortsPerGpu, GpuLinkDataRate, ...) as --ns3::FabricTopologyHelper::Servers=64 (the default
 * of every topology), those of one topology as --ns3::RailOptimizedTopologyHelper::LeafPorts=32.
 * ns-3's Config::SetDefault (and so CommandLine) looks an attribute up in the named class only,
 * not in its parents; the examples accept --ns3::RailOptimizedTopologyHelper::Servers=64 as well
 * (FabricResolveInheritedAttributes() rewrites it to the registering class). Devices, switches
 * and NICs are configured through the helpers returned by GetPortHelper(), GetSwitchHelper(),
 * GetNvSwitchHelper(), GetNicHelper() and GetUetNicHelper() before Install(); the DataRate of ports
 * and the Delay of cables are always set per tier by the topology (GpuLinkDataRate, NvLinkDataRate
 * and the helper's tier rates such as LeafSpineDataRate): a changed ns3::PfcNetDevice::DataRate or
 * ns3::PfcChannel::Delay default has no effect, and Install() warns about it on stderr.
 *
 * <b>Per-tier switches.</b> Leaf, spine and core switches are installed with GetSwitchHelper()
 * unless a tier has its own settings: SetTierSwitchAttribute(), SetTierMmuAttribute() and
 * SetTierEcnAttribute() record FabricSwitch, SharedBufferMmu and WredEcnMarker attributes for
 * one tier (e.g. a spine BufferSize or SharedPoolSize, ECN Kmin/Kmax/Pmax), replayed on a copy
 * of GetSwitchHelper() when that tier is installed (GetTierSwitchHelper()), so they override
 * the common settings whatever the order of the calls. Without tier settings every switch is
 * installed as before.
 *
 * <b>Port MTU.</b> Every port (NIC and switch) takes the Mtu of the port helper
 * (ns3::PfcNetDevice::Mtu, 9000 B jumbo frames) unless PortMtu sets one, or
 * PortMtuFromTransport makes it the largest IPv4 packet the installed transports send
 * (RoceNicHelper::GetDeviceMtu(): the RoCE path MTU's packets, with the INT stack when the
 * NICs carry HPCC telemetry; UetNic::GetDeviceMtuFor(UET Mtu)). The switch MMU sizes the PFC
 * headroom of every lossless (port, priority) with three of the largest frames its ports can
 * carry (SharedBufferMmu::RequiredHeadroom), so with the 9000 B default a fabric of 1024 B
 * RoCE packets (1088 B IPv4, 1110 B tagged frames) reserves headroom for 9 KB frames: about
 * 3 x 7.9 KB more per (port, lossless priority) than the frames need, taken from the shared
 * pool. Install() aborts, naming both values, when PortMtu is below what the transports
 * need or outside 68..9216.
 *
 * <b>Fabric-wide counters.</b> GetAggregateCounters() sums the counters of every switch, port and
 * NIC per node type (host, nvswitch, leaf, spine, core) and in total: PFC frames sent and
 * received, MMU XOFF/XON decisions, paused time, ECN marks, trims, CNPs, drops by reason
 * (FabricAggregateCounters, printed as CSV rows tier,counter,value).
 *
 * <b>Errors.</b> Install() aborts (NS_ABORT_MSG) before creating anything when the shape is
 * impossible, naming the attribute, its value and what would fit. Accessors abort on
 * out-of-range indices, naming the index and the valid range, and before Install().
 */
class FabricTopologyHelper : public Object, public FabricTransportTarget
{
  public:
    /// A connected QP pair: the QP on the first rank, the QP on the second.
    typedef std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>> QpPair;

    /**
     * TracedCallback signature of LinkState.
     * \param link the cable's link index
     * \param up true if restored, false if cut
     */
    typedef void (*LinkStateCallback)(uint32_t link, bool up);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricTopologyHelper();
    ~FabricTopologyHelper() override;

    // ---- configuration (before Install) ---------------------------------------------------

    /**
     * \brief The link helper used as the template of every port and cable (queues, transmit
     *        scheduler, PFC attributes). DataRate and Delay are overridden per tier.
     * \return a reference, valid for the helper's lifetime
     */
    PfcHelper& GetPortHelper();
    /**
     * \brief The helper that installs leaf, spine and core switches (MMU, ECN, load balancer).
     * \return a reference, valid for the helper's lifetime
     */
    SwitchHelper& GetSwitchHelper() override;
    /**
     * \brief The helper that installs the NVSwitch of every server.
     * \return a reference, valid for the helper's lifetime
     */
    SwitchHelper& GetNvSwitchHelper() override;
    /**
     * \brief The helper that installs the RoceNic of every GPU and connects QPs (NIC
     *        attributes, start PSN randomization, AssignStreams).
     * \return a reference, valid for the helper's lifetime
     */
    RoceNicHelper& GetNicHelper();
    /**
     * \brief The helper that installs the UetNic of every GPU when the Transports attribute
     *        is "uet" or "roce+uet" (NIC attributes with SetNicAttribute, AssignStreams).
     * \return a reference, valid for the helper's lifetime
     */
    UetNicHelper& GetUetNicHelper();
    /**
     * \brief The plug-in of a transport, to configure it before Install() (e.g. its NIC
     *        helper) or to use it after. Created on first use; Install() installs the ones
     *        the Transports attribute names.
     * \param name a registered plug-in's name (FabricTransportPlugin::GetNames(): "roce",
     *        "uet", ...); an input error names the value and the valid names otherwise
     * \return the plug-in, the same object for every call with \p name
     */
    Ptr<FabricTransportPlugin> GetTransport(const std::string& name) const;
    /**
     * \return the plug-ins of the transports the Transports attribute names, in its order
     *         (those Install() installs or installed)
     */
    std::vector<Ptr<FabricTransportPlugin>> GetTransports() const;

    /**
     * \brief Set a FabricSwitch attribute ("ProcessingDelay", "DecrementTtl") for the switches
     *        of one tier only, over GetSwitchHelper()'s (see the class text, per-tier switches).
     * \param tier FabricNodeType::LEAF, SPINE or CORE (aborts naming the valid tiers
     *        otherwise); a tier the fabric does not have is not installed, its settings unused
     * \param name attribute name (aborts naming it if ns3::FabricSwitch has none)
     * \param value its value (aborts if the attribute's checker refuses it)
     */
    void SetTierSwitchAttribute(FabricNodeType tier, std::string name, const AttributeValue& value);
    /**
     * \brief Set a SharedBufferMmu attribute for one tier's switches only (e.g. BufferSize,
     *        SharedPoolSize, Alpha), over GetSwitchHelper()'s.
     * \param tier FabricNodeType::LEAF, SPINE or CORE (aborts otherwise)
     * \param name attribute name (aborts naming it if ns3::SharedBufferMmu has none)
     * \param value its value (aborts when refused by the checker or the MMU's setter)
     */
    void SetTierMmuAttribute(FabricNodeType tier, std::string name, const AttributeValue& value);
    /**
     * \brief Set a WredEcnMarker attribute for one tier's switches only (e.g. Kmin, Kmax, Pmax,
     *        MarkingPoint), over GetSwitchHelper()'s.
     * \param tier FabricNodeType::LEAF, SPINE or CORE (aborts otherwise)
     * \param name attribute name (aborts naming it if ns3::WredEcnMarker has none)
     * \param value its value (aborts when refused by the checker; range checks of the marker's
     *        setters, such as Pmax in [0, 1], abort at Install())
     */
    void SetTierEcnAttribute(FabricNodeType tier, std::string name, const AttributeValue& value);
    /**
     * \param tier FabricNodeType::LEAF, SPINE or CORE (aborts otherwise)
     * \return the helper Install() uses for that tier: a copy of GetSwitchHelper() with the
     *         tier's settings applied (changing the copy changes nothing)
     */
    SwitchHelper GetTierSwitchHelper(FabricNodeType tier) const;
    /**
     * \brief The Mtu every port gets (see the class text, port MTU): PortMtu if set, else with
     *        PortMtuFromTransport the largest IPv4 packet of the transports, else the port
     *        helper's (after Install: the ports' Mtu; before: the ns3::PfcNetDevice::Mtu
     *        default, a Mtu set on GetPortHelper() not included).
     * \return bytes of IPv4 packet (aborts on a PortMtu outside 68..9216 or too small)
     */
    uint32_t GetPortMtu() const;

    /**
     * \brief Build the whole fabric: nodes, ports, cables, switches, NICs, addresses and
     *        forwarding tables. Call once; aborts on a second call or on an impossible shape.
     */
    void Install();
    /// \return true once Install() has completed
    bool IsInstalled() const override;

    // ---- shape ----------------------------------------------------------------------------

    /// \return number of servers (the Servers attribute)
    uint32_t GetNServers() const;
    /// \return GPUs per server (the GpusPerServer attribute)
    uint32_t GetGpusPerServer() const;
    /// \return number of ranks (GPUs) = servers x GPUs per server
    uint32_t GetNRanks() const;
    /// \return scale-out NIC ports per GPU, k (the NicPortsPerGpu attribute)
    uint32_t GetNicPortsPerGpu() const;
    /// \return the RoceNic port index of the NVLink port (= NicPortsPerGpu); aborts when the
    ///         NvLink attribute is false (plain hosts have no NVLink port)
    uint32_t GetNvLinkPort() const;
    /// \return the NvLink attribute: true if servers have an NVSwitch and GPUs an NVLink port
    bool HasNvLink() const;

    /**
     * \param server server index, < GetNServers()
     * \param local GPU index in the server, < GetGpusPerServer()
     * \return the rank, server x GpusPerServer + local (aborts on out-of-range input)
     */
    uint32_t GetRankOf(uint32_t server, uint32_t local) const;
    /**
     * \param rank a rank, < GetNRanks() (aborts otherwise)
     * \return its server
     */
    uint32_t GetServerOf(uint32_t rank) const;
    /**
     * \param rank a rank, < GetNRanks() (aborts otherwise)
     * \return its index in the server, which is also its rail
     */
    uint32_t GetLocalOf(uint32_t rank) const;

    // ---- nodes (after Install) ------------------------------------------------------------

    /**
     * \param server server index, < GetNServers()
     * \param local GPU index in the server, < GetGpusPerServer()
     * \return the GPU's Node (aborts on out-of-range input or before Install)
     */
    Ptr<Node> GetGpu(uint32_t server, uint32_t local) const;
    /**
     * \param rank a rank, < GetNRanks()
     * \return the GPU Node of that rank
     */
    Ptr<Node> GetRank(uint32_t rank) const;
    /// \return every GPU Node, in rank order
    NodeContainer GetGpus() const override;
    /// \return every scale-out switch: leaves, then spines, then cores (after Install)
    std::vector<Ptr<FabricSwitch>> GetScaleOutSwitches() const override;
    /// \return the rate of the GPUs' scale-out links (GetLinkRate(GPU_LEAF))
    DataRate GetHostLinkRate() const override;
    /**
     * \param rank a rank, < GetNRanks()
     * \return the RoceNic of that GPU (ports 0..k-1 scale-out, port k NVLink); aborts if the
     *         transport installer put none on it
     */
    Ptr<RoceNic> GetNic(uint32_t rank) const;
    /**
     * \param rank a rank, < GetNRanks()
     * \return the UetNic of that GPU (ports 0..k-1 scale-out, port k NVLink, the same ports
     *         and addresses as GetNic()); aborts if none was installed on it (Transports is
     *         "roce", or an installer put none)
     */
    Ptr<UetNic> GetUetNic(uint32_t rank) const;
    /**
     * \param rank a rank, < GetNRanks()
     * \return the transport-neutral NIC core of that GPU (same ports as GetNic())
     */
    Ptr<FabricNic> GetNicCore(uint32_t rank) const;
    /**
     * \param rank a rank, < GetNRanks()
     * \param port RoceNic port, 0..k (k = GetNvLinkPort(), the NVLink port)
     * \return the port's IPv4 address (valid before Install too; aborts on bad input)
     */
    Ipv4Address GetAddress(uint32_t rank, uint32_t port) const;

    /**
     * \param server server index, < GetNServers()
     * \return the Node carrying the server's NVSwitch (a FabricSwitch)
     */
    Ptr<Node> GetNvSwitch(uint32_t server) const;
    /// \return number of NVSwitches (one per server; 0 before Install and without NvLink)
    uint32_t GetNNvSwitches() const;

    /**
     * \param i leaf index over the whole fabric, < GetNLeaves() (order: see the subclass)
     * \return the leaf / ToR switch Node (a FabricSwitch is aggregated to it)
     */
    Ptr<Node> GetLeaf(uint32_t i) const;
    /// \return number of leaf (or ToR) switches
    uint32_t GetNLeaves() const;
    /**
     * \param i spine index, < GetNSpines()
     * \return the spine (or pod aggregation) switch Node
     */
    Ptr<Node> GetSpine(uint32_t i) const;
    /// \return number of spine (or pod aggregation) switches; 0 for rail-only
    uint32_t GetNSpines() const;
    /**
     * \param i core index, < GetNCores()
     * \return the core switch Node
     */
    Ptr<Node> GetCore(uint32_t i) const;
    /// \return number of core switches (three-tier Clos only; else 0)
    uint32_t GetNCores() const;
    /**
     * \param rank a rank, < GetNRanks()
     * \param port a scale-out NIC port, < GetNicPortsPerGpu()
     * \return the leaf that NIC port is cabled to
     */
    Ptr<Node> GetLeafOf(uint32_t rank, uint32_t port = 0) const;
    /**
     * \param node any node
     * \return its role in this fabric; aborts if the node is not part of it
     */
    FabricNodeType GetNodeType(Ptr<const Node> node) const;

    // ---- connections ----------------------------------------------------------------------

    /**
     * \brief Create and connect QP pairs between two GPUs (RoceNicHelper::Connect with the
     *        right local ports).
     *
     * Same server: both QPs on the NVLink port (traffic stays in the NVSwitch). Different
     * servers: QP j uses scale-out port j % k on both GPUs, so both ends sit on the same plane
     * (the same leaf when they share a rail and scalable unit) and a dual-port NIC spreads its
     * QPs over both planes. Rail-only fabrics refuse pairs on different rails (see
     * RailOnlyTopologyHelper::GetRelayRank).
     * \param rankA first GPU, < GetNRanks()
     * \param rankB second GPU, < GetNRanks(), != rankA
     * \param nQps QP pairs to create, >= 1
     * \return the pairs, rankA's QP first
     */
    std::vector<QpPair> Connect(uint32_t rankA, uint32_t rankB, uint32_t nQps = 1);
    /**
     * \brief The NIC ports a connection between two GPUs uses, by the rule of Connect(): the
     *        NVLink port on both within a server; across servers scale-out port
     *        \p index % k on both (the same plane). Transports without QPs (UET: one
     *        connection per channel) pass the channel as \p index, so a dual-port NIC spreads
     *        the channels over its planes. Rail-only fabrics refuse pairs on different rails,
     *        as Connect() does.
     * \param rankA first GPU, < GetNRanks()
     * \param rankB second GPU, < GetNRanks(), != rankA
     * \param index QP or channel index
     * \return (port of rankA, port of rankB)
     */
    std::pair<uint32_t, uint32_t> GetConnectionPorts(uint32_t rankA,
                                                     uint32_t rankB,
                                                     uint32_t index = 0) const;

    // ---- summary and export ---------------------------------------------------------------

    /**
     * \param tier a link tier
     * \return number of cables of that tier (parallel cables counted one by one)
     */
    uint64_t GetNLinks(FabricLinkTier tier) const;
    /**
     * \param tier a link tier
     * \return rate of each cable of that tier (0 if the tier is absent)
     */
    DataRate GetLinkRate(FabricLinkTier tier) const;
    /**
     * \param tier a link tier
     * \return propagation delay of each cable of that tier (0 if the tier is absent)
     */
    Time GetLinkDelay(FabricLinkTier tier) const;
    /**
     * \brief The largest unloaded round-trip time between two GPUs over the scale-out
     *        network: a data frame over the longest path (GPU - leaf [- spine [- core - spine]]
     *        - leaf - GPU, the tiers the fabric has) and the frame that acknowledges it back,
     *        each cable adding its tier's serialization time of preamble + frame and its delay,
     *        each switch its ProcessingDelay (the scale-out switches'); NVLink paths are
     *        shorter and not counted. The transports' congestion control takes it as the base
     *        RTT (e.g. NSCC's BaseRtt). FatTreeTopologyHelper::GetMaxUnloadedRtt() is this
     *        with UET's data and ACK frames.
     * \param dataFrameBytes a full data frame, Ethernet header to FCS (without preamble)
     * \param ackFrameBytes the acknowledgement frame, Ethernet header to FCS
     * \return the RTT (aborts before Install)
     */
    Time GetMaxUnloadedRtt(uint32_t dataFrameBytes, uint32_t ackFrameBytes) const override;
    /**
     * \brief Scale-out bisection bandwidth: the minimum, over the scale-out tiers present
     *        (gpu-leaf, leaf-spine, spine-core), of half the tier's aggregate capacity; the
     *        capacity across the worst cut of the GPUs into two equal halves for the symmetric
     *        shapes built here. NVLink is not counted. In a rail-only fabric cross-rail
     *        traffic needs an NVLink relay to reach it.
     * \return bits/s, one direction
     */
    uint64_t GetBisectionBandwidth() const;
    /**
     * \brief Leaf oversubscription as designed: the downlink capacity of a full leaf (every
     *        server slot / rack port cabled) / its uplink capacity. It is at most the requested
     *        Oversubscription (uplinks are rounded up) and 1 for a non-blocking fabric.
     * \return the ratio, or 0 when leaves have no uplinks (rail-only)
     */
    double GetOversubscription() const;
    /**
     * \brief Print a human-readable summary: GPUs, servers, switches per tier, links per tier
     *        with rate and delay, bisection bandwidth, oversubscription.
     * \param os the stream
     */
    void Print(std::ostream& os) const;
    /// \return number of cables, all tiers (the rows of WriteLinksCsv; link indices 0..n-1)
    uint32_t GetNLinks() const;
    /**
     * \brief The cables between two nodes (parallel cables each), in link index order.
     * \param a a node of this fabric
     * \param b another node of this fabric (order of \p a and \p b does not matter)
     * \return their link indices; empty if they are not cabled together (aborts before
     *         Install or if a node is not part of this fabric)
     */
    std::vector<uint32_t> FindLinks(Ptr<const Node> a, Ptr<const Node> b) const;
    /**
     * \param link a link index, < GetNLinks() (aborts naming the index and the valid range)
     * \return the cable's channel (PfcChannel::SetLinkUp cuts it in the data plane only)
     */
    Ptr<PfcChannel> GetLinkChannel(uint32_t link) const;
    /**
     * \brief Bytes one end of a cable has put on it so far, all priorities (its port's
     *        PfcPortCounters::txBytes): the load of one direction of the link.
     * \param link a link index, < GetNLinks() (aborts naming the index and the valid range)
     * \param from one of the cable's two nodes (aborts naming the node otherwise)
     * \return bytes sent from \p from into the cable
     */
    uint64_t GetLinkTxBytes(uint32_t link, Ptr<const Node> from) const;
    /**
     * \brief The route computer that wrote the forwarding tables, to fail or restore several
     *        links before one FabricRouteComputer::Compute(). Its link indices are this
     *        helper's link indices.
     * \return the computer (aborts before Install)
     */
    Ptr<FabricRouteComputer> GetRouteComputer() const;
    /**
     * \brief The fabric's health monitor, created by Install() watching every GPU's NIC
     *        core (nodes named "gpu3", "leaf1", ... in its diagnoses): a run that makes no
     *        progress for its StallTime (ns3::FabricHealthMonitor::StallTime, 1 s) stops
     *        with a diagnosis; call ReportEndOfRun() after Simulator::Run().
     * \return the monitor (aborts before Install)
     */
    Ptr<FabricHealthMonitor> GetHealthMonitor() const;
    /**
     * \brief Watch every switch (scale-out and NVSwitch) for PFC deadlocks: a
     *        PfcDeadlockDetector (ns3::PfcDeadlockDetector attributes) naming nodes as the health
     *        monitor does and attached to it (its stall diagnosis lists the cycles). Install()
     *        calls it when the DeadlockDetection attribute is true; off by default. Calling it
     *        again returns the same detector.
     * \return the detector (aborts before Install)
     */
    Ptr<PfcDeadlockDetector> EnableDeadlockDetection();
    /// \return the deadlock detector, or null unless EnableDeadlockDetection() was called
    Ptr<PfcDeadlockDetector> GetDeadlockDetector() const;
    /**
     * \brief Pin a static route (FabricRouteComputer::SetStaticRoute), e.g. a detour a
     *        controller installs after a failure: at switch \p sw, every scale-out NIC address
     *        behind \p dst (a GPU's ports, or every NIC port cabled to a leaf) goes over every
     *        cable between \p sw and \p via, whatever the computed routes say, at this and
     *        every later route computation (SetLinkUp, FaultHelper convergence) until
     *        ClearStaticRoutes(). The routes are recomputed now. A detour that goes down to a
     *        leaf and up again breaks up-down routing and can deadlock PFC.
     * \param sw a scale-out switch of this fabric
     * \param dst a GPU or a leaf of this fabric
     * \param via a node cabled to \p sw
     * \return the route computation's statistics
     * Input errors name the node and what is valid (before Install, a node of another fabric,
     * \p sw not a scale-out switch, \p dst neither a GPU nor a leaf with NICs, \p via not
     * cabled to \p sw).
     */
    const FabricRouteStats& SetStaticRoute(Ptr<Node> sw, Ptr<Node> dst, Ptr<Node> via);
    /**
     * \brief Remove every static route and recompute the routes (the fix of a detour that
     *        broke up-down routing).
     * \return the route computation's statistics (aborts before Install)
     */
    const FabricRouteStats& ClearStaticRoutes();
    /**
     * \param nodeId a node id
     * \return its name in this fabric ("gpu3", "nvswitch0", "leaf1", "spine0", "core2"), or
     *         "node <id>" if it is not part of it
     */
    std::string GetNodeName(uint32_t nodeId) const;
    /**
     * \brief Which MPI process (ns-3 system) simulates which node (Systems, PartitionBy).
     * \return the partition Install() computed (aborts before Install); node indices are
     *         node id - the fabric's first node id (GPUs, NVSwitches, leaves, spines, cores)
     */
    const FabricPartition& GetPartition() const;
    /**
     * \brief Fail or restore one cable: cut or restore its channel (both directions) and
     *        recompute every forwarding table for the new link state.
     * \param link a link index, < GetNLinks() (aborts naming the index and the valid range)
     * \param up false = fail, true = restore
     * \return the route computation's statistics (routes, unreachable (switch, host) pairs)
     */
    const FabricRouteStats& SetLinkUp(uint32_t link, bool up);
    /**
     * \brief Fire the LinkState trace: for code that cuts or restores cables and recomputes
     *        the routes itself (FaultHelper with a ConvergenceDelay), once the routes are
     *        recomputed. SetLinkUp() fires it by itself.
     * \param link a link index, < GetNLinks() (aborts naming the index and the valid range)
     * \param up true if restored, false if cut
     */
    void NotifyLinkState(uint32_t link, bool up);
    /**
     * \brief Degrade or restore one cable: set the rate of both its ports
     *        (PfcNetDevice::SetDataRate; frames already being sent keep their old timing). The
     *        forwarding tables are not recomputed: equal-cost sets depend on hops, not rates,
     *        so the slower cable keeps its share of the flows (as a degraded link in a real
     *        fabric, and in htsim). Exports (WriteLinksCsv, Print) keep the planned tier rate.
     * \param link a link index, < GetNLinks() (aborts naming the index and the valid range)
     * \param rate the new rate, > 0 bit/s (aborts naming the value otherwise)
     */
    void SetLinkDataRate(uint32_t link, DataRate rate);

    /**
     * \brief Write every cable as CSV:
     *        node_a,type_a,port_a,node_b,type_b,port_b,rate_bps,delay_ns. Nodes are named
     *        gpu&lt;rank&gt;, nvswitch&lt;server&gt;, leaf&lt;i&gt;, spine&lt;i&gt;,
     *        core&lt;i&gt;; ports are RoceNic / FabricSwitch port indices.
     * \param path output file (aborts naming it if it cannot be written)
     */
    void WriteLinksCsv(const std::string& path) const;
    /**
     * \brief Write the fabric as an undirected GraphViz graph (one edge per cable).
     * \param path output file (aborts naming it if it cannot be written)
     */
    void WriteDot(const std::string& path) const;
    /// \return wall-clock cost of Install() by phase
    const FabricBuildStats& GetBuildStats() const;
    /**
     * \brief Sum the counters of every node of the fabric, per node type and in total, at the
     *        time of the call (see FabricAggregateCounters for what each counter counts).
     * \return the sums (aborts before Install)
     */
    FabricAggregateCounters GetAggregateCounters() const;

    /**
     * \brief Estimate the memory a planned fabric needs once built, before building it.
     *
     * A linear model calibrated on this module's builds (maxrss of topology-summary, 256 to
     * 4096 GPUs, rail-optimized and 2/3-tier Clos; within about 15 % there): a fixed 18 MiB,
     * 20 KiB per cable (two ports with their queues, the channel, the NIC or switch port
     * state), 4 KiB per node and 8 B per forwarding entry (every scale-out switch holds one
     * per scale-out NIC address). Traffic state (QPs, collectives, queued frames) comes on
     * top.
     * \param nNodes GPUs + NVSwitches + scale-out switches
     * \param nCables every cable (GPU-leaf, NVLink, switch-to-switch)
     * \param nForwardingEntries forwarding entries of all switches
     * \return estimated bytes
     */
    static uint64_t EstimateMemoryBytes(uint64_t nNodes,
                                        uint64_t nCables,
                                        uint64_t nForwardingEntries);
    /**
     * \brief The memory the process may still use: MemAvailable of /proc/meminfo (Linux),
     *        else the physical memory (sysconf), else 0 (unknown).
     * \return bytes (0 = unknown)
     */
    static uint64_t GetAvailableMemoryBytes();

  protected:
    void DoDispose() override;

    /**
     * \brief First step of Install(), before anything is checked or planned: a subclass may
     *        derive the common attributes (m_servers, m_gpusPerServer, ...) and configure the
     *        port, switch and NIC helpers from its own attributes. The default does nothing.
     */
    virtual void DoConfigure();
    /**
     * \brief Called at the end of Install(), when nodes, NICs and routes exist: a subclass
     *        finishes what needs the built fabric (e.g. the NICs' path RTTs). Default: nothing.
     */
    virtual void DoInstalled();
    /**
     * \brief One cable's share of an unloaded RTT: a data frame serialized one way (preamble +
     *        frame at \p rate), its ACK the other, and the cable's delay both ways.
     * \param rate the cable's rate
     * \param delay its propagation delay
     * \param dataFrameBytes the data frame, header through FCS, bytes
     * \param ackFrameBytes the ACK frame, bytes
     * \return the time
     */
    static Time CableRoundTrip(DataRate rate,
                               Time delay,
                               uint32_t dataFrameBytes,
                               uint32_t ackFrameBytes);
    /// \return the fabric kind printed in summaries ("rail-optimized", "rail-only", "clos")
    virtual std::string GetKindName() const = 0;
    /**
     * \brief Validate the subclass attributes and plan the scale-out switches: call
     *        SetSwitchCounts(), SetTier() for every scale-out tier, AddFabricLink() for every
     *        switch-to-switch cable. Abort on an impossible shape. Nothing is created yet.
     */
    virtual void DoPlan() = 0;
    /**
     * \param server server index
     * \param local GPU index in the server
     * \param port scale-out NIC port, < k
     * \return the index (< leaves) of the leaf that NIC port is cabled to
     */
    virtual uint32_t DoGetLeafIndex(uint32_t server, uint32_t local, uint32_t port) const = 0;
    /**
     * \brief Check that two GPUs of different servers can have a direct QP; abort otherwise.
     *        The default accepts every pair.
     * \param rankA first rank
     * \param rankB second rank
     */
    virtual void DoCheckConnect(uint32_t rankA, uint32_t rankB) const;
    /// \return true if every leaf must reach every other leaf (false for rail-only)
    virtual bool DoRequiresFullReach() const;
    /**
     * \brief Print the subclass's shape line(s) of the summary.
     * \param os the stream
     */
    virtual void DoPrintShape(std::ostream& os) const = 0;

    /**
     * \brief Declare the scale-out switches (DoPlan). Indices: leaves 0..nLeaves-1, spines
     *        nLeaves.., cores after the spines.
     * \param nLeaves leaves (>= 1)
     * \param nSpines spines (or aggregation switches)
     * \param nCores core switches
     */
    void SetSwitchCounts(uint32_t nLeaves, uint32_t nSpines, uint32_t nCores);
    /**
     * \brief Set the rate and delay of a scale-out tier's cables (DoPlan).
     * \param tier LEAF_SPINE or SPINE_CORE
     * \param rate cable rate (> 0; aborts naming \p attribute otherwise)
     * \param delay cable delay (>= 0)
     * \param attribute name of the rate attribute, for messages
     */
    void SetTier(FabricLinkTier tier, DataRate rate, Time delay, const std::string& attribute);
    /**
     * \brief Plan one cable between two scale-out switches (DoPlan). Call several times for
     *        parallel cables; ports are numbered in call order after the GPU ports.
     * \param a lower-tier switch index (leaf, or spine for SPINE_CORE)
     * \param b upper-tier switch index
     * \param tier LEAF_SPINE or SPINE_CORE
     */
    void AddFabricLink(uint32_t a, uint32_t b, FabricLinkTier tier);
    /**
     * \brief Record the designed leaf oversubscription (DoPlan; default 0 = no uplinks).
     * \param down downlink capacity of a full leaf, bits/s
     * \param up uplink capacity of a leaf, bits/s
     */
    void SetLeafCapacity(double down, double up);

    /**
     * \brief Number of uplinks a switch needs for \p down downlinks of rate \p downRate so that
     *        down bandwidth / up bandwidth <= \p oversubscription.
     * \param down number of downlinks
     * \param downRate rate of each downlink
     * \param upRate rate of each uplink (> 0)
     * \param oversubscription ratio, >= 1
     * \return ceil(down x downRate / (oversubscription x upRate)), at least 1 if down > 0
     */
    static uint32_t UplinksFor(uint32_t down,
                               DataRate downRate,
                               DataRate upRate,
                               double oversubscription);
    /**
     * \brief Choose how many upper-tier switches share the uplinks of \p nLower lower-tier
     *        switches, every lower switch cabled to every upper switch with
     *        uplinks / count parallel cables (DoPlan helper).
     *
     * With \p requested = 0 the count is the smallest divisor of \p uplinks whose switches
     * have enough ports (nLower x uplinks / count <= upperPorts). Aborts, naming the
     * attributes, when \p requested does not divide \p uplinks, when the upper switches have
     * too few ports, or when no count fits.
     * \param requested the user's count (0 = automatic)
     * \param countAttr name of the count attribute ("Spines", "Cores", ...)
     * \param uplinks uplinks of each lower switch (>= 1)
     * \param nLower number of lower switches
     * \param lowerName plural name of the lower switches ("leaves", ...)
     * \param upperPorts ports of each upper switch
     * \param portsAttr name of the ports attribute ("SpinePorts", ...)
     * \return the count
     */
    uint32_t PlanUpperTier(uint32_t requested,
                           const std::string& countAttr,
                           uint32_t uplinks,
                           uint32_t nLower,
                           const std::string& lowerName,
                           uint32_t upperPorts,
                           const std::string& portsAttr) const;
    /**
     * \param n a positive integer
     * \return its divisors as "1, 2, 4, 8" (for error messages)
     */
    static std::string Divisors(uint32_t n);
    /**
     * \brief Name of a scale-out switch for messages and exports ("leaf3", "spine0", ...).
     * \param index scale-out switch index (leaves, then spines, then cores)
     * \return the name
     */
    std::string SwitchName(uint32_t index) const;
    /// Abort with a message naming \p what unless Install() has completed.
    void CheckInstalled(const char* what) const;
    /// Abort unless \p rank < GetNRanks(), naming \p what.
    void CheckRank(uint32_t rank, const char* what) const;

    uint32_t m_servers;          //!< attribute Servers
    uint32_t m_gpusPerServer;    //!< attribute GpusPerServer
    uint32_t m_portsPerGpu;      //!< attribute NicPortsPerGpu
    DataRate m_gpuLinkRate;      //!< attribute GpuLinkDataRate
    Time m_gpuLinkDelay;         //!< attribute GpuLinkDelay
    DataRate m_nvLinkRate;       //!< attribute NvLinkDataRate
    Time m_nvLinkDelay;          //!< attribute NvLinkDelay
    Ipv4Address m_scaleOutNet;   //!< attribute ScaleOutNetwork
    Ipv4Address m_nvLinkNet;     //!< attribute NvLinkNetwork
    bool m_nvLink;               //!< attribute NvLink
    uint32_t m_portMtu;          //!< attribute PortMtu (0 = the port helper's)
    bool m_portMtuFromTransport; //!< attribute PortMtuFromTransport
    std::string m_transports;    //!< attribute Transports

  private:
    /// One cable, for summaries and exports (node indices: GPUs, NVSwitches, then switches).
    struct Link
    {
        uint32_t a;          //!< global node index of one end
        uint32_t b;          //!< global node index of the other end
        uint32_t portA;      //!< port index at a
        uint32_t portB;      //!< port index at b
        FabricLinkTier tier; //!< tier
    };

    /// A planned switch-to-switch cable.
    struct PlannedLink
    {
        uint32_t a;          //!< scale-out switch index
        uint32_t b;          //!< scale-out switch index
        FabricLinkTier tier; //!< tier
    };

    /// Abort on invalid common attributes.
    void CheckCommon() const;
    /// \return the systems to partition into: the MPI run's processes (input error if the
    ///         Systems attribute names another count)
    uint32_t GetSystemsToUse() const;
    /// With MPI and cables between processes: give those cables this process's
    /// PfcRemoteExchange (frames between processes in batches).
    void ConnectProcesses();
    /// \return every cable Install() will make, by node index (after DoPlan)
    std::vector<FabricPartition::Cable> PlanCables() const;
    /**
     * Warn (stderr, "ai-fabric warning: ...") when the default of ns3::PfcNetDevice::DataRate
     * or ns3::PfcChannel::Delay was changed (Config::SetDefault, --ns3::PfcNetDevice::DataRate):
     * the topology sets both per link tier, so such a default has no effect; the warning names
     * the tier attributes of this helper that do.
     */
    void WarnIgnoredPortDefaults() const;
    /**
     * Warn (stderr) when out-of-order placement was asked for (a changed default of
     * ns3::RoceNic::OutOfOrderWindow) on a fabric without RoCE NICs: no installed transport
     * can use it (UET's RUD delivers out-of-order packets by design).
     */
    void WarnIgnoredPlacement() const;
    /// Create one cable of a tier; record it.
    void MakeLink(FabricLinkTier tier, uint32_t globalA, uint32_t globalB);
    /// Hand the fabric graph to a new route computer, compute and write every table.
    void ComputeRoutes();
    /// Give every scale-out switch's load balancer its place (SwitchFabricInfo): leaf index,
    /// host ports, port rates and the leaf of every GPU address.
    void InformLoadBalancers();
    /// Abort unless \p link is a link index, naming \p what.
    void CheckLink(uint32_t link, const char* what) const;
    /// \return the node of a global index
    Ptr<Node> GlobalNode(uint32_t index) const;
    /// \return name of a global node index ("gpu3", "nvswitch0", "leaf1", ...)
    std::string GlobalName(uint32_t index) const;
    /// \return type of a global node index
    FabricNodeType GlobalType(uint32_t index) const;
    /// \return NVSwitch nodes of the plan: one per server with NvLink, else 0
    uint32_t NvSwitchCount() const;
    /**
     * \param tier a node type
     * \param what the caller, for the message
     * \return the index of the tier's switch settings (aborts unless LEAF, SPINE or CORE)
     */
    std::size_t TierIndex(FabricNodeType tier, const char* what) const;
    /// \return the largest IPv4 packet the transports the Transports attribute names send
    uint32_t TransportDeviceMtu() const;

    PfcHelper m_portHelper;                             //!< template of every port and cable
    SwitchHelper m_switchHelper;                        //!< scale-out switches
    SwitchHelper m_nvSwitchHelper;                      //!< NVSwitches
    std::array<SwitchSettings, 3> m_tierSwitchSettings; //!< leaf, spine, core settings
    mutable FabricTransportSet m_transportSet;          //!< plug-ins made so far
    Ptr<FabricRouteComputer> m_routes;                  //!< forwarding tables (after Install)
    TracedCallback<uint32_t, bool> m_linkStateTrace;    //!< trace LinkState
    Ptr<FabricHealthMonitor> m_monitor;                 //!< stall detection (after Install)
    Ptr<PfcDeadlockDetector> m_deadlockDetector;        //!< EnableDeadlockDetection()
    bool m_deadlockDetection;                           //!< attribute DeadlockDetection
    uint32_t m_systems;                                 //!< attribute Systems
    FabricPartitionBy m_partitionBy;                    //!< attribute PartitionBy
    std::shared_ptr<FabricPartition> m_partition;       //!< set by Install()
    std::array<PfcHelper, size_t(FabricLinkTier::COUNT)> m_tierHelper; //!< per tier
    std::array<DataRate, size_t(FabricLinkTier::COUNT)> m_tierRate;    //!< per tier
    std::array<Time, size_t(FabricLinkTier::COUNT)> m_tierDelay;       //!< per tier
    std::array<uint64_t, size_t(FabricLinkTier::COUNT)> m_tierLinks;   //!< cables per tier

    uint32_t m_nLeaves;                  //!< leaves
    uint32_t m_nSpines;                  //!< spines / aggregation
    uint32_t m_nCores;                   //!< cores
    double m_leafOversubscription;       //!< designed leaf down/up bandwidth (0 = no uplinks)
    std::vector<PlannedLink> m_planned;  //!< switch-to-switch cables
    NodeContainer m_gpus;                //!< GPU nodes by rank
    std::vector<Ptr<RoceNic>> m_nics;    //!< RoceNic by rank (null without RoCE)
    std::vector<Ptr<UetNic>> m_uetNics;  //!< UetNic by rank (null without UET)
    std::vector<Ptr<FabricNic>> m_cores; //!< NIC core by rank
    NodeContainer m_nvSwitches;          //!< NVSwitch nodes by server
    NodeContainer m_switches;            //!< scale-out switch nodes by index
    std::vector<uint32_t> m_attachLeaf;  //!< leaf of NIC port (rank x k + port)
    std::vector<uint32_t> m_attachPort;  //!< leaf port of NIC port (rank x k + port)
    std::vector<Link> m_links;           //!< every cable
    uint32_t m_firstNodeId;              //!< ns-3 id of the first node created
    bool m_installed;                    //!< Install() done
    FabricBuildStats m_stats;            //!< build cost
    uint64_t m_memoryLimit;              //!< attribute MemoryLimit (0 = available memory)
};

/**
 * \brief Print a topology summary (FabricTopologyHelper::Print).
 * \param os the stream
 * \param topology the topology
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, const FabricTopologyHelper& topology);

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_H */
