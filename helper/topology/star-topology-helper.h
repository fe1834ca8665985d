/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef STAR_TOPOLOGY_HELPER_H
#define STAR_TOPOLOGY_HELPER_H

#include "ns3/fabric-health-monitor.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-transport-plugin.h"
#include "ns3/node-container.h"
#include "ns3/pfc-helper.h"
#include "ns3/roce-transport-plugin.h"
#include "ns3/switch-helper.h"
#include "ns3/uet-nic.h"
#include "ns3/uet-transport-plugin.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief N hosts with a RoceNic each on one FabricSwitch: the smallest RoCE fabric, for
 *        incast, fairness and point-to-point experiments.
 *
 * Host i gets address 10.0.0.1 + i and switch port i; the switch routes each address to its
 * port. Configure links, the switch and the NICs through GetPortHelper(), GetSwitchHelper(),
 * GetNicHelper() and GetUetNicHelper() (or GetTransport(name)) before Install().
 * SetTransports() chooses the hosts' transports like FabricTopologyHelper's Transports
 * attribute, each installed by its FabricTransportPlugin on the host's NIC core: a RoceNic
 * ("roce", the default), an Ultra Ethernet UetNic ("uet"), both ("roce+uet"), or any
 * registered plug-in by its name. Every switch port faces a host, so all are last-hop ports
 * (FabricSwitch::SetLastHopPort: a packet trimmed there carries the MMU's LastHopTrimDscp);
 * with UET, Install() aborts naming the value and valid range when the switch trims UET's data
 * priority in a way its receivers cannot read or recognize (UetNicHelper::CheckSwitchTrimming).
 * For cluster-shaped fabrics use the rail-optimized, rail-only or Clos topology helpers.
 */
class StarTopologyHelper
{
  public:
    StarTopologyHelper();

    /// \return the helper that creates the host-switch links (rate, delay, queues)
    PfcHelper& GetPortHelper();
    /// \return the helper that creates the switch (MMU, ECN, load balancer)
    SwitchHelper& GetSwitchHelper();
    /// \return the helper that creates the NICs and connects QPs
    RoceNicHelper& GetNicHelper();
    /// \return the helper that creates the UetNics (Transports "uet" or "roce+uet")
    UetNicHelper& GetUetNicHelper();
    /**
     * \param name a registered plug-in's name ("roce", "uet", ...; an input error names the
     *        value and the valid names otherwise)
     * \return its plug-in (created on first use; Install() installs those SetTransports names)
     */
    Ptr<FabricTransportPlugin> GetTransport(const std::string& name);
    /**
     * \brief Choose the hosts' transports (before Install; aborts naming the value otherwise).
     * \param transports plug-in names joined by '+': "roce" (default: a RoceNic per host),
     *        "uet" (a UetNic), "roce+uet" (both on the host's NIC core), ...; anything else
     *        aborts naming it and the valid names
     */
    void SetTransports(const std::string& transports);
    /// \return the transports ("roce", "uet" or "roce+uet")
    const std::string& GetTransports() const;

    /**
     * \brief Build the star.
     * \param hosts number of hosts, 1..65536 (aborts otherwise); call once
     */
    void Install(uint32_t hosts);

    /// \return number of hosts
    uint32_t GetNHosts() const;
    /**
     * \param i host index (< GetNHosts(); aborts otherwise)
     * \return the host's RoceNic (aborts naming the host if it has none: Transports "uet")
     */
    Ptr<RoceNic> GetNic(uint32_t i) const;
    /**
     * \param i host index (< GetNHosts(); aborts otherwise)
     * \return the host's UetNic (aborts naming the host if it has none: Transports "roce")
     */
    Ptr<UetNic> GetUetNic(uint32_t i) const;
    /// \return every host node, in host order
    NodeContainer GetHosts() const;
    /**
     * \param i host index
     * \return the host's port (its PfcNetDevice)
     */
    Ptr<PfcNetDevice> GetHostPort(uint32_t i) const;
    /**
     * \param i host index
     * \return the host's IPv4 address
     */
    Ipv4Address GetAddress(uint32_t i) const;
    /// \return the switch
    Ptr<FabricSwitch> GetSwitch() const;
    /**
     * \brief The star's health monitor, created by Install() watching every host's NIC: a
     *        run that makes no progress for its StallTime stops with a diagnosis; call
     *        FabricHealthMonitor::ReportEndOfRun() after Simulator::Run().
     * \return the monitor (null before Install)
     */
    Ptr<FabricHealthMonitor> GetHealthMonitor() const;
    /**
     * \brief Connect QPs between two hosts.
     * \param a host index
     * \param b host index
     * \param nQps QP pairs (>= 1)
     * \return the pairs, a's QP first
     */
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> Connect(uint32_t a,
                                                                           uint32_t b,
                                                                           uint32_t nQps = 1);
    /**
     * \brief Fix random streams: the RoceNics' start PSNs, then the UetNics' (Start_PSNs,
     *        EVs), then the switch (ECN, load balancer).
     * \param stream first stream
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /// Abort unless i is a host index.
    void Check(uint32_t i) const;

    PfcHelper m_ports;                          //!< link factory
    SwitchHelper m_switchHelper;                //!< switch factory
    FabricTransportSet m_transportSet;          //!< the transports' plug-ins
    std::string m_transports{"roce"};           //!< transports of the hosts
    NodeContainer m_hosts;                      //!< hosts
    Ptr<FabricSwitch> m_switch;                 //!< the switch
    std::vector<Ptr<PfcNetDevice>> m_hostPorts; //!< host ports
    std::vector<Ptr<RoceNic>> m_nics;           //!< host RoceNics (null without RoCE)
    std::vector<Ptr<UetNic>> m_uetNics;         //!< host UetNics (null without UET)
    Ptr<FabricHealthMonitor> m_monitor;         //!< stall detection
};

} // namespace ns3

#endif /* STAR_TOPOLOGY_HELPER_H */
