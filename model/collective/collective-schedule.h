/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the schedule of one collective: per rank, the point-to-point transfers it sends
 * and receives and the data dependencies between them.
 */
#ifndef COLLECTIVE_SCHEDULE_H
#define COLLECTIVE_SCHEDULE_H

#include "collective-types.h"

#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <initializer_list>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief The schedule of one collective, produced by a CollectiveAlgorithm and executed by one
 *        CollectiveApplication per rank: a dependency graph of point-to-point transfers.
 *
 * Ranks are communicator ranks (0..n-1). Each transfer (AddTransfer) is a send at its source
 * and a receive at its destination. A send may start only once every receive it depends on
 * has fully arrived at its source (the data it forwards or reduces); sends without
 * dependencies may start as soon as the collective starts. Nothing else orders the sends: two
 * sends on the same connection go in the order they become ready. A rank has finished the
 * collective when all of its sends have been delivered and all of its receives have arrived.
 *
 * Lanes (NCCL's channels as thread blocks): a send may belong to a lane of its rank (any id the
 * algorithm chooses, e.g. one per channel and direction); the sends of one lane run strictly
 * in the order they were added: a send starts only once the previous send of its lane has
 * been handed to the transport, as an NCCL channel's thread block executes its primitives one
 * after another. Sends without a lane (COLLECTIVE_NONE) are ordered by their dependencies
 * only.
 *
 * Every send carries the algorithm step it belongs to (reported on failure and in traces) and
 * the index of the matching receive at the peer, so delivery needs no searching. Storage is
 * compact: dependencies in one flat array per rank (CSR), and Finalize() builds the reverse
 * index (for every receive, the sends waiting for it), so executing the schedule is O(1) per
 * transfer event.
 *
 * NVLS operations (NvlsEngine): besides transfers, a rank may issue a multimem reduce
 * (AddNvlsReduce: the NVSwitch reduces over the rank's server group and returns the result to
 * the rank, a receive at the rank itself) or a multimem multicast (AddNvlsMulticast: one
 * receive at every member of the group, the issuer included). They are sends of their own kind
 * (CollectiveSendKind) with the same dependencies, lanes, steps and completion rules; the
 * executor hands them to the server's NvlsEngine instead of the transport.
 *
 * Errors: AddTransfer aborts on ranks out of range, a transfer to itself, an unknown
 * dependency, or after Finalize(); AddNvlsMulticast on an empty or out-of-range member list.
 */
class CollectiveSchedule : public SimpleRefCount<CollectiveSchedule>
{
  public:
    /// A send of one rank.
    struct Send
    {
        uint32_t peer;     //!< destination rank
        uint32_t channel;  //!< channel (connection id together with the peer)
        uint64_t bytes;    //!< bytes
        uint32_t peerRecv; //!< index of the matching receive at the peer
        uint32_t step;     //!< algorithm step
        uint32_t conn;     //!< dense connection index at this rank ((peer, channel) pairs)
        uint32_t depBegin; //!< first dependency in Program::deps
        uint32_t depEnd;   //!< one past the last dependency
        uint32_t lanePrev; //!< previous send of the same lane (COLLECTIVE_NONE: first or none)
        uint32_t laneNext; //!< next send of the same lane (COLLECTIVE_NONE: last or none)
        /// what it is; NVLS_(REDUCE_)MULTICAST: peer is the issuer, peerRecv its target list
        CollectiveSendKind kind;
    };

    /// A member a multicast writes to, and its receive there.
    struct Target
    {
        uint32_t rank; //!< member rank
        uint32_t recv; //!< receive index at the member
    };

    /// A receive of one rank.
    struct Recv
    {
        uint32_t peer;           //!< source rank
        uint32_t channel;        //!< channel
        uint64_t bytes;          //!< bytes expected
        uint32_t step;           //!< algorithm step
        uint32_t dependentBegin; //!< first dependent send in Program::dependents
        uint32_t dependentEnd;   //!< one past the last
        CollectiveSendKind kind; //!< what delivers it (TRANSPORT: a message through the NIC)
    };

    /// Everything one rank does.
    struct Program
    {
        std::vector<Send> sends;          //!< sends, in creation order
        std::vector<Recv> recvs;          //!< receives, in creation order
        std::vector<uint32_t> deps;       //!< receive indices the sends depend on (CSR)
        std::vector<uint32_t> dependents; //!< send indices waiting on each receive (CSR)
        /// multicast target lists: list i is targets[targetBegin[i] .. targetBegin[i + 1])
        std::vector<Target> targets;
        std::vector<uint32_t> targetBegin{0}; //!< offsets of the target lists (CSR)
        uint32_t nConns{0};                   //!< distinct (peer, channel, kind) connections
        uint64_t bytesSent{0};                //!< sum of send bytes
        uint64_t bytesReceived{0};            //!< sum of receive bytes
    };

    /**
     * \param nRanks ranks of the communicator (>= 1; aborts on 0)
     */
    explicit CollectiveSchedule(uint32_t nRanks);

