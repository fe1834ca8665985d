/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: choice of one egress port among equal-cost candidates.
 */
#ifndef SWITCH_LOAD_BALANCER_H
#define SWITCH_LOAD_BALANCER_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/switch-flow-key.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Strategy that picks the egress port of a packet among the equal-cost ports of its
 *        destination (selected on a switch by TypeId, like a QueueDisc).
 *
 * Subclasses: EcmpLoadBalancer (5-tuple hash), EntropyEcmpLoadBalancer (5-tuple + the
 * transport's flow entropy, e.g. the RoCEv2 destination QP: "E-ECMP"), SprayLoadBalancer
 * (per-packet random). The switch hands Select() only ports that are up (FabricSwitch::SetPortUp),
 * so a strategy never picks a down port. Stateful strategies (flowlet, adaptive/least-loaded) plug
 * in here too: Select() gets the current time, and the switch installs an egress-occupancy callback
 * (SetEgressBytesCallback) they may query.
 */
class SwitchLoadBalancer : public Object
{
  public:
    /// Returns the bytes queued (admitted, not yet transmitted) at a switch port, all priorities.
    typedef Callback<uint64_t, uint32_t> EgressBytesCallback;

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    SwitchLoadBalancer();
    ~SwitchLoadBalancer() override;

    /**
     * \brief Choose an egress port.
     * \param key the packet's parsed fields
     * \param ports candidate switch-port indices, \p n >= 1 entries
     * \param n number of candidates (>= 1; with 1 the only port is returned)
     * \param now current simulation time
     * \return one element of \p ports
     */
    virtual uint32_t Select(const SwitchFlowKey& key,
                            const uint32_t* ports,
                            uint32_t n,
                            Time now) = 0;

    /**
     * \brief Set the per-switch hash seed (also the "Seed" attribute). Different seeds on
     *        different tiers avoid hash polarization.
     * \param seed any 32-bit value
     */
    void SetSeed(uint32_t seed);
    /// \return the hash seed
    uint32_t GetSeed() const;

    /**
     * \brief Install the switch's egress occupancy query (used by adaptive strategies).
     * \param cb returns bytes queued at a port
     */
    void SetEgressBytesCallback(EgressBytesCallback cb);

    /**
     * \brief Assign fixed random streams to the strategy's random variables.
     * \param stream first stream index
     * \return number of streams used
     */
    virtual int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

    uint32_t m_seed;                   //!< hash seed
    EgressBytesCallback m_egressBytes; //!< occupancy query (may be null)
};

} // namespace ns3

#endif /* SWITCH_LOAD_BALANCER_H */
