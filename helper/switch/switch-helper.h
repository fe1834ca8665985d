/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_HELPER_H
#define SWITCH_HELPER_H

#include "ns3/fabric-switch.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief Installs a FabricSwitch on a node whose PfcNetDevices become its ports.
 *
 * Usage: create the links with PfcHelper first, then `SwitchHelper().Install(node)`; fill the
 * forwarding table with `sw->GetForwardingTable()->SetRoute(...)` (topology helpers do this).
 * A load balancer whose "Seed" is 0 (the default) gets a seed derived from its node id, so
 * that ECMP decisions at different switches and tiers are decorrelated (no hash
 * polarization); set a non-zero "Seed" through SetLoadBalancer() to fix it.
 *
 * Entropy parsers: new switches get the helper's table of parsers by UDP destination port
 * (SwitchEntropyParserTable). By default it holds RoCEv2's (UDP 4791, the BTH destination QP,
 * RoceEntropyParser), so "ns3::EntropyEcmpLoadBalancer"
 * does E-ECMP as before; add a transport's with SetEntropyParser() (e.g. UDP 4793 with
 * UdpSourcePortEntropyParser for Ultra Ethernet), remove one with RemoveEntropyParser(). New
 * switches also get RoCEv2's in-band telemetry writer (UDP 4791, RoceInt::WriteSwitchHop).
 */
class SwitchHelper
{
  public:
    SwitchHelper();

    /**
     * \brief Set an attribute of new switches ("ProcessingDelay", "DecrementTtl").
     * \param name attribute name
     * \param value value
     */
    void SetSwitchAttribute(std::string name, const AttributeValue& value);
    /**
     * \brief Set an attribute of new MMUs (see SharedBufferMmu).
     * \param name attribute name
     * \param value value
     */
    void SetMmuAttribute(std::string name, const AttributeValue& value);
    /**
     * \brief Set an attribute of new ECN markers (see WredEcnMarker).
     * \param name attribute name
     * \param value value
     */
    void SetEcnAttribute(std::string name, const AttributeValue& value);
    /**
     * \brief The lossless (PFC) priorities the MMUs of new switches will have
     *        (SharedBufferMmu LosslessPriorities as set on this helper or by default), so a
     *        configuration can be checked before anything is installed.
     * \return the bit mask, bit p = priority p
     */
    uint8_t GetLosslessPriorities() const;
    /**
     * \brief Register (or replace) the entropy parser new switches use for a UDP destination
     *        port.
     * \param udpDstPort the port, 1..65535 (aborts on 0)
     * \param parse the parser (aborts if null)
     */
    void SetEntropyParser(uint16_t udpDstPort, SwitchEntropyParseFn parse);
    /**
     * \brief New switches get no entropy parser for this UDP destination port.
     * \param udpDstPort the port
     * \return true if the helper had one
     */
    bool RemoveEntropyParser(uint16_t udpDstPort);

    /**
     * \brief Choose the load balancer of new switches.
     * \param type TypeId name: "ns3::EcmpLoadBalancer" (default),
     *        "ns3::EntropyEcmpLoadBalancer",
     *        "ns3::SprayLoadBalancer"
     * \param args attribute name/value pairs
     */
    template <typename... Ts>
    void SetLoadBalancer(std::string type, Ts&&... args);
    /**
     * \brief Choose the load balancer of new switches by its short name (the examples' --lb).
     * \param name ecmp (EcmpLoadBalancer: 5-tuple hash), entropy-ecmp
     *        (EntropyEcmpLoadBalancer: 5-tuple and the transport's entropy), resilient
     *        (ResilientEcmpLoadBalancer), flowlet (FlowletLoadBalancer: a random port per
     *        flowlet), adaptive (AdaptiveLoadBalancer: the least-loaded port per flowlet),
     *        adaptive-packet (AdaptiveLoadBalancer, Granularity packet), conga
     *        (CongaLoadBalancer: path congestion fed back between leaves), spray
     *        (SprayLoadBalancer)
     * \param what how to name the value in the error (e.g. "--lb")
     * \return the balancer's TypeId name; an input error names the value and the valid names
     *         otherwise
     */
    std::string SetLoadBalancerByName(const std::string& name, const std::string& what);
    /// \return the short names SetLoadBalancerByName() takes, joined with ", "
    static std::string GetLoadBalancerNamesText();
    /**
     * \brief Abort unless \p name is a short name SetLoadBalancerByName() takes.
     * \param name the name
     * \param what how to name the value in the error (e.g. "--lb")
     */
    static void CheckLoadBalancerName(const std::string& name, const std::string& what);
    /**
     * \param name a name
     * \return true if SetLoadBalancerByName() takes it
     */
    static bool IsLoadBalancerName(const std::string& name);

    /**
     * \brief Install a switch using every PfcNetDevice of the node as a port, in device order.
     * \param node the node (must have at least one connected PfcNetDevice; aborts otherwise)
     * \return the switch, aggregated to the node and configured
     */
    Ptr<FabricSwitch> Install(Ptr<Node> node);
    /**
     * \brief Install a switch with the given ports, in container order.
     * \param node the node
     * \param ports PfcNetDevices on that node
     * \return the switch, aggregated to the node and configured
     */
    Ptr<FabricSwitch> Install(Ptr<Node> node, NetDeviceContainer ports);

    /**
     * \brief The hash seed Install() gives a switch's load balancer when its Seed attribute is
     *        0 (the default): distinct per switch (Knuth's multiplicative hash of the node id)
     *        and, so that a replication also re-draws ECMP placement, mixed with ns-3's global
     *        seed and run number (RngSeedManager, --RngSeed / --RngRun; the examples' --seed
     *        sets the global seed). The default run (seed 1, run 1) keeps the seeds of earlier
     *        releases, so their results reproduce. Set the seed before installing.
     * \param nodeId the switch's node id
     * \return the seed
     */
    static uint32_t DefaultSeed(uint32_t nodeId);

  private:
    ObjectFactory m_switchFactory;                 //!< switch factory
    ObjectFactory m_mmuFactory;                    //!< MMU factory
    ObjectFactory m_ecnFactory;                    //!< ECN marker factory
    ObjectFactory m_lbFactory;                     //!< load balancer factory
    SwitchEntropyParserTable m_parsers;            //!< entropy parsers of new switches
    SwitchTelemetryWriterTable m_telemetryWriters; //!< INT writers of new switches (RoCEv2's)
};

template <typename... Ts>
void
SwitchHelper::SetLoadBalancer(std::string type, Ts&&... args)
{
    m_lbFactory.SetTypeId(type);
    m_lbFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* SWITCH_HELPER_H */
