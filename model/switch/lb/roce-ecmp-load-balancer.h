/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: E-ECMP, ECMP that also hashes the RoCEv2 destination QP.
 */
#ifndef ROCE_ECMP_LOAD_BALANCER_H
#define ROCE_ECMP_LOAD_BALANCER_H

#include "ecmp-load-balancer.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Enhanced ECMP ("E-ECMP") of Meta's RoCE training fabrics (Gangidi et al., "RDMA over
 *        Ethernet for Distributed AI Training at Meta Scale", SIGCOMM 2024): the ECMP 5-tuple
 *        hash plus the 24-bit BTH destination QP of RoCEv2 packets.
 *
 * Connections that use several QPs between the same pair of NICs (and the same UDP ports)
 * then spread over the equal-cost paths, while each QP stays on one path (no reordering
 * within a QP). Packets without a BTH (SwitchFlowKey::hasBth false) hash exactly as with
 * EcmpLoadBalancer of the same seed.
 */
class RoceEcmpLoadBalancer : public EcmpLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoceEcmpLoadBalancer();
    ~RoceEcmpLoadBalancer() override;

  protected:
    /**
     * \brief The ECMP fields, then destQp (3 B, big-endian) when key.hasBth: 17 or 20 bytes.
     * \param key the packet's parsed fields
     * \param buffer destination, MAX_HASH_INPUT_BYTES bytes
     * \return number of bytes written
     */
    uint32_t PackHashInput(const SwitchFlowKey& key, uint8_t* buffer) const override;
};

} // namespace ns3

#endif /* ROCE_ECMP_LOAD_BALANCER_H */
