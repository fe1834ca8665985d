/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a frame as bytes, for a cable whose ends run in different processes.
 */
#ifndef FABRIC_FRAME_CODEC_H
#define FABRIC_FRAME_CODEC_H

#include "fabric-frame.h"

#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief Turns a FabricFrame into one ns-3 packet of bytes and back, so that a frame can cross
 *        between MPI processes (ns-3's MpiInterface::SendPacket carries packets) and arrive as
 *        the frame that left: same size, same head bytes, same charged-size discount.
 *
 * A frame whose bytes after its head are all zero (a NIC's headers followed by zeros,
 * FabricFrame's "Zero bodies", also once observed and given a packet) travels as its head and
 * its size only, and arrives as a zero-body frame: it has no ns-3 packet at the receiver until
 * something observes it there (the same bytes). Any other frame travels with all its bytes
 * (its packet, with the head written in) and arrives wrapping a packet of those bytes, with
 * the same number of head bytes loaded. Packet tags and byte tags do not travel (ai-fabric's
 * model keeps none on frames).
 *
 * Format, version 1 (big-endian): magic 0xAF, version 1, flags (bit 0: zero body), head
 * bytes (0..FabricFrame::HEAD_CAPACITY), size discount (0..255), frame size (4 bytes), then
 * the head's bytes (zero body) or the frame's GetSize() bytes.
 */
class FabricFrameCodec
{
  public:
    /// Bytes before the frame's own bytes in an encoded packet.
    static constexpr uint32_t PREFIX_BYTES = 9;

    /**
     * \brief Encode a frame.
     * \param frame the frame; not empty (aborts otherwise); left unchanged, except that a
     *        frame with a packet writes its head into that packet first (FabricFrame::GetPacket)
     * \return a new packet of PREFIX_BYTES + head bytes (zero body) or + GetSize() bytes
     */
    static Ptr<Packet> Encode(const FabricFrame& frame);

    /**
     * \brief Append a frame's encoding to a byte buffer (Encode() without the packet).
     * \param frame the frame; not empty (aborts otherwise)
     * \param out the buffer; the encoding is appended
     * \return bytes appended
     */
    static uint32_t EncodeTo(const FabricFrame& frame, std::vector<uint8_t>& out);

    /**
     * \brief Decode what Encode() produced.
     * \param bytes the encoded packet; aborts naming the fault if it is not a version-1
     *        encoding (wrong magic or version, head bytes above HEAD_CAPACITY, a length that
     *        disagrees with the sizes, a discount not below the size): between processes of
     *        one simulation such a packet is a defect, not input
     * \return the frame
     */
    static FabricFrame Decode(const Ptr<const Packet>& bytes);

    /**
     * \brief Decode one encoding from a byte buffer.
     * \param data the encoding's first byte
     * \param length its bytes (exactly one encoding; the same checks as Decode())
     * \return the frame
     */
    static FabricFrame Decode(const uint8_t* data, uint32_t length);

    /**
     * \param data an encoding's first PREFIX_BYTES bytes (at least)
     * \return the bytes of that whole encoding (prefix included)
     */
    static uint32_t GetEncodedBytes(const uint8_t* data);
};

} // namespace ns3

#endif /* FABRIC_FRAME_CODEC_H */
