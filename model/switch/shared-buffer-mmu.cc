/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "shared-buffer-mmu.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharedBufferMmu");
NS_OBJECT_ENSURE_REGISTERED(SharedBufferMmu);

TypeId
SharedBufferMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SharedBufferMmu")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<SharedBufferMmu>()
            .AddAttribute(
                "BufferSize",
                "Total packet buffer of the switch, bytes (e.g. 64 MB for a "
                "51.2 Tb/s Tomahawk 5 class chip; default 32 MiB).",
                UintegerValue(32ull << 20),
                MakeUintegerAccessor(&SharedBufferMmu::m_bufferSize),
                MakeFabricUintegerChecker<uint64_t>("ns3::SharedBufferMmu::BufferSize", 1))
            .AddAttribute(
                "SharedPoolSize",
                "Size of the shared pool, bytes, set directly: the headroom of every (ingress "
                "port, lossless priority) and the reserved bytes come on top of it, and "
                "BufferSize is then only the capacity pool + reserved + headroom must fit in "
                "(Configure() aborts otherwise, naming the sizes and the BufferSize needed). "
                "0 (default) = derived: BufferSize minus all reserved and headroom bytes.",
                UintegerValue(0),
                MakeUintegerAccessor(&SharedBufferMmu::m_sharedPoolSize),
                MakeUintegerChecker<uint64_t>())
            .AddAttribute("ReservedBytes",
                          "Guaranteed (min) bytes per (ingress port, priority).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::m_reservedBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HeadroomBytes",
                          "Headroom per (ingress port, lossless priority), bytes; 0 = compute "
                          "per port from rate, cable delay, frame size and PfcResponseTime.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::m_headroomBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PfcResponseTime",
                          "Time the upstream port needs to act on a PFC frame, added to the "
                          "computed headroom (rate x time).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SharedBufferMmu::m_pfcResponseTime),
                          MakeFabricTimeChecker("ns3::SharedBufferMmu::PfcResponseTime", Time(0)))
            .AddAttribute("ThresholdMode",
                          "Ingress XOFF threshold: Static (XoffStaticBytes) or Dynamic "
                          "(Alpha x free shared bytes).",
                          EnumValue(DYNAMIC),
                          compat::MakeEnumAccessor<ThresholdMode>(&SharedBufferMmu::m_mode),
                          MakeEnumChecker(STATIC, "Static", DYNAMIC, "Dynamic"))
            .AddAttribute("Alpha",
                          "Dynamic threshold factor (> 0): a (port, priority) may use "
                          "Alpha x (shared pool - shared used). Broadcom/SONiC use powers of "
                          "two from 1/128 to 8.",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SharedBufferMmu::m_alpha),
                          MakeFabricPositiveDoubleChecker("ns3::SharedBufferMmu::Alpha"))
            .AddAttribute("XoffStaticBytes",
                          "Static XOFF threshold: shared bytes a (port, priority) may use.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&SharedBufferMmu::m_xoffStatic),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonOffset",
                          "XON when shared use falls to threshold - XonOffset, bytes (0..the XOFF "
                          "threshold: XoffStaticBytes, or Alpha x shared pool when Dynamic; "
                          "checked when the switch is configured).",
                          UintegerValue(2 * 1024),
                          MakeUintegerAccessor(&SharedBufferMmu::m_xonOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EgressAlpha",
                          "Dynamic egress threshold factor for lossy priorities (> 0).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SharedBufferMmu::m_egressAlpha),
                          MakeFabricPositiveDoubleChecker("ns3::SharedBufferMmu::EgressAlpha"))
            .AddAttribute("EgressLimitBytes",
                          "Static limit of each lossy egress (port, priority) queue, bytes: a "
                          "lossy packet that would take its queue beyond it is refused "
                          "(\"egress threshold\"; trimmed if its priority is in "
                          "TrimPriorities), besides the dynamic EgressAlpha threshold. A fixed "
                          "per-port queue as in htsim (FatTreeTopologyHelper: 1 BDP with "
                          "trimming). 0 (default) = no static limit.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::SetEgressLimit,
                                               &SharedBufferMmu::GetEgressLimit),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LosslessPriorities",
                          "Bit i set = priority i is lossless (PFC, headroom, never dropped "
                          "by thresholds). Default 0x08: priority 3, RoCE data.",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&SharedBufferMmu::SetLosslessPriorities,
                                               &SharedBufferMmu::GetLosslessPriorities),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("TrimPriorities",
                          "Bit i set = a packet of priority i that does not fit is trimmed "
                          "(cut to TrimSize, DSCP TrimDscp, queued on TrimPriority) instead of "
                          "dropped. Default 0: no trimming.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::m_trimMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute(
                "TrimSize",
                "IPv4 total length of a trimmed packet, bytes (28..65535: at least "
                "the IPv4 and UDP headers; the Ethernet header and FCS come on top). "
                "Packets not longer are dropped, not trimmed. SONiC's default is "
                "128 B of frame.",
                UintegerValue(128),
                MakeUintegerAccessor(&SharedBufferMmu::SetTrimSize, &SharedBufferMmu::GetTrimSize),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "TrimDscp",
                "DSCP written into packets trimmed in the fabric (0..63), so that the "
                "next hops and the receiver know them (Ultra Ethernet: NACK "
                "TRIMMED). Default 56: DSCP >> 3 = priority 7, the default "
                "TrimPriority. Receivers must know it (UetNic TrimmedDscp).",
                UintegerValue(56),
                MakeUintegerAccessor(&SharedBufferMmu::SetTrimDscp, &SharedBufferMmu::GetTrimDscp),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "LastHopTrimDscp",
                "DSCP written into packets trimmed on a last-hop port, one that faces "
                "a host (SetLastHopPort; SONiC's asymmetric DSCP), so that the "
                "receiver tells a trim at its ToR from one in the fabric (Ultra "
                "Ethernet: NACK TRIMMED_LASTHOP); 0..63. Default 57 (priority 7). "
                "Receivers must know it (UetNic TrimmedLastHopDscp).",
                UintegerValue(57),
                MakeUintegerAccessor(&SharedBufferMmu::m_lastHopTrimDscp),
                MakeFabricUintegerChecker<uint8_t>("ns3::SharedBufferMmu::LastHopTrimDscp", 0, 63))
            .AddAttribute("TrimPriority",
                          "Priority (egress queue, 0..7) trimmed packets are charged to and "
                          "queued on, usually a high one.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&SharedBufferMmu::SetTrimPriority,
                                               &SharedBufferMmu::GetTrimPriority),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

