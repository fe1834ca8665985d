/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: reuse of consumed packets by the endpoint that consumed them.
 */
#ifndef PACKET_RECYCLER_H
#define PACKET_RECYCLER_H

#include "ns3/packet.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Keeps packets an endpoint has consumed and hands them out again for its next sends.
 *
 * A packet whose body is an ns-3 zero area (the model never fills payload bytes) can be reused
 * once its headers are removed: the Packet object, its byte buffer (with the head and tail room
 * the headers and FCS used) and its metadata are all still allocated. Creating a fresh packet
 * instead costs a Packet allocation plus, once more than ns-3's 1,000 recycled buffers are in
 * flight (any busy fabric), four buffer allocations and copies as headers and FCS are added.
 * A RoceNic recycles the packets it receives into its recycler and takes its next data,
 * ACK and CNP packets from it, so NICs that receive about as much as they send allocate almost
 * nothing per packet. RoceNicHelper gives all the NICs it installs one shared recycler: the
 * packet a NIC has just consumed is then the next one any NIC sends, while its Packet object
 * and buffer are still in the CPU cache (a recycler per NIC hands out packets consumed long
 * before, which a large fabric has evicted from the cache by then).
 *
 * Safety: a packet is kept only if the recycler holds the sole reference to it (a trace sink
 * or queue that kept the packet prevents reuse); byte and packet tags are removed. The check
 * is made at the next Recycle() or Get(), once the receive call chain that handed the packet
 * over (and its copies of the pointer) has returned. Byte
 * buffers shared with copies are copy-on-write in ns-3, so copies are never affected.
 * Precondition of Recycle(): after \p headerBytes the packet holds only a zero area (what
 * Packet(size) creates), as every packet a RoceNic builds does.
 *
 * Packets are kept per body size, for up to MAX_SIZES sizes, and at most the capacity per size;
 * beyond that they are simply released.
 */
class PacketRecycler : public SimpleRefCount<PacketRecycler>
{
  public:
    /// Distinct body sizes kept (data MTU, ACK, CNP, one partial size).
    static constexpr std::size_t MAX_SIZES = 4;

    /**
     * \brief Set how many packets are kept per body size.
     * \param packets 0 disables recycling; memory is about 300 B per kept packet
     */
    void SetCapacity(uint32_t packets);
    /// \return packets kept per body size
    uint32_t GetCapacity() const;
    /**
     * \brief Add one user's share to the capacity (or remove it, with a negative value), so a
     *        recycler shared by n NICs keeps the sum of their RecycledPackets.
     * \param packets the change; aborts, naming the values, if the capacity would go below 0
     *        or above 2^32 - 1
     */
    void AddCapacity(int64_t packets);

    /**
     * \brief A packet of \p zeroBytes zero-filled bytes, reused if one is kept.
     *
     * A kept packet of exactly that body size is preferred, else the smallest larger one,
     * whose zero area is shortened (so a receiver's ACKs reuse the data packets it consumed).
     * \param zeroBytes body size in bytes
     * \return a packet equal to Create<Packet>(zeroBytes), without tags
     */
    Ptr<Packet> Get(uint32_t zeroBytes);

    /**
     * \brief Offer a consumed packet for reuse.
     * \param packet the packet; kept if, at the next Recycle() or Get(), no one else holds it
     * \param headerBytes bytes of headers at its start (removed); the rest must be a zero area
     * \param mayHaveTags false only if no code outside the model has seen the packet since
     *        Get() (a FabricFrame that never handed it out): its tags are then not cleared
     */
    void Recycle(Ptr<Packet> packet, uint32_t headerBytes, bool mayHaveTags = true);

    /// \return packets handed out by Get() that were reused
    uint64_t GetReused() const;
    /// \return packets handed out by Get() that had to be created
    uint64_t GetCreated() const;

  private:
    /// Keep the pending packet if the recycler is its only owner, else release it.
    void Settle();

    /// Packets of one body size.
    struct Bin
    {
        uint32_t zeroBytes{0};            //!< body size of the packets kept
        std::vector<Ptr<Packet>> packets; //!< kept packets, most recently consumed last
    };

    uint32_t m_capacity{256};    //!< packets kept per size (the sum of the users' shares)
    std::vector<Bin> m_bins;     //!< at most MAX_SIZES
    Ptr<Packet> m_pending;       //!< last packet offered, not yet settled
    uint32_t m_pendingHeader{0}; //!< its header bytes
    bool m_pendingTags{true};    //!< it may carry packet or byte tags
    uint64_t m_reused{0};        //!< Get() served from a bin
    uint64_t m_created{0};       //!< Get() created a packet
};

} // namespace ns3

#endif /* PACKET_RECYCLER_H */
