/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the traffic-engineered load-balancing tier: a central controller that places a
 * flow matrix over the fabric's links and pins the paths at the switches.
 */
#ifndef FABRIC_TE_CONTROLLER_H
#define FABRIC_TE_CONTROLLER_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/switch-flow-key.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricTopologyHelper;
class FabricSwitch;

/**
 * \ingroup ai-fabric
 * \brief One demand of a traffic-engineering plan and where the plan put it.
 */
struct FabricTeDemand
{
    Ipv4Address src;             //!< source NIC port address
    Ipv4Address dst;             //!< destination NIC port address
    double rateBps{0};           //!< demanded rate, bit/s
    bool flow{false};            //!< a 5-tuple demand (key) rather than every flow of the pair
    SwitchFlowKey key;           //!< the 5-tuple if flow
    std::vector<uint32_t> links; //!< the planned path, as topology link indices in order
    std::vector<uint32_t> nodes; //!< the nodes on it, source GPU to destination GPU (ids)
    double headroomBps{0};       //!< the path's smallest spare capacity before this demand, bit/s
    bool met{false};             //!< headroomBps >= rateBps (else routed best effort)
    bool routed{false};          //!< a path exists (false: unreachable, not pinned)
};

/**
 * \ingroup ai-fabric
 * \brief The result of one FabricTeController::Plan().
 */
struct FabricTePlan
{
    Time at;                             //!< simulation time of the plan
    uint32_t number{0};                  //!< plans so far, this one included
    std::vector<FabricTeDemand> demands; //!< in placement order (largest rate first)
    std::vector<double> loadBps;         //!< planned load per directed link: [2 x link + dir]
    std::vector<double> capacityBps;     //!< capacity per directed link (0: down), bit/s
    double maxUtilization{0};            //!< largest planned load / capacity over links
    uint32_t unmet{0};                   //!< demands routed best effort (no path had room)
    uint32_t unreachable{0};             //!< demands with no path at all
    uint32_t pins{0};                    //!< pins written into the switches
};

/**
 * \ingroup ai-fabric
 * \brief Central traffic engineering (the fourth load-balancing tier): takes a flow matrix
 *        (a collective's communication pattern or measured rates), places every demand on a
 *        path with constrained shortest-path first over the links' capacities, pins the paths
 *        with exact-match entries that override ECMP (TeLoadBalancer), and places again
 *        RecomputeDelay after a link fails or comes back.
 *
 * <b>Placement.</b> Demands are placed one by one, largest rate first (ties in the order they
 * were added). A demand's candidate paths are the fabric's shortest paths between its two
 * addresses as routing has them now (the equal-cost sets of the forwarding tables: up-down
 * paths only, so a plan never creates a cyclic buffer dependency); among them the controller
 * takes the one with the largest spare capacity (capacity x MaxUtilization minus the load
 * planned so far, minimum over the path's links; ties to the first in port order), which is
 * CSPF with the widest shortest path as its tie-break. If even that path has less room than
 * the demand, the demand is routed there anyway ("best effort"), counted in
 * FabricTePlan::unmet and reported on stderr with its addresses and rate. Capacity is the
 * current rate of each link (a degraded link counts at its degraded rate; a down link not at
 * all). The plan is written as pins at every switch of the path with more than one candidate
 * (pair pins for AddDemand, 5-tuple pins for AddFlowDemand); every earlier pin is removed
 * first.
 *
 * <b>Failures.</b> The controller follows FabricTopologyHelper's LinkState trace: a cable cut
 * or restored with SetLinkUp() schedules a new Plan() RecomputeDelay later (several changes
 * within that time give one plan). Until then, routing has already removed the failed port
 * from the equal-cost sets and the packets of pins that named it are hashed over the rest
 * (TeCounters::stale). Production controllers react in seconds (periodic) with event-driven
 * recomputation on failures; the delay is the user's.
 *
 * Every switch on a demand's path with more than one candidate must run a TeLoadBalancer
 * (SwitchHelper::SetLoadBalancerByName("te"), --lb=te); Plan() aborts naming the switch
 * otherwise. Cost: one depth-first search over the equal-cost graph per demand, O(demands x
 * switches x ports).
 */
class FabricTeController : public Object
{
  public:
    /**
     * TracedCallback signature of Planned.
     * \param plan the plan just written into the switches
     */
    typedef void (*PlannedCallback)(const FabricTePlan& plan);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricTeController();
    ~FabricTeController() override;

    /**
     * \brief Control this fabric (after its Install()); follows its LinkState trace.
     * \param topology the installed fabric (aborts if it is null or not installed)
     */
    void SetTopology(Ptr<FabricTopologyHelper> topology);

