/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-transport-plugin.h"

#include "ns3/fabric-input-error.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/text-fields.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <map>

namespace ns3
{

namespace
{

/// \return the TypeId of every registered plug-in by name (read from its Name attribute's
///         initial value, so that no plug-in is created: creating one may draw a random
///         stream number)
std::map<std::string, TypeId>
Registered()
{
    std::map<std::string, TypeId> byName;
    const TypeId base = FabricTransportPlugin::GetTypeId();
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid == base || !tid.IsChildOf(base) || !tid.HasConstructor())
        {
            continue;
        }
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_IF(!tid.LookupAttributeByName("Name", &info),
                        "FabricTransportPlugin: " << tid.GetName()
                                                  << " has no Name attribute; every plug-in "
                                                     "declares its short name as one");
        const std::string name = info.initialValue->SerializeToString(info.checker);
        auto it = byName.find(name);
        NS_ABORT_MSG_IF(it != byName.end(),
                        "FabricTransportPlugin: " << tid.GetName() << " and "
                                                  << it->second.GetName()
                                                  << " both call themselves \"" << name
                                                  << "\"; plug-in names must be unique");
        byName.emplace(name, tid);
    }
    return byName;
}

/// \return the initial value of \p tid's string attribute \p name, or "" if it has none
std::string
ReadOnlyString(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        return "";
    }
    return info.initialValue->SerializeToString(info.checker);
}

