/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "wred-ecn-marker.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WredEcnMarker");

NS_OBJECT_ENSURE_REGISTERED(WredEcnMarker);

TypeId
WredEcnMarker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WredEcnMarker")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<WredEcnMarker>()
            .AddAttribute("Kmin",
                          "Egress queue occupancy (bytes, e.g. \"100KB\") at or below which no "
                          "packet is marked; per ReferenceRate when ScaleWithRate. Must be in "
                          "bytes and <= Kmax.",
                          QueueSizeValue(QueueSize("100KB")),
                          MakeQueueSizeAccessor(&WredEcnMarker::SetKminAttribute,
                                                &WredEcnMarker::GetKminAttribute),
                          MakeQueueSizeChecker())
            .AddAttribute("Kmax",
                          "Egress queue occupancy (bytes) at which the marking probability "
                          "reaches Pmax; above it every ECN-capable packet is marked. Per "
                          "ReferenceRate when ScaleWithRate. Must be in bytes and >= Kmin.",
                          QueueSizeValue(QueueSize("400KB")),
                          MakeQueueSizeAccessor(&WredEcnMarker::SetKmaxAttribute,
                                                &WredEcnMarker::GetKmaxAttribute),
                          MakeQueueSizeChecker())
            .AddAttribute("Pmax",
                          "Marking probability at Kmax, in [0, 1] (not scaled with rate).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&WredEcnMarker::SetPmaxAttribute,
                                             &WredEcnMarker::GetPmaxAttribute),
                          MakeDoubleChecker<double>())
            .AddAttribute("ScaleWithRate",
                          "If true, Kmin and Kmax are per ReferenceRate and each port's "
                          "thresholds are scaled by its rate / ReferenceRate.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&WredEcnMarker::m_scaleWithRate),
                          MakeBooleanChecker())
            .AddAttribute("ReferenceRate",
                          "Port rate the Kmin/Kmax attributes refer to when ScaleWithRate "
                          "(> 0 bit/s).",
                          DataRateValue(DataRate("25Gbps")),
                          MakeDataRateAccessor(&WredEcnMarker::SetReferenceRate,
                                               &WredEcnMarker::GetReferenceRate),
                          MakeDataRateChecker())
            .AddAttribute("EcnPriorities",
                          "Bit i set = packets of priority i are eligible for marking.",
                          UintegerValue(0xff),
                          MakeUintegerAccessor(&WredEcnMarker::m_priorities),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("MarkingPoint",
                          "When the marking decision is taken: Enqueue (default; on the egress "
                          "occupancy including the arriving packet) or Dequeue (when the packet "
                          "leaves for the wire, on the bytes queued behind it, as HPCC-lineage "
                          "simulators and many ASICs: marks reflect the queue one queueing "
                          "delay later, so congestion is signalled up to one queue-drain time "
                          "earlier).",
                          EnumValue(ENQUEUE),
                          compat::MakeEnumAccessor<MarkingPoint>(&WredEcnMarker::m_markingPoint),
                          MakeEnumChecker(ENQUEUE, "Enqueue", DEQUEUE, "Dequeue"));
    return tid;
}

WredEcnMarker::WredEcnMarker()
    : m_kmin(QueueSize("100KB")),
      m_kmax(QueueSize("400KB")),
      m_pmax(0.2),
      m_scaleWithRate(true),
      m_referenceRate(DataRate("25Gbps")),
      m_priorities(0xff),
      m_markingPoint(ENQUEUE),
      m_uniform(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

WredEcnMarker::~WredEcnMarker()
{
    NS_LOG_FUNCTION(this);
}

void
WredEcnMarker::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_uniform = nullptr;
    Object::DoDispose();
}

void
WredEcnMarker::SetKminAttribute(QueueSize kmin)
{
    NS_ABORT_MSG_IF(kmin.GetUnit() != QueueSizeUnit::BYTES,
                    "WredEcnMarker Kmin " << kmin
                                          << " is invalid; it must be given in bytes (e.g. "
                                             "\"100KB\")");
    m_kmin = kmin;
}

QueueSize
WredEcnMarker::GetKminAttribute() const
{
    return m_kmin;
}

void
WredEcnMarker::SetKmaxAttribute(QueueSize kmax)
{
    NS_ABORT_MSG_IF(kmax.GetUnit() != QueueSizeUnit::BYTES,
                    "WredEcnMarker Kmax " << kmax
                                          << " is invalid; it must be given in bytes (e.g. "
                                             "\"400KB\")");
    m_kmax = kmax;
}

QueueSize
WredEcnMarker::GetKmaxAttribute() const
{
    return m_kmax;
}

void
WredEcnMarker::SetPmaxAttribute(double pmax)
{
    NS_ABORT_MSG_IF(!(pmax >= 0.0 && pmax <= 1.0),
                    "WredEcnMarker Pmax " << pmax << " is invalid; valid range is [0, 1]");
    m_pmax = pmax;
}

double
WredEcnMarker::GetPmaxAttribute() const
{
    return m_pmax;
}

void
WredEcnMarker::SetReferenceRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "WredEcnMarker ReferenceRate " << rate << " is invalid; it must be > 0 bit/s");
    m_referenceRate = rate;
}

DataRate
WredEcnMarker::GetReferenceRate() const
{
    return m_referenceRate;
}

std::string
WredEcnMarker::DescribePort(uint32_t port) const
{
    std::ostringstream os;
    os << "WredEcnMarker";
    if (!m_owner.empty())
    {
        os << " on " << m_owner;
    }
    os << " port " << port;
    return os.str();
}

