/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: fault injection on a built fabric (links down, up, flapping, degraded; switch
 * reboots), with routing that converges after a configurable delay, traced and logged.
 */
#ifndef FAULT_HELPER_H
#define FAULT_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/fabric-topology.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet-class-filter.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FabricCommandLine;

/**
 * \ingroup ai-fabric-fault
 * \brief The kinds of fault FaultHelper injects, by their name in a fault spec.
 */
enum class FaultKind : uint8_t
{
    LINK_DOWN = 0, //!< "link-down": cut the cable(s) between two nodes
    LINK_UP,       //!< "link-up": restore cable(s) cut by link-down or link-flap
    LINK_FLAP,     //!< "link-flap": down for period/2, up for period/2, count times
    LINK_DEGRADE,  //!< "link-degrade": run the cable(s) at a lower rate (rate=...)
    LINK_RESTORE,  //!< "link-restore": the cable(s) back to their rate before any degrade
    SWITCH_REBOOT, //!< "switch-reboot": every cable of a switch down, up after down=...
    NIC_STALL,     //!< "nic-stall": a GPU's host stops draining its NIC's receive buffer
    ECN_PROFILE,   //!< "ecn-profile": a switch's (or port's) WRED ECN thresholds set, restored
    DROP_CLASS,    //!< "drop-class": a cable loses one packet class (ACK, NAK, CNP)
    PFC_THRESHOLD, //!< "pfc-threshold": a switch's (or port's) PFC headroom / XOFF set, restored
    COUNT          //!< number of kinds (not a kind)
};

/**
 * \param kind a fault kind (not COUNT)
 * \return its name in a fault spec: "link-down", "link-up", "link-flap", "link-degrade",
 *         "link-restore", "switch-reboot", "nic-stall", "ecn-profile", "drop-class",
 *         "pfc-threshold"
 */
const char* FaultKindName(FaultKind kind);

/**
 * \ingroup ai-fabric-fault
 * \brief One fault as written by the user, parsed but not yet bound to a fabric (node names
 *        are checked by FaultHelper::Install()).
 */
struct FaultSpec
{
    FaultKind kind{FaultKind::LINK_DOWN}; //!< what happens
    std::string nodeA;   //!< first node ("leaf3"); the switch of a reboot or an ecn-profile,
                         //!< the GPU of a nic-stall
    std::string nodeB;   //!< second node ("spine1"); empty for a one-node target
    int32_t cable{-1};   //!< k of "A-B#k" (0-based among the cables of A-B), -1 = all of them
    int32_t port{-1};    //!< ECN_PROFILE, PFC_THRESHOLD: k of "S#k" (switch port index), -1 =
                         //!< every port
    Time at;             //!< when the fault starts, >= 0 (simulation time)
    Time period;         //!< LINK_FLAP: one down + up cycle, > 0 (down period/2, up period/2)
    uint32_t count{1};   //!< LINK_FLAP: cycles, 1..1000000
    DataRate rate;       //!< LINK_DEGRADE: the new rate, > 0 bit/s (unused with restore)
    bool restore{false}; //!< LINK_DEGRADE with rate=restore: back to the rate before;
                         //!< ECN_PROFILE, PFC_THRESHOLD with restore: back to the profile
                         //!< at Install()
    Time down;           //!< SWITCH_REBOOT: how long the switch is down, > 0
    Time duration;       //!< NIC_STALL, DROP_CLASS: for=, how long, >= 0 (0: to the end)
    FabricPacketClass packetClass{FabricPacketClass::ACK}; //!< DROP_CLASS: ACK, NAK or CNP
    double probability{1};                                 //!< DROP_CLASS: prob=, in (0, 1]
    uint64_t kmin{0};                                      //!< ECN_PROFILE: Kmin, bytes (<= kmax)
    uint64_t kmax{0};                                      //!< ECN_PROFILE: Kmax, bytes
    double pmax{0}; //!< ECN_PROFILE: marking probability at Kmax, in (0, 1]
    /// PFC_THRESHOLD: headroom per lossless priority of each port, bytes (unset: unchanged)
    std::optional<uint64_t> headroom;
    /// PFC_THRESHOLD: static XOFF threshold of the switch, bytes (unset: unchanged)
    std::optional<uint64_t> xoff;
    /// PFC_THRESHOLD: dynamic threshold factor of the switch, > 0 (unset: unchanged)
    std::optional<double> alpha;