/// Split \p list at '+' into \p names; false if a part is not a registered name or repeats.
bool
ParseList(const std::string& list, std::vector<std::string>& names)
{
    const auto all = Registered();
    names = text::Split(list, '+');
    for (size_t i = 0; i < names.size(); ++i)
    {
        if (all.count(names[i]) == 0 ||
            std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i)
        {
            return false;
        }
    }
    return !names.empty();
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(FabricMessageService);
NS_OBJECT_ENSURE_REGISTERED(FabricTransportPlugin);

TypeId
FabricMessageService::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricMessageService").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

FabricMessageService::~FabricMessageService() = default;

uint64_t
FabricMessageService::GetConnections() const
{
    return 0;
}

std::string
FabricMessageService::GetProcessLimit() const
{
    return "";
}

TypeId
FabricTransportPlugin::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricTransportPlugin").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

FabricTransportPlugin::~FabricTransportPlugin() = default;

std::string
FabricTransportPlugin::GetName() const
{
    return m_name;
}

TypeId
FabricTransportPlugin::GetCollectiveTransportTypeId() const
{
    return m_collectiveTransport;
}

TypeId
FabricTransportPlugin::GetCollectiveTransportTypeIdOf(const std::string& name)
{
    auto all = Registered();
    auto it = all.find(name);
    FABRIC_INPUT_ERROR_IF(it == all.end(),
                          "transport=" << name << " is invalid; valid transports are "
                                       << GetNamesText());
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_IF(!it->second.LookupAttributeByName("CollectiveTransport", &info),
                    "FabricTransportPlugin: " << it->second.GetName()
                                              << " has no CollectiveTransport attribute");
    return DynamicCast<const TypeIdValue>(info.initialValue)->Get();
}

std::vector<std::string>
FabricTransportPlugin::GetNames()
{
    std::vector<std::string> names;
    for (const auto& [name, tid] : Registered())
    {
        names.push_back(name);
    }
    return names;
}

bool
FabricTransportPlugin::IsRegistered(const std::string& name)
{
    return Registered().count(name) > 0;
}

std::string
FabricTransportPlugin::GetNamesText()
{
    std::string s;
    for (const auto& name : GetNames())
    {
        s += (s.empty() ? "" : ", ") + name;
    }
    return s;
}

Ptr<FabricTransportPlugin>
FabricTransportPlugin::Create(const std::string& name, const std::string& what)
{
    auto all = Registered();
    auto it = all.find(name);
    FABRIC_INPUT_ERROR_IF(it == all.end(),
                          what << "=" << name << " is invalid; valid transports are "
                               << GetNamesText());
    ObjectFactory f;
    f.SetTypeId(it->second);
    return f.Create<FabricTransportPlugin>();
}

std::vector<std::string>
FabricTransportPlugin::SplitList(const std::string& list, const std::string& what)
{
    std::vector<std::string> names;
    FABRIC_INPUT_ERROR_IF(!ParseList(list, names),
                          what << "=\"" << list
                               << "\" is invalid; valid values are transports joined by '+', "
                                  "each once, from: "
                               << GetNamesText());
    return names;
}

bool
FabricTransportPlugin::IsValidList(const std::string& list)
{
    std::vector<std::string> names;
    return ParseList(list, names);
}

bool
FabricTransportPlugin::FindPreset(const std::string& name, Preset& preset)
{
    for (const auto& [transport, tid] : Registered())
    {
        const std::string prefix = transport + "-";
        if (name.rfind(prefix, 0) != 0)
        {
            continue;
        }
        const std::string variant = name.substr(prefix.size());
        for (const auto& entry : text::Split(ReadOnlyString(tid, "Presets"), ';'))
        {
            const size_t eq = entry.find('=');
            NS_ABORT_MSG_IF(eq == std::string::npos,
                            "FabricTransportPlugin: " << tid.GetName() << " Presets entry \""
                                                      << entry
                                                      << "\" has no '='; entries are "
                                                         "variant=Attribute:value,...");
            if (entry.substr(0, eq) != variant)
            {
                continue;
            }
            preset.transport = transport;
            preset.attributes.clear();
            for (const auto& setting : text::Split(entry.substr(eq + 1), ','))
            {
                const size_t colon = setting.find(':');
                NS_ABORT_MSG_IF(colon == std::string::npos,
                                "FabricTransportPlugin: " << tid.GetName() << " preset \""
                                                          << variant << "\": \"" << setting
                                                          << "\" is not Attribute:value");
                preset.attributes.emplace_back(setting.substr(0, colon), setting.substr(colon + 1));
            }
            return true;
        }
    }
    return false;
}

std::string
FabricTransportPlugin::GetPresetsText()
{
    std::vector<std::string> texts;
    for (const auto& [transport, tid] : Registered())
    {
        const std::string text = ReadOnlyString(tid, "PresetsText");
        if (!text.empty())
        {
            texts.push_back(text);
        }
    }
    std::string s;
    for (size_t i = 0; i < texts.size(); ++i)
    {
        s += (i == 0 ? "" : i + 1 == texts.size() ? " and " : ", ") + texts[i];
    }
    return s;
}

FabricTransportTarget::~FabricTransportTarget() = default;

void
FabricTransportPlugin::ConfigureFabric(FabricTransportTarget&)
{
}

void
FabricTransportPlugin::FinishFabric(FabricTransportTarget&)
{
}

void
FabricTransportPlugin::Describe(std::ostream& os) const
{
    os << GetDisplayName();
}

void
FabricTransportPlugin::CheckCongestionControl(const std::string& value,
                                              const std::string& what) const
{
    CheckName(value, what, GetCongestionControlNames());
}

void
FabricTransportPlugin::CheckName(const std::string& value,
                                 const std::string& what,
                                 const std::vector<std::string>& names)
{
    std::string valid;
    for (const auto& n : names)
    {
        valid += (valid.empty() ? "" : ", ") + n;
    }
    FABRIC_INPUT_ERROR_IF(std::find(names.begin(), names.end(), value) == names.end(),
                          what << "=" << value << " is invalid; valid values are " << valid);
}

void
FabricTransportPlugin::AddCounters(Ptr<Node>, FabricTransportCounters&) const
{
}

void
FabricTransportPlugin::AddFlowCounters(Ptr<Node>, std::vector<FabricFlowCounters>&) const
{
}

void
FabricTransportCounters::Add(const FabricTransportCounters& o)
{
    retransmissions += o.retransmissions;
    timeouts += o.timeouts;
    nacks += o.nacks;
    outOfOrder += o.outOfOrder;
    trimNacks += o.trimNacks;
    cnpsTx += o.cnpsTx;
    cnpsRx += o.cnpsRx;
    ceRx += o.ceRx;
    bytesPosted += o.bytesPosted;
    bytesCompleted += o.bytesCompleted;
    bytesDelivered += o.bytesDelivered;
    opsFailed += o.opsFailed;
}

void
FabricTransportPlugin::CheckSwitch(Ptr<Node>, Ptr<const FabricSwitch>, const std::string&) const
{
}

uint64_t
FabricTransportPlugin::GetMaxMessageBytes() const
{
    return UINT64_MAX;
}

int64_t
FabricTransportPlugin::AssignStreams(int64_t)
{
    return 0;
}

Ptr<FabricTransportPlugin>
FabricTransportSet::Get(const std::string& name, const std::string& what)
{
    for (const auto& p : m_plugins)
    {
        if (p->GetName() == name)
        {
            return p;
        }
    }
    m_plugins.push_back(FabricTransportPlugin::Create(name, what));
    return m_plugins.back();
}

Ptr<FabricTransportPlugin>
FabricTransportSet::GetOfType(TypeId tid)
{
    for (const auto& p : m_plugins)
    {
        if (p->GetInstanceTypeId() == tid)
        {
            return p;
        }
    }
    ObjectFactory f;
    f.SetTypeId(tid);
    m_plugins.push_back(f.Create<FabricTransportPlugin>());
    return m_plugins.back();
}

std::vector<Ptr<FabricTransportPlugin>>
FabricTransportSet::Select(const std::string& list, const std::string& what)
{
    std::vector<Ptr<FabricTransportPlugin>> v;
    for (const auto& name : FabricTransportPlugin::SplitList(list, what))
    {
        v.push_back(Get(name, what));
    }
    return v;
}

int64_t
FabricTransportSet::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (const auto& p : m_plugins)
    {
        used += p->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