SharedBufferMmu::SharedBufferMmu()
    : m_bufferSize(32ull << 20),
      m_sharedPoolSize(0),
      m_reservedBytes(0),
      m_headroomBytes(0),
      m_pfcResponseTime(0),
      m_mode(DYNAMIC),
      m_alpha(0.125),
      m_xoffStatic(256 * 1024),
      m_xonOffset(2 * 1024),
      m_egressAlpha(1.0),
      m_egressLimit(UINT64_MAX),
      m_lossless(0x08),
      m_trimMask(0),
      m_trimSize(128),
      m_trimDscp(56),
      m_lastHopTrimDscp(57),
      m_trimPriority(7),
      m_nPorts(0),
      m_sharedPool(0),
      m_sharedUsed(0),
      m_bytesHeld(0),
      m_peakBytesHeld(0)
{
}

SharedBufferMmu::~SharedBufferMmu() = default;

void
SharedBufferMmu::SetLosslessPriorities(uint8_t mask)
{
    NS_ABORT_MSG_IF(m_nPorts > 0 && mask != m_lossless,
                    "SharedBufferMmu LosslessPriorities cannot change after Configure()");
    m_lossless = mask;
}

SharedBufferMmu::ThresholdMode
SharedBufferMmu::GetThresholdMode() const
{
    return m_mode;
}

uint8_t
SharedBufferMmu::GetLosslessPriorities() const
{
    return m_lossless;
}

