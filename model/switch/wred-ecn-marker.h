/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: WRED ECN marking on switch egress queues.
 */
#ifndef WRED_ECN_MARKER_H
#define WRED_ECN_MARKER_H

#include "ns3/data-rate.h"
#include "ns3/object.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-switch
 * \brief WRED ECN marking of a switch's egress queues (the DCQCN congestion point).
 *
 * For an egress queue holding q bytes (instantaneous, including the arriving packet), the
 * marking probability is 0 for q <= Kmin, Pmax x (q - Kmin) / (Kmax - Kmin) for
 * Kmin < q <= Kmax, and 1 above Kmax (RED/WRED as used by DCQCN, Zhu et al. SIGCOMM 2015;
 * ECN codepoints RFC 3168). Only ECT(0)/ECT(1) packets are marked CE; Not-ECT packets are never
 * marked (the switch does not drop them for ECN either).
 *
 * Thresholds are per port. With ScaleWithRate the attribute values are per ReferenceRate
 * (default 25 Gb/s) and each port's thresholds are scaled by its rate / ReferenceRate, the
 * production practice of 100 KB / 400 KB / 0.2 per 25 Gb/s (HPCC, Li et al. SIGCOMM 2019);
 * SetPortThresholds() overrides one port with absolute values.
 *
 * <b>Marking point.</b> MarkingPoint Enqueue (the default) decides when the packet is queued,
 * on the egress occupancy including the packet (a packet reports the queue it joins). Dequeue
 * decides when the packet leaves the queue for the wire, on the bytes still queued behind it
 * at that priority (the packet itself excluded), as HPCC-lineage simulators (the HPCC ns-3
 * switch's SwitchNotifyDequeue) and many switch ASICs do. A packet that waited d in the queue
 * reports the queue d later than with Enqueue marking: while a queue builds, the first marks
 * leave up to one queue-drain time (queue bytes / port rate) earlier and the marks stop sooner
 * once it drains, so DCQCN reacts faster and holds shorter queues; counts and rates differ.
 * The decision is the same WRED profile either way; FabricSwitch applies the point.
 */
class WredEcnMarker : public Object
{
  public:
    /// Where in a packet's stay the marking decision is taken (MarkingPoint attribute).
    enum MarkingPoint
    {
        ENQUEUE, //!< when the packet is queued, on the occupancy including it (default)
        DEQUEUE, //!< when it leaves for the wire, on the bytes queued behind it
    };

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    WredEcnMarker();
    ~WredEcnMarker() override;

    /**
     * \brief Size the per-port tables from the switch's port rates, applying the attribute
     *        thresholds (scaled by rate when ScaleWithRate). Called by the switch at install.
     * \param rates one entry per switch port (each > 0 bit/s when ScaleWithRate)
     * \param owner who owns the marker, named in errors (FabricSwitch passes "switch node
     *        <id>"); empty = unnamed
     * Kmin/Kmax are rounded to whole bytes after scaling. Calling it again resizes the table
     * and discards SetPortThresholds() overrides. Aborts, naming the owner, the port and the
     * values, if Kmin > Kmax (also the configured Kmin/Kmax attributes and, when scaled, the
     * port rate and ReferenceRate), Pmax is outside [0, 1] or a rate is 0 with ScaleWithRate.
     */
    void ConfigurePorts(const std::vector<DataRate>& rates, const std::string& owner = "");

    /**
     * \brief Override one port's thresholds with absolute values.
     * \param port switch port index (< number of configured ports; aborts otherwise)
     * \param kminBytes Kmin in bytes
     * \param kmaxBytes Kmax in bytes, >= kminBytes (aborts otherwise)
     * \param pmax marking probability at Kmax, in [0, 1] (aborts otherwise)
     */
    void SetPortThresholds(uint32_t port, uint64_t kminBytes, uint64_t kmaxBytes, double pmax);

    /**
     * \param port switch port index (< GetNPorts(); aborts otherwise)
     * \return Kmin of that port, bytes
     */
    uint64_t GetKmin(uint32_t port) const;
    /**
     * \param port switch port index (< GetNPorts(); aborts otherwise)
     * \return Kmax of that port, bytes
     */
    uint64_t GetKmax(uint32_t port) const;
    /**
     * \param port switch port index (< GetNPorts(); aborts otherwise)
     * \return Pmax of that port
     */
    double GetPmax(uint32_t port) const;

    /**
     * \brief The WRED marking probability (see the class description).
     * \param port switch port index (< GetNPorts(); aborts otherwise)
     * \param queueBytes egress queue occupancy in bytes
     * \return probability in [0, 1]
     */
    double MarkProbability(uint32_t port, uint64_t queueBytes) const;

    /**
     * \brief Decide whether to mark one packet (draws from the random stream when needed).
     * \param port egress port index (< GetNPorts(); aborts otherwise)
     * \param priority the packet's priority, 0..7 (aborts otherwise); only priorities in
     *        EcnPriorities are marked
     * \param ecn the packet's ECN field (0 Not-ECT, 1/2 ECT, 3 CE)
     * \param queueBytes egress queue occupancy in bytes
     * \return true if the packet must leave with CE (never for Not-ECT or CE packets). A
     *         uniform draw is made only when 0 < probability < 1.
     */
    bool ShouldMark(uint32_t port, uint8_t priority, uint8_t ecn, uint64_t queueBytes);

    /// \return number of ports configured
    uint32_t GetNPorts() const;
    /// \return attribute MarkingPoint: ENQUEUE (default) or DEQUEUE
    MarkingPoint GetMarkingPoint() const;

    /**
     * \brief Assign a fixed random stream.
     * \param stream stream index
     * \return 1
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// Per-port thresholds.
    struct PortThresholds
    {
        uint64_t kmin; //!< bytes
        uint64_t kmax; //!< bytes
        double pmax;   //!< probability at kmax
    };

    /// Abort unless the triple is valid, naming the owner, the port and the values.
    void Validate(uint32_t port, uint64_t kmin, uint64_t kmax, double pmax) const;

    /// \return "WredEcnMarker[ on <owner>] port <port>", how errors name a port
    std::string DescribePort(uint32_t port) const;

    /// Abort unless \p port < GetNPorts(), naming \p what (the caller) and the port.
    void CheckPort(uint32_t port, const char* what) const;

    /// Attribute setter for Kmin: aborts unless given in bytes.
    void SetKminAttribute(QueueSize kmin);
    /// \return attribute Kmin
    QueueSize GetKminAttribute() const;
    /// Attribute setter for Kmax: aborts unless given in bytes.
    void SetKmaxAttribute(QueueSize kmax);
    /// \return attribute Kmax
    QueueSize GetKmaxAttribute() const;
    /// Attribute setter for Pmax: aborts unless in [0, 1].
    void SetPmaxAttribute(double pmax);
    /// \return attribute Pmax
    double GetPmaxAttribute() const;
    /// Attribute setter for ReferenceRate: aborts unless > 0 bit/s.
    void SetReferenceRate(DataRate rate);
    /// \return attribute ReferenceRate
    DataRate GetReferenceRate() const;

    QueueSize m_kmin;                     //!< attribute Kmin
    QueueSize m_kmax;                     //!< attribute Kmax
    double m_pmax;                        //!< attribute Pmax
    bool m_scaleWithRate;                 //!< attribute ScaleWithRate
    DataRate m_referenceRate;             //!< attribute ReferenceRate
    uint8_t m_priorities;                 //!< attribute EcnPriorities
    MarkingPoint m_markingPoint;          //!< attribute MarkingPoint
    std::string m_owner;                  //!< who owns the marker, for errors (may be empty)
    std::vector<PortThresholds> m_ports;  //!< per-port thresholds
    Ptr<UniformRandomVariable> m_uniform; //!< marking draws
};

} // namespace ns3

#endif /* WRED_ECN_MARKER_H */