void
WredEcnMarker::Validate(uint32_t port, uint64_t kmin, uint64_t kmax, double pmax) const
{
    NS_ABORT_MSG_IF(kmin > kmax,
                    DescribePort(port) << ": Kmin " << kmin << " B > Kmax " << kmax
                                       << " B is invalid; Kmin must be <= Kmax");
    NS_ABORT_MSG_IF(!(pmax >= 0.0 && pmax <= 1.0),
                    DescribePort(port)
                        << ": Pmax " << pmax << " is invalid; valid range is [0, 1]");
}

void
WredEcnMarker::CheckPort(uint32_t port, const char* what) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "WredEcnMarker::" << what << ": port " << port
                                      << " is invalid; valid ports are 0.." << m_ports.size()
                                      << " - 1 (ConfigurePorts sizes the table)");
}

void
WredEcnMarker::ConfigurePorts(const std::vector<DataRate>& rates, const std::string& owner)
{
    NS_LOG_FUNCTION(this << rates.size() << owner);
    m_owner = owner;
    const uint64_t kmin = m_kmin.GetValue();
    const uint64_t kmax = m_kmax.GetValue();
    m_ports.assign(rates.size(), PortThresholds{kmin, kmax, m_pmax});
    for (uint32_t i = 0; i < rates.size(); ++i)
    {
        PortThresholds& t = m_ports[i];
        if (m_scaleWithRate)
        {
            NS_ABORT_MSG_IF(rates[i].GetBitRate() == 0,
                            "WredEcnMarker port " << i << ": rate " << rates[i]
                                                  << " is invalid; it must be > 0 bit/s");
            // The ratio is exact for the usual rates (25/100/400 Gb/s); round to whole bytes.
            const double scale = static_cast<double>(rates[i].GetBitRate()) /
                                 static_cast<double>(m_referenceRate.GetBitRate());
            t.kmin = static_cast<uint64_t>(std::llround(static_cast<double>(kmin) * scale));
            t.kmax = static_cast<uint64_t>(std::llround(static_cast<double>(kmax) * scale));
        }
        if (t.kmin > t.kmax)
        {
            std::ostringstream configured;
            configured << "configured ns3::WredEcnMarker::Kmin=" << m_kmin << ", Kmax=" << m_kmax;
            if (m_scaleWithRate)
            {
                configured << ", scaled by the port rate " << rates[i] << " / ReferenceRate "
                           << m_referenceRate;
            }
            NS_ABORT_MSG(DescribePort(i)
                         << ": Kmin " << t.kmin << " B > Kmax " << t.kmax
                         << " B is invalid; Kmin must be <= Kmax (" << configured.str() << ")");
        }
        Validate(i, t.kmin, t.kmax, t.pmax);
        NS_LOG_DEBUG("port " << i << " rate " << rates[i] << " Kmin " << t.kmin << " B Kmax "
                             << t.kmax << " B Pmax " << t.pmax);
    }
}

void
WredEcnMarker::SetPortThresholds(uint32_t port, uint64_t kminBytes, uint64_t kmaxBytes, double pmax)
{
    NS_LOG_FUNCTION(this << port << kminBytes << kmaxBytes << pmax);
    CheckPort(port, "SetPortThresholds");
    Validate(port, kminBytes, kmaxBytes, pmax);
    m_ports[port] = PortThresholds{kminBytes, kmaxBytes, pmax};
}

uint64_t
WredEcnMarker::GetKmin(uint32_t port) const
{
    CheckPort(port, "GetKmin");
    return m_ports[port].kmin;
}

uint64_t
WredEcnMarker::GetKmax(uint32_t port) const
{
    CheckPort(port, "GetKmax");
    return m_ports[port].kmax;
}

double
WredEcnMarker::GetPmax(uint32_t port) const
{
    CheckPort(port, "GetPmax");
    return m_ports[port].pmax;
}

uint32_t
WredEcnMarker::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

WredEcnMarker::MarkingPoint
WredEcnMarker::GetMarkingPoint() const
{
    return m_markingPoint;
}

double
WredEcnMarker::MarkProbability(uint32_t port, uint64_t queueBytes) const
{
    CheckPort(port, "MarkProbability");
    const PortThresholds& t = m_ports[port];
    if (queueBytes <= t.kmin)
    {
        return 0.0;
    }
    if (queueBytes > t.kmax)
    {
        return 1.0;
    }
    // Here kmin < queueBytes <= kmax, so kmax > kmin and the division is safe.
    return t.pmax * static_cast<double>(queueBytes - t.kmin) / static_cast<double>(t.kmax - t.kmin);
}

bool
WredEcnMarker::ShouldMark(uint32_t port, uint8_t priority, uint8_t ecn, uint64_t queueBytes)
{
    NS_ABORT_MSG_IF(priority > 7,
                    "WredEcnMarker::ShouldMark: priority " << unsigned(priority)
                                                           << " is invalid; valid priorities "
                                                              "are 0..7");
    if (!((m_priorities >> priority) & 1u) || (ecn != 1 && ecn != 2))
    {
        return false;
    }
    const double p = MarkProbability(port, queueBytes);
    if (p <= 0.0)
    {
        return false;
    }
    if (p >= 1.0)
    {
        return true;
    }
    return m_uniform->GetValue() < p;
}

int64_t
WredEcnMarker::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

} // namespace ns3
