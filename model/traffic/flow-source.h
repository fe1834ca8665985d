/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: transport-neutral flows (FlowSpec) and the interface of everything that produces
 * them one at a time (FlowSource), plus a merge of several sources in start order.
 */
#ifndef FLOW_SOURCE_H
#define FLOW_SOURCE_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-traffic
 * \brief One flow, independent of the transport that will carry it: \p sizeBytes bytes from
 *        host \p src to host \p dst, starting at \p start.
 *
 * Hosts are indices (0..N-1) of the generator or file that made the flow; a runner maps them
 * to its nodes or ranks (as FabricFlowRunner maps matrix nodes to ranks).
 */
struct FlowSpec
{
    uint64_t id{0};        //!< flow id, >= 1, unique within one source (0 = none)
    uint32_t src{0};       //!< source host index
    uint32_t dst{0};       //!< destination host index, != src
    uint64_t sizeBytes{0}; //!< flow size in bytes, >= 1
    Time start;            //!< start time (absolute simulation time), >= 0
};

/**
 * \brief Compare all fields of two flows.
 * \param a a flow
 * \param b a flow
 * \return true if id, src, dst, sizeBytes and start are equal
 */
bool operator==(const FlowSpec& a, const FlowSpec& b);
/**
 * \brief Compare all fields of two flows.
 * \param a a flow
 * \param b a flow
 * \return true if a field differs
 */
bool operator!=(const FlowSpec& a, const FlowSpec& b);

/**
 * \ingroup ai-fabric-traffic
 * \brief Produces flows one at a time in non-decreasing start order, so that a runner can
 *        schedule the next start lazily and hold only the flows that are active (memory that
 *        grows with active flows, not with all flows ever started).
 *
 * Implemented by FlowArrivalGenerator (Poisson arrivals), IncastGenerator (N to 1),
 * FlowListReader (a flow-list file read line by line) and FlowSourceMerger (several sources
 * in one start order). A runner's loop:
 *
 *     std::optional<FlowSpec> f = source->Next();   // then, at f->start: start f and
 *     Simulator::Schedule(f->start - Now(), ...);   // ask for the next one
 */
class FlowSource : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~FlowSource() override;

    /**
     * \brief The next flow; its start is >= the start of every flow returned before.
     * \return the flow, or std::nullopt when the source is exhausted (and from then on)
     */
    virtual std::optional<FlowSpec> Next() = 0;

    /**
     * \brief Assign fixed random-variable streams to the source's random variables.
     * \param stream the first stream index to use
     * \return the number of streams used (0 for a source without randomness)
     */
    virtual int64_t AssignStreams(int64_t stream) = 0;

    /**
     * \brief Drain the source: every remaining flow, in Next() order. Memory grows with the
     *        number of flows; a simulation should call Next() as it goes instead.
     * \return the flows
     */
    std::vector<FlowSpec> GenerateAll();
};

/**
 * \ingroup ai-fabric-traffic
 * \brief Merges several FlowSources into one start order (e.g. Poisson background traffic
 *        and a periodic incast). Holds one pending flow per source.
 *
 * Flows with equal start times come in the order the sources were added. Flows keep the ids
 * their sources gave them: give the sources disjoint id ranges (their FirstFlowId attributes)
 * if ids must be unique. AssignStreams() assigns consecutive streams to the sources in the
 * order they were added.
 */
class FlowSourceMerger : public FlowSource
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FlowSourceMerger();
    ~FlowSourceMerger() override;

    /**
     * \brief Add a source; aborts if \p source is null, is this merger, or Next() was already
     *        called.
     * \param source the source
     */
    void Add(Ptr<FlowSource> source);
    /// \return the number of sources added
    uint32_t GetNSources() const;

    std::optional<FlowSpec> Next() override;
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    std::vector<Ptr<FlowSource>> m_sources;         //!< sources, in the order added
    std::vector<std::optional<FlowSpec>> m_pending; //!< next flow of each source
    bool m_started{false};                          //!< the first Next() happened
};

} // namespace ns3

#endif /* FLOW_SOURCE_H */
