/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: shortest-path equal-cost route computation over a fabric graph (switches, hosts,
 * links with an up/down state), written into the switches' forwarding tables.
 */
#ifndef FABRIC_ROUTE_COMPUTER_H
#define FABRIC_ROUTE_COMPUTER_H

#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/switch-forwarding-table.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-topology
 * \brief What the last FabricRouteComputer::Compute() did.
 */
struct FabricRouteStats
{
    uint64_t routes{0};               //!< forwarding entries written, all switches
    uint64_t unreachable{0};          //!< (switch, host) pairs routed with every link up, not now
    uint64_t forwardingTableBytes{0}; //!< memory of all forwarding tables after Freeze()
    uint64_t staticRoutes{0};         //!< static routes written (SetStaticRoute), all switches
    uint32_t computations{0};         //!< number of Compute() calls so far
    double seconds{0};                //!< wall-clock time of the last Compute()
};

/**
 * \ingroup ai-fabric-topology
 * \brief Computes shortest-path equal-cost routes over a fabric graph and writes them into the
 *        forwarding tables of its switches; recomputes them after links go down or come back.
 *
 * <b>Graph.</b> Switches (AddSwitch), each with the SwitchForwardingTable its routes are
 * written to; switch-to-switch links (AddSwitchLink), each naming the switch port at both ends;
 * host links (AddHostLink), each attaching one destination address (a host's NIC port) to one
 * switch port. Switches, links and hosts are numbered from 0 in the order they are added;
 * switch links and host links share one link numbering. Parallel links are allowed. Every link
 * is up when added; SetLinkUp() changes that.
 *
 * <b>Routes.</b> Compute() considers only the links that are up. At the switch a host is
 * attached to, the route to the host is the port of its host link. At any other switch s, the
 * route to a host attached to switch L is the equal-cost set "every port of s whose link is up
 * and whose neighbour is one hop closer to L" (hop counts over up switch links; parallel links
 * all included, so ECMP spreads over every uplink). A switch that cannot reach L, or any
 * switch when the host's link is down, gets no route to the host. Every table is cleared,
 * refilled in address order and frozen, so a table holds exactly the routes of the current
 * link state (routes added to these tables by hand are lost on Compute()).
 *
 * <b>Static routes.</b> SetStaticRoute() pins a destination's egress set at one switch: every
 * Compute() writes it over the computed route (or where there is none), as a real router's
 * static route wins over its routing protocol, until RemoveStaticRoute() or
 * ClearStaticRoutes(). Static routes ignore the link state: a pinned port that goes down stays
 * in the set, and the switch's local repair (FabricSwitch::SetPortUp) drops what it would send
 * there. They can break up-down routing: a spine route that goes down to a leaf and up again
 * can close a cycle of PFC pauses (PfcDeadlockDetector).
 *
 * <b>Reporting.</b> A (switch, host) pair that would have a route with every link up but has
 * none now is <i>unreachable</i>: counted in FabricRouteStats::unreachable and listed by
 * GetUnreachable(). Pairs that are never connected by design (e.g. different rails of a
 * rail-only fabric, another server's NVLink addresses) are not counted.
 *
 * <b>Cost.</b> Compute() runs one breadth-first search per switch with attached hosts, inside
 * its connected component of the up graph, then writes one entry per (switch, reachable host):
 * O(edge switches x switch ports + switches x hosts), no per-pair path search. Components are
 * found first, so isolated switches (e.g. one NVSwitch per server) cost only their own hosts.
 *
 * The computer only changes routes. It does not cut cables: to fail a link in the data plane
 * as well, call PfcChannel::SetLinkUp on its channel (FabricTopologyHelper::SetLinkUp does
 * both).
 */
