/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "star-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/fabric-nic.h"
#include "ns3/node.h"

namespace ns3
{

StarTopologyHelper::StarTopologyHelper()
{
    // The default transports' plug-ins exist from the start, as their NIC helpers always did
    // (a RoCE QP connector draws a random stream number when it is made).
    m_transportSet.Select(m_transports, "StarTopologyHelper::SetTransports");
}

PfcHelper&
StarTopologyHelper::GetPortHelper()
{
    return m_ports;
}

SwitchHelper&
StarTopologyHelper::GetSwitchHelper()
{
    return m_switchHelper;
}

RoceNicHelper&
StarTopologyHelper::GetNicHelper()
{
    return DynamicCast<RoceTransportPlugin>(
               m_transportSet.GetOfType(RoceTransportPlugin::GetTypeId()))
        ->GetNicHelper();
}

UetNicHelper&
StarTopologyHelper::GetUetNicHelper()
{
    return DynamicCast<UetTransportPlugin>(
               m_transportSet.GetOfType(UetTransportPlugin::GetTypeId()))
        ->GetNicHelper();
}

Ptr<FabricTransportPlugin>
StarTopologyHelper::GetTransport(const std::string& name)
{
    return m_transportSet.Get(name, "StarTopologyHelper::GetTransport: transport");
}

void
StarTopologyHelper::SetTransports(const std::string& transports)
{
    FABRIC_INPUT_ERROR_IF(m_switch,
                          "StarTopologyHelper::SetTransports after Install(); set it before");
    FabricTransportPlugin::SplitList(transports, "StarTopologyHelper::SetTransports: transports");
    m_transports = transports;
}

const std::string&
StarTopologyHelper::GetTransports() const
{
    return m_transports;
}

void
StarTopologyHelper::Install(uint32_t hosts)
{
    FABRIC_INPUT_ERROR_IF(m_switch, "StarTopologyHelper::Install called twice");
    FABRIC_INPUT_ERROR_IF(hosts < 1 || hosts > 65536,
                          "StarTopologyHelper: " << hosts << " hosts is invalid; valid 1..65536");
    m_hosts.Create(hosts);
    Ptr<Node> swNode = CreateObject<Node>();
    for (uint32_t i = 0; i < hosts; ++i)
    {
        NetDeviceContainer d = m_ports.Install(m_hosts.Get(i), swNode);
        m_hostPorts.push_back(DynamicCast<PfcNetDevice>(d.Get(0)));
    }
    m_switch = m_switchHelper.Install(swNode);
    const auto transports = m_transportSet.Select(m_transports, "StarTopologyHelper::Transports");
    for (uint32_t i = 0; i < hosts; ++i)
    {
        m_switch->SetLastHopPort(i, true); // every port faces a host
        m_switch->GetForwardingTable()->SetRoute(GetAddress(i), {i});
        Ptr<FabricNic> core = FabricNic::GetOrCreate(m_hosts.Get(i));
        core->AddPort(m_hostPorts[i], GetAddress(i));
        for (const auto& transport : transports)
        {
            transport->Install(m_hosts.Get(i), core);
        }
        m_nics.push_back(m_hosts.Get(i)->GetObject<RoceNic>());
        m_uetNics.push_back(m_hosts.Get(i)->GetObject<UetNic>());
    }
    for (const auto& transport : transports)
    {
        transport->CheckSwitch(m_hosts.Get(0), m_switch, "StarTopologyHelper: switch");
    }
    m_switch->GetForwardingTable()->Freeze();
    m_monitor = CreateObject<FabricHealthMonitor>();
    m_monitor->Install(m_hosts);
}

Ptr<FabricHealthMonitor>
StarTopologyHelper::GetHealthMonitor() const
{
    return m_monitor;
}

uint32_t
StarTopologyHelper::GetNHosts() const
{
    return static_cast<uint32_t>(m_nics.size());
}

void
StarTopologyHelper::Check(uint32_t i) const
{
    FABRIC_INPUT_ERROR_IF(i >= m_nics.size(),
                          "StarTopologyHelper: host " << i << " does not exist (" << m_nics.size()
                                                      << " hosts; call Install first)");
}

Ptr<RoceNic>
StarTopologyHelper::GetNic(uint32_t i) const
{
    Check(i);
    FABRIC_INPUT_ERROR_IF(!m_nics[i],
                          "StarTopologyHelper::GetNic: host "
                              << i << " has no RoceNic (transports \"" << m_transports << "\")");
    return m_nics[i];
}

Ptr<UetNic>
StarTopologyHelper::GetUetNic(uint32_t i) const
{
    Check(i);
    FABRIC_INPUT_ERROR_IF(
        !m_uetNics[i],
        "StarTopologyHelper::GetUetNic: host "
            << i << " has no UetNic (transports \"" << m_transports
            << "\"; call SetTransports(\"uet\") or (\"roce+uet\") before Install)");
    return m_uetNics[i];
}

NodeContainer
StarTopologyHelper::GetHosts() const
{
    return m_hosts;
}

Ptr<PfcNetDevice>
StarTopologyHelper::GetHostPort(uint32_t i) const
{
    Check(i);
    return m_hostPorts[i];
}

Ipv4Address
StarTopologyHelper::GetAddress(uint32_t i) const
{
    return Ipv4Address(0x0a000001 + i);
}

Ptr<FabricSwitch>
StarTopologyHelper::GetSwitch() const
{
    return m_switch;
}

std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>>
StarTopologyHelper::Connect(uint32_t a, uint32_t b, uint32_t nQps)
{
    return GetNicHelper().Connect(GetNic(a), GetNic(b), nQps);
}

int64_t
StarTopologyHelper::AssignStreams(int64_t stream)
{
    FABRIC_INPUT_ERROR_IF(!m_switch, "StarTopologyHelper::AssignStreams before Install");
    int64_t used = m_transportSet.AssignStreams(stream);
    used += m_switch->AssignStreams(stream + used);
    return used;
}

} // namespace ns3
