/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the one interface through which helpers use a transport (RoCEv2, Ultra Ethernet,
 * or a user's own): install it on a NIC core, size the ports for it, check the switches,
 * carry a flow workload's messages and name its collective transport.
 */
#ifndef FABRIC_TRANSPORT_PLUGIN_H
#define FABRIC_TRANSPORT_PLUGIN_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FabricNic;
class FabricSwitch;
class Node;
class SwitchHelper;

/**
 * \ingroup ai-fabric-transport
 * \brief The fabric a transport plug-in sets itself up on (FabricTransportPlugin::
 *        ConfigureFabric before the fabric is installed, FinishFabric after): what it may
 *        read and change of the switches and hosts. FabricTopologyHelper implements it.
 */
class FabricTransportTarget
{
  public:
    virtual ~FabricTransportTarget();
    /// \return true once the fabric is installed
    virtual bool IsInstalled() const = 0;
    /// \return the helper of the scale-out switches (settings for Install)
    virtual SwitchHelper& GetSwitchHelper() = 0;
    /// \return the helper of the NVSwitches (settings for Install)
    virtual SwitchHelper& GetNvSwitchHelper() = 0;
    /// \return every scale-out switch, leaves first, then spines, then cores (installed)
    virtual std::vector<Ptr<FabricSwitch>> GetScaleOutSwitches() const = 0;
    /// \return the hosts (GPUs), by rank (installed)
    virtual NodeContainer GetGpus() const = 0;
    /// \return the rate of the hosts' scale-out links, bits/s (installed)
    virtual DataRate GetHostLinkRate() const = 0;
    /**
     * \param dataFrameBytes a full data frame, bytes
     * \param ackFrameBytes its acknowledgement's frame, bytes
     * \return the largest unloaded RTT between two hosts (installed)
     */
    virtual Time GetMaxUnloadedRtt(uint32_t dataFrameBytes, uint32_t ackFrameBytes) const = 0;
};

/**
 * \ingroup ai-fabric-transport
 * \brief How one message of a transport is framed on the wire, for ideal (unloaded) flow
 *        completion times: a message of B bytes is ceil(B / mtu) packets of at most \c mtu
 *        payload bytes, each with \c perPacket bytes beyond its payload on the wire (headers,
 *        trailers, FCS, preamble and inter-frame gap), the first one \c firstExtra bytes more,
 *        and the message completes with one acknowledgement of \c ack wire bytes.
 */
struct FabricPacketFormat
{
    uint32_t mtu{0};        //!< payload bytes per full packet (> 0)
    uint32_t perPacket{0};  //!< wire bytes beyond the payload, every packet
    uint32_t firstExtra{0}; //!< extra wire bytes of the first packet (e.g. RoCE's RETH)
    uint32_t ack{0};        //!< wire bytes of the acknowledgement that completes a message
};

/**
 * \ingroup ai-fabric-transport
 * \brief The outcome of one message posted on a FabricMessageService.
 */
struct FabricMessageResult
{
    bool ok{false};              //!< delivered and acknowledged
    Time postTime;               //!< when it was posted
    Time endTime;                //!< when the sender learnt its outcome
    uint64_t retransmissions{0}; //!< its packets sent again
    std::string error;           //!< why it failed ("" when ok)
};

/**
 * \ingroup ai-fabric-transport
 * \brief A host's transport counters in the terms operators use, summed over its flows (RoCE
 *        QPs, UET PDCs); a transport leaves 0 what it does not have.
 */
struct FabricTransportCounters
{
    uint64_t retransmissions{0}; //!< data packets sent again (RoCE go-back-N, UET)
    uint64_t timeouts{0};        //!< RoCE local ACK timeouts, UET RTO expirations
    uint64_t nacks{0};           //!< NAKs / NACKs received by the senders
    /// Data packets that arrived ahead of the next expected PSN (out of sequence: reordered
    /// by the fabric or after a loss; RoCE drops them and NAKs, UET RUD delivers them).
    uint64_t outOfOrder{0};
    uint64_t trimNacks{0};      //!< UET NACK TRIMMED / TRIMMED_LASTHOP received
    uint64_t cnpsTx{0};         //!< CNPs sent (RoCE DCQCN notification points)
    uint64_t cnpsRx{0};         //!< CNPs received (RoCE DCQCN reaction points)
    uint64_t ceRx{0};           //!< CE-marked data packets received (RoCE)
    uint64_t bytesPosted{0};    //!< bytes of the operations posted (UET)
    uint64_t bytesCompleted{0}; //!< bytes of the operations completed successfully (UET)
    uint64_t bytesDelivered{0}; //!< bytes delivered to the targets (UET)
    uint64_t opsFailed{0};      //!< operations completed in error (UET)

    /// Add \p o to these counters. \param o other counters
    void Add(const FabricTransportCounters& o);
};

/**
 * \ingroup ai-fabric-transport
 * \brief One flow of a host's transport with its own counters (a RoCE queue pair), for
 *        per-flow monitoring (FabricMonitor's "qp" level; `ethtool -S` / `rdma statistic`
 *        per QP on a ConnectX NIC).
 */
struct FabricFlowCounters
{
    uint32_t id{0};                   //!< the flow's number on its host (RoCE: the QPN)
    uint32_t port{0};                 //!< the NIC port it sends on
    uint8_t priority{0};              //!< the priority of its data packets (0..7)
    FabricTransportCounters counters; //!< its counters (what the transport counts per flow)
};

/**
 * \ingroup ai-fabric-transport
 * \brief What a FabricMessageService needs to know of the ranks it joins.
 */
struct FabricMessageServiceSetup
{
    /// Ports of the \p index-th connection from rank src to rank dst: (src port, dst port).
    typedef Callback<std::pair<uint32_t, uint32_t>, uint32_t, uint32_t, uint32_t> PortsCallback;
    /// Unloaded round-trip time of one full packet and its acknowledgement from src to dst.
    typedef Callback<Time, uint32_t, uint32_t> RttCallback;

    std::vector<Ptr<Node>> nodes; //!< the node of each rank (rank i = nodes[i]), none null
    PortsCallback ports;          //!< the topology's connection ports (null: port 0 each)
    RttCallback unloadedRtt;      //!< the path's unloaded RTT (null: the NIC's own default)
};

/**
 * \ingroup ai-fabric-transport
 * \brief A transport's messages between the ranks of a fabric: what a flow workload
 *        (FlowWorkloadRunner) posts, one message per flow, without knowing the transport.
 *
 * Created by FabricTransportPlugin::CreateMessageService for a set of ranks. Post() sends
 * \p bytes from rank src to rank dst as one operation of the transport (an RDMA WRITE over
 * RoCEv2, an SES WRITE over Ultra Ethernet) and reports its FabricMessageResult to the
 * callback when the sender learns its outcome.
 */
class FabricMessageService : public Object
{
  public:
    /// Receives a message's outcome.
    typedef Callback<void, const FabricMessageResult&> DoneCallback;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~FabricMessageService() override;

    /**
     * \brief Send one message.
     * \param src source rank (< the setup's nodes; the caller checks)
     * \param dst destination rank (!= src)
     * \param bytes message length, 1..GetMaxMessageBytes() of the plug-in
     * \param pathRtt the path's unloaded RTT (for congestion controls that start from it)
     * \param done called once with the outcome
     */
    virtual void Post(uint32_t src,
                      uint32_t dst,
                      uint64_t bytes,
                      Time pathRtt,
                      DoneCallback done) = 0;
    /**
     * \param src source rank
     * \param dst destination rank
     * \return how a message from \p src to \p dst is framed (for its ideal FCT)
     */
    virtual FabricPacketFormat GetPacketFormat(uint32_t src, uint32_t dst) const = 0;
    /**
     * \param src source rank
     * \param dst destination rank
     * \return the NIC ports a message from \p src to \p dst leaves and enters by
     */
    virtual std::pair<uint32_t, uint32_t> GetPorts(uint32_t src, uint32_t dst) const = 0;
    /// \return the congestion control of the NICs, as FabricCongestionOps::GetName() names it
    virtual std::string GetCongestionControlName() const = 0;
    /// \return connections opened so far (RoCE QP pairs; 0 for connectionless transports)
    virtual uint64_t GetConnections() const;
    /**
     * \brief Whether messages can run across MPI processes, each posted in its source's
     *        process only (FlowWorkloadRunner): the transport's state at the destination
     *        must not depend on what only the source's process sees.
     * \return "" when they can (the default: a connectionless transport whose target opens
     *         its state on the first packet, as UET's PDCs), else why not (one sentence)
     */
    virtual std::string GetProcessLimit() const;
};

/**
 * \ingroup ai-fabric-transport
 * \brief A transport as helpers see it: RoCEv2 (RoceTransportPlugin, "roce"), Ultra Ethernet
 *        (UetTransportPlugin, "uet"), or any other subclass registered with ns-3's TypeId
 *        system. Topology, traffic and collective helpers use only this interface, so a new
 *        transport plugs in without touching them.
 *
 * <b>Names.</b> Each plug-in has a short name (GetName(): "roce", "uet"), unique among the
 * registered plug-ins, by which the topologies' Transports attribute ("roce", "uet",
 * "roce+uet": several joined by '+'), CollectiveHelper::SetTransportType and the examples'
 * --transport options choose it. Create() finds the plug-in of a name among every
 * registered TypeId that is a child of this one and has a constructor; a plug-in defined in
 * a program or a test is found as soon as its TypeId is registered (NS_OBJECT_ENSURE_REGISTERED).
 *
 * <b>Life cycle.</b> A topology creates one plug-in object per transport it installs, before
 * Install(), so that its NIC settings can be made on it (e.g. RoceTransportPlugin's
 * RoceNicHelper). Install() gives every host a transport-neutral NIC core (FabricNic) with all
 * its ports and addresses and calls Install(node, core) of each plug-in in the Transports
 * order; then CheckSwitch() with each switch, so that a transport can refuse a switch setting
 * it cannot work with, naming the switch.
 *
 * Subclasses declare two read-only attributes of their TypeId, so that the registry reads
 * them without creating an object (creating one may draw a random stream number): "Name", the
 * short name (TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT, a StringValue,
 * MakeStringAccessor(&FabricTransportPlugin::m_name), MakeStringChecker()), and
 * "CollectiveTransport", the TypeId of the transport's CollectiveTransport (a TypeIdValue,
 * MakeTypeIdAccessor(&FabricTransportPlugin::m_collectiveTransport), MakeTypeIdChecker()).
 * A plug-in may also declare named configurations ("presets", e.g. "roce-dcqcn", "uet-nscc")
 * that experiment drivers accept by name (TransportComparison's Configurations,
 * roce-vs-uet's --configs): a read-only "Presets" attribute (a StringValue,
 * MakeStringAccessor(&FabricTransportPlugin::m_presets)) lists them as
 * "variant=Attribute:value,Attribute:value;variant=..." (preset name = Name + "-" + variant)
 * and "PresetsText" (MakeStringAccessor(&FabricTransportPlugin::m_presetsText)) says them in
 * one phrase for error messages (e.g. "roce-dcqcn, roce-pfc").
 * They implement GetDisplayName(), Install(), IsInstalledOn(), GetDeviceMtu(), CheckMtu(),
 * GetDataPriority(), GetCongestionControlNames() (the values of their CongestionControl
 * attribute) and CreateMessageService(), and set up a fabric for themselves where they need
 * to (ConfigureFabric, FinishFabric, Describe).
 */
class FabricTransportPlugin : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~FabricTransportPlugin() override;

    /**
     * \brief Create the registered plug-in named \p name.
     * \param name a plug-in's GetName() (e.g. "roce", "uet")
     * \param what how to name the value in the error (e.g. "--transport")
     * \return a new plug-in object; an input error names the value and the valid names when
     *         no registered plug-in has that name
     */
    static Ptr<FabricTransportPlugin> Create(const std::string& name, const std::string& what);
    /**
     * \param name a name
     * \return true if a registered plug-in has that name
     */
    static bool IsRegistered(const std::string& name);
    /// \return the names of every registered plug-in, sorted
    static std::vector<std::string> GetNames();
    /// \return GetNames() joined with ", " (for messages and attribute help)
    static std::string GetNamesText();
    /**
     * \brief Split a Transports value ("roce", "uet", "roce+uet") into plug-in names.
     * \param list names joined by '+', each a registered plug-in, none twice
     * \param what how to name the value in the error
     * \return the names in order; an input error names the value and the valid names when a
     *         part is empty, unknown or repeated
     */
    static std::vector<std::string> SplitList(const std::string& list, const std::string& what);
    /**
     * \param list a Transports value
     * \return true if SplitList() accepts it
     */
    static bool IsValidList(const std::string& list);

    /// One named configuration of a transport (see the class comment's presets).
    struct Preset
    {
        std::string transport; //!< the plug-in's name (e.g. "uet")
        /// attribute name and value, in the order the preset gives them
        std::vector<std::pair<std::string, std::string>> attributes;
    };

    /**
     * \brief Find a preset by its full name, without creating a plug-in.
     * \param name "<transport>-<variant>" (e.g. "roce-pfc", "uet-none-single")
     * \param[out] preset the transport and attribute values when found
     * \return true if a registered plug-in declares that preset
     */
    static bool FindPreset(const std::string& name, Preset& preset);
    /**
     * \return every registered plug-in's PresetsText joined as a list ("A, B and C"), for
     *         messages; empty if no plug-in declares presets
     */
    static std::string GetPresetsText();

    /// \return the short name, lower case (e.g. "roce"): what Create() and Transports take
    std::string GetName() const;
    /// \return the name in tables and messages (e.g. "RoCE", "UET")
    virtual std::string GetDisplayName() const = 0;

    /**
     * \brief Put this transport's NIC on a host's NIC core, on every port of the core.
     * \param node the host (the core is aggregated to it)
     * \param core its NIC core, with all its ports and addresses added
     */
    virtual void Install(Ptr<Node> node, Ptr<FabricNic> core) = 0;
    /**
     * \param node a host
     * \return true if \p node carries this transport's NIC
     */
    virtual bool IsInstalledOn(Ptr<Node> node) const = 0;
    /// \return the largest IPv4 packet the NICs installed from now on send, bytes (what a
    ///         port's MTU must carry)
    virtual uint32_t GetDeviceMtu() const = 0;
    /**
     * \brief Refuse, as an input error naming \p name, a switch setting this transport cannot
     *        work with (e.g. Ultra Ethernet's trimmed packets too short to be recognized).
     *        Default: nothing to check.
     * \param host a host carrying this transport (its NIC's settings are those of all)
     * \param sw a switch of the fabric
     * \param name how to name the switch in the message
     */
    virtual void CheckSwitch(Ptr<Node> host,
                             Ptr<const FabricSwitch> sw,
                             const std::string& name) const;
    /**
     * \brief Refuse an MTU the transport's NICs cannot take (an input error naming \p what
     *        with the valid values).
     * \param mtu payload bytes per packet
     * \param what how to name the value (e.g. "--mtu")
     */
    virtual void CheckMtu(uint32_t mtu, const std::string& what) const = 0;
    /// \return the largest message one operation carries, bytes (default UINT64_MAX)
    virtual uint64_t GetMaxMessageBytes() const;
    /**
     * \brief Fix the random streams of the NICs this plug-in installed.
     * \param stream first stream
     * \return streams used (default 0)
     */
    virtual int64_t AssignStreams(int64_t stream);
    /// \return the TypeId of this transport's CollectiveTransport (attribute
    ///         CollectiveTransport)
    TypeId GetCollectiveTransportTypeId() const;
    /**
     * \param name a registered plug-in's name (an input error names it otherwise)
     * \return the TypeId of its CollectiveTransport, without creating the plug-in
     */
    static TypeId GetCollectiveTransportTypeIdOf(const std::string& name);
    /**
     * \brief Set up a fabric for this transport before it is installed: the NIC helper's
     *        settings (congestion control, ...) and the switch helpers' settings the transport
     *        needs (e.g. Ultra Ethernet's trimming and ECN class). Default: nothing. Called by
     *        FabricTransportConfig::Configure; aborts, naming the value, on settings that
     *        cannot work.
     * \param fabric the fabric (not installed)
     */
    virtual void ConfigureFabric(FabricTransportTarget& fabric);
    /**
     * \brief Finish the set-up after the fabric's Install() (e.g. queue and ECN sizes from the
     *        fabric's BDP, RTO and congestion-control base RTT). Default: nothing.
     * \param fabric the fabric given to ConfigureFabric, installed
     */
    virtual void FinishFabric(FabricTransportTarget& fabric);
    /**
     * \brief One line saying how this transport runs (congestion control, lossless or
     *        lossy, ...; sizes once FinishFabric ran). Default: the display name.
     * \param os the stream
     */
    virtual void Describe(std::ostream& os) const;
    /// \return the data priority of the NICs installed from now on (0..7)
    virtual uint8_t GetDataPriority() const = 0;
    /**
     * \brief Refuse a congestion-control name this transport does not have (an input error
     *        naming \p what, the value and the valid names).
     * \param value a name, as the plug-in's CongestionControl attribute takes it
     * \param what how to name the value (e.g. "--cc")
     */
    void CheckCongestionControl(const std::string& value, const std::string& what) const;
    /// \return the congestion-control names the CongestionControl attribute takes
    virtual std::vector<std::string> GetCongestionControlNames() const = 0;
    /**
     * \brief Add a host's counters of this transport (nothing if the host does not carry
     *        it). Default: nothing.
     * \param host a host
     * \param[in,out] c the sums
     */
    virtual void AddCounters(Ptr<Node> host, FabricTransportCounters& c) const;
    /**
     * \brief Append the flows of a host that have counters of their own (RoCE: every QP),
     *        in a stable order: a later call lists the same flows first, in the same order,
     *        then the flows created since. Read-only (changes no simulation result); no
     *        allocation once \p flows has grown to the host's flow count. Default: nothing
     *        (a transport without per-flow counters, e.g. UET, whose counters are per NIC:
     *        AddCounters).
     * \param host a host (nothing if it does not carry this transport)
     * \param[in,out] flows the list to append to
     */
    virtual void AddFlowCounters(Ptr<Node> host, std::vector<FabricFlowCounters>& flows) const;
    /**
     * \brief Abort, as an input error naming \p what, unless \p value is one of \p names.
     * \param value the value
     * \param what how to name it (e.g. "--cc")
     * \param names the valid values, listed in the message
     */
    static void CheckName(const std::string& value,
                          const std::string& what,
                          const std::vector<std::string>& names);

    /**
     * \brief Create the service that carries a flow workload's messages between \p setup's
     *        ranks. Aborts, naming the rank, when a rank's node does not carry this transport.
     * \param setup the ranks and the topology's answers about them
     * \return the service
     */
    virtual Ptr<FabricMessageService> CreateMessageService(
        const FabricMessageServiceSetup& setup) = 0;

  protected:
    std::string m_name;           //!< attribute Name, declared by each subclass
    TypeId m_collectiveTransport; //!< attribute CollectiveTransport, declared by each subclass
    std::string m_presets;        //!< attribute Presets, declared by subclasses that have any
    std::string m_presetsText;    //!< attribute PresetsText, with Presets
};

