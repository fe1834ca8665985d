/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: flow-size distributions given as a piecewise-linear CDF (the data-center
 * workload files: web search, Hadoop, storage).
 */
#ifndef FLOW_SIZE_CDF_H
#define FLOW_SIZE_CDF_H

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief One point of a flow-size CDF: P(size <= sizeBytes) = percent / 100.
 */
struct FlowSizeCdfPoint
{
    double sizeBytes{0}; //!< flow size in bytes, 0..2^53
    double percent{0};   //!< cumulative percent, 0..100
    uint32_t line{0};    //!< line of the file it came from (0 = not from a file)
};

/**
 * \ingroup ai-fabric-traffic
 * \brief A flow-size distribution given by the points of its cumulative distribution, linear
 *        between points: the format of the workload files of data-center congestion-control
 *        research (DCTCP's web search, Facebook's Hadoop, Alibaba's storage; shipped in
 *        data/workloads/, see LoadShipped()).
 *
 * File format: one point per line, "<size in bytes> <cumulative percent>", separated by
 * spaces or tabs (a trailing '\\r' is ignored); blank lines and lines whose first field
 * starts with '#' are ignored. Sizes are decimal numbers in 0..2^53 (9007199254740992),
 * strictly ascending; percents are decimal numbers in 0..100, non-decreasing; the last
 * percent is exactly 100; at least 2 points.
 *
 * The distribution: the first point's percent p0 is the probability of exactly its size s0
 * (an atom; usually p0 = 0); between consecutive points (s[i-1], p[i-1]) and (s[i], p[i]) the
 * sizes are uniform on [s[i-1], s[i]] with probability (p[i] - p[i-1]) / 100 (linear
 * interpolation of the CDF, the convention of the papers' generators).
 *
 * Errors (Parse() returns them, Read() and Load() abort with them) are
 * "<source>:<line>: what was expected", e.g. "w.cdf:4: size 300 is not above the previous
 * point's 300 (line 3); sizes must ascend strictly": a line without exactly two fields, a
 * field that is not a finite decimal number, a size negative or above 2^53, a size not above
 * the previous one, a percent outside 0..100, a percent below the previous one; and
 * "<source>: ..." for a file with fewer than 2 points or whose last percent is not 100.
 */
class FlowSizeCdf
{
  public:
    /// An empty distribution (no points): Sample() and the statistics abort until one is set.
    FlowSizeCdf();

    /**
     * \brief A distribution from points (checked as a file would be; aborts with the first
     *        error, naming "<source>: point <k>").
     * \param points the points, sizes ascending, last percent 100, >= 2 points
     * \param source a name for messages (GetSource())
     */
    FlowSizeCdf(const std::vector<FlowSizeCdfPoint>& points, const std::string& source);

    /**
     * \brief Parse a CDF file.
     * \param in the text
     * \param source its name in error messages (the file name)
     * \param[out] out the distribution (unchanged on error)
     * \param[out] error "<source>:<line>: what was expected" on error
     * \return true on success
     */
    static bool Parse(std::istream& in,
                      const std::string& source,
                      FlowSizeCdf& out,
                      std::string& error);
    /**
     * \brief Parse a CDF; aborts with Parse()'s message on error.
     * \param in the text
     * \param source its name in error messages
     * \return the distribution
     */
    static FlowSizeCdf Read(std::istream& in, const std::string& source);
    /**
     * \brief Read a CDF file; aborts naming the file if it cannot be read, and with Parse()'s
     *        message (file name and line) if it is malformed.
     * \param path the file
     * \return the distribution
     */
    static FlowSizeCdf Load(const std::string& path);

