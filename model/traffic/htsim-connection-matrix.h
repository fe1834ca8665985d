/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: htsim's connection-matrix traffic files (read, write, generate).
 */
#ifndef HTSIM_CONNECTION_MATRIX_H
#define HTSIM_CONNECTION_MATRIX_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief One connection of an htsim connection matrix: a flow of \p bytes from node \p src to
 *        node \p dst starting at \p start.
 */
struct HtsimConnection
{
    uint32_t src{0};                  //!< source node, < the matrix's nodes
    uint32_t dst{0};                  //!< destination node, != src
    Time start;                       //!< start time ("start", microseconds in the file), >= 0
    uint64_t bytes{0};                //!< flow size ("size", bytes), >= 1
    uint32_t id{0};                   //!< flow id ("id", >= 1, unique); 0 = not given
    std::optional<uint32_t> priority; //!< "prio" if given (read and written, not interpreted)
    uint32_t line{0};                 //!< line of the file it came from (0 = not from a file)
};

/**
 * \ingroup ai-fabric-traffic
 * \brief The traffic of an htsim (UEC uet-htsim, Broadcom csg-htsim) experiment: a node count
 *        and a list of connections, in htsim's connection-matrix text format, read, written
 *        and generated for the reference patterns (single flow, N-to-1 incast, permutation).
 *
 * Format (htsim's ConnectionMatrix::load, connection_matrix.cpp): one item per line, fields
 * separated by spaces (tabs accepted too); blank lines and lines starting with '#' are
 * ignored. A header of "Nodes N" (N >= 1) and "Connections C" (C >= 0) comes first, then one
 * line per connection:
 *
 *     src->dst [id I] start S size B [prio P]
 *
 * with src, dst in 0..N-1 and different; S the start time in microseconds (a decimal number
 * >= 0, kept to the picosecond; htsim itself truncates it to a whole microsecond); B the size
 * in bytes (>= 1); I a flow id (>= 1, unique; htsim refuses 0); P a priority (kept, not
 * interpreted). Fields after src->dst may come in any order, each at most once; start and size
 * are required. The number of connection lines must equal C.
 *
 * Not supported, refused with an error naming the line: htsim's triggers and failures (the
 * "trigger", "send_done_trigger", "recv_done_trigger" and "addon" fields, "trigger ..." and
 * "failure ..." lines, and non-zero "Triggers T" / "Failures F" headers; zero ones are
 * accepted): a connection here starts at its start time, and links are failed through the
 * topology helper (FabricTopologyHelper::SetLinkUp).
 *
 * Errors (Parse() returns them, Read() and Load() abort with them) are "<source>:<line>: what
 * was expected", e.g. "perm.cm:4: destination 16 is not a node (Nodes 16: 0..15)": an
 * unknown keyword or field, a field without its value, a number that is negative, not a
 * number or out of range, a node outside 0..N-1, a connection from a node to itself, a
 * missing start or size, a size 0, a duplicate field or id, a header repeated or after the
 * first connection, a connection before the "Nodes" and "Connections" headers, and a
 * Connections count that does not match the connection lines.
 */
class HtsimConnectionMatrix
{
  public:
    /// An empty matrix of 0 nodes.
    HtsimConnectionMatrix();
    /**
     * \param nodes the node count, >= 1 (aborts otherwise)
     */
    explicit HtsimConnectionMatrix(uint32_t nodes);

    /// \return the node count ("Nodes N")
    uint32_t GetNNodes() const;
    /// \return the number of connections
    uint32_t GetNConnections() const;
    /// \return the connections, in file (or generation) order
    const std::vector<HtsimConnection>& GetConnections() const;
    /**
     * \brief Append a connection; aborts, naming the value and the valid range, if src or dst
     *        is not a node, src == dst, bytes is 0, start is negative, or id is already used.
     * \param c the connection
     */
    void Add(const HtsimConnection& c);

    /**
     * \brief Parse a connection matrix.
     * \param in the text
     * \param source its name in error messages (the file name)
     * \param[out] out the matrix (unchanged on error)
     * \param[out] error "<source>:<line>: what was expected" on error
     * \return true on success
     */
    static bool Parse(std::istream& in,
                      const std::string& source,
                      HtsimConnectionMatrix& out,
                      std::string& error);
    /**
     * \brief Parse a connection matrix; aborts with Parse()'s message on error.
     * \param in the text
     * \param source its name in error messages
     * \return the matrix
     */
    static HtsimConnectionMatrix Read(std::istream& in, const std::string& source);
    /**
     * \brief Read a connection-matrix file; aborts naming the file if it cannot be read, and
     *        with Parse()'s message (file name and line) if it is malformed.
     * \param path the file
     * \return the matrix
     */
    static HtsimConnectionMatrix Load(const std::string& path);
    /**
     * \brief Write the matrix in htsim's format ("Nodes", "Connections", then
     *        "src->dst [id I] start S size B [prio P]" per connection, S in microseconds with
     *        up to 6 decimals: exact to the picosecond, so Parse() reads back the same matrix).
     * \param out the stream
     */
    void Write(std::ostream& out) const;
    /**
     * \brief Write the matrix to a file (Write()); aborts naming the file if it cannot be
     *        written.
     * \param path the file
     */
    void Save(const std::string& path) const;

    /**
     * \brief htsim's single-flow scenario: one connection, id 1, at time 0.
     * \param nodes node count, >= 2
     * \param bytes flow size, >= 1
     * \param src source, < nodes
     * \param dst destination, < nodes, != src (aborts naming the values otherwise)
     * \return the matrix
     */
    static HtsimConnectionMatrix Single(uint32_t nodes, uint64_t bytes, uint32_t src, uint32_t dst);
    /**
     * \brief htsim's N-to-1 incast: the first \p senders nodes other than \p dst, in
     *        ascending order, each send \p bytes to \p dst at time 0 (ids 1..senders).
     * \param nodes node count, >= 2
     * \param senders senders, 1..nodes-1
     * \param bytes flow size, >= 1
     * \param dst the destination, < nodes (aborts naming the values otherwise)
     * \return the matrix
     */
    static HtsimConnectionMatrix Incast(uint32_t nodes,
                                        uint32_t senders,
                                        uint64_t bytes,
                                        uint32_t dst);
    /**
     * \brief htsim's permutation: every node sends \p bytes at time 0 to another node, every
     *        node receiving exactly one flow; the mapping is a derangement drawn uniformly
     *        (Fisher-Yates shuffles, redrawn while a node would send to itself) from \p rng.
     *        Connection i is node i's (id i + 1).
     * \param nodes node count, >= 2 (aborts otherwise)
     * \param bytes flow size, >= 1
     * \param rng the random stream (seeded by the caller: AssignStreams / RngSeedManager)
     * \return the matrix
     */
    static HtsimConnectionMatrix Permutation(uint32_t nodes,
                                             uint64_t bytes,
                                             Ptr<UniformRandomVariable> rng);

  private:
    uint32_t m_nodes;                     //!< "Nodes N"
    std::vector<HtsimConnection> m_conns; //!< connections
    std::vector<uint32_t> m_ids;          //!< ids in use, sorted (duplicate check)
};

} // namespace ns3

#endif /* HTSIM_CONNECTION_MATRIX_H */