/**
 * \ingroup ai-fabric-transport
 * \brief The transport plug-ins of one topology helper: each created once, on first use, and
 *        kept in creation order, so that settings made on a plug-in before Install() (its NIC
 *        helper) are those Install() uses, and the random streams are assigned in a fixed
 *        order.
 */
class FabricTransportSet
{
  public:
    /**
     * \param name a registered plug-in's name
     * \param what how to name the value in an error (e.g. "...::GetTransport: transport")
     * \return its plug-in, created on first use (an input error names the value and the
     *         valid names if none has that name)
     */
    Ptr<FabricTransportPlugin> Get(const std::string& name, const std::string& what);
    /**
     * \param tid a plug-in's TypeId (with a constructor)
     * \return the plug-in of that type, created on first use
     */
    Ptr<FabricTransportPlugin> GetOfType(TypeId tid);
    /**
     * \param list a Transports value: names joined by '+' (FabricTransportPlugin::SplitList)
     * \param what how to name the value in an error
     * \return their plug-ins, in the order named
     */
    std::vector<Ptr<FabricTransportPlugin>> Select(const std::string& list,
                                                   const std::string& what);
    /**
     * \brief Fix the random streams of every plug-in made so far, in creation order.
     * \param stream first stream
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    std::vector<Ptr<FabricTransportPlugin>> m_plugins; //!< in creation order
};

} // namespace ns3

#endif /* FABRIC_TRANSPORT_PLUGIN_H */
