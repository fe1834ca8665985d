/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: per-packet random spraying over the equal-cost ports.
 */
#ifndef SPRAY_LOAD_BALANCER_H
#define SPRAY_LOAD_BALANCER_H

#include "switch-load-balancer.h"

#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Packet spraying: each packet independently takes a uniformly random port among the
 *        candidates (random packet spraying, Dixit et al., INFOCOM 2013; the per-packet
 *        multipath of Ultra Ethernet). Ignores the flow key and the seed; packets of one flow
 *        may arrive out of order, which the transport must tolerate.
 */
class SprayLoadBalancer : public SwitchLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SprayLoadBalancer();
    ~SprayLoadBalancer() override;

    /**
     * \brief Choose a uniformly random element of \p ports (ports[0] without a draw if n == 1).
     * \param key the packet's parsed fields (unused)
     * \param ports candidate switch-port indices
     * \param n number of candidates, >= 1 (aborts on 0)
     * \param now current simulation time (unused)
     * \return one element of \p ports
     */
    uint32_t Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now) override;

    /**
     * \brief Assign a fixed stream to the port draws.
     * \param stream stream index
     * \return 1
     */
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    Ptr<UniformRandomVariable> m_rng; //!< port draws
};

} // namespace ns3

#endif /* SPRAY_LOAD_BALANCER_H */
