/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the small text helpers the traffic file readers share (htsim connection matrices,
 * flow-size CDFs, flow lists).
 */
#ifndef TEXT_FIELDS_H
#define TEXT_FIELDS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace text
{

/**
 * \ingroup ai-fabric-traffic
 * \param line one line of a text file
 * \return its fields, split at spaces and tabs ('\\r' counts as whitespace, so CRLF files read
 *         the same); empty if the line is blank
 */
std::vector<std::string> SplitFields(const std::string& line);

/**
 * \ingroup ai-fabric-traffic
 * \param s a list, e.g. "roce+uet" or "a=1;b=2"
 * \param sep the separator
 * \return the parts between separators, empty ones kept ("a,,b" gives "a", "", "b"); no part
 *         for an empty \p s
 */
std::vector<std::string> Split(const std::string& s, char sep);

/// \return true if \p s is one or more decimal digits (no sign, no point)
bool AllDigits(const std::string& s);

/// What ParseWhole() found.
enum class WholeVerdict : uint8_t
{
    OK,           //!< a whole number in range
    NEGATIVE,     //!< it starts with '-'
    NOT_A_NUMBER, //!< empty, or not digits only
    OUT_OF_RANGE, //!< digits, but below min, above max or beyond 64 bits
};

/**
 * \brief Parse a whole decimal number (digits only). The caller words the error: its files
 *        name their fields differently.
 * \param s the text
 * \param min smallest valid value
 * \param max largest valid value
 * \param[out] v the value (set only if OK)
 * \return the verdict
 */
WholeVerdict ParseWhole(const std::string& s, uint64_t min, uint64_t max, uint64_t& v);

/**
 * \brief Write a fixed-point value with its trailing zero decimals dropped (what the readers
 *        read back exactly): e.g. 1500 with unit 1000 and 3 decimals is "1.5".
 * \param value the value in the smallest unit (e.g. picoseconds), >= 0
 * \param unit smallest units per written unit (e.g. 1000 ps per ns), 10^decimals
 * \param decimals decimals at most (1..18)
 * \return the text
 */
std::string FormatFixed(int64_t value, int64_t unit, uint32_t decimals);

/**
 * \brief Text of a file quoted in an error message, safe to print: control characters and
 *        bytes >= 0x80 (a binary file) as \\xNN, and cut after \p max characters ("...").
 * \param s the text
 * \param max most characters kept
 * \return the printable text
 */
std::string Printable(const std::string& s, std::size_t max = 60);

} // namespace text
} // namespace ns3

#endif /* TEXT_FIELDS_H */
