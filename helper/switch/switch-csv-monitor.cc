/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-csv-monitor.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

SwitchCsvMonitor::SwitchCsvMonitor(const std::string& path, Time interval, uint8_t priorities)
    : m_out(path),
      m_interval(interval),
      m_priorities(priorities),
      m_rows(0)
{
    FABRIC_INPUT_ERROR_IF(!m_out, "SwitchCsvMonitor: cannot write \"" << path << "\"");
    FABRIC_INPUT_ERROR_IF(!interval.IsStrictlyPositive(),
                          "SwitchCsvMonitor: interval " << interval << " must be > 0");
    m_out << "time_us,node,port,priority,queue_bytes,tx_bytes,pfc_xoff_tx,pfc_pause_rx,"
             "ecn_marks,drops\n";
}

SwitchCsvMonitor::~SwitchCsvMonitor()
{
    m_event.Cancel();
}

void
SwitchCsvMonitor::Add(Ptr<FabricSwitch> sw)
{
    FABRIC_INPUT_ERROR_IF(!sw || !sw->GetMmu() || sw->GetMmu()->GetNPorts() == 0,
                          "SwitchCsvMonitor::Add: the switch is not configured");
    m_switches.push_back(sw);
    m_last.emplace_back(sw->GetNPorts() * 8ull * 6, 0);
}

void
SwitchCsvMonitor::Start(Time at, Time until)
{
    m_until = until;
    m_event = Simulator::Schedule(at - Simulator::Now(), &SwitchCsvMonitor::Sample, this);
}

uint64_t
SwitchCsvMonitor::GetRows() const
{
    return m_rows;
}

void
SwitchCsvMonitor::Sample()
{
    double tUs = Simulator::Now().GetSeconds() * 1e6;
    for (std::size_t s = 0; s < m_switches.size(); ++s)
    {
        Ptr<FabricSwitch> sw = m_switches[s];
        const SwitchCounters& sc = sw->GetCounters();
        uint64_t drops = 0;
        for (auto d : sc.drops)
        {
            drops += d;
        }
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            const PfcPortCounters& pc = sw->GetPort(port)->GetCounters();
            for (uint8_t p = 0; p < 8; ++p)
            {
                if (!((m_priorities >> p) & 1u))
                {
                    continue;
                }
                uint64_t row[6] = {sw->GetMmu()->GetEgressBytes(port, p),
                                   pc.txBytes[p],
                                   pc.pauseTx[p],
                                   pc.pauseRx[p],
                                   sc.ecnMarks[port],
                                   drops};
                uint64_t* last = &m_last[s][(port * 8ull + p) * 6];
                bool moved = row[0] != 0;
                for (int i = 0; i < 6; ++i)
                {
                    moved |= row[i] != last[i];
                    last[i] = row[i];
                }
                if (!moved)
                {
                    continue;
                }
                m_out << tUs << "," << sw->GetPort(port)->GetNode()->GetId() << "," << port << ","
                      << unsigned(p) << "," << row[0] << "," << row[1] << "," << row[2] << ","
                      << row[3] << "," << row[4] << "," << row[5] << "\n";
                ++m_rows;
            }
        }
    }
    if (Simulator::Now() + m_interval <= m_until)
    {
        m_event = Simulator::Schedule(m_interval, &SwitchCsvMonitor::Sample, this);
    }
    else
    {
        m_out.flush();
    }
}

} // namespace ns3
