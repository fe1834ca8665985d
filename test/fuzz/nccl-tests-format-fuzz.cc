/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of NcclTestsFormat::Parse (nccl-tests result tables).
 */
#include "fuzz-util.h"

#include "ns3/nccl-tests-format.h"

#include <cmath>

using namespace ns3;
using namespace ns3::fuzz;

namespace
{

/**
 * \param text a log
 * \param[out] rows its rows
 * \param[out] error the parser's message on failure
 * \return whether it parsed
 */
bool
ParseText(const std::string& text, std::vector<NcclTestsRow>& rows, std::string& error)
{
    std::istringstream in(text);
    return NcclTestsFormat::Parse(in, "fuzz", rows, &error);
}

/**
 * \param rows some rows
 * \return them written in the nccl-tests layout
 */
std::string
WriteText(const std::vector<NcclTestsRow>& rows)
{
    std::ostringstream out;
    NcclTestsFormat::Write(out, rows);
    return out.str();
}

/**
 * \param a a value as parsed
 * \param b the same value written (rounded to at most 2 decimals) and parsed again
 * \return whether b is a within the rounding of Write (half a unit of the last printed decimal:
 *         0.005, 0.05 or 0.5, plus the relative error of a double)
 */
bool
WithinRounding(double a, double b)
{
    return std::fabs(a - b) <= 0.5 + 1e-12 * std::fabs(a);
}

/**
 * \brief Check two row lists have the same integer and text fields.
 * \param a rows
 * \param b rows read back
 * \param exact also require equal floating-point fields
 */
void
CheckSameRows(const std::vector<NcclTestsRow>& a, const std::vector<NcclTestsRow>& b, bool exact)
{
    FUZZ_CHECK(a.size() == b.size(), a.size() << " rows became " << b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        const NcclTestsRow& x = a[i];
        const NcclTestsRow& y = b[i];
        FUZZ_CHECK(x.sizeBytes == y.sizeBytes && x.count == y.count && x.type == y.type &&
                       x.redop == y.redop && x.root == y.root,
                   "row " << i << " changed: " << x.sizeBytes << " " << x.count << " " << x.type
                          << " " << x.redop << " " << x.root << " became " << y.sizeBytes << " "
                          << y.count << " " << y.type << " " << y.redop << " " << y.root);
        const NcclTestsResult* xs[] = {&x.outOfPlace, &x.inPlace};
        const NcclTestsResult* ys[] = {&y.outOfPlace, &y.inPlace};
        for (int s = 0; s < 2; ++s)
        {
            FUZZ_CHECK(xs[s]->wrong == ys[s]->wrong, "row " << i << " #wrong changed");
            const double xv[] = {xs[s]->timeUs, xs[s]->algbwGBs, xs[s]->busbwGBs};
            const double yv[] = {ys[s]->timeUs, ys[s]->algbwGBs, ys[s]->busbwGBs};
            for (int k = 0; k < 3; ++k)
            {
                FUZZ_CHECK(exact ? xv[k] == yv[k] : WithinRounding(xv[k], yv[k]),
                           "row " << i << " side " << s << " value " << k << ": " << xv[k]
                                  << " became " << yv[k]);
            }
        }
    }
}

} // namespace

/**
 * \brief Parse the input as an nccl-tests log. On success, the rows written by Write() parse
 *        again to the same rows (floating-point fields within Write's rounding), and a second
 *        write/parse cycle changes nothing. On failure the message names the log and a line.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<NcclTestsRow> rows;
    std::string error;
    if (!ParseText(text, rows, error))
    {
        FUZZ_CHECK(error.rfind("fuzz:", 0) == 0, "error message '" << error << "'");
        return 0;
    }
    FUZZ_CHECK(!rows.empty(), "a successful parse gave no rows");

    const std::string written = WriteText(rows);
    std::vector<NcclTestsRow> again;
    FUZZ_CHECK(ParseText(written, again, error),
               "Write() output does not parse: " << error << "\n"
                                                 << written);
    CheckSameRows(rows, again, false);

    std::vector<NcclTestsRow> third;
    FUZZ_CHECK(ParseText(WriteText(again), third, error), "second Write() does not parse");
    CheckSameRows(again, third, true);
    return 0;
}
