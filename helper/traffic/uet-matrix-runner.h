/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: runs an htsim connection matrix as Ultra Ethernet WRITEs and records flow
 * completion times.
 */
#ifndef UET_MATRIX_RUNNER_H
#define UET_MATRIX_RUNNER_H

#include "ns3/htsim-connection-matrix.h"
#include "ns3/nstime.h"
#include "ns3/uet-endpoint.h"
#include "ns3/uet-types.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief The outcome of one connection run by UetMatrixRunner.
 */
struct UetFlowRecord
{
    uint32_t id{0};    //!< flow id: the connection's, or its 1-based position when it has none
    uint32_t src{0};   //!< source node (endpoint index)
    uint32_t dst{0};   //!< destination node
    uint64_t bytes{0}; //!< WRITE size, bytes
    Time start;        //!< when the WRITE was posted (the connection's start)
    Time end;          //!< when it completed at the initiator (valid when done)
    bool done{false};  //!< completed (successfully or not)
    bool ok{false};    //!< completed with RC_OK
    std::string error; //!< why it failed (empty when ok)

    /// \return flow completion time: end - start (the WRITE's UetCompletion duration)
    Time GetFct() const
    {
        return end - start;
    }
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Flow completion time statistics over the flows that completed successfully (nearest
 *        rank percentiles: the p-th is the ceil(p/100 x n)-th smallest).
 */
struct UetFctSummary
{
    uint32_t flows{0};     //!< connections
    uint32_t completed{0}; //!< completed with RC_OK
    uint32_t failed{0};    //!< completed in error
    Time min;              //!< smallest FCT ("first" flow done)
    Time median;           //!< 50th percentile FCT
    Time p99;              //!< 99th percentile FCT
    Time max;              //!< largest FCT (the tail)
    Time lastEnd;          //!< latest completion time
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Runs an HtsimConnectionMatrix over Ultra Ethernet: node i of the matrix is endpoint i,
 *        each connection is one SES WRITE of its size from its source's endpoint into memory
 *        registered at its destination's (one region per connection), posted at its start
 *        time over a RUD (or ROD) PDC; completions give per-flow FCTs (end - start, measured
 *        at the initiator when the target's response arrives, as htsim's flow completion).
 *
 * Connections between the same pair share that pair's PDC (UetNic finds PDCs by {mode,
 * JobID, destination}): their WRITEs queue behind each other as on one htsim connection.
 *
 * Construction aborts, naming the value and the range, when the matrix has more nodes than
 * endpoints or a connection is larger than one UET message (4294967295 bytes).
 */
class UetMatrixRunner
{
  public:
    /**
     * \param matrix the traffic
     * \param endpoints one per node, at least matrix.GetNNodes() (node i = endpoints[i])
     * \param mode RUD (default) or ROD
     */
    UetMatrixRunner(const HtsimConnectionMatrix& matrix,
                    const std::vector<Ptr<UetEndpoint>>& endpoints,
                    UetDeliveryMode mode = UetDeliveryMode::RUD);

    /**
     * \brief Register the target memory now and schedule every WRITE at its start time
     *        (relative to now). Call once, before Simulator::Run().
     */
    void Start();

    /**
     * \brief Collective across MPI processes (every process calls it after the run): process
     *        0 gets every flow's outcome (each process posts and completes the flows whose
     *        source it simulates). Nothing without MPI.
     */
    void Gather();
    /// \return one record per connection, in matrix order (across processes: this process's
    ///         sources' outcomes, at process 0 every outcome after Gather())
    const std::vector<UetFlowRecord>& GetFlows() const;
    /// \return true when every connection completed with RC_OK
    bool AllCompleted() const;
    /// \return FCT statistics of the successful flows
    UetFctSummary GetSummary() const;
    /**
     * \brief FCT statistics of any flow records (GetSummary() of these flows; also used for
     *        RoCE flows by FabricFlowRunner).
     * \param flows the records
     * \return the statistics of those done and ok
     */
    static UetFctSummary Summarize(const std::vector<UetFlowRecord>& flows);
    /**
     * \brief Write flow records as CSV (WriteCsv()'s format).
     * \param flows the records
     * \param os the stream
     */
    static void WriteCsv(const std::vector<UetFlowRecord>& flows, std::ostream& os);
    /**
     * \brief Write one CSV row per flow:
     *        id,src,dst,size_B,start_us,end_us,fct_us,status (status ok, failed or incomplete;
     *        end and FCT empty unless done).
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;

  private:
    /// Post connection \p i's WRITE.
    void Post(uint32_t i);
    /// Connection \p i completed.
    void Completed(uint32_t i, const UetCompletion& c);

    HtsimConnectionMatrix m_matrix;            //!< the traffic
    std::vector<Ptr<UetEndpoint>> m_endpoints; //!< node -> endpoint
    UetDeliveryMode m_mode;                    //!< RUD or ROD
    std::vector<UetFlowRecord> m_flows;        //!< per connection
    bool m_started;                            //!< Start() called
};

} // namespace ns3

#endif /* UET_MATRIX_RUNNER_H */
