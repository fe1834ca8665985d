/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_HEALTH_MONITOR_H
#define FABRIC_HEALTH_MONITOR_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/fabric-nic.h"
#include "ns3/fabric-note-channel.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-monitor
 * \brief Makes every run end: detects a fabric that stopped making progress, stops the
 *        simulation with a diagnosis, and reports what a lossless fabric must never do.
 *
 * A run can stall without ending: a PFC deadlock, a receiver that drains at 1 bit/s, a
 * paused port whose XOFF refresh keeps scheduling events forever. The monitor watches the NIC
 * cores (FabricNic) of a fabric:
 *  - <b>Progress</b> is a frame delivered to a transport by any watched NIC (data, ACK, NACK,
 *    CNP: FabricNic::GetDeliveredFrames()).
 *  - <b>Work</b> is an operation posted and not completed on any watched NIC
 *    (FabricNicTransport::GetPendingOperations(): RoCE work requests, UET messages).
 *  - While there is work, it checks every CheckInterval; when no frame was delivered for
 *    StallTime, it writes a diagnosis (Diagnose(): the pending operations of every NIC with
 *    node and QP, every PFC-paused or XOFF-sending port, the registered diagnosers such as
 *    stuck collectives) to its stream (stderr by default), fires "Stalled" and calls
 *    Simulator::Stop(), so the program after Simulator::Run() writes its outputs.
 *  - It is not a self-perpetuating timer: when the last pending operation completes
 *    (FabricNic::NotifyWorkCompleted()) its check is removed from the event queue, and the
 *    next posted one (FabricNic::NotifyWorkPosted()) re-arms it. A finished simulation
 *    therefore ends when its events run out, at the same time as without the monitor.
 *
 * After the run, ReportEndOfRun() prints (loudly, on the given stream) any packet a switch
 * dropped in a lossless priority, work still pending and the stall diagnosis, and returns
 * whether the run was healthy.
 *
 * StallTime must exceed the longest legitimate silence with work pending: a PFC watchdog
 * recovery (PfcWatchdogTimeout, 200 ms by default) or a transport's retry timeouts. The
 * default, 1 s of simulated time, does.
 */
class FabricHealthMonitor : public Object
{
  public:
    /// Stalled trace signature: the simulated time without progress, the diagnosis text.
    typedef void (*StalledTracedCallback)(Time, const std::string&);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricHealthMonitor();
    ~FabricHealthMonitor() override;

    /**
     * \brief Watch a NIC core (sets its work-posted callback; a NIC has one monitor).
     * \param nic the NIC core (aborts if null)
     */
    void AddNic(Ptr<FabricNic> nic);
    /**
     * \brief Watch the NIC core of every node in \p nodes that has one (FabricNic aggregated).
     * \param nodes the nodes
     */
    void Install(NodeContainer nodes);
    /// \return the watched NIC cores
    uint32_t GetNNics() const;

    /**
     * \brief Add a diagnoser: Diagnose() calls it after the NICs and ports, under a heading
     *        "<name>:" (e.g. a communicator listing its unfinished collectives and ranks).
     * \param name what it describes
     * \param cb writes its lines to the stream
     */
    void AddDiagnoser(const std::string& name, Callback<void, std::ostream&> cb);
    /**
     * \brief Name nodes in the diagnosis (e.g. "leaf3", "gpu17") instead of "node <id>".
     * \param namer node id -> name (a null callback restores "node <id>")
     */
    void SetNodeNamer(Callback<std::string, uint32_t> namer);
    /**
     * \brief Be told when work starts (true: an operation is pending on a watched NIC) and
     *        when it ends (false: none is); e.g. FabricProgressReporter::Watch().
     * \param cb the callback (called on every change, in the order added)
     */
    void AddBusyCallback(Callback<void, bool> cb);

