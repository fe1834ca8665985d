/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: the former name of EntropyEcmpLoadBalancer (E-ECMP), kept for scripts.
 */
#ifndef ROCE_ECMP_LOAD_BALANCER_H
#define ROCE_ECMP_LOAD_BALANCER_H

#include "entropy-ecmp-load-balancer.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Alias of EntropyEcmpLoadBalancer under its former TypeId name
 *        "ns3::RoceEcmpLoadBalancer" (E-ECMP), kept so that scripts and
 *        `SwitchHelper::SetLoadBalancer("ns3::RoceEcmpLoadBalancer")` keep working.
 *
 * It hashes whatever entropy the switch's parsers read; on a switch with RoCEv2's parser
 * (SwitchHelper installs it) that is the BTH destination QP, exactly as before. New code
 * should name "ns3::EntropyEcmpLoadBalancer".
 */
class RoceEcmpLoadBalancer : public EntropyEcmpLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoceEcmpLoadBalancer();
    ~RoceEcmpLoadBalancer() override;
};

} // namespace ns3

#endif /* ROCE_ECMP_LOAD_BALANCER_H */