    /// \return the target as written in specs and logs: "leaf3-spine1", "leaf3-spine1#0",
    ///         "spine0", "gpu3", "leaf1#3"
    std::string GetTarget() const;
    /// \return one line for run headers, e.g. "link-down leaf3-spine1 @ 2 ms",
    ///         "link-flap leaf3-spine1 @ 2 ms, period 1 ms, count 3",
    ///         "nic-stall gpu3 @ 2 ms, for 500 us",
    ///         "ecn-profile leaf1 @ 1 ms, kmin 5120 B, kmax 20480 B, pmax 0.2",
    ///         "pfc-threshold leaf1#0 @ 1 ms, headroom 4096 B"
    std::string Describe() const;
    /**
     * \param t a time
     * \return it as people write it, in the largest unit it reaches: "2 ms", "1.5 us", "0 s"
     */
    static std::string FormatTime(Time t);
    /**
     * \param rate a rate
     * \return it as people write it: "100 Gb/s", "1.6 Tb/s"
     */
    static std::string FormatRate(DataRate rate);
};

/**
 * \ingroup ai-fabric-fault
 * \brief One thing FaultHelper did, at the time it did it (a row of FaultHelper::WriteCsv).
 */
struct FaultEvent
{
    Time time;          //!< simulation time it was applied
    std::string kind;   //!< "link-down", "link-up", "link-degrade", "link-restore",
                        //!< "switch-down", "switch-up", "nic-stall", "nic-resume",
                        //!< "ecn-profile", "ecn-restore", "drop-class", "drop-class-end",
                        //!< "pfc-threshold", "pfc-restore"
                        //!< (data plane) or "routes" (control plane)
    std::string target; //!< "leaf3-spine1", "leaf3-spine1#0", "spine0", "gpu3" or "leaf1#3"
    std::string detail; //!< what changed, e.g. "2 cables down (links 40 41)"; never a comma
};

