/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: progress of a long run on stderr (simulated time, work done, events/s, ETA).
 */
#ifndef FABRIC_PROGRESS_REPORTER_H
#define FABRIC_PROGRESS_REPORTER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace ns3
{

class FabricHealthMonitor;

/**
 * \ingroup ai-fabric-monitor
 * \brief Tells the user how a long run is going: at most once per Interval of wall-clock time
 *        it writes one line to its stream (stderr by default),
 *
 *     <name>: progress: simulated 1.250 ms, flows 1200 done / 1350 started, 2.4 M events/s,
 *     elapsed 12 s, ETA 31 s
 *
 * with the status text and the fraction done (for the ETA) that the program supplies
 * (SetStatusCallback(), SetFractionCallback(); without a fraction there is no ETA). Runs that
 * end before FirstReport (wall clock) print nothing.
 *
 * It looks at the wall clock from a simulation event of its own whose simulated interval
 * adapts to keep about 20 looks per second. That event never changes a result and never
 * delays the end of a run: with Watch(), it is scheduled only while the health monitor sees
 * work pending on the NICs and is removed from the event queue as soon as the last operation
 * completes (as the monitor's own check); with RunUntil(), never past the given end time.
 * Nothing is scheduled until Watch() or RunUntil() is called.
 */
class FabricProgressReporter : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricProgressReporter();
    ~FabricProgressReporter() override;

    /**
     * \param name the program or run the lines begin with
     */
    void SetName(const std::string& name);
    /**
     * \param os where the lines go (default std::cerr; must outlive the run)
     */
    void SetStream(std::ostream* os);
    /**
     * \param cb the work done, as text (e.g. "flows 12 done / 40 started"); null: none
     */
    void SetStatusCallback(Callback<std::string> cb);
    /**
     * \param cb the fraction of the run done, [0, 1], or < 0 when unknown (no ETA); null: the
     *        simulated time over RunUntil()'s end, if any
     */
    void SetFractionCallback(Callback<double> cb);
    /**
     * \brief Report while \p monitor sees work pending on its NICs.
     * \param monitor the run's health monitor (a topology helper's GetHealthMonitor())
     */
    void Watch(Ptr<FabricHealthMonitor> monitor);
    /**
     * \brief Report from now until the simulated time \p end (a run that ends at a known time,
     *        e.g. Simulator::Stop(duration)).
     * \param end the end of the run, absolute simulated time
     */
    void RunUntil(Time end);
    /// \return the number of progress lines written
    uint32_t GetReports() const;
    /**
     * \brief Format a wall-clock duration for people: "45 s", "12 min 5 s", "3 h 20 min".
     * \param seconds the duration, >= 0
     * \return the text
     */
    static std::string FormatDuration(double seconds);

  protected:
    void DoDispose() override;

  private:
    /// The monitor's work started (true) or ended (false).
    void OnBusy(bool busy);
    /// Schedule the next look if none is.
    void Arm();
    /// Remove the scheduled look.
    void Disarm();
    /// Look at the wall clock; report if Interval passed.
    void Tick();
    /// Write one line.
    void Report(double wallSeconds);

    using Clock = std::chrono::steady_clock; //!< wall clock

    Time m_interval;                 //!< attribute Interval (wall clock between lines)
    Time m_first;                    //!< attribute FirstReport (wall clock before the first)
    std::string m_name{"ai-fabric"}; //!< line prefix
    std::ostream* m_os;              //!< output
    Callback<std::string> m_status;  //!< work done
    Callback<double> m_fraction;     //!< fraction done
    Time m_end;                      //!< RunUntil()'s end (zero: none)
    Time m_step;                     //!< simulated time between looks (adapts)
    bool m_busy{false};              //!< work pending (Watch) or before the end (RunUntil)
    bool m_started{false};           //!< the wall clock started
    EventId m_event;                 //!< the next look
    Clock::time_point m_wallStart;   //!< first look
    Clock::time_point m_lastLook;    //!< previous look
    Clock::time_point m_lastReport;  //!< previous line
    uint64_t m_lastEvents{0};        //!< event count at the previous line
    uint32_t m_reports{0};           //!< lines written
};

} // namespace ns3

#endif // FABRIC_PROGRESS_REPORTER_H
