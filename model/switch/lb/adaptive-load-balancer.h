/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: adaptive (dynamic) load balancing: the least-loaded egress port, per packet or
 * per flowlet.
 */
#ifndef ADAPTIVE_LOAD_BALANCER_H
#define ADAPTIVE_LOAD_BALANCER_H

#include "flowlet-load-balancer.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Adaptive load balancing: a packet (Granularity packet) or a new flowlet
 *        (Granularity flowlet) takes the candidate port of least load, measured locally from
 *        the port's queue and its recent transmissions, as switch ASICs do (Broadcom's dynamic
 *        load balancing, per-packet or flowlet mode; NVIDIA Spectrum's adaptive routing,
 *        per packet, with the NIC placing out-of-order packets).
 *
 * Load of port p = its queued bytes (all priorities: the switch's egress occupancy,
 * SharedBufferMmu::GetEgressPortBytes) + LoadWeight x the bytes this balancer sent to p in
 * the current and the previous LoadWindow (its recent utilization, in bytes). The smallest
 * load wins; equal loads are broken by the flow hash (so that idle ports spread flows, and
 * one flow's ties fall the same way). It sees only this switch: a congested link two hops
 * away is invisible to it (the global tier's job).
 *
 * Per packet, a flow's packets may take different ports and arrive out of order: the
 * transport must tolerate it (UET RUD; RoCE only with out-of-order placement). Per
 * flowlet, a flow changes port only after FlowletGap of silence (FlowletLoadBalancer).
 *
 * Cost: the flowlet table lookup (flowlet mode, O(1)) and, per decision, one occupancy query
 * and one load update per candidate; per-port state is sized by the largest port index seen,
 * never per packet. Aborts, naming it, when used without an occupancy query (on a switch
 * other than FabricSwitch, which installs it).
 */
class AdaptiveLoadBalancer : public FlowletLoadBalancer
{
  public:
    /// Decision granularity.
    enum Granularity
    {
        PACKET,  //!< every packet takes the least-loaded port
        FLOWLET, //!< every new flowlet does
    };

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    AdaptiveLoadBalancer();
    ~AdaptiveLoadBalancer() override;

    /**
     * \brief The least-loaded candidate (Granularity packet) or FlowletLoadBalancer's choice
     *        with the least-loaded candidate for each new flowlet.
     * \param key the packet's parsed fields
     * \param ports candidate switch-port indices
     * \param n number of candidates, >= 1 (aborts on 0)
     * \param now current simulation time
     * \return one element of \p ports
     */
    uint32_t Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now) override;

    /**
     * \param port a switch-port index
     * \param now current simulation time
     * \return the port's load now, bytes (queued + LoadWeight x recently sent)
     */
    double GetLoad(uint32_t port, Time now);

  protected:
    uint32_t ChoosePath(const SwitchFlowKey& key,
                        uint32_t flowHash,
                        const uint32_t* ports,
                        uint32_t n,
                        uint32_t previous,
                        Time now) override;
    void NotifySent(uint32_t port, uint32_t bytes, Time now) override;

  private:
    /// Bytes sent to one port in the current and the previous window.
    struct PortLoad
    {
        int64_t windowStart{0}; //!< time step the current window began
        uint64_t current{0};    //!< bytes sent in the current window
        uint64_t previous{0};   //!< bytes sent in the previous window
    };

    /// \return the port's window state advanced to \p now
    PortLoad& Advance(uint32_t port, int64_t now);

    Granularity m_granularity;    //!< attribute Granularity
    Time m_window;                //!< attribute LoadWindow
    double m_weight;              //!< attribute LoadWeight
    std::vector<PortLoad> m_load; //!< by port index
    std::vector<double> m_loads;  //!< scratch: the candidates' loads in ChoosePath
};

} // namespace ns3

#endif /* ADAPTIVE_LOAD_BALANCER_H */