    /**
     * \brief Run across MPI processes: a stall detected here stops every process (a 4-byte
     *        note naming this process to each other one), and a stall in another process stops
     *        this one, saying which process stalled (its diagnosis is on its stderr) and
     *        marking this monitor stalled. Without it, the other processes of a run would wait
     *        on the stalled one's frames forever. Call in every process at the same point of the
     *        set-up (it registers a note handler); FabricTopologyHelper does when the topology
     *        spans processes.
     * \param notes the topology's note channel (not null; aborts otherwise)
     * \param processes number of processes, >= 2
     * \param self this process's system id, < processes (aborts naming both otherwise)
     */
    void SetProcesses(Ptr<FabricNoteChannel> notes, uint32_t processes, uint32_t self);

    /// \return operations pending on the watched NICs (sum of FabricNic::GetPendingOperations)
    uint64_t GetPendingOperations() const;
    /// \return true once a stall was detected (and the simulation stopped)
    bool IsStalled() const;
    /**
     * \brief Write the stall diagnosis: pending operations per NIC (node, QP or PDC, PSNs),
     *        ports paused by their peer or sending XOFF (node, port, priorities, until when),
     *        then every diagnoser.
     * \param os the stream
     */
    void Diagnose(std::ostream& os) const;
    /**
     * \brief Packets dropped by switches in lossless priorities (SwitchCounters::
     *        losslessDrops) over every node of the simulation.
     * \return the count
     */
    static uint64_t CountLosslessDrops();
    /**
     * \brief The end-of-run check: print a warning for lossless drops (per switch and
     *        priority), for work still pending, and the diagnosis of a stall.
     * \param os the stream (stderr in the examples)
     * \return true if the run was healthy (no stall, no lossless drop, no pending work)
     */
    bool ReportEndOfRun(std::ostream& os) const;

  protected:
    void DoDispose() override;

  private:
    /// Pending operations changed on a NIC (+1 posted, -n completed): arm or disarm.
    void OnWork(int64_t delta);
    /// Start checking if not already.
    void Arm();
    /// Periodic check.
    void Check();
    /// \return the sum of the delivered frames of the watched NICs
    uint64_t DeliveredFrames() const;
    /// \return the name of a node (namer or "node <id>")
    std::string NodeName(uint32_t id) const;
    /// Tell the busy callbacks if pending work started or ended since the last call.
    void NotifyBusy();
    /// \brief Another process stalled: stop this one.
    /// \param note its bytes (the stalled process's system id)
    void OnRemoteStall(const std::vector<uint8_t>& note);

    Time m_stallTime;                   //!< attribute StallTime
    Time m_checkInterval;               //!< attribute CheckInterval
    uint32_t m_maxLines{40};            //!< attribute MaxDiagnosisLines
    bool m_armed{false};                //!< a check is scheduled
    uint64_t m_pending{0};              //!< pending operations by the NICs' notifications
    std::vector<Ptr<FabricNic>> m_nics; //!< watched
    std::vector<std::pair<std::string, Callback<void, std::ostream&>>> m_diagnosers; //!< extra
    Callback<std::string, uint32_t> m_namer;                                         //!< node names
    EventId m_check;                                                                 //!< next check
    std::vector<Callback<void, bool>> m_busyCallbacks; //!< AddBusyCallback()
    bool m_busyNotified{false};                        //!< last state told to them
    uint64_t m_lastDelivered{0};                       //!< delivered frames at the last progress
    Time m_lastProgress;                               //!< when progress was last seen
    bool m_stalled{false};                             //!< a stall was detected
    std::string m_diagnosis;                           //!< the stall's diagnosis
    std::ostream* m_out;                               //!< where a stall is reported (stderr)
    TracedCallback<Time, const std::string&> m_stalledTrace; //!< stalls
    Ptr<FabricNoteChannel> m_notes; //!< across processes: where stalls are told (else null)
    uint32_t m_noteHandler{0};      //!< our note handler's id
    uint32_t m_processes{1};        //!< processes of the run
    uint32_t m_self{0};             //!< this process's system id
};

} // namespace ns3

#endif /* FABRIC_HEALTH_MONITOR_H */
