/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "htsim-connection-matrix.h"

#include "text-fields.h"

#include "ns3/abort.h"
#include "ns3/fabric-input-error.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * \brief Read a plain decimal number of microseconds ("123", "0.5", "9000000000.000009")
 *        exactly, to the picosecond (a 7th decimal rounds half up).
 * \param value the text
 * \param[out] ps the time in picoseconds; -1 when the number is a plain decimal out of range
 * \return true if \p value is a plain decimal in range; false otherwise (exponent forms and
 *         other text are left to strtod)
 */
bool
ExactDecimalPicoseconds(const std::string& value, int64_t& ps)
{
    const std::size_t dot = value.find('.');
    const std::string whole = value.substr(0, dot);
    const std::string frac = dot == std::string::npos ? "" : value.substr(dot + 1);
    auto digits = [](const std::string& s) {
        return std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    };
    if (whole.empty() || !digits(whole) || !digits(frac) ||
        (dot != std::string::npos && frac.empty()))
    {
        return false;
    }
    constexpr int64_t MAX = std::numeric_limits<int64_t>::max();
    int64_t total = 0;
    for (char ch : whole)
    {
        if (total > (MAX - (ch - '0')) / 10)
        {
            ps = -1;
            return false;
        }
        total = total * 10 + (ch - '0');
    }
    int64_t fracPs = 0;
    for (std::size_t i = 0; i < 6; ++i)
    {
        fracPs = fracPs * 10 + (i < frac.size() ? frac[i] - '0' : 0);
    }
    if (frac.size() > 6 && frac[6] >= '5')
    {
        ++fracPs;
    }
    if (total > (MAX - fracPs) / 1000000)
    {
        ps = -1;
        return false;
    }
    total = total * 1000000 + fracPs;
    ps = total;
    return true;
}

/// Picoseconds per microsecond: the file's start times are microseconds.
constexpr int64_t PS_PER_US = 1000000;

/**
 * Parse an unsigned decimal integer (digits only).
 * \param s the text
 * \param max largest valid value
 * \param what the field, for the message
 * \param[out] v the value
 * \param[out] why what was wrong
 * \return true if \p s is a number in 0..max
 */
bool
ParseUnsigned(const std::string& s,
              uint64_t max,
              const std::string& what,
              uint64_t& v,
              std::string& why)
{
    switch (text::ParseWhole(s, 0, max, v))
    {
    case text::WholeVerdict::OK:
        return true;
    case text::WholeVerdict::NEGATIVE:
        why = what + " " + s + " is negative; expected a whole number in 0.." + std::to_string(max);
        return false;
    case text::WholeVerdict::NOT_A_NUMBER:
        why = what + " '" + s + "' is not a number; expected a whole number in 0.." +
              std::to_string(max);
        return false;
    case text::WholeVerdict::OUT_OF_RANGE:
        break;
    }
    why = what + " " + s + " is out of range; expected a whole number in 0.." + std::to_string(max);
    return false;
}

} // namespace

HtsimConnectionMatrix::HtsimConnectionMatrix()
    : m_nodes(0)
{
}

HtsimConnectionMatrix::HtsimConnectionMatrix(uint32_t nodes)
    : m_nodes(nodes)
{
    FABRIC_INPUT_ERROR_IF(nodes == 0,
                          "HtsimConnectionMatrix: nodes=0 is invalid; a matrix needs >= 1");
}

uint32_t
HtsimConnectionMatrix::GetNNodes() const
{
    return m_nodes;
}

uint32_t
HtsimConnectionMatrix::GetNConnections() const
{
    return static_cast<uint32_t>(m_conns.size());
}

const std::vector<HtsimConnection>&
HtsimConnectionMatrix::GetConnections() const
{
    return m_conns;
}

void
HtsimConnectionMatrix::Add(const HtsimConnection& c)
{
    FABRIC_INPUT_ERROR_IF(c.src >= m_nodes || c.dst >= m_nodes,
                          "HtsimConnectionMatrix::Add: " << c.src << "->" << c.dst
                                                         << " names a node outside 0.."
                                                         << int64_t(m_nodes) - 1);
    FABRIC_INPUT_ERROR_IF(c.src == c.dst,
                          "HtsimConnectionMatrix::Add: a connection from node " << c.src
                                                                                << " to itself");
    FABRIC_INPUT_ERROR_IF(c.bytes == 0,
                          "HtsimConnectionMatrix::Add: "
                              << c.src << "->" << c.dst
                              << " has size 0; valid sizes are >= 1 byte");
    FABRIC_INPUT_ERROR_IF(c.start.IsStrictlyNegative(),
                          "HtsimConnectionMatrix::Add: " << c.src << "->" << c.dst << " starts at "
                                                         << c.start.As(Time::US)
                                                         << "; valid start times are >= 0");
    if (c.id != 0)
    {
        auto it = std::lower_bound(m_ids.begin(), m_ids.end(), c.id);
        FABRIC_INPUT_ERROR_IF(it != m_ids.end() && *it == c.id,
                              "HtsimConnectionMatrix::Add: id " << c.id << " is already used");
        m_ids.insert(it, c.id);
    }
    m_conns.push_back(c);
}

