/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the traffic-engineered tier's data plane: exact-match path pins that override
 * ECMP at a switch.
 */
#ifndef TE_LOAD_BALANCER_H
#define TE_LOAD_BALANCER_H

#include "entropy-ecmp-load-balancer.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Counters of a TeLoadBalancer.
 */
struct TeCounters
{
    uint64_t pinned{0};   //!< packets that followed a pin
    uint64_t stale{0};    //!< packets whose pin named a port not among the live candidates
    uint64_t unpinned{0}; //!< packets without a pin (hashed, as entropy ECMP)
};

/**
 * \ingroup ai-fabric-lb
 * \brief Exact-match path pins that override ECMP, written by a central traffic-engineering
 *        controller (FabricTeController), as an SDN controller installs flow entries above
 *        the routing table's ECMP groups (Hong et al., "Achieving high utilization with
 *        software-driven WAN", SIGCOMM 2013; Meta's centralized traffic engineering for its
 *        RoCE training fabric, Gangidi et al., SIGCOMM 2024, section 5).
 *
 * A pin maps a flow to one egress port. Two match widths: a host pair (source and
 * destination IPv4 address; every flow between them) and a 5-tuple (the pair, the protocol
 * and both ports, e.g. one RoCE QP's UDP source port); a 5-tuple pin wins over a pair pin.
 * A packet whose pin names a live candidate of its route takes that port; a pin whose port
 * is not among the candidates (its link failed and routing removed it before the controller
 * replanned) is ignored for that packet and counted as stale, and the packet is hashed as by
 * EntropyEcmpLoadBalancer, as are packets without a pin. Cost per packet: one or two hash-map
 * lookups and a scan of the candidates; the tables grow only when the controller pins.
 */
class TeLoadBalancer : public EntropyEcmpLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TeLoadBalancer();
    ~TeLoadBalancer() override;

    /**
     * \brief The pinned port if the packet has a pin naming a candidate, else the hash's.
     * \param key the packet's parsed fields
     * \param ports candidate switch-port indices
     * \param n number of candidates, >= 1
     * \param now current simulation time
     * \return one element of \p ports
     */
    uint32_t Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now) override;

    /**
     * \brief Pin every flow from \p srcIp to \p dstIp to \p port (replaces an earlier pin of
     *        the pair).
     * \param srcIp source address, host byte order
     * \param dstIp destination address, host byte order
     * \param port egress port index of this switch
     */
    void PinPair(uint32_t srcIp, uint32_t dstIp, uint32_t port);
    /**
     * \brief Pin one 5-tuple to \p port (replaces an earlier pin of it).
     * \param key the flow's fields (srcIp, dstIp, protocol, srcPort, dstPort; others ignored)
     * \param port egress port index of this switch
     */
    void PinFlow(const SwitchFlowKey& key, uint32_t port);
    /// \brief Remove every pin (the counters stay).
    void ClearPins();
    /// \return number of pins (pairs and 5-tuples)
    uint32_t GetNPins() const;
    /// \return the counters since construction
    const TeCounters& GetTeCounters() const;

  protected:
    void DoDispose() override;

  private:
    /// \return the 64-bit key of a host pair
    static uint64_t PairKey(uint32_t srcIp, uint32_t dstIp);
    /// \return the 64-bit key of a 5-tuple's protocol and ports (with PairKey: the flow)
    static uint64_t PortsKey(const SwitchFlowKey& key);

    /// Hash of a (pair, ports) key.
    struct FlowHash
    {
        /// \return the hash of \p k
        std::size_t operator()(const std::pair<uint64_t, uint64_t>& k) const
        {
            return std::hash<uint64_t>()(k.first * 0x9E3779B97F4A7C15ull ^ k.second);
        }
    };

    std::unordered_map<uint64_t, uint32_t> m_pairPins; //!< host pair -> port
    std::unordered_map<std::pair<uint64_t, uint64_t>, uint32_t, FlowHash>
        m_flowPins;  //!< 5-tuple -> port
    TeCounters m_te; //!< counters
};

} // namespace ns3

#endif /* TE_LOAD_BALANCER_H */