/**
 * \ingroup ai-fabric-fault
 * \brief Injects scheduled faults into a fabric built by a FabricTopologyHelper: links down,
 *        up, flapping or degraded, switch reboots; the routing reacts after a convergence
 *        delay, as in production; every fault is traced and logged with its time.
 *
 * <b>Spec syntax.</b> A fault is <tt>kind:target\@time[,key=value...]</tt>; several are
 * separated by ';' or ',' (a comma followed by <tt>kind:</tt> starts a new fault, one followed
 * by <tt>key=value</tt> adds a parameter to the current one). Times are ns-3 times (2ms,
 * 500us, 1.5s; a bare number is seconds), rates ns-3 rates (100Gbps, 400Gb/s). Targets are
 * node names as FabricTopologyHelper::GetNodeName() gives them (gpu3, nvswitch0, leaf1,
 * spine0, core2):
 *  - <tt>link-down:A-B\@T</tt>: every cable between A and B is cut at T; <tt>A-B#k</tt> only
 *    the k-th (0-based, in link index order: FabricTopologyHelper::FindLinks);
 *  - <tt>link-up:A-B\@T</tt>: those cables back (what link-down or link-flap cut; a cable of a
 *    switch that is rebooting stays down until the switch is back);
 *  - <tt>link-flap:A-B\@T,period=P[,count=N]</tt>: down at T + iP, up at T + iP + P/2, for
 *    i = 0..N-1 (N = 1 by default, at most 1000000), P > 0;
 *  - <tt>link-degrade:A-B\@T,rate=R</tt>: the cables run at R (> 0) from T
 *    (FabricTopologyHelper::SetLinkDataRate: routes unchanged); <tt>rate=restore</tt> is
 *    link-restore;
 *  - <tt>link-restore:A-B\@T</tt>: the cables back to the rate they had at Install();
 *  - <tt>switch-reboot:S\@T,down=D</tt>: every cable of switch S is cut at T and restored at
 *    T + D (D > 0); frames queued in S are lost (as "link down" drops of its ports);
 *  - <tt>nic-stall:G\@T[,for=D]</tt>: the host of GPU G stops draining its NIC's receive
 *    buffer at T (FabricNic::SetRxStalled) and resumes at T + D (D > 0; without for= the stall
 *    lasts to the end of the run). The NIC keeps its buffer accounting, so above
 *    ns3::FabricNic::RxXoffBytes it pauses its leaf and keeps the pause asserted: the stuck
 *    host behind a PFC storm. Needs host-side PFC (ns3::FabricNic::RxDrainRate > 0 on G's
 *    NIC): Install() refuses the fault otherwise, naming the attribute, as a NIC without a
 *    modelled host buffer has nothing to fill (no stall mode is enabled behind the user's back);
 *  - <tt>ecn-profile:S\@T,kmin=X,kmax=Y,pmax=P</tt>: from T every egress port of switch S (or
 *    only port k with <tt>S#k</tt>) marks with WRED thresholds Kmin X, Kmax Y bytes (absolute:
 *    not scaled by the port rate; KB = 1024 bytes) and Pmax P (WredEcnMarker::
 *    SetPortThresholds); X <= Y, 0 < P <= 1. <tt>ecn-profile:S\@T,restore</tt> puts the
 *    profile each port had at Install() back;
 *  - <tt>drop-class:A-B\@T,class=C[,for=D][,prob=P]</tt>: from T (to T + D, D > 0; without
 *    for= to the end) both ends of the cable(s) drop the received frames of class C (ack, nak
 *    or cnp: FabricPacketClass) with probability P (0 < P <= 1, default 1), through a
 *    PacketClassFilter installed as each device's ReceiveErrorModel (the one it had is chained
 *    and put back at the end). The filter classifies with the transports' classifiers,
 *    registered by UDP port (RoCEv2: RoceEntropyParser::Classify on 4791; Ultra Ethernet:
 *    UetPdsHeader::Classify on 4793, PDS ACKs and NACKs; UET has no CNP), so the link layer
 *    knows no transport. Each drop is counted and traced by the filter, with its class (its own
 *    reason), and counted by the port as an "rx error" drop (PfcDropReason::RX_ERROR). Lost
 *    ACKs make the RoCE requesters hit local ACK timeouts and retransmit;
 *  - <tt>pfc-threshold:S\@T[,headroom=H][,xoff=X][,alpha=A]</tt>: from T switch S runs a wrong
 *    buffer profile (at least one of the three): headroom H bytes per lossless priority on
 *    every port (or only port k with <tt>S#k</tt>; SharedBufferMmu::SetHeadroomSize: a headroom
 *    below what arrives after XOFF, cable delay x rate, drops lossless packets as "headroom
 *    overflow"), static XOFF threshold X bytes (ThresholdMode Static only; X >= XonOffset) or
 *    dynamic threshold factor A > 0 (ThresholdMode Dynamic only); xoff= and alpha= are
 *    switch-wide, so they take S, not S#k. <tt>pfc-threshold:S\@T,restore</tt> puts the
 *    profile the switch had at Install() back. The switch must have a lossless priority.
 *
 * <b>Convergence, as in production.</b> At the fault time the data plane changes at once: the
 * cables are cut (PfcChannel::SetLinkUp; frames sent into them are lost and counted as the
 * sending port's "link down" drops) and, with LocalRepair (default true), the switches at
 * either end mark their ports down (FabricSwitch::SetPortUp): a switch drops a down port from
 * its equal-cost sets for the next packet, the hardware's local repair of a port that lost
 * its signal, and drops packets whose every port is down as "route down". The other switches
 * learn of the failure only when routing converges, ConvergenceDelay later: then the route
 * computer (FabricTopologyHelper::GetRouteComputer) recomputes every forwarding table for
 * the new link state, once per fault event, logged as a "routes" event. Until then a remote
 * switch keeps sending into the failure (e.g. the other leaves keep hashing flows for leaf3
 * onto spine1 after leaf3-spine1 is cut, and spine1 drops them as "route down"). With
 * LocalRepair false the end switches keep forwarding into the dead cable until convergence
 * too (their frames are lost on the cable). A restored cable carries frames at once but
 * rejoins the equal-cost sets only at convergence (ports marked up at once with LocalRepair,
 * but the tables computed without the cable do not list it). With ConvergenceDelay 0 (the
 * default) a fault changes the tables in the same event, exactly as
 * FabricTopologyHelper::SetLinkUp() does. The control plane replays the data plane's changes
 * in order, each ConvergenceDelay later, so a flap faster than the delay is seen late but
 * whole. Real fabrics: a port that loses its signal is pulled from the ECMP group by the
 * switch's hardware in well under a millisecond; the rest of the fabric converges when BGP
 * withdraws the routes, after BFD detects the failure (typical BFD timers 10-100 ms x 3-6
 * missed packets, i.e. about 30-300 ms; a tuned BGP fabric converges end to end in a few tens
 * of ms; BGP's default hold timer, without BFD, is 180 s). Sources: N. Modena, "Controlling
 * BGP Convergence Time", ipSpace.net (BGP as High-Availability Protocol); RFC 5882 (generic
 * application of BFD); RFC 7938 (BGP in large-scale data centers).
 *
 * <b>Outputs.</b> Every applied change fires the FaultApplied trace (time, kind, target,
 * detail) and is appended to GetEvents(); WriteCsv() writes them as tidy CSV
 * (time_ns,kind,target,detail). Print() writes one "fault: ..." line per fault for run
 * headers.
 *
 * <b>Across MPI processes.</b> Every process installs every fault and applies it to its copy
 * of the fabric at the same time (a cable between processes is cut at both ends, every process
 * computes the same routes); a nic-stall stalls the NIC in the GPU's own process only. The
 * frames each change affects are handled where they are, so a run gives the sequential run's
 * results with any process count (under the causal order, FabricMpi::SelectEngine); call
 * Gather() after Simulator::Run() for the sequential log (its drop counts and host backlogs
 * are summed over the processes).
 *
 * <b>What is not modelled here.</b> NIC ports learn nothing: a GPU whose only cable is cut
 * keeps sending into it until its transport's retries are exhausted (RoCE: RETRY_EXCEEDED
 * completion). Routes are recomputed from the whole fabric's state at once (no per-switch
 * propagation order, no transient micro-loops).
 *
 * <b>Errors.</b> Parse() and Add() raise an input error (FABRIC_INPUT_ERROR) for a malformed
 * spec, naming the text and what is valid: an unknown kind, a missing or bad time, a target
 * of the wrong shape, an unknown or missing parameter, period <= 0, count 0, rate <= 0,
 * down <= 0, for <= 0, a bad byte count, kmin > kmax, pmax outside (0, 1]. Install() raises
 * one, before anything is scheduled, for an unknown node (naming the nodes that exist), two
 * nodes that are not cabled together (naming the first node's neighbours), a cable index #k
 * out of range, a reboot or ecn-profile of a node that is not a switch (naming the switches),
 * a switch port #k out of range, a nic-stall of a node that is not a GPU (naming the GPUs) or
 * of a GPU whose NIC has RxDrainRate 0, a time in the past, or a second Install().
 */