    /**
     * \brief Demand \p rate from \p src to \p dst: every flow between the two addresses.
     * \param src a NIC port address of the fabric
     * \param dst a NIC port address of the fabric, != src
     * \param rate > 0 bit/s
     * Aborts naming the address or rate if one is unknown or invalid.
     */
    void AddDemand(Ipv4Address src, Ipv4Address dst, DataRate rate);
    /**
     * \brief Demand \p rate between two GPUs, on the NIC ports their \p index-th connection
     *        uses (FabricTopologyHelper::GetConnectionPorts).
     * \param srcRank source GPU, < GetNRanks()
     * \param dstRank destination GPU, < GetNRanks(), != srcRank, on another server
     * \param rate > 0 bit/s
     * \param index connection (QP or channel) index, selects the NIC port on multi-port NICs
     */
    void AddDemand(uint32_t srcRank, uint32_t dstRank, DataRate rate, uint32_t index = 0);
    /**
     * \brief Demand \p rate for one 5-tuple (e.g. a RoCE QP: its UDP source port).
     * \param key srcIp, dstIp, protocol, srcPort, dstPort (host byte order); addresses of
     *        the fabric
     * \param rate > 0 bit/s
     */
    void AddFlowDemand(const SwitchFlowKey& key, DataRate rate);
    /**
     * \brief Read demands from CSV lines "src_rank,dst_rank,rate_bps" (a header line and
     *        lines starting with '#' are skipped).
     * \param path the file (aborts naming it and the line if it cannot be read or parsed)
     * \return number of demands read
     */
    uint32_t ReadDemandsCsv(const std::string& path);
    /// \brief Forget every demand (the pins stay until the next Plan()).
    void ClearDemands();
    /// \return number of demands
    uint32_t GetNDemands() const;

    /**
     * \brief Place every demand and write the pins into the switches (now).
     * \return the plan (also GetPlan())
     */
    const FabricTePlan& Plan();
    /// \return the last plan (empty before the first Plan())
    const FabricTePlan& GetPlan() const;
    /**
     * \brief Write the last plan as CSV, one row per demand: plan, src, dst, rate_bps,
     *        headroom_bps, met, path (node names joined by '>').
     * \param path output file (aborts naming it if it cannot be written)
     */
    void WritePlanCsv(const std::string& path) const;

  protected:
    void DoDispose() override;

  private:
    /// One side of a directed link as the search sees it.
    struct Hop
    {
        uint32_t link{UINT32_MAX}; //!< topology link index
        uint8_t dir{0};            //!< 0: from the channel's device 0, 1: from device 1
        uint32_t next{UINT32_MAX}; //!< node id at the far end
    };

    /// Check and store one demand.
    void Add(FabricTeDemand d, const std::string& what);
    /// Build the port graph (switch ports and host ports to links) of the current fabric.
    void BuildGraph();
    /**
     * \brief The widest path from node \p node to \p dst over the equal-cost graph.
     * \param node a switch's node id
     * \param dst destination address, host byte order
     * \param[out] port the chosen egress port of \p node (UINT32_MAX if none)
     * \return the path's spare capacity, bit/s (negative if over; -inf if no path)
     */
    double Widest(uint32_t node, uint32_t dst, uint32_t& port);
    /// The topology's LinkState trace: schedule a new plan.
    void LinkStateChanged(uint32_t link, bool up);

    Ptr<FabricTopologyHelper> m_topology;                       //!< the fabric
    Time m_recomputeDelay;                                      //!< attribute RecomputeDelay
    double m_maxUtilization;                                    //!< attribute MaxUtilization
    std::vector<FabricTeDemand> m_demands;                      //!< demands in the order added
    FabricTePlan m_plan;                                        //!< the last plan
    EventId m_pending;                                          //!< the scheduled re-plan
    std::unordered_map<uint64_t, Hop> m_portHop;                //!< (node id << 32 | port) -> hop
    std::unordered_map<uint32_t, uint32_t> m_hostNode;          //!< address -> GPU node id
    std::unordered_map<uint32_t, Hop> m_hostHop;                //!< address -> the host's first hop
    std::unordered_map<uint32_t, Ptr<FabricSwitch>> m_switchOf; //!< node id -> switch
    std::unordered_map<uint32_t, std::pair<double, uint32_t>> m_memo; //!< Widest's memo
    TracedCallback<const FabricTePlan&> m_plannedTrace;               //!< trace Planned
};

} // namespace ns3

#endif /* FABRIC_TE_CONTROLLER_H */
