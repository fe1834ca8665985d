/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: flowlet switching: a flow may change path after an idle gap.
 */
#ifndef FLOWLET_LOAD_BALANCER_H
#define FLOWLET_LOAD_BALANCER_H

#include "entropy-ecmp-load-balancer.h"

#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-lb
 * \brief Counters of a flowlet-based balancer (FlowletLoadBalancer, AdaptiveLoadBalancer).
 */
struct FlowletCounters
{
    uint64_t decisions{0};   //!< Select() calls with more than one candidate
    uint64_t flowlets{0};    //!< new flowlets (a path was chosen)
    uint64_t pathChanges{0}; //!< new flowlets that took another port than the flow's last one
};

/**
 * \ingroup ai-fabric-lb
 * \brief Flowlet switching: the packets of a flow keep their port while they come closer
 *        together than FlowletGap; after a longer silence the next packet starts a new
 *        flowlet, which may take another port (Kandula et al., "Dynamic load balancing without
 *        packet reordering", SIGCOMM CCR 2007 (FLARE); Vanini et al., "Let it flow", NSDI
 *        2017 (LetFlow); Broadcom's DLB flowlet mode).
 *
 * If FlowletGap exceeds the largest delay difference between the paths, the last packet of
 * the previous flowlet has arrived before the first of the next one: no reordering. Smaller
 * gaps move flows more often and may reorder them.
 *
 * State: a flowlet table of TableSize entries indexed by the flow hash
 * (EntropyEcmpLoadBalancer's: 5-tuple, Seed, transport entropy) modulo TableSize, each the
 * flow's port, its position among the candidates and the time of its last packet, as in
 * hardware flowlet tables (no tags: two flows hashed to one entry share its flowlet). The
 * table is allocated when TableSize is set, never per packet; one lookup and one store per
 * packet (O(1)). An entry whose port is not at its position among the packet's candidates
 * (a route changed, a member left, or another destination shares the entry) starts a new
 * flowlet at once.
 *
 * A new flowlet's port: ChoosePath(). Here uniformly at random among the candidates
 * (LetFlow); AdaptiveLoadBalancer overrides it with the least-loaded port.
 */
class FlowletLoadBalancer : public EntropyEcmpLoadBalancer
{
  public:
    /**
     * TracedCallback signature of NewFlowlet.
     * \param flowHash the flow hash (the table entry is flowHash % TableSize)
     * \param previousPort the entry's previous port (4294967295 if none)
     * \param port the new flowlet's port
     */
    typedef void (*NewFlowletCallback)(uint32_t flowHash, uint32_t previousPort, uint32_t port);

    /**
     * \brief Get the TypeId.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FlowletLoadBalancer();
    ~FlowletLoadBalancer() override;

    /**
     * \brief The flow's port while its flowlet lasts, else ChoosePath()'s.
     * \param key the packet's parsed fields
     * \param ports candidate switch-port indices
     * \param n number of candidates, >= 1 (aborts on 0)
     * \param now current simulation time
     * \return one element of \p ports
     */
    uint32_t Select(const SwitchFlowKey& key, const uint32_t* ports, uint32_t n, Time now) override;

    /**
     * \brief Assign a fixed stream to the path draws.
     * \param stream stream index
     * \return 1
     */
    int64_t AssignStreams(int64_t stream) override;

    /// \return the counters since construction
    const FlowletCounters& GetCounters() const;

    /**
     * \brief Set the idle gap that ends a flowlet (attribute FlowletGap).
     * \param gap > 0 (an input error names the value otherwise)
     */
    void SetFlowletGap(Time gap);
    /// \return the idle gap that ends a flowlet
    Time GetFlowletGap() const;
    /**
     * \brief Set the number of flowlet table entries (attribute TableSize); clears the table.
     * \param entries 1..16777216 (an input error names the value otherwise)
     */
    void SetTableSize(uint32_t entries);
    /// \return the number of flowlet table entries
    uint32_t GetTableSize() const;

  protected:
    void DoDispose() override;

    /**
     * \brief The port of a new flowlet.
     * \param key the packet's parsed fields
     * \param flowHash Hash(key)
     * \param ports candidate switch-port indices
     * \param n number of candidates, >= 2
     * \param previous index in \p ports of the flow's port in its previous flowlet; n if it
     *        had none or that port is not a candidate now
     * \param now current simulation time
     * \return an index into \p ports (< n)
     */
    virtual uint32_t ChoosePath(const SwitchFlowKey& key,
                                uint32_t flowHash,
                                const uint32_t* ports,
                                uint32_t n,
                                uint32_t previous,
                                Time now);

    /**
     * \brief Draw from the balancer's random stream (the one AssignStreams sets).
     * \param n number of outcomes, >= 1
     * \return uniformly 0..n-1
     */
    uint32_t DrawIndex(uint32_t n);

    /**
     * \brief Called for every packet sent to a port (after the choice), e.g. to keep port
     *        load; the base does nothing.
     * \param port the chosen port
     * \param bytes the packet's IPv4 total length
     * \param now current simulation time
     */
    virtual void NotifySent(uint32_t port, uint32_t bytes, Time now);

    FlowletCounters m_counters; //!< decisions, flowlets, path changes

    /// New flowlet: flow hash, previous port of its table entry (UINT32_MAX if none), new port.
    TracedCallback<uint32_t, uint32_t, uint32_t> m_flowletTrace;

  private:
    /// One flowlet table entry.
    struct Entry
    {
        int64_t lastSeen;  //!< time step of the entry's last packet
        uint32_t port;     //!< its port (UINT32_MAX: never used)
        uint32_t position; //!< index of port among the candidates it was chosen from
    };

    std::vector<Entry> m_table;       //!< the flowlet table
    Time m_gap;                       //!< attribute FlowletGap
    Ptr<UniformRandomVariable> m_rng; //!< path draws of ChoosePath
};

} // namespace ns3

#endif /* FLOWLET_LOAD_BALANCER_H */
