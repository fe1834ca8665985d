/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: global (CONGA-style) load balancing: leaf-to-leaf path congestion carried on
 * data packets and fed back to the sending leaf.
 */
#ifndef CONGA_LOAD_BALANCER_H
#define CONGA_LOAD_BALANCER_H

#include "flowlet-load-balancer.h"

#include "ns3/data-rate.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Counters of a CongaLoadBalancer.
 */
struct CongaCounters
{
    uint64_t stamped{0};      //!< packets this leaf sent into the fabric with an LBTag
    uint64_t feedbackSent{0}; //!< of those, packets that carried feedback
    uint64_t feedbackUsed{0}; //!< feedback entries received (Congestion-To-Leaf updates)
    uint64_t ceUpdates{0};    //!< congestion records taken (Congestion-From-Leaf updates)
    uint64_t remoteChoices{
        0}; //!< new flowlets where a locally least-loaded uplink lost by its remote metric
};

/**
 * \ingroup ai-fabric-lb
 * \brief CONGA-style global load balancing (Alizadeh et al., "CONGA: distributed
 *        congestion-aware load balancing for datacenters", SIGCOMM 2014): a leaf chooses the
 *        uplink of a new flowlet by the congestion of the whole path to the destination leaf,
 *        learned from the destination, so it avoids a congested spine-to-leaf link it cannot
 *        see.
 *
 * <b>Fields.</b> CONGA's overlay fields, with CONGA's widths, ride in the IPv4
 * Identification field of the data packets (16 bits: the model adds no overlay bytes, where
 * CONGA's VXLAN encapsulation would add 50): bit 15 fields valid, bits 14-11 LBTag (the
 * source leaf's uplink, 4 bits: at most 16 uplinks), bits 10-8 CE (path congestion, 3 bits),
 * bit 7 feedback valid, bits 6-3 FB_LBTag, bits 2-0 FB_Metric. The switches update the IPv4
 * checksum (RFC 1624); the destination leaf clears the field before the host sees it.
 *
 * <b>Congestion.</b> Every switch running this balancer measures each egress port with a
 * discounting rate estimator (DRE): a register X adds every packet's bytes and decays by
 * (1 - Alpha) every DreInterval, so X / (rate x DreInterval / Alpha) estimates the port's
 * utilization, quantized to 3 bits (0..7, 7 = at or above 7/8 of the rate). The source leaf
 * stamps LBTag and CE = its uplink's value; every switch on the way raises CE to its egress
 * port's value; the destination leaf records CE in Congestion-From-Leaf[source leaf][LBTag]
 * and sends it back on packets to that leaf (round robin over the LBTags it holds, those
 * changed since they were last fed back first), and the
 * source leaf stores it in Congestion-To-Leaf[destination leaf][FB_LBTag]. The destination
 * feeds back only entries younger than MetricAging (else a path left for being congested
 * would keep its old metric and never be tried again); at the source an entry is held for
 * MetricAging and then decays by one step every further MetricAging ("gradually decays", as
 * the paper's metric aging): a path left at 7 is tried again step by step, not by every
 * flowlet at once, which would herd the flows back onto it.
 *
 * <b>Choice.</b> Flowlets as FlowletLoadBalancer; a new flowlet takes the candidate uplink
 * whose max(local DRE, Congestion-To-Leaf) is smallest; on a tie the flow's previous uplink
 * if it is among the best, else a random one of them (the balancer's stream). Switches
 * other than the source leaf (spines, or destinations unknown to the fabric) choose by local
 * DRE alone.
 *
 * The balancer learns its place from the topology helper (SetFabricInfo: leaf index, host
 * ports, the leaf of each host address; FabricTopologyHelper gives it to every switch after
 * Install). Cost: the flowlet lookup, one DRE update and one 16-bit rewrite per packet, and
 * a hash-map lookup of the destination leaf per packet at the source leaf.
 */
