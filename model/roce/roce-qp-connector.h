/*
 * SPDX-License-Identifier: GPL-2.0-only
 * ai-fabric: the out-of-band exchange that connects RoCE queue pairs.
 */
#ifndef ROCE_QP_CONNECTOR_H
#define ROCE_QP_CONNECTOR_H

#include "roce-nic.h"

#include "ns3/random-variable-stream.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-roce
 * \brief Connects reliable-connected queue pairs between two RoceNics, as the out-of-band QP
 *        exchange does on real hosts (over TCP or RDMA CM): each side learns the other's QPN,
 *        start PSN and address.
 *
 * Start PSNs are random 24-bit values from an ns-3 random stream (AssignStreams for
 * reproducibility; SetRandomStartPsn(false) gives 0). The UDP source port of each QP (its
 * flow entropy, RoCEv2's convention of 49152..65535) is derived from the two QP numbers, so
 * that the QPs of one connection hash onto different ECMP paths. Used by RoceNicHelper and by
 * RoceCollectiveTransport's default connection.
 */
class RoceQpConnector
{
  public:
    RoceQpConnector();

    /**
     * \brief Choose random (true, default) or zero start PSNs.
     * \param random whether to randomize
     */
    void SetRandomStartPsn(bool random);

    /**
     * \brief Create and connect \p nQps QP pairs between two NICs.
     * \param a one NIC (not null, with ports; aborts naming the problem with \p who)
     * \param b the other NIC (the same)
     * \param nQps number of QP pairs (>= 1)
     * \param portA port index on \p a
     * \param portB port index on \p b
     * \param who the caller's name for error messages (e.g. "RoceNicHelper::Connect")
     * \return the pairs, a's QP first. In a run across MPI processes a NIC whose node another
     *         process simulates gets its QP numbers reserved (RoceNic::ReserveQp) instead of
     *         QPs, and its side of the pair is null: QP numbers, start PSNs and entropies are
     *         the sequential run's, and each process holds its own NICs' QPs only.
     */
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> Connect(
        Ptr<RoceNic> a,
        Ptr<RoceNic> b,
        uint32_t nQps,
        uint32_t portA,
        uint32_t portB,
        const std::string& who = "RoceQpConnector::Connect");

    /// One end of a connection under per-peer numbering (PerPeerQpn).
    struct PerPeerEnd
    {
        Ptr<RoceNic> nic; //!< its NIC
        uint32_t rank;    //!< its rank
        uint32_t port;    //!< its NIC port
        uint32_t base;    //!< its numbering's first QPN (PerPeerQpn)
    };

    /**
     * \brief Per-peer numbering of flow connections (RoceTransportPlugin's QpNumbering
     *        per-peer): the QP number a NIC gives its side of the k-th connection between its
     *        rank and rank \p peer, known to both ends without any exchange,
     *        base + 2 (k ranks + peer) + (1 for the responder side).
     * \param base the NIC's first number of the numbering (RoceTransportPlugin: its first
     *        free QP number when the flow service starts, FirstQpn on a NIC without QPs)
     * \param peer the other end's rank, < \p ranks
     * \param k the connection's index between the two ranks (0, 1, ...: per direction)
     * \param ranks number of ranks
     * \param responder the responder side (else the requester's)
     * \return the QPN (may exceed 2^24 - 1: ConnectPerPeer aborts then)
     */
    static uint64_t PerPeerQpn(uint32_t base,
                               uint32_t peer,
                               uint32_t k,
                               uint32_t ranks,
                               bool responder);
    /**
     * \brief The inverse of PerPeerQpn for a responder's number: which connection a packet
     *        to \p qpn belongs to.
     * \param base the NIC's base (PerPeerQpn)
     * \param qpn the packet's destination QPN
     * \param ranks number of ranks
     * \param[out] peer the requester's rank
     * \param[out] k the connection's index from \p peer
     * \return false when \p qpn is below \p base or a requester's number
     */
    static bool PerPeerResponder(uint32_t base,
                                 uint32_t qpn,
                                 uint32_t ranks,
                                 uint32_t* peer,
                                 uint32_t* k);
    /**
     * \brief Create and connect one side of the k-th connection from \p src to \p dst
     *        under per-peer numbering (PerPeerQpn). Its start PSNs are a hash of ns-3's seed
     *        and run, this connector's stream and (src rank, dst rank, k) (0 without random
     *        start PSNs), its entropy as Connect() gives it: both sides agree without an
     *        exchange, so the responder side can be created on the first packet in another MPI
     *        process.
     * \param src the requester's end
     * \param dst the responder's end
     * \param k the connection's index from \p src to \p dst
     * \param ranks number of ranks
     * \param responder create the responder's side (on \p dst's NIC) instead of the
     *        requester's
     * \return the QP (aborts naming k and the ranks when its QPN exceeds 2^24 - 1, and
     *         naming the QPN when the NIC has a QP with it: one created after the base)
     */
    Ptr<RoceQueuePair> ConnectPerPeer(const PerPeerEnd& src,
                                      const PerPeerEnd& dst,
                                      uint32_t k,
                                      uint32_t ranks,
                                      bool responder);

    /**
     * \brief Fix the random stream of start PSNs.
     * \param stream stream index
     * \return 1
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /**
     * \param qpn a QP's number
     * \param other its peer's QP number
     * \return the QP's UDP source port (its entropy), 49152..65535
     */
    static uint16_t Entropy(uint32_t qpn, uint32_t other);
    /**
     * \param nic a NIC
     * \return true if this process simulates its node (always in a sequential run)
     */
    static bool IsLocal(const Ptr<RoceNic>& nic);

    Ptr<UniformRandomVariable> m_psnRng; //!< start PSNs
    bool m_randomPsn;                    //!< randomize start PSNs
};

} // namespace ns3

#endif /* ROCE_QP_CONNECTOR_H */
