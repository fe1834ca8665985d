/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-size-cdf.h"

#include "text-fields.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>

// The folders GetShippedPath() searches, set by CMakeLists.txt on this file only.
#ifndef AI_FABRIC_WORKLOAD_SOURCE_DIR
#error "AI_FABRIC_WORKLOAD_SOURCE_DIR (the project's data/workloads) must be defined by CMake"
#endif

namespace ns3
{

namespace
{

/// Largest size in a CDF file: 2^53 bytes, every whole number up to it exact in a double.
constexpr double MAX_SIZE = 9007199254740992.0;

/**
 * \param s a field
 * \return true if \p s is a decimal number: [+-]digits[.digits][(e|E)[+-]digits], with at
 *         least one digit before the exponent (no hexadecimal, no inf or nan)
 */
bool
IsDecimal(const std::string& s)
{
    std::size_t i = 0;
    auto digits = [&]() {
        std::size_t from = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
        {
            ++i;
        }
        return i - from;
    };
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
    {
        ++i;
    }
    std::size_t mantissa = digits();
    if (i < s.size() && s[i] == '.')
    {
        ++i;
        mantissa += digits();
    }
    if (mantissa == 0)
    {
        return false;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E'))
    {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        {
            ++i;
        }
        if (digits() == 0)
        {
            return false;
        }
    }
    return i == s.size();
}

/**
 * \param s a field
 * \param[out] v its value
 * \return true if \p s is a decimal number with a finite value
 */
bool
ParseDecimal(const std::string& s, double& v)
{
    if (!IsDecimal(s))
    {
        return false;
    }
    errno = 0;
    v = std::strtod(s.c_str(), nullptr);
    return std::isfinite(v) && errno != ERANGE;
}

/// \return \p v with 17 significant digits (read back exactly)
std::string
Exact(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.17g", v);
    return buf;
}

/// \return \p v as a short text for messages
std::string
Short(double v)
{
    std::ostringstream os;
    os.precision(12);
    os << v;
    return os.str();
}

/// The shipped workloads, by name (data/workloads/<name>.cdf).
const char* const SHIPPED[] = {"alistorage", "fb-hadoop", "websearch"};

} // namespace

FlowSizeCdf::FlowSizeCdf() = default;

FlowSizeCdf::FlowSizeCdf(const std::vector<FlowSizeCdfPoint>& points, const std::string& source)
    : m_points(points),
      m_source(source)
{
    std::string error;
    FABRIC_INPUT_ERROR_IF(!Check(m_points, m_source, error), "FlowSizeCdf: " << error);
    for (auto& p : m_points)
    {
        p.line = 0;
    }
    const FlowSizeCdfPoint& first = m_points.front();
    m_mean = first.sizeBytes * first.percent / 100;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const FlowSizeCdfPoint& a = m_points[i - 1];
        const FlowSizeCdfPoint& b = m_points[i];
        m_mean += (b.percent - a.percent) / 100 * (a.sizeBytes + b.sizeBytes) / 2;
    }
}

bool
FlowSizeCdf::CheckPoint(const std::vector<FlowSizeCdfPoint>& points,
                        std::size_t k,
                        const std::string& source,
                        std::string& error)
{
    auto where = [&](std::size_t i) {
        return points[i].line != 0 ? source + ":" + std::to_string(points[i].line)
                                   : source + ": point " + std::to_string(i + 1);
    };
    auto name = [&](std::size_t i) {
        return points[i].line != 0 ? "line " + std::to_string(points[i].line)
                                   : "point " + std::to_string(i + 1);
    };
    const FlowSizeCdfPoint& p = points[k];
    if (!(p.sizeBytes >= 0 && p.sizeBytes <= MAX_SIZE))
    {
        error = where(k) + ": size " + Short(p.sizeBytes) +
                " is out of range; expected bytes in 0..9007199254740992 (2^53)";
        return false;
    }
    if (!(p.percent >= 0 && p.percent <= 100))
    {
        error = where(k) + ": percent " + Short(p.percent) +
                " is out of range; expected a cumulative percent in 0..100";
        return false;
    }
    if (k > 0 && !(p.sizeBytes > points[k - 1].sizeBytes))
    {
        error = where(k) + ": size " + Short(p.sizeBytes) + " is not above the previous point's " +
                Short(points[k - 1].sizeBytes) + " (" + name(k - 1) +
                "); sizes must ascend strictly";
        return false;
    }
    if (k > 0 && p.percent < points[k - 1].percent)
    {
        error = where(k) + ": percent " + Short(p.percent) + " is below the previous point's " +
                Short(points[k - 1].percent) + " (" + name(k - 1) +
                "); a cumulative percent cannot decrease";
        return false;
    }
    return true;
}

bool
FlowSizeCdf::Check(const std::vector<FlowSizeCdfPoint>& points,
                   const std::string& source,
                   std::string& error)
{
    for (std::size_t k = 0; k < points.size(); ++k)
    {
        if (!CheckPoint(points, k, source, error))
        {
            return false;
        }
    }
    if (points.size() < 2)
    {
        error = source + ": " + std::to_string(points.size()) + " point" +
                (points.size() == 1 ? "" : "s") +
                "; a CDF needs at least 2 lines '<size in bytes> <cumulative percent>', the "
                "last at 100";
        return false;
    }
    const FlowSizeCdfPoint& last = points.back();
    if (last.percent != 100)
    {
        error = (last.line != 0 ? source + ":" + std::to_string(last.line)
                                : source + ": point " + std::to_string(points.size())) +
                ": the last point's percent is " + Short(last.percent) + "; a CDF must end at 100";
        return false;
    }
    return true;
}

bool
FlowSizeCdf::Parse(std::istream& in,
                   const std::string& source,
                   FlowSizeCdf& out,
                   std::string& error)
{
    std::vector<FlowSizeCdfPoint> points;
    std::string line;
    uint32_t n = 0;
    while (std::getline(in, line))
    {
        ++n;
        std::vector<std::string> f = text::SplitFields(line);
        if (f.empty() || f[0][0] == '#')
        {
            continue;
        }
        const std::string at = source + ":" + std::to_string(n) + ": ";
        if (f.size() != 2)
        {
            error = at + std::to_string(f.size()) + " field" + (f.size() == 1 ? "" : "s") +
                    "; expected '<flow size in bytes> <cumulative percent>'";
            return false;
        }
        FlowSizeCdfPoint p;
        p.line = n;
        if (!ParseDecimal(f[0], p.sizeBytes))
        {
            error = at + "size '" + f[0] + "' is not a number; expected bytes in 0..2^53";
            return false;
        }
        if (!ParseDecimal(f[1], p.percent))
        {
            error = at + "percent '" + f[1] + "' is not a number; expected 0..100";
            return false;
        }
        points.push_back(p);
        // Checked as read, so the error names the first bad line.
        if (!CheckPoint(points, points.size() - 1, source, error))
        {
            return false;
        }
    }
    if (!Check(points, source, error))
    {
        return false;
    }
    FlowSizeCdf cdf(points, source);
    cdf.m_points = points; // keep the line numbers
    out = std::move(cdf);
    return true;
}

FlowSizeCdf
FlowSizeCdf::Read(std::istream& in, const std::string& source)
{
    FlowSizeCdf cdf;
    std::string error;
    FABRIC_INPUT_ERROR_IF(!Parse(in, source, cdf, error), error);
    return cdf;
}

FlowSizeCdf
FlowSizeCdf::Load(const std::string& path)
{
    std::ifstream in(path);
    FABRIC_INPUT_ERROR_IF(!in, "FlowSizeCdf: cannot read flow-size CDF file '" << path << "'");
    return Read(in, path);
}

std::vector<std::string>
FlowSizeCdf::GetShippedNames()
{
    return std::vector<std::string>(std::begin(SHIPPED), std::end(SHIPPED));
}

std::string
FlowSizeCdf::GetShippedPath(const std::string& name)
{
    std::string names;
    bool known = false;
    for (const char* s : SHIPPED)
    {
        names += (names.empty() ? "" : ", ") + std::string(s);
        known = known || name == s;
    }
    FABRIC_INPUT_ERROR_IF(!known,
                          "FlowSizeCdf: '" << name << "' is not a shipped workload; valid names: "
                                           << names << " (or Load() a file in the same format)");
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("AI_FABRIC_WORKLOAD_DIR"); env != nullptr && *env != '\0')
    {
        dirs.emplace_back(env);
    }
    dirs.emplace_back(AI_FABRIC_WORKLOAD_SOURCE_DIR);
#ifdef AI_FABRIC_WORKLOAD_INSTALL_DIR
    dirs.emplace_back(AI_FABRIC_WORKLOAD_INSTALL_DIR);
#endif
    std::string searched;
    for (const auto& d : dirs)
    {
        const std::string path = d + "/" + name + ".cdf";
        if (std::ifstream(path))
        {
            return path;
        }
        searched += (searched.empty() ? "" : ", ") + d;
    }
    FABRIC_INPUT_ERROR("FlowSizeCdf: the shipped workload '"
                       << name << ".cdf' is in none of " << searched
                       << " (set AI_FABRIC_WORKLOAD_DIR to the folder holding it)");
}

