/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-monitor-writer.h"

#include "ns3/abort.h"

#include <cstdio>

namespace ns3
{

const char*
FabricMonitorLevelName(FabricMonitorLevel level)
{
    switch (level)
    {
    case FabricMonitorLevel::NODE:
        return "node";
    case FabricMonitorLevel::PORT:
        return "port";
    case FabricMonitorLevel::QUEUE:
        return "queue";
    case FabricMonitorLevel::QP:
        return "qp";
    case FabricMonitorLevel::PROBE:
        return "probe";
    case FabricMonitorLevel::COUNT:
        break;
    }
    NS_ABORT_MSG("FabricMonitorLevelName: invalid level " << unsigned(level));
    return "";
}

const char*
FabricMonitorWriter::GetHeader()
{
    return "time_us,level,node,node_name,port,peer,priority,qp,metric,value";
}

FabricMonitorWriter::FabricMonitorWriter() = default;

void
FabricMonitorWriter::SetStream(std::ostream* os)
{
    m_os = os;
    if (m_os)
    {
        *m_os << GetHeader() << '\n';
    }
}

void
FabricMonitorWriter::SetKey(const std::string& key)
{
    m_key = key;
}

std::ostream*
FabricMonitorWriter::GetStream() const
{
    return m_os;
}

bool
FabricMonitorWriter::IsOpen() const
{
    return m_os != nullptr;
}

void
FabricMonitorWriter::Prefix(Time t,
                            FabricMonitorLevel level,
                            const FabricMonitorEntity& e,
                            int priority,
                            int64_t qp,
                            const std::string& metric)
{
    const int64_t ns = t.GetNanoSeconds();
    if (ns != m_cachedNs)
    {
        // Microseconds with 3 decimals from the integer nanoseconds: exact, deterministic.
        char buf[32];
        std::snprintf(buf,
                      sizeof(buf),
                      "%lld.%03lld",
                      static_cast<long long>(ns / 1000),
                      static_cast<long long>(ns % 1000));
        m_timeText = buf;
        m_cachedNs = ns;
    }
    std::ostream& os = *m_os;
    os << m_key << m_timeText << ',' << FabricMonitorLevelName(level) << ',' << e.node << ','
       << e.name << ',';
    if (e.port >= 0)
    {
        os << e.port;
    }
    os << ',' << e.peer << ',';
    if (priority >= 0)
    {
        os << priority;
    }
    os << ',';
    if (qp >= 0)
    {
        os << qp;
    }
    os << ',' << metric << ',';
    ++m_rows;
}

void
FabricMonitorWriter::Row(Time t,
                         FabricMonitorLevel level,
                         const FabricMonitorEntity& e,
                         int priority,
                         int64_t qp,
                         const std::string& metric,
                         uint64_t value)
{
    if (!m_os)
    {
        return;
    }
    Prefix(t, level, e, priority, qp, metric);
    *m_os << value << '\n';
}

void
FabricMonitorWriter::RowReal(Time t,
                             FabricMonitorLevel level,
                             const FabricMonitorEntity& e,
                             int priority,
                             int64_t qp,
                             const std::string& metric,
                             double value)
{
    if (!m_os)
    {
        return;
    }
    Prefix(t, level, e, priority, qp, metric);
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.6g", value);
    *m_os << buf << '\n';
}

void
FabricMonitorWriter::Flush()
{
    if (m_os)
    {
        m_os->flush();
    }
}

uint64_t
FabricMonitorWriter::GetRows() const
{
    return m_rows;
}

} // namespace ns3
