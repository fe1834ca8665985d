/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: installs Ultra Ethernet NICs and creates endpoints for ranks.
 */
#ifndef UET_NIC_HELPER_H
#define UET_NIC_HELPER_H

#include "ns3/fabric-switch.h"
#include "ns3/object-factory.h"
#include "ns3/uet-nic.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-uet
 * \brief Installs a UetNic on a node's PfcNetDevice (aggregated to the node, beside a RoceNic
 *        if it has one: both share the node's FabricNic core) and creates one endpoint per
 *        rank of a job, like RoceNicHelper does for RoCE.
 */
class UetNicHelper
{
  public:
    UetNicHelper();

    /**
     * \brief Set an attribute of the NICs installed from now on.
     * \param name a UetNic attribute (Mtu, MpRange, RtoMin, ...)
     * \param value its value (checked by the attribute's checker: out of range aborts)
     */
    void SetNicAttribute(std::string name, const AttributeValue& value);

    /**
     * \return the smallest trimmed IPv4 length the NICs installed from now on can read
     *         (UetNic::GetMinTrimBytes: 84, or 88 when their congestion control uses receiver
     *         credit)
     */
    uint32_t GetMinTrimBytes() const;
    /**
     * \return the Mtu of the NICs installed from now on: the one given to SetNicAttribute,
     *         else the ns3::UetNic::Mtu default (4096 unless changed)
     */
    uint32_t GetMtu() const;
    /// \return the DataDscp of the NICs installed from now on (as set, else the default)
    uint8_t GetDataDscp() const;

    /**
     * \brief Install a UetNic on a node with one port.
     * \param node the node (not null; aborts if it already has a UetNic)
     * \param port a PfcNetDevice of \p node attached to a cable
     * \param address the port's IPv4 address (the FEP address)
     * \return the NIC, aggregated to \p node
     */
    Ptr<UetNic> Install(Ptr<Node> node, Ptr<PfcNetDevice> port, Ipv4Address address);

    /**
     * \brief Create one endpoint per rank: rank i is the UetNic of \p nodes[i], port 0, with
     *        PIDonFEP = how many earlier ranks share its NIC (0 when one rank per NIC).
     * \param nodes one node per rank (each with a UetNic; aborts naming the rank otherwise)
     * \param jobId the job's JobID (0..2^24-1)
     * \param resources resources per endpoint (1..4096)
     * \return the endpoints, in rank order
     */
    std::vector<Ptr<UetEndpoint>> CreateEndpoints(const std::vector<Ptr<Node>>& nodes,
                                                  uint32_t jobId,
                                                  uint16_t resources = 1);

    /**
     * \brief Fix the random streams (Start_PSNs, EVs) of the NICs this helper installed, one
     *        stream each in install order.
     * \param stream first stream
     * \return streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Where a UET NIC meets a trimming switch, check that the switch trims UET packets
     *        so that the NIC can recognize and answer them (UetNic::CheckSwitchTrimming: TrimSize
     *        at least UetNic::MIN_TRIM_BYTES, TrimDscp and LastHopTrimDscp equal to the NIC's
     *        TrimmedDscp and TrimmedLastHopDscp); aborts naming the switch, the values and the
     *        valid range otherwise. Nothing is checked when the switch does not trim the NIC's
     *        data priority (SharedBufferMmu::IsTrimEnabled). The topology helpers call it for
     *        every switch when UET is installed.
     * \param nic a UetNic with at least one port (its attributes are those of every NIC)
     * \param sw the switch (configured)
     * \param name the switch's name in the message, e.g. "leaf0"
     */
    static void CheckSwitchTrimming(Ptr<const UetNic> nic,
                                    Ptr<const FabricSwitch> sw,
                                    const std::string& name);

  private:
    ObjectFactory m_nicFactory;        //!< NIC factory
    TypeId m_ccTypeId;                 //!< CongestionControl set through SetNicAttribute
    bool m_ccSet{false};               //!< m_ccTypeId is set
    uint32_t m_mtu{0};                 //!< Mtu set through SetNicAttribute (0 = default)
    std::optional<uint8_t> m_dataDscp; //!< DataDscp as set (unset: the default)
    std::vector<Ptr<UetNic>> m_nics;   //!< installed NICs (AssignStreams)
};

} // namespace ns3

#endif /* UET_NIC_HELPER_H */
