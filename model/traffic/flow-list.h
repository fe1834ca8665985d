/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: flow-list files (one line per flow: src dst size start), read, written, read
 * lazily as a FlowSource, and converted to and from htsim connection matrices.
 */
#ifndef FLOW_LIST_H
#define FLOW_LIST_H

#include "flow-source.h"
#include "htsim-connection-matrix.h"

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief Reads a flow list line by line, checking each line and the order of the starts
 *        (the format is described at FlowList).
 */
class FlowListParser
{
  public:
    /**
     * \param source the file's name in error messages
     * \param firstId id of the first flow (the next ones count up), >= 1
     */
    explicit FlowListParser(const std::string& source, uint64_t firstId = 1);

    /**
     * \brief Parse the next line of the file.
     * \param line the line (without its '\\n')
     * \param[out] flow the flow if the line holds one; std::nullopt for a blank or comment line
     * \param[out] error "<source>:<line>: what was expected" on error
     * \return true unless the line is malformed
     */
    bool ParseLine(const std::string& line, std::optional<FlowSpec>& flow, std::string& error);
    /// \return the number of lines parsed so far
    uint32_t GetLine() const;

  private:
    std::string m_source;     //!< file name (messages)
    uint32_t m_line{0};       //!< lines parsed
    uint64_t m_nextId;        //!< id of the next flow
    int64_t m_prevStartPs{0}; //!< start of the previous flow, ps
    uint32_t m_prevLine{0};   //!< line of the previous flow (0: none yet)
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Flow-list files: the same flows for ai-fabric and other simulators (a line per flow,
 *        readable by any script), and their conversion to htsim's connection matrix.
 *
 * Format: one flow per line, four fields separated by spaces or tabs (a trailing '\\r' is
 * ignored):
 *
 *     <src> <dst> <size in bytes> <start in nanoseconds>
 *
 * src and dst are host indices (whole numbers 0..4294967295) and differ; size is a whole
 * number of bytes 1..2^64-1; start is the absolute start time in nanoseconds, a decimal number
 * (digits, optionally '.' and decimals; no sign, no exponent) in 0..9e15, kept to the
 * picosecond (further decimals are rounded, halves up). Lines must be in non-decreasing start
 * order (equal starts allowed), so a runner can read the file as it goes (FlowListReader).
 * Blank lines and lines whose first field starts with '#' are ignored; Write() begins with the
 * comment "# ai-fabric flow list: src dst size_bytes start_ns". Flow ids are not stored: the
 * k-th flow of a file (k = 0, 1, ...) gets id firstId + k.
 *
 * Errors (Parse() returns them, Read(), Load() and FlowListReader abort with them) are
 * "<source>:<line>: what was expected", e.g. "f.txt:3: a flow from host 4 to itself; source
 * and destination must differ": a line without exactly four fields, a field that is not a
 * number, negative or out of range, a flow to itself, a size 0, a start before the previous
 * flow's.
 */
class FlowList
{
  public:
    /**
     * \brief Parse a flow list.
     * \param in the text
     * \param source its name in error messages (the file name)
     * \param[out] out the flows, file order (unchanged on error)
     * \param[out] error "<source>:<line>: what was expected" on error
     * \param firstId id of the first flow, >= 1
     * \return true on success
     */
    static bool Parse(std::istream& in,
                      const std::string& source,
                      std::vector<FlowSpec>& out,
                      std::string& error,
                      uint64_t firstId = 1);
    /**
     * \brief Parse a flow list; aborts with Parse()'s message on error.
     * \param in the text
     * \param source its name in error messages
     * \param firstId id of the first flow, >= 1
     * \return the flows
     */
    static std::vector<FlowSpec> Read(std::istream& in,
                                      const std::string& source,
                                      uint64_t firstId = 1);
    /**
     * \brief Read a flow-list file; aborts naming the file if it cannot be read, and with
     *        Parse()'s message if it is malformed.
     * \param path the file
     * \param firstId id of the first flow, >= 1
     * \return the flows
     */
    static std::vector<FlowSpec> Load(const std::string& path, uint64_t firstId = 1);

