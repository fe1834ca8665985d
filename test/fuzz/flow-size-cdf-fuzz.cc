/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of FlowSizeCdf::Parse (flow-size CDF workload files).
 */
#include "fuzz-util.h"

#include "ns3/flow-size-cdf.h"

#include <algorithm>
#include <cmath>

using namespace ns3;

namespace
{

/**
 * \param text a CDF file
 * \param[out] cdf the distribution
 * \param[out] error the parser's message on failure
 * \return whether it parsed
 */
bool
ParseText(const std::string& text, FlowSizeCdf& cdf, std::string& error)
{
    std::istringstream in(text);
    return FlowSizeCdf::Parse(in, "fuzz", cdf, error);
}

} // namespace

/**
 * \brief Parse the input as a flow-size CDF file. On failure the message names the file. On
 *        success: the points obey the format's rules (at least 2, sizes strictly ascending in
 *        0..2^53, percents non-decreasing in 0..100, the last 100); Write() parses back to the
 *        same points and mean; the mean lies between the smallest and the largest size; every
 *        sample is at least 1 byte and at most the largest size rounded; percentiles never
 *        decrease.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    FlowSizeCdf cdf;
    std::string error;
    if (!ParseText(text, cdf, error))
    {
        FUZZ_CHECK(error.rfind("fuzz", 0) == 0, "error message '" << error << "'");
        FUZZ_CHECK(cdf.IsEmpty(), "the output changed on error");
        return 0;
    }
    const auto& p = cdf.GetPoints();
    FUZZ_CHECK(p.size() >= 2, p.size() << " points");
    FUZZ_CHECK(p.back().percent == 100, "last percent " << p.back().percent);
    for (std::size_t i = 0; i < p.size(); ++i)
    {
        FUZZ_CHECK(p[i].sizeBytes >= 0 && p[i].sizeBytes <= 9007199254740992.0,
                   "size " << p[i].sizeBytes);
        FUZZ_CHECK(p[i].percent >= 0 && p[i].percent <= 100, "percent " << p[i].percent);
        FUZZ_CHECK(i == 0 || p[i].sizeBytes > p[i - 1].sizeBytes, "sizes not ascending at " << i);
        FUZZ_CHECK(i == 0 || p[i].percent >= p[i - 1].percent, "percent decreases at " << i);
    }

    std::ostringstream out;
    cdf.Write(out);
    FlowSizeCdf again;
    FUZZ_CHECK(ParseText(out.str(), again, error),
               "Write() output does not parse: " << error << "\n"
                                                 << out.str());
    FUZZ_CHECK(again.GetPoints().size() == p.size(), "point count changed");
    for (std::size_t i = 0; i < p.size(); ++i)
    {
        FUZZ_CHECK(again.GetPoints()[i].sizeBytes == p[i].sizeBytes &&
                       again.GetPoints()[i].percent == p[i].percent,
                   "point " << i << " changed");
    }
    FUZZ_CHECK(again.GetMean() == cdf.GetMean(), "mean changed");

    const double lo = p.front().sizeBytes;
    const double hi = p.back().sizeBytes;
    const double mean = cdf.GetMean();
    FUZZ_CHECK(mean >= lo * (1 - 1e-12) && mean <= hi * (1 + 1e-12),
               "mean " << mean << " outside [" << lo << ", " << hi << "]");
    double prev = -1;
    for (int k = 0; k <= 64; ++k)
    {
        const double percent = 100.0 * k / 64;
        const double x = cdf.GetPercentile(percent);
        FUZZ_CHECK(x >= prev, "percentile " << percent << " decreased: " << x);
        prev = x;
        const double u = k / 64.0 * 0.999999;
        const uint64_t s = cdf.Sample(u);
        FUZZ_CHECK(s >= 1 && static_cast<double>(s) <= std::max(1.0, std::floor(hi + 0.5)),
                   "sample " << s << " at u " << u << " outside [1, " << hi << "]");
    }
    return 0;
}
