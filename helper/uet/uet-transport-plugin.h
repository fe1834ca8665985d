/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: Ultra Ethernet as helpers see it (FabricTransportPlugin "uet").
 */
#ifndef UET_TRANSPORT_PLUGIN_H
#define UET_TRANSPORT_PLUGIN_H

#include "uet-nic-helper.h"

#include "ns3/fabric-transport-plugin.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Ultra Ethernet (UEC 1.0 SES over PDS) as a FabricTransportPlugin, named "uet",
 *        display name "UET".
 *
 * Install() puts a UetNic (UDP 4793) on every port of a host's NIC core through
 * GetNicHelper(), whose NIC attributes apply to every NIC installed afterwards. CheckSwitch()
 * refuses a switch whose trimmed packets the NICs could not recognize and answer
 * (UetNicHelper::CheckSwitchTrimming: TrimSize, TrimDscp, LastHopTrimDscp).
 *
 * Ports carry UetNic::GetDeviceMtuFor(the NICs' Mtu); MTUs are 256..16383 payload bytes
 * (UetNic::Mtu); one operation carries at most 2^32 - 1 bytes (SES request_length is 32
 * bits). Collectives run on UetCollectiveTransport.
 *
 * Flow workloads (CreateMessageService): one endpoint per rank (UetNicHelper::CreateEndpoints,
 * port 0, JobID FlowJobId) with one registered memory region of 2^32 - 1 bytes, so nothing
 * is registered per flow; each message is one SES WRITE in FlowDeliveryMode (RUD or ROD).
 * Messages between the same pair share its PDC and that PDC's congestion-control context, as
 * UET's PDCs do. The NICs learn each peer's unloaded path RTT (UetNic::SetPathRttFunction)
 * unless the topology helper gave them one. A message's retransmissions are its packets sent
 * again; its wire format is 122 B beyond the payload per packet (Ethernet, IPv4, UDP, PDS,
 * SES standard header, FCS, preamble, gap; or the NICs' HeaderModelBytes) and a 90 B ACK
 * (PDS ACK + SES response).
 */
class UetTransportPlugin : public FabricTransportPlugin
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    UetTransportPlugin();
    ~UetTransportPlugin() override;

    /// \return the helper that installs the UetNics
    UetNicHelper& GetNicHelper();

    std::string GetDisplayName() const override;
    void Install(Ptr<Node> node, Ptr<FabricNic> core) override;
    bool IsInstalledOn(Ptr<Node> node) const override;
    uint32_t GetDeviceMtu() const override;
    void CheckSwitch(Ptr<Node> host,
                     Ptr<const FabricSwitch> sw,
                     const std::string& name) const override;
    void CheckMtu(uint32_t mtu, const std::string& what) const override;
    uint64_t GetMaxMessageBytes() const override;
    int64_t AssignStreams(int64_t stream) override;
    Ptr<FabricMessageService> CreateMessageService(const FabricMessageServiceSetup& setup) override;

  private:
    UetNicHelper m_nicHelper; //!< installs the NICs
    uint32_t m_flowJobId;     //!< attribute FlowJobId
    std::string m_flowMode;   //!< attribute FlowDeliveryMode
};

} // namespace ns3

#endif /* UET_TRANSPORT_PLUGIN_H */