void
SharedBufferMmu::SetTrimSize(uint32_t bytes)
{
    FABRIC_INPUT_ERROR_IF(bytes < MIN_TRIM_BYTES || bytes > 65535,
                          "SharedBufferMmu TrimSize " << bytes << " B is invalid; valid range is "
                                                      << MIN_TRIM_BYTES
                                                      << "..65535 (IPv4 + UDP headers at least)");
    m_trimSize = static_cast<uint16_t>(bytes);
}

uint32_t
SharedBufferMmu::GetTrimSize() const
{
    return m_trimSize;
}

void
SharedBufferMmu::SetTrimDscp(uint32_t dscp)
{
    FABRIC_INPUT_ERROR_IF(dscp > 63,
                          "SharedBufferMmu TrimDscp " << dscp
                                                      << " is invalid; valid range is 0..63");
    m_trimDscp = static_cast<uint8_t>(dscp);
}

uint32_t
SharedBufferMmu::GetTrimDscp() const
{
    return m_trimDscp;
}

void
SharedBufferMmu::SetTrimPriority(uint32_t priority)
{
    FABRIC_INPUT_ERROR_IF(priority > 7,
                          "SharedBufferMmu TrimPriority " << priority
                                                          << " is invalid; valid range is 0..7");
    m_trimPriority = static_cast<uint8_t>(priority);
}

void
SharedBufferMmu::SetEgressLimit(uint64_t bytes)
{
    m_egressLimit = bytes == 0 ? UINT64_MAX : bytes;
}

uint64_t
SharedBufferMmu::GetEgressLimit() const
{
    return m_egressLimit == UINT64_MAX ? 0 : m_egressLimit;
}

uint32_t
SharedBufferMmu::GetTrimPriority() const
{
    return m_trimPriority;
}

uint32_t
SharedBufferMmu::GetLastHopTrimDscp() const
{
    return m_lastHopTrimDscp;
}

uint8_t
SharedBufferMmu::GetTrimPriorities() const
{
    return m_trimMask;
}

void
SharedBufferMmu::SetLastHopPort(uint32_t port, bool lastHop)
{
    NS_ABORT_MSG_IF(m_nPorts == 0,
                    "SharedBufferMmu::SetLastHopPort(" << port << ") before Configure(); the MMU "
                                                       << "has no ports yet");
    NS_ABORT_MSG_IF(port >= m_nPorts,
                    "SharedBufferMmu::SetLastHopPort: port " << port << " out of range (0.."
                                                             << m_nPorts - 1 << ")");
    m_lastHop[port] = lastHop ? 1 : 0;
}

bool
SharedBufferMmu::IsLastHopPort(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_nPorts,
                    "SharedBufferMmu::IsLastHopPort: port " << port << " out of range (0.."
                                                            << int64_t(m_nPorts) - 1 << ")");
    return m_lastHop[port] != 0;
}

bool
SharedBufferMmu::IsTrimEnabled(uint8_t priority) const
{
    NS_ABORT_MSG_IF(priority > 7,
                    "SharedBufferMmu::IsTrimEnabled: priority " << unsigned(priority)
                                                                << " invalid (0..7)");
    return (m_trimMask >> priority) & 1u;
}

uint64_t
SharedBufferMmu::RequiredHeadroom(DataRate rate, Time cableDelay, uint32_t maxFrameBytes) const
{
    double bytesPerSecond = rate.GetBitRate() / 8.0;
    double inFlight = 2.0 * cableDelay.GetSeconds() * bytesPerSecond;
    double response = m_pfcResponseTime.GetSeconds() * bytesPerSecond;
    // The frame that spills and decides XOFF, the frame delaying the PFC frame here, the
    // frame the upstream finishes: each with preamble and gap; and the PFC frame itself.
    uint64_t frames = 3ull * (maxFrameBytes + 20) + 84;
    return static_cast<uint64_t>(inFlight + response + 0.999999) + frames;
}

