/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: shared-buffer switch memory management unit (ingress PFC, egress lossy limits).
 */
#ifndef SHARED_BUFFER_MMU_H
#define SHARED_BUFFER_MMU_H

#include "switch-reasons.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief What a SharedBufferMmu decided for a packet: accept it, drop it, or trim it.
 *
 * TRIM (packet trimming, as in the SONiC/SAI "drop and trim" buffer admission-fail action and
 * NVIDIA Spectrum switches; used by Ultra Ethernet): the packet did not fit, nothing was charged,
 * and the caller may instead cut it to trimBytes of IPv4 packet, re-mark its DSCP to trimDscp,
 * admit the cut packet on trimPriority with SharedBufferMmu::AdmitTrimmed() and queue it there.
 * FabricSwitch does exactly that; a packet it cannot trim (not longer than trimBytes, or
 * headers longer than trimBytes) is dropped with \p reason. When the egress port is a last-hop
 * port (SharedBufferMmu::SetLastHopPort: it faces a host), trimDscp is the MMU's
 * LastHopTrimDscp and lastHop is set, so that the receiver can tell a trim at its own ToR from
 * one in the fabric (SONiC's "asymmetric DSCP" trimming mode).
 */
struct MmuVerdict
{
    /// What to do with the packet.
    enum Action : uint8_t
    {
        ACCEPT = 0, //!< charged; the packet may be queued
        DROP,       //!< not charged; drop it for \p reason
        TRIM,       //!< not charged; it did not fit for \p reason, trim it instead of dropping
    };

    Action action{ACCEPT};                               //!< the decision
    SwitchDropReason reason{SwitchDropReason::NO_ROUTE}; //!< DROP, TRIM: why it did not fit
    uint8_t trimDscp{0};                                 //!< TRIM: DSCP of the cut packet
    uint8_t trimPriority{0};                             //!< TRIM: priority to queue it on, 0..7
    uint16_t trimBytes{0}; //!< TRIM: IPv4 total length of the cut packet, bytes
    bool lastHop{false};   //!< TRIM: the egress port is a last-hop port (trimDscp: last hop)

    /// \return true if the packet was admitted and charged
    bool IsAccept() const
    {
        return action == ACCEPT;
    }
};

/**
 * \ingroup ai-fabric-switch
 * \brief Byte accounting of a shared-buffer switch (Broadcom-style MMU as configured by
 *        SONiC): reserved, shared and headroom pools per ingress (port, priority), egress
 *        occupancy per (port, priority), PFC XOFF/XON decisions and lossy drops.
 *
 * Pools. Every (ingress port, priority) owns ReservedBytes. Every (ingress port, lossless
 * priority) owns a headroom: HeadroomBytes if non-zero, else computed per port as
 * 2 x cable delay x rate + 2 x largest frame on the wire + one PFC frame + rate x
 * PfcResponseTime (IEEE 802.1Qbb Annex N; the bytes that still arrive after XOFF is decided).
 * The shared pool is BufferSize minus all reserved and headroom bytes; Configure() aborts if
 * that is negative. SharedPoolSize sets the pool directly instead (the HPCC-lineage way of
 * stating a switch buffer: "4 MB shared", headroom on top): reserved and headroom bytes are
 * added to it, and the sum must fit BufferSize (Configure() aborts naming the sizes and the
 * BufferSize needed).
 *
 * Admission of a packet of b bytes from ingress (i, p) to egress (o, p):
 *  - lossy p: dropped ("egress threshold") if egress(o, p) + b exceeds EgressAlpha x free
 *    shared bytes, or the static EgressLimitBytes when it is set (a fixed per-port queue
 *    limit as in simulators such as htsim; default off); else charged to reserved, then shared up
 * to the ingress threshold, else dropped ("buffer full");
 *  - lossless p: charged to reserved, then shared if the (i, p) shared use stays within the
 *    XOFF threshold and the pool has room, else to headroom; if headroom cannot hold it the
 *    packet is dropped ("headroom overflow", a misconfiguration signal).
 * Pools are counters of the (i, p) total, not per packet: a departing packet's bytes come off
 * headroom first, then shared, then reserved, as in Broadcom MMUs, so headroom is always the
 * part of the (i, p) occupancy above reserved + shared limit and is emptied first.
 * The XOFF threshold is XoffStaticBytes (ThresholdMode Static) or Alpha x (shared pool -
 * shared used) (ThresholdMode Dynamic, Choudhury and Hahne 1998). A lossless (i, p) goes XOFF
 * when a packet spills into headroom or its shared use reaches the threshold, and XON when its
 * shared use falls to threshold - XonOffset (or 0). Decisions are reported through the XOFF
 * callback; the switch turns them into PFC frames on port i.
 *
 * Trimming: a priority in TrimPriorities gets a TRIM verdict (MmuVerdict) instead of a DROP
 * for whatever reason its packet did not fit; the caller cuts the packet to TrimSize bytes of
 * IPv4 packet and admits the cut packet with AdmitTrimmed() on TrimPriority (charged like any
 * packet of that priority; a second refusal is a DROP). Off by default (TrimPriorities 0).
 * Only lossy priorities can be trimmed: Configure() aborts, naming the priority, when
 * TrimPriorities includes a lossless one (PFC pauses it instead of dropping). The cut packet
 * gets DSCP TrimDscp, or LastHopTrimDscp when it leaves on a last-hop port (SetLastHopPort(): a
 * port that faces a host; the topology helpers mark them), as in SONiC's "asymmetric DSCP" mode
 * (SONiC packet-trimming HLD, section 2.3: the receiver can tell congestion on the downlink to
 * the server from congestion in the fabric; Ultra Ethernet's NACK TRIMMED_LASTHOP vs TRIMMED).
 * The defaults (56 and 57) are classified by the default DSCP map (DSCP >> 3) to priority 7,
 * the default TrimPriority, so trimmed packets stay on the trim queue at every hop.
 * Drop reasons are SwitchDropReason values ("headroom overflow", "egress threshold", "buffer
 * full"), counted by the switch with the others.
 *
 * Invariant, checked by CheckInvariants(): for every (i, p), reserved + shared + headroom
 * use equals the bytes of its packets held; the sums over (i, p) equal the bytes held and the
 * sum of egress occupancies; no pool exceeds its size.
 */
class SharedBufferMmu : public Object
{
  public:
    /// How the ingress XOFF threshold is set.
    enum ThresholdMode
    {
        STATIC,  //!< XoffStaticBytes of shared use per (port, priority)
        DYNAMIC, //!< Alpha x free shared bytes
    };

    /// Smallest TrimSize: an IPv4 header without options and a UDP header, bytes.
    static constexpr uint16_t MIN_TRIM_BYTES = 28;

    /// Called on XOFF/XON transitions: ingress port, priority, true = XOFF.
    typedef Callback<void, uint32_t, uint8_t, bool> XoffCallback;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SharedBufferMmu();
    ~SharedBufferMmu() override;

    /**
     * \brief Size the tables for the switch's ports and compute headrooms and the shared pool.
     * \param rates line rate of each port (one entry per port)
     * \param cableDelays one-way propagation delay of each port's cable
     * \param maxFrameBytes the largest frame a port can carry (MTU + Ethernet overhead), bytes
     * Aborts if the buffer cannot hold the reserved + headroom bytes (naming all three), or,
     * when SharedPoolSize is set, the pool + reserved + headroom bytes.
     */
    void Configure(const std::vector<DataRate>& rates,
                   const std::vector<Time>& cableDelays,
                   uint32_t maxFrameBytes);

    /**
     * \brief Headroom the formula requires for a port.
     * \param rate port rate
     * \param cableDelay one-way cable delay
     * \param maxFrameBytes largest frame, bytes
     * \return bytes: 2 x delay x rate + 3 x (frame + 20 B preamble/IFG) + 84 B PFC frame +
     *         rate x PfcResponseTime. The three frames: the one whose admission spills into
     *         headroom and decides XOFF (it is held in the headroom itself), the one this port
     *         is sending when XOFF is decided (the PFC frame waits for it), and the one the
     *         upstream port is sending when the PFC frame arrives (it finishes it).
     */
    uint64_t RequiredHeadroom(DataRate rate, Time cableDelay, uint32_t maxFrameBytes) const;

    /**
     * \brief Admit a packet and charge it.
     * \param inPort ingress port index
     * \param priority 0..7
     * \param outPort egress port index
     * \param bytes bytes the packet occupies
     * \return the verdict: ACCEPT (charged), DROP with the reason, or TRIM (for a priority in
     *         TrimPriorities that would have been dropped); nothing is charged unless ACCEPT
     */
    MmuVerdict Admit(uint32_t inPort, uint8_t priority, uint32_t outPort, uint32_t bytes);

    /**
     * \brief Admit a packet cut after a TRIM verdict (never trims again).
     * \param inPort ingress port index
     * \param priority the verdict's trimPriority, 0..7
     * \param outPort egress port index
     * \param bytes bytes the cut packet occupies
     * \return ACCEPT (charged to (inPort, priority) and (outPort, priority)) or DROP
     */
    MmuVerdict AdmitTrimmed(uint32_t inPort, uint8_t priority, uint32_t outPort, uint32_t bytes);

    /**
     * \param priority 0..7
     * \return true if packets of that priority are trimmed instead of dropped (TrimPriorities)
     */
    bool IsTrimEnabled(uint8_t priority) const;
    /// \return attribute TrimPriorities: bit i set = priority i is trimmed (0 = trimming off)
    uint8_t GetTrimPriorities() const;
    /// \return attribute TrimSize: IPv4 total length of a trimmed packet, bytes (28..65535)
    uint32_t GetTrimSize() const;
    /// \return attribute TrimDscp: DSCP of packets trimmed in the fabric (0..63)
    uint32_t GetTrimDscp() const;
    /// \return attribute LastHopTrimDscp: DSCP of packets trimmed on a last-hop port (0..63)
    uint32_t GetLastHopTrimDscp() const;
    /// \return attribute TrimPriority: the priority trimmed packets are queued on (0..7)
    uint32_t GetTrimPriority() const;
    /// \return attribute EgressLimitBytes: static limit of a lossy egress (port, priority)
    ///         queue, bytes (0 = none)
    uint64_t GetEgressLimit() const;

    /**
     * \brief Mark an egress port as a last-hop port (it faces a host: a NIC, not a switch), or
     *        not. A packet trimmed on its way out of such a port gets LastHopTrimDscp instead of
     *        TrimDscp (MmuVerdict::lastHop). No port is last-hop until this is called; the
     *        topology helpers mark every switch port cabled to a NIC. Has no effect unless
     *        trimming is on (TrimPriorities).
     * \param port egress port index, 0..GetNPorts()-1 (aborts naming the range otherwise, and
     *        before Configure())
     * \param lastHop true = the port faces a host
     */
    void SetLastHopPort(uint32_t port, bool lastHop);
    /**
     * \param port egress port index, 0..GetNPorts()-1 (aborts naming the range otherwise)
     * \return true if the port was marked last-hop (SetLastHopPort)
     */
    bool IsLastHopPort(uint32_t port) const;

    /**
     * \brief Return a departed packet's bytes (when it starts transmission on the egress port).
     * \param inPort ingress port it was admitted on
     * \param priority its priority
     * \param outPort its egress port
     * \param bytes the bytes it was admitted with; aborts if more than (inPort, priority) or
     *        the egress queue holds
     */
    void Release(uint32_t inPort, uint8_t priority, uint32_t outPort, uint32_t bytes);

    /**
     * \brief Set the XOFF/XON decision callback.
     * \param cb the callback
     */
    void SetXoffCallback(XoffCallback cb);

    /// \return true if the priority is lossless (PFC) on this switch
    bool IsLossless(uint8_t priority) const;
    /// \return number of ports configured
    uint32_t GetNPorts() const;
    /// \return the shared pool size, bytes
    uint64_t GetSharedPoolSize() const;
    /// \return shared bytes in use over all (port, priority)
    uint64_t GetSharedUsed() const;
    /// \return bytes held in the buffer
    uint64_t GetBytesHeld() const;
    /**
     * \param port ingress port
     * \return that port's headroom per lossless priority, bytes
     */
    uint64_t GetHeadroomSize(uint32_t port) const;
    /**
     * \brief Change one port's headroom per lossless priority after Configure(), as an
     *        operator's wrong buffer profile does (a fault: FaultHelper "pfc-threshold"). The
     *        shared pool keeps the size Configure() carved; only the limit of what this
     *        port's lossless (port, priority) may spill into changes. A headroom below the
     *        bytes that still arrive after XOFF (cable delay x rate, see the class comment)
     *        drops lossless packets as "headroom overflow". Bytes already held above a
     *        shrunk size drain normally (CheckInvariants() allows them).
     * \param port ingress port (aborts when out of range or before Configure())
     * \param bytes the new headroom, bytes (0: every spill is dropped)
     */
    void SetHeadroomSize(uint32_t port, uint64_t bytes);
    /// \return the lossless priorities, a bit mask (attribute LosslessPriorities)
    uint8_t GetLosslessPriorities() const;
    /// \return how the XOFF threshold is set (attribute ThresholdMode)
    ThresholdMode GetThresholdMode() const;
    /**
     * \param port ingress port
     * \param priority 0..7
     * \return reserved bytes in use
     */
    uint64_t GetReservedUsed(uint32_t port, uint8_t priority) const;
    /**
     * \param port ingress port
     * \param priority 0..7
     * \return shared bytes in use
     */
    uint64_t GetIngressSharedUsed(uint32_t port, uint8_t priority) const;
    /**
     * \param port ingress port
     * \param priority 0..7
     * \return headroom bytes in use
     */
    uint64_t GetHeadroomUsed(uint32_t port, uint8_t priority) const;

    /**
     * \param port egress port
     * \param priority 0..7
     * \return bytes admitted to that egress queue and not yet released
     */
    uint64_t GetEgressBytes(uint32_t port, uint8_t priority) const
    {
        return m_egress[port].bytes[priority];
    }

    /**
     * \param port egress port
     * \return bytes queued at that port over all priorities
     */
    uint64_t GetEgressPortBytes(uint32_t port) const
    {
        uint64_t sum = 0;
        for (uint64_t b : m_egress[port].bytes)
        {
            sum += b;
        }
        return sum;
    }

    /**
     * \param port ingress port
     * \param priority 0..7
     * \return the current XOFF threshold of (port, priority) in shared bytes
     */
    uint64_t GetXoffThreshold(uint32_t port, uint8_t priority) const;
    /**
     * \param port ingress port
     * \param priority 0..7
     * \return true if (port, priority) is in XOFF
     */
    bool IsXoff(uint32_t port, uint8_t priority) const;
    /**
     * \brief Peak of bytes held since Configure().
     * \return bytes
     */
    uint64_t GetPeakBytesHeld() const;

    /**
     * \brief Verify the accounting invariants.
     * \param[out] why description of the first violation (if any)
     * \return true if every invariant holds
     */
    bool CheckInvariants(std::string* why) const;

  private:
    /// Per (ingress port, priority) state.
    struct IngressPg
    {
        uint64_t reserved{0}; //!< reserved bytes used
        uint64_t shared{0};   //!< shared bytes used
        uint64_t headroom{0}; //!< headroom bytes used
        bool xoff{false};     //!< XOFF asserted
    };

    /**
     * \brief Admit() and AdmitTrimmed().
     * \tparam MAY_TRIM whether a refusal of a trim-enabled priority is a TRIM verdict
     * \param inPort ingress port index
     * \param priority 0..7
     * \param outPort egress port index
     * \param bytes bytes the packet occupies
     * \return the verdict
     */
    template <bool MAY_TRIM>
    MmuVerdict AdmitPacket(uint32_t inPort, uint8_t priority, uint32_t outPort, uint32_t bytes);
    /**
     * \brief The verdict for a packet that did not fit.
     * \param reason why
     * \param priority its priority
     * \param outPort its egress port (last hop or not)
     * \param mayTrim false after a trim (AdmitTrimmed)
     * \return TRIM if \p mayTrim and the priority is trim-enabled, else DROP
     *
     * Out of line (and marked cold): the admission path keeps the shape of a function that
     * returns 0 for ACCEPT, with a tail call on refusals.
     */
    [[gnu::cold, gnu::noinline]] MmuVerdict Refuse(SwitchDropReason reason,
                                                   uint8_t priority,
                                                   uint32_t outPort,
                                                   bool mayTrim) const;
    /// Attribute setter of TrimSize: aborts unless MIN_TRIM_BYTES..65535.
    void SetTrimSize(uint32_t bytes);
    /// Attribute setter of TrimDscp: aborts unless 0..63.
    void SetTrimDscp(uint32_t dscp);
    /// Attribute setter of TrimPriority: aborts unless 0..7.
    void SetTrimPriority(uint32_t priority);
    /// Attribute setter of EgressLimitBytes (0 = none).
    void SetEgressLimit(uint64_t bytes);

    /// Index of (port, priority) in the flat tables; aborts on bad values.
    std::size_t Pg(uint32_t port, uint8_t priority) const;
    /// Threshold for a (port, priority) given current shared use.
    uint64_t Threshold(const IngressPg& pg) const;
    /// Evaluate XON after a release.
    void MaybeXon(uint32_t port, uint8_t priority, IngressPg& pg);
    /// Validate and set the lossless mask.
    void SetLosslessPriorities(uint8_t mask);

    uint64_t m_bufferSize;     //!< attribute BufferSize, bytes
    uint64_t m_sharedPoolSize; //!< attribute SharedPoolSize, bytes (0 = derived)
    uint64_t m_reservedBytes;  //!< attribute ReservedBytes per (port, priority)
    uint64_t m_headroomBytes;  //!< attribute HeadroomBytes (0 = computed)
    Time m_pfcResponseTime;    //!< attribute PfcResponseTime
    ThresholdMode m_mode;      //!< attribute ThresholdMode
    double m_alpha;            //!< attribute Alpha
    uint64_t m_xoffStatic;     //!< attribute XoffStaticBytes
    uint64_t m_xonOffset;      //!< attribute XonOffset
    double m_egressAlpha;      //!< attribute EgressAlpha
    uint64_t m_egressLimit;    //!< attribute EgressLimitBytes (UINT64_MAX = none)
    uint8_t m_lossless;        //!< attribute LosslessPriorities
    uint8_t m_trimMask;        //!< attribute TrimPriorities
    uint16_t m_trimSize;       //!< attribute TrimSize, bytes of IPv4 packet
    uint8_t m_trimDscp;        //!< attribute TrimDscp
    uint8_t m_lastHopTrimDscp; //!< attribute LastHopTrimDscp
    uint8_t m_trimPriority;    //!< attribute TrimPriority

    uint32_t m_nPorts;                //!< configured ports
    std::vector<uint64_t> m_headroom; //!< headroom size per port
    /// largest headroom size each port had (CheckInvariants: bytes above a shrunk size drain)
    std::vector<uint64_t> m_headroomMax;
    uint64_t m_sharedPool;            //!< shared pool size
    uint64_t m_sharedUsed;            //!< shared bytes used
    uint64_t m_bytesHeld;             //!< all bytes held
    uint64_t m_peakBytesHeld;         //!< peak of m_bytesHeld
    std::vector<IngressPg> m_ingress; //!< per (port, priority)
    std::vector<uint8_t> m_lastHop;   //!< per port: 1 = last-hop port (SetLastHopPort)

    /// Bytes queued at one egress port, per priority: one cache line per port (a frame's
    /// admission and release touch one line, and the port total is the sum of the line).
    struct alignas(64) EgressPort
    {
        std::array<uint64_t, 8> bytes{}; //!< per priority
    };

    std::vector<EgressPort> m_egress; //!< per port
    XoffCallback m_xoffCallback;      //!< XOFF/XON decisions
};

} // namespace ns3

#endif /* SHARED_BUFFER_MMU_H */
