/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: named reasons (why a packet was dropped, marked, trimmed) with one counter each.
 */
#ifndef FABRIC_REASON_COUNTERS_H
#define FABRIC_REASON_COUNTERS_H

#include "ns3/assert.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-engine
 * \brief Named reasons, each with a counter: the per-reason drop and mark statistics of ns-3's
 *        QueueDisc::Stats (a count per reason string, e.g. "Forced drop"), with the reasons
 *        declared up front so that counting on the data path is one array increment and the
 *        names are used only when reporting.
 *
 * A component declares its reasons once (an enum whose values are the ids, and the same
 * names in the same order), counts with Count(id) and fires one trace source carrying the
 * reason; readers get a count by id or name, the total, or a name -> count map
 * (GetMap(), the QueueDisc::Stats::nDroppedPacketsBeforeEnqueue idiom). Iterating the object
 * visits the counts in id order, so `for (auto n : counters)` sums like an array.
 * Used for FabricSwitch drops and marks (SwitchDropReason, SwitchMarkReason); a component
 * with other reasons (a port, a NIC) declares its own instance. Copies share the names (a
 * fabric of thousands of switches holds one list of names per kind), so the usual pattern is
 * one prototype copied into every component.
 */
class FabricReasonCounters
{
  public:
    /// Iterator over the counts, in id order.
    typedef std::vector<uint64_t>::const_iterator const_iterator;

    FabricReasonCounters() = default;

    /**
     * \brief Declare reasons; the first gets id 0, the next id 1, and so on.
     * \param names distinct, non-empty names (aborts otherwise, naming the offending one)
     */
    FabricReasonCounters(std::initializer_list<const char*> names);

    /**
     * \brief Declare one more reason.
     * \param name a non-empty name not declared yet (aborts otherwise, naming it)
     * \return its id (the number of reasons declared before it)
     */
    uint32_t AddReason(const std::string& name);

    /**
     * \brief Count occurrences of a reason (data path: no check beyond an NS_ASSERT).
     * \param id a declared reason id, < GetN()
     * \param n occurrences to add
     */
    void Count(uint32_t id, uint64_t n = 1)
    {
        NS_ASSERT_MSG(id < m_counts.size(), "reason id " << id << " not declared");
        m_counts[id] += n;
    }

    /**
     * \param id a reason id (< GetN(); aborts otherwise, naming the valid range)
     * \return its count
     */
    uint64_t Get(uint32_t id) const;
    /**
     * \param name a declared reason name (aborts otherwise, listing the declared names)
     * \return its count
     */
    uint64_t Get(const std::string& name) const;

    /**
     * \param id a reason id (< GetN(); aborts otherwise, naming the valid range)
     * \return its count (array-style read access)
     */
    uint64_t operator[](std::size_t id) const
    {
        return Get(static_cast<uint32_t>(id));
    }

    /**
     * \param name a reason name
     * \return its id, or -1 if it is not declared
     */
    int32_t Find(const std::string& name) const;
    /**
     * \param id a reason id (< GetN(); aborts otherwise, naming the valid range)
     * \return its name
     */
    const std::string& GetName(uint32_t id) const;

    /// \return the number of reasons declared
    uint32_t GetN() const
    {
        return static_cast<uint32_t>(m_counts.size());
    }

    /// \return GetN() (array-style)
    std::size_t size() const
    {
        return m_counts.size();
    }

    /// \return the sum of all counts
    uint64_t GetTotal() const;
    /// \return every declared reason's name with its count (zeros included)
    std::map<std::string, uint64_t> GetMap() const;
    /// Set every count to 0 (the reasons stay declared).
    void Reset();

    /**
     * \brief Print the non-zero counts as "name: count" separated by ", " ("none" if all 0).
     * \param os the stream
     */
    void Print(std::ostream& os) const;

    /// \return iterator to the count of id 0
    const_iterator begin() const
    {
        return m_counts.begin();
    }

    /// \return iterator past the last count
    const_iterator end() const
    {
        return m_counts.end();
    }

  private:
    /// Abort unless \p id < GetN(), naming \p id and the valid range.
    void CheckId(uint32_t id) const;

    std::vector<uint64_t> m_counts; //!< count per reason id
    /// Name per reason id, shared by copies (copied before a copy declares more).
    std::shared_ptr<std::vector<std::string>> m_names;
};

/**
 * \brief Print the non-zero counts (FabricReasonCounters::Print).
 * \param os the stream
 * \param counters the counters
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, const FabricReasonCounters& counters);

} // namespace ns3

#endif /* FABRIC_REASON_COUNTERS_H */
