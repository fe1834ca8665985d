/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-transport-config.h"

#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/string.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricTransportConfig);

TypeId
FabricTransportConfig::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricTransportConfig")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricTransportConfig>()
            .AddAttribute(
                "Transport",
                "The transport of the fabric, a transport plug-in's name: roce "
                "(RoCEv2 RoceNics, the topology's default), uet (Ultra Ethernet "
                "UetNics, lossy and trimmed), or any registered plug-in.",
                StringValue("roce"),
                MakeStringAccessor(&FabricTransportConfig::m_transport),
                MakeFabricChecker<StringValue>(MakeStringChecker(),
                                               "ns3::FabricTransportConfig::Transport",
                                               &FabricTransportPlugin::IsRegistered,
                                               "the registered transport plug-ins (roce, uet, ...)",
                                               [](const std::string& s) { return s; }));
    return tid;
}

FabricTransportConfig::FabricTransportConfig()
    : m_transport("roce")
{
}

FabricTransportConfig::~FabricTransportConfig() = default;

void
FabricTransportConfig::CheckTransport(const std::string& value, const std::string& what)
{
    FABRIC_INPUT_ERROR_IF(!FabricTransportPlugin::IsRegistered(value),
                          what << "=" << value << " is invalid; valid values are "
                               << FabricTransportPlugin::GetNamesText());
}

Ptr<FabricTransportConfig>
FabricTransportConfig::FromPreset(const std::string& name, const std::string& what)
{
    FabricTransportPlugin::Preset preset;
    FABRIC_INPUT_ERROR_IF(!FabricTransportPlugin::FindPreset(name, preset),
                          what << " \"" << name << "\" is invalid; valid are "
                               << FabricTransportPlugin::GetPresetsText());
    Ptr<FabricTransportConfig> c = CreateObject<FabricTransportConfig>();
    c->SetAttribute("Transport", StringValue(preset.transport));
    for (const auto& [attribute, value] : preset.attributes)
    {
        c->SetTransportAttribute(attribute, StringValue(value));
    }
    return c;
}

void
FabricTransportConfig::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_values.emplace_back(name, value.Copy());
}

Ptr<const AttributeValue>
FabricTransportConfig::GetTransportAttribute(const std::string& name) const
{
    for (auto it = m_values.rbegin(); it != m_values.rend(); ++it)
    {
        if (it->first == name)
        {
            return it->second;
        }
    }
    return nullptr;
}

std::string
FabricTransportConfig::GetTransport() const
{
    return m_transport;
}

Ptr<FabricTransportPlugin>
FabricTransportConfig::GetPlugin() const
{
    return m_plugin;
}

void
FabricTransportConfig::Configure(Ptr<FabricTopologyHelper> topo)
{
    FABRIC_INPUT_ERROR_IF(!topo || topo->IsInstalled(),
                          "FabricTransportConfig::Configure needs a topology that is not installed "
                          "yet (call it before Install)");
    topo->SetAttribute("Transports", StringValue(m_transport));
    m_plugin = topo->GetTransport(m_transport);
    for (const auto& [name, value] : m_values)
    {
        TypeId::AttributeInformation info;
        FABRIC_INPUT_ERROR_IF(!m_plugin->GetInstanceTypeId().LookupAttributeByName(name, &info),
                              "FabricTransportConfig: the transport "
                                  << m_transport << " (" << m_plugin->GetInstanceTypeId().GetName()
                                  << ") has no attribute " << name);
        m_plugin->SetAttribute(name, *value);
    }
    m_plugin->ConfigureFabric(*topo);
}

void
FabricTransportConfig::Finish(Ptr<FabricTopologyHelper> topo)
{
    FABRIC_INPUT_ERROR_IF(!topo || !topo->IsInstalled() || !m_plugin,
                          "FabricTransportConfig::Finish needs the installed topology given to "
                          "Configure (call it after Install)");
    m_plugin->FinishFabric(*topo);
}

void
FabricTransportConfig::Describe(std::ostream& os) const
{
    if (m_plugin)
    {
        m_plugin->Describe(os);
        return;
    }
    os << m_transport;
}

} // namespace ns3
