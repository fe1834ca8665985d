/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the in-band network telemetry (INT) stack of HPCC flows on RoCEv2 packets.
 */
#ifndef ROCE_INT_HEADER_H
#define ROCE_INT_HEADER_H

#include "ns3/fabric-congestion-ops.h"
#include "ns3/switch-telemetry-writer.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief The INT stack HPCC (Li et al., SIGCOMM 2019, section 4.1: "8 bytes per hop and a
 *        2-byte header") needs, as the model puts it on RoCEv2 packets: the codec, the
 *        markers and the per-hop record encoding.
 *
 * Where: right after the BTH (before RETH/ImmDt/AETH), present when BTH octet 4 bit 5
 * (BTH_INT_BIT, a reserved bit) is set. The sender reserves the whole stack (header plus
 * capacity x 8 bytes, zeros) in every data packet of an INT QP, so the frame has the same
 * size at every hop (as HPCC's implementation does): the bytes count on the wire, in
 * serialization and in switch buffers, from the first hop on. Switches fill the records in
 * place; they append only to packets whose IPv4 flags carry IPV4_INT_BIT (the reserved flag
 * bit, RFC 791), which the sender sets on INT data packets only: one byte test on the
 * IPv4 header the switch already reads. ACKs carry a copy of the stack the data packet
 * arrived with (BTH_INT_BIT set, IPV4_INT_BIT clear: switches leave it alone).
 *
 *     octet 0   overflow 1 (bit 7: a hop found the stack full) | reserved 3 | nHops 4
 *     octet 1   capacity: hop records reserved, 0..MAX_HOPS
 *     then capacity records of 8 octets, big-endian 64-bit words, hop 0 (first switch) first:
 *       bits 63..60  link rate code (RateCode: 1 Gb/s .. 1.6 Tb/s)
 *       bits 59..36  timestamp, ns, modulo 2^24 (wraps every 16.78 ms)
 *       bits 35..16  transmitted bytes of the egress port / 128, modulo 2^20 (wraps at
 *                    128 MiB: 1.34 ms at 800 Gb/s, 2.7 ms at 400 Gb/s)
 *       bits 15..0   egress queue bytes of the packet's priority / 128, saturating at 65535
 *                    (8 MiB - 128 B)
 *
 * Decode gives the wrapped values (txBytes a multiple of 128, timestamp below 2^24 ns); the
 * receiver of a stream of stacks unwraps them against its previous sample (Unwrap), valid while
 * samples of a hop are less than one wrap apart.
 */
class RoceInt
{
  public:
    static constexpr uint32_t HEADER_BYTES = 2; //!< the stack header
    static constexpr uint32_t HOP_BYTES = 8;    //!< one hop record
    static constexpr uint32_t MAX_HOPS = 5;     //!< most hop records a stack reserves
    /// Largest stack, bytes.
    static constexpr uint32_t MAX_BYTES = HEADER_BYTES + MAX_HOPS * HOP_BYTES;
    /// Bit of BTH octet 4 (reserved) that says an INT stack follows the BTH.
    static constexpr uint8_t BTH_INT_BIT = 0x20;
    /// Bit of IPv4 octet 6 (the reserved flag) that asks switches to append a hop record.
    static constexpr uint8_t IPV4_INT_BIT = SWITCH_TELEMETRY_IPV4_FLAG;
    static constexpr uint32_t BYTE_UNIT = 128;        //!< txBytes and queue length unit
    static constexpr uint64_t TS_MODULO = 1ull << 24; //!< timestamp wrap, ns
    static constexpr uint64_t TX_MODULO = (1ull << 20) * BYTE_UNIT; //!< txBytes wrap, bytes
    static constexpr uint64_t QLEN_MAX = 65535ull * BYTE_UNIT;      //!< largest queue length

    /**
     * \param capacity hop records, 0..MAX_HOPS
     * \return the stack's size in bytes (header included)
     */
    static constexpr uint32_t StackBytes(uint32_t capacity)
    {
        return HEADER_BYTES + capacity * HOP_BYTES;
    }

    /**
     * \brief Write an empty stack (no hops, capacity records of zeros).
     * \param p where, StackBytes(capacity) bytes
     * \param capacity hop records, 0..MAX_HOPS (aborts otherwise)
     */
    static void InitStack(uint8_t* p, uint32_t capacity);

    /// \param p a stack \return its hop records written
    static uint32_t GetNHops(const uint8_t* p)
    {
        return p[0] & 0x0f;
    }

    /// \param p a stack \return its capacity, hop records
    static uint32_t GetCapacity(const uint8_t* p)
    {
        return p[1];
    }

    /// \param p a stack \return true if a hop found it full
    static bool IsOverflow(const uint8_t* p)
    {
        return (p[0] & 0x80) != 0;
    }

    /**
     * \brief The switches' writer of RoCEv2's INT (SwitchTelemetryWriteFn for UDP 4791): for
     *        an IPv4 header without options, UDP and a BTH with BTH_INT_BIT, appends \p hop to
     *        the stack after the BTH; leaves other frames (or a stack of an unknown capacity)
     *        alone.
     * \param frame the frame
     * \param l2Bytes bytes of its L2 header
     * \param hop the hop's telemetry
     */
    static void WriteSwitchHop(FabricFrame& frame, uint32_t l2Bytes, const SwitchHopTelemetry& hop);
    /**
     * \brief Append a hop record (a switch forwarding the packet).
     * \param p the stack
     * \param hop the hop's telemetry (its link rate must have a RateCode)
     * \return false if the stack was full (the overflow bit is set instead)
     */
    static bool AppendHop(uint8_t* p, const FabricCcHopTelemetry& hop);
    /**
     * \param hop a hop's telemetry
     * \return its 64-bit record (see the class description); aborts if the link rate has no
     *         code, naming it and the valid rates
     */
    static uint64_t EncodeHop(const FabricCcHopTelemetry& hop);
    /**
     * \param record a 64-bit record
     * \return its telemetry, wrapped (txBytes a multiple of BYTE_UNIT below TX_MODULO,
     *         timestamp below TS_MODULO ns, queue bytes a multiple of BYTE_UNIT)
     */
    static FabricCcHopTelemetry DecodeHop(uint64_t record);
    /**
     * \param p a stack
     * \param i hop index, < GetNHops(p)
     * \return hop i's record, decoded
     */
    static FabricCcHopTelemetry ReadHop(const uint8_t* p, uint32_t i);
    /**
     * \brief Unwrap a decoded hop against the previous unwrapped sample of the same hop:
     *        txBytes and timestamp advance by their difference modulo the wrap.
     * \param decoded the new sample, as DecodeHop gives it
     * \param previous the previous unwrapped sample of the hop
     * \return the unwrapped sample
     */
    static FabricCcHopTelemetry Unwrap(const FabricCcHopTelemetry& decoded,
                                       const FabricCcHopTelemetry& previous);
    /**
     * \param bps a link rate, bits/s
     * \return its 4-bit code, 0 if it has none
     */
    static uint8_t RateCode(uint64_t bps);
    /**
     * \param code a 4-bit code
     * \return the rate, bits/s (0 for 0 and unused codes)
     */
    static uint64_t CodeRate(uint8_t code);
    /// \return the rates with a code, e.g. "1Gbps, 10Gbps, ..." (for error messages)
    static std::string ValidRates();
};

} // namespace ns3

#endif /* ROCE_INT_HEADER_H */