class FaultHelper : public Object
{
  public:
    /**
     * FaultApplied trace: simulation time, kind ("link-down", ..., "routes"), target,
     * detail (FaultEvent).
     */
    typedef void (*FaultAppliedCallback)(Time,
                                         const std::string&,
                                         const std::string&,
                                         const std::string&);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FaultHelper();
    ~FaultHelper() override;

    // ---- specs ----------------------------------------------------------------------------

    /**
     * \brief Parse a list of faults (see the class text for the syntax).
     * \param text one or more faults separated by ';' or ','; empty (or blanks) = none
     * \param[out] specs the faults, appended in the order written
     * \param[out] error on failure: one line naming the bad part and what is valid
     * \return true on success (\p specs unchanged on failure)
     */
    static bool TryParse(const std::string& text,
                         std::vector<FaultSpec>& specs,
                         std::string& error);
    /**
     * \brief Parse a list of faults; an input error (FABRIC_INPUT_ERROR) on bad syntax.
     * \param text one or more faults (see TryParse())
     * \return the faults in the order written
     */
    static std::vector<FaultSpec> Parse(const std::string& text);
    /// \return a short description of the syntax for --help texts and error messages
    static std::string GetSyntaxHelp();

    /**
     * \brief Add faults from a spec text (before Install()).
     * \param text one or more faults (see TryParse()); an input error on bad syntax
     */
    void Add(const std::string& text);
    /**
     * \brief Add one parsed fault (before Install()); its values are checked as the parser
     *        checks them (input error naming the value otherwise).
     * \param spec the fault
     */
    void Add(const FaultSpec& spec);
    /// \return the faults added so far, in order
    const std::vector<FaultSpec>& GetFaults() const;

