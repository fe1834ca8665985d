/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: reading and writing the nccl-tests result table.
 */
#ifndef NCCL_TESTS_FORMAT_H
#define NCCL_TESTS_FORMAT_H

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief One measurement of one side (out-of-place or in-place) of an nccl-tests row.
 */
struct NcclTestsResult
{
    double timeUs{0};   //!< time per operation, microseconds
    double algbwGBs{0}; //!< algorithm bandwidth S / t, GB/s (1e9 bytes/s)
    double busbwGBs{0}; //!< bus bandwidth = algbw x the collective's factor, GB/s
    int64_t wrong{-1};  //!< #wrong column; -1 when nccl-tests printed N/A (no validation)
};

/**
 * \ingroup ai-fabric-collective
 * \brief One row of an nccl-tests table (all_reduce_perf and friends).
 */
struct NcclTestsRow
{
    uint64_t sizeBytes{0};      //!< size (B)
    uint64_t count{0};          //!< count (elements)
    std::string type;           //!< element type, e.g. "float"
    std::string redop;          //!< reduction op, e.g. "sum" ("none" for gathers)
    int64_t root{-1};           //!< root rank, -1 when not rooted
    NcclTestsResult outOfPlace; //!< out-of-place columns
    NcclTestsResult inPlace;    //!< in-place columns
    std::string comment;        //!< text after the columns ("# ..."; empty: none)
};

/**
 * \ingroup ai-fabric-collective
 * \brief Parser and writer of the text table printed by NVIDIA's nccl-tests
 *        (github.com/NVIDIA/nccl-tests, e.g. all_reduce_perf).
 *
 * Accepted input, line by line: empty lines; comment lines starting with '#' (headers,
 * device lists, "# Avg bus bandwidth"); the "NCCL version ..." banner; and data rows of 13
 * whitespace-separated fields: size, count, type, redop, root, then time, algbw, busbw,
 * #wrong for out-of-place and again for in-place (#wrong may be "N/A"), optionally followed
 * by a comment "# ..." (ai-fabric writes the algorithm and protocol there). Anything else is
 * rejected with the line number and what was expected. A file without any data row is
 * rejected too.
 */
class NcclTestsFormat
{
  public:
    /**
     * \brief Parse an nccl-tests log.
     * \param in the text
     * \param name name used in error messages (e.g. the file path)
     * \param[out] rows the data rows, in file order
     * \param[out] error on failure: "<name>:<line>: <what is wrong>"
     * \return true on success
     */
    static bool Parse(std::istream& in,
                      const std::string& name,
                      std::vector<NcclTestsRow>& rows,
                      std::string* error);

    /**
     * \brief Parse a file, aborting with the parser's message (file, line) on any error,
     *        including an unreadable file.
     * \param path file path
     * \return the rows
     */
    static std::vector<NcclTestsRow> ParseFileOrAbort(const std::string& path);

    /**
     * \brief Write rows in the nccl-tests layout (header comment lines + right-aligned
     *        columns), so the output can be put next to a real cluster's log or parsed back.
     * \param out the stream
     * \param rows the rows
     */
    static void Write(std::ostream& out, const std::vector<NcclTestsRow>& rows);

    /**
     * \brief nccl-tests bus-bandwidth factor of a collective (PERFORMANCE.md of nccl-tests).
     * \param op "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce"
     * \param ranks number of ranks n >= 1
     * \return 2(n-1)/n for allreduce; (n-1)/n for allgather, reducescatter, alltoall; 1 for
     *         broadcast and reduce; aborts naming an unknown op
     */
    static double BusBwFactor(const std::string& op, uint32_t ranks);
};

} // namespace ns3

#endif /* NCCL_TESTS_FORMAT_H */
