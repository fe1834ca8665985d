/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "fabric-event.h"
#include "fabric-simulator-impl.h"
#include "pfc-tx-queue.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup ai-fabric
 * \brief Full-duplex point-to-point Ethernet cable between two PfcNetDevice ports.
 *
 * Each direction is independent. A frame handed to TransmitStart() arrives at the peer's
 * PfcNetDevice::Receive() after its serialization time plus the propagation Delay. The cable
 * can be cut (SetLinkUp(false)) to model a failed link: frames sent while it is down are lost
 * and the sending device counts them as "link down" drops.
 *
 * Frames on one direction arrive in the order they were sent (serialization is sequential and
 * the delay is constant), so each direction keeps its frames in flight in a FIFO and one
 * RecurringEvent delivers the head: no allocation per frame beyond the packet itself.
 */
class PfcChannel : public Channel
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PfcChannel();

    /**
     * \brief Attach a port; a channel takes exactly two.
     * \param device the port; aborts if two are already attached
     */
    void Attach(Ptr<PfcNetDevice> device);

    /**
     * \brief Put a frame on the wire from \p src towards the other end.
     * \param frame the complete Ethernet frame (header, payload, FCS); ownership passes to the peer
     * \param src the sending port (one of the two attached)
     * \param frameTime time from first to last bit of preamble + frame at the sender's rate
     * \return false if the link is down (the frame is lost), true otherwise
     */
    bool TransmitStart(const Ptr<Packet>& frame, const PfcNetDevice* src, const Time& frameTime);

    /**
     * \brief Cut or restore the cable (both directions). Frames already propagating arrive.
     * \param up true = working link
     */
    void SetLinkUp(bool up);
    /// \return true if the cable is working
    bool IsLinkUp() const;

    /// \return the one-way propagation delay
    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;
    /**
     * \param i 0 or 1
     * \return the attached PfcNetDevice
     */
    Ptr<PfcNetDevice> GetPfcDevice(std::size_t i) const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Validate and set the propagation delay.
     * \param delay >= 0; aborts on a negative value
     */
    void SetDelay(Time delay);

    /// One direction of the cable: the frames propagating towards one end.
    struct Direction
    {
        /// Hand the oldest frame in flight to the receiving end (runs at its arrival time).
        void Deliver();

        PfcNetDevice* dst{nullptr}; //!< receiving end (owned by the channel's m_dev)
        uint32_t context{0};        //!< receiving node id, the context of the arrival
        PfcTxQueue inFlight;        //!< frames propagating, oldest first
        Ptr<EventImpl> deliver;     //!< RecurringEvent running Deliver()
    };

    // What TransmitStart reads first, together.
    std::size_t m_nDevices;     //!< attached ends, 0..2
    bool m_linkUp;              //!< cable state
    Time m_delay;               //!< one-way propagation delay
    FabricEngineRef m_engine;   //!< the engine, if a FabricSimulatorImpl (for every frame)
    Ptr<PfcNetDevice> m_dev[2]; //!< the two ends
    Direction m_dir[2];         //!< m_dir[i]: frames travelling towards m_dev[i]
};

} // namespace ns3

#endif /* PFC_CHANNEL_H */