bool
HtsimConnectionMatrix::Parse(std::istream& in,
                             const std::string& source,
                             HtsimConnectionMatrix& out,
                             std::string& error)
{
    std::optional<uint64_t> nodes;
    std::optional<uint64_t> declared;
    uint32_t declaredLine = 0;
    std::vector<HtsimConnection> conns;
    std::map<uint32_t, uint32_t> idLine; // id -> line
    std::string line;
    uint32_t n = 0;
    auto fail = [&](const std::string& what) {
        error = source + ":" + std::to_string(n) + ": " + text::Printable(what, 400);
        return false;
    };
    // A header "Keyword value": once, before the first connection, one whole number.
    auto header = [&](const std::vector<std::string>& t,
                      std::optional<uint64_t>& slot,
                      uint64_t min,
                      uint64_t max,
                      std::string& why) {
        if (!conns.empty())
        {
            why = "'" + t[0] + "' after the first connection; the header comes first";
            return false;
        }
        if (slot)
        {
            why = "a second '" + t[0] + "' header; it may appear once";
            return false;
        }
        if (t.size() != 2)
        {
            why = "'" + t[0] + "' needs exactly one value: '" + t[0] + " <count>'";
            return false;
        }
        uint64_t v = 0;
        if (!ParseUnsigned(t[1], max, t[0], v, why))
        {
            return false;
        }
        if (v < min)
        {
            why = t[0] + " " + t[1] + " is invalid; expected a whole number in " +
                  std::to_string(min) + ".." + std::to_string(max);
            return false;
        }
        slot = v;
        return true;
    };
    const std::string unsupported =
        " (htsim triggers and failures are not supported: connections start at their start "
        "time; fail links with FabricTopologyHelper::SetLinkUp)";
    while (std::getline(in, line))
    {
        ++n;
        std::vector<std::string> t = text::SplitFields(line);
        if (t.empty() || t[0][0] == '#')
        {
            continue;
        }
        std::string why;
        if (t[0] == "Nodes")
        {
            if (!header(t, nodes, 1, std::numeric_limits<uint32_t>::max(), why))
            {
                return fail(why);
            }
            continue;
        }
        if (t[0] == "Connections")
        {
            if (!header(t, declared, 0, std::numeric_limits<uint32_t>::max(), why))
            {
                return fail(why);
            }
            declaredLine = n;
            continue;
        }
        if (t[0] == "Triggers" || t[0] == "Failures")
        {
            std::optional<uint64_t> count;
            if (!header(t, count, 0, std::numeric_limits<uint32_t>::max(), why))
            {
                return fail(why);
            }
            if (*count != 0)
            {
                return fail("'" + t[0] + " " + t[1] + "' declares " + t[0] + unsupported);
            }
            continue;
        }
        if (t[0] == "trigger" || t[0] == "failure")
        {
            return fail("a '" + t[0] + "' line" + unsupported);
        }
        const std::size_t arrow = t[0].find("->");
        if (arrow == std::string::npos)
        {
            return fail("unknown keyword '" + t[0] +
                        "'; expected 'Nodes N', 'Connections C', a connection 'src->dst start "
                        "<us> size <bytes>' or a '#' comment");
        }
        if (!nodes || !declared)
        {
            return fail(std::string("a connection before the '") +
                        (!nodes ? "Nodes N" : "Connections C") +
                        "' header; the header comes first");
        }
        HtsimConnection c;
        c.line = n;
        uint64_t v = 0;
        const std::string range =
            " (Nodes " + std::to_string(*nodes) + ": nodes 0.." + std::to_string(*nodes - 1) + ")";
        for (const bool source : {true, false})
        {
            const char* what = source ? "source" : "destination";
            const std::string text = source ? t[0].substr(0, arrow) : t[0].substr(arrow + 2);
            if (!ParseUnsigned(text, std::numeric_limits<uint32_t>::max(), what, v, why))
            {
                return fail(why + " in '" + t[0] + "'" + range);
            }
            if (v >= *nodes)
            {
                return fail(std::string(what) + " " + text + " is not a node" + range);
            }
            (source ? c.src : c.dst) = static_cast<uint32_t>(v);
        }
        if (c.src == c.dst)
        {
            return fail("a connection from node " + std::to_string(c.src) +
                        " to itself; source and destination must differ");
        }
        bool hasStart = false;
        bool hasSize = false;
        bool hasId = false;
        for (std::size_t i = 1; i < t.size(); ++i)
        {
            const std::string& key = t[i];
            if (key == "trigger" || key == "send_done_trigger" || key == "recv_done_trigger" ||
                key == "addon")
            {
                return fail("field '" + key + "'" + unsupported);
            }
            if (key != "start" && key != "size" && key != "id" && key != "prio")
            {
                return fail("unknown field '" + key +
                            "' in a connection; expected start <us>, size <bytes>, id <n> or "
                            "prio <n>");
            }
            bool& seen = key == "start" ? hasStart : key == "size" ? hasSize : hasId;
            if ((key != "prio" && seen) || (key == "prio" && c.priority))
            {
                return fail("field '" + key + "' given twice");
            }
            if (i + 1 >= t.size())
            {
                return fail("field '" + key + "' without its value");
            }
            const std::string& value = t[++i];
            if (key == "start")
            {
                int64_t ps = 0;
                if (ExactDecimalPicoseconds(value, ps))
                {
                    // A plain decimal: read exactly (a double loses picoseconds above ~1e9 us).
                    c.start = PicoSeconds(ps);
                    seen = true;
                    continue;
                }
                if (ps < 0)
                {
                    return fail("start " + value +
                                " is out of range; expected microseconds in 0..9.2e12");
                }
                char* end = nullptr;
                errno = 0;
                double us = std::strtod(value.c_str(), &end);
                if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(us))
                {
                    return fail("start '" + value +
                                "' is not a number; expected a time in microseconds >= 0");
                }
                if (us < 0)
                {
                    return fail("start " + value +
                                " is negative; expected a time in microseconds >= 0");
                }
                if (us * PS_PER_US >= 9.2e18)
                {
                    return fail("start " + value +
                                " is out of range; expected microseconds in 0..9.2e12");
                }
                c.start = PicoSeconds(std::llround(us * PS_PER_US));
                seen = true;
            }
            else if (key == "size")
            {
                if (!ParseUnsigned(value, std::numeric_limits<uint64_t>::max(), "size", v, why))
                {
                    return fail(why);
                }
                if (v == 0)
                {
                    return fail("size 0 is invalid; expected bytes >= 1 (htsim runs a size-0 "
                                "flow forever)");
                }
                c.bytes = v;
                seen = true;
            }
            else if (key == "id")
            {
                if (!ParseUnsigned(value, std::numeric_limits<uint32_t>::max(), "id", v, why))
                {
                    return fail(why);
                }
                if (v == 0)
                {
                    return fail("id 0 is invalid; flow ids are 1..4294967295 (htsim refuses 0)");
                }
                auto [it, fresh] = idLine.emplace(static_cast<uint32_t>(v), n);
                if (!fresh)
                {
                    return fail("id " + value + " is already used by line " +
                                std::to_string(it->second));
                }
                c.id = static_cast<uint32_t>(v);
                seen = true;
            }
            else
            {
                if (!ParseUnsigned(value, std::numeric_limits<uint32_t>::max(), "prio", v, why))
                {
                    return fail(why);
                }
                c.priority = static_cast<uint32_t>(v);
            }
        }
        if (!hasStart)
        {
            return fail("connection " + t[0] +
                        " has no 'start <us>' (htsim's triggers are not "
                        "supported: every connection needs a start time)");
        }
        if (!hasSize)
        {
            return fail("connection " + t[0] + " has no 'size <bytes>'");
        }
        conns.push_back(c);
    }
    if (!nodes)
    {
        error = source + ": no 'Nodes N' header (expected 'Nodes N' and 'Connections C' first)";
        return false;
    }
    if (!declared)
    {
        error = source + ": no 'Connections C' header (expected 'Nodes N' and 'Connections C' "
                         "first)";
        return false;
    }
    if (*declared != conns.size())
    {
        error = source + ":" + std::to_string(declaredLine) + ": 'Connections " +
                std::to_string(*declared) + "' but the file has " + std::to_string(conns.size()) +
                " connection line" + (conns.size() == 1 ? "" : "s");
        return false;
    }
    HtsimConnectionMatrix m(static_cast<uint32_t>(*nodes));
    for (const auto& c : conns)
    {
        m.Add(c);
    }
    out = std::move(m);
    return true;
}

