/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-progress-reporter.h"

#include "fabric-health-monitor.h"

#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricProgressReporter");
NS_OBJECT_ENSURE_REGISTERED(FabricProgressReporter);

namespace
{
/// Simulated time between the first looks at the wall clock.
const Time FIRST_STEP = MicroSeconds(1);
/// Bounds of the simulated time between looks.
const Time MIN_STEP = NanoSeconds(10);
const Time MAX_STEP = MilliSeconds(100);
} // namespace

TypeId
FabricProgressReporter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricProgressReporter")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricProgressReporter>()
            .AddAttribute(
                "Interval",
                "Wall-clock time between two progress lines (> 0).",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&FabricProgressReporter::m_interval),
                MakeFabricTimeChecker("ns3::FabricProgressReporter::Interval", NanoSeconds(1)))
            .AddAttribute(
                "FirstReport",
                "Wall-clock time before the first progress line (>= 0): shorter "
                "runs print none.",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&FabricProgressReporter::m_first),
                MakeFabricTimeChecker("ns3::FabricProgressReporter::FirstReport", Time(0)));
    return tid;
}

FabricProgressReporter::FabricProgressReporter()
    : m_interval(Seconds(1)),
      m_first(Seconds(1)),
      m_os(&std::cerr),
      m_step(FIRST_STEP)
{
}

FabricProgressReporter::~FabricProgressReporter() = default;

void
FabricProgressReporter::DoDispose()
{
    Disarm();
    m_status = Callback<std::string>();
    m_fraction = Callback<double>();
    Object::DoDispose();
}

void
FabricProgressReporter::SetName(const std::string& name)
{
    m_name = name;
}

void
FabricProgressReporter::SetStream(std::ostream* os)
{
    m_os = os;
}

void
FabricProgressReporter::SetStatusCallback(Callback<std::string> cb)
{
    m_status = cb;
}

void
FabricProgressReporter::SetFractionCallback(Callback<double> cb)
{
    m_fraction = cb;
}

void
FabricProgressReporter::Watch(Ptr<FabricHealthMonitor> monitor)
{
    NS_ABORT_MSG_IF(!monitor, "FabricProgressReporter::Watch: null monitor");
    monitor->AddBusyCallback(MakeCallback(&FabricProgressReporter::OnBusy, this));
    OnBusy(monitor->GetPendingOperations() > 0);
}

void
FabricProgressReporter::RunUntil(Time end)
{
    m_end = end;
    OnBusy(end > Simulator::Now());
}

uint32_t
FabricProgressReporter::GetReports() const
{
    return m_reports;
}

void
FabricProgressReporter::OnBusy(bool busy)
{
    m_busy = busy;
    if (busy)
    {
        Arm();
    }
    else
    {
        Disarm();
    }
}

void
FabricProgressReporter::Arm()
{
    if (compat::IsPending(m_event) || !m_busy)
    {
        return;
    }
    Time at = m_step;
    if (!m_end.IsZero())
    {
        if (Simulator::Now() >= m_end)
        {
            return;
        }
        at = std::min(at, m_end - Simulator::Now());
    }
    m_event = Simulator::Schedule(at, &FabricProgressReporter::Tick, this);
}

void
FabricProgressReporter::Disarm()
{
    if (compat::IsPending(m_event))
    {
        // Removed, not cancelled: a cancelled event would still move the clock to its time.
        Simulator::Remove(m_event);
    }
    m_event = EventId();
}

void
FabricProgressReporter::Tick()
{
    m_event = EventId();
    const Clock::time_point now = Clock::now();
    if (!m_started)
    {
        m_started = true;
        m_wallStart = now;
        m_lastLook = now;
        m_lastReport = now;
        m_lastEvents = Simulator::GetEventCount();
    }
    else
    {
        // About 20 looks per wall-clock second.
        const double look = std::chrono::duration<double>(now - m_lastLook).count();
        if (look < 0.025)
        {
            m_step = std::min(m_step * 2, MAX_STEP);
        }
        else if (look > 0.1)
        {
            m_step = std::max(m_step / 2, MIN_STEP);
        }
        m_lastLook = now;
    }
    const double sinceStart = std::chrono::duration<double>(now - m_wallStart).count();
    const double sinceReport = std::chrono::duration<double>(now - m_lastReport).count();
    if (sinceStart >= m_first.GetSeconds() &&
        (m_reports == 0 || sinceReport >= m_interval.GetSeconds()))
    {
        Report(sinceStart);
        m_lastReport = now;
    }
    Arm();
}

void
FabricProgressReporter::Report(double wallSeconds)
{
    if (!m_os)
    {
        return;
    }
    const uint64_t events = Simulator::GetEventCount();
    const double since =
        std::max(1e-9, std::chrono::duration<double>(Clock::now() - m_lastReport).count());
    const double rate = double(events - m_lastEvents) / since;
    m_lastEvents = events;
    double fraction = -1;
    if (!m_fraction.IsNull())
    {
        fraction = m_fraction();
    }
    else if (!m_end.IsZero())
    {
        fraction = Simulator::Now().GetSeconds() / m_end.GetSeconds();
    }
    std::ostringstream line;
    line << m_name << ": progress: simulated " << std::fixed << std::setprecision(3)
         << Simulator::Now().GetSeconds() * 1e3 << " ms";
    if (!m_status.IsNull())
    {
        const std::string s = m_status();
        if (!s.empty())
        {
            line << ", " << s;
        }
    }
    line << ", " << std::setprecision(2) << rate / 1e6 << " M events/s, elapsed "
         << FormatDuration(wallSeconds);
    if (fraction > 0 && fraction <= 1)
    {
        line << ", " << std::setprecision(1) << fraction * 100 << " % done, ETA "
             << FormatDuration(wallSeconds * (1 - fraction) / fraction);
    }
    *m_os << line.str() << std::endl;
    ++m_reports;
}

std::string
FabricProgressReporter::FormatDuration(double seconds)
{
    const uint64_t s = static_cast<uint64_t>(std::llround(std::max(0.0, seconds)));
    std::ostringstream os;
    if (s < 60)
    {
        os << s << " s";
    }
    else if (s < 3600)
    {
        os << s / 60 << " min " << s % 60 << " s";
    }
    else
    {
        os << s / 3600 << " h " << (s % 3600) / 60 << " min";
    }
    return os.str();
}

} // namespace ns3
