/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_CSV_MONITOR_H
#define SWITCH_CSV_MONITOR_H

#include "ns3/event-id.h"
#include "ns3/fabric-switch.h"
#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <fstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief Samples switch port state at a fixed interval into a tidy CSV file (opt-in).
 *
 * One row per sample, switch port and priority in the priority mask, written only when the
 * row has something to say (queue non-empty or a counter moved since the previous sample):
 * \verbatim
   time_us,node,port,priority,queue_bytes,tx_bytes,pfc_xoff_tx,pfc_pause_rx,ecn_marks,drops
   \endverbatim
 * queue_bytes is the MMU egress occupancy of (port, priority) at the sample; the others are
 * cumulative since the start: tx_bytes and PFC frames from the port's PfcNetDevice counters
 * (pfc_xoff_tx = pause frames this port sent to its peer, pfc_pause_rx = pause frames it
 * received), ecn_marks of the egress port (all priorities, repeated on each priority row) and
 * drops of the whole switch (all reasons, repeated on each row). Nothing is scheduled until
 * Start(), so a monitor that is not started costs nothing.
 */
class SwitchCsvMonitor
{
  public:
    /**
     * \param path output CSV path (aborts with the path if it cannot be opened)
     * \param interval sampling interval, > 0 (aborts otherwise)
     * \param priorities bit i set = write rows for priority i
     */
    SwitchCsvMonitor(const std::string& path, Time interval, uint8_t priorities = 0xff);
    ~SwitchCsvMonitor();

    /**
     * \brief Monitor every port of a switch.
     * \param sw a configured switch
     */
    void Add(Ptr<FabricSwitch> sw);

    /**
     * \brief Start sampling.
     * \param at first sample time (absolute)
     * \param until last sample time (absolute); sampling stops after it
     */
    void Start(Time at, Time until);

    /// \return rows written so far
    uint64_t GetRows() const;

  private:
    /// Take one sample of every switch.
    void Sample();

    std::ofstream m_out;                       //!< CSV output
    Time m_interval;                           //!< sampling interval
    Time m_until;                              //!< stop time
    uint8_t m_priorities;                      //!< rows for these priorities
    std::vector<Ptr<FabricSwitch>> m_switches; //!< monitored switches
    std::vector<std::vector<uint64_t>> m_last; //!< last row signature per switch
    EventId m_event;                           //!< next sample
    uint64_t m_rows;                           //!< rows written
};

} // namespace ns3

#endif /* SWITCH_CSV_MONITOR_H */