HtsimConnectionMatrix
HtsimConnectionMatrix::Read(std::istream& in, const std::string& source)
{
    HtsimConnectionMatrix m;
    std::string error;
    FABRIC_INPUT_ERROR_IF(!Parse(in, source, m, error), error);
    return m;
}

HtsimConnectionMatrix
HtsimConnectionMatrix::Load(const std::string& path)
{
    std::ifstream in(path);
    FABRIC_INPUT_ERROR_IF(!in,
                          "HtsimConnectionMatrix: cannot read connection matrix file '" << path
                                                                                        << "'");
    return Read(in, path);
}

void
HtsimConnectionMatrix::Write(std::ostream& out) const
{
    out << "Nodes " << m_nodes << "\n";
    out << "Connections " << m_conns.size() << "\n";
    for (const auto& c : m_conns)
    {
        out << c.src << "->" << c.dst;
        if (c.id != 0)
        {
            out << " id " << c.id;
        }
        out << " start " << text::FormatFixed(c.start.GetPicoSeconds(), PS_PER_US, 6) << " size "
            << c.bytes;
        if (c.priority)
        {
            out << " prio " << *c.priority;
        }
        out << "\n";
    }
}

void
HtsimConnectionMatrix::Save(const std::string& path) const
{
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out,
                          "HtsimConnectionMatrix::Save: cannot write connection matrix file '"
                              << path << "'");
    Write(out);
    out.close();
    FABRIC_INPUT_ERROR_IF(!out,
                          "HtsimConnectionMatrix::Save: writing connection matrix file '"
                              << path << "' failed");
}

