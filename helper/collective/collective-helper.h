/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: builds communicators and jobs of NCCL-style collectives over RoceNics.
 */
#ifndef COLLECTIVE_HELPER_H
#define COLLECTIVE_HELPER_H

#include "ns3/collective-communicator.h"
#include "ns3/collective-job.h"
#include "ns3/collective-types.h"
#include "ns3/fabric-health-monitor.h"
#include "ns3/fabric-topology.h"
#include "ns3/object-factory.h"
#include "ns3/roce-collective-transport.h"
#include "ns3/roce-nic.h"
#include "ns3/uet-collective-transport.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-collective
 * \brief Creates communicators (groups of ranks running collectives) and training jobs on a
 *        fabric of RoceNics or UetNics, and gathers their results.
 *
 * Global rank i is the i-th node given to SetRanks() (or the node of the i-th NIC given to
 * SetNics()). Every communicator gets its own transport (its own connections, as every NCCL
 * communicator has its own), of the CollectiveTransport type chosen with SetTransportType()
 * (default ns3::RoceCollectiveTransport: RoCE QPs on the RoceNic of each rank's node), given
 * the ranks' nodes (CollectiveTransport::SetRankNodes) and configured from the helper. The
 * Ultra Ethernet transport is SetTransportType("ns3::UetCollectiveTransport") (or "uet"): SES
 * WRITEs on the UetNic of each rank's node (a topology with Transports "uet" or "roce+uet").
 *  - SetConnector(): how a connection's QPs are created; default RoceNicHelper::Connect on
 *    port 0. A topology plugs in here, e.g.
 *    `helper.SetConnector(MakeCallback(&FabricTopologyHelper::Connect, topology))`;
 *  - SetRankLocations(): (server, local) of every global rank, for rail-aware rings,
 *    hierarchical AllReduce, PXN and trees; with SetNvLinkWithinServer(true) the transport
 *    charges the NVLink step latency between ranks of one server (else SetHopTypeCallback, or
 *    NETWORK for every hop);
 *  - SetTopology(): all of the above from a FabricTopologyHelper, and on NVSwitch servers every
 *    rank's NvlsEngine (NvlsEngine::GetOrCreate on its server's NVSwitch, PortDataRate = the
 *    topology's NVLink rate, port = its local index), so that NVLS and NVLSTree can run.
 *
 * Usage:
 * \code
 *   CollectiveHelper coll;
 *   coll.SetNics(nics);
 *   coll.SetCommunicatorAttribute("Channels", UintegerValue(4));
 *   Ptr<CollectiveCommunicator> world = coll.CreateWorldCommunicator();
 *   world->Enqueue(CollectiveOp::ALL_REDUCE, 64 << 20);
 *   Simulator::Run();
 *   coll.WriteCsv("collectives.csv");
 * \endcode
 */
class CollectiveHelper
{
  public:
    CollectiveHelper();

    /**
     * \brief Set the global ranks by their nodes (each with the NIC the transport needs).
     * \param nodes node of each rank (non-empty, none null; aborts naming the index
     *        otherwise)
     */
    void SetRanks(const std::vector<Ptr<Node>>& nodes);
    /**
     * \brief Set the global ranks by their RoceNics (SetRanks with their nodes).
     * \param nics NIC of each rank (none null, each aggregated to a node; aborts naming the
     *        index otherwise)
     */
    void SetNics(const std::vector<Ptr<RoceNic>>& nics);
    /**
     * \brief Choose the transport of new communicators.
     * \param typeName the TypeId name of a CollectiveTransport with a constructor (default
     *        "ns3::RoceCollectiveTransport"; "ns3::UetCollectiveTransport" for Ultra
     *        Ethernet), or the short names "roce" and "uet"; aborts naming it otherwise, or if
     *        communicators exist already
     */
    void SetTransportType(const std::string& typeName);
    /// \return the TypeId name of the transport of new communicators
    std::string GetTransportType() const;
    /// \return number of global ranks
    uint32_t GetNRanks() const;
    /**
     * \param rank a global rank (< GetNRanks(); aborts otherwise)
     * \return the RoceNic of its node (aborts if it has none)
     */
    Ptr<RoceNic> GetNic(uint32_t rank) const;
    /**
     * \brief Use every GPU of an installed topology as the global ranks (rank order), with
     *        their server/rail locations, NVLink hop types within a server and the topology's
     *        ports: over RoCE its Connect() (NVLink or NIC ports) is the connector, over UET
     *        its GetConnectionPorts() (per channel) is the transport's port selector.
     * Communicators created afterwards register with the topology's FabricHealthMonitor, so a
     * stall diagnosis lists their unfinished collectives. A topology with Transports "uet"
     * (no RoCE) selects ns3::UetCollectiveTransport unless SetTransportType was called.
     * \param topology an installed FabricTopologyHelper (aborts if null or not installed)
     */
    void SetTopology(Ptr<FabricTopologyHelper> topology);
    /**
     * \brief Register every communicator created afterwards with \p monitor (its stall
     *        diagnosis lists their unfinished collectives and stuck ranks).
     * \param monitor the monitor (null: none)
     */
    void SetHealthMonitor(Ptr<FabricHealthMonitor> monitor);
    /**
     * \brief Set the connector of new communicators' transports.
     * \param connector (src, dst, nQps) -> QP pairs (null: RoceNicHelper::Connect, port 0);
     *        RoCE only: creating a communicator over another transport with a connector set
     *        aborts
     */
    void SetConnector(RoceCollectiveTransport::Connector connector);
    /**
     * \brief Set where every global rank lives.
     * \param locations one per global rank (call after SetNics; aborts on a size mismatch)
     */
    void SetRankLocations(const std::vector<CollectiveRankLocation>& locations);
    /**
     * \brief Treat hops between ranks of one server as NVLink (for the step latency).
     * \param enable true to derive the hop type from the rank locations
     */
    void SetNvLinkWithinServer(bool enable);
    /**
     * \brief Set the hop-type query of new transports (overrides SetNvLinkWithinServer).
     * \param cb (src, dst) -> hop type, in global ranks
     */
    void SetHopTypeCallback(CollectiveTransport::HopTypeCallback cb);
    /**
     * \brief Use random (default) or zero start PSNs in the default connector.
     * \param random true for random
     */
    void SetRandomStartPsn(bool random);

    /**
     * \brief Set an attribute of new CollectiveApplications (StepSize, Slots, latencies).
     * \param name attribute name
     * \param value value
     */
    void SetApplicationAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of new CollectiveCommunicators (Channels, ChunkSize, Pxn, ...).
     * \param name attribute name
     * \param value value
     */
    void SetCommunicatorAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of new transports (RoCE: QpsPerConnection).
     * \param name attribute name
     * \param value value
     */
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Create a communicator over some global ranks.
     * \param ranks global ranks in communicator order (non-empty, distinct, < GetNRanks();
     *        aborts naming the offender)
     * \param name name for records (default "comm<index>")
     * \return the communicator, ready for Enqueue()
     */
    Ptr<CollectiveCommunicator> CreateCommunicator(const std::vector<uint32_t>& ranks,
                                                   const std::string& name = "");
    /**
     * \brief Create a communicator over every global rank, in rank order.
     * \param name name for records (default "comm<index>")
     * \return the communicator
     */
    Ptr<CollectiveCommunicator> CreateWorldCommunicator(const std::string& name = "");
    /**
     * \brief Create an empty training job (fill it, then CollectiveJob::Start).
     * \param name job name
     * \return the job
     */
    Ptr<CollectiveJob> CreateJob(const std::string& name = "");

    /**
     * \brief Tensor-parallel groups (Megatron-LM): consecutive blocks of \p tp ranks.
     * \param nRanks total ranks (a multiple of \p tp; aborts otherwise)
     * \param tp group size (>= 1)
     * \return nRanks / tp groups: {0..tp-1}, {tp..2tp-1}, ...
     */
    static std::vector<std::vector<uint32_t>> TensorParallelGroups(uint32_t nRanks, uint32_t tp);
    /**
     * \brief Data-parallel groups matching TensorParallelGroups: ranks with equal index
     *        modulo \p tp.
     * \param nRanks total ranks (a multiple of \p tp)
     * \param tp tensor-parallel size (>= 1)
     * \return tp groups: {i, i+tp, i+2tp, ...}
     */
    static std::vector<std::vector<uint32_t>> DataParallelGroups(uint32_t nRanks, uint32_t tp);

    /// \return every communicator created, in creation order
    const std::vector<Ptr<CollectiveCommunicator>>& GetCommunicators() const;
    /// \return every job created
    const std::vector<Ptr<CollectiveJob>>& GetJobs() const;
    /// \return the records of every communicator, ordered by end time
    std::vector<CollectiveRecord> GetRecords() const;
    /**
     * \brief Collective across MPI processes (every process calls it): the records of every
     *        communicator as one sequential run would give them, at process 0 (empty at the
     *        others). Each process records its own ranks (CollectiveCommunicator::GetNLocalRanks);
     *        a collective's start is the earliest of its processes' starts, its end the latest
     *        end, it completed when every rank finished, and algbw/busbw follow. Without MPI it
     *        is GetRecords(). Process 0 must simulate a rank of every communicator (aborts naming
     *        the communicator otherwise).
     * \return the merged records, ordered by end time (at process 0)
     */
    std::vector<CollectiveRecord> GatherRecords() const;
    /**
     * \brief Write GetRecords() as CSV (CollectiveRecord::WriteCsvHeader columns).
     * \param path output file (aborts naming it if it cannot be written)
     */
    void WriteCsv(const std::string& path) const;
    /**
     * \brief Fix the random streams (start PSNs) of current and future transports.
     * \param stream first stream
     * \return streams used so far (one per communicator)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /**
     * \brief What NCCL's topology detection would find for \p comm: its ranks and servers,
     *        NVLink (NVSwitch) inside servers when the topology has NVSwitches (or the transport
     *        says so) at the topology's NVLink data rate, the NIC rate of the GPU-leaf tier (or
     *        of rank 0's NIC port), one NIC per GPU and port.
     * \param comm a communicator that is set up
     * \return the system its tuner is configured with
     */
    NcclSystem TunerSystem(Ptr<CollectiveCommunicator> comm) const;
    std::vector<Ptr<Node>> m_nodes;                   //!< their nodes
    Ptr<FabricTopologyHelper> m_topology;             //!< SetTopology (or null)
    bool m_transportTypeSet;                          //!< SetTransportType was called
    RoceCollectiveTransport::Connector m_connector;   //!< connector
    Ptr<FabricHealthMonitor> m_monitor;               //!< gets the communicators' diagnosers
    std::vector<CollectiveRankLocation> m_locations;  //!< locations (or empty)
    bool m_nvLinkWithinServer;                        //!< hop type from locations
    CollectiveTransport::HopTypeCallback m_hopType;   //!< explicit hop type
    bool m_randomPsn;                                 //!< random start PSNs
    ObjectFactory m_appFactory;                       //!< applications
    ObjectFactory m_commFactory;                      //!< communicators
    ObjectFactory m_transportFactory;                 //!< transports
    std::vector<Ptr<CollectiveCommunicator>> m_comms; //!< communicators
    std::vector<Ptr<CollectiveJob>> m_jobs;           //!< jobs
    bool m_streamSet;                                 //!< AssignStreams called
    int64_t m_stream;                                 //!< first stream
};

} // namespace ns3

#endif /* COLLECTIVE_HELPER_H */
