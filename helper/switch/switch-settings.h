/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a recorded set of switch, MMU and ECN marker attribute settings, replayed on a
 * SwitchHelper (per-tier switch configuration of the topology helpers).
 */
#ifndef SWITCH_SETTINGS_H
#define SWITCH_SETTINGS_H

#include "switch-helper.h"

#include "ns3/attribute.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief Attribute settings of FabricSwitches, their SharedBufferMmu and WredEcnMarker,
 *        recorded in order and replayed on a SwitchHelper with ApplyTo().
 *
 * The topology helpers keep one per switch tier (leaf, spine, core): at Install() each tier's
 * switches are installed with a copy of the common GetSwitchHelper() on which the tier's
 * settings are replayed, so a tier setting overrides the common one whatever order they were
 * made in, and the tiers without settings are installed exactly as before.
 *
 * Every setting is checked when it is recorded: the attribute must exist on the class and its
 * checker must accept the value, else the call aborts naming the class, the attribute and the
 * value; an MMU setting is also tried on a scratch SharedBufferMmu (its setters check ranges).
 * WredEcnMarker setters (Pmax in [0, 1], Kmin/Kmax in bytes) check when the switches are
 * installed (a scratch marker would take a random stream and shift every later one).
 */
class SwitchSettings
{
  public:
    /// Which object of a switch a setting is for.
    enum Target
    {
        SWITCH, //!< ns3::FabricSwitch (SwitchHelper::SetSwitchAttribute)
        MMU,    //!< ns3::SharedBufferMmu (SwitchHelper::SetMmuAttribute)
        ECN,    //!< ns3::WredEcnMarker (SwitchHelper::SetEcnAttribute)
    };

    /**
     * \brief Record one setting (checked now; aborts naming it when invalid).
     * \param target the object
     * \param name attribute name
     * \param value its value
     */
    void Set(Target target, const std::string& name, const AttributeValue& value);

    /**
     * \brief Replay every setting on a helper, in the order recorded.
     * \param helper the helper
     */
    void ApplyTo(SwitchHelper& helper) const;

    /// \return true if nothing was recorded
    bool IsEmpty() const;

    /**
     * \param target the object
     * \return the TypeId name of the class it is ("ns3::FabricSwitch", ...)
     */
    static const char* GetTypeName(Target target);

  private:
    /// One recorded setting.
    struct Setting
    {
        Target target;             //!< the object
        std::string name;          //!< attribute name
        Ptr<AttributeValue> value; //!< the value (a copy)
    };

    std::vector<Setting> m_settings; //!< in the order recorded
};

} // namespace ns3

#endif /* SWITCH_SETTINGS_H */
