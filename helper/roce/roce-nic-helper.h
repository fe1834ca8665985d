/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_NIC_HELPER_H
#define ROCE_NIC_HELPER_H

#include "ns3/object-factory.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-qp-connector.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief Installs RoceNics and connects queue pairs between them.
 *
 * Connect() plays the role of the out-of-band QP exchange (normally over TCP or RDMA CM):
 * each side learns the other's QPN, start PSN and address. Start PSNs are random 24-bit
 * values from an ns-3 random stream (AssignStreams for reproducibility; RandomStartPsn=false
 * gives 0); UDP source ports (flow entropy) are derived from the QP numbers so that the QPs
 * of one connection hash onto different ECMP paths.
 */
class RoceNicHelper
{
  public:
    RoceNicHelper();

    /**
     * \brief Set an attribute of new NICs (e.g. "Mtu", "CongestionControl").
     * \param name attribute name
     * \param value value
     */
    void SetNicAttribute(std::string name, const AttributeValue& value);
    /**
     * \return the path MTU of the NICs installed from now on: the Mtu given to
     *         SetNicAttribute, else the ns3::RoceNic::Mtu default (4096 unless changed)
     */
    uint32_t GetMtu() const;
    /**
     * \return the smallest port (PfcNetDevice) Mtu that carries the packets of the NICs
     *         installed from now on: RoceNic::GetDeviceMtuFor(GetMtu(), INT hops), where the
     *         INT hops are the NICs' IntMaxHops when their Int is on (SetCongestionControl
     *         "hpcc" or SetNicAttribute "Int"), else 0
     */
    uint32_t GetDeviceMtu() const;
    /// \return the DataDscp of the NICs installed from now on (as set, else the default)
    uint8_t GetDataDscp() const;
    /**
     * \brief Choose the congestion control of new NICs (their "CongestionControl" attribute).
     *
     * "dctcp" also sets the NICs' CongestionNotification to AckEcho (DCTCP reads the ECN echo
     * on ACKs), "timely" their AckInterval to 1 (a completion event, an RTT sample, per
     * packet: with 16-packet coalescing TIMELY's +10 Mb/s steps recover far too slowly) and
     * "swift" their EchoHopCount (Swift's per-hop target scaling) and "hpcc" their Int
     * (in-band telemetry on data packets and ACKs); the other names leave those attributes as
     * they are.
     * \param cc "none" (FabricNoneCongestionOps), "dcqcn" (DcqcnCongestionOps), "dctcp"
     *        (DctcpCongestionOps), "timely" (TimelyCongestionOps), "swift"
     *        (SwiftCongestionOps), "hpcc" (HpccCongestionOps) or the TypeId name of any
     * FabricCongestionOps subclass; aborts naming the value and the valid names otherwise
     */
    void SetCongestionControl(const std::string& cc);
    /**
     * \brief Choose random (true, default) or zero start PSNs.
     * \param random whether to randomize
     */
    void SetRandomStartPsn(bool random);

    /**
     * \brief Install a NIC on a node with one port.
     * \param node the node (must not have a RoceNic yet; aborts otherwise)
     * \param port a PfcNetDevice of that node, attached to a cable
     * \param address the port's IPv4 address
     * \return the NIC, aggregated to the node
     */
    Ptr<RoceNic> Install(Ptr<Node> node, Ptr<PfcNetDevice> port, Ipv4Address address);

    /**
     * \brief Create and connect \p nQps QP pairs between two NICs.
     * \param a one NIC (must have ports; aborts naming it otherwise)
     * \param b the other NIC
     * \param nQps number of QP pairs (>= 1)
     * \param portA port index on \p a
     * \param portB port index on \p b
     * \return the pairs, a's QP first
     */
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> Connect(Ptr<RoceNic> a,
                                                                           Ptr<RoceNic> b,
                                                                           uint32_t nQps = 1,
                                                                           uint32_t portA = 0,
                                                                           uint32_t portB = 0);

    /**
     * \brief Fix the random stream of start PSNs.
     * \param stream stream index
     * \return 1
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the QP connector Connect() uses (start PSNs, entropy)
    RoceQpConnector& GetConnector();

  private:
    ObjectFactory m_nicFactory;           //!< NIC factory
    RoceQpConnector m_connector;          //!< the out-of-band QP exchange
    uint32_t m_mtu{0};                    //!< Mtu set through SetNicAttribute (0 = default)
    std::optional<bool> m_int;            //!< Int as set (unset: the attribute's default)
    std::optional<uint32_t> m_intMaxHops; //!< IntMaxHops as set (unset: the default)
    std::optional<uint8_t> m_dataDscp;    //!< DataDscp as set (unset: the default)
};

} // namespace ns3

#endif /* ROCE_NIC_HELPER_H */