    // ---- installation ---------------------------------------------------------------------

    /**
     * \brief Bind every fault to \p topology's nodes and cables and schedule it. Call once,
     *        after topology->Install() and before (or during) Simulator::Run(); every check
     *        (node names, cables, times not in the past) is done before anything is scheduled.
     * \param topology an installed fabric (an input error otherwise)
     */
    void Install(Ptr<FabricTopologyHelper> topology);
    /**
     * \brief One line per fault, "fault: <Describe()>", then, when ConvergenceDelay > 0, one
     *        line "fault: routes converge <delay> after each change (local repair on|off)".
     *        Nothing when there is no fault.
     * \param os the stream
     */
    void Print(std::ostream& os) const;

    // ---- attributes -----------------------------------------------------------------------

    /**
     * \param delay time from a data-plane change to the recomputation of the forwarding
     *        tables, >= 0 (an input error otherwise)
     */
    void SetConvergenceDelay(Time delay);
    /// \return the ConvergenceDelay attribute
    Time GetConvergenceDelay() const;

    // ---- log ------------------------------------------------------------------------------

    /// \return every change applied so far, in the order applied
    const std::vector<FaultEvent>& GetEvents() const;
    /**
     * \return every PacketClassFilter the drop-class faults have installed so far (in the
     *         order installed, two per cable: its devices 0 and 1), also after they were
     *         removed: their GetDrops() / GetSeen() counters and Drop traces per port
     */
    const std::vector<Ptr<PacketClassFilter>>& GetPacketClassFilters() const;
    /**
     * \brief Write the log as tidy CSV: a header "time_ns,kind,target,detail", then one row
     *        per GetEvents() entry.
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;
    /**
     * \brief WriteCsv() to a file.
     * \param path the file (an input error naming it if it cannot be written)
     */
    void WriteCsv(const std::string& path) const;
    /**
     * \brief Across MPI processes, make every process's log the sequential run's. Collective:
     *        every process calls it, after Simulator::Run() (without MPI it changes nothing).
     *
     * Every process applies every fault to its copy of the fabric at the same time (a cable
     * between processes is cut at both ends), so the log rows are the same everywhere, except
     * the two that count what only some processes see: a drop-class's end (its filters' drops,
     * each end of a cable counting in its own process: summed) and a nic-stall's or
     * nic-resume's host backlog (read in the GPU's own process, the only one that stalls its
     * NIC). Gather() sums those counts over the processes and writes the rows again.
     */
    void Gather();