class CongaLoadBalancer : public FlowletLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    CongaLoadBalancer();
    ~CongaLoadBalancer() override;

    /**
     * \brief Learn this switch's place: leaf index, host ports, port rates, leaves of hosts.
     *        Called again with the same shape (a cable's rate changed), it takes the new
     *        rates and keeps its estimators and tables.
     * \param info the switch's fabric information; aborts, naming the leaf and the count,
     *        if a leaf has more than 16 uplinks (LBTag is 4 bits)
     */
    void SetFabricInfo(const SwitchFabricInfo& info) override;
    /// \return true: the balancer reads and rewrites every forwarded packet's CONGA fields
    bool WantsEgressHook() const override;
    /**
     * \brief Update the egress port's DRE and the packet's CONGA fields (stamp at the source
     *        leaf, raise CE in transit, record and clear at the destination leaf).
     * \param ipv4 the packet's IPv4 header, writable (the caller updates the checksum)
     * \param key the packet's parsed fields (ingressPort set)
     * \param outPort the egress port
     * \param bytes the bytes the packet occupies on the wire
     * \param now current simulation time
     */
    void OnEgress(uint8_t* ipv4,
                  const SwitchFlowKey& key,
                  uint32_t outPort,
                  uint32_t bytes,
                  Time now) override;

    /**
     * \param port an egress port
     * \param now current simulation time
     * \return the port's quantized utilization, 0..7
     */
    uint8_t GetLocalMetric(uint32_t port, Time now);
    /**
     * \param leaf a destination leaf
     * \param tag an LBTag (the index of an uplink among this leaf's uplinks)
     * \param now current simulation time
     * \return Congestion-To-Leaf[leaf][tag] aged (held for MetricAging, then one lower per
     *         further MetricAging); 0 if unknown
     */
    uint8_t GetRemoteMetric(uint32_t leaf, uint32_t tag, Time now) const;
    /// \return the counters since construction
    const CongaCounters& GetCongaCounters() const;

    /// Bits of the IPv4 Identification field (see the class comment).
    static constexpr uint16_t VALID = 0x8000;    //!< fields present
    static constexpr uint16_t FB_VALID = 0x0080; //!< feedback present
    /**
     * \brief Pack the fields into the 16-bit IPv4 Identification value.
     * \param tag LBTag, 0..15
     * \param ce CE, 0..7
     * \param fb true if feedback follows
     * \param fbTag FB_LBTag, 0..15
     * \param fbMetric FB_Metric, 0..7
     * \return the value
     */
    static uint16_t Pack(uint32_t tag, uint32_t ce, bool fb, uint32_t fbTag, uint32_t fbMetric);

  protected:
    uint32_t ChoosePath(const SwitchFlowKey& key,
                        uint32_t flowHash,
                        const uint32_t* ports,
                        uint32_t n,
                        uint32_t previous,
                        Time now) override;

  private:
    /// A discounting rate estimator of one port.
    struct Dre
    {
        double bytes{0};   //!< the register X
        int64_t period{0}; //!< the DreInterval period X was last decayed to
    };

    /// One table entry: a 3-bit metric and when it was learned.
    struct Metric
    {
        int64_t at{0};      //!< time step it was learned
        uint8_t value{0};   //!< 0..7
        uint8_t fedBack{8}; //!< value last fed back (8: never; Congestion-From-Leaf only)
        bool valid{false};  //!< ever learned
    };

    /// \return the leaf of an address, UINT32_MAX if unknown
    uint32_t LeafOf(uint32_t ip) const;
    /// \return \p port's DRE decayed to \p now
    Dre& Decay(uint32_t port, int64_t now);

    Time m_dreInterval;                  //!< attribute DreInterval
    double m_alpha;                      //!< attribute Alpha
    Time m_aging;                        //!< attribute MetricAging
    SwitchFabricInfo m_info;             //!< this switch's place
    std::vector<int32_t> m_tagOfPort;    //!< LBTag of each port (-1: not an uplink)
    uint32_t m_uplinks{0};               //!< uplinks of this leaf (0 if not a leaf)
    uint32_t m_leaves{0};                //!< leaves of the fabric
    std::vector<Dre> m_dre;              //!< by port
    std::vector<double> m_fullScale;     //!< by port: X at 100 % utilization, bytes
    std::vector<double> m_decay;         //!< (1 - Alpha)^k, k = 0..63
    std::vector<Metric> m_toLeaf;        //!< Congestion-To-Leaf, [leaf x uplinks + tag]
    std::vector<Metric> m_fromLeaf;      //!< Congestion-From-Leaf, [leaf x 16 + tag]
    std::vector<uint8_t> m_nextFeedback; //!< by leaf: next tag to feed back
    CongaCounters m_conga;               //!< counters
    std::vector<uint8_t> m_local;        //!< scratch of ChoosePath: candidates' local metrics
    std::vector<uint8_t> m_path;         //!< scratch of ChoosePath: candidates' path metrics
};

} // namespace ns3

#endif /* CONGA_LOAD_BALANCER_H */
