/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: resilient (consistent) ECMP: a member that leaves moves only its own flows.
 */
#ifndef RESILIENT_ECMP_LOAD_BALANCER_H
#define RESILIENT_ECMP_LOAD_BALANCER_H

#include "entropy-ecmp-load-balancer.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Resilient ECMP: a flow keeps its port when other members of its ECMP group leave
 *        or come back; only the flows of a member that leaves move, spread evenly over the
 *        members that remain.
 *
 * Plain ECMP takes ports[hash % n]: when a member fails and n changes, most flows change
 * port (RFC 2992, section 4: about (n-1)/n of them for a group of n), reordering and
 * restarting the congestion state of flows the failure did not touch. Switch vendors ship
 * "resilient hashing" against it (a bucket table whose buckets keep their member). This
 * balancer gets the same property from rendezvous (highest-random-weight) hashing (Thaler
 * and Ravishankar, IEEE/ACM ToN 1998): each candidate port p gets the weight
 * W(p) = Mix(Hash(flow) XOR p x 0x9E3779B9) and the flow takes the port of largest weight.
 * A member leaving changes no other member's weight, so only the flows whose maximum it was
 * move, each to its second-largest weight: uniformly over the survivors. The flow hash is
 * EntropyEcmpLoadBalancer's (5-tuple, Seed and the transport's entropy, e.g. the RoCEv2
 * destination QP). Cost per packet: one Murmur3 hash and one 32-bit mix per candidate
 * (fmix32 of MurmurHash3), no state, no allocation; packets of a flow never reorder while
 * the group is unchanged.
 */
class ResilientEcmpLoadBalancer : public EntropyEcmpLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ResilientEcmpLoadBalancer();
    ~ResilientEcmpLoadBalancer() override;

    /**
     * \brief Choose the candidate of largest rendezvous weight (the first of equal weights).
     * \param key the packet's parsed fields
     * \param ports candidate switch-port indices
     * \param n number of candidates, >= 1 (aborts on 0)
     * \param now current simulation time (unused)
     * \return one element of \p ports
     */
    uint32_t Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now) override;

    /**
     * \brief The rendezvous weight of a port for a flow hash.
     * \param flowHash Hash() of the flow
     * \param port a switch-port index
     * \return the weight (32 bits)
     */
    static uint32_t Weight(uint32_t flowHash, uint32_t port);
};

} // namespace ns3

#endif /* RESILIENT_ECMP_LOAD_BALANCER_H */
