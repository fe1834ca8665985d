/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-list.h"

#include "text-fields.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-input-error.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>

namespace ns3
{

namespace
{

/// Picoseconds per nanosecond: the file's start times are nanoseconds.
constexpr int64_t PS_PER_NS = 1000;
/// Largest start time in a file, nanoseconds (9e18 ps fits an int64).
constexpr uint64_t MAX_START_NS = 9000000000000000ULL;

/**
 * Parse a whole number.
 * \param s the text
 * \param min smallest valid value
 * \param max largest valid value
 * \param what the field, for the message
 * \param[out] v the value
 * \param[out] why what was wrong
 * \return true if \p s is a whole number in min..max
 */
bool
ParseWhole(const std::string& s,
           uint64_t min,
           uint64_t max,
           const std::string& what,
           uint64_t& v,
           std::string& why)
{
    const std::string range = std::to_string(min) + ".." + std::to_string(max);
    switch (text::ParseWhole(s, min, max, v))
    {
    case text::WholeVerdict::OK:
        return true;
    case text::WholeVerdict::NEGATIVE:
        why = what + " " + s + " is negative; expected a whole number in " + range;
        return false;
    case text::WholeVerdict::NOT_A_NUMBER:
        why = what + " '" + s + "' is not a whole number; expected " + range;
        return false;
    case text::WholeVerdict::OUT_OF_RANGE:
        break;
    }
    why = what + " " + s + " is out of range; expected a whole number in " + range;
    return false;
}

/**
 * Parse a start time in nanoseconds: digits[.digits], kept to the picosecond.
 * \param s the text
 * \param[out] ps the time in picoseconds
 * \param[out] why what was wrong
 * \return true if valid
 */
bool
ParseStartNs(const std::string& s, int64_t& ps, std::string& why)
{
    const std::string expected = "; expected nanoseconds in 0..9e15 (digits, optionally '.' and "
                                 "decimals)";
    if (!s.empty() && s[0] == '-')
    {
        why = "start " + s + " is negative" + expected;
        return false;
    }
    const std::size_t dot = s.find('.');
    const std::string whole = s.substr(0, dot);
    const std::string frac = dot == std::string::npos ? "" : s.substr(dot + 1);
    if (!text::AllDigits(whole) || (dot != std::string::npos && !text::AllDigits(frac)))
    {
        why = "start '" + s + "' is not a number" + expected;
        return false;
    }
    errno = 0;
    unsigned long long ns = std::strtoull(whole.c_str(), nullptr, 10);
    if (errno == ERANGE || ns > MAX_START_NS)
    {
        why = "start " + s + " is out of range" + expected;
        return false;
    }
    int64_t sub = 0; // picoseconds: the first 3 decimals, rounded by the 4th
    for (std::size_t i = 0; i < 3; ++i)
    {
        sub = sub * 10 + (i < frac.size() ? frac[i] - '0' : 0);
    }
    if (frac.size() > 3 && frac[3] >= '5')
    {
        ++sub;
    }
    ps = static_cast<int64_t>(ns) * PS_PER_NS + sub;
    return true;
}

} // namespace

FlowListParser::FlowListParser(const std::string& source, uint64_t firstId)
    : m_source(source),
      m_nextId(firstId)
{
    FABRIC_INPUT_ERROR_IF(firstId == 0, "FlowListParser: firstId 0 is invalid; flow ids are >= 1");
}

uint32_t
FlowListParser::GetLine() const
{
    return m_line;
}

bool
FlowListParser::ParseLine(const std::string& line,
                          std::optional<FlowSpec>& flow,
                          std::string& error)
{
    ++m_line;
    flow.reset();
    const std::vector<std::string> f = text::SplitFields(line);
    if (f.empty() || f[0][0] == '#')
    {
        return true;
    }
    auto fail = [&](const std::string& what) {
        error = m_source + ":" + std::to_string(m_line) + ": " + text::Printable(what, 400);
        return false;
    };
    if (f.size() != 4)
    {
        return fail(std::to_string(f.size()) + " field" + (f.size() == 1 ? "" : "s") +
                    "; expected '<src> <dst> <size in bytes> <start in ns>'");
    }
    FlowSpec spec;
    uint64_t v = 0;
    std::string why;
    const uint64_t maxHost = std::numeric_limits<uint32_t>::max();
    if (!ParseWhole(f[0], 0, maxHost, "source", v, why))
    {
        return fail(why);
    }
    spec.src = static_cast<uint32_t>(v);
    if (!ParseWhole(f[1], 0, maxHost, "destination", v, why))
    {
        return fail(why);
    }
    spec.dst = static_cast<uint32_t>(v);
    if (spec.src == spec.dst)
    {
        return fail("a flow from host " + f[0] + " to itself; source and destination must differ");
    }
    if (!ParseWhole(f[2], 0, std::numeric_limits<uint64_t>::max(), "size", v, why))
    {
        return fail(why);
    }
    if (v == 0)
    {
        return fail("size " + f[2] + " is invalid; expected bytes in 1..18446744073709551615");
    }
    spec.sizeBytes = v;
    int64_t ps = 0;
    if (!ParseStartNs(f[3], ps, why))
    {
        return fail(why);
    }
    if (m_prevLine != 0 && ps < m_prevStartPs)
    {
        return fail("start " + f[3] + " ns is before the previous flow's " +
                    text::FormatFixed(m_prevStartPs, PS_PER_NS, 3) + " ns (line " +
                    std::to_string(m_prevLine) + "); flows must be in non-decreasing start order");
    }
    m_prevStartPs = ps;
    m_prevLine = m_line;
    spec.start = PicoSeconds(ps);
    spec.id = m_nextId++;
    flow = spec;
    return true;
}

bool
FlowList::Parse(std::istream& in,
                const std::string& source,
                std::vector<FlowSpec>& out,
                std::string& error,
                uint64_t firstId)
{
    FlowListParser parser(source, firstId);
    std::vector<FlowSpec> flows;
    std::string line;
    std::optional<FlowSpec> f;
    while (std::getline(in, line))
    {
        if (!parser.ParseLine(line, f, error))
        {
            return false;
        }
        if (f)
        {
            flows.push_back(*f);
        }
    }
    out = std::move(flows);
    return true;
}

std::vector<FlowSpec>
FlowList::Read(std::istream& in, const std::string& source, uint64_t firstId)
{
    std::vector<FlowSpec> flows;
    std::string error;
    FABRIC_INPUT_ERROR_IF(!Parse(in, source, flows, error, firstId), error);
    return flows;
}

std::vector<FlowSpec>
FlowList::Load(const std::string& path, uint64_t firstId)
{
    std::ifstream in(path);
    FABRIC_INPUT_ERROR_IF(!in, "FlowList: cannot read flow-list file '" << path << "'");
    return Read(in, path, firstId);
}

std::string
FlowList::GetHeader()
{
    return "# ai-fabric flow list: src dst size_bytes start_ns\n";
}

void
FlowList::WriteFlow(std::ostream& out, const FlowSpec& f)
{
    FABRIC_INPUT_ERROR_IF(f.src == f.dst,
                          "FlowList: flow " << f.id << " goes from host " << f.src
                                            << " to itself; source and destination must differ");
    FABRIC_INPUT_ERROR_IF(f.sizeBytes == 0,
                          "FlowList: flow " << f.id << " has size 0; valid sizes are >= 1 byte");
    FABRIC_INPUT_ERROR_IF(f.start.IsStrictlyNegative(),
                          "FlowList: flow " << f.id << " starts at " << FabricFormatTime(f.start)
                                            << "; valid start times are >= 0");
    out << f.src << " " << f.dst << " " << f.sizeBytes << " "
        << text::FormatFixed(f.start.GetPicoSeconds(), PS_PER_NS, 3) << "\n";
}

void
FlowList::Write(std::ostream& out, const std::vector<FlowSpec>& flows)
{
    out << GetHeader();
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        FABRIC_INPUT_ERROR_IF(
            i > 0 && flows[i].start < flows[i - 1].start,
            "FlowList: flow " << flows[i].id << " starts at " << FabricFormatTime(flows[i].start)
                              << ", before the previous flow " << flows[i - 1].id << " ("
                              << FabricFormatTime(flows[i - 1].start)
                              << "); a flow list is in non-decreasing start order "
                                 "(sort the flows by start)");
        WriteFlow(out, flows[i]);
    }
}