void
SharedBufferMmu::Configure(const std::vector<DataRate>& rates,
                           const std::vector<Time>& cableDelays,
                           uint32_t maxFrameBytes)
{
    NS_ABORT_MSG_IF(rates.size() != cableDelays.size(),
                    "SharedBufferMmu::Configure: " << rates.size() << " rates but "
                                                   << cableDelays.size() << " delays");
    NS_ABORT_MSG_IF(rates.empty(), "SharedBufferMmu::Configure: a switch needs at least 1 port");
    // A lossless priority is paused by PFC, never dropped: there is no admission failure to
    // trim it on, and a trimmed copy would be a second packet on a class that must not lose any.
    const uint8_t both = m_trimMask & m_lossless;
    FABRIC_INPUT_ERROR_IF(
        both != 0,
        "SharedBufferMmu TrimPriorities 0x"
            << std::hex << unsigned(m_trimMask) << " includes priority " << std::dec
            << __builtin_ctz(both) << ", which is lossless (LosslessPriorities 0x" << std::hex
            << unsigned(m_lossless) << std::dec
            << "): only lossy priorities can be trimmed; valid TrimPriorities are "
               "subsets of 0x"
            << std::hex << unsigned(uint8_t(~m_lossless)) << std::dec
            << " (clear the bit in TrimPriorities or in LosslessPriorities)");
    m_nPorts = static_cast<uint32_t>(rates.size());
    m_headroom.assign(m_nPorts, 0);
    m_lastHop.assign(m_nPorts, 0);
    uint32_t nLossless = __builtin_popcount(m_lossless);
    uint64_t totalHeadroom = 0;
    FABRIC_INPUT_ERROR_IF(nLossless > 0 && m_headroomBytes > 0 && m_headroomBytes < maxFrameBytes,
                          "SharedBufferMmu HeadroomBytes "
                              << m_headroomBytes << " is below one maximum frame (" << maxFrameBytes
                              << " B): a lossless class could not absorb "
                                 "even the frame that triggers XOFF; use "
                                 "0 (computed) or >= "
                              << maxFrameBytes);
    uint64_t shortBy = 0;
    uint32_t shortPort = 0;
    for (uint32_t i = 0; i < m_nPorts; ++i)
    {
        uint64_t required = RequiredHeadroom(rates[i], cableDelays[i], maxFrameBytes);
        m_headroom[i] = m_headroomBytes ? m_headroomBytes : required;
        if (nLossless > 0 && m_headroom[i] < required && required - m_headroom[i] > shortBy)
        {
            shortBy = required - m_headroom[i];
            shortPort = i;
        }
        totalHeadroom += m_headroom[i] * nLossless;
    }
    m_headroomMax = m_headroom;
    if (shortBy > 0)
    {
        std::cerr << "ai-fabric warning: SharedBufferMmu HeadroomBytes " << m_headroomBytes
                  << " is " << shortBy << " B below what port " << shortPort << " ("
                  << rates[shortPort] << ", cable " << cableDelays[shortPort].As(Time::NS)
                  << ") needs to stay lossless ("
                  << RequiredHeadroom(rates[shortPort], cableDelays[shortPort], maxFrameBytes)
                  << " B); lossless priorities may drop (counted as 'headroom overflow')\n";
    }
    uint64_t totalReserved = m_reservedBytes * 8ull * m_nPorts;
    FABRIC_INPUT_ERROR_IF(
        m_sharedPoolSize > 0 &&
            m_sharedPoolSize > m_bufferSize - std::min(m_bufferSize, totalReserved + totalHeadroom),
        "SharedBufferMmu: SharedPoolSize "
            << m_sharedPoolSize << " B + " << totalReserved << " B reserved + " << totalHeadroom
            << " B headroom (" << m_nPorts << " ports, " << nLossless
            << " lossless priorities) = " << m_sharedPoolSize + totalReserved + totalHeadroom
            << " B does not fit BufferSize " << m_bufferSize
            << " B; raise BufferSize to >= " << m_sharedPoolSize + totalReserved + totalHeadroom
            << " or lower SharedPoolSize (valid range 1.."
            << m_bufferSize - std::min(m_bufferSize, totalReserved + totalHeadroom)
            << " B with this BufferSize; 0 = derived from BufferSize)");
    FABRIC_INPUT_ERROR_IF(totalReserved + totalHeadroom > m_bufferSize,
                          "SharedBufferMmu: BufferSize "
                              << m_bufferSize << " B is smaller than the " << totalReserved
                              << " B reserved + " << totalHeadroom << " B headroom it must hold ("
                              << m_nPorts << " ports, " << nLossless
                              << " lossless priorities); raise BufferSize or "
                                 "lower ReservedBytes/HeadroomBytes");
    m_sharedPool =
        m_sharedPoolSize > 0 ? m_sharedPoolSize : m_bufferSize - totalReserved - totalHeadroom;
    // XON comes at threshold - XonOffset: an offset above the threshold would leave a paused
    // priority paused until its shared use is 0.
    FABRIC_INPUT_ERROR_IF(nLossless > 0 && m_mode == STATIC && m_xonOffset > m_xoffStatic,
                          "SharedBufferMmu XonOffset "
                              << m_xonOffset
                              << " B is larger than the XOFF threshold "
                                 "XoffStaticBytes "
                              << m_xoffStatic
                              << " B (ThresholdMode Static); valid range is "
                                 "0.."
                              << m_xoffStatic << " B");
    const auto largestDynamic = static_cast<uint64_t>(m_alpha * static_cast<double>(m_sharedPool));
    FABRIC_INPUT_ERROR_IF(nLossless > 0 && m_mode == DYNAMIC && m_xonOffset > largestDynamic,
                          "SharedBufferMmu XonOffset "
                              << m_xonOffset
                              << " B is larger than the largest XOFF threshold (ThresholdMode "
                                 "Dynamic: Alpha "
                              << m_alpha << " x shared pool " << m_sharedPool
                              << " B = " << largestDynamic << " B); valid range is 0.."
                              << largestDynamic << " B");
    m_ingress.assign(m_nPorts * 8ull, IngressPg{});
    m_egress.assign(m_nPorts, EgressPort{});
    m_sharedUsed = 0;
    m_bytesHeld = 0;
    m_peakBytesHeld = 0;
    NS_LOG_INFO("MMU: " << m_nPorts << " ports, shared pool " << m_sharedPool << " B, headroom "
                        << totalHeadroom << " B, reserved " << totalReserved << " B");
}

