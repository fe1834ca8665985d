/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-helper.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-entropy-parser.h"
#include "ns3/roce-int-header.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

SwitchHelper::SwitchHelper()
{
    m_switchFactory.SetTypeId("ns3::FabricSwitch");
    m_mmuFactory.SetTypeId("ns3::SharedBufferMmu");
    m_ecnFactory.SetTypeId("ns3::WredEcnMarker");
    m_lbFactory.SetTypeId("ns3::EcmpLoadBalancer");
    m_parsers.Add(RoceEntropyParser::UDP_PORT, &RoceEntropyParser::Parse);
    m_telemetryWriters.Set(RoceEntropyParser::UDP_PORT, &RoceInt::WriteSwitchHop);
}

namespace
{
/// One short load-balancer name: its TypeId and, for a variant, one attribute.
struct LoadBalancerName
{
    const char* name;      //!< the short name
    const char* type;      //!< TypeId name
    const char* attribute; //!< attribute of the variant (nullptr: none)
    const char* value;     //!< its value
};

/// The short names, in the order messages list them.
const LoadBalancerName LB_NAMES[] = {
    {"ecmp", "ns3::EcmpLoadBalancer", nullptr, nullptr},
    {"entropy-ecmp", "ns3::EntropyEcmpLoadBalancer", nullptr, nullptr},
    {"resilient", "ns3::ResilientEcmpLoadBalancer", nullptr, nullptr},
    {"flowlet", "ns3::FlowletLoadBalancer", nullptr, nullptr},
    {"adaptive", "ns3::AdaptiveLoadBalancer", "Granularity", "flowlet"},
    {"adaptive-packet", "ns3::AdaptiveLoadBalancer", "Granularity", "packet"},
    {"conga", "ns3::CongaLoadBalancer", nullptr, nullptr},
    {"te", "ns3::TeLoadBalancer", nullptr, nullptr},
    {"spray", "ns3::SprayLoadBalancer", nullptr, nullptr},
};

/// \return the entry of \p name, null if there is none
const LoadBalancerName*
FindLoadBalancerName(const std::string& name)
{
    for (const auto& n : LB_NAMES)
    {
        if (name == n.name)
        {
            return &n;
        }
    }
    return nullptr;
}
} // namespace

std::string
SwitchHelper::GetLoadBalancerNamesText()
{
    std::string s;
    for (const auto& n : LB_NAMES)
    {
        s += (s.empty() ? "" : ", ") + std::string(n.name);
    }
    return s;
}

bool
SwitchHelper::IsLoadBalancerName(const std::string& name)
{
    return FindLoadBalancerName(name) != nullptr;
}

void
SwitchHelper::CheckLoadBalancerName(const std::string& name, const std::string& what)
{
    FABRIC_INPUT_ERROR_IF(!IsLoadBalancerName(name),
                          what << "=" << name << " is invalid; valid values are "
                               << GetLoadBalancerNamesText());
}

std::string
SwitchHelper::SetLoadBalancerByName(const std::string& name, const std::string& what)
{
    CheckLoadBalancerName(name, what);
    const LoadBalancerName* n = FindLoadBalancerName(name);
    m_lbFactory = ObjectFactory(n->type);
    if (n->attribute)
    {
        m_lbFactory.Set(n->attribute, StringValue(n->value));
    }
    return n->type;
}

void
SwitchHelper::SetEntropyParser(uint16_t udpDstPort, SwitchEntropyParseFn parse)
{
    m_parsers.Add(udpDstPort, parse);
}

bool
SwitchHelper::RemoveEntropyParser(uint16_t udpDstPort)
{
    return m_parsers.Remove(udpDstPort);
}

void
SwitchHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
SwitchHelper::SetMmuAttribute(std::string name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

uint8_t
SwitchHelper::GetLosslessPriorities() const
{
    Ptr<Object> mmu = m_mmuFactory.Create();
    UintegerValue mask;
    mmu->GetAttribute("LosslessPriorities", mask);
    return static_cast<uint8_t>(mask.Get());
}

void
SwitchHelper::SetEcnAttribute(std::string name, const AttributeValue& value)
{
    m_ecnFactory.Set(name, value);
}

Ptr<FabricSwitch>
SwitchHelper::Install(Ptr<Node> node)
{
    FABRIC_INPUT_ERROR_IF(!node, "SwitchHelper::Install given a null node");
    NetDeviceContainer ports;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        if (DynamicCast<PfcNetDevice>(node->GetDevice(i)))
        {
            ports.Add(node->GetDevice(i));
        }
    }
    return Install(node, ports);
}

uint32_t
SwitchHelper::DefaultSeed(uint32_t nodeId)
{
    // (seed - 1, run - 1) through MurmurHash3's 64-bit finalizer, which maps 0 to 0: seed 1,
    // run 1 leaves the per-node seed unchanged; any other pair changes every switch's seed.
    uint64_t k = (uint64_t(RngSeedManager::GetSeed()) - 1) * 0x9e3779b97f4a7c15ull +
                 (RngSeedManager::GetRun() - 1) * 0xc2b2ae3d27d4eb4full;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    uint32_t perNode = static_cast<uint32_t>((nodeId + 1) * 2654435761u);
    uint32_t seed = perNode ^ static_cast<uint32_t>(k ^ (k >> 32));
    return seed != 0 ? seed : perNode; // 0 means "unset"
}

Ptr<FabricSwitch>
SwitchHelper::Install(Ptr<Node> node, NetDeviceContainer ports)
{
    FABRIC_INPUT_ERROR_IF(!node, "SwitchHelper::Install given a null node");
    FABRIC_INPUT_ERROR_IF(ports.GetN() == 0,
                          "SwitchHelper::Install: node "
                              << node->GetId()
                              << " has no PfcNetDevice ports; create its "
                                 "links with PfcHelper first");
    FABRIC_INPUT_ERROR_IF(node->GetObject<FabricSwitch>(),
                          "SwitchHelper::Install: node " << node->GetId()
                                                         << " already has a switch");
    Ptr<FabricSwitch> sw = m_switchFactory.Create<FabricSwitch>();
    sw->SetAttribute("Mmu", PointerValue(m_mmuFactory.Create<SharedBufferMmu>()));
    sw->SetAttribute("EcnMarker", PointerValue(m_ecnFactory.Create<WredEcnMarker>()));
    Ptr<SwitchLoadBalancer> lb = m_lbFactory.Create<SwitchLoadBalancer>();
    if (lb->GetSeed() == 0)
    {
        lb->SetSeed(DefaultSeed(node->GetId()));
    }
    sw->SetAttribute("LoadBalancer", PointerValue(lb));
    sw->SetEntropyParsers(m_parsers);
    sw->SetTelemetryWriters(m_telemetryWriters);
    for (uint32_t i = 0; i < ports.GetN(); ++i)
    {
        Ptr<PfcNetDevice> dev = DynamicCast<PfcNetDevice>(ports.Get(i));
        FABRIC_INPUT_ERROR_IF(!dev,
                              "SwitchHelper::Install: device " << i << " is not a PfcNetDevice");
        FABRIC_INPUT_ERROR_IF(dev->GetNode() != node,
                              "SwitchHelper::Install: port " << i << " belongs to node "
                                                             << dev->GetNode()->GetId() << ", not "
                                                             << node->GetId());
        sw->AddPort(dev);
    }
    node->AggregateObject(sw);
    sw->Configure();
    return sw;
}

} // namespace ns3
