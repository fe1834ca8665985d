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

/// \cond internal
#if defined(__SANITIZE_ADDRESS__)
#define AI_FABRIC_FRAME_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AI_FABRIC_FRAME_POOL 0
#endif
#endif
#ifndef AI_FABRIC_FRAME_POOL
/// Frame blocks come from a per-thread pool (1), or from new/delete under AddressSanitizer (0).
#define AI_FABRIC_FRAME_POOL 1
#endif
/// \endcond

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
 * benchmark, doc "Benchmarks").
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
 * Storage: the frame object is one pointer to its state (the packet reference, the sizes and
 * the head: two cache lines), which lives in a per-thread pool of such blocks. Queues and
 * cables therefore hold and move 8 bytes per frame, and a hop touches only the state's cache
 * lines its code reads (the Ethernet and IPv4 headers share the first), instead of copying
 * both lines into each queue slot and cable slot on the way (ai-fabric benchmark, doc
 * "Benchmarks"). The pool keeps at most as many blocks as frames were alive at
 * once; builds with AddressSanitizer use plain new/delete instead, so that a frame used after
 * its end is reported.
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
    {
        NS_ABORT_MSG_IF(!frame, "FabricFrame: null frame packet");
        m_body = NewBody();
        m_body->packet = PeekPointer(frame);
        m_body->size = frame->GetSize();
        m_body->packet->Ref();
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
    {
        if (headBytes > HEAD_CAPACITY || headBytes + zeroBytes == 0)
        {
            BadZeroBodyFrame(headBytes, zeroBytes);
        }
        m_body = NewBody();
        m_body->size = headBytes + zeroBytes;
        m_body->headBytes = static_cast<uint8_t>(headBytes);
        m_body->synced = false;
        std::memcpy(m_body->head, head, headBytes);
    }

    /// Not copyable: two frames sharing a packet would each write their head into it.
    FabricFrame(const FabricFrame&) = delete;
    /// Not copyable. \return -
    FabricFrame& operator=(const FabricFrame&) = delete;

    /// Move: takes the other frame's state (one pointer); \p other is empty.
    FabricFrame(FabricFrame&& other) noexcept
        : m_body(other.m_body)
    {
        other.m_body = nullptr;
    }

    /// Move assignment. \param other the frame to take (left empty) \return this frame
    FabricFrame& operator=(FabricFrame&& other) noexcept
    {
        if (this != &other)
        {
            Body* old = m_body;
            m_body = other.m_body;
            other.m_body = nullptr;
            if (old)
            {
                DeleteBody(old);
            }
        }
        return *this;
    }

    /// Releases the frame's packet reference (the packet is freed if it was the last).
    ~FabricFrame()
    {
        if (m_body)
        {
            DeleteBody(m_body);
        }
    }

    /// \return true if the frame holds nothing (default-constructed or moved from)
    bool IsEmpty() const
    {
        return m_body == nullptr;
    }

    /// \return the frame's size on the wire, bytes (header through FCS); 0 if empty
    uint32_t GetSize() const
    {
        return m_body ? m_body->size : 0;
    }

    /**
     * \brief The frame's size as the links and switch buffers charge it: GetSize() less the
     *        discount of a simplified header model (SetSizeDiscount); GetSize() without one.
     * \return bytes, >= 1 (0 if empty)
     */
    uint32_t GetChargedSize() const
    {
        return m_body ? m_body->size - m_body->sizeDiscount : 0;
    }

    /// \return bytes of the real frame a simplified header model does not charge (0: none)
    uint32_t GetSizeDiscount() const
    {
        return m_body ? m_body->sizeDiscount : 0;
    }

    /**
     * \brief Charge the frame fewer bytes than it has on links (serialization) and in switch
     *        buffers: a simplified header model, such as UEC htsim's 64 B of headers per packet
     *        (UetNic HeaderModelBytes). The discount stays with the frame through forwarding,
     *        head rewrites and trimming, where the charge is clamped to at least 1 byte.
     * \param bytes the discount, 0..min(255, GetSize() - 1) (aborts naming the value otherwise,
     *        and on an empty frame)
     */
    void SetSizeDiscount(uint32_t bytes)
    {
        if (!m_body || bytes > 255 || bytes >= m_body->size)
        {
            BadSizeDiscount(bytes);
        }
        m_body->sizeDiscount = static_cast<uint8_t>(bytes);
    }

    /// \return the frame's first GetHeadBytes() bytes (null if empty)
    const uint8_t* GetHead() const
    {
        return m_body ? m_body->head : nullptr;
    }

    /// \return how many bytes the head holds, 0..HEAD_CAPACITY
    uint32_t GetHeadBytes() const
    {
        return m_body ? m_body->headBytes : 0;
    }

    /// \return how many of the packet's first bytes the head replaces (see the class text)
    uint32_t GetStaleBytes() const
    {
        return m_body ? m_body->staleBytes : 0;
    }

    /**
     * \brief Make the head hold the frame's first min(\p bytes, GetSize()) bytes at least,
     * reading the missing ones from the packet (a no-op when it already does).
     * \param bytes wanted, 0..HEAD_CAPACITY (more are not read)
     */
    void LoadHead(uint32_t bytes)
    {
        if (m_body && m_body->headBytes < std::min({bytes, HEAD_CAPACITY, m_body->size}))
        {
            ExtendHead(std::min({bytes, HEAD_CAPACITY, m_body->size}));
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
     * \return false (and no change) if those limits are not met, or the frame is empty: the
     *         caller falls back to rewriting GetPacket()
     */
    bool ReplaceHead(uint32_t oldBytes, const uint8_t* bytes, uint32_t newBytes)
    {
        Body* b = m_body;
        if (!b || oldBytes > b->headBytes || b->headBytes - oldBytes + newBytes > HEAD_CAPACITY)
        {
            return false;
        }
        uint32_t tail = b->headBytes - oldBytes;
        if (oldBytes != newBytes)
        {
            std::memmove(b->head + newBytes, b->head + oldBytes, tail);
        }
        std::memcpy(b->head, bytes, newBytes);
        b->headBytes = static_cast<uint8_t>(tail + newBytes);
        b->size = b->size - oldBytes + newBytes;
        if (b->sizeDiscount >= b->size)
        {
            b->sizeDiscount = static_cast<uint8_t>(b->size - 1);
        }
        b->synced = false;
        return true;
    }

    /**
     * \brief Write access to the frame's first \p bytes in the head (e.g. to rewrite IPv4
     * fields in place); the packet is not touched.
     * \param bytes how many bytes the caller will read or write
     * \return the head, or null if it holds fewer than \p bytes (read them with CopyData and
     *         replace them with ReplaceHead instead) or the frame is empty
     */
    uint8_t* MutableHead(uint32_t bytes)
    {
        if (!m_body || bytes > m_body->headBytes)
        {
            return nullptr;
        }
        m_body->synced = false;
        return m_body->head;
    }

    /**
     * \brief The packet holding the whole frame: the head is written into it first if it
     * changed since the packet last showed it; a zero-body frame's packet is created here. Use
     * it whenever the frame leaves the fast path.
     * \return the packet (null for an empty frame)
     */
    Ptr<Packet> GetPacket() const
    {
        if (!m_body)
        {
            return nullptr;
        }
        if (!m_body->synced)
        {
            Sync();
        }
        return Ptr<Packet>(m_body->packet);
    }

    /**
     * \return the packet as it is (its first GetStaleBytes() bytes may be out of date), without
     *         writing the head into it; nullptr for a zero-body frame whose packet was not
     *         created yet (HasPacket())
     */
    Packet* PeekPacket() const
    {
        return m_body ? m_body->packet : nullptr;
    }

    /**
     * \return true if the frame has an ns-3 packet: it wraps or was built with one, or it has
     *         a zero body and GetPacket() was called
     */
    bool HasPacket() const
    {
        return m_body && m_body->packet;
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

    /// A frame's state: two cache lines, from the pool (NewBody) or, when free, on its list.
    struct alignas(64) Body
    {
        union {
            Packet* packet; //!< the packet (one reference owned), or null (in use)
            Body* next;     //!< the next free block (on the pool's free list)
        };

        uint32_t size;               //!< frame bytes on the wire
        uint8_t headBytes;           //!< valid bytes in head
        uint8_t staleBytes;          //!< packet bytes the head replaces (0 without a packet)
        bool synced;                 //!< the packet exists and its first bytes equal the head
        uint8_t sizeDiscount;        //!< bytes the links and buffers do not charge
        uint8_t head[HEAD_CAPACITY]; //!< the frame's first bytes
    };

    static_assert(sizeof(Body) == 128, "a frame's state is two cache lines");

    /// \return a block for a new frame: no packet, sizes 0, synced, head bytes undefined
    static Body* NewBody();
    /// Drop the frame's packet reference and return its block to the pool. \param body it
    static void DeleteBody(Body* body);
    /// Add blocks to this thread's free list (the list is empty). \return one of them, taken
    static Body* GrowPool();

    Body* m_body{nullptr}; //!< the frame's state; null when empty
};

static_assert(sizeof(FabricFrame) == sizeof(void*), "a FabricFrame is one pointer");

/// \cond internal
namespace fabric_frame_pool
{
/// This thread's free frame blocks, linked through Body::next (a __thread pointer: no
/// constructor, hence no TLS wrapper call per access).
extern __thread void* t_free __attribute__((tls_model("initial-exec")));
} // namespace fabric_frame_pool

/// \endcond

inline FabricFrame::Body*
FabricFrame::NewBody()
{
#if !AI_FABRIC_FRAME_POOL
    Body* b = new Body;
#else
    Body* b = static_cast<Body*>(fabric_frame_pool::t_free);
    if (b)
    {
        fabric_frame_pool::t_free = b->next;
    }
    else
    {
        b = GrowPool();
    }
#endif
    b->packet = nullptr;
    b->size = 0;
    b->headBytes = 0;
    b->staleBytes = 0;
    b->synced = true;
    b->sizeDiscount = 0;
    return b;
}

inline void
FabricFrame::DeleteBody(Body* body)
{
    if (body->packet)
    {
        body->packet->Unref();
    }
#if !AI_FABRIC_FRAME_POOL
    delete body;
#else
    body->next = static_cast<Body*>(fabric_frame_pool::t_free);
    fabric_frame_pool::t_free = body;
#endif
}

} // namespace ns3

#endif /* FABRIC_FRAME_H */
