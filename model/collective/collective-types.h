/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: vocabulary shared by the collective-communication model (operations, hop kinds,
 * rank locations, per-collective result records).
 */
#ifndef COLLECTIVE_TYPES_H
#define COLLECTIVE_TYPES_H

#include "ns3/nstime.h"

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>

namespace ns3
{

/// "No such index" for the collective model's rank, step and operation indices.
constexpr uint32_t COLLECTIVE_NONE = std::numeric_limits<uint32_t>::max();

/**
 * \ingroup ai-fabric-collective
 * \brief What a send of a CollectiveSchedule is.
 */
enum class CollectiveSendKind : uint8_t
{
    TRANSPORT = 0,         //!< a message to a peer over the CollectiveTransport
    NVLS_REDUCE,           //!< an NVSwitch multimem reduce, result to the issuer (NvlsEngine)
    NVLS_MULTICAST,        //!< an NVSwitch multimem store to every group member (NvlsEngine)
    NVLS_REDUCE_MULTICAST, //!< both, fused per element: the group's sum to every member
};

/**
 * \ingroup ai-fabric-collective
 * \brief A collective operation (NCCL API names).
 *
 * Sizes follow nccl-tests (the "size" column): AllReduce, Broadcast: the buffer; AllGather:
 * the output buffer (n x the per-rank input); ReduceScatter: the input buffer (n x the per-rank
 * output); AlltoAll: the per-rank send buffer (one n-th to every rank, itself included).
 */
enum class CollectiveOp : uint8_t
{
    ALL_REDUCE = 0, //!< ncclAllReduce
    ALL_GATHER,     //!< ncclAllGather
    REDUCE_SCATTER, //!< ncclReduceScatter
    BROADCAST,      //!< ncclBroadcast
    ALL_TO_ALL,     //!< AlltoAll (grouped ncclSend/ncclRecv, nccl-tests alltoall_perf)
    COUNT           //!< number of operations (not an operation)
};

/**
 * \param op an operation
 * \return its nccl-tests name: "AllReduce", "AllGather", "ReduceScatter", "Broadcast",
 *         "AlltoAll"
 */
const char* CollectiveOpName(CollectiveOp op);

/**
 * \brief Parse an operation name, case-insensitively, with or without the capitals and with
 *        the short forms "ar", "ag", "rs", "bcast", "a2a".
 * \param name the name
 * \return the operation; aborts naming \p name and the valid names otherwise
 */
CollectiveOp CollectiveOpFromName(const std::string& name);

/**
 * \brief The nccl-tests bus-bandwidth factor (nccl-tests doc/PERFORMANCE.md): busbw = algbw x
 *        factor, so that busbw is comparable with the link bandwidth whatever the rank count.
 * \param op the operation
 * \param nRanks ranks in the communicator (>= 1)
 * \return AllReduce 2(n-1)/n; AllGather, ReduceScatter, AlltoAll (n-1)/n; Broadcast 1
 */
double CollectiveBusBwFactor(CollectiveOp op, uint32_t nRanks);

/**
 * \ingroup ai-fabric-collective
 * \brief Kind of hop a point-to-point transfer takes; selects the per-step software latency.
 */
enum class CollectiveHopType : uint8_t
{
    NVLINK = 0, //!< inside a server (NVLink / NVSwitch)
    NETWORK,    //!< through a NIC and the scale-out network
};

/**
 * \param type a hop type
 * \return "nvlink" or "network"
 */
const char* CollectiveHopTypeName(CollectiveHopType type);

/**
 * \ingroup ai-fabric-collective
 * \brief Where a rank lives: its server and its index in the server (which is also its rail on
 *        rail-optimized fabrics: NIC i <-> GPU i <-> rail i, NVIDIA DGX H100).
 */
struct CollectiveRankLocation
{
    uint32_t server{0}; //!< server id (any value; equal ids mean the same server)
    uint32_t local{0};  //!< index in the server = rail
};

/**
 * \ingroup ai-fabric-collective
 * \brief The result of one collective on one communicator.
 *
 * Times are simulation times. start is when the first rank started the collective (its
 * enqueue time, or when that rank finished its previous collective), end when the last rank
 * finished it (all of its sends delivered and all of its receives arrived: the last byte of
 * the collective arrived). algbw and busbw follow nccl-tests: algbw = bytes / (end - start), in
 * GB/s (10^9 bytes/s); busbw = algbw x CollectiveBusBwFactor.
 */
struct CollectiveRecord
{
    std::string communicator;                  //!< communicator name
    uint32_t seq{0};                           //!< collective number on the communicator, from 0
    CollectiveOp op{CollectiveOp::ALL_REDUCE}; //!< operation
    std::string algorithm;                     //!< algorithm name ("ring", "tree", ...)
    std::string protocol;                      //!< NCCL protocol ("LL", "LL128", "Simple")
    uint64_t bytes{0};                         //!< size as requested (nccl-tests "size")
    uint64_t paddedBytes{0};                   //!< size after padding to whole elements per segment
    uint32_t nRanks{0};                        //!< communicator size
    uint32_t channels{0};                      //!< channels used
    uint32_t root{0};                          //!< root (Broadcast), else 0
    Time enqueued;                             //!< when it was enqueued
    Time start;                                //!< first rank started
    Time end;                                  //!< last rank finished (or failure time)
    bool completed{false};                     //!< every rank finished
    bool failed{false};                        //!< the collective failed
    uint32_t failedRank{COLLECTIVE_NONE};      //!< global rank that reported the failure
    uint32_t failedStep{COLLECTIVE_NONE};      //!< algorithm step of the failed transfer
    uint32_t failedPeer{COLLECTIVE_NONE};      //!< global rank of the failed transfer's peer
    std::string reason;                        //!< failure reason (transport message)
    double algBw{0};                           //!< GB/s
    double busBw{0};                           //!< GB/s

    /// \return end - start
    Time GetDuration() const;
    /// Set algBw (bytes / duration, GB/s) and busBw (algBw x CollectiveBusBwFactor), the
    /// nccl-tests formulas; both 0 when the duration is not positive.
    void ComputeBandwidths();
    /**
     * \brief Write the CSV header line (with newline):
     *        communicator,seq,op,algorithm,protocol,bytes,padded_bytes,ranks,channels,root,
     *        enqueued_us,start_us,end_us,time_us,algbw_GBps,busbw_GBps,status,failed_rank,
     *        failed_step,failed_peer,reason
     * \param os the stream
     */
    static void WriteCsvHeader(std::ostream& os);
    /**
     * \brief Write this record as one CSV line (with newline); status is "ok", "failed" or
     *        "incomplete"; absent ranks/steps are empty fields.
     * \param os the stream
     */
    void WriteCsvRow(std::ostream& os) const;
};

} // namespace ns3

#endif /* COLLECTIVE_TYPES_H */
