/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: ECMP that also hashes the transport's flow entropy (E-ECMP).
 */
#ifndef ENTROPY_ECMP_LOAD_BALANCER_H
#define ENTROPY_ECMP_LOAD_BALANCER_H

#include "ecmp-load-balancer.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief ECMP over the 5-tuple plus the transport's flow entropy that the switch's entropy
 *        parser read (SwitchFlowKey::entropy, see SwitchEntropyParserTable).
 *
 * With RoCEv2's parser (RoceEntropyParser, entropy = the 24-bit BTH destination QP) this is
 * the Enhanced ECMP ("E-ECMP") of Meta's RoCE training fabrics (Gangidi et al., "RDMA over
 * Ethernet for Distributed AI Training at Meta Scale", SIGCOMM 2024): connections that use
 * several QPs between the same pair of NICs (and the same UDP ports) spread over the
 * equal-cost paths, while each QP stays on one path. Packets without entropy
 * (SwitchFlowKey::HasEntropy() false) hash exactly as with EcmpLoadBalancer of the same seed.
 */
class EntropyEcmpLoadBalancer : public EcmpLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    EntropyEcmpLoadBalancer();
    ~EntropyEcmpLoadBalancer() override;

  protected:
    /**
     * \brief The ECMP fields, then the entropy (key.entropyBytes bytes, big-endian) when the
     *        key has one: 17 to 21 bytes.
     * \param key the packet's parsed fields
     * \param buffer destination, MAX_HASH_INPUT_BYTES bytes
     * \return number of bytes written
     */
    uint32_t PackHashInput(const SwitchFlowKey& key, uint8_t* buffer) const override;
};

} // namespace ns3

#endif /* ENTROPY_ECMP_LOAD_BALANCER_H */