void
FlowList::Save(const std::string& path, const std::vector<FlowSpec>& flows)
{
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out, "FlowList::Save: cannot write flow-list file '" << path << "'");
    Write(out, flows);
    out.close();
    FABRIC_INPUT_ERROR_IF(!out, "FlowList::Save: writing flow-list file '" << path << "' failed");
}

uint64_t
FlowList::Save(const std::string& path, Ptr<FlowSource> source)
{
    FABRIC_INPUT_ERROR_IF(!source, "FlowList::Save: null source");
    std::ofstream out(path);
    FABRIC_INPUT_ERROR_IF(!out, "FlowList::Save: cannot write flow-list file '" << path << "'");
    out << GetHeader();
    uint64_t n = 0;
    Time last;
    for (std::optional<FlowSpec> f = source->Next(); f; f = source->Next())
    {
        FABRIC_INPUT_ERROR_IF(n > 0 && f->start < last,
                              "FlowList::Save: flow "
                                  << f->id << " starts at " << FabricFormatTime(f->start)
                                  << ", before the previous flow (" << FabricFormatTime(last)
                                  << "); the source is not in start order");
        WriteFlow(out, *f);
        last = f->start;
        ++n;
    }
    out.close();
    FABRIC_INPUT_ERROR_IF(!out, "FlowList::Save: writing flow-list file '" << path << "' failed");
    return n;
}