    // ---- command line ---------------------------------------------------------------------

    /**
     * \brief Register --fault=SPEC on a program's command line: repeatable (each occurrence
     *        adds its faults), each checked for syntax when parsed (a bad one ends the program
     *        with status 2 and one line); node names are checked by Install().
     * \param cmd the command line
     * \param specs receives each --fault value, in order (pass them to Add())
     */
    static void AddCommandLine(FabricCommandLine& cmd, std::vector<std::string>& specs);

  protected:
    void DoDispose() override;

  private:
    /// A fault bound to the fabric.
    struct Bound
    {
        FaultSpec spec;              //!< as written
        std::vector<uint32_t> links; //!< its cables (link indices)
        uint32_t holder{0};          //!< who holds the cables down (LINK_HOLD or a switch id)
        Ptr<FabricNic> nic;          //!< NIC_STALL: the GPU's NIC
        Ptr<FabricSwitch> sw;        //!< ECN_PROFILE, PFC_THRESHOLD: the switch
        std::vector<uint32_t> ports; //!< ECN_PROFILE, PFC_THRESHOLD: its ports concerned
        /// DROP_CLASS: the filters installed (device, filter), while installed
        std::vector<std::pair<Ptr<PfcNetDevice>, Ptr<PacketClassFilter>>> filters;
    };

    /// One port's WRED ECN profile.
    struct EcnProfile
    {
        uint64_t kmin; //!< bytes
        uint64_t kmax; //!< bytes
        double pmax;   //!< probability at kmax
    };

    /// One switch's PFC buffer profile.
    struct PfcProfile
    {
        std::vector<uint64_t> headroom; //!< per port, bytes
        uint64_t xoff;                  //!< static XOFF threshold, bytes
        double alpha;                   //!< dynamic threshold factor
    };

    /// A switch port at one end of a cable.
    struct PortEnd
    {
        Ptr<FabricSwitch> sw; //!< the switch
        uint32_t port;        //!< its port index
    };

    /// Holder id of link-down / link-flap (switch reboots hold by their node id).
    static constexpr uint32_t LINK_HOLD = UINT32_MAX;

