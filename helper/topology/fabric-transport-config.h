/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: one object that sets up a fabric for one transport (RoCEv2, Ultra Ethernet, or
 * any transport plug-in), so that several run on the same topology.
 */
#ifndef FABRIC_TRANSPORT_CONFIG_H
#define FABRIC_TRANSPORT_CONFIG_H

#include "fabric-topology.h"

#include "ns3/fabric-transport-plugin.h"
#include "ns3/object.h"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief The transport of a fabric and what it needs from the switches, applied to a
 *        FabricTopologyHelper in two steps: Configure() before its Install(), Finish() after.
 *
 * Transport names a FabricTransportPlugin ("roce", the default, or "uet", or any registered
 * plug-in). Configure() makes it the topology's only transport (Transports), gives the
 * topology's plug-in the values set with SetTransportAttribute() and lets it set the fabric
 * up (FabricTransportPlugin::ConfigureFabric); Finish() lets it finish after Install
 * (FinishFabric). What each transport sets is its plug-in's: RoCEv2 (RoceTransportPlugin)
 * only its CongestionControl, so a RoCE fabric is the topology's default (RoCE data on the
 * switches' lossless priority 3 with PFC, ECN for DCQCN); Ultra Ethernet (UetTransportPlugin)
 * its congestion control, EV strategy, a lossy and trimmed data class, and BDP-sized queues,
 * ECN thresholds and RtoMin after Install, as UEC htsim's fat trees have them.
 *
 * A plug-in's attributes also take defaults from the command line like any ns-3 attribute
 * (e.g. --ns3::UetTransportPlugin::QueueBdp=2); SetTransportAttribute() wins over them.
 */
class FabricTransportConfig : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricTransportConfig();
    ~FabricTransportConfig() override;

    /**
     * \brief Set an attribute of the transport's plug-in (e.g. "CongestionControl",
     *        "EvStrategy"), applied by Configure(). Several may be set; the last value of a
     *        name wins.
     * \param name an attribute of the plug-in Transport names (Configure aborts, naming it,
     *        when the plug-in has none of that name or refuses the value)
     * \param value its value
     */
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param name an attribute name given to SetTransportAttribute()
     * \return its last value, or null if it was not set
     */
    Ptr<const AttributeValue> GetTransportAttribute(const std::string& name) const;
    /**
     * \brief Set the topology up for the transport, before its Install(): the Transports
     *        attribute, then the plug-in's attributes and its ConfigureFabric().
     * \param topo the topology (not installed; aborts otherwise)
     */
    void Configure(Ptr<FabricTopologyHelper> topo);
    /**
     * \brief Finish the set-up after the topology's Install(): the plug-in's FinishFabric().
     * \param topo the topology given to Configure(), installed (aborts otherwise)
     */
    void Finish(Ptr<FabricTopologyHelper> topo);

    /// \return the Transport attribute: a plug-in's name
    std::string GetTransport() const;
    /// \return the plug-in Configure() set up (null before Configure)
    Ptr<FabricTransportPlugin> GetPlugin() const;
    /**
     * \brief One line saying what this configuration sets (the plug-in's Describe; before
     *        Configure() only the transport's name).
     * \param os the stream
     */
    void Describe(std::ostream& os) const;

    /**
     * \brief Abort unless \p value is a registered transport plug-in's name.
     * \param value the value
     * \param what how to name it in the message (e.g. "--transport")
     */
    static void CheckTransport(const std::string& value, const std::string& what);
    /**
     * \brief A configuration made from a transport plug-in's named preset
     *        (FabricTransportPlugin::FindPreset), e.g. "roce-dcqcn", "uet-none-single".
     * \param name the preset's full name
     * \param what how to name it in the message (e.g. "--configs: configuration")
     * \return a configuration with Transport and the preset's transport attributes set; an
     *         input error names the value and every plug-in's presets when none has it
     */
    static Ptr<FabricTransportConfig> FromPreset(const std::string& name, const std::string& what);

  private:
    std::string m_transport;                                           //!< attribute Transport
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_values; //!< for the plug-in
    Ptr<FabricTransportPlugin> m_plugin;                               //!< after Configure
};

} // namespace ns3

#endif /* FABRIC_TRANSPORT_CONFIG_H */