FlowSizeCdf
FlowSizeCdf::LoadShipped(const std::string& name)
{
    return Load(GetShippedPath(name));
}

void
FlowSizeCdf::Write(std::ostream& out) const
{
    out << "# flow-size CDF from " << m_source << ": <size in bytes> <cumulative percent>\n";
    for (const auto& p : m_points)
    {
        out << Exact(p.sizeBytes) << " " << Exact(p.percent) << "\n";
    }
}

bool
FlowSizeCdf::IsEmpty() const
{
    return m_points.empty();
}

const std::vector<FlowSizeCdfPoint>&
FlowSizeCdf::GetPoints() const
{
    return m_points;
}

const std::string&
FlowSizeCdf::GetSource() const
{
    return m_source;
}

void
FlowSizeCdf::AbortIfEmpty(const char* what) const
{
    FABRIC_INPUT_ERROR_IF(m_points.empty(),
                          "FlowSizeCdf::" << what
                                          << ": the distribution is empty (default-constructed); "
                                             "Load() or LoadShipped() one");
}

uint64_t
FlowSizeCdf::Sample(double u) const
{
    AbortIfEmpty("Sample");
    FABRIC_INPUT_ERROR_IF(!(u >= 0 && u < 1),
                          "FlowSizeCdf::Sample: u=" << u << " is out of range; valid range [0, 1)");
    const double x = std::floor(GetPercentile(100 * u) + 0.5);
    return x < 1 ? 1 : static_cast<uint64_t>(x);
}

