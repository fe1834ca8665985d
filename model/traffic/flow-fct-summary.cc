/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-fct-summary.h"

#include "text-fields.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

namespace ns3
{

namespace
{

/// Picoseconds per microsecond.
constexpr int64_t PS_PER_US = 1000000;

/// \return the nearest-rank \p p-th percentile of sorted \p v (non-empty)
template <typename T>
T
Percentile(const std::vector<T>& v, double p)
{
    auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * double(v.size()) - 1e-9));
    return v[std::min(v.size(), std::max<std::size_t>(rank, 1)) - 1];
}

/// \return \p x with 6 decimals
std::string
Fixed6(double x)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(6) << x;
    return os.str();
}

} // namespace

double
FlowFctRecord::GetSlowdown() const
{
    if (!ideal.IsStrictlyPositive())
    {
        return 0;
    }
    return double(GetFct().GetPicoSeconds()) / double(ideal.GetPicoSeconds());
}

FlowFctSummary::FlowFctSummary()
    : m_edges{10000, 100000, 1000000, 10000000}
{
}

void
FlowFctSummary::SetBucketEdges(const std::vector<uint64_t>& edges)
{
    NS_ABORT_MSG_IF(m_flows != 0,
                    "FlowFctSummary::SetBucketEdges after " << m_flows
                                                            << " flows were added; set the "
                                                               "buckets first");
    for (std::size_t i = 0; i < edges.size(); ++i)
    {
        NS_ABORT_MSG_IF(edges[i] == 0 || (i > 0 && edges[i] <= edges[i - 1]),
                        "FlowFctSummary: bucket edge " << edges[i] << " (position " << i
                                                       << ") is invalid; edges must be >= 1 "
                                                          "and strictly increasing");
    }
    m_edges = edges;
}

const std::vector<uint64_t>&
FlowFctSummary::GetBucketEdges() const
{
    return m_edges;
}

void
FlowFctSummary::Add(const FlowFctRecord& r)
{
    NS_ABORT_MSG_IF(r.ok && !r.ideal.IsStrictlyPositive(),
                    "FlowFctSummary: flow " << r.id << " has an ideal FCT of "
                                            << r.ideal.As(Time::US) << "; it must be > 0");
    if (m_flows == 0 || r.start < m_firstStart)
    {
        m_firstStart = r.start;
    }
    m_lastEnd = std::max(m_lastEnd, r.end);
    ++m_flows;
    if (!r.ok)
    {
        ++m_failed;
        return;
    }
    m_bytes += r.sizeBytes;
    m_samples.push_back(Sample{r.sizeBytes, r.GetSlowdown(), r.GetFct().GetPicoSeconds()});
}

uint64_t
FlowFctSummary::GetFlows() const
{
    return m_flows;
}

uint64_t
FlowFctSummary::GetFailed() const
{
    return m_failed;
}

uint64_t
FlowFctSummary::GetBytes() const
{
    return m_bytes;
}

Time
FlowFctSummary::GetFirstStart() const
{
    return m_firstStart;
}

Time
FlowFctSummary::GetLastEnd() const
{
    return m_lastEnd;
}

double
FlowFctSummary::GetGoodputBps() const
{
    const Time span = m_lastEnd - m_firstStart;
    if (m_bytes == 0 || !span.IsStrictlyPositive())
    {
        return 0;
    }
    return 8.0 * double(m_bytes) / span.GetSeconds();
}

FlowFctBucketStats
FlowFctSummary::Stats(uint64_t lo, uint64_t hi) const
{
    FlowFctBucketStats s;
    s.loBytes = lo;
    s.hiBytes = hi;
    std::vector<double> slow;
    std::vector<int64_t> fct;
    double slowSum = 0;
    double fctSum = 0;
    for (const Sample& x : m_samples)
    {
        if (x.size >= lo && x.size <= hi)
        {
            slow.push_back(x.slowdown);
            fct.push_back(x.fctPs);
            slowSum += x.slowdown;
            fctSum += double(x.fctPs);
        }
    }
    s.flows = slow.size();
    if (slow.empty())
    {
        return s;
    }
    std::sort(slow.begin(), slow.end());
    std::sort(fct.begin(), fct.end());
    s.medianSlowdown = Percentile(slow, 50);
    s.p95Slowdown = Percentile(slow, 95);
    s.p99Slowdown = Percentile(slow, 99);
    s.meanSlowdown = slowSum / double(slow.size());
    s.meanFct = PicoSeconds(static_cast<int64_t>(std::llround(fctSum / double(fct.size()))));
    s.p99Fct = PicoSeconds(Percentile(fct, 99));
    return s;
}

std::vector<FlowFctBucketStats>
FlowFctSummary::GetBuckets() const
{
    std::vector<FlowFctBucketStats> out;
    uint64_t lo = 1;
    for (uint64_t edge : m_edges)
    {
        out.push_back(Stats(lo, edge));
        lo = edge + 1;
    }
    out.push_back(Stats(lo, std::numeric_limits<uint64_t>::max()));
    return out;
}

FlowFctBucketStats
FlowFctSummary::GetOverall() const
{
    return Stats(1, std::numeric_limits<uint64_t>::max());
}

void
FlowFctSummary::WriteCsv(std::ostream& os) const
{
    os << "bucket,lo_bytes,hi_bytes,flows,median_slowdown,p95_slowdown,p99_slowdown,"
          "mean_slowdown,mean_fct_us,p99_fct_us\n";
    auto row = [&os](const std::string& name, const FlowFctBucketStats& s) {
        os << name << ',' << s.loBytes << ','
           << (s.hiBytes == std::numeric_limits<uint64_t>::max() ? std::string("inf")
                                                                 : std::to_string(s.hiBytes))
           << ',' << s.flows << ',';
        if (s.flows == 0)
        {
            os << ",,,,,\n"; // an empty bucket has no statistics: blank, not 0
            return;
        }
        os << Fixed6(s.medianSlowdown) << ',' << Fixed6(s.p95Slowdown) << ','
           << Fixed6(s.p99Slowdown) << ',' << Fixed6(s.meanSlowdown) << ','
           << text::FormatFixed(s.meanFct.GetPicoSeconds(), PS_PER_US, 6) << ','
           << text::FormatFixed(s.p99Fct.GetPicoSeconds(), PS_PER_US, 6) << '\n';
    };
    const auto buckets = GetBuckets();
    for (std::size_t i = 0; i < buckets.size(); ++i)
    {
        row(std::to_string(i), buckets[i]);
    }
    row("all", GetOverall());
}

void
FlowFctSummary::WriteRecordCsvHeader(std::ostream& os)
{
    os << "id,src,dst,size_bytes,start_us,end_us,fct_us,ideal_fct_us,slowdown,retransmissions,"
          "ok,transport,cc\n";
}

void
FlowFctSummary::WriteRecordCsv(std::ostream& os, const FlowFctRecord& r)
{
    os << r.id << ',' << r.src << ',' << r.dst << ',' << r.sizeBytes << ','
       << text::FormatFixed(r.start.GetPicoSeconds(), PS_PER_US, 6) << ','
       << text::FormatFixed(r.end.GetPicoSeconds(), PS_PER_US, 6) << ','
       << text::FormatFixed(r.GetFct().GetPicoSeconds(), PS_PER_US, 6) << ','
       << text::FormatFixed(r.ideal.GetPicoSeconds(), PS_PER_US, 6) << ','
       << Fixed6(r.GetSlowdown()) << ',' << r.retransmissions << ',' << (r.ok ? 1 : 0) << ','
       << r.transport << ',' << r.cc << '\n';
}

} // namespace ns3
