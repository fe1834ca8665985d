/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-frame-codec.h"

#include "ns3/abort.h"

#include <algorithm>
#include <vector>

namespace ns3
{

namespace
{
constexpr uint8_t MAGIC = 0xAF;
constexpr uint8_t VERSION = 1;
constexpr uint8_t FLAG_ZERO_BODY = 0x01;
} // namespace

uint32_t
FabricFrameCodec::EncodeTo(const FabricFrame& frame, std::vector<uint8_t>& out)
{
    NS_ABORT_MSG_IF(frame.IsEmpty(), "FabricFrameCodec::Encode: empty frame");
    const uint32_t size = frame.GetSize();
    const uint32_t headBytes = frame.GetHeadBytes();
    const size_t at = out.size();
    bool zeroBody = !frame.HasPacket();
    if (!zeroBody)
    {
        // An observed frame of headers and zeros still travels as a zero body.
        out.resize(at + PREFIX_BYTES + size);
        frame.GetPacket()->CopyData(out.data() + at + PREFIX_BYTES, size);
        const uint8_t* body = out.data() + at + PREFIX_BYTES;
        zeroBody = std::all_of(body + headBytes, body + size, [](uint8_t b) { return b == 0; });
        if (zeroBody)
        {
            out.resize(at + PREFIX_BYTES + headBytes);
        }
    }
    else
    {
        out.resize(at + PREFIX_BYTES + headBytes);
        std::copy(frame.GetHead(), frame.GetHead() + headBytes, out.begin() + at + PREFIX_BYTES);
    }
    uint8_t* p = out.data() + at;
    p[0] = MAGIC;
    p[1] = VERSION;
    p[2] = zeroBody ? FLAG_ZERO_BODY : 0;
    p[3] = static_cast<uint8_t>(headBytes);
    p[4] = static_cast<uint8_t>(frame.GetSizeDiscount());
    p[5] = static_cast<uint8_t>(size >> 24);
    p[6] = static_cast<uint8_t>(size >> 16);
    p[7] = static_cast<uint8_t>(size >> 8);
    p[8] = static_cast<uint8_t>(size);
    return static_cast<uint32_t>(out.size() - at);
}

Ptr<Packet>
FabricFrameCodec::Encode(const FabricFrame& frame)
{
    std::vector<uint8_t> out;
    EncodeTo(frame, out);
    return Create<Packet>(out.data(), static_cast<uint32_t>(out.size()));
}

uint32_t
FabricFrameCodec::GetEncodedBytes(const uint8_t* data)
{
    const uint32_t size = (uint32_t(data[5]) << 24) | (uint32_t(data[6]) << 16) |
                          (uint32_t(data[7]) << 8) | uint32_t(data[8]);
    return PREFIX_BYTES + ((data[2] & FLAG_ZERO_BODY) ? data[3] : size);
}

FabricFrame
FabricFrameCodec::Decode(const Ptr<const Packet>& bytes)
{
    NS_ABORT_MSG_IF(!bytes, "FabricFrameCodec::Decode: null packet");
    std::vector<uint8_t> in(bytes->GetSize());
    bytes->CopyData(in.data(), static_cast<uint32_t>(in.size()));
    return Decode(in.data(), static_cast<uint32_t>(in.size()));
}

FabricFrame
FabricFrameCodec::Decode(const uint8_t* in, uint32_t length)
{
    NS_ABORT_MSG_IF(length < PREFIX_BYTES,
                    "FabricFrameCodec::Decode: " << length << " bytes, fewer than the "
                                                 << PREFIX_BYTES << "-byte prefix");
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
        frame = FabricFrame(in + PREFIX_BYTES, headBytes, size - headBytes);
    }
    else
    {
        frame = FabricFrame(Create<Packet>(in + PREFIX_BYTES, size));
        frame.LoadHead(headBytes);
    }
    if (discount > 0)
    {
        frame.SetSizeDiscount(discount);
    }
    return frame;
}

} // namespace ns3
