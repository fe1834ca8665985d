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

    /**
     * \brief Fix the random stream of start PSNs.
     * \param stream stream index
     * \return 1
     */
    int64_t AssignStreams(int64_t stream);

  private:
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
