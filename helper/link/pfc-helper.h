/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_HELPER_H
#define PFC_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-net-device.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class PfcChannel;

/**
 * \ingroup ai-fabric-link
 * \brief Builds PfcNetDevice/PfcChannel links, like PointToPointHelper does for point-to-point.
 *
 * Each Install() creates two ports (one per node), each with eight priority transmit queues
 * (drop-tail, 10000 frames unless SetQueueMaxSize says otherwise), a transmit scheduler (default
 * strict priority), a fresh MAC address per port, and the cable. Pcap traces are DLT_EN10MB
 * (Ethernet) with nanosecond timestamps, so Wireshark/tshark decode every frame including PFC
 * (MAC Control, opcode 0x0101); both promiscuous and non-promiscuous captures include the PFC
 * frames a port sends and receives.
 */
class PfcHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    PfcHelper();
    ~PfcHelper() override = default;

    /**
     * \brief Set the drop-tail limit of each priority's transmit queue of new ports
     * (shorthand for SetDeviceAttribute("TxQueueMaxSize", ...)).
     * \param size packets ("100p") or bytes ("1MB"), > 0
     */
    void SetQueueMaxSize(QueueSize size);

    /**
     * \brief Set the transmit scheduler of new ports.
     * \param type a PfcTxScheduler TypeId name ("ns3::PfcStrictPriorityScheduler",
     *        "ns3::PfcDwrrScheduler")
     * \param args name/value attribute pairs
     */
    template <typename... Ts>
    void SetTxScheduler(std::string type, Ts&&... args);

    /**
     * \brief Set an attribute of new PfcNetDevices (e.g. "DataRate", "PfcEnableMask").
     * \param name attribute name
     * \param value attribute value
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);
    /**
     * \brief Set an attribute of new PfcChannels (e.g. "Delay").
     * \param name attribute name
     * \param value attribute value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Connect two nodes with a new link.
     * \param a first node
     * \param b second node
     * \return the two new ports, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);
    /**
     * \brief Connect the two nodes of a container.
     * \param c exactly two nodes (aborts otherwise, naming the count)
     * \return the two new ports
     */
    NetDeviceContainer Install(NodeContainer c);

    /**
     * \brief Create one unattached port on a node (queues, scheduler, MAC set up).
     * \param node the node to add the port to
     * \return the port
     */
    Ptr<PfcNetDevice> CreateDevice(Ptr<Node> node);

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_schedulerFactory; //!< scheduler factory
    ObjectFactory m_deviceFactory;    //!< device factory
    ObjectFactory m_channelFactory;   //!< channel factory
};

template <typename... Ts>
void
PfcHelper::SetTxScheduler(std::string type, Ts&&... args)
{
    m_schedulerFactory.SetTypeId(type);
    m_schedulerFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* PFC_HELPER_H */