HtsimConnectionMatrix
HtsimConnectionMatrix::Single(uint32_t nodes, uint64_t bytes, uint32_t src, uint32_t dst)
{
    FABRIC_INPUT_ERROR_IF(
        nodes < 2,
        "HtsimConnectionMatrix::Single: nodes=" << nodes << " is invalid; a flow needs >= 2");
    FABRIC_INPUT_ERROR_IF(src >= nodes || dst >= nodes || src == dst,
                          "HtsimConnectionMatrix::Single: "
                              << src << "->" << dst
                              << " is invalid; source and destination "
                                 "must differ and be in 0.."
                              << nodes - 1);
    HtsimConnectionMatrix m(nodes);
    HtsimConnection c;
    c.src = src;
    c.dst = dst;
    c.bytes = bytes;
    c.id = 1;
    m.Add(c);
    return m;
}

HtsimConnectionMatrix
HtsimConnectionMatrix::Incast(uint32_t nodes, uint32_t senders, uint64_t bytes, uint32_t dst)
{
    FABRIC_INPUT_ERROR_IF(
        nodes < 2,
        "HtsimConnectionMatrix::Incast: nodes=" << nodes << " is invalid; an incast needs >= 2");
    FABRIC_INPUT_ERROR_IF(dst >= nodes,
                          "HtsimConnectionMatrix::Incast: destination "
                              << dst << " is not a node (0.." << nodes - 1 << ")");
    FABRIC_INPUT_ERROR_IF(senders == 0 || senders > nodes - 1,
                          "HtsimConnectionMatrix::Incast: senders="
                              << senders << " is invalid; valid range is 1.." << nodes - 1
                              << " (nodes - 1)");
    HtsimConnectionMatrix m(nodes);
    for (uint32_t node = 0, id = 1; id <= senders; ++node)
    {
        if (node == dst)
        {
            continue;
        }
        HtsimConnection c;
        c.src = node;
        c.dst = dst;
        c.bytes = bytes;
        c.id = id++;
        m.Add(c);
    }
    return m;
}

HtsimConnectionMatrix
HtsimConnectionMatrix::Permutation(uint32_t nodes, uint64_t bytes, Ptr<UniformRandomVariable> rng)
{
    FABRIC_INPUT_ERROR_IF(nodes < 2,
                          "HtsimConnectionMatrix::Permutation: nodes="
                              << nodes
                              << " is invalid; a permutation without self-flows needs >= 2");
    FABRIC_INPUT_ERROR_IF(!rng, "HtsimConnectionMatrix::Permutation: no random stream");
    std::vector<uint32_t> to(nodes);
    bool derangement = false;
    while (!derangement)
    {
        for (uint32_t i = 0; i < nodes; ++i)
        {
            to[i] = i;
        }
        for (uint32_t i = nodes - 1; i > 0; --i)
        {
            std::swap(to[i], to[rng->GetInteger(0, i)]);
        }
        derangement = true;
        for (uint32_t i = 0; i < nodes && derangement; ++i)
        {
            derangement = to[i] != i;
        }
    }
    HtsimConnectionMatrix m(nodes);
    for (uint32_t i = 0; i < nodes; ++i)
    {
        HtsimConnection c;
        c.src = i;
        c.dst = to[i];
        c.bytes = bytes;
        c.id = i + 1;
        m.Add(c);
    }
    return m;
}

} // namespace ns3
