/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: NCCL's three communication protocols (LL, LL128, Simple) as model elements: how
 * they frame data on the wire, their buffers, steps and pipelining chunks.
 */
#ifndef NCCL_PROTOCOL_H
#define NCCL_PROTOCOL_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief An NCCL protocol (NCCL `src/include/device.h`, NCCL_PROTO_*; the order is NCCL's).
 *
 *  - LL (low latency): every 16-byte line carries 8 bytes of data and an 8-byte flag written
 *    with one 16-byte store, so the receiver polls the flags and needs no separate completion
 *    (lowest latency, 50 % wire efficiency);
 *  - LL128: 128-byte lines of 120 bytes of data and an 8-byte flag (93.75 %), relying on
 *    NVLink's ordering of 128-byte stores;
 *  - Simple: plain data in 512 KiB steps, each completed by a separate flag / fence (highest
 *    bandwidth, highest per-step latency).
 */
enum class NcclProtocol : uint8_t
{
    LL = 0, //!< NCCL_PROTO_LL
    LL128,  //!< NCCL_PROTO_LL128
    SIMPLE, //!< NCCL_PROTO_SIMPLE
    COUNT   //!< number of protocols (not a protocol)
};

/// Number of protocols.
constexpr uint32_t NCCL_NUM_PROTOCOLS = static_cast<uint32_t>(NcclProtocol::COUNT);

/**
 * \param p a protocol
 * \return NCCL's name: "LL", "LL128", "Simple"
 */
const char* NcclProtocolName(NcclProtocol p);

/**
 * \brief Parse a protocol name, case-insensitively ("ll", "LL128", "simple").
 * \param name the name
 * \param[out] p the protocol
 * \return false if \p name names no protocol (\p p unchanged)
 */
bool NcclProtocolFromName(const std::string& name, NcclProtocol* p);

/**
 * \ingroup ai-fabric-collective
 * \brief The framing and buffering of one NCCL protocol (NCCL `src/include/device.h`:
 *        NCCL_STEPS, NCCL_LL_LINES_PER_THREAD, NCCL_LL128_ELEMS_PER_THREAD, the default buffer
 *        sizes; `src/enqueue.cc`: chunk sizes).
 *
 * Every connection has a buffer of bufferBytes split into NCCL_STEPS = 8 slots (steps); a
 * sender may fill at most 8 steps ahead of its receiver. Data is carried in lines of
 * lineBytes, each holding lineDataBytes of data (Simple: no lines, 1 of 1).
 *
 * | protocol | line (data) | buffer      | step (data)       | chunk (data)      |
 * |----------|-------------|-------------|-------------------|-------------------|
 * | LL       | 16 (8) B    | 512 KiB     | 64 KiB (32 KiB)   | 32 KiB            |
 * | LL128    | 128 (120) B | 4,915,200 B | 614,400 (576,000) | 576,000 B         |
 * | Simple   | -           | 4 MiB       | 512 KiB           | ring 1 MiB slice, tree 512 KiB |
 */
struct NcclProtocolInfo
{
    NcclProtocol protocol; //!< which protocol
    uint32_t lineBytes;    //!< bytes of one line on the wire (Simple: 1)
    uint32_t lineData;     //!< data bytes in one line (Simple: 1)
    uint64_t bufferBytes;  //!< connection buffer, bytes (NCCL default buffSizes)
    uint32_t steps;        //!< slots per connection (NCCL_STEPS)

    /// \return bytes of one step (slot) on the wire: bufferBytes / steps
    uint64_t GetStepBytes() const;
    /// \return data bytes in one step: GetStepBytes() x lineData / lineBytes
    uint64_t GetStepDataBytes() const;
    /**
     * \brief The bytes the protocol puts on the wire for \p dataBytes of data: whole lines
     *        (LL: 16 B per 8 B, LL128: 128 B per 120 B, rounded up to a line; Simple: the data).
     * \param dataBytes data bytes (any)
     * \return wire bytes (0 for 0)
     */
    uint64_t GetWireBytes(uint64_t dataBytes) const;
    /**
     * \brief The wire bytes of a message of \p dataBytes sent in pieces of \p pieceBytes of
     *        data (every piece framed on its own, as CollectiveApplication sends them).
     * \param dataBytes data bytes of the message
     * \param pieceBytes data bytes per piece (>= 1)
     * \return the sum of GetWireBytes over the pieces
     */
    uint64_t GetWireBytes(uint64_t dataBytes, uint64_t pieceBytes) const;
    /// \return lineData / lineBytes (LL 0.5, LL128 0.9375, Simple 1)
    double GetEfficiency() const;
};

/**
 * \param p a protocol (aborts on COUNT)
 * \return its framing and buffering
 */
const NcclProtocolInfo& GetNcclProtocolInfo(NcclProtocol p);

} // namespace ns3

#endif /* NCCL_PROTOCOL_H */