std::size_t
SharedBufferMmu::Pg(uint32_t port, uint8_t priority) const
{
    NS_ABORT_MSG_IF(port >= m_nPorts,
                    "SharedBufferMmu: port " << port << " out of range (0.."
                                             << int64_t(m_nPorts) - 1 << ")");
    NS_ABORT_MSG_IF(priority > 7,
                    "SharedBufferMmu: priority " << unsigned(priority) << " invalid (0..7)");
    return port * 8ull + priority;
}

uint64_t
SharedBufferMmu::Threshold(const IngressPg& pg) const
{
    if (m_mode == STATIC)
    {
        return m_xoffStatic;
    }
    uint64_t freeShared = m_sharedPool - m_sharedUsed;
    return static_cast<uint64_t>(m_alpha * static_cast<double>(freeShared));
}

bool
SharedBufferMmu::IsLossless(uint8_t priority) const
{
    return (m_lossless >> priority) & 1u;
}

MmuVerdict
SharedBufferMmu::Refuse(SwitchDropReason reason,
                        uint8_t priority,
                        uint32_t outPort,
                        bool mayTrim) const
{
    MmuVerdict v;
    v.reason = reason;
    if (mayTrim && ((m_trimMask >> priority) & 1u))
    {
        v.action = MmuVerdict::TRIM;
        v.lastHop = m_lastHop[outPort] != 0;
        v.trimDscp = v.lastHop ? m_lastHopTrimDscp : m_trimDscp;
        v.trimPriority = m_trimPriority;
        v.trimBytes = m_trimSize;
    }
    else
    {
        v.action = MmuVerdict::DROP;
    }
    return v;
}

MmuVerdict
SharedBufferMmu::Admit(uint32_t inPort, uint8_t priority, uint32_t outPort, uint32_t bytes)
{
    return AdmitPacket<true>(inPort, priority, outPort, bytes);
}

MmuVerdict
SharedBufferMmu::AdmitTrimmed(uint32_t inPort, uint8_t priority, uint32_t outPort, uint32_t bytes)
{
    return AdmitPacket<false>(inPort, priority, outPort, bytes);
}

