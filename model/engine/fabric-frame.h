/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a frame on its way through ports and cables, with its first bytes held beside the
 * ns-3 packet.
 */
#ifndef FABRIC_FRAME_H
#define FABRIC_FRAME_H

#include "ns3/abort.h"
#include "ns3/packet.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief An Ethernet frame as ai-fabric's ports, cables and switches move it: an ns-3 Packet
 * plus a copy of the frame's first bytes (its "head": Ethernet, IPv4, UDP and RoCEv2 headers).
 *
 * The frame on the wire is the head's bytes followed by the packet's bytes from
 * GetStaleBytes() on; the packet's first GetStaleBytes() bytes are an older version of the
 * head. A switch forwards a frame by rewriting the head (new Ethernet header, TTL, ECN,
 * checksum) with ReplaceHead(), and a NIC builds one from its header bytes and a zero body
 * (no packet at all, see below), so the ns-3 packet itself is neither read nor changed along the
 * way: at each hop that saves a buffer copy of the headers, a header removal and an addition (with
 * its metadata and tag bookkeeping), and the cache misses on the packet's objects (ai-fabric
 * benchmark, doc "Simulation performance").
 *
 * GetPacket() returns the packet with the head written into it (one RemoveAtStart and one
 * AddHeader of a FabricWireHeader, only when the head changed since): whatever hands the frame
 * to code outside this fast path (trace sinks, pcap, drop traces, error models, ns-3 receive
 * callbacks) calls it, so everything outside sees exactly the bytes a per-hop rewrite of the
 * packet would have produced.
 *
 * A frame owns one reference to its packet and is moved, never copied: a move passes that
 * reference on without updating the reference count, hence without touching the packet. The
 * packet must not be changed through other references while a frame holds it (GetPacket()
 * hands it out when the frame leaves the fast path for good, or for reading).
 *
 * Zero bodies: a NIC's frame is its headers followed by zeros (payload, ICRC, padding, FCS;
 * the model carries no data). Such a frame is built with no ns-3 packet at all (the
 * zero-body constructor): the packet is created by the first GetPacket(), i.e. only if the
 * frame is ever shown outside the fast path. A frame that crosses the fabric unobserved costs
 * no packet allocation, reference counting or packet cache misses anywhere.
 */
class FabricFrame
{
  public:
    /// Largest head, bytes (FabricWireHeader::MAX_BYTES): 18 B of Ethernet + 802.1Q and the
    /// 88 B of an Ultra Ethernet data packet's IPv4/UDP/PDS (RUD_CC_REQ, 16 B)/SES (standard,
    /// 44 B) headers, rounded so that a frame is two cache lines (RoCE needs 78 B; the larger
    /// head costs the RoCE benchmarks +0.2-0.3 % instructions).
    static constexpr uint32_t HEAD_CAPACITY = 112;

    /// An empty frame (IsEmpty()).
    FabricFrame() = default;

    /**
     * \brief Wrap a packet that holds the whole frame; the head is empty until LoadHead().
     * \param frame the frame (aborts if null)
     */
    explicit FabricFrame(const Ptr<Packet>& frame)
        : m_packet(PeekPointer(frame))
    {
        NS_ABORT_MSG_IF(!frame, "FabricFrame: null frame packet");
        m_size = frame->GetSize();
        m_packet->Ref();
    }

    /**
     * \brief A frame made of \p headBytes header bytes followed by the whole of \p body.
     * \param body the rest of the frame (payload, trailers, padding, FCS); must not be null
     * \param head the header bytes
     * \param headBytes how many, 0..HEAD_CAPACITY (aborts otherwise)
     */
    FabricFrame(const Ptr<Packet>& body, const uint8_t* head, uint32_t headBytes);

    /**
     * \brief A frame made of \p headBytes header bytes followed by \p zeroBytes zero bytes,
     *        with no ns-3 packet until GetPacket() creates one (see "Zero bodies" above).
     * \param head the header bytes
     * \param headBytes how many, 0..HEAD_CAPACITY (aborts otherwise)
     * \param zeroBytes bytes after the head (payload, trailers, padding, FCS), all zero;
     *        headBytes + zeroBytes must be > 0 (aborts otherwise: that is an empty frame)
     */
    FabricFrame(const uint8_t* head, uint32_t headBytes, uint32_t zeroBytes)
        : m_size(headBytes + zeroBytes),
          m_headBytes(static_cast<uint8_t>(headBytes)),
          m_synced(false)
    {
        if (headBytes > HEAD_CAPACITY || m_size == 0)
        {
            BadZeroBodyFrame(headBytes, zeroBytes);
        }
        std::memcpy(m_head, head, headBytes);
    }

