/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-frame-codec.h"

#include "ns3/abort.h"

#include <vector>

namespace ns3
{

namespace
{
constexpr uint8_t MAGIC = 0xAF;
constexpr uint8_t VERSION = 1;
constexpr uint8_t FLAG_ZERO_BODY = 0x01;
} // namespace

Ptr<Packet>
FabricFrameCodec::Encode(const FabricFrame& frame)
{
    NS_ABORT_MSG_IF(frame.IsEmpty(), "FabricFrameCodec::Encode: empty frame");
    const bool zeroBody = !frame.HasPacket();
    const uint32_t size = frame.GetSize();
    const uint32_t headBytes = frame.GetHeadBytes();
    const uint32_t bodyBytes = zeroBody ? headBytes : size;
    std::vector<uint8_t> out(PREFIX_BYTES + bodyBytes);
    out[0] = MAGIC;
    out[1] = VERSION;
    out[2] = zeroBody ? FLAG_ZERO_BODY : 0;
    out[3] = static_cast<uint8_t>(headBytes);
    out[4] = static_cast<uint8_t>(frame.GetSizeDiscount());
    out[5] = static_cast<uint8_t>(size >> 24);
    out[6] = static_cast<uint8_t>(size >> 16);
    out[7] = static_cast<uint8_t>(size >> 8);
    out[8] = static_cast<uint8_t>(size);
    if (zeroBody)
    {
        std::copy(frame.GetHead(), frame.GetHead() + headBytes, out.begin() + PREFIX_BYTES);
    }
    else
    {
        frame.GetPacket()->CopyData(out.data() + PREFIX_BYTES, size);
    }
    return Create<Packet>(out.data(), static_cast<uint32_t>(out.size()));
}

FabricFrame
FabricFrameCodec::Decode(const Ptr<const Packet>& bytes)
{
    NS_ABORT_MSG_IF(!bytes, "FabricFrameCodec::Decode: null packet");
    const uint32_t length = bytes->GetSize();
    NS_ABORT_MSG_IF(length < PREFIX_BYTES,
                    "FabricFrameCodec::Decode: " << length << " bytes, fewer than the "
                                                 << PREFIX_BYTES << "-byte prefix");
    std::vector<uint8_t> in(length);
    bytes->CopyData(in.data(), length);
    NS_ABORT_MSG_IF(in[0] != MAGIC || in[1] != VERSION,
                    "FabricFrameCodec::Decode: magic "
                        << unsigned(in[0]) << " version " << unsigned(in[1]) << "; expected "
                        << unsigned(MAGIC) << " version " << unsigned(VERSION));
    const bool zeroBody = (in[2] & FLAG_ZERO_BODY) != 0;
    const uint32_t headBytes = in[3];
    const uint32_t discount = in[4];
    const uint32_t size = (uint32_t(in[5]) << 24) | (uint32_t(in[6]) << 16) |
                          (uint32_t(in[7]) << 8) | uint32_t(in[8]);
    const uint32_t expected = PREFIX_BYTES + (zeroBody ? headBytes : size);
    NS_ABORT_MSG_IF(headBytes > FabricFrame::HEAD_CAPACITY || headBytes > size ||
                        length != expected || (discount > 0 && discount >= size),
                    "FabricFrameCodec::Decode: inconsistent encoding (head "
                        << headBytes << " B of at most " << FabricFrame::HEAD_CAPACITY << ", frame "
                        << size << " B, discount " << discount << " B, length " << length
                        << " B where " << expected << " were expected)");
    FabricFrame frame;
    if (zeroBody)
    {
        frame = FabricFrame(in.data() + PREFIX_BYTES, headBytes, size - headBytes);
    }
    else
    {
        frame = FabricFrame(Create<Packet>(in.data() + PREFIX_BYTES, size));
        frame.LoadHead(headBytes);
    }
    if (discount > 0)
    {
        frame.SetSizeDiscount(discount);
    }
    return frame;
}

} // namespace ns3