template <bool MAY_TRIM>
MmuVerdict
SharedBufferMmu::AdmitPacket(uint32_t inPort, uint8_t priority, uint32_t outPort, uint32_t bytes)
{
    IngressPg& pg = m_ingress[Pg(inPort, priority)];
    uint64_t& egress = m_egress[outPort].bytes[priority];
    bool lossless = IsLossless(priority);
    uint64_t freeShared = m_sharedPool - m_sharedUsed;
    if (!lossless && (egress + bytes > static_cast<uint64_t>(m_egressAlpha * double(freeShared)) ||
                      egress + bytes > m_egressLimit))
    {
        return Refuse(SwitchDropReason::EGRESS_THRESHOLD, priority, outPort, MAY_TRIM);
    }
    uint64_t toReserved = 0;
    uint64_t toShared = 0;
    uint64_t toHeadroom = 0;
    uint64_t rest = bytes;
    if (pg.reserved < m_reservedBytes && pg.shared == 0 && pg.headroom == 0)
    {
        toReserved = std::min<uint64_t>(rest, m_reservedBytes - pg.reserved);
        rest -= toReserved;
    }
    bool spilled = false;
    if (rest > 0)
    {
        if (pg.headroom == 0 && pg.shared + rest <= Threshold(pg) && rest <= freeShared)
        {
            toShared = rest;
        }
        else if (!lossless)
        {
            return Refuse(SwitchDropReason::BUFFER_FULL, priority, outPort, MAY_TRIM);
        }
        else if (pg.headroom + rest <= m_headroom[inPort])
        {
            toHeadroom = rest;
            spilled = true;
        }
        else
        {
            // A lossless class pauses before it ever drops: the XOFF is decided first, so the
            // upstream port stops even when this frame does not fit (headroom too small for
            // the cable, or frames larger than expected).
            if (!pg.xoff)
            {
                pg.xoff = true;
                if (!m_xoffCallback.IsNull())
                {
                    m_xoffCallback(inPort, priority, true);
                }
            }
            return Refuse(SwitchDropReason::HEADROOM_OVERFLOW, priority, outPort, MAY_TRIM);
        }
    }
    pg.reserved += toReserved;
    pg.shared += toShared;
    pg.headroom += toHeadroom;
    m_sharedUsed += toShared;
    m_bytesHeld += bytes;
    m_peakBytesHeld = std::max(m_peakBytesHeld, m_bytesHeld);
    egress += bytes;
    if (lossless && !pg.xoff && (spilled || pg.shared >= Threshold(pg)))
    {
        pg.xoff = true;
        if (!m_xoffCallback.IsNull())
        {
            m_xoffCallback(inPort, priority, true);
        }
    }
    return MmuVerdict();
}

void
SharedBufferMmu::Release(uint32_t inPort, uint8_t priority, uint32_t outPort, uint32_t bytes)
{
    IngressPg& pg = m_ingress[Pg(inPort, priority)];
    uint64_t& egress = m_egress[outPort].bytes[priority];
    NS_ABORT_MSG_IF(pg.reserved + pg.shared + pg.headroom < bytes || egress < bytes,
                    "SharedBufferMmu: release of " << bytes << " B on ingress " << inPort
                                                   << " priority " << unsigned(priority)
                                                   << " exceeds what was admitted");
    // Headroom empties first, then shared, then reserved.
    uint64_t rest = bytes;
    uint64_t fromHeadroom = std::min<uint64_t>(rest, pg.headroom);
    pg.headroom -= fromHeadroom;
    rest -= fromHeadroom;
    uint64_t fromShared = std::min<uint64_t>(rest, pg.shared);
    pg.shared -= fromShared;
    m_sharedUsed -= fromShared;
    rest -= fromShared;
    pg.reserved -= rest;
    m_bytesHeld -= bytes;
    egress -= bytes;
    if (pg.xoff)
    {
        MaybeXon(inPort, priority, pg);
    }
}

void
SharedBufferMmu::MaybeXon(uint32_t port, uint8_t priority, IngressPg& pg)
{
    uint64_t threshold = Threshold(pg);
    uint64_t xonLevel = threshold > m_xonOffset ? threshold - m_xonOffset : 0;
    if (pg.headroom == 0 && pg.shared <= xonLevel)
    {
        pg.xoff = false;
        if (!m_xoffCallback.IsNull())
        {
            m_xoffCallback(port, priority, false);
        }
    }
}