    /// Not copyable: two frames sharing a packet would each write their head into it.
    FabricFrame(const FabricFrame&) = delete;
    /// Not copyable. \return -
    FabricFrame& operator=(const FabricFrame&) = delete;

    /// Move: takes the other frame's reference without touching the packet; \p other is empty.
    FabricFrame(FabricFrame&& other) noexcept
    {
        std::memcpy(static_cast<void*>(this), &other, sizeof(FabricFrame));
        other.m_packet = nullptr;
        other.m_size = 0;
    }

    /// Move assignment. \param other the frame to take (left empty) \return this frame
    FabricFrame& operator=(FabricFrame&& other) noexcept
    {
        if (this != &other)
        {
            Packet* old = m_packet;
            std::memcpy(static_cast<void*>(this), &other, sizeof(FabricFrame));
            other.m_packet = nullptr;
            other.m_size = 0;
            if (old)
            {
                old->Unref();
            }
        }
        return *this;
    }

    /// Releases the frame's packet reference (the packet is freed if it was the last).
    ~FabricFrame()
    {
        if (m_packet)
        {
            m_packet->Unref();
        }
    }

    /// \return true if the frame holds nothing (default-constructed or moved from)
    bool IsEmpty() const
    {
        return m_packet == nullptr && m_size == 0;
    }

    /// \return the frame's size on the wire, bytes (header through FCS)
    uint32_t GetSize() const
    {
        return m_size;
    }

    /**
     * \brief The frame's size as the links and switch buffers charge it: GetSize() less the
     *        discount of a simplified header model (SetSizeDiscount); GetSize() without one.
     * \return bytes, >= 1
     */
    uint32_t GetChargedSize() const
    {
        return m_size - m_sizeDiscount;
    }

    /// \return bytes of the real frame a simplified header model does not charge (0: none)
    uint32_t GetSizeDiscount() const
    {
        return m_sizeDiscount;
    }

    /**
     * \brief Charge the frame fewer bytes than it has on links (serialization) and in switch
     *        buffers: a simplified header model, such as UEC htsim's 64 B of headers per packet
     *        (UetNic HeaderModelBytes). The discount stays with the frame through forwarding,
     *        head rewrites and trimming, where the charge is clamped to at least 1 byte.
     * \param bytes the discount, 0..min(255, GetSize() - 1) (aborts naming the value otherwise)
     */
    void SetSizeDiscount(uint32_t bytes)
    {
        if (bytes > 255 || bytes >= m_size)
        {
            BadSizeDiscount(bytes);
        }
        m_sizeDiscount = static_cast<uint8_t>(bytes);
    }

    /// \return the frame's first GetHeadBytes() bytes
    const uint8_t* GetHead() const
    {
        return m_head;
    }

    /// \return how many bytes the head holds, 0..HEAD_CAPACITY
    uint32_t GetHeadBytes() const
    {
        return m_headBytes;
    }

    /// \return how many of the packet's first bytes the head replaces (see the class text)
    uint32_t GetStaleBytes() const
    {
        return m_staleBytes;
    }

    /**
     * \brief Make the head hold the frame's first min(\p bytes, GetSize()) bytes at least,
     * reading the missing ones from the packet (a no-op when it already does).
     * \param bytes wanted, 0..HEAD_CAPACITY (more are not read)
     */
    void LoadHead(uint32_t bytes)
    {
        if (m_headBytes < std::min({bytes, HEAD_CAPACITY, m_size}))
        {
            ExtendHead(std::min({bytes, HEAD_CAPACITY, m_size}));
        }
    }

    /**
     * \brief Copy the frame's first bytes (from the head, then from the packet).
     * \param out destination of \p bytes bytes
     * \param bytes how many
     * \return how many were copied (fewer when the frame is shorter)
     */
    uint32_t CopyData(uint8_t* out, uint32_t bytes) const;