class FabricRouteComputer : public Object
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FabricRouteComputer();
    ~FabricRouteComputer() override;

    // ---- graph ----------------------------------------------------------------------------

    /**
     * \brief Add a switch.
     * \param table the forwarding table Compute() writes (non-null; aborts otherwise)
     * \param name name used in messages ("leaf3", ...)
     * \return the switch index (0, 1, ... in call order)
     */
    uint32_t AddSwitch(Ptr<SwitchForwardingTable> table, const std::string& name);
    /**
     * \brief Add a link between two switches, up.
     * \param a switch index, < GetNSwitches()
     * \param portA port of \p a the link is cabled to (a valid port of its table)
     * \param b switch index, < GetNSwitches(), != \p a
     * \param portB port of \p b the link is cabled to
     * \return the link index
     * Aborts naming the bad switch index and the valid range.
     */
    uint32_t AddSwitchLink(uint32_t a, uint32_t portA, uint32_t b, uint32_t portB);
    /**
     * \brief Attach a host address to a switch port, up.
     * \param sw switch index, < GetNSwitches() (aborts otherwise)
     * \param port port of \p sw the host is cabled to
     * \param host the host's address; each address may be attached once (Compute() aborts
     *        naming a duplicate)
     * \return the link index
     */
    uint32_t AddHostLink(uint32_t sw, uint32_t port, Ipv4Address host);

    /// \return number of switches
    uint32_t GetNSwitches() const;
    /// \return number of links (switch links and host links)
    uint32_t GetNLinks() const;
    /// \return number of hosts (host links)
    uint32_t GetNHosts() const;
    /**
     * \param sw switch index, < GetNSwitches() (aborts otherwise)
     * \return the name given to AddSwitch()
     */
    const std::string& GetSwitchName(uint32_t sw) const;

    // ---- link state -----------------------------------------------------------------------

    /**
     * \brief Mark a link up or down. Routes change only at the next Compute(), so several
     *        links can fail or recover together.
     * \param link link index, < GetNLinks() (aborts naming the index and the valid range)
     * \param up true = up, false = down (excluded from routing)
     */
    void SetLinkUp(uint32_t link, bool up);
    /**
     * \param link link index, < GetNLinks() (aborts otherwise)
     * \return whether the link is up
     */
    bool IsLinkUp(uint32_t link) const;

    // ---- computation ----------------------------------------------------------------------

    /**
     * \brief Compute the routes of the current link state and write them into every switch's
     *        forwarding table (cleared, refilled, frozen). Call once after building the graph
     *        and again after SetLinkUp() changes.
     * \return what was written (routes, unreachable pairs, table memory, time)
     */
    const FabricRouteStats& Compute();
    /// \return the statistics of the last Compute() (all zero before the first)
    const FabricRouteStats& GetStats() const;
    /**
     * \param a switch index, < GetNSwitches()
     * \param b switch index, < GetNSwitches()
     * \return whether \p a and \p b are connected over up links, as of the last Compute()
     *         (aborts before the first Compute() or on a bad index)
     */
    bool IsConnected(uint32_t a, uint32_t b) const;
    /**
     * \brief The hosts a switch lost: routed when every link is up, no route now.
     * \param sw switch index, < GetNSwitches() (aborts otherwise, and before Compute())
     * \return their addresses in increasing order (empty when nothing is unreachable)
     */
    std::vector<Ipv4Address> GetUnreachable(uint32_t sw) const;

    // ---- static routes --------------------------------------------------------------------

    /**
     * \brief Pin a static route (see the class text): from the next Compute() on, switch \p sw
     *        forwards \p host over \p ports whatever the computed route is. Replaces an earlier
     *        static route of the same (switch, host).
     * \param sw switch index, < GetNSwitches()
     * \param host a host address attached with AddHostLink()
     * \param ports ports of \p sw, each cabled (a switch or host link of \p sw), no duplicates,
     *        not empty
     * Input errors (FABRIC_INPUT_ERROR) name the switch, the address or the port and what is
     * valid.
     */
    void SetStaticRoute(uint32_t sw, Ipv4Address host, const std::vector<uint32_t>& ports);
    /**
     * \brief Remove the static route of (switch, host); the next Compute() writes the computed
     *        route again.
     * \param sw switch index, < GetNSwitches() (input error otherwise)
     * \param host the destination
     * \return true if there was one
     */
    bool RemoveStaticRoute(uint32_t sw, Ipv4Address host);
    /// \brief Remove every static route (effective at the next Compute()).
    void ClearStaticRoutes();
    /// \return the number of static routes pinned
    uint32_t GetNStaticRoutes() const;
    /**
     * \param sw switch index, < GetNSwitches() (input error otherwise)
     * \param host a destination
     * \return the static route's ports (empty if none is pinned)
     */
    std::vector<uint32_t> GetStaticRoute(uint32_t sw, Ipv4Address host) const;

  protected:
    void DoDispose() override;

  private:
    /// One link: a switch link (b is a switch) or a host link (b is a host index).
    struct Link
    {
        uint32_t a;     //!< switch index
        uint32_t portA; //!< port of a
        uint32_t b;     //!< switch index, or host index for a host link
        uint32_t portB; //!< port of b (switch links only)
        bool host;      //!< host link
        bool up;        //!< link state
    };

    /// Abort unless \p sw is a switch index, naming \p what.
    void CheckSwitch(uint32_t sw, const char* what) const;
    /// Abort unless Compute() has run and covered switch \p sw, naming \p what.
    void CheckComputed(uint32_t sw, const char* what) const;
    /// Abort unless \p link is a link index, naming \p what.
    void CheckLink(uint32_t link, const char* what) const;
    /**
     * \brief Label the connected components of the switch graph.
     * \param onlyUp consider only links that are up
     * \param[out] comp component of every switch
     * \return number of components
     */
    uint32_t Components(bool onlyUp, std::vector<uint32_t>& comp) const;

    std::vector<Ptr<SwitchForwardingTable>> m_tables; //!< per switch
    std::vector<std::string> m_names;                 //!< per switch
    std::vector<Link> m_links;                        //!< every link
    std::vector<uint32_t> m_hostAddr;                 //!< address per host (host order)
    std::vector<uint32_t> m_hostLink;                 //!< link index per host
    std::vector<uint32_t> m_byAddress;                //!< host indices by address (cached)
    std::vector<uint32_t> m_comp;                     //!< component per switch, up links
    std::vector<uint32_t> m_compAll;                  //!< component per switch, all links
    std::vector<uint8_t> m_hostUp;                    //!< host link up, as of Compute()
    bool m_computed;                                  //!< Compute() has run
    FabricRouteStats m_stats;                         //!< last Compute()
    /// Static routes: (switch, host address) -> ports (SetStaticRoute)
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> m_static;
};

} // namespace ns3

#endif /* FABRIC_ROUTE_COMPUTER_H */
