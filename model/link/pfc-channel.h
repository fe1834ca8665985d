/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/fabric-event.h"
#include "ns3/fabric-frame.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <memory>

namespace ns3
{

class PfcNetDevice;
class PfcRemoteExchange;

/**
 * \ingroup ai-fabric-link
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
 *
 * Cables between processes (builds with ns-3's MPI module, NS3_MPI): when ns-3's MPI
 * interface is enabled and the two ports' nodes have different system ids (Node::GetSystemId),
 * the cable connects two MPI processes, like ns-3's PointToPointRemoteChannel. A frame sent
 * towards the other process leaves as bytes (FabricFrameCodec) through a PfcRemoteExchange
 * (batches over MpiInterface::SendPacket; the cable's own until SetRemoteExchange gives it the
 * process's shared one), stamped with its arrival time (now + frame time + Delay), and the
 * other process's copy of the cable delivers it to its port at that time (InjectRemote): the
 * same frame at the same instant as in one process, PFC pause frames included. Delay is the
 * lookahead ns-3's distributed engine reads from the cable, so such a cable must have
 * Delay > 0, fixed once connected (input errors otherwise, naming the cable). A frame sent by
 * a port whose node belongs to another process means work was started on a node this process
 * does not own: it aborts naming the node.
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
     * \return the port's end of the cable (0 for the first attached, 1 for the second), the
     *         \p srcEnd it gives TransmitStart()
     */
    uint32_t Attach(Ptr<PfcNetDevice> device);

    /**
     * \brief Put a frame on the wire from end \p srcEnd towards the other end.
     * \param frame the complete Ethernet frame (header, payload, FCS); moved out (it then
     *        belongs to the cable, and to the peer on arrival) unless the link is down
     * \param srcEnd the sending port's end, 0 or 1, as Attach() returned it; aborts if it is
     *        not 0 or 1 or if the other end has no port
     * \param frameTime time from first to last bit of preamble + frame at the sender's rate
     * \return false if the link is down (the frame is lost), true otherwise
     */
    bool TransmitStart(FabricFrame& frame, uint32_t srcEnd, const Time& frameTime);

    /**
     * \brief Cut or restore the cable (both directions). Frames already propagating arrive.
     * \param up true = working link
     */
    void SetLinkUp(bool up);
    /// \return true if the cable is working
    bool IsLinkUp() const;

    /// \return the one-way propagation delay
    Time GetDelay() const;

    /**
     * \return true if the two ends belong to different MPI processes (always false without
     *         ns-3's MPI module or when MPI is not enabled)
     */
    bool IsRemote() const;

    /**
     * \brief Send this cable's frames to the other process through \p exchange, and receive
     *        the other process's batches through it (its local end's MpiReceiver), instead of
     *        the cable's own exchange: one batch carries the frames of every cable to a process.
     * \param exchange the process's exchange (FabricTopologyHelper creates it)
     */
    void SetRemoteExchange(Ptr<PfcRemoteExchange> exchange);

    /**
     * \brief A frame from the other process, for port \p dst of this cable, to arrive at
     *        \p rxTime (PfcRemoteExchange::Receive).
     * \param dst the receiving port (one of this cable's two; aborts otherwise)
     * \param frame the frame (consumed)
     * \param rxTime its arrival time, >= now
     *
     * Schedules exactly one event, the arrival (CausalOrderScheduler::SetNextKey before it
     * gives that event the sender's key).
     */
    void InjectRemote(const Ptr<PfcNetDevice>& dst, FabricFrame& frame, const Time& rxTime);

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

    /// Where the frames of one direction go: this process, another one, or (sent by a node of
    /// another process) nowhere.
    enum class Reach : uint8_t
    {
        LOCAL,   //!< both ends in this process (or no MPI)
        REMOTE,  //!< the receiving end is in another process: frames leave through MPI
        FOREIGN, //!< the sending end is in another process: it must never send here
    };

    /// With MPI enabled and both ends attached, find which ends are in this process, set each
    /// direction's Reach and, for a cable between processes, give it an exchange of its own.
    void ConnectProcesses();

    /**
     * \brief Send a frame to the other process (Reach::REMOTE), or abort (Reach::FOREIGN).
     * \param frame the frame (consumed)
     * \param dstEnd the receiving end, 0 or 1
     * \param frameTime the frame's serialization time
     */
    void SendRemote(FabricFrame& frame, uint32_t dstEnd, const Time& frameTime);

    /// Abort, naming the cable, if a remote direction has a zero Delay (no lookahead).
    void CheckRemoteDelay() const;

    /**
     * \brief One direction of the cable: everything a frame's transmission and arrival read,
     *        in one cache line (a busy fabric touches each cable's state once per frame, long
     *        after it left the cache).
     */
    struct alignas(64) Direction
    {
        void Deliver(); //!< the head frame arrives at dst
        /**
         * \brief Append a frame to the ring of frames propagating.
         * \param frame the frame (moved into the ring)
         */
        void Push(FabricFrame& frame);
        void Clear(); //!< drop the frames propagating and the ring

        PfcNetDevice* dst{nullptr};        //!< receiving end (owned by the channel's m_dev)
        FabricEventImpl* deliver{nullptr}; //!< RecurringEvent running Deliver() (m_deliver)
        FabricEngineRef engine;    //!< the engine, if a FabricSimulatorImpl (for every frame)
        Time delay;                //!< the cable's one-way propagation delay
        uint32_t context{0};       //!< receiving node id, the context of the arrival
        bool linkUp{true};         //!< the cable's state
        uint8_t capacityLog2{0};   //!< ring size = 2^capacityLog2 (0 = no ring yet)
        Reach reach{Reach::LOCAL}; //!< whether the frames stay in this process
        std::unique_ptr<FabricFrame[]> ring; //!< frames propagating, oldest at head
        uint32_t head{0};                    //!< index of the oldest frame
        uint32_t count{0};                   //!< frames propagating
    };

    static_assert(sizeof(Direction) == 64, "a cable direction should fill one cache line");

    std::size_t m_nDevices;            //!< attached ends, 0..2
    Ptr<PfcNetDevice> m_dev[2];        //!< the two ends
    Ptr<FabricEventImpl> m_deliver[2]; //!< m_deliver[i] runs m_dir[i].Deliver()
    Direction m_dir[2];                //!< m_dir[i]: frames travelling towards m_dev[i]
    Ptr<PfcRemoteExchange> m_exchange; //!< batches frames between processes (or null)
};

} // namespace ns3

#endif /* PFC_CHANNEL_H */