    /**
     * \brief Replace the frame's first \p oldBytes bytes by \p newBytes bytes, in the head
     * only (the packet is not touched; the frame size changes by newBytes - oldBytes).
     * \param oldBytes bytes replaced, at most GetHeadBytes()
     * \param bytes the new bytes
     * \param newBytes how many; GetHeadBytes() - oldBytes + newBytes must not exceed
     *        HEAD_CAPACITY
     * \return false (and no change) if those limits are not met: the caller falls back to
     *         rewriting GetPacket()
     */
    bool ReplaceHead(uint32_t oldBytes, const uint8_t* bytes, uint32_t newBytes)
    {
        if (oldBytes > m_headBytes || m_headBytes - oldBytes + newBytes > HEAD_CAPACITY)
        {
            return false;
        }
        uint32_t tail = m_headBytes - oldBytes;
        if (oldBytes != newBytes)
        {
            std::memmove(m_head + newBytes, m_head + oldBytes, tail);
        }
        std::memcpy(m_head, bytes, newBytes);
        m_headBytes = static_cast<uint8_t>(tail + newBytes);
        m_size = m_size - oldBytes + newBytes;
        if (m_sizeDiscount >= m_size)
        {
            m_sizeDiscount = static_cast<uint8_t>(m_size - 1);
        }
        m_synced = false;
        return true;
    }

    /**
     * \brief Write access to the frame's first \p bytes in the head (e.g. to rewrite IPv4
     * fields in place); the packet is not touched.
     * \param bytes how many bytes the caller will read or write
     * \return the head, or null if it holds fewer than \p bytes (read them with CopyData and
     *         replace them with ReplaceHead instead)
     */
    uint8_t* MutableHead(uint32_t bytes)
    {
        if (bytes > m_headBytes)
        {
            return nullptr;
        }
        m_synced = false;
        return m_head;
    }

    /**
     * \brief The packet holding the whole frame: the head is written into it first if it
     * changed since the packet last showed it; a zero-body frame's packet is created here. Use
     * it whenever the frame leaves the fast path.
     * \return the packet (null for an empty frame)
     */
    Ptr<Packet> GetPacket() const
    {
        if (!m_synced)
        {
            Sync();
        }
        return Ptr<Packet>(m_packet);
    }

    /**
     * \return the packet as it is (its first GetStaleBytes() bytes may be out of date), without
     *         writing the head into it; nullptr for a zero-body frame whose packet was not
     *         created yet (HasPacket())
     */
    Packet* PeekPacket() const
    {
        return m_packet;
    }

    /**
     * \return true if the frame has an ns-3 packet: it wraps or was built with one, or it has
     *         a zero body and GetPacket() was called
     */
    bool HasPacket() const
    {
        return m_packet != nullptr;
    }

  private:
    /**
     * \brief Abort with a message on bad zero-body constructor arguments.
     * \param headBytes the head size given
     * \param zeroBytes the body size given
     */
    [[noreturn]] static void BadZeroBodyFrame(uint32_t headBytes, uint32_t zeroBytes);
    /**
     * \brief Abort with a message on a bad SetSizeDiscount argument.
     * \param bytes the discount given
     */
    [[noreturn]] void BadSizeDiscount(uint32_t bytes) const;
    /// Write the head into the packet (RemoveAtStart of the stale bytes, AddHeader), creating
    /// the packet of a zero body first.
    void Sync() const;
    /// Read packet bytes into the head until it holds \p bytes (<= HEAD_CAPACITY, GetSize()).
    void ExtendHead(uint32_t bytes);
    /**
     * \brief Copy packet bytes that follow the stale ones.
     * \param out destination
     * \param offset frame offset of the first byte wanted, >= GetHeadBytes()
     * \param bytes how many; the stale bytes plus these are at most 2 * HEAD_CAPACITY
     * \return how many the packet had
     */
    uint32_t CopyFromPacket(uint8_t* out, uint32_t offset, uint32_t bytes) const;

    mutable Packet* m_packet{nullptr}; //!< the packet (one reference owned), or null
    uint32_t m_size{0};                //!< frame bytes on the wire
    uint8_t m_headBytes{0};            //!< valid bytes in m_head
    mutable uint8_t m_staleBytes{0};   //!< packet bytes the head replaces (0 without a packet)
    mutable bool m_synced{true};       //!< the packet exists and its first bytes equal the head
    uint8_t m_head[HEAD_CAPACITY];     //!< the frame's first bytes
    uint8_t m_sizeDiscount{0};         //!< bytes the links and buffers do not charge
};

static_assert(sizeof(FabricFrame) == 128, "a FabricFrame is two cache lines");

} // namespace ns3

#endif /* FABRIC_FRAME_H */