    /**
     * \brief Add a transfer of \p bytes from \p src to \p dst.
     * \param src sending rank (< nRanks)
     * \param dst receiving rank (< nRanks, != src)
     * \param channel channel (any value; each (dst, channel) is its own connection)
     * \param bytes payload bytes (0 allowed: a pure notification)
     * \param step algorithm step, for reports
     * \param deps receive indices at \p src that must have arrived before this send starts
     * \param lane lane of the send at \p src (COLLECTIVE_NONE: none; see the class
     *        description)
     * \return the index of the new receive at \p dst (use it as a dependency of dst's sends)
     */
    uint32_t AddTransfer(uint32_t src,
                         uint32_t dst,
                         uint32_t channel,
                         uint64_t bytes,
                         uint32_t step,
                         const std::vector<uint32_t>& deps,
                         uint32_t lane = COLLECTIVE_NONE);
    /**
     * \brief AddTransfer with an initializer list of dependencies; entries equal to
     *        COLLECTIVE_NONE are skipped (convenient for "no dependency yet").
     * \param src sending rank
     * \param dst receiving rank
     * \param channel channel
     * \param bytes payload bytes
     * \param step algorithm step
     * \param deps receive indices at \p src
     * \return the index of the new receive at \p dst
     */
    uint32_t AddTransfer(uint32_t src,
                         uint32_t dst,
                         uint32_t channel,
                         uint64_t bytes,
                         uint32_t step,
                         std::initializer_list<uint32_t> deps);

    /**
     * \brief Add an NVLS reduce (multimem.ld_reduce) issued by \p rank: \p bytes reduced over
     *        its server's NVLS group arrive at \p rank itself.
     * \param rank issuing rank (< nRanks)
     * \param channel channel
     * \param bytes bytes (> 0)
     * \param step algorithm step
     * \param deps receive indices at \p rank the operation waits for
     * \param lane lane at \p rank (COLLECTIVE_NONE: none)
     * \return the index of the result's receive at \p rank
     */
    uint32_t AddNvlsReduce(uint32_t rank,
                           uint32_t channel,
                           uint64_t bytes,
                           uint32_t step,
                           const std::vector<uint32_t>& deps,
                           uint32_t lane = COLLECTIVE_NONE);
    /**
     * \brief Add an NVLS multicast (multimem.st) of \p bytes from \p rank to every member of
     *        its server's NVLS group.
     * \param rank issuing rank (< nRanks; one of \p members)
     * \param members the group's ranks in the group's member order (NvlsEngine::AddGroup;
     *        aborts if empty, out of range or without \p rank)
     * \param channel channel
     * \param bytes bytes (> 0)
     * \param step algorithm step
     * \param deps receive indices at \p rank the operation waits for
     * \param lane lane at \p rank (COLLECTIVE_NONE: none)
     * \return per member (same order), the index of its receive
     */
    std::vector<uint32_t> AddNvlsMulticast(uint32_t rank,
                                           const std::vector<uint32_t>& members,
                                           uint32_t channel,
                                           uint64_t bytes,
                                           uint32_t step,
                                           const std::vector<uint32_t>& deps,
                                           uint32_t lane = COLLECTIVE_NONE);

    /**
     * \brief Add a fused NVLS reduce and multicast issued by \p rank (NVLS AllReduce's kernel:
     *        every element is reduced over the group with multimem.ld_reduce and its sum
     *        stored to every member with multimem.st): \p bytes of the group's sum arrive at
     *        every member. Arguments and result as AddNvlsMulticast.
     * \param rank issuing rank
     * \param members the group's ranks in member order
     * \param channel channel
     * \param bytes bytes (> 0)
     * \param step algorithm step
     * \param deps receive indices at \p rank the operation waits for
     * \param lane lane at \p rank (COLLECTIVE_NONE: none)
     * \return per member, the index of its receive
     */
    std::vector<uint32_t> AddNvlsReduceMulticast(uint32_t rank,
                                                 const std::vector<uint32_t>& members,
                                                 uint32_t channel,
                                                 uint64_t bytes,
                                                 uint32_t step,
                                                 const std::vector<uint32_t>& deps,
                                                 uint32_t lane = COLLECTIVE_NONE);

    /// Build the reverse dependency index; no more transfers after this. Idempotent.
    void Finalize();

    /// \return number of ranks
    uint32_t GetNRanks() const;
    /**
     * \param rank a rank (< GetNRanks(); aborts otherwise)
     * \return its program
     */
    const Program& GetProgram(uint32_t rank) const;
    /// \return total number of transfers
    uint64_t GetNTransfers() const;
    /// \return total bytes of all transfers
    uint64_t GetTotalBytes() const;
    /// \return one past the highest step used
    uint32_t GetNSteps() const;

  private:
    /// Append \p s (peer, channel, bytes, step, peerRecv, kind set) to \p src's sends with
    /// its connection (\p connPeer, channel), dependencies and lane; returns its index.
    uint32_t AddSend(uint32_t src,
                     Send s,
                     uint32_t connPeer,
                     const std::vector<uint32_t>& deps,
                     uint32_t lane);
    /// AddNvlsMulticast / AddNvlsReduceMulticast with the send's \p kind.
    std::vector<uint32_t> AddGroupSend(CollectiveSendKind kind,
                                       uint32_t rank,
                                       const std::vector<uint32_t>& members,
                                       uint32_t channel,
                                       uint64_t bytes,
                                       uint32_t step,
                                       const std::vector<uint32_t>& deps,
                                       uint32_t lane);
    /// Append a receive of \p bytes from \p src at \p dst delivered by a send of \p kind;
    /// returns its index.
    uint32_t AddRecv(uint32_t dst,
                     uint32_t src,
                     uint32_t channel,
                     uint64_t bytes,
                     uint32_t step,
                     CollectiveSendKind kind);

    uint32_t m_nRanks;                                               //!< ranks
    std::vector<Program> m_programs;                                 //!< per rank
    std::vector<std::unordered_map<uint64_t, uint32_t>> m_connIndex; //!< building only
    std::vector<std::unordered_map<uint32_t, uint32_t>> m_laneLast;  //!< building only
    uint64_t m_nTransfers;                                           //!< transfers
    uint64_t m_totalBytes;                                           //!< bytes
    uint32_t m_nSteps;                                               //!< steps
    bool m_finalized;                                                //!< Finalize() done
};

} // namespace ns3

#endif /* COLLECTIVE_SCHEDULE_H */
