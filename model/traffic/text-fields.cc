/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "text-fields.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace ns3
{
namespace text
{

std::vector<std::string>
SplitFields(const std::string& line)
{
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    std::vector<std::string> t;
    std::size_t i = 0;
    while (i < line.size())
    {
        while (i < line.size() && space(line[i]))
        {
            ++i;
        }
        std::size_t j = i;
        while (j < line.size() && !space(line[j]))
        {
            ++j;
        }
        if (j > i)
        {
            t.push_back(line.substr(i, j - i));
        }
        i = j;
    }
    return t;
}

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> parts;
    if (s.empty())
    {
        return parts;
    }
    std::size_t from = 0;
    while (true)
    {
        const std::size_t at = s.find(sep, from);
        parts.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos)
        {
            return parts;
        }
        from = at + 1;
    }
}

bool
AllDigits(const std::string& s)
{
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

WholeVerdict
ParseWhole(const std::string& s, uint64_t min, uint64_t max, uint64_t& v)
{
    if (!s.empty() && s[0] == '-')
    {
        return WholeVerdict::NEGATIVE;
    }
    if (!AllDigits(s))
    {
        return WholeVerdict::NOT_A_NUMBER;
    }
    errno = 0;
    unsigned long long x = std::strtoull(s.c_str(), nullptr, 10);
    if (errno == ERANGE || x < min || x > max)
    {
        return WholeVerdict::OUT_OF_RANGE;
    }
    v = x;
    return WholeVerdict::OK;
}

std::string
FormatFixed(int64_t value, int64_t unit, uint32_t decimals)
{
    std::string s = std::to_string(value / unit);
    const int64_t frac = value % unit;
    if (frac != 0)
    {
        std::string f = std::to_string(frac);
        f.insert(0, decimals - f.size(), '0');
        while (f.back() == '0')
        {
            f.pop_back();
        }
        s += "." + f;
    }
    return s;
}

std::string
Printable(const std::string& s, std::size_t max)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i)
    {
        if (i == max)
        {
            out += "...";
            break;
        }
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c >= 0x7f)
        {
            static const char* const hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
        else
        {
            out += static_cast<char>(c);
        }
    }
    return out;
}

} // namespace text
} // namespace ns3