    /// \return the header comment Write() begins with (with its '\\n')
    static std::string GetHeader();
    /**
     * \brief Write one flow's line ("src dst size start", start in nanoseconds with up to 3
     *        decimals). Aborts, naming the flow's id, if src == dst, the size is 0, or the
     *        start is negative (a line Parse() would refuse).
     * \param out the stream
     * \param flow the flow
     */
    static void WriteFlow(std::ostream& out, const FlowSpec& flow);
    /**
     * \brief Write flows (GetHeader() then WriteFlow() each); aborts, naming the flow's id, if
     *        they are not in non-decreasing start order or WriteFlow() refuses one.
     * \param out the stream
     * \param flows the flows
     */
    static void Write(std::ostream& out, const std::vector<FlowSpec>& flows);
    /**
     * \brief Write a file (Write()); aborts naming the file if it cannot be written.
     * \param path the file
     * \param flows the flows
     */
    static void Save(const std::string& path, const std::vector<FlowSpec>& flows);
    /**
     * \brief Drain a source into a file, one flow at a time (memory independent of the number
     *        of flows); aborts as Save() does.
     * \param path the file
     * \param source the source (its Next() until std::nullopt)
     * \return the number of flows written
     */
    static uint64_t Save(const std::string& path, Ptr<FlowSource> source);

    /**
     * \brief The flows as an htsim connection matrix (one connection per flow, in order;
     *        htsim reads start times as whole microseconds, truncating the rest). A flow's id
     *        becomes the connection's id when it is 1..4294967295, and no id when it is 0.
     *        Aborts, naming the flow, on an id above 4294967295, a duplicate id or a host
     *        outside 0..nodes-1.
     * \param flows the flows
     * \param nodes the matrix's node count; 0: the largest host index + 1 (at least 2)
     * \return the matrix
     */
    static HtsimConnectionMatrix ToHtsimMatrix(const std::vector<FlowSpec>& flows,
                                               uint32_t nodes = 0);
    /**
     * \brief The connections of an htsim matrix as flows, sorted by start time (a stable
     *        sort: equal starts keep the matrix's order). Ids are the matrix's when every
     *        connection has one, otherwise 1..C in the matrix's order. Priorities are dropped.
     * \param matrix the matrix
     * \return the flows
     */
    static std::vector<FlowSpec> FromHtsimMatrix(const HtsimConnectionMatrix& matrix);
};

/**
 * \ingroup ai-fabric-traffic
 * \brief A flow-list file as a FlowSource: reads one line per Next(), so memory does not grow
 *        with the file. A malformed line aborts when it is reached, with FlowList::Parse()'s
 *        message (check a file up front with FlowList::Load() if it must fail early).
 */
class FlowListReader : public FlowSource
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FlowListReader();
    ~FlowListReader() override;

    /**
     * \brief Read the file \p path (aborts naming it if it cannot be read, or if a file is
     *        already open).
     * \param path the file
     */
    void Open(const std::string& path);
    /**
     * \brief Read a stream (aborts if \p in is null or a file is already open).
     * \param in the text
     * \param source its name in error messages
     */
    void Open(std::unique_ptr<std::istream> in, const std::string& source);

    /**
     * \return the next flow of the file, or std::nullopt at its end (aborts, naming the file
     *         and line, on a malformed line, and if nothing was opened)
     */
    std::optional<FlowSpec> Next() override;
    /**
     * \param stream unused
     * \return 0: no randomness
     */
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    uint64_t m_firstId;                       //!< attribute FirstFlowId
    std::unique_ptr<std::istream> m_in;       //!< the file
    std::unique_ptr<FlowListParser> m_parser; //!< its parser
};

} // namespace ns3

#endif /* FLOW_LIST_H */