double
FlowSizeCdf::GetMean() const
{
    AbortIfEmpty("GetMean");
    return m_mean;
}

double
FlowSizeCdf::GetPercentile(double percent) const
{
    AbortIfEmpty("GetPercentile");
    FABRIC_INPUT_ERROR_IF(!(percent >= 0 && percent <= 100),
                          "FlowSizeCdf::GetPercentile: percent=" << percent
                                                                 << " is out of range; valid range "
                                                                    "[0, 100]");
    // The first point whose cumulative percent reaches the target.
    auto it = std::lower_bound(
        m_points.begin(),
        m_points.end(),
        percent,
        [](const FlowSizeCdfPoint& p, double target) { return p.percent < target; });
    if (it == m_points.begin())
    {
        return it->sizeBytes;
    }
    const FlowSizeCdfPoint& b = *it;
    const FlowSizeCdfPoint& a = *(it - 1);
    // a.percent < percent <= b.percent, so the segment has a positive width. Clamped so that
    // rounding never leaves the segment (percentiles then never decrease across points).
    const double t = std::min(1.0, (percent - a.percent) / (b.percent - a.percent));
    return std::clamp(a.sizeBytes + (b.sizeBytes - a.sizeBytes) * t, a.sizeBytes, b.sizeBytes);
}

double
FlowSizeCdf::GetCdf(double sizeBytes) const
{
    AbortIfEmpty("GetCdf");
    if (sizeBytes < m_points.front().sizeBytes)
    {
        return 0;
    }
    if (sizeBytes >= m_points.back().sizeBytes)
    {
        return 100;
    }
    auto it = std::upper_bound(m_points.begin(),
                               m_points.end(),
                               sizeBytes,
                               [](double x, const FlowSizeCdfPoint& p) { return x < p.sizeBytes; });
    const FlowSizeCdfPoint& b = *it;
    const FlowSizeCdfPoint& a = *(it - 1);
    const double t = std::min(1.0, (sizeBytes - a.sizeBytes) / (b.sizeBytes - a.sizeBytes));
    return std::clamp(a.percent + (b.percent - a.percent) * t, a.percent, b.percent);
}

double
FlowSizeCdf::GetMinSize() const
{
    AbortIfEmpty("GetMinSize");
    // Points at 0 percent before the first rise carry no probability.
    std::size_t k = 0;
    while (m_points[k].percent == 0 && k + 1 < m_points.size() && m_points[k + 1].percent == 0)
    {
        ++k;
    }
    return m_points[k].sizeBytes;
}

double
FlowSizeCdf::GetMaxSize() const
{
    return GetPercentile(100);
}

} // namespace ns3