    /**
     * \brief Check one spec's values; \return the error ("" if none)
     * \param spec the fault
     */
    static std::string CheckValues(const FaultSpec& spec);
    /// Bind one spec (input error on a bad name, cable or time). \return the bound fault
    Bound Bind(const FaultSpec& spec);
    /// \return the node named \p name (input error naming the nodes that exist otherwise)
    Ptr<Node> FindNode(const std::string& name, const FaultSpec& spec) const;
    /// \return the switch ports at the ends of cable \p link (cached)
    const std::vector<PortEnd>& Ends(uint32_t link);
    /**
     * \brief Take (\p down) or release a hold on cables; a cable is up while nobody holds it.
     *        Cuts / restores the cables that change and, with LocalRepair, their switch ports;
     *        logs the change; updates the routes now (ConvergenceDelay 0) or schedules it.
     * \param index the bound fault
     * \param down take (true) or release (false) the hold
     * \param kind the logged kind
     * \param detail the logged detail's prefix (e.g. "flap 2/3")
     */
    void HoldLinks(uint32_t index, bool down, const std::string& kind, const std::string& detail);
    /**
     * \brief The control plane: set the route computer's link states, recompute the tables,
     *        log a "routes" event.
     * \param changes (link, up) in the order the data plane changed them
     * \param target the fault's target, for the log
     * \param cause the kind that changed the data plane, for the log
     */
    void Converge(std::vector<std::pair<uint32_t, bool>> changes,
                  std::string target,
                  std::string cause);
    /// Set the switch ports at both ends of \p link up or down.
    void SetPorts(uint32_t link, bool up);
    /**
     * \brief Degrade (\p restore false) or restore a fault's cables.
     * \param index the bound fault
     * \param restore back to the rate at Install()
     */
    void SetRate(uint32_t index, bool restore);
    /**
     * \brief Stall (\p stall) or resume a GPU's host drain; overlapping stalls of one GPU
     *        hold it stalled until the last one ends.
     * \param index the bound fault (NIC_STALL)
     * \param stall start (true) or end (false) the stall
     */
    void SetStall(uint32_t index, bool stall);
    /**
     * \brief Apply an ECN_PROFILE fault: set (or restore) the thresholds of its ports.
     * \param index the bound fault
     */
    void SetEcn(uint32_t index);
    /**
     * \brief Abort (FABRIC_INPUT_ERROR) unless a PFC_THRESHOLD fault fits its switch: a
     *        lossless priority, xoff= only in Static mode and >= XonOffset, alpha= only in
     *        Dynamic mode.
     * \param spec the fault
     * \param sw its switch
     */
    static void CheckPfcThreshold(const FaultSpec& spec, Ptr<FabricSwitch> sw);
    /**
     * \brief Apply a PFC_THRESHOLD fault: set (or restore) its switch's headroom, XOFF
     *        threshold or alpha.
     * \param index the bound fault
     */
    void SetPfcThreshold(uint32_t index);
    /**
     * \brief Install (\p on) or remove a DROP_CLASS fault's filters on both ends of its
     *        cables; removing logs how many frames they dropped.
     * \param index the bound fault
     * \param on install (true) or remove (false)
     */
    void SetDropFilters(uint32_t index, bool on);
    /// Append to the log and fire FaultApplied.
    void Log(const std::string& kind, const std::string& target, const std::string& detail);
    /**
     * \brief Log a row whose detail reports a count that Gather() sums over processes.
     * \param kind the logged kind
     * \param target the fault's target
     * \param count this process's part of the count
     * \param detail writes the detail for a count (the same function at Gather())
     */
    void LogCounted(const std::string& kind,
                    const std::string& target,
                    uint64_t count,
                    std::function<std::string(uint64_t)> detail);

    /// A log row whose detail reports a count summed over processes (Gather()).
    struct CountedRow
    {
        std::size_t row;                             //!< index in m_events
        uint64_t count;                              //!< this process's part
        std::function<std::string(uint64_t)> detail; //!< the detail for a count
    };

    Time m_convergenceDelay; //!< attribute ConvergenceDelay
    bool m_localRepair;      //!< attribute LocalRepair

    std::vector<FaultSpec> m_specs;                  //!< added faults
    std::vector<Bound> m_bound;                      //!< after Install
    Ptr<FabricTopologyHelper> m_topology;            //!< the fabric (after Install)
    std::map<std::string, Ptr<Node>> m_nodes;        //!< by name (after Install)
    std::vector<std::string> m_nodeNames;            //!< names in fabric order
    std::map<uint32_t, std::set<uint32_t>> m_holds;  //!< link -> holders keeping it down
    std::map<uint32_t, std::vector<PortEnd>> m_ends; //!< link -> switch ports (cache)
    std::map<uint32_t, DataRate> m_plannedRate;      //!< link -> rate at Install
    std::map<std::pair<uint32_t, uint32_t>, EcnProfile>
        m_plannedEcn; //!< (switch node, port) -> profile at Install
    /// switch node -> its buffer profile at Install (headroom per port, XOFF, alpha)
    std::map<uint32_t, PfcProfile> m_plannedPfc;
    std::map<uint32_t, uint32_t> m_stallHolds;     //!< GPU node -> nic-stall faults holding it
    std::vector<FaultEvent> m_events;              //!< the log
    std::vector<CountedRow> m_counted;             //!< its rows that Gather() sums
    std::vector<Ptr<PacketClassFilter>> m_filters; //!< every drop-class filter installed
    bool m_installed{false};                       //!< Install() done
    TracedCallback<Time, const std::string&, const std::string&, const std::string&>
        m_appliedTrace; //!< FaultApplied
};

} // namespace ns3

#endif /* FAULT_HELPER_H */