HtsimConnectionMatrix
FlowList::ToHtsimMatrix(const std::vector<FlowSpec>& flows, uint32_t nodes)
{
    if (nodes == 0)
    {
        nodes = 2;
        for (const auto& f : flows)
        {
            nodes = std::max({nodes, f.src + 1, f.dst + 1});
            FABRIC_INPUT_ERROR_IF(f.src == std::numeric_limits<uint32_t>::max() ||
                                      f.dst == std::numeric_limits<uint32_t>::max(),
                                  "FlowList::ToHtsimMatrix: flow " << f.id
                                                                   << " names host 4294967295; an "
                                                                      "htsim matrix has at most "
                                                                      "4294967295 nodes");
        }
    }
    HtsimConnectionMatrix m(nodes);
    for (const auto& f : flows)
    {
        FABRIC_INPUT_ERROR_IF(f.src >= nodes || f.dst >= nodes,
                              "FlowList::ToHtsimMatrix: flow "
                                  << f.id << " (" << f.src << "->" << f.dst
                                  << ") names a host outside 0.." << nodes - 1);
        FABRIC_INPUT_ERROR_IF(f.id > std::numeric_limits<uint32_t>::max(),
                              "FlowList::ToHtsimMatrix: flow id "
                                  << f.id
                                  << " is out of range; htsim ids are "
                                     "1..4294967295");
        HtsimConnection c;
        c.src = f.src;
        c.dst = f.dst;
        c.bytes = f.sizeBytes;
        c.start = f.start;
        c.id = static_cast<uint32_t>(f.id);
        m.Add(c);
    }
    return m;
}

std::vector<FlowSpec>
FlowList::FromHtsimMatrix(const HtsimConnectionMatrix& matrix)
{
    const auto& conns = matrix.GetConnections();
    const bool keepIds =
        std::all_of(conns.begin(), conns.end(), [](const HtsimConnection& c) { return c.id != 0; });
    std::vector<FlowSpec> flows;
    flows.reserve(conns.size());
    for (std::size_t i = 0; i < conns.size(); ++i)
    {
        FlowSpec f;
        f.id = keepIds ? conns[i].id : i + 1;
        f.src = conns[i].src;
        f.dst = conns[i].dst;
        f.sizeBytes = conns[i].bytes;
        f.start = conns[i].start;
        flows.push_back(f);
    }
    std::stable_sort(flows.begin(), flows.end(), [](const FlowSpec& a, const FlowSpec& b) {
        return a.start < b.start;
    });
    return flows;
}

NS_OBJECT_ENSURE_REGISTERED(FlowListReader);

TypeId
FlowListReader::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowListReader")
            .SetParent<FlowSource>()
            .SetGroupName("AiFabric")
            .AddConstructor<FlowListReader>()
            .AddAttribute(
                "FirstFlowId",
                "Id of the file's first flow; the following ones count up (>= 1). "
                "Read at Open().",
                UintegerValue(1),
                MakeUintegerAccessor(&FlowListReader::m_firstId),
                MakeFabricUintegerChecker<uint64_t>("ns3::FlowListReader::FirstFlowId", 1));
    return tid;
}

FlowListReader::FlowListReader()
    : m_firstId(1)
{
}

FlowListReader::~FlowListReader() = default;

void
FlowListReader::Open(const std::string& path)
{
    auto in = std::make_unique<std::ifstream>(path);
    FABRIC_INPUT_ERROR_IF(!*in, "FlowListReader: cannot read flow-list file '" << path << "'");
    Open(std::move(in), path);
}

void
FlowListReader::Open(std::unique_ptr<std::istream> in, const std::string& source)
{
    FABRIC_INPUT_ERROR_IF(!in, "FlowListReader::Open: null stream");
    FABRIC_INPUT_ERROR_IF(m_in, "FlowListReader::Open: a flow list is already open");
    m_in = std::move(in);
    m_parser = std::make_unique<FlowListParser>(source, m_firstId);
}

std::optional<FlowSpec>
FlowListReader::Next()
{
    FABRIC_INPUT_ERROR_IF(!m_parser, "FlowListReader: Next() before Open()");
    std::string line;
    std::optional<FlowSpec> f;
    std::string error;
    while (m_in && std::getline(*m_in, line))
    {
        FABRIC_INPUT_ERROR_IF(!m_parser->ParseLine(line, f, error), error);
        if (f)
        {
            return f;
        }
    }
    m_in.reset(); // the file is closed at its end
    return std::nullopt;
}

int64_t
FlowListReader::AssignStreams(int64_t stream)
{
    return 0;
}

void
FlowListReader::DoDispose()
{
    m_in.reset();
    m_parser.reset();
    FlowSource::DoDispose();
}

} // namespace ns3
