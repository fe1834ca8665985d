/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the tidy CSV rows of the production-like monitor (FabricMonitor) and its latency
 * probes (FabricLatencyProbe): one row per observation.
 */
#ifndef FABRIC_MONITOR_WRITER_H
#define FABRIC_MONITOR_WRITER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric-monitor
 * \brief What a monitor row is about: the "level" column of FabricMonitorWriter's CSV.
 */
enum class FabricMonitorLevel : uint8_t
{
    NODE = 0, //!< "node": a switch (buffer, drops by reason) or a host (NIC and transport)
    PORT,     //!< "port": one port of a switch or NIC (PFC, pause time, ECN marks, drops)
    QUEUE,    //!< "queue": one (port, priority) queue (egress / ingress / headroom bytes)
    QP,       //!< "qp": one flow of a transport with counters of its own (a RoCE QP)
    PROBE,    //!< "probe": one latency probe (FabricLatencyProbe)
    COUNT     //!< number of levels (not a level)
};

/**
 * \param level a level (not COUNT)
 * \return its name in the CSV: "node", "port", "queue", "qp", "probe"
 */
const char* FabricMonitorLevelName(FabricMonitorLevel level);

/**
 * \ingroup ai-fabric-monitor
 * \brief The node (and port) a row is about, as the CSV names it.
 */
struct FabricMonitorEntity
{
    uint32_t node{0}; //!< ns-3 node id
    std::string name; //!< the topology's node name ("leaf0", "gpu3")
    int32_t port{-1}; //!< port index on the node (switch port / NIC port), -1 = none
    std::string peer; //!< the node across the port's cable, or the probe's destination
};

/**
 * \ingroup ai-fabric-monitor
 * \brief Writes the monitor's tidy CSV: a header line, then one row per observation,
 *
 *     time_us,level,node,node_name,port,peer,priority,qp,metric,value
 *
 * time_us is the simulation time of the sample in microseconds with 3 decimals (exact
 * nanoseconds, formatted from the integer time: deterministic); level is
 * FabricMonitorLevelName(); node the ns-3 node id and node_name the topology's name; port the
 * port index on that node; peer the node across that port's cable (probes: the destination
 * host); priority 0..7; qp the transport's flow number (RoCE QPN). A column that does not
 * apply to a row is empty (pandas reads it as NaN). metric names the quantity with its unit in
 * the name where it has one (pause_ns, buffer_bytes; the list is in the user guide,
 * "Monitoring"); value is a whole number, or a real number with 6 significant digits for
 * fractions and ratios. Rows are streamed as they are made, never stored.
 */
class FabricMonitorWriter
{
  public:
    /// The header line, without the newline.
    static const char* GetHeader();

    FabricMonitorWriter();
    /// Not copyable (owns the time cache and the row count).
    FabricMonitorWriter(const FabricMonitorWriter&) = delete;
    /// Not copyable. \return *this
    FabricMonitorWriter& operator=(const FabricMonitorWriter&) = delete;

    /**
     * \brief Write to \p os from now on, starting with the header line.
     * \param os the stream (not owned; must outlive the writing); nullptr: write nothing
     */
    void SetStream(std::ostream* os);
    /// \return true if a stream is set
    bool IsOpen() const;
    /// \return the stream rows go to (null if none)
    std::ostream* GetStream() const;
    /**
     * \brief Write \p key in front of every row from now on (FabricMonitor across MPI
     *        processes: the row's place in a sequential run, which process 0 sorts by and
     *        removes); "" (the default) writes plain rows.
     * \param key the text, no newline
     */
    void SetKey(const std::string& key);

    /**
     * \brief Write one row with a whole-number value.
     * \param t the time of the observation (>= 0)
     * \param level what it is about
     * \param e its node (and port)
     * \param priority 0..7, or -1 for none
     * \param qp the flow number, or -1 for none
     * \param metric the metric's name (no comma)
     * \param value the value
     */
    void Row(Time t,
             FabricMonitorLevel level,
             const FabricMonitorEntity& e,
             int priority,
             int64_t qp,
             const std::string& metric,
             uint64_t value);
    /**
     * \brief Write one row with a real value (fractions, ratios; 6 significant digits).
     * \copydetails Row(Time,FabricMonitorLevel,const FabricMonitorEntity&,int,int64_t,const
     * std::string&,uint64_t)
     */
    void RowReal(Time t,
                 FabricMonitorLevel level,
                 const FabricMonitorEntity& e,
                 int priority,
                 int64_t qp,
                 const std::string& metric,
                 double value);

    /// Flush the stream (end of a sampling period).
    void Flush();
    /// \return rows written so far
    uint64_t GetRows() const;

  private:
    /// Write the columns before the value. \copydetails Row(Time,FabricMonitorLevel,const
    /// FabricMonitorEntity&,int,int64_t,const std::string&,uint64_t)
    void Prefix(Time t,
                FabricMonitorLevel level,
                const FabricMonitorEntity& e,
                int priority,
                int64_t qp,
                const std::string& metric);

    std::ostream* m_os{nullptr}; //!< where rows go (not owned)
    int64_t m_cachedNs{-1};      //!< time of m_timeText, ns
    std::string m_timeText;      //!< time_us of m_cachedNs, as written
    std::string m_key;           //!< written in front of every row (SetKey)
    uint64_t m_rows{0};          //!< rows written
};

} // namespace ns3

#endif /* FABRIC_MONITOR_WRITER_H */