    /// \return the names of the shipped workloads: "alistorage", "fb-hadoop", "websearch"
    static std::vector<std::string> GetShippedNames();
    /**
     * \brief The path of a shipped workload file (data/workloads/<name>.cdf; attribution in
     *        data/workloads/README.md). Searched in order: the folder named by the environment
     *        variable AI_FABRIC_WORKLOAD_DIR if set, the source tree the library was built
     *        from, the installed <prefix>/share/ai-fabric/workloads. Aborts if \p name is not a
     *        shipped workload (listing the valid names) or if its file is found in none of them
     *        (listing the folders searched).
     * \param name "websearch", "fb-hadoop" or "alistorage"
     * \return the file's path
     */
    static std::string GetShippedPath(const std::string& name);
    /**
     * \brief Load(GetShippedPath(name)).
     * \param name "websearch", "fb-hadoop" or "alistorage"
     * \return the distribution
     */
    static FlowSizeCdf LoadShipped(const std::string& name);

    /**
     * \brief Write the points, one "<size> <percent>" line each, with 17 significant digits
     *        (Parse() reads back the same points), after a '#' line naming the source.
     * \param out the stream
     */
    void Write(std::ostream& out) const;

    /// \return true if the distribution has no points (default-constructed)
    bool IsEmpty() const;
    /// \return the points, as read
    const std::vector<FlowSizeCdfPoint>& GetPoints() const;
    /// \return the name given at parsing or construction (the file name)
    const std::string& GetSource() const;

    /**
     * \brief Draw a flow size from a uniform number: the generalized inverse of the CDF,
     *        GetPercentile(100 * u), rounded to the nearest byte (halves up), and at least
     *        1 byte (a flow carries data). Aborts if the distribution is empty.
     * \param u a uniform number in [0, 1) (aborts naming it otherwise)
     * \return the size in bytes, 1..2^53
     */
    uint64_t Sample(double u) const;

    /**
     * \brief The mean of the piecewise-linear distribution, exactly:
     *        s0 p0 / 100 + sum over segments of (p[i] - p[i-1]) / 100 * (s[i-1] + s[i]) / 2.
     *        Sample()'s rounding to whole bytes moves the mean by less than 1 byte. Aborts if
     *        the distribution is empty.
     * \return the mean flow size in bytes
     */
    double GetMean() const;

    /**
     * \brief A percentile: the smallest size whose cumulative percent is at least \p percent
     *        (inf{x : CDF(x) >= percent}), interpolated linearly between points; 0 gives the
     *        first point's size, 100 the first size at 100 percent. Aborts if the distribution
     *        is empty.
     * \param percent 0..100 (aborts naming it otherwise)
     * \return the size in bytes (not rounded)
     */
    double GetPercentile(double percent) const;

    /**
     * \brief The cumulative distribution at a size: P(flow size <= \p sizeBytes) in percent,
     *        linear between points. Aborts if the distribution is empty.
     * \param sizeBytes a size in bytes
     * \return the cumulative percent, 0..100
     */
    double GetCdf(double sizeBytes) const;

    /// \return the smallest size with non-zero probability, bytes
    double GetMinSize() const;
    /// \return the largest size with non-zero probability (GetPercentile(100)), bytes
    double GetMaxSize() const;

  private:
    /**
     * \brief Check points as a file's.
     * \param points the points
     * \param source the name in messages
     * \param[out] error the first error: "<source>:<line>: ..." if the point has a line,
     *             "<source>: point <k>: ..." otherwise
     * \return true if valid
     */
    static bool Check(const std::vector<FlowSizeCdfPoint>& points,
                      const std::string& source,
                      std::string& error);
    /**
     * \brief Check point \p k alone and against point k - 1.
     * \param points the points
     * \param k the point to check
     * \param source the name in messages
     * \param[out] error the error, located as Check()'s
     * \return true if valid
     */
    static bool CheckPoint(const std::vector<FlowSizeCdfPoint>& points,
                           std::size_t k,
                           const std::string& source,
                           std::string& error);
    /// Abort if the distribution is empty; \p what names the caller.
    void AbortIfEmpty(const char* what) const;

    std::vector<FlowSizeCdfPoint> m_points; //!< the points
    std::string m_source;                   //!< file name (messages)
    double m_mean{0};                       //!< GetMean(), computed once
};

} // namespace ns3

#endif /* FLOW_SIZE_CDF_H */