void
SharedBufferMmu::SetXoffCallback(XoffCallback cb)
{
    m_xoffCallback = cb;
}

uint32_t
SharedBufferMmu::GetNPorts() const
{
    return m_nPorts;
}

uint64_t
SharedBufferMmu::GetSharedPoolSize() const
{
    return m_sharedPool;
}

uint64_t
SharedBufferMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
SharedBufferMmu::GetBytesHeld() const
{
    return m_bytesHeld;
}

uint64_t
SharedBufferMmu::GetPeakBytesHeld() const
{
    return m_peakBytesHeld;
}

uint64_t
SharedBufferMmu::GetHeadroomSize(uint32_t port) const
{
    Pg(port, 0);
    return m_headroom[port];
}

void
SharedBufferMmu::SetHeadroomSize(uint32_t port, uint64_t bytes)
{
    NS_ABORT_MSG_IF(m_headroom.empty(), "SharedBufferMmu::SetHeadroomSize before Configure()");
    Pg(port, 0);
    m_headroom[port] = bytes;
    m_headroomMax[port] = std::max(m_headroomMax[port], bytes);
}

uint64_t
SharedBufferMmu::GetReservedUsed(uint32_t port, uint8_t priority) const
{
    return m_ingress[Pg(port, priority)].reserved;
}

uint64_t
SharedBufferMmu::GetIngressSharedUsed(uint32_t port, uint8_t priority) const
{
    return m_ingress[Pg(port, priority)].shared;
}

uint64_t
SharedBufferMmu::GetHeadroomUsed(uint32_t port, uint8_t priority) const
{
    return m_ingress[Pg(port, priority)].headroom;
}

uint64_t
SharedBufferMmu::GetXoffThreshold(uint32_t port, uint8_t priority) const
{
    return Threshold(m_ingress[Pg(port, priority)]);
}

bool
SharedBufferMmu::IsXoff(uint32_t port, uint8_t priority) const
{
    return m_ingress[Pg(port, priority)].xoff;
}

bool
SharedBufferMmu::CheckInvariants(std::string* why) const
{
    std::ostringstream err;
    uint64_t ingressSum = 0;
    uint64_t sharedSum = 0;
    for (uint32_t port = 0; port < m_nPorts && err.str().empty(); ++port)
    {
        for (uint8_t p = 0; p < 8; ++p)
        {
            const IngressPg& pg = m_ingress[port * 8ull + p];
            ingressSum += pg.reserved + pg.shared + pg.headroom;
            sharedSum += pg.shared;
            if (pg.reserved > m_reservedBytes)
            {
                err << "reserved use " << pg.reserved << " > " << m_reservedBytes << " at port "
                    << port << " priority " << unsigned(p);
            }
            else if (pg.headroom > (IsLossless(p) ? m_headroomMax[port] : 0))
            {
                err << "headroom use " << pg.headroom << " over size at port " << port
                    << " priority " << unsigned(p);
            }
        }
    }
    uint64_t egressSum = 0;
    for (uint32_t port = 0; port < m_nPorts; ++port)
    {
        egressSum += GetEgressPortBytes(port);
    }
    if (err.str().empty())
    {
        if (ingressSum != m_bytesHeld)
        {
            err << "reserved + shared + headroom = " << ingressSum << " != bytes held "
                << m_bytesHeld;
        }
        else if (egressSum != m_bytesHeld)
        {
            err << "egress occupancy " << egressSum << " != bytes held " << m_bytesHeld;
        }
        else if (sharedSum != m_sharedUsed)
        {
            err << "shared use per (port, priority) sums to " << sharedSum
                << " != " << m_sharedUsed;
        }
        else if (m_sharedUsed > m_sharedPool)
        {
            err << "shared use " << m_sharedUsed << " > pool " << m_sharedPool;
        }
    }
    if (why)
    {
        *why = err.str();
    }
    return err.str().empty();
}

} // namespace ns3
