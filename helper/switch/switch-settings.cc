/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-settings.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/object-factory.h"

namespace ns3
{

const char*
SwitchSettings::GetTypeName(Target target)
{
    switch (target)
    {
    case SWITCH:
        return "ns3::FabricSwitch";
    case MMU:
        return "ns3::SharedBufferMmu";
    case ECN:
        return "ns3::WredEcnMarker";
    }
    return "unknown";
}

void
SwitchSettings::Set(Target target, const std::string& name, const AttributeValue& value)
{
    const char* type = GetTypeName(target);
    TypeId::AttributeInformation info;
    FABRIC_INPUT_ERROR_IF(!TypeId::LookupByName(type).LookupAttributeByName(name, &info),
                          "SwitchSettings: " << type << " has no attribute \"" << name
                                             << "\" (see --PrintAttributes=" << type << ")");
    Ptr<AttributeValue> valid = info.checker->CreateValidValue(value);
    FABRIC_INPUT_ERROR_IF(!valid,
                          "SwitchSettings: " << type << "::" << name
                                             << " does not accept the value \""
                                             << value.SerializeToString(info.checker) << "\"");
    // The MMU's attribute setters check ranges (TrimSize, TrimDscp, ...): create one with the
    // value now, so that a bad value aborts here rather than at Install(). Not a marker: it
    // would take a random stream and shift every later one; its setters (Pmax in [0, 1], Kmin
    // in bytes) check when the switches are installed.
    if (target == MMU)
    {
        ObjectFactory probe(type);
        probe.Set(name, *valid);
        probe.Create();
    }
    m_settings.push_back(Setting{target, name, valid});
}

void
SwitchSettings::ApplyTo(SwitchHelper& helper) const
{
    for (const auto& s : m_settings)
    {
        switch (s.target)
        {
        case SWITCH:
            helper.SetSwitchAttribute(s.name, *s.value);
            break;
        case MMU:
            helper.SetMmuAttribute(s.name, *s.value);
            break;
        case ECN:
            helper.SetEcnAttribute(s.name, *s.value);
            break;
        }
    }
}

bool
SwitchSettings::IsEmpty() const
{
    return m_settings.empty();
}

} // namespace ns3
