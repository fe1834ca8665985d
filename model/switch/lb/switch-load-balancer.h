/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: choice of one egress port among equal-cost candidates.
 */
#ifndef SWITCH_LOAD_BALANCER_H
#define SWITCH_LOAD_BALANCER_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/switch-flow-key.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief A switch's place in its fabric, for balancers that use more than the packet (e.g.
 *        CongaLoadBalancer): FabricTopologyHelper gives it to every scale-out switch's
 *        balancer after Install (SwitchLoadBalancer::SetFabricInfo).
 */
struct SwitchFabricInfo
{
    /// leaf value of a switch that is not a leaf (a spine or core switch)
    static constexpr uint32_t NOT_A_LEAF = 0xffffffffu;

    uint32_t leaf{NOT_A_LEAF};   //!< this switch's leaf index (0..leaves-1), or NOT_A_LEAF
    uint32_t leaves{0};          //!< leaves of the fabric
    std::vector<bool> hostPort;  //!< per port: true if it faces a host (GPU NIC port)
    std::vector<DataRate> rates; //!< per port: its data rate
    /// The leaf of every host address (IPv4, host order), shared by the fabric's switches.
    std::shared_ptr<const std::unordered_map<uint32_t, uint32_t>> leafOfIp;
};

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
     * \brief Learn the switch's place in the fabric (the base ignores it).
     * \param info leaf index, host ports, port rates, leaves of the host addresses
     */
    virtual void SetFabricInfo(const SwitchFabricInfo& info);
    /**
     * \return true if the switch must call OnEgress() for every packet it forwards (the base:
     *         false; read once when the switch is configured)
     */
    virtual bool WantsEgressHook() const;
    /**
     * \brief A packet leaves on \p outPort (only if WantsEgressHook()): the strategy may read
     *        and rewrite the IPv4 Identification field (bytes 4-5; the switch updates the
     *        checksum). The base does nothing.
     * \param ipv4 the packet's IPv4 header, writable
     * \param key the packet's parsed fields (ingressPort set)
     * \param outPort the egress port
     * \param bytes the bytes the packet occupies on the wire
     * \param now current simulation time
     */
    virtual void OnEgress(uint8_t* ipv4,
                          const SwitchFlowKey& key,
                          uint32_t outPort,
                          uint32_t bytes,
                          Time now);

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
