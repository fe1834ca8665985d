/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-tests-format.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

bool
ToU64(const std::string& s, uint64_t& v)
{
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    try
    {
        v = std::stoull(s);
    }
    catch (const std::exception&)
    {
        return false;
    }
    return true;
}

bool
ToI64(const std::string& s, int64_t& v)
{
    std::size_t used = 0;
    try
    {
        v = std::stoll(s, &used);
    }
    catch (const std::exception&)
    {
        return false;
    }
    return used == s.size();
}

bool
ToDouble(const std::string& s, double& v)
{
    std::size_t used = 0;
    try
    {
        v = std::stod(s, &used);
    }
    catch (const std::exception&)
    {
        return false;
    }
    return used == s.size() && std::isfinite(v) && v >= 0;
}

bool
ParseResult(const std::vector<std::string>& f, std::size_t at, NcclTestsResult& r, std::string& why)
{
    static const char* names[] = {"time", "algbw", "busbw"};
    double* values[] = {&r.timeUs, &r.algbwGBs, &r.busbwGBs};
    for (int i = 0; i < 3; ++i)
    {
        if (!ToDouble(f[at + i], *values[i]))
        {
            why = std::string(names[i]) + " \"" + f[at + i] + "\" is not a non-negative number";
            return false;
        }
    }
    if (f[at + 3] == "N/A")
    {
        r.wrong = -1;
    }
    else if (!ToI64(f[at + 3], r.wrong) || r.wrong < 0)
    {
        why = "#wrong \"" + f[at + 3] + "\" is neither a count nor N/A";
        return false;
    }
    return true;
}

} // namespace

bool
NcclTestsFormat::Parse(std::istream& in,
                       const std::string& name,
                       std::vector<NcclTestsRow>& rows,
                       std::string* error)
{
    rows.clear();
    std::string line;
    uint64_t lineNo = 0;
    auto fail = [&](const std::string& why) {
        if (error)
        {
            std::ostringstream os;
            os << name << ":" << lineNo << ": " << why;
            *error = os.str();
        }
        return false;
    };
    while (std::getline(in, line))
    {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#')
        {
            continue;
        }
        if (line.compare(first, 12, "NCCL version") == 0)
        {
            continue;
        }
        std::string data = line.substr(0, line.find('#')); // a trailing "# comment" is kept
        std::istringstream fields(data);
        std::vector<std::string> f;
        for (std::string tok; fields >> tok;)
        {
            f.push_back(tok);
        }
        if (f.size() != 13)
        {
            return fail("expected a data row of 13 fields (size count type redop root, then "
                        "time algbw busbw #wrong out-of-place and in-place), got " +
                        std::to_string(f.size()) + " fields");
        }
        NcclTestsRow row;
        if (!ToU64(f[0], row.sizeBytes))
        {
            return fail("size \"" + f[0] + "\" is not a byte count");
        }
        if (!ToU64(f[1], row.count))
        {
            return fail("count \"" + f[1] + "\" is not an element count");
        }
        row.type = f[2];
        row.redop = f[3];
        if (!ToI64(f[4], row.root))
        {
            return fail("root \"" + f[4] + "\" is not an integer");
        }
        std::string why;
        if (!ParseResult(f, 5, row.outOfPlace, why))
        {
            return fail("out-of-place " + why);
        }
        if (!ParseResult(f, 9, row.inPlace, why))
        {
            return fail("in-place " + why);
        }
        std::size_t hash = line.find('#');
        if (hash != std::string::npos)
        {
            std::size_t from = line.find_first_not_of(" \t", hash + 1);
            row.comment = from == std::string::npos ? "" : line.substr(from);
        }
        rows.push_back(row);
    }
    if (rows.empty())
    {
        return fail("no data rows: not an nccl-tests log");
    }
    return true;
}

std::vector<NcclTestsRow>
NcclTestsFormat::ParseFileOrAbort(const std::string& path)
{
    std::ifstream in(path);
    FABRIC_INPUT_ERROR_IF(!in, "cannot read nccl-tests log \"" << path << "\"");
    std::vector<NcclTestsRow> rows;
    std::string error;
    FABRIC_INPUT_ERROR_IF(!Parse(in, path, rows, &error), "invalid nccl-tests log: " << error);
    return rows;
}

void
NcclTestsFormat::Write(std::ostream& out, const std::vector<NcclTestsRow>& rows)
{
    out << "#\n"
        << "#                                                              out-of-place        "
           "               in-place          \n"
        << "#       size         count      type   redop    root     time   algbw   busbw "
           "#wrong     time   algbw   busbw #wrong\n"
        << "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)    "
           "        (us)  (GB/s)  (GB/s)       \n";
    auto side = [&out](const NcclTestsResult& r) {
        // nccl-tests prints times as %.2f below 100 us, %.1f below 10 ms, %.0f above.
        std::ostringstream t;
        t << std::fixed
          << std::setprecision(r.timeUs < 100     ? 2
                               : r.timeUs < 10000 ? 1
                                                  : 0)
          << r.timeUs;
        std::string ts = t.str();
        out << ' ' << std::setw(8) << ts << std::fixed << std::setprecision(2) << ' '
            << std::setw(7) << r.algbwGBs << ' ' << std::setw(7) << r.busbwGBs << ' '
            << std::setw(6) << (r.wrong < 0 ? std::string("N/A") : std::to_string(r.wrong));
    };
    // Each column is right-aligned in its nccl-tests width, but always after at least one
    // space: a value as wide as its column must not run into the previous one.
    for (const auto& r : rows)
    {
        out << std::setw(12) << r.sizeBytes << ' ' << std::setw(13) << r.count << ' '
            << std::setw(9) << r.type << ' ' << std::setw(7) << r.redop << ' ' << std::setw(7)
            << r.root;
        side(r.outOfPlace);
        side(r.inPlace);
        if (!r.comment.empty())
        {
            out << "  # " << r.comment;
        }
        out << "\n";
    }
}

double
NcclTestsFormat::BusBwFactor(const std::string& op, uint32_t ranks)
{
    NS_ABORT_MSG_IF(ranks == 0, "BusBwFactor: ranks must be >= 1");
    double n = ranks;
    if (op == "allreduce")
    {
        return 2 * (n - 1) / n;
    }
    if (op == "allgather" || op == "reducescatter" || op == "alltoall")
    {
        return (n - 1) / n;
    }
    if (op == "broadcast" || op == "reduce")
    {
        return 1.0;
    }
    NS_ABORT_MSG("BusBwFactor: collective \"" << op
                                              << "\" is unknown; use allreduce, allgather, "
                                                 "reducescatter, alltoall, broadcast or reduce");
}

} // namespace ns3
