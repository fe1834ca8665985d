/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: runs a connection matrix between the GPUs of a topology as RDMA WRITEs (RoCEv2)
 * or SES WRITEs (Ultra Ethernet) and records flow completion times.
 */
#ifndef FABRIC_FLOW_RUNNER_H
#define FABRIC_FLOW_RUNNER_H

#include "uet-matrix-runner.h"

#include "ns3/fabric-topology.h"
#include "ns3/htsim-connection-matrix.h"
#include "ns3/roce-queue-pair.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief Runs an HtsimConnectionMatrix between ranks of an installed FabricTopologyHelper over
 *        the transport its GPUs carry, with the same flow records for both (UetFlowRecord):
 *        matrix node i is rank \p ranks[i]; each connection is one WRITE of its size posted at
 *        its start time, and its flow completion time runs from the post to the completion at
 *        the initiator.
 *  - RoCEv2 (the ranks have RoceNics): one QP pair per connection
 *    (FabricTopologyHelper::Connect: the NVLink port within a server, scale-out port 0
 *    otherwise), an RDMA WRITE on it (completed when the responder's ACK arrives);
 *  - Ultra Ethernet (UetNics and no RoceNic): one endpoint per rank on port 0 (the scale-out
 *    port; JobID \p jobId), UetMatrixRunner's WRITEs (connections between one pair share its
 *    PDC).
 * Construction aborts, naming the value and the range, when the matrix has more nodes than
 * \p ranks, a rank does not exist or appears twice, or a UET flow exceeds one message.
 */
class FabricFlowRunner
{
  public:
    /**
     * \param topo an installed topology
     * \param matrix the traffic
     * \param ranks the rank of each matrix node (at least matrix.GetNNodes(), distinct)
     * \param jobId JobID of the UET endpoints (0..2^24-1; must not be a collective's)
     */
    FabricFlowRunner(Ptr<FabricTopologyHelper> topo,
                     const HtsimConnectionMatrix& matrix,
                     const std::vector<uint32_t>& ranks,
                     uint32_t jobId = 2);
    ~FabricFlowRunner();

    /// Connect (RoCE) or register memory (UET) now and schedule every WRITE at its start
    /// time, relative to now. Call once.
    void Start();
    /// \return the transport's name ("roce" or "uet")
    std::string GetTransport() const;
    /// \return one record per connection, matrix order (src and dst are matrix nodes)
    std::vector<UetFlowRecord> GetFlows() const;
    /// \return true when every connection completed successfully
    bool AllCompleted() const;
    /// \return FCT statistics of the successful flows
    UetFctSummary GetSummary() const;
    /**
     * \brief Write one CSV row per flow (UetMatrixRunner::WriteCsv's format).
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;

  private:
    /// Post RoCE connection \p i's WRITE.
    void PostRoce(uint32_t i);
    /// RoCE connection \p i completed.
    void RoceCompleted(uint32_t i, const RoceWorkCompletion& wc);

    Ptr<FabricTopologyHelper> m_topo;             //!< the fabric
    HtsimConnectionMatrix m_matrix;               //!< the traffic
    std::vector<uint32_t> m_ranks;                //!< rank of each matrix node
    Ptr<FabricTransportPlugin> m_transport;       //!< the topology's first transport
    bool m_uet;                                   //!< UET (else RoCE)
    std::unique_ptr<UetMatrixRunner> m_uetRunner; //!< UET flows
    std::vector<UetFlowRecord> m_roceFlows;       //!< RoCE flows
    std::vector<Ptr<RoceQueuePair>> m_qps;        //!< RoCE: initiator QP per connection
    bool m_started{false};                        //!< Start() called
};

} // namespace ns3

#endif /* FABRIC_FLOW_RUNNER_H */
